"""The class store on PostgreSQL, beyond the contract it shares with the files
(aces.classroom.postgres, aces.classroom.database): connections lost in the
middle of an append, the schema's versions, refusals at start, a database
that goes away and comes back, and two processes on one class."""

from __future__ import annotations

import asyncio
import contextlib
import time
import typing as t

import pytest

from aces.classroom import service
from aces.classroom.access import new_code, new_token
from aces.classroom.database import (
    Database,
    StoreSettings,
    StoreUnavailableError,
    _ended,
    migrations,
)
from aces.classroom.postgres import PostgresStore, make_class
from aces.classroom.service import Classroom
from aces.classroom.store import ClassRecord, Store, Submission
from aces.engine import header
from aces.errors import OptionError
from aces.events import Rolled
from aces.games import game_named
from aces.log import read
from aces.rules import Roll

import loops

if t.TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from pgtest import Cluster

HEADER = header(game_named("pot"), ["Ada", "Bo"], {})


@pytest.fixture(scope="module")
def url(postgresql: Cluster) -> str:
    return postgresql.database("store")


def run(url: str, test: Callable[[Database], Awaitable[None]], **settings: t.Any) -> None:
    async def main() -> None:
        database = Database(url, StoreSettings(**settings))
        await database.open()
        try:
            await test(database)
        finally:
            await database.close()

    loops.run(main())


def record() -> ClassRecord:
    return ClassRecord(code=new_code(), secret=new_token(), game="pot", options={}, lang="en")


async def one_stream(database: Database) -> PostgresStore:
    store = PostgresStore(database, await make_class(database, record()))
    await store.open()
    await store.create(1, "group-001.jsonl")
    await store.append(1, 0, [HEADER])
    return store


def rolled(value: int) -> Rolled:
    return Rolled(player="Ada", dice=(value,), stage="opening")


async def verified(store: PostgresStore) -> int:
    async with store.reading(1) as lines:
        return sum(1 for _ in read(lines, "log"))


