"""What ``aces class serve`` tells the teacher when it starts, in the teacher's
language: the pupils' address and the class code, a QR code of the join link
that a phone can scan off the terminal, the teacher's private address; on the
same folder again, that it goes on with the class, at the same code and the
same secret; and a folder it cannot go on with (other rules, a log changed
since it was written) refused in one line, nothing of it touched. On every
address of the machine (``--host 0.0.0.0``), the address it prints is one
other devices can reach, and that address is a name it answers to."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import typing as t

import httpx
import pytest
import segno

from aces.server.serve import addresses, hosts

from classtest import Launched, Player, Server, join

if t.TYPE_CHECKING:
    from pathlib import Path

#: What the server says, by language: the pupils' line, the teacher's, the
#: logs', the line of a class it goes on with, the notice of a line cut short.
SAID: t.Final = {
    "en": ("Pupils open {base} and type the code {code}, or scan this:",
           "The projector and the teacher's controls, at an address to keep to yourself:"
           " {base}/teacher/{secret}",
           "The groups' logs are kept in {folder}. Ctrl-C stops the server; the same command"
           " serves the class again.",
           "Going on with the class in {folder}: 1 group has joined.",
           "The last line of group-001.jsonl (Wolves, line {line}) was cut short while it was"
           " written, so it is dropped; it was never recorded for the group.",
           "Stopped. The class is kept in {folder}; the same command serves it again."),
    "nb": ("Elevene åpner {base} og skriver inn koden {code}, eller skanner denne:",
           "Projektoren og lærerens knapper, på en adresse du holder for deg selv:"
           " {base}/teacher/{secret}",
           "Loggene til gruppene lagres i {folder}. Ctrl-C stopper tjeneren; samme kommando"
           " kjører klassen igjen.",
           "Fortsetter med klassen i {folder}: én gruppe er med.",
           "Den siste linjen i group-001.jsonl (Wolves, linje {line}) ble avbrutt mens den ble"
           " skrevet, så den er fjernet; den ble aldri ført inn for gruppen.",
           "Stoppet. Klassen er lagret i {folder}; samme kommando kjører den igjen."),
}
#: A terminal's half blocks, as the modules each shows: (upper, lower), inked or not.
HALVES: t.Final = {"█": (True, True), "▀": (True, False), "▄": (False, True), " ": (False, False)}
_ADDRESS: t.Final = re.compile(r"(http://[^/\s]+:(\d+))/teacher/(\S+)")


def scanned(lines: list[str]) -> list[list[bool]]:
    """The QR code drawn in half blocks, as a matrix of dark modules without its
    quiet zone (which is drawn inked: a terminal's ink is the code's light)."""
    rows: list[list[bool]] = []
    for line in lines:
        halves = [HALVES[char] for char in line]
        rows += [[upper for upper, _ in halves], [lower for _, lower in halves]]
    width = len(rows[0])
    size = width - 4
    rows = rows[:width]  # the last line's lower half is the terminal's, not the code's
    assert len(rows) == width, "the code is not square"
    for row in rows[:2] + rows[-2:]:
        assert all(row), "the quiet zone is not light"
    for row in rows:
        assert all(row[:2] + row[-2:]), "the quiet zone is not light"
    return [[not inked for inked in row[2:2 + size]] for row in rows[2:2 + size]]


def encodes(matrix: list[list[bool]], link: str) -> bool:
    """Whether ``matrix`` is segno's QR code of ``link``, at any level of error
    correction."""
    return any([[bool(module) for module in row] for row in segno.make(
        link, error=level, boost_error=False, micro=False).matrix] == matrix
        for level in "lmqh")


def announced(server: Launched) -> tuple[str, list[str], str, str]:
    """What a server said before it served: the pupils' line, the QR code's
    lines, the teacher's line and the logs' line."""
    out = server.out
    start = next(number for number, line in enumerate(out) if "http://" in line)
    teacher = next(number for number, line in enumerate(out) if "/teacher/" in line)
    return out[start], out[start + 1:teacher], out[teacher], out[teacher + 1]


def served(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``aces class serve FOLDER ARGS``, expected to refuse before it serves."""
    return subprocess.run([sys.executable, "-m", "aces", "class", "serve", str(folder),
                           "--host", "127.0.0.1", "--port", "0", *args],
                          capture_output=True, text=True, timeout=60, check=False,
                          env={**os.environ, "LANG": "C.UTF-8"})


