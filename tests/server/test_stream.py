"""The projector's stream, read from its generator (aces.server.stream): what
comes within a tick goes in one write, every block still an event of its
own with its id, none dropped and none twice; the class pooled once for
every stream."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import random
import subprocess
import sys
import time
import typing as t

from sse_starlette.event import ServerSentEvent

from aces import notebook
from aces.classroom.files import FileStore
from aces.classroom.service import Classroom
from aces.examples import folder
from aces.experiment.pool import pool
from aces.rules import Roll
from aces.server import pages, pooling, stream

import loops

T = t.TypeVar("T")

if t.TYPE_CHECKING:
    from pathlib import Path

    import pytest

    from aces.classroom.service import Group


async def _served(folder: Path) -> tuple[Classroom, list[Group]]:
    room = Classroom(FileStore(str(folder)))
    await room.open(None, None, "en")
    groups = [(await room.join(room.class_record.code, f"Table {n}", ["Ada", "Bo", "Cy"],
                               "nb", "device"))[0] for n in range(3)]
    return room, groups


async def _roll(room: Classroom, group: Group, number: int,
                dice: random.Random | None = None) -> None:
    table = group.table
    request = table.request()
    if request is None:
        game, count = table.game + 1, table.following()[1].dice
    else:
        game, count = table.game, request.dice
    rolled = ((number % 6 + 1,) * count if dice is None
              else tuple(dice.randint(1, 6) for _ in range(count)))
    await room.roll(group, f"r{number}", table.seq, game, Roll(rolled))


def _events(chunk: bytes) -> list[dict[str, str]]:
    """The events of one write, each as its fields."""
    found = []
    for raw in chunk.decode().split("\r\n\r\n"):
        if raw:
            fields = dict(line.split(": ", 1) for line in raw.split("\r\n"))
            found.append(fields)
    return found


def test_the_blocks_of_a_tick_go_in_one_write_each_an_event_with_its_id(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # No second pool comes due while the rolls are made, however slow the
    # machine: the class's counts unchanged, it would be given at once, in
    # the same write as the blocks.
    monkeypatch.setattr(stream, "POOL_EVERY", 60.0)

    async def test() -> None:
        room, groups = await _served(tmp_path)
        start = room.position
        events = stream._events(room, start, "/teacher/x")
        first = _events(await anext(events))
        assert [event["event"] for event in first] == ["class"]
        # The stream reads on: what is there now goes out at once.
        got = _events(await anext(events))
        assert [event["event"] for event in got] == ["pool"]
        for number in range(30):
            await _roll(room, groups[number % 3], number)
        # Thirty blocks came meanwhile (and the tables they changed): one write.
        chunk = _events(await asyncio.wait_for(anext(events), 5))
        blocks = [event for event in chunk if event["event"] == "block"]
        assert [int(event["id"]) for event in blocks] == list(range(start + 1, start + 31))
        assert room.position == start + 30
        kinds = [event["event"] for event in chunk]
        assert kinds == ["block"] * 30 + ["tables"]
        tables = json.loads(chunk[-1]["data"])
        assert sorted(view["id"] for view in tables["groups"]) == [1, 2, 3]
        # Each view without its story (the projector shows none), and the row.
        assert all("story" not in view and view["seq"] == groups[view["id"] - 1].table.seq
                   for view in tables["groups"])
        assert sorted(tables["html"]) == ["1", "2", "3"]
        written = {group.record.id: (tmp_path / group.record.log).read_bytes().splitlines()
                   for group in groups}
        for event in blocks:
            block = json.loads(event["data"])
            assert block["lines"] == [json.loads(line) for line in
                                      written[block["group"]][block["first"] - 1:block["last"]]]
        await events.aclose()
        await room.close()

    loops.run(test())


def test_a_stream_resumed_mid_tick_misses_nothing_and_repeats_nothing(tmp_path: Path) -> None:
    """Rolls made while a stream waits for its tick, read by one stream from
    the start and by another from a position in the middle: each has every
    block after its cursor once, in the feed's order."""
    async def test() -> None:
        room, groups = await _served(tmp_path)
        start = room.position
        whole = stream._events(room, start, "")
        await anext(whole)
        await anext(whole)
        ids: list[int] = []

        async def read() -> None:
            while len(ids) < 60:
                ids.extend(int(event["id"]) for event in _events(await anext(whole))
                           if event["event"] == "block")

        reading = asyncio.ensure_future(read())
        for number in range(60):
            await _roll(room, groups[number % 3], number)
            if number % 7 == 0:
                await asyncio.sleep(stream.TICK / 3)
        await asyncio.wait_for(reading, 10)
        assert ids == list(range(start + 1, start + 61))
        resumed = stream._events(room, start + 25, "")
        await anext(resumed)
        later = [int(event["id"]) for event in _events(await anext(resumed))
                 if event["event"] == "block"]
        assert later == list(range(start + 26, start + 61))
        for events in (whole, resumed):
            await events.aclose()
        await room.close()

    loops.run(test())


