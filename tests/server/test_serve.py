"""``aces class serve`` refusing to start: where the package was installed
without its ``class`` extra (a plain ``pip install aces-dice``), one line
that names the install, in the teacher's language; on an option it cannot
take, a usage error (status 2) as every command gives; and nothing of the
class made."""

from __future__ import annotations

import os
import subprocess
import sys
import typing as t
from pathlib import Path

import pytest

from aces.server.serve import EXTRA_MODULES

from clitest import one_line_error, run

REPLAYS: t.Final = Path(__file__).resolve().parents[2] / "replays"


@pytest.mark.parametrize("names", EXTRA_MODULES, ids=lambda names: names[0])
@pytest.mark.parametrize(("lang", "said"), [
    ("en", "aces: aces class serve needs the server that comes with the class extra:"
           " pip install 'aces-dice[class]'"),
    ("nb", "aces: aces class serve trenger tjeneren som følger med tillegget «class»:"
           " pip install 'aces-dice[class]'"),
    ("nn", "aces: aces class serve treng tenaren som følgjer med tillegget «class»:"
           " pip install 'aces-dice[class]'"),
])
def test_serving_without_the_class_extra_says_how_to_install_it(
    names: tuple[str, ...], lang: str, said: str, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in names:
        # A module set to None in sys.modules is one that cannot be imported.
        monkeypatch.setitem(sys.modules, name, None)
    result = run("class", "serve", str(tmp_path / "lesson-3"), "--lang", lang)
    assert one_line_error(result) == said
    assert not (tmp_path / "lesson-3").exists()


@pytest.mark.parametrize(("args", "said"), [
    (["--port", "port"], "Invalid value for '--port': 'port' is not a valid integer"),
    (["--max-groups", "0"], "Invalid value for '--max-groups': 0 is not in the range"),
    (["--bogus"], "No such option '--bogus'"),
    (["--threes"], "--threes is not an option of the game pot"),
    (["--game", "five-dice", "--chips", "3"], "--chips is not an option of the game five-dice"),
    (["--store", "postgresql://aces@/school"], "takes a folder (DIR) or --store, one of them"),
], ids=["port", "range", "unknown", "game-option", "other-game", "dir-and-store"])
def test_an_option_error_is_a_usage_error(args: list[str], said: str, tmp_path: Path) -> None:
    """As every other command of aces: status 2 (click's usage error), one
    line, and nothing of the class made."""
    result = run("class", "serve", str(tmp_path / "lesson-3"), "--host", "127.0.0.1", *args)
    assert said in one_line_error(result)
    assert result.exit_code == 2
    assert not (tmp_path / "lesson-3").exists()


@pytest.mark.parametrize("args", [
    [], ["--store", "postgresql://aces@/school", "--game", "pot"], ["--store", "school"]],
    ids=["neither", "store-and-game", "not-a-database"])
def test_an_option_error_of_the_schools_server_is_a_usage_error(args: list[str]) -> None:
    """The school's server's options too, refused before any database is asked."""
    done = subprocess.run([sys.executable, "-m", "aces", "class", "serve", "--host",
                           "127.0.0.1", "--port", "0", *args], capture_output=True, text=True,
                          timeout=60, check=False, env={**os.environ, "LANG": "C.UTF-8"})
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stderr.startswith("aces: ")


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "is not the log of any group of this class; move it out of the class's folder"),
    ("nb", "er ikke loggen til noen gruppe i denne klassen; flytt den ut av mappen til klassen"),
    ("nn", "er ikkje loggen til nokon gruppe i denne klassen; flytt han ut av mappa til klassen"),
])
def test_a_log_no_group_wrote_stops_the_class_before_it_serves(
    lang: str, said: str, tmp_path: Path,
) -> None:
    """A log with a group's file name, copied in from elsewhere, would stand in
    the pool and keep the group given its number from ever joining: the class
    does not start, says which file in the teacher's language, and leaves it as
    it was."""
    folder = tmp_path / "lesson-3"
    folder.mkdir()
    foreign = folder / "group-001.jsonl"
    foreign.write_bytes((REPLAYS / "three-players.jsonl").read_bytes())
    done = subprocess.run([sys.executable, "-m", "aces", "class", "serve", str(folder),
                           "--host", "127.0.0.1", "--port", "0", "--lang", lang],
                          capture_output=True, text=True, timeout=60, check=False,
                          env={**os.environ, "LANG": "C.UTF-8"})
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines() == [f"aces: {foreign} {said}"]
    assert foreign.read_bytes() == (REPLAYS / "three-players.jsonl").read_bytes()


_THREADS_ALLOCATING = """
import ctypes, sys, threading
from aces.server.serve import few_arenas
if sys.argv[1] == "few":
    assert few_arenas()
together = threading.Barrier(12)
def work():
    kept = [bytes(5000) for _ in range(200)]
    together.wait()
threads = [threading.Thread(target=work) for _ in range(12)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
ctypes.CDLL(None).malloc_stats()
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's arenas are Linux's")
def test_a_servers_threads_share_the_c_librarys_few_pools_of_memory() -> None:
    """Twelve threads holding memory at once: each had a pool of its own,
    whose freed memory no other reused; a server keeps two."""
    def arenas(mode: str) -> int:
        done = subprocess.run([sys.executable, "-c", _THREADS_ALLOCATING, mode],
                              capture_output=True, text=True, check=True)
        return sum(line.startswith("Arena ") for line in done.stderr.splitlines())

    assert arenas("many") > 8
    assert arenas("few") == 2