def contents(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


@pytest.mark.parametrize("lang", ["en", "nb"])
def test_the_teacher_is_told_how_pupils_join_and_the_class_goes_on_at_the_same_code(
        tmp_path: Path, lang: str) -> None:
    folder = tmp_path / "lesson-3"
    pupils, teacher, logs, going_on, cut, stopped = SAID[lang]
    with Server(folder, "--lang", lang) as server, server.client() as client:
        first, picture, secret_line, logs_line = announced(server)
        code = json.loads((folder / "class.json").read_text())["code"]
        assert server.out[0] == first  # nothing before it on a new class
        assert first == pupils.format(base=server.base, code=code)
        assert secret_line == teacher.format(base=server.base, secret=server.secret)
        assert logs_line == logs.format(folder=folder)
        assert encodes(scanned(picture), f"{server.base}/join/{code}")
        assert not encodes(scanned(picture), f"{server.base}/join/")
        # The link in the code is the page that joins the class.
        page = client.get(f"/join/{code}")
        assert page.status_code == 200
        assert f'value="{code}"' in page.text
        group, token, state = join(client, code, "Wolves", ["Ada", "Bo"])
        player = Player(client, group, token, state, seed=11)
        for _ in range(3):
            player.roll()
    assert server.out[-1] == stopped.format(folder=folder)
    assert [line for line in server.err if line] == []

    # The last roll's line cut short as a crash leaves it.
    log = folder / "group-001.jsonl"
    written = log.read_bytes()
    log.write_bytes(written + written.splitlines(keepends=True)[-1][:20])
    with Server(folder, "--lang", lang) as again, again.client() as client:
        assert again.out[:2] == [going_on.format(folder=folder),
                                 cut.format(line=len(written.splitlines()) + 1)]
        first, picture, secret_line, _ = announced(again)
        # The same code and the same secret: the pupils' pages and the
        # projector go on as they were.
        assert first == pupils.format(base=again.base, code=code)
        assert secret_line == teacher.format(base=again.base, secret=server.secret)
        assert encodes(scanned(picture), f"{again.base}/join/{code}")
        assert client.get(f"/api/v1/groups/{group}", headers=player.auth).json()["seq"] == (
            player.state["seq"])
        assert client.get("/api/v1/class", headers=again.teacher).status_code == 200
    assert log.read_bytes() == written


#: Resuming with other rules: the options given, the language, what is said.
OTHER_RULES: t.Final = [
    (["--chips", "3"], "en",
     "aces: this folder holds a class of pot begun with other options; serve it as it is,"
     " without --game and the game's options, or give another folder"),
    (["--game", "five-dice"], "nb",
     "aces: denne mappen har en klasse i pot som ble startet med andre valg; kjør den som den"
     " er, uten --game og spillets valg, eller oppgi en annen mappe"),
]


def test_a_class_is_not_resumed_with_other_rules(tmp_path: Path) -> None:
    folder = tmp_path / "lesson-3"
    with Server(folder) as server, server.client() as client:
        join(client, server.code, "Wolves", ["Ada", "Bo"])
    kept = contents(folder)
    for args, lang, said in OTHER_RULES:
        done = served(folder, "--lang", lang, *args)
        assert done.returncode == 2, done.stderr
        assert done.stderr.splitlines() == [said]
        assert done.stdout == ""
        assert contents(folder) == kept
    # The same rules named again are no other rules.
    with Server(folder, "--game", "pot", "--chips", "2") as again:
        assert again.code == server.code


def test_a_log_changed_since_it_was_written_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "lesson-3"
    with Server(folder) as server, server.client() as client:
        group, token, state = join(client, server.code, "Wolves", ["Ada", "Bo"])
        player = Player(client, group, token, state, seed=12)
        first = player.roll()
        player.roll()
    log = folder / "group-001.jsonl"
    lines = log.read_bytes().splitlines(keepends=True)
    rolled = json.loads(lines[1])
    assert rolled["dice"] == first["events"][0]["dice"]
    rolled["dice"] = [7 - face for face in rolled["dice"]]
    lines[1] = json.dumps(rolled, separators=(",", ":")).encode() + b"\n"
    log.write_bytes(b"".join(lines))
    kept = contents(folder)
    for lang, said in [("en", f"{log}, line 2: the digest does not match"),
                       ("nb", f"{log}, linje 2: kontrollsummen («digest») stemmer ikke")]:
        done = served(folder, "--lang", lang)
        assert done.returncode == 1, done.stderr
        assert len(done.stderr.splitlines()) == 1, done.stderr
        assert done.stderr.startswith(f"aces: {said}: ")
        assert done.stdout == ""
    assert contents(folder) == kept


def own_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, as ``ip`` lists them."""
    tool = shutil.which("ip")
    if tool is None:
        pytest.skip("no ip command to list the machine's addresses")
    listed = subprocess.run([tool, "-o", "-4", "address", "show"], capture_output=True,
                            text=True, check=True).stdout
    return [address for address in re.findall(r"\binet (\d+\.\d+\.\d+\.\d+)/", listed)
            if not address.startswith("127.")]


def test_on_every_address_it_prints_and_answers_to_one_the_pupils_can_reach(
        tmp_path: Path) -> None:
    machine = own_addresses()
    found = addresses("0.0.0.0")
    assert set(machine) <= set(found)
    assert addresses("127.0.0.1") == ["127.0.0.1"]
    assert f"{found[0]}:8000" in hosts("0.0.0.0", 8000)
    assert "attacker.example:8000" not in hosts("0.0.0.0", 8000)
    assert {"localhost", "127.0.0.1", "localhost:80"} <= set(hosts("127.0.0.1", 80))
    if not machine:
        pytest.skip("this machine has no address but loopback")
    folder = tmp_path / "lesson-3"
    with Launched(["class", "serve", str(folder), "--host", "0.0.0.0", "--port", "0"],
                  _ADDRESS, "the server") as server:
        shown = httpx.URL(server.base).host
        assert shown in machine
        code = json.loads((folder / "class.json").read_text())["code"]
        assert server.out[0] == SAID["en"][0].format(base=server.base, code=code)
        # A pupil's device, which asks for the page by the address printed.
        with httpx.Client(base_url=f"http://127.0.0.1:{server.port}", timeout=10) as client:
            for address in machine:
                page = client.get("/", headers={"host": f"{address}:{server.port}"})
                assert page.status_code == 200, (address, page.text)
            name = socket.gethostname().lower()
            assert client.get("/", headers={"host": f"{name}:{server.port}"}).status_code == 200
            other = client.get("/", headers={"host": f"attacker.example:{server.port}"})
            assert other.status_code == 421
            # And reached at that address itself.
            reached = httpx.get(f"{server.base}/", timeout=10)
            assert reached.status_code == 200
    assert [line for line in server.err if line] == []
