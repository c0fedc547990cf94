"""The promises of a class's event store (aces.classroom.store), one suite for
every store: the folder of files and the school's PostgreSQL alike.

After pyeventsourcing's recorder test cases and EventStoreDB's idempotent
appends: a conflict at one ``seq``, many writers and a tailing reader, a
retried submission, a subscriber resuming, an empty store.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import typing as t
from pathlib import Path

import pytest

from aces.classroom.access import new_code, new_token
from aces.classroom.files import FileStore
from aces.classroom.store import (
    ClassRecord,
    ReusedSubmissionError,
    StaleAppendError,
    Store,
    Submission,
)
from aces.engine import header
from aces.events import Rolled
from aces.games import game_named
from aces.log import read

import loops

if t.TYPE_CHECKING:
    from collections.abc import Callable, Coroutine

    from aces.classroom.database import Database


class Stores:
    """The stores of one kind, each made in the event loop of the test that
    uses them: a folder a class, or a class a folder on one PostgreSQL."""

    def __init__(self, kind: str, url: str | None = None) -> None:
        self.kind = kind
        self.url = url
        self.database: Database | None = None
        self._classes: dict[Path, int] = {}

    async def __call__(self, folder: Path) -> Store:
        if self.kind == "files":
            return FileStore(str(folder))
        from aces.classroom.postgres import PostgresStore, make_class

        assert self.database is not None
        if folder not in self._classes:
            self._classes[folder] = await make_class(self.database, None)
        return PostgresStore(self.database, self._classes[folder])

    def run(self, test: Callable[[], Coroutine[t.Any, t.Any, None]]) -> None:
        loops.run(self._run(test))

    async def _run(self, test: Callable[[], Coroutine[t.Any, t.Any, None]]) -> None:
        if self.url is None:
            await test()
            return
        from aces.classroom.database import Database

        self.database = Database(self.url)
        await self.database.open()
        try:
            await test()
        finally:
            await self.database.close()


@pytest.fixture(scope="module")
def contract_database(request: pytest.FixtureRequest) -> str:
    """One database for the contract: each test's classes are its own."""
    cluster = request.getfixturevalue("postgresql")
    url: str = cluster.database("contract")
    return url


@pytest.fixture(params=["files", "postgresql"])
def make(request: pytest.FixtureRequest) -> Stores:
    if request.param == "files":
        return Stores("files")
    return Stores("postgresql", request.getfixturevalue("contract_database"))


Make = Stores
FILES: t.Final = Stores("files")


HEADER = header(game_named("pot"), ["Ada", "Bo"], {})


def roll(value: int) -> Rolled:
    return Rolled(player="Ada", dice=(value,), stage="opening")


async def opened(make: Make, folder: Path, streams: int = 1) -> Store:
    store = await make(folder)
    await store.open()
    # Codes are unique among a server's open classes: each class its own.
    await store.save(ClassRecord(code=new_code(), secret=new_token(), game="pot", options={},
                                 lang="en"))
    for stream in range(1, streams + 1):
        await store.create(stream, f"group-{stream:03d}.jsonl")
        await store.append(stream, 0, [HEADER])
    return store


async def verified(store: Store, stream: int) -> int:
    async with store.reading(stream) as lines:
        reader = read(lines, "log")
        return sum(1 for _ in reader)


def test_of_two_appends_at_one_seq_exactly_one_wins(make: Make, tmp_path: Path) -> None:
    async def test() -> None:
        store = await opened(make, tmp_path)
        results = await asyncio.gather(store.append(1, 1, [roll(3)]),
                                       store.append(1, 1, [roll(4)]), return_exceptions=True)
        won = [result for result in results if not isinstance(result, BaseException)]
        lost = [result for result in results if isinstance(result, StaleAppendError)]
        assert len(won) == 1
        assert len(lost) == 1
        assert lost[0].seq == 2
        assert await verified(store, 1) == 2
        await store.close()

    make.run(test)