async def backend_waiting(database: Database) -> int:
    """The process of the connection waiting for the class's lock, in an append."""
    for _ in range(200):
        async with database.connection() as connection:
            cursor = await connection.execute(
                "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                " AND query LIKE '%aces.append%'")
            row = await cursor.fetchone()
        if row is not None:
            return int(row[0])
        await asyncio.sleep(0.02)
    raise AssertionError("no append waits for the lock")


@pytest.mark.parametrize("with_submission", [True, False])
def test_a_connection_killed_in_the_middle_of_an_append_is_retried(
        url: str, with_submission: bool) -> None:
    """pg_terminate_backend while the append waits for the class's lock: the
    store takes a new connection, and the block is appended once."""
    async def test(database: Database) -> None:
        store = await one_stream(database)
        sent = Submission("s1", "roll 4") if with_submission else None
        async with database.connection() as holder, holder.transaction():
            # Another writer holds the class's feed: the append waits inside
            # the database, in its transaction.
            await holder.execute("SELECT 1 FROM aces.feeds WHERE class = %s FOR UPDATE",
                                 (store.cls,))
            appending = asyncio.ensure_future(store.append(1, 1, [rolled(4)], sent))
            pid = await backend_waiting(database)
            await holder.execute("SELECT pg_terminate_backend(%s)", (pid,))
        appended = await asyncio.wait_for(appending, 20)
        assert (appended.first, appended.last, appended.again) == (2, 2, False)
        assert await verified(store) == 2
        # Sent again (its answer was lost), it is the same block.
        if sent is not None:
            again = await store.append(1, 1, [rolled(4)], sent)
            assert again == appended._replace(again=True)
        assert [entry.position for entry in await store.entries(0, 10)] == [1, 2]
        await store.close()

    run(url, test)


def test_a_connection_lost_after_the_commit_is_known_for_its_own(url: str) -> None:
    """The retry finds the stream holding exactly the block it sent: appended,
    once, and answered so (no submission to recognise it by)."""
    async def test(database: Database) -> None:
        store = await one_stream(database)
        first = await store.append(1, 1, [rolled(4)])
        # As if the answer of that append had been lost: the same block again.
        from aces.classroom.postgres import _LostError

        calls = 0
        real = store._call

        async def losing(*args: t.Any, **kwargs: t.Any) -> tuple[t.Any, ...]:
            nonlocal calls
            calls += 1
            if calls == 1:
                await real(*args, **kwargs)
                raise _LostError(sent=True)
            return await real(*args, **kwargs)

        store._call = losing  # type: ignore[method-assign]
        second = await store.append(1, 2, [rolled(5)])
        assert (second.first, second.last) == (3, 3)
        assert second.position == first.position + 1
        assert await verified(store) == 3
        await store.close()

    run(url, test)


def test_a_block_without_submission_unread_after_its_lost_answer_is_unsure(url: str) -> None:
    """The retry finds the stream moved past the block it sent, and the
    database goes again before the stream's lines are read: the block may
    be ours, so the answer is unsure, never "nothing was recorded"."""
    from aces.classroom.database import StoreUnsureError, unavailable
    from aces.classroom.postgres import _LostError

    async def test(database: Database) -> None:
        store = await one_stream(database)
        real = store._call
        calls = 0

        async def losing(*args: t.Any, **kwargs: t.Any) -> tuple[t.Any, ...]:
            nonlocal calls
            calls += 1
            answer = await real(*args, **kwargs)
            if calls == 1:
                raise _LostError(sent=True)
            return answer

        async def away(*args: t.Any) -> list[bytes]:
            raise unavailable()

        store._call = losing  # type: ignore[method-assign]
        store._lines = away  # type: ignore[method-assign,assignment]
        with pytest.raises(StoreUnsureError):
            await store.append(1, 1, [rolled(4)])
        del store._lines
        assert await verified(store) == 2
        await store.close()

    run(url, test)


def answer_lost_after_the_commit(database: Database, then: Callable[[], None]) -> list[int]:
    """The next append that writes lines commits, and then its answer is lost:
    ``then`` runs (the database halted, say) and the call fails as a
    connection that went away does. The list holds, for each append sent
    from then on, how many lines it carried."""
    import psycopg

    sent: list[int] = []
    taken = database.pool.connection

    class Losing:
        def __init__(self, connection: t.Any) -> None:
            self.connection = connection

        def __getattr__(self, name: str) -> t.Any:
            return getattr(self.connection, name)

        async def execute(self, query: str, params: t.Any = None) -> t.Any:
            cursor = await self.connection.execute(query, params)
            if "aces.append" in query:
                sent.append(len(params[4]))
                if len(sent) == 1 and params[4]:
                    await asyncio.to_thread(then)
                    raise psycopg.OperationalError("server closed the connection unexpectedly")
            return cursor

    @contextlib.asynccontextmanager
    async def connection(*args: t.Any, **kwargs: t.Any) -> t.Any:
        async with taken(*args, **kwargs) as real:
            yield Losing(real)

    database.pool.connection = connection  # type: ignore[method-assign]
    return sent


async def about_to_roll(database: Database, label: str) -> tuple[Classroom, int, int, int, Roll]:
    """A class open on ``database`` with one group, which has rolled once: the
    classroom, the group, its seq and game, and a roll it may make now."""
    room = Classroom(PostgresStore(database, await make_class(database, record())))
    await room.open(None, None, "en")
    number, _ = await joined(room, label)
    await roll_on(room, number, 2)
    table = room.groups[number].table
    request = table.request()
    assert request is not None
    return room, number, table.seq, table.game, Roll(tuple(range(1, request.dice + 1)))


def test_an_answer_lost_after_the_commit_is_settled_before_the_pupil_is_answered(
        url: str, postgresql: Cluster) -> None:
    """The append commits, the database goes away before its answer comes,
    and is back a moment later: the pupil is answered that the roll is
    recorded (it is), not told that nothing was; sent again, it is the same
    answer, and the log holds the roll once."""
    async def test(database: Database) -> None:
        room, number, seq, game, dice = await about_to_roll(database, "Settled")
        try:
            def away_a_moment() -> None:
                postgresql.halt()
                time.sleep(0.5)
                postgresql.resume()

            sent = answer_lost_after_the_commit(database, away_a_moment)
            answer = await room.roll(room.groups[number], "lost", seq, game, dice)
            assert answer.first == seq + 1
            assert len(sent) >= 2
            again = await room.roll(room.groups[number], "lost", seq, game, dice)
            assert again == answer
            assert await verified_stream(room.store, number) == answer.last
            assert await room.store.latest() == 3
        finally:
            await room.close()

    run(url, test)


def test_an_answer_lost_after_the_commit_is_never_told_as_nothing_recorded(
        url: str, postgresql: Cluster) -> None:
    """The append commits and the database stays away past the request's
    wait: the pupil is told that the roll may be recorded, never that
    nothing was; once the database is back, the roll sent again with its
    id is recorded once, where it was meant."""
    from aces.classroom.database import StoreUnsureError

    async def test(database: Database) -> None:
        room, number, seq, game, dice = await about_to_roll(database, "Unsure")
        try:
            answer_lost_after_the_commit(database, postgresql.halt)
            try:
                with pytest.raises(StoreUnsureError) as caught:
                    await room.roll(room.groups[number], "lost", seq, game, dice)
            finally:
                await asyncio.to_thread(postgresql.resume)
            told = caught.value.spoken("en")
            assert "nothing was recorded" not in told
            assert "recorded only once" in told
            assert caught.value.code == "unavailable"
            # The pupil's page sends it again, with its id, until it is answered.
            for _ in range(100):
                try:
                    answer = await room.roll(room.groups[number], "lost", seq, game, dice)
                    break
                except StoreUnavailableError:
                    await asyncio.sleep(0.1)
            assert answer.first == seq + 1
            assert await verified_stream(room.store, number) == answer.last
            assert [entry.stream for entry in await room.store.entries(0, 10)] == [number] * 3
        finally:
            await room.close()

    run(url, test, timeout=1.0)


def test_settling_a_lost_answer_waits_only_for_the_time_the_request_has_left(
        url: str, postgresql: Cluster) -> None:
    """The database stays away after an append's answer is lost: every wait
    for a connection while the append is settled is given what is left of
    the request's timeout, never a whole timeout again, so the pupil hears
    within the timeout (each wait of its own had made it a multiple)."""
    from aces.classroom.database import StoreUnsureError

    async def test(database: Database) -> None:
        room, number, seq, game, dice = await about_to_roll(database, "Bounded")
        try:
            answer_lost_after_the_commit(database, postgresql.halt)
            store = t.cast("PostgresStore", room.store)
            call = store._call
            waits: list[float | None] = []

            async def counted(*args: t.Any, **kwargs: t.Any) -> tuple[t.Any, ...]:
                waits.append(kwargs.get("timeout"))
                return await call(*args, **kwargs)

            store._call = counted  # type: ignore[method-assign]
            try:
                with pytest.raises(StoreUnsureError):
                    await room.roll(room.groups[number], "lost", seq, game, dice)
            finally:
                await asyncio.to_thread(postgresql.resume)
            # The first sending waits as any request does; those that settle it, less.
            settling = [wait for wait in waits[1:] if wait is not None]
            assert len(settling) == len(waits) - 1 >= 1
            assert all(0 < wait <= 1.0 for wait in settling)
            assert settling == sorted(settling, reverse=True)
        finally:
            await room.close()

    run(url, test, timeout=1.0)


def test_an_append_that_never_reached_the_database_is_nothing_recorded(
        url: str, postgresql: Cluster) -> None:
    """No connection to be had at all (the database away, the pool's wait
    run out): then, and only then, nothing was recorded."""
    async def test(database: Database) -> None:
        store = await one_stream(database)
        await asyncio.to_thread(postgresql.halt)
        try:
            # Gone, and known to be gone: the pool tries its connections first.
            await asyncio.wait_for(_until(lambda: not database.listening), 10)
            with pytest.raises(StoreUnavailableError) as caught:
                await store.append(1, 1, [rolled(4)], Submission("never", "roll 4"))
        finally:
            await asyncio.to_thread(postgresql.resume)
        assert "nothing was recorded" in caught.value.spoken("en")
        await store.close()

    run(url, test, timeout=1.0)


def test_a_store_newer_than_this_aces_is_refused_in_one_line(postgresql: Cluster) -> None:
    fresh = postgresql.database("newer")

    async def migrated(database: Database) -> None:
        async with database.connection() as connection:
            await connection.execute("INSERT INTO aces.versions (version) VALUES (99)")

    run(fresh, migrated)
    known = len(migrations())
    with pytest.raises(OptionError, match=r"is at version 99 of aces's tables, newer than this"
                                          rf" aces knows \({known}\); upgrade aces"):
        run(fresh, lambda database: asyncio.sleep(0))


def test_tables_without_their_record_of_versions_are_refused(postgresql: Cluster) -> None:
    fresh = postgresql.database("versions")
    run(fresh, lambda database: asyncio.sleep(0))
    name = fresh.rsplit("/", 1)[1].split("?")[0]
    postgresql.sql("DROP TABLE aces.versions", database=name)
    with pytest.raises(OptionError, match="holds aces's tables, but not the record of their"
                                          " versions"):
        run(fresh, lambda database: asyncio.sleep(0))


@pytest.mark.parametrize(("change", "message"), [
    ({"password": "wrong"}, "refused the user name or password given"),
    ({"user": "nobody_here"}, "refused the user name or password given"),
    ({"database": "no_such_database"}, "has no such database; create it first"),
])
def test_a_store_that_refuses_us_is_one_line(postgresql: Cluster, change: dict[str, str],
                                             message: str) -> None:
    given = postgresql.url(change.get("database", "postgres"), user=change.get("user"),
                           password=change.get("password"))
    with pytest.raises(OptionError, match=message) as caught:
        run(given, lambda database: asyncio.sleep(0))
    shown = caught.value.spoken("en")
    assert "\n" not in shown
    assert postgresql.password not in shown


def test_the_database_gone_answers_unavailable_and_comes_back(
        url: str, postgresql: Cluster) -> None:
    """While the database is down, an append is refused as unavailable and
    writes nothing; once it is back, the same pool appends again, no restart."""
    async def test(database: Database) -> None:
        store = await one_stream(database)
        await store.append(1, 1, [rolled(3)])
        await asyncio.to_thread(postgresql.halt)
        try:
            with pytest.raises(StoreUnavailableError) as caught:
                await store.append(1, 2, [rolled(4)], Submission("down", "roll 4"))
            assert "try again in a moment" in caught.value.spoken("en")
        finally:
            await asyncio.to_thread(postgresql.resume)
        appended = await store.append(1, 2, [rolled(4)], Submission("down", "roll 4"))
        assert (appended.first, appended.again) == (3, False)
        assert await verified(store) == 3
        await store.close()

    run(url, test, timeout=2.0)


async def joined(room: Classroom, label: str) -> tuple[int, str]:
    group, token = await room.join(room.class_record.code, label, ["Ada", "Bo", "Cy"], "en",
                                   "device")
    return group.record.id, token


async def roll_on(room: Classroom, number: int, dice: int) -> None:
    group = room.groups[number]
    request = group.table.request()
    assert request is not None
    value = tuple((dice + k) % 6 + 1 for k in range(request.dice))
    await room.roll(group, f"r{group.table.seq}", group.table.seq, group.table.game,
                    Roll(value))


def test_two_processes_serve_one_class(url: str) -> None:
    """Two processes' classrooms on one class: a group that joined on one rolls
    on both in turn, each is refused nothing it should not be, and both
    follow every block, so that their tables and pools are the same."""
    async def test(first: Database) -> None:
        async with _two_processes(first, url) as (one, two):
            group, _ = await joined(one, "Alternating")
            # The other process hears of the group, and of its first block.
            await asyncio.wait_for(_until(lambda: group in two.groups), 10)
            for turn in range(12):
                # The page rolls on either process, with what the last answer
                # told it: the table of the process that answered.
                told = (two, one)[turn % 2] if turn else one
                await _roll_at((one, two)[turn % 2], group, told.groups[group].table, turn)
            await asyncio.wait_for(_until(lambda: one.applied == two.applied == one.position
                                          == two.position and one.applied >= 13), 10)
            tables = [room.groups[group].table for room in (one, two)]
            assert tables[0].seq == tables[1].seq >= 13
            assert tables[0].story == tables[1].story
            assert one.pooled() == two.pooled()
            # A label taken on one process is taken on the other.
            from aces.errors import ClassError

            with pytest.raises(ClassError, match="another group is called"):
                await joined(two, "Alternating")
            # Paused on one, refused on the other once it has heard.
            await one.pause(True)
            await asyncio.wait_for(_until(lambda: two.paused), 10)

    run(url, test)


def test_a_group_joined_here_keeps_its_table_when_the_follower_reads_it_late(
        url: str) -> None:
    """The follower hears of a new group's first block while the join that
    appended it still waits for its answer, and reads the group's log; that
    read ends only after the group's first roll. The group the join made stays
    the one served, level with its log: the follower's older table never takes
    its place (which had another process given the next roll a seq that had
    passed, and refused it as stale)."""
    async def test(database: Database) -> None:
        room = Classroom(PostgresStore(database, await make_class(database, record())))
        await room.open(None, None, "en")
        store = room.store
        append, reading, load = store.append, store.reading, room._load
        reads, release, loaded = asyncio.Event(), asyncio.Event(), asyncio.Event()

        async def answered_late(stream: int, expected: int, events: t.Any,
                                submission: Submission | None = None) -> t.Any:
            appended = await append(stream, expected, events, submission)
            if expected == 0:
                # The join's answer comes once the follower reads the new log, if
                # it does: a follower woken by the record's change before the
                # join took it in waits for the class's lock, which the join
                # holds, and then finds the group joined (the late answer this
                # test is for did not come, and the rest holds all the same).
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(reads.wait(), 3)
            return appended

        @contextlib.asynccontextmanager
        async def read_late(stream: int) -> t.Any:
            async with reading(stream) as lines:
                kept = list(lines)
            if not reads.is_set():
                # The follower's read of the new group: it read the log as it
                # was, and goes on once the group has rolled.
                reads.set()
                await asyncio.wait_for(release.wait(), 10)
            yield kept

        async def load_seen(group: t.Any) -> t.Any:
            try:
                return await load(group)
            finally:
                loaded.set()

        store.append = answered_late  # type: ignore[method-assign]
        store.reading = read_late  # type: ignore[method-assign]
        room._load = load_seen  # type: ignore[method-assign,assignment]
        follower = asyncio.ensure_future(room.follow())
        try:
            number, _ = await joined(room, "Joined")
            served = room.groups[number]
            await roll_on(room, number, 3)
            acknowledged = served.table.seq
            release.set()
            if reads.is_set():
                await asyncio.wait_for(loaded.wait(), 10)
            assert room.groups[number] is served
            assert served.table.seq == acknowledged == await verified_stream(store, number)
            await roll_on(room, number, 4)
            assert served.table.seq == await verified_stream(store, number) > acknowledged
        finally:
            follower.cancel()
            await room.close()

    run(url, test)


def test_a_follower_reads_nothing_for_the_blocks_its_own_process_appended(
        url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each process folds in the others' blocks, so its cost grows with the
    processes; the blocks it appended itself are in their tables already,
    and are passed without a read, while a projector here still gets each
    of them, once, in the feed's order."""
    # The follower waits a quarter of a second for an answer of its own on
    # its way, then reads (correct, only dearer): a machine that stalls
    # longer than that would read once. The test gives it all the time it
    # needs, so that only a block not known for its own is read.
    monkeypatch.setattr(service, "_ANSWERED", 10.0)
    async def test(database: Database) -> None:
        room = Classroom(PostgresStore(database, await make_class(database, record())))
        await room.open(None, None, "en")
        follower = asyncio.ensure_future(room.follow())
        reads: list[int] = []
        blocks = room.store.blocks

        async def counted(after: int, limit: int) -> t.Any:
            reads.append(after)
            return await blocks(after, limit)

        room.store.blocks = counted  # type: ignore[method-assign]
        try:
            number, _ = await joined(room, "Alone")
            await asyncio.wait_for(_until(lambda: room.applied == 1), 10)
            reads.clear()
            for dice in range(5):
                await roll_on(room, number, dice)
            await asyncio.wait_for(_until(lambda: room.applied == 6), 10)
            assert reads == []
            entries = await room.entries(0, 10)
            assert [entry.position for entry in entries] == [1, 2, 3, 4, 5, 6]
            assert entries == await room.store.entries(0, 10)
        finally:
            follower.cancel()
            await room.close()

    run(url, test)


def test_a_roll_that_needs_another_process_s_block_waits_for_no_append_of_another_group(
        url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A group's page saw a roll made on the other process, which this one has
    not folded in yet: its roll reads that block at once, though the
    follower, rung for a block of another group appended here whose answer
    is slow to come, waits for that answer (under load, a quarter of a
    second, which every such roll of the class waited out too)."""
    monkeypatch.setattr(service, "_ANSWERED", 10.0)

    async def test(first: Database) -> None:
        async with _two_processes(first, url) as (one, two):
            slow, release = 0, asyncio.Event()
            append = one.store.append

            async def answered_late(stream: int, expected: int, events: t.Any,
                                    submission: Submission | None = None) -> t.Any:
                appended = await append(stream, expected, events, submission)
                if stream == slow:
                    await asyncio.wait_for(release.wait(), 20)
                return appended

            one.store.append = answered_late  # type: ignore[method-assign]
            held = None
            try:
                slow, _ = await joined(one, "Slow")
                other, _ = await joined(one, "Other")
                await asyncio.wait_for(_until(lambda: other in two.groups
                                              and two.applied == one.applied == 2), 10)
                # The slow group's roll is committed; its answer is held back.
                before = one.store.position
                held = asyncio.ensure_future(roll_on(one, slow, 3))
                await asyncio.wait_for(_until(lambda: one.store.position > before), 10)
                # The follower has heard the doorbell of that block, and waits.
                await asyncio.sleep(0.2)
                await _roll_at(two, other, two.groups[other].table, 1)
                told = two.groups[other].table
                seen = told.seq
                await asyncio.wait_for(_roll_at(one, other, told, 2), 5)
                assert one.groups[other].table.seq > seen
                release.set()
                await asyncio.wait_for(held, 10)
                await asyncio.wait_for(_until(lambda: one.applied == two.applied
                                              == one.store.position == 5), 10)
                for group in (slow, other):
                    tables = [room.groups[group].table for room in (one, two)]
                    assert tables[0].seq == tables[1].seq == await verified_stream(one.store, group)
            finally:
                release.set()
                if held is not None:
                    with contextlib.suppress(Exception):
                        await held

    run(url, test)


@contextlib.asynccontextmanager
async def _two_processes(first: Database, url: str) -> t.AsyncIterator[tuple[Classroom, Classroom]]:
    """Two processes' classrooms on one new class, ``first``'s database and a
    second one on ``url``, each following the store; closed after."""
    second = Database(url)
    await second.open()
    number = await make_class(first, record())
    one = Classroom(PostgresStore(first, number))
    two = Classroom(PostgresStore(second, number))
    await one.open(None, None, "en")
    await two.open(None, None, "en")
    followers = [asyncio.ensure_future(room.follow()) for room in (one, two)]
    try:
        yield one, two
    finally:
        for follower in followers:
            follower.cancel()
        await one.close()
        await two.close()
        await second.close()


async def _roll_at(room: Classroom, group: int, told: t.Any, turn: int) -> None:
    """Roll on ``room`` what ``told`` (the table a page last saw) asks for:
    the process rolled on may not have heard of that table's last roll."""
    request = told.request()
    game = told.game if request is not None else told.game + 1
    dice = request.dice if request is not None else told.following()[1].dice
    await room.roll(room.groups[group], f"t{turn}", told.seq, game,
                    Roll(tuple((turn + k) % 6 + 1 for k in range(dice))))


async def _until(condition: Callable[[], bool]) -> None:
    while not condition():
        await asyncio.sleep(0.01)


def test_a_listener_dropped_misses_nothing(url: str) -> None:
    """The listening connection killed: notifications sent meanwhile are lost,
    and the follower still reads every block, from the store."""
    async def test(database: Database) -> None:
        writer = Database(url)
        await writer.open()
        store = await one_stream(writer)
        reading = PostgresStore(database, store.cls)
        await reading.open()
        async with database.connection() as connection:
            await connection.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE query LIKE 'LISTEN%%' AND pid <> pg_backend_pid()")
        for seq in range(1, 6):
            await store.append(1, seq, [rolled(seq % 6 + 1)])
        await asyncio.wait_for(reading.changed(5), 15)
        assert [entry.position for entry in await reading.entries(0, 10)] == list(range(1, 7))
        await reading.close()
        await store.close()
        await writer.close()

    run(url, test)


def test_closing_ends_a_listener_that_dropped_its_cancellation() -> None:
    """A task told once to stop may go on (Python 3.11's wait_for can drop a
    cancellation, python/cpython#86296): closing tells it again until it has
    ended, where it used to wait for it for ever."""
    async def listener() -> None:
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.sleep(60)
        await asyncio.Event().wait()

    async def test() -> None:
        task = asyncio.get_running_loop().create_task(listener())
        await asyncio.sleep(0)
        # asyncio.wait, not wait_for: at its time-out it cancels nothing, which
        # would tell the task again itself.
        closing = asyncio.get_running_loop().create_task(_ended(task))
        done, _ = await asyncio.wait({closing}, timeout=10)
        assert closing in done
        assert task.cancelled()

    loops.run(test())


def test_idle_classes_close_and_closed_ones_go_when_their_retention_has_passed(
        url: str) -> None:
    """The hourly purge closes a class left without a roll for the idle days,
    and deletes, with every line of its logs, one closed for longer than the
    retention; another process that holds it lets it go; a fresh class stays."""
    from aces.classroom.school import School, SchoolSettings

    async def test(database: Database) -> None:
        other = Database(url)
        await other.open()
        settings = SchoolSettings(idle_days=3, retention_days=10)
        here, there = School(database, school=settings), School(other, school=settings)
        try:
            old, new = await make_class(database, record()), await make_class(database, record())
            for number in (old, new):
                store = PostgresStore(database, number)
                await store.open()
                await store.create(1, "group-001.jsonl")
                await store.append(1, 0, [HEADER])
                await store.close()
            held = await there.room(old)
            await database_sql(database, "UPDATE aces.feeds SET active = now() - interval"
                               " '4 days' WHERE class = %s", old)
            assert await here.purge() == ([old], [])
            await asyncio.wait_for(_until(lambda: held.record is not None
                                          and held.record.closed), 10)
            # Closed nine days ago: kept. Eleven: deleted, lines and all.
            await database_sql(database, "UPDATE aces.classes SET closed = now() - interval"
                               " '9 days' WHERE id = %s", old)
            assert await here.purge() == ([], [])
            await database_sql(database, "UPDATE aces.classes SET closed = now() - interval"
                               " '11 days' WHERE id = %s", old)
            assert await here.purge() == ([], [old])
            for table in ("classes", "lines", "blocks"):
                column = "id" if table == "classes" else "class"
                assert await database_sql(
                    database, f"SELECT count(*) FROM aces.{table} WHERE {column} = %s",
                    old) == 0
            # The other process's follower found it gone, and let it go.
            await asyncio.wait_for(_until(lambda: old not in there._rooms), 10)
            fresh = PostgresStore(database, new)
            assert (await fresh.open()).record is not None
            await fresh.close()
        finally:
            await here.close()
            await there.close()
            await other.close()

    run(url, test)


def test_a_groups_first_request_on_a_process_that_holds_its_class_asks_the_database_nothing(
        url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A group's token names its class, and a class's record names every
    group's token: each process asks the database which class a token is
    of once a class, not once a group (a school's start asked it some
    thousand times at once, a scan of every class's groups each time). A
    token of no group is still asked of it, and refused."""
    from aces.classroom.school import School
    from aces.errors import ClassError

    async def test(database: Database) -> None:
        other = Database(url)
        await other.open()
        here, there = School(database), School(other)
        try:
            number = await make_class(database, record())
            room = await here.room(number)
            joined = [await room.join(room.class_record.code, f"Table {n}", ["Ada", "Bo"], "en",
                                      "device") for n in range(3)]
            asked: dict[School, list[str]] = {here: [], there: []}
            for school in (here, there):
                find = school._find

                async def counted(query: str, value: str, device: str,
                                  refused: Callable[[], ClassError], school: School = school,
                                  find: t.Any = find) -> int:
                    asked[school].append(value)
                    number: int = await find(query, value, device, refused)
                    return number

                monkeypatch.setattr(school, "_find", counted)
            for school in (here, there):
                for group, token in joined:
                    found_room, found = await school.by_group(group.record.id, token, "device")
                    assert found_room.record is not None
                    assert found.record.id == group.record.id
                # Here, the groups joined after the class was read; there, none had
                # a request before: one question each, for every group.
                assert len(asked[school]) == 1
            with pytest.raises(ClassError) as refused:
                await there.by_group(joined[0][0].record.id, new_token(), "device")
            assert refused.value.code == "not_your_group"
            assert len(asked[there]) == 2
        finally:
            await here.close()
            await there.close()
            await other.close()

    run(url, test)


async def database_sql(database: Database, statement: str, number: int) -> int:
    async with database.connection() as connection:
        cursor = await connection.execute(statement, (number,))
        row = await cursor.fetchone() if cursor.description else None
    return 0 if row is None else int(row[0])


def test_a_retry_committed_elsewhere_while_it_was_looked_for_is_answered(url: str) -> None:
    """A page's roll reached a process that committed it and was killed
    before answering; the page tries the other process, which looked for the
    submission a moment before that commit was seen. The retry is the first
    roll's answer, not a conflict, and nothing is written twice."""
    async def test(first: Database) -> None:
        second = Database(url)
        await second.open()
        number = await make_class(first, record())
        one = Classroom(PostgresStore(first, number))
        two = Classroom(PostgresStore(second, number))
        await one.open(None, None, "en")
        await two.open(None, None, "en")
        try:
            group, _ = await joined(one, "Retried")
            await two.catch_up()
            await roll_on(two, group, 3)
            table = two.groups[group].table
            seq, game = table.seq, table.game
            request = table.request()
            assert request is not None
            dice = Roll(tuple(range(1, request.dice + 1)))
            sent = await two.roll(two.groups[group], "lost", seq, game, dice)
            # One has heard of neither roll, and its first look for "lost"
            # comes before that commit is seen.
            looked = one.store.find
            calls: list[str] = []

            async def late(stream: int, submission: Submission) -> t.Any:
                calls.append(submission.id)
                return None if len(calls) == 1 else await looked(stream, submission)

            one.store.find = late  # type: ignore[method-assign]
            again = await one.roll(one.groups[group], "lost", seq, game, dice)
            assert again == sent
            assert calls == ["lost", "lost"]
            assert await one.store.latest() == 3
        finally:
            await one.close()
            await two.close()
            await second.close()

    run(url, test)


def test_a_code_is_unique_among_the_open_classes(url: str) -> None:
    """Two open classes never share a code; a closed class's code is free."""
    from aces.errors import ClassError

    async def test(database: Database) -> None:
        first = record()
        number = await make_class(database, first)
        with pytest.raises(ClassError, match="another open class has this code") as refused:
            await make_class(database, ClassRecord(code=first.code, secret=new_token(),
                                                   game="pot", options={}, lang="en"))
        assert refused.value.code == "code_taken"
        await database_sql(database, "UPDATE aces.classes SET closed = now() WHERE id = %s",
                           number)
        again = await make_class(database, ClassRecord(code=first.code, secret=new_token(),
                                                       game="pot", options={}, lang="en"))
        assert again != number

    run(url, test)


def test_a_roll_refused_while_the_database_is_away_leaves_no_table_ahead_of_the_log(
        url: str) -> None:
    """The append fails and the log cannot be read again either (the database
    away): the table is read again before its next use, so the page's retry
    is recorded where it was meant, not refused as stale."""
    from aces.classroom.database import unavailable

    async def test(database: Database) -> None:
        room = Classroom(PostgresStore(database, await make_class(database, record())))
        await room.open(None, None, "en")
        try:
            number, _ = await joined(room, "Patient")
            group = room.groups[number]
            await roll_on(room, number, 2)
            seq, game = group.table.seq, group.table.game
            request = group.table.request()
            assert request is not None
            dice = Roll(tuple(range(1, request.dice + 1)))
            store = room.store
            append, reading = store.append, store.reading

            async def away(*args: t.Any, **kwargs: t.Any) -> t.Any:
                raise unavailable()

            def unreadable(stream: int) -> t.Any:
                raise unavailable()

            store.append = away  # type: ignore[method-assign]
            store.reading = unreadable  # type: ignore[method-assign]
            with pytest.raises(StoreUnavailableError):
                await room.roll(group, "patient", seq, game, dice)
            store.append, store.reading = append, reading  # type: ignore[method-assign]
            await room.settled(group)
            assert group.table.seq == seq
            answer = await room.roll(group, "patient", seq, game, dice)
            assert answer.first == seq + 1
            assert await verified_stream(store, number) == answer.last
        finally:
            await room.close()

    run(url, test)


async def verified_stream(store: Store, stream: int) -> int:
    async with store.reading(stream) as lines:
        return sum(1 for _ in read(lines, "log"))


def sizes_sent(database: Database) -> list[int]:
    """How many appends each call of the database carries, from now on. (A
    pool of 3 lets the appends have one call in flight at a time: the first
    append goes alone, and those that come meanwhile together.)"""
    from aces.classroom import postgres

    batcher = postgres._batcher(database)
    sizes: list[int] = []
    real = batcher._sent

    async def counted(calls: list[t.Any]) -> list[t.Any]:
        sizes.append(len(calls))
        return await real(calls)

    batcher._sent = counted  # type: ignore[method-assign]
    return sizes


def test_appends_sent_together_each_keep_their_own_outcome(url: str) -> None:
    """Appends of one process that come while its call is in flight go in
    the next, together (group commit), across classes; one of them stale (another process's store of
    the class appended at its seq first, in the same call) is refused
    alone, and the others are appended, each once, where their answers say."""
    from aces.classroom.store import StaleAppendError

    async def test(database: Database) -> None:
        alone, first, second = [await one_stream(database) for _ in range(3)]
        other = PostgresStore(database, first.cls)
        await other.open()
        sizes = sizes_sent(database)
        sent = Submission("together", "roll 6")
        answers = await asyncio.gather(
            alone.append(1, 1, [rolled(2)]), first.append(1, 1, [rolled(4)]),
            second.append(1, 1, [rolled(5), rolled(6)], sent), other.append(1, 1, [rolled(3)]),
            return_exceptions=True)
        assert sizes == [1, 3]
        assert isinstance(answers[3], StaleAppendError)
        assert [(answer.first, answer.last) for answer in answers[:3]  # type: ignore[union-attr]
                ] == [(2, 2), (2, 2), (2, 3)]
        assert (await verified(first), await verified(second)) == (2, 3)
        # Sent again by itself, the submission is known for its first block.
        again = await second.append(1, 1, [rolled(5), rolled(6)], sent)
        assert again == t.cast("t.Any", answers[2])._replace(again=True)
        for store in (alone, first, second, other):
            await store.close()

    run(url, test, pool=3)


def test_two_processes_appending_together_to_the_same_classes_lose_nothing(
        url: str) -> None:
    """Two processes each send appends to two classes in one call, in
    opposite orders, round after round: each call takes the classes' locks
    in one order, so neither waits for the other for ever, and every block
    is appended once, each class's feed gapless."""
    async def test(database: Database) -> None:
        other = Database(url, StoreSettings(pool=3))
        await other.open()
        try:
            numbers = [await make_class(database, record()) for _ in range(2)]
            here = [PostgresStore(database, number) for number in numbers]
            there = [PostgresStore(other, number) for number in numbers]
            for store in here + there:
                await store.open()
            for store in here:
                for stream in (1, 2, 3, 4):
                    await store.create(stream, f"group-00{stream}.jsonl")
                    await store.append(stream, 0, [HEADER])
            for store in there:
                for stream in (3, 4):
                    await store.lines(stream, 1, 1)
            sizes = (sizes_sent(database), sizes_sent(other))
            for turn in range(1, 21):
                dice = [rolled(turn % 6 + 1)]
                await asyncio.gather(
                    *(store.append(stream, turn, dice)
                      for store in here[::-1] for stream in (1, 2)),
                    *(store.append(stream, turn, dice) for store in there for stream in (3, 4)))
            assert all(3 in each for each in sizes)
            for store in here:
                for stream in (1, 2, 3, 4):
                    assert await verified_stream(store, stream) == 21
                positions = [entry.position for entry in await store.entries(0, 100)]
                assert positions == list(range(1, 85))
            for store in here + there:
                await store.close()
        finally:
            await other.close()

    run(url, test, pool=3)


def test_a_connection_killed_in_the_middle_of_appends_sent_together_settles_each(
        url: str) -> None:
    """pg_terminate_backend while a call of two appends waits for a class's
    lock: each append is settled by itself on a new connection, and each is
    appended once."""
    async def test(database: Database) -> None:
        alone, first, second = [await one_stream(database) for _ in range(3)]
        sizes = sizes_sent(database)
        sent = Submission("killed", "roll 4")
        async with database.connection() as holder, holder.transaction():
            await holder.execute("SELECT 1 FROM aces.feeds WHERE class = %s FOR UPDATE",
                                 (first.cls,))
            # The first goes alone; the two that come meanwhile, together.
            appending = asyncio.gather(alone.append(1, 1, [rolled(2)]),
                                       first.append(1, 1, [rolled(4)], sent),
                                       second.append(1, 1, [rolled(5)]))
            pid = await backend_waiting(database)
            await holder.execute("SELECT pg_terminate_backend(%s)", (pid,))
        answers = await asyncio.wait_for(appending, 20)
        assert sizes[:2] == [1, 2]
        assert [(answer.first, answer.last, answer.again) for answer in answers] == [
            (2, 2, False)] * 3
        assert (await verified(first), await verified(second)) == (2, 2)
        for store in (alone, first, second):
            await store.close()

    run(url, test, pool=3)
