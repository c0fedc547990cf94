"""The file store's memory (aces.classroom.files): bounded, and a projector
far behind what it keeps still reads every block where it lies, without
looking for it from the start of its log."""

from __future__ import annotations

import asyncio
import json
import typing as t

from aces.classroom import feed, files
from aces.classroom.access import new_code, new_token
from aces.classroom.files import FileStore
from aces.classroom.store import ClassRecord, GroupRecord, Submission
from aces.engine import header
from aces.events import Rolled
from aces.games import game_named

import loops

if t.TYPE_CHECKING:
    from pathlib import Path

    import pytest


def test_a_reader_far_behind_reads_every_block_where_the_feed_places_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(feed, "RECENT", 8)
    monkeypatch.setattr(files, "_PLACES", 8)
    monkeypatch.setattr(files, "REMEMBERED", 4)

    def lost(*_: object) -> int:
        raise AssertionError("a block looked for from the start of its log")

    async def test() -> None:
        store = FileStore(str(tmp_path))
        await store.open()
        await store.save(ClassRecord(code=new_code(), secret=new_token(), game="pot",
                                     options={}, lang="en"))
        for stream in (1, 2):
            await store.create(stream, f"group-{stream:03d}.jsonl")
            await store.append(stream, 0, [header(game_named("pot"), ["Ada", "Bo"], {})])
        for number in range(40):
            stream = number % 2 + 1
            await store.append(stream, store.seq(stream),
                               [Rolled(player="Ada", dice=(number % 6 + 1,), stage="opening")],
                               Submission(f"s{number}", f"p{number}"))
        # Memory stays within its bounds, whatever the blocks appended.
        assert len(store._places) <= 8
        assert all(len(known) <= 4 for known in store._submitted.values())
        monkeypatch.setattr(files, "_offset", lost)
        logs = {stream: (tmp_path / f"group-{stream:03d}.jsonl").read_bytes().splitlines(True)
                for stream in (1, 2)}
        position = 0
        while position < store.position:
            entries = await store.entries(position, 5)
            for entry in entries:
                assert await store.lines(entry.stream, entry.first, entry.last) == (
                    logs[entry.stream][entry.first - 1:entry.last])
                position = entry.position
        assert position == store.position == 42
        await store.close()

    loops.run(test())


def test_a_tailing_reader_sees_every_block_once_while_the_feeds_memory_turns_over(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ten writers and a reader that follows the feed, with only four lines
    kept in memory: the lines are kept by the loop's thread alone, so the
    reader's positions never skip (a sync's thread adding to them once
    shifted them under the reader)."""
    monkeypatch.setattr(feed, "RECENT", 4)

    async def test() -> None:
        store = FileStore(str(tmp_path))
        await store.open()
        await store.save(ClassRecord(code=new_code(), secret=new_token(), game="pot",
                                     options={}, lang="en"))
        for stream in range(1, 11):
            await store.create(stream, f"group-{stream:03d}.jsonl")
            await store.append(stream, 0, [header(game_named("pot"), ["Ada", "Bo"], {})])
        start = store.position
        done = asyncio.Event()
        seen: list[int] = []

        async def writer(stream: int) -> None:
            for value in range(1, 16):
                await store.append(stream, store.seq(stream),
                                   [Rolled(player="Ada", dice=(value % 6 + 1,), stage="opening")])

        async def reader() -> None:
            position = start
            while not done.is_set() or position < store.position:
                for entry in await store.entries(position, 3):
                    seen.append(entry.position)
                    position = entry.position
                await asyncio.sleep(0)

        reading = asyncio.ensure_future(reader())
        await asyncio.gather(*(writer(stream) for stream in range(1, 11)))
        done.set()
        await reading
        assert seen == list(range(start + 1, start + 151))
        await store.close()

    loops.run(test())


def test_a_group_deleted_as_the_privacy_page_says_leaves_the_class_readable(
        tmp_path: Path) -> None:
    """docs/class/privacy.rst: a group's logs can be deleted alone, its log
    file and its entry in class.json. The class opens again, and a projector
    reading the feed from its start reads the other groups' blocks, all of
    them, and passes the deleted group's places, however many in a row."""

    async def test() -> None:
        store = FileStore(str(tmp_path))
        await store.open()
        groups = [GroupRecord(id=stream, log=f"group-{stream:03d}.jsonl", label=f"G{stream}",
                              players=("Ada", "Bo"), token="0" * 64, lang="en")
                  for stream in (1, 2)]
        await store.save(ClassRecord(code=new_code(), secret=new_token(), game="pot",
                                     options={}, lang="en", groups=groups))
        # The deleted group's blocks first, more of them in a row than a
        # reader asks for at once.
        for stream in (1, 2):
            await store.create(stream, f"group-{stream:03d}.jsonl")
            await store.append(stream, 0, [header(game_named("pot"), ["Ada", "Bo"], {})])
            for number in range(5):
                await store.append(stream, store.seq(stream),
                                   [Rolled(player="Ada", dice=(number + 1,), stage="opening")])
        await store.close()

        (tmp_path / "group-001.jsonl").unlink()
        record = json.loads((tmp_path / files.RECORD).read_text(encoding="utf-8"))
        record["groups"] = [group for group in record["groups"] if group["id"] != 1]
        (tmp_path / files.RECORD).write_text(json.dumps(record), encoding="utf-8")

        store = FileStore(str(tmp_path))
        opened = await store.open()
        assert opened.record is not None
        assert [group.id for group in opened.record.groups] == [2]
        kept = (tmp_path / "group-002.jsonl").read_bytes().splitlines(True)
        read: list[bytes] = []
        position = 0
        while position < store.position:
            entries = await store.entries(position, 4)
            assert entries, f"the feed seems to end at {position} of {store.position}"
            for entry in entries:
                assert entry.stream == 2
                read += await store.lines(entry.stream, entry.first, entry.last)
                position = entry.position
        assert read == kept
        assert store.position == 12
        await store.close()

    loops.run(test())
