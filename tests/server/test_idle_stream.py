"""A projector's stream left open on a quiet class: kept alive by comments a
proxy or a browser sees as traffic, sending nothing else while nothing
happens, its place freed when it goes, and resumed where it left off with
``Last-Event-ID``, no block missed or sent twice."""

from __future__ import annotations

import contextlib
import json
import time
import typing as t

import httpx

from classtest import Player, Server, join, wait_until

if t.TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

#: sse-starlette's keep-alive comes every fifteen seconds.
KEEP_ALIVE: t.Final = 15.0


def events(lines: Iterator[str], until: t.Callable[[list[tuple[str, str, str]]], bool]
           ) -> list[tuple[str, str, str]]:
    """Events as (kind, id, data), a comment as ("comment", "", its text),
    read until ``until`` holds for what was read."""
    got: list[tuple[str, str, str]] = []
    event: dict[str, str] = {}
    for line in lines:
        if line.startswith(":"):
            got.append(("comment", "", line[1:].strip()))
        elif line:
            key, _, value = line.partition(":")
            event[key] = value.strip()
            continue
        elif event:
            got.append((event.get("event", "message"), event.get("id", ""),
                        event.get("data", "")))
            event = {}
        if until(got):
            return got
    raise AssertionError(f"the stream ended after {got}")


def test_an_idle_stream_is_kept_alive_freed_and_resumed(tmp_path: Path) -> None:
    with Server(tmp_path / "class", "--max-projectors", "2") as server, \
            server.client(**server.teacher) as client:
        group, token, state = join(client, server.code, "Idle", ["Ada", "Bo"])
        player = Player(client, group, token, state, seed=2)
        player.roll()
        # A read that waits longer than a keep-alive's interval fails the test.
        quiet = httpx.Client(base_url=server.base, headers=server.teacher,
                             timeout=httpx.Timeout(10, read=KEEP_ALIVE + 10))
        with quiet, quiet.stream("GET", "/api/v1/class/events") as stream:
            opened = time.monotonic()
            got = events(stream.iter_lines(), lambda got: got[-1][0] == "comment")
            waited = time.monotonic() - opened
        # The class as it stands, then nothing but the keep-alive while it is quiet.
        assert [kind for kind, _, _ in got] == ["class", "block", "block", "tables", "pool",
                                                "comment"]
        assert [int(number) for kind, number, _ in got if kind == "block"] == [1, 2]
        assert got[-1][2].startswith("ping")
        assert KEEP_ALIVE - 1 <= waited <= KEEP_ALIVE + 10
        last, seen = int(got[2][1]), json.loads(got[2][2])["last"]

        # Its place is free once it has gone: as many streams as the class
        # serves open again, and one more is refused.
        def full() -> bool:
            with contextlib.ExitStack() as open_streams:
                answers = [open_streams.enter_context(client.stream(
                    "GET", "/api/v1/class/events")) for _ in range(2)]
                if any(answer.status_code != 200 for answer in answers):
                    return False
                refused = client.get("/api/v1/class/events")
                assert refused.json()["error"]["code"] == "too_many_streams"
                return True

        wait_until(full)
        wait_until(full)

        # Away, the class went on: back with Last-Event-ID, the blocks it missed
        # and then the live ones, each once.
        for _ in range(2):
            player.roll()
        headers = {"last-event-id": str(last)}
        with client.stream("GET", "/api/v1/class/events", headers=headers) as stream:
            lines = stream.iter_lines()
            missed = events(lines, lambda got: sum(kind == "block" for kind, _, _ in got) == 2)
            player.roll()
            live = events(lines, lambda got: any(kind == "block" for kind, _, _ in got))
        blocks = [(int(number), json.loads(data)) for kind, number, data in missed + live
                  if kind == "block"]
        assert [number for number, _ in blocks] == [last + 1, last + 2, last + 3]
        written = [json.loads(line) for line in
                   (server.folder / f"group-{group:03d}.jsonl").read_bytes().splitlines()]
        streamed = [line for _, block in blocks for line in block["lines"]]
        assert streamed == written[seen:]
        assert server.stop() == 130
        assert [line for line in server.err if line] == []