def test_ten_writers_and_a_tailing_reader(make: Make, tmp_path: Path) -> None:
    async def test() -> None:
        store = await opened(make, tmp_path, streams=10)
        start = store.position
        acknowledged: set[int] = set()
        seen: list[int] = []

        async def writer(stream: int) -> None:
            seq = 1
            for value in range(1, 16):
                appended = await store.append(stream, seq, [roll(value % 6 + 1)])
                acknowledged.add(appended.position)
                seq = appended.last

        async def reader() -> None:
            cursor = start
            while len(seen) < 150:
                entries = await store.entries(cursor, 7)
                if not entries:
                    await asyncio.wait_for(store.changed(cursor), 10)
                    continue
                for entry in entries:
                    assert entry.position == cursor + 1, "no gap, nothing twice, never back"
                    cursor = entry.position
                    seen.append(entry.position)

        await asyncio.gather(reader(), *(writer(stream) for stream in range(1, 11)))
        assert acknowledged <= set(seen)
        assert len(seen) == len(set(seen)) == 150
        for stream in range(1, 11):
            assert await verified(store, stream) == 16
        await store.close()

    make.run(test)


def test_an_append_of_nothing_changes_nothing(make: Make, tmp_path: Path) -> None:
    async def test() -> None:
        store = await opened(make, tmp_path)
        position = store.position
        await store.append(1, 1, [])
        assert (store.position, store.seq(1), await verified(store, 1)) == (position, 1, 1)
        with pytest.raises(StaleAppendError):
            await store.append(1, 5, [roll(2)])
        assert await verified(store, 1) == 1
        await store.close()

    make.run(test)


def test_a_retried_submission_is_appended_once(make: Make, tmp_path: Path) -> None:
    async def test() -> None:
        store = await opened(make, tmp_path)
        sent = Submission("page-1", "roll 3 at 1")
        first = await store.append(1, 1, [roll(3)], sent)
        again = await store.append(1, 1, [roll(3)], sent)
        assert again == first._replace(again=True)
        assert await verified(store, 1) == 2
        with pytest.raises(ReusedSubmissionError):
            await store.append(1, 1, [roll(4)], Submission("page-1", "roll 4 at 1"))
        await store.append(1, 2, [roll(5)], Submission("page-2", "roll 5 at 2"))
        late = await store.append(1, 1, [roll(3)], sent)
        assert late == first._replace(again=True)
        await store.close()
        # And after a restart.
        reopened = await make(tmp_path)
        await reopened.open()
        assert await reopened.find(1, sent) == first._replace(again=True)
        with pytest.raises(ReusedSubmissionError):
            await reopened.find(1, Submission("page-1", "another"))
        assert await verified(reopened, 1) == 3
        await reopened.close()

    make.run(test)


def test_a_subscriber_resumes_after_its_last_position(make: Make, tmp_path: Path) -> None:
    async def test() -> None:
        store = await opened(make, tmp_path, streams=2)
        for value in range(1, 5):
            await store.append(1 + value % 2, store.seq(1 + value % 2), [roll(value)])
        everything = await store.entries(0, 100)
        assert [entry.position for entry in everything] == list(range(1, 7))
        resumed = await store.entries(3, 100)
        assert resumed == everything[3:]
        lines = await store.lines(resumed[0].stream, resumed[0].first, resumed[0].last)
        async with store.reading(resumed[0].stream) as whole:
            assert lines == list(whole)[resumed[0].first - 1:resumed[0].last]
        # The blocks with their lines, in one call, as a follower reads them.
        blocks = await store.blocks(3, 100)
        assert [entry for entry, _ in blocks] == resumed
        assert [block for _, block in blocks] == [
            b"".join(await store.lines(entry.stream, entry.first, entry.last))
            for entry in resumed]
        assert await store.blocks(6, 100) == []
        await store.close()
        reopened = await make(tmp_path)
        await reopened.open()
        assert await reopened.entries(3, 100) == resumed
        await reopened.close()

    make.run(test)