def test_streams_at_one_place_in_one_tick_share_the_blocks_encoded_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ten projectors keeping up read the same blocks at the same moment: the
    blocks of the tick are read from the store and encoded once, and every
    stream is given the same bytes; a stream elsewhere gets its own."""
    async def test() -> None:
        room, groups = await _served(tmp_path)
        start = room.position
        for number in range(12):
            await _roll(room, groups[number % 3], number)
        read: list[int] = []
        block = room.block

        async def counted(entry: t.Any) -> str:
            read.append(entry.position)
            return await block(entry)

        monkeypatch.setattr(room, "block", counted)
        # Within one tick, not across a mark of the clock.
        rest = (time.monotonic() // stream.TICK + 1) * stream.TICK - time.monotonic()
        if rest < stream.TICK / 2:
            await asyncio.sleep(rest + stream.TICK / 10)
        made = await asyncio.gather(*(stream._tick(room, start, "") for _ in range(10)))
        assert read == list(range(start + 1, start + 13))
        cursor, chunk, full = made[0]
        assert (cursor, full) == (start + 12, False)
        assert all(other == made[0] for other in made)
        assert all(other[1] is chunk for other in made)
        ids = [int(event["id"]) for event in _events(chunk) if event["event"] == "block"]
        assert ids == list(range(start + 1, start + 13))
        # A stream further on, in the same tick, is not given the others' bytes.
        later = await stream._tick(room, start + 6, "")
        assert read[12:] == list(range(start + 7, start + 13))
        assert [int(event["id"]) for event in _events(later[1])
                if event["event"] == "block"] == list(range(start + 7, start + 13))
        await room.close()

    loops.run(test())


class _Counted(concurrent.futures.Executor):
    """The pooling process's executor, counting what is sent to it."""

    def __init__(self, inner: concurrent.futures.Executor) -> None:
        self.inner = inner
        self.sent: list[t.Callable[..., t.Any]] = []

    def submit(self, fn: t.Callable[..., T], /, *args: t.Any,
               **kwargs: t.Any) -> concurrent.futures.Future[T]:
        self.sent.append(fn)
        return self.inner.submit(fn, *args, **kwargs)


