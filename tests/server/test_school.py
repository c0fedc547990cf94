"""The school's class server as processes on one real PostgreSQL (aces class serve
--store): two processes serving one class, kill -9 of one under load, export
and verify, teachers who see their own classes alone, and the database gone
and back, every answer a school's tools rely on."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import typing as t

import httpx
import pytest

from classtest import Player, due, join
from pgtest import SchoolServer, new_class, teacher_key

if t.TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from pgtest import Cluster


@pytest.fixture(scope="module")
def school(postgresql: Cluster) -> str:
    return postgresql.database("school")


@pytest.fixture(scope="module")
def servers(school: str) -> Iterator[tuple[SchoolServer, SchoolServer]]:
    # A database that does not answer is told within a second.
    behind = ("--store-timeout", "1", "--public-url", "https://klasse.skolen.example",
              "--trusted-proxy", "127.0.0.1")
    with SchoolServer(school, *behind) as one, SchoolServer(school, *behind) as two:
        yield one, two
        for server in (one, two):
            if server.process.poll() is None:
                # Ctrl-C ends it as it ends every command of aces: status 130.
                assert server.stop() == 130
            # Nothing but the notices of the database gone and back (one test
            # stops it), each one line.
            assert [line for line in server.err if line and "class store" not in line] == [], \
                server.err


@pytest.fixture(scope="module")
def key(school: str) -> str:
    return teacher_key(school, "Kari Nordmann")


class Projector:
    """A projector's stream of the class, read in a thread: every block's id."""

    def __init__(self, server: SchoolServer, secret: str, after: int | None = None) -> None:
        self.ids: list[int] = []
        self.blocks: list[dict[str, t.Any]] = []
        self._stop = threading.Event()
        headers = {"authorization": f"Bearer {secret}"}
        if after is not None:
            headers["last-event-id"] = str(after)
        self._thread = threading.Thread(target=self._read, args=(server.base, headers),
                                        daemon=True)
        self._thread.start()

    def _read(self, base: str, headers: dict[str, str]) -> None:
        with httpx.Client(base_url=base, timeout=30) as client, client.stream(
                "GET", "/api/v1/class/events", headers=headers) as stream:
            event: dict[str, str] = {}
            for line in stream.iter_lines():
                if self._stop.is_set():
                    return
                if not line:
                    if event.get("event") == "block":
                        self.ids.append(int(event["id"]))
                        self.blocks.append(json.loads(event["data"]))
                    event = {}
                    continue
                name, _, value = line.partition(":")
                event[name] = value.strip()

    def wait_for(self, count: int, timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while len(self.ids) < count:
            if time.monotonic() > deadline:
                raise AssertionError(f"the projector saw {len(self.ids)} blocks, not {count}")
            time.sleep(0.02)

    def close(self) -> None:
        self._stop.set()


def test_a_group_alternating_between_two_processes_reaches_a_projector_on_one(
        servers: tuple[SchoolServer, SchoolServer], key: str) -> None:
    one, two = servers
    with one.client() as first, two.client() as second:
        made = new_class(first, key)
        projector = Projector(one, made["secret"])
        try:
            group, token, state = join(second, made["code"], "Alternating", ["Ada", "Bo", "Cy"])
            player = Player(first, group, token, state, seed=3)
            seqs = []
            started = time.monotonic()
            for turn in range(16):
                # The group's devices reach the processes in turn.
                player.client = (first, second)[turn % 2]
                answer = player.roll()
                state = answer["group"]
                seqs.append((answer["first"], answer["seq"]))
            # Every roll, whichever process took it, reaches the projector on
            # one, in the feed's order: no gap, nothing twice.
            projector.wait_for(17)
            assert time.monotonic() - started < 20
            assert projector.ids == list(range(1, 18))
            shown = [(block["first"], block["last"]) for block in projector.blocks[1:]]
            assert shown == seqs
            # Both processes show the group as it stands.
            for client in (first, second):
                view = client.get(f"/api/v1/groups/{group}",
                                  headers={"authorization": f"Bearer {token}"}).json()
                assert view["seq"] == state["seq"]
            # A projector resuming on the other process from an id the first gave.
            resumed = Projector(two, made["secret"], after=10)
            resumed.wait_for(7)
            assert resumed.ids == list(range(11, 18))
            resumed.close()
        finally:
            projector.close()


def test_kill_9_of_one_process_under_load_loses_nothing_acknowledged(
        servers: tuple[SchoolServer, SchoolServer], school: str, key: str,
        tmp_path: Path) -> None:
    """Groups post to two processes in turn; one is killed with SIGKILL in the
    middle; every post whose answer was lost is sent again, same id, to the
    other. Every acknowledged roll is in the logs, none twice, and the export
    verifies."""
    steady = servers[0]
    doomed = SchoolServer(school)
    try:
        with steady.client() as client:
            made = new_class(client, key)
            groups = [join(client, made["code"], f"Table {n}", ["Ada", "Bo", "Cy"])
                      for n in range(4)]
        acknowledged: dict[str, tuple[int, int, list[t.Any]]] = {}
        lock = threading.Lock()
        killed = threading.Event()
        failures: list[str] = []

        def play(number: int, token: str, state: dict[str, t.Any]) -> None:
            bases = [steady.base, doomed.base]
            count = 0
            with httpx.Client(timeout=5) as http:
                for turn in range(14):
                    game, dice = due(state)
                    count += 1
                    body = {"id": f"g{number}-{count}", "seq": state["seq"], "game": game,
                            "dice": [(turn + k + number) % 6 + 1 for k in range(dice)]}
                    # Sent until answered, as a page does: the same id each time.
                    deadline = time.monotonic() + 60
                    attempt = 0
                    answer = None
                    while time.monotonic() < deadline:
                        base = bases[(turn + attempt) % 2] if not killed.is_set() else bases[0]
                        attempt += 1
                        try:
                            answer = http.post(f"{base}/api/v1/groups/{number}/rolls",
                                               json=body,
                                               headers={"authorization": f"Bearer {token}"})
                        except httpx.HTTPError:
                            continue
                        break
                    if answer is None or answer.status_code != 200:
                        failures.append(f"{body['id']}: "
                                        f"{'no answer' if answer is None else answer.text}")
                        return
                    data = answer.json()
                    with lock:
                        acknowledged[body["id"]] = (data["first"], data["seq"], data["events"])
                    state = data["group"]

        threads = [threading.Thread(target=play, args=group) for group in groups]
        for thread in threads:
            thread.start()
        while len(acknowledged) < 20:
            time.sleep(0.01)
        doomed.kill()
        killed.set()
        for thread in threads:
            thread.join(60)
        assert failures == []
        assert len(acknowledged) == 4 * 14
        folder = tmp_path / "exported"
        exported = subprocess.run([sys.executable, "-m", "aces", "class", "export",
                                   made["code"], str(folder), "--store", school],
                                  capture_output=True, text=True, check=False)
        assert exported.returncode == 0, exported.stderr
    finally:
        doomed.kill()
    logs = sorted(folder.glob("group-*.jsonl"))
    assert len(logs) == 4
    # Every acknowledged block is in its log, where its answer placed it, and
    # no submission was written twice: the lines are numbered 1.. with no
    # gap and the log verifies (a duplicated roll would break the rules).
    for log in logs:
        done = subprocess.run([sys.executable, "-m", "aces", "verify", str(log)],
                              capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stdout + done.stderr
    lines = {log.name: [json.loads(line) for line in log.read_bytes().splitlines()]
             for log in logs}
    written: dict[str, int] = dict.fromkeys(lines, 1)
    for name, (first, last, events) in acknowledged.items():
        kept_in = f"group-{int(name[1:].split('-')[0]):03d}.jsonl"
        # Its lines are where its answer said, with the events it told.
        kept = [{k: v for k, v in line.items() if k not in ("seq", "digest")}
                for line in lines[kept_in][first - 1:last]]
        assert kept == events
        written[kept_in] += last - first + 1
    # And nothing else: every line of every log is an acknowledged roll's (or
    # the header), so no retry was written twice.
    assert written == {log: len(kept) for log, kept in lines.items()}


def test_an_export_is_the_logs_byte_for_byte(servers: tuple[SchoolServer, SchoolServer],
                                             key: str, school: str, tmp_path: Path) -> None:
    """The exported logs are the lines the database holds, with their digests;
    aces verify and aces stats read them; aces class serve DIR goes on with
    them; and the class's download holds the same bytes."""
    import zipfile
    from io import BytesIO

    from classtest import Server

    one, _ = servers
    with one.client() as client:
        made = new_class(client, key)
        group, token, state = join(client, made["code"], "Exported", ["Kari", "Ola"], "nb")
        player = Player(client, group, token, state, seed=9)
        for _ in range(12):
            player.roll()
        download = client.get("/api/v1/class/download",
                              headers={"authorization": f"Bearer {made['secret']}"})
    folder = tmp_path / "class"
    done = subprocess.run([sys.executable, "-m", "aces", "class", "export", str(made["number"]),
                           str(folder), "--store", school], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    log = folder / "group-001.jsonl"
    with zipfile.ZipFile(BytesIO(download.content)) as archive:
        assert archive.read("group-001.jsonl") == log.read_bytes()
    answered = [line for answer in player.acknowledged for line in answer["events"]]
    written = [json.loads(line) for line in log.read_bytes().splitlines()]
    assert [{k: v for k, v in line.items() if k not in ("seq", "digest")}
            for line in written[1:]][:len(answered)] == answered
    for command in (["verify", str(log)], ["stats", str(log)]):
        checked = subprocess.run([sys.executable, "-m", "aces", *command],
                                 capture_output=True, text=True, check=False)
        assert checked.returncode == 0, checked.stderr
    # Exporting into a folder that holds anything is refused.
    again = subprocess.run([sys.executable, "-m", "aces", "class", "export",
                            str(made["number"]), str(folder), "--store", school],
                           capture_output=True, text=True, check=False)
    assert again.returncode == 2
    assert "is not empty" in again.stderr
    # The folder is a laptop's class: served, it goes on where it stopped.
    with Server(folder) as laptop, laptop.client() as client:
        view = client.get(f"/api/v1/groups/{group}",
                          headers={"authorization": f"Bearer {token}"}).json()
        assert view["seq"] == player.state["seq"]


def test_a_laptops_class_imported_goes_on_at_the_school(
        servers: tuple[SchoolServer, SchoolServer], school: str, tmp_path: Path) -> None:
    """aces class import DIR: the laptop's class comes whole (its groups, their
    tokens, its secret, every log byte for byte), is the teacher's, and goes
    on being recorded; a folder with a log that does not verify brings in
    nothing, and one class is brought in once."""
    from classtest import Server

    folder = tmp_path / "laptop"
    with Server(folder) as laptop, laptop.client() as client:
        code = client.get("/api/v1/class",
                          headers={"authorization": f"Bearer {laptop.secret}"}).json()["code"]
        group, token, state = join(client, code, "Brought", ["Kari", "Ola"], "nb")
        player = Player(client, group, token, state, seed=5)
        for _ in range(6):
            player.roll()
        secret = laptop.secret
    logs = {path.name: path.read_bytes() for path in folder.glob("*.jsonl")}
    label = "Importer"
    key = teacher_key(school, label)

    def imported(source: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "aces", "class", "import", str(source),
                               "--teacher", label, "--store", school], capture_output=True,
                              text=True, check=False)

    # A log changed by hand (a die's face) is refused, at its line, and
    # nothing of the class comes in.
    tampered = tmp_path / "tampered"
    tampered.mkdir()
    for path in folder.iterdir():
        if path.is_file():
            (tampered / path.name).write_bytes(path.read_bytes())
    log = tampered / "group-001.jsonl"
    lines = log.read_bytes().splitlines(keepends=True)
    changed = json.loads(lines[2])
    changed["dice"] = [face % 6 + 1 for face in changed["dice"]]
    lines[2] = json.dumps(changed).encode() + b"\n"
    log.write_bytes(b"".join(lines))
    refused = imported(tampered)
    assert refused.returncode != 0
    assert "group-001.jsonl" in refused.stderr, refused.stderr
    assert "line 3" in refused.stderr, refused.stderr
    assert "Traceback" not in refused.stderr
    one, two = servers
    with one.client() as client:
        assert client.get("/api/v1/classes",
                          headers={"authorization": f"Bearer {key}"}).json() == []
    done = imported(folder)
    assert done.returncode == 0, done.stderr
    assert f"with the code {code}." in done.stdout
    number = int(done.stdout.split("is class ", 1)[1].split()[0])
    with two.client() as client:
        mine = client.get("/api/v1/classes", headers={"authorization": f"Bearer {key}"}).json()
        assert [made["number"] for made in mine] == [number]
        # The teacher's address and the group's token are the laptop's.
        assert client.get("/api/v1/class",
                          headers={"authorization": f"Bearer {secret}"}).json()["code"] == code
        view = client.get(f"/api/v1/groups/{group}",
                          headers={"authorization": f"Bearer {token}"}).json()
        assert view["seq"] == player.state["seq"]
        player.client = client
        player.roll()
    exported = tmp_path / "back"
    subprocess.run([sys.executable, "-m", "aces", "class", "export", str(number),
                    str(exported), "--store", school], check=True, capture_output=True)
    again = (exported / "group-001.jsonl").read_bytes()
    assert again.startswith(logs["group-001.jsonl"])
    assert len(again.splitlines()) > len(logs["group-001.jsonl"].splitlines())
    twice = imported(folder)
    assert twice.returncode != 0
    assert "on this server already" in twice.stderr