def test_subscribing_to_an_empty_store(make: Make, tmp_path: Path) -> None:
    async def test() -> None:
        store = await make(tmp_path)
        opened = await store.open()
        assert opened.record is None
        assert store.position == 0
        assert await store.entries(0, 10) == []
        waiting = asyncio.ensure_future(store.changed(0))
        await asyncio.sleep(0.05)
        assert not waiting.done()
        await store.create(1, "group-001.jsonl")
        await store.append(1, 0, [HEADER])
        await asyncio.wait_for(waiting, 5)
        assert [entry.position for entry in await store.entries(0, 10)] == [1]
        await store.close()

    make.run(test)


# -- The file store's own repairs ------------------------------------------------------


def test_a_block_written_before_a_crash_gets_the_next_position(tmp_path: Path) -> None:
    """kill -9 after a block reached its log and before the feed: on start the
    block is given a place after every other, none twice."""
    async def test() -> None:
        store = await opened(FILES, tmp_path)
        await store.append(1, 1, [roll(3)])
        await store.close()
        feed = tmp_path / ".feed"
        whole = feed.read_bytes()
        # The feed as it was before the last block's line, plus half a line.
        width = len(whole) // 2
        feed.write_bytes(whole[:width] + whole[width:width + 20])
        again = FileStore(str(tmp_path))
        await again.open()
        entries = await again.entries(0, 10)
        assert [(entry.position, entry.first, entry.last) for entry in entries] == [
            (1, 1, 1), (2, 2, 2)]
        assert feed.stat().st_size == len(whole)
        await again.close()

    FILES.run(test)


def test_a_blocks_line_synced_before_a_crash_cut_off_its_block_holds_no_block(
        tmp_path: Path) -> None:
    """kill -9 after a block's line reached the feed and before its log (they
    are synced at once): on start the position holds no block and is never
    given again, and a retry of the same submission is appended anew."""
    async def test() -> None:
        store = await opened(FILES, tmp_path, streams=2)
        await store.append(1, 1, [roll(3)])
        asked = Submission("s1", "roll 4")
        await store.append(2, 1, [roll(4)], asked)
        await store.close()
        log = tmp_path / "group-002.jsonl"
        log.write_bytes(b"".join(log.read_bytes().splitlines(keepends=True)[:1]))
        again = FileStore(str(tmp_path))
        await again.open()
        entries = await again.entries(0, 10)
        assert [(entry.position, entry.stream, entry.first) for entry in entries] == [
            (1, 1, 1), (2, 2, 1), (3, 1, 2)]
        assert again.position == 4
        assert await again.find(2, asked) is None
        appended = await again.append(2, 1, [roll(4)], asked)
        assert (appended.position, appended.first, appended.again) == (5, 2, False)
        assert [entry.position for entry in await again.entries(3, 10)] == [5]
        await again.close()
        # Served again, the same.
        third = FileStore(str(tmp_path))
        await third.open()
        assert [entry.position for entry in await third.entries(0, 10)] == [1, 2, 3, 5]
        assert (await third.find(2, asked)) == appended._replace(again=True)
        await third.close()

    FILES.run(test)


def test_a_void_line_of_the_feed_is_passed_when_the_class_moves_to_the_school(
        tmp_path: Path) -> None:
    """The order of a folder's blocks, as ``aces class import`` takes it, passes
    a void line and keeps the submissions of the others."""
    from aces.classroom.transfer import _blocks

    async def test() -> None:
        store = await opened(FILES, tmp_path, streams=2)
        await store.append(2, 1, [roll(4)], Submission("s1", "roll 4"))
        await store.close()
        log = tmp_path / "group-002.jsonl"
        log.write_bytes(b"".join(log.read_bytes().splitlines(keepends=True)[:1]))
        again = FileStore(str(tmp_path))
        await again.open()
        await again.append(2, 1, [roll(5)], Submission("s2", "roll 5"))
        await again.close()

    FILES.run(test)
    logs = {stream: (tmp_path / f"group-{stream:03d}.jsonl").read_bytes().splitlines()
            for stream in (1, 2)}
    found = _blocks(tmp_path, logs)
    assert [(stream, first, last) for stream, first, last, _, _ in found] == [
        (1, 1, 1), (2, 1, 1), (2, 2, 2)]
    assert found[2][3] is not None