def test_the_class_is_pooled_once_for_every_stream_within_a_pools_time_off_the_loop(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    counted = _Counted(pooling.pooler())
    monkeypatch.setattr(stream, "pooler", lambda: counted)

    async def test() -> None:
        room, groups = await _served(tmp_path)
        now = time.monotonic()
        kept, making = stream._pool(room, now)
        assert kept is None
        assert making is not None
        # Another stream meanwhile is given the pool being made: it is made once.
        assert stream._pool(room, now) == (None, making)
        await making
        kept, none = stream._pool(room, now)
        assert kept is not None
        version, pool = kept
        assert version == room.version
        assert none is None
        await _roll(room, groups[0], 1)
        assert room.version > version
        # Another stream a moment later is given the same pool, made at its version...
        assert stream._pool(room, now + stream.POOL_EVERY / 2) == ((version, pool), None)
        # ...and once a pool's time has passed, the class is given that pool at
        # its version now, at once, and is not pooled again: the roll ended no
        # game, and a game under way is not pooled.
        assert groups[0].table.tally.counts()[1] == 0
        assert stream._pool(room, now + stream.POOL_EVERY) == ((room.version, pool), None)
        # The teacher's figures are that pool too, kept at the version now.
        assert room._pooled is not None
        assert room._pooled[0] == room.version
        assert counted.sent == [stream._made]
        given = room.version
        # Once a game has ended, the counts are new: the class is pooled anew,
        # the last pool given meanwhile.
        dice = random.Random(3)
        number = 1
        while groups[0].table.tally.counts()[1] == 0:
            number += 1
            await _roll(room, groups[0], number, dice)
        later = now + 2 * stream.POOL_EVERY
        kept, making = stream._pool(room, later)
        assert kept == (given, pool)
        assert making is not None
        await making
        kept, none = stream._pool(room, later)
        assert kept is not None
        assert kept[0] == room.version
        assert kept[1] != pool
        assert none is None
        # Made twice in all, each in the pooling process, never on the loop's.
        assert counted.sent == [stream._made, stream._made]
        assert counted.inner.submit(os.getpid).result() != os.getpid()
        await room.close()

    loops.run(test())


def test_the_projectors_pool_is_aces_stats_on_the_logs(tmp_path: Path) -> None:
    """Each group plays games to their end (one taken out of the pool), and the
    stream's last pool holds the numbers of ``aces stats --json`` on the
    class's logs, exactly."""
    async def test() -> dict[str, t.Any]:
        room, groups = await _served(tmp_path)
        dice = random.Random(7)
        number = 0
        while min(group.table.tally.counts()[1] for group in groups) < 3:
            for group in groups:
                number += 1
                await _roll(room, group, number, dice)
        await room.exclude(groups[1].record.id, 2)
        events = stream._events(room, room.position, "")
        pooled: dict[str, t.Any] | None = None
        while pooled is None:
            for event in _events(await asyncio.wait_for(anext(events), 10)):
                if event["event"] == "pool":
                    pooled = json.loads(event["data"])["stats"]
        await events.aclose()
        await room.close()
        return pooled

    pooled = loops.run(test())
    logs = sorted(path.name for path in tmp_path.glob("*.jsonl"))
    done = subprocess.run([sys.executable, "-m", "aces", "stats", "--json", *logs],
                          cwd=tmp_path, capture_output=True, text=True, check=True)
    assert pooled == json.loads(done.stdout)
    assert [log["games"] for log in pooled["logs"]][1] >= 2
    assert [log["excluded"] for log in pooled["logs"]] == [[], [2], []]


def test_pools_are_written_with_one_voice_a_language_kept_from_pool_to_pool(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The projector's pool writes its numbers with a voice kept by the process
    (its memos outlive a pool), and writes the very pool a fresh voice does,
    whatever pools came before."""
    logs = sorted(folder().glob("class-group-*.jsonl"))
    pools = [pool(logs), pool(logs[:1]), pool(logs[1:]), pool(logs)]
    for lang in ("en", "nb", "nn"):
        kept = pages.pool_voice(lang)
        assert pages.pool_voice(lang) is kept
        assert [notebook.stats_html(pooled, lang, voice=kept) for pooled in pools] == [
            notebook.stats_html(pooled, lang) for pooled in pools]
    fresh = [pages.pool_html(pooled, "nb") for pooled in pools]

    def no_new_voice(*args: object) -> t.NoReturn:
        raise AssertionError("a pool made a voice of its own")

    monkeypatch.setattr(notebook, "Voice", no_new_voice)
    assert [pages.pool_html(pooled, "nb") for pooled in pools] == fresh
    assert pages.pool_voice("nb").lang == "nb"


def test_an_event_is_written_as_sse_starlette_writes_it() -> None:
    for data in ("{}", "two\nlines", "a\r\nb\rc", ""):
        assert stream.encoded("block", data, "7") == ServerSentEvent(
            data, event="block", id="7").encode().decode()
        assert stream.encoded("pool", data) == ServerSentEvent(data, event="pool").encode(
            ).decode()