def test_a_teacher_sees_only_their_own_classes(servers: tuple[SchoolServer, SchoolServer],
                                               school: str, key: str) -> None:
    one, two = servers
    other = teacher_key(school, "Per Hansen")
    with one.client() as client:
        mine = new_class(client, key)
        theirs = new_class(client, other)
        listed = client.get("/api/v1/classes", headers={"authorization": f"Bearer {other}"})
        assert [made["number"] for made in listed.json()] == [theirs["number"]]
        # Another teacher's class cannot be closed with one's own key.
        refused = client.post(f"/api/v1/classes/{mine['number']}/close",
                              headers={"authorization": f"Bearer {other}"})
        assert refused.status_code == 404
        assert refused.json()["error"]["code"] == "no_class"
        wrong = client.get("/api/v1/classes", headers={"authorization": "Bearer nonsense"})
        assert wrong.status_code == 403
        assert wrong.json()["error"]["code"] == "not_a_teacher"
        page = client.get(f"/teach/{other}")
        assert page.status_code == 200
        assert theirs["code"] in page.text
        assert mine["code"] not in page.text
        # One class's secret admits to that class alone.
        seen = client.get("/api/v1/class", headers={"authorization": f"Bearer {mine['secret']}"})
        assert seen.json()["code"] == mine["code"]
        # Through the school's proxy: its public name is the server's, and the
        # projector shows the public address to join.
        proxied = client.get(f"/teacher/{mine['secret']}",
                             headers={"host": "klasse.skolen.example",
                                      "x-forwarded-for": "10.1.2.3",
                                      "x-forwarded-proto": "https"})
        assert proxied.status_code == 200
        assert "Open https://klasse.skolen.example and type the code" in proxied.text
        assert client.get("/health", headers={"host": "elsewhere.example"}).status_code == 421
        group, token, _ = join(client, theirs["code"], "Theirs", ["Ada", "Bo"])
        wrong_group = client.get(f"/api/v1/groups/{group}",
                                 headers={"authorization": "Bearer " + mine["secret"]})
        assert wrong_group.status_code == 403
    with two.client() as client:
        # Closed on the other process: its code admits no one, its group
        # records nothing more, and it is the teacher's, closed.
        closed = client.post(f"/api/v1/classes/{theirs['number']}/close",
                             headers={"authorization": f"Bearer {other}"})
        assert closed.status_code == 200
        assert closed.json()["closed"] is not None
    with one.client() as client:
        deadline = time.monotonic() + 10
        while True:
            refused = client.post("/api/v1/join", json={"code": theirs["code"], "label": "Late",
                                                        "players": ["Ada", "Bo"]})
            if refused.status_code == 403 or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert refused.json()["error"]["code"] == "unknown_code"
        state = client.get(f"/api/v1/groups/{group}",
                           headers={"authorization": f"Bearer {token}"}).json()
        roll = client.post(f"/api/v1/groups/{group}/rolls",
                           headers={"authorization": f"Bearer {token}"},
                           json={"id": "late", "seq": state["seq"], "game": 1, "dice": "4"})
        assert roll.status_code == 409
        assert roll.json()["error"]["code"] == "class_closed"