def test_a_block_its_log_refused_holds_no_position_and_the_class_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A log that cannot be written (a full disk): its block's line, written to
    the feed meanwhile, is made void, projectors pass it, and the next
    block is shown."""
    from aces.logstore import LogStore

    async def test() -> None:
        store = await opened(FILES, tmp_path, streams=2)
        real = LogStore.append
        failing = {"group-002.jsonl"}

        def append(book: LogStore, events: t.Any) -> int:
            if Path(book.path).name in failing:
                raise OSError(28, "No space left on device")
            return real(book, events)

        monkeypatch.setattr(LogStore, "append", append)
        with pytest.raises(OSError, match="No space left"):
            await store.append(2, 1, [roll(4)])
        failing.clear()
        appended = await store.append(1, 1, [roll(3)])
        assert appended.position == 4
        assert store.position == 4
        assert [(entry.position, entry.stream) for entry in await store.entries(2, 10)] == [
            (4, 1)]
        assert (await store.append(2, 1, [roll(5)])).position == 5
        await store.close()
        again = FileStore(str(tmp_path))
        await again.open()
        assert [entry.position for entry in await again.entries(0, 10)] == [1, 2, 4, 5]
        await again.close()

    FILES.run(test)


def test_a_torn_last_line_of_a_log_is_cut_off_on_start(tmp_path: Path) -> None:
    async def test() -> None:
        store = await opened(FILES, tmp_path)
        await store.append(1, 1, [roll(3)])
        await store.close()
        log = tmp_path / "group-001.jsonl"
        kept = log.read_bytes()
        with log.open("ab") as out:
            out.write(b'{"seq":3,"digest":"12')
        again = FileStore(str(tmp_path))
        opened_again = await again.open()
        assert opened_again.repaired == [(1, 3)]
        assert log.read_bytes() == kept
        await again.close()

    FILES.run(test)


def test_a_second_server_on_the_folder_is_refused(tmp_path: Path) -> None:
    async def test() -> None:
        from aces.errors import AcesError

        store = await opened(FILES, tmp_path)
        with pytest.raises(AcesError, match="being served by another"):
            await FileStore(str(tmp_path)).open()
        await store.close()

    FILES.run(test)


#: Run in a fresh interpreter as Windows has it: no ``fcntl``, Windows' own
#: locks (the stand-in of tests/fakemsvcrt.py); the folder is its argument.
WINDOWS_PROBE: t.Final = """
import asyncio, sys
sys.modules["fcntl"] = None
import fakemsvcrt
sys.modules["msvcrt"] = fakemsvcrt
from aces.classroom.files import FileStore
from aces.errors import AcesError

async def main():
    first = FileStore(sys.argv[1])
    await first.open()
    try:
        await FileStore(sys.argv[1]).open()
    except AcesError as error:
        print(error)
    await first.close()
    again = FileStore(sys.argv[1])
    await again.open()
    await again.close()
    assert not fakemsvcrt._HELD, "every lock let go"
    print(sorted({mode for mode, _ in fakemsvcrt.CALLS}))

asyncio.run(main())
"""


def test_the_folder_is_held_for_one_server_with_windows_own_locks_too(tmp_path: Path) -> None:
    tests = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-c", WINDOWS_PROBE, str(tmp_path)],
                          capture_output=True, text=True, check=False,
                          env={"PYTHONPATH": str(tests), "PATH": ""})
    assert done.returncode == 0, done.stderr
    refused, modes = done.stdout.splitlines()
    assert "is being served by another aces class serve" in refused
    assert modes == "[0, 2]"  # locked without waiting, then let go
