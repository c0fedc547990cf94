"""A projector that stops reading (a laptop gone to sleep, a Wi-Fi that fell
away without a word): once the server's buffers are full, its stream is
dropped after :data:`~aces.server.stream.SEND_TIMEOUT` seconds, its place
freed for the projector that comes back, and nothing written to the
server's output (sse-starlette's timeout once reached it as a traceback)."""

from __future__ import annotations

import json
import shutil
import socket
import time
import typing as t

from aces.server.stream import SEND_TIMEOUT

from classtest import Server, join, wait_until
from recordtest import run

if t.TYPE_CHECKING:
    from pathlib import Path

#: Games in the group's log: some 6 MB of lines, more than a stalled
#: connection's buffers take (the server's grow to 4 MB on Linux).
GAMES: t.Final = 1000
PLAYERS: t.Final = ["Ada", "Bo", "Cy"]


def long_log(tmp_path: Path) -> bytes:
    """A log of :data:`GAMES` games at the table of :data:`PLAYERS`, as a group
    records it: random dice played by ``aces play``, played again from a
    dice file so that its first line (no seed) is the class's."""
    seeded = tmp_path / "seeded.jsonl"
    done = run("play", "--players", ",".join(PLAYERS), "--games", str(GAMES), "--seed", "5",
               "-o", str(seeded))
    assert done.exit_code == 0, done.output
    dice = tmp_path / "rolls.dice"
    dice.write_text("".join(" ".join(map(str, event["dice"])) + "\n"
                            for event in map(json.loads, seeded.read_bytes().splitlines())
                            if event["type"] == "rolled"), encoding="utf-8")
    again = tmp_path / "again.jsonl"
    done = run("play", "--players", ",".join(PLAYERS), "--games", str(GAMES),
               "--dice-file", str(dice), "-o", str(again))
    assert done.exit_code == 0, done.output
    return again.read_bytes()


def test_a_projector_that_stops_reading_is_dropped_and_its_place_freed(tmp_path: Path) -> None:
    folder = tmp_path / "class"
    with Server(folder) as server, server.client() as client:
        join(client, server.code, "Long", PLAYERS)
    written = long_log(tmp_path)
    assert written.splitlines()[0] == (folder / "group-001.jsonl").read_bytes().splitlines()[0]
    # The rolls came in just before a crash: the server gives them their place
    # in the class's feed on start.
    shutil.copyfile(tmp_path / "again.jsonl", folder / "group-001.jsonl")
    with Server(folder, "--max-projectors", "1") as server, \
            server.client(**server.teacher) as client, \
            socket.socket(socket.AF_INET, socket.SOCK_STREAM) as stalled:
        # A window as small as the system allows, so the server's buffers fill.
        stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        stalled.connect(("127.0.0.1", server.port))
        stalled.sendall(f"GET /api/v1/class/events HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                        f"Authorization: Bearer {server.secret}\r\n\r\n".encode())
        opened = time.monotonic()

        def refused() -> bool:
            with client.stream("GET", "/api/v1/class/events") as other:
                return other.status_code == 503

        # The stalled stream holds the one place (once the server has read its
        # request), then loses it.
        wait_until(refused)

        def free() -> bool:
            with client.stream("GET", "/api/v1/class/events") as other:
                if other.status_code != 200:
                    return False
                assert next(other.iter_lines()) == "event: class"
                return True

        wait_until(free, timeout=SEND_TIMEOUT + 20)
        waited = time.monotonic() - opened
        assert SEND_TIMEOUT - 1 <= waited <= SEND_TIMEOUT + 20
        # The server closed the stalled connection: read to its end, it ends.
        stalled.settimeout(20)
        got = 0
        while chunk := stalled.recv(1 << 16):
            got += len(chunk)
        assert got < len(written) * 2
        assert client.get("/api/v1/class").status_code == 200
        assert server.stop() == 130
    assert [line for line in server.err if line] == [], server.err