def test_a_class_deleted_by_the_operator_is_gone_from_every_process(
        servers: tuple[SchoolServer, SchoolServer], school: str, key: str) -> None:
    """aces class delete CLASS: the class and its logs go at once, not at the
    end of the retention, and the processes holding it let it go."""
    one, two = servers
    with one.client() as client:
        made = new_class(client, key)
        group, token, state = join(client, made["code"], "Erased", ["Ada", "Bo"])
        Player(client, group, token, state, seed=2).roll()
    with two.client() as client:
        # The other process holds it too.
        assert client.get(f"/api/v1/groups/{group}",
                          headers={"authorization": f"Bearer {token}"}).status_code == 200
    done = subprocess.run([sys.executable, "-m", "aces", "class", "delete", made["code"],
                           "--store", school], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"The class {made['code']} is deleted, with every log in it.\n"
    for server in servers:
        with server.client() as client:
            deadline = time.monotonic() + 10
            while True:
                seen = client.get(f"/api/v1/groups/{group}",
                                  headers={"authorization": f"Bearer {token}"})
                if seen.status_code != 200 or time.monotonic() > deadline:
                    break
                time.sleep(0.05)
            assert seen.status_code == 403
            refused = client.post("/api/v1/join", json={"code": made["code"], "label": "Late",
                                                        "players": ["Ada", "Bo"]})
            assert refused.json()["error"]["code"] == "unknown_code"
    listed = subprocess.run([sys.executable, "-m", "aces", "class", "list", "--store", school],
                            capture_output=True, text=True, check=False)
    assert made["code"] not in listed.stdout
    # Deleted once, it is not there to delete again.
    again = subprocess.run([sys.executable, "-m", "aces", "class", "delete",
                            str(made["number"]), "--store", school], capture_output=True,
                           text=True, check=False)
    assert again.returncode == 2
    assert "has no class" in again.stderr


def test_the_database_gone_answers_503_and_the_server_comes_back(
        servers: tuple[SchoolServer, SchoolServer], postgresql: Cluster, key: str) -> None:
    server = servers[1]
    with server.client() as client:
        made = new_class(client, key)
        group, token, state = join(client, made["code"], "Patient", ["Ada", "Bo"])
        player = Player(client, group, token, state, seed=4)
        player.roll()
        body = player.submission()
        postgresql.halt()
        try:
            health = client.get("/health")
            assert health.status_code == 503
            assert health.json()["error"]["code"] == "unavailable"
            down = player.send(body)
            assert down.status_code == 503
            assert "try again in a moment" in down.json()["error"]["message"]
        finally:
            postgresql.resume()
        deadline = time.monotonic() + 30
        while client.get("/health").status_code != 200:
            assert time.monotonic() < deadline, "the server did not come back"
            time.sleep(0.1)
        again = player.send(body)
        assert again.status_code == 200, again.text
        assert again.json()["first"] == player.state["seq"] + 1
    assert any("cannot be reached; every page answers 503" in line for line in server.err)
    # The notice that it is back comes as the process hears the database
    # again, which may be a moment after the first answer.
    deadline = time.monotonic() + 15
    while not any("answers again" in line for line in server.err):
        assert time.monotonic() < deadline, server.err
        time.sleep(0.1)
    assert all(line.startswith("aces class serve: ") for line in server.err if line)
