"""The store of one class on the school's PostgreSQL, beside the folder of files.

It keeps the promises of :mod:`aces.classroom.store` as the anchors do
(pyeventsourcing's recorder, Message DB), in the tables of
``aces/classroom/migrations``:

- every line of a group's log is a row, keyed ``(class, stream, seq)``:
  of two appends at one ``seq`` one wins, and the key would refuse the
  other even if the lock below did not;
- an append is one call of ``aces.append()``, one transaction: it locks
  the class's row of ``aces.feeds`` (Message DB's advisory lock per
  category, as a row), so the appends of one class commit in the order
  of the positions they take, and a position is never skipped nor filled
  in later; it looks the submission up first (a retry gets its first
  block back, on any process, after any restart), checks the stream's
  last ``seq`` and digest, writes the lines, the block and the
  submission, and ``NOTIFY``\\ s the other processes, on commit only;
  the appends a process makes while its calls are all in flight go
  together in the next, ``aces.append_many()``, each with the outcome
  ``aces.append()`` gives it (group commit, :class:`_Batcher`);
- the lines are encoded here by :class:`aces.log.LogWriter`, chained on
  the stream's last digest, so they are the bytes ``aces record`` and the
  file store write, and an export is an ordinary log;
- durable before acknowledged is the database's commit.

A connection lost in the middle of an append (the database restarted, a
``pg_terminate_backend``, the answer lost after the commit) leaves its
outcome unknown, and it is settled before anyone is answered: the append
is sent again on a new connection until the database answers, for as long
as a request waits for one (the ``timeout`` of
:class:`~aces.classroom.database.StoreSettings`). ``aces.append()``
takes the class's lock first, so the lost transaction has ended by then,
committed or not; the submission's id then says whether it is there (a
block without one is known for ours when the stream holds exactly its
bytes), and if it is not, it is appended now. Only an append that never
reached the database is answered
:class:`~aces.classroom.database.StoreUnavailableError` ("nothing was
recorded"); one the database may hold, and that could not be settled in
time, is answered :class:`~aces.classroom.database.StoreUnsureError`, and
sent again it is recorded once.

What this process knows of the class (its feed's position, the record's
revision, each stream's last line) is only a hint: the calls that must be
exact ask the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import typing as t
import weakref

import msgspec

from aces.classroom.database import StoreUnavailableError, unavailable, unsure
from aces.classroom.files import digest
from aces.classroom.store import (
    Appended,
    ClassRecord,
    FeedEntry,
    Opened,
    ReusedSubmissionError,
    StaleAppendError,
    Submission,
)
from aces.errors import N_, AcesError, ClassError, SaveError
from aces.log import LogWriter

if t.TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable, Iterable, Sequence

    import psycopg

    from aces.classroom.database import Database
    from aces.events import Event

__all__ = ["PostgresStore", "UnknownClassError", "make_class", "unknown_class"]

_DECODER: t.Final = msgspec.json.Decoder(ClassRecord)
_ENCODER: t.Final = msgspec.json.Encoder()


class UnknownClassError(AcesError):
    """A class that is not, or no longer, in the database."""


class PostgresStore:
    """The store of class number ``cls`` in ``database`` (see the module)."""

    shared: t.ClassVar[bool] = True

    def __init__(self, database: Database, cls: int) -> None:
        self.database = database
        self.cls = cls
        self._position = 0
        self._revision = 0
        #: Each stream's last line as this process saw it: (seq, digest).
        self._heads: dict[int, tuple[int, bytes]] = {}
        #: The class was found deleted (by the retention, or the operator).
        self._gone = False
        self._changed: asyncio.Condition | None = None
        #: A wake of the waiters for a block is under way.
        self._ringing = False

    # -- Opening -------------------------------------------------------------------

    async def open(self) -> Opened:
        """Read the class's record and where its streams and feed are.

        :raises UnknownClassError: for a class the database does not hold.
        """
        self._changed = asyncio.Condition()
        async with self.database.connection() as connection:
            kept = await self._where(connection, record=True)
            heads = await connection.execute(
                "SELECT stream, seq, digest FROM aces.streams WHERE class = %s", (self.cls,))
            for stream, seq, last in await heads.fetchall():
                self._heads[stream] = (seq, last.encode("ascii"))
        record = None if kept is None else _decoded(kept)
        self.database.follow(self.cls, self._ring)
        return Opened(record, [])

    def _ring(self, position: int | None) -> None:
        """The doorbell: a block at ``position``, or the record, changed."""
        if position is not None:
            if position <= self._position:
                return
            self._position = position
            if self._ringing:
                # A burst of appends: the waiters are woken once for all.
                return
            self._ringing = True
        asyncio.get_running_loop().create_task(self._wake(position))

    async def _wake(self, position: int | None) -> None:
        if position is not None:
            self._ringing = False
        else:
            # The record changed, or no one knows what: look.
            try:
                await self._look()
            except UnknownClassError:
                # Deleted: whoever waits for a change hears of it now.
                self._gone = True
            except AcesError:
                pass
        await self._notify()

    async def _notify(self) -> None:
        assert self._changed is not None
        async with self._changed:
            self._changed.notify_all()

    async def _look(self) -> None:
        """Read the feed's position and the record's revision."""
        async with self.database.connection() as connection:
            await self._where(connection, record=False)

    async def _where(self, connection: psycopg.AsyncConnection[t.Any], *, record: bool
                     ) -> t.Any:
        """Read the feed's position and the record's revision, and the record
        itself if ``record`` (``None`` for a class made but not begun).

        :raises UnknownClassError: for a class the database does not hold.
        """
        cursor = await connection.execute(
            "SELECT " + ("c.record" if record else "NULL") + ", c.revision, f.position"
            " FROM aces.classes c JOIN aces.feeds f ON f.class = c.id WHERE c.id = %s",
            (self.cls,))
        row = await cursor.fetchone()
        if row is None:
            raise unknown_class(self.cls)
        self._revision = max(self._revision, row[1])
        self._position = max(self._position, row[2])
        return row[0]

    # -- The class's record ----------------------------------------------------------

    async def save(self, record: ClassRecord) -> None:
        """Keep the record of a class begun now (the class was made empty)."""
        def replaced(kept: ClassRecord | None) -> ClassRecord:
            return record

        await self._change(replaced)

    async def update(self, change: Callable[[ClassRecord], None]) -> ClassRecord:
        def changed(kept: ClassRecord | None) -> ClassRecord:
            assert kept is not None, "a class's record is saved before it is changed"
            change(kept)
            return kept

        return await self._change(changed)

    async def _change(self, change: Callable[[ClassRecord | None], ClassRecord]
                      ) -> ClassRecord:
        async with self.database.connection() as connection, connection.transaction():
            cursor = await connection.execute(
                "SELECT record FROM aces.classes WHERE id = %s FOR UPDATE", (self.cls,))
            row = await cursor.fetchone()
            if row is None:
                raise unknown_class(self.cls)
            record = change(None if row[0] is None else _decoded(row[0]))
            try:
                cursor = await connection.execute(
                    "UPDATE aces.classes SET record = %s::jsonb, revision = revision + 1"
                    " WHERE id = %s RETURNING revision", (_ENCODER.encode(record).decode(),
                                                          self.cls))
            except _unique_violation() as exc:
                raise _taken() from exc
            revised = await cursor.fetchone()
            assert revised is not None
            await connection.execute("SELECT pg_notify(%s, %s)",
                                     ("aces", f"{self.cls} r{revised[0]}"))
        self._revision = max(self._revision, revised[0])
        return record

    async def record(self) -> ClassRecord:
        """The class's newest record, read again.

        :raises UnknownClassError: for a class deleted meanwhile.
        """
        async with self.database.connection() as connection:
            cursor = await connection.execute(
                "SELECT record, revision FROM aces.classes WHERE id = %s", (self.cls,))
            row = await cursor.fetchone()
        if row is None or row[0] is None:
            raise unknown_class(self.cls)
        self._revision = max(self._revision, row[1])
        return _decoded(row[0])

    @property
    def revision(self) -> int:
        return self._revision

    # -- Streams -------------------------------------------------------------------------

    async def create(self, stream: int, log: str) -> None:
        """Begin the log of a new group.

        :raises ~aces.errors.SaveError: for a stream the class has already.
        """
        async with self.database.connection() as connection:
            try:
                await connection.execute(
                    "INSERT INTO aces.streams (class, stream, log) VALUES (%s, %s, %s)",
                    (self.cls, stream, log))
            except _unique_violation():
                raise SaveError("{path} exists already, and a class never writes over a file;"
                                " move it away", path=log) from None
        self._heads[stream] = (0, b"")

    @contextlib.asynccontextmanager
    async def reading(self, stream: int) -> AsyncIterator[Iterable[bytes]]:
        lines = await self._lines(stream, 1, None)
        yield lines

    def seq(self, stream: int) -> int:
        return self._heads.get(stream, (0, b""))[0]

    async def find(self, stream: int, submission: Submission) -> Appended | None:
        """Where ``submission`` was appended, on any process, if it was.

        :raises ~aces.classroom.store.ReusedSubmissionError: for its id with
            another payload.
        """
        async with self.database.connection() as connection:
            cursor = await connection.execute(
                "SELECT s.payload, b.position, b.first, b.last FROM aces.submissions s"
                " JOIN aces.blocks b ON b.class = s.class AND b.position = s.position"
                " WHERE s.class = %s AND s.stream = %s AND s.id = %s",
                (self.cls, stream, digest(submission.id)))
            row = await cursor.fetchone()
        if row is None:
            return None
        if row[0] != digest(submission.digest):
            raise ReusedSubmissionError(submission.id)
        return Appended(row[1], row[2], row[3], again=True)

    async def append(self, stream: int, expected: int, events: Sequence[Event],
                     submission: Submission | None = None) -> Appended:
        """Append ``events`` after line ``expected``, durably (see the module).

        :raises ~aces.classroom.store.StaleAppendError: for an ``expected`` that
            has passed; :raises ~aces.classroom.store.ReusedSubmissionError:
            for a submission's id with another payload;
            :raises ~aces.classroom.database.StoreUnavailableError: for a
            database that cannot be reached (nothing was appended), and its
            :class:`~aces.classroom.database.StoreUnsureError` for one that
            went away before it said whether it committed the append.
        """
        keys = (None, None) if submission is None else (digest(submission.id),
                                                        digest(submission.digest))
        head = self._heads.get(stream)
        if head is None or head[0] != expected or not events:
            # Another process appended (or this one never saw the stream): the
            # database says where the stream is, after the submission's check.
            row = await self._probe(stream, expected, keys)
            if row[0] != "stale" or row[4] != expected or not events:
                return await self._outcome(stream, expected, row, submission, events)
            head = (row[4], row[5].encode("ascii"))
        writer = LogWriter(None, first_seq=expected + 1, previous=head[1])
        block = writer.encode(events)
        lines = block.splitlines(keepends=True)
        last = writer.digest
        try:
            row = await self._call(stream, expected, head[1], lines, last, keys)
        except _LostError as lost:
            # The connection went in the middle: the append may or may not have
            # been committed. Sent again on another, the database says which.
            row = await self._settled(stream, expected, head[1], lines, last, keys, lost.sent)
            if row[0] == "stale" and row[4] >= expected + len(lines):
                try:
                    written = await self._lines(stream, expected + 1, expected + len(lines))
                    if b"".join(written) == block:
                        return await self._appended_at(stream, expected + 1,
                                                       expected + len(lines))
                except StoreUnavailableError:
                    # Gone again before the stream's lines were read: they may be ours.
                    raise unsure() from None
        return await self._outcome(stream, expected, row, submission, events)

    async def _settled(self, stream: int, expected: int, previous: bytes, lines: list[bytes],
                       last: bytes, keys: tuple[str | None, str | None], sent: bool
                       ) -> tuple[t.Any, ...]:
        """The append sent again after a connection lost, until the database
        answers (see the module): its answer is certain, since the lost
        transaction has ended once this one holds the class's lock.

        :raises ~aces.classroom.database.StoreUnsureError: if the database
            may hold the append (``sent``: the lost call reached it) and did
            not answer in time; :raises
            ~aces.classroom.database.StoreUnavailableError: if no call reached it.
        """
        deadline = time.monotonic() + self.database.settings.timeout

        def left() -> float:
            return deadline - time.monotonic()

        # Every wait below is given the time left, not a timeout of its own,
        # so that the pupil is answered within the timeout, not a multiple of it.
        await self.database.sweep(left())
        while True:
            try:
                return await self._call(stream, expected, previous, lines, last, keys,
                                        timeout=max(left(), _LEAST_WAIT))
            except _LostError as lost:
                sent = sent or lost.sent
            if left() <= 0:
                raise (unsure() if sent else unavailable())
            await asyncio.sleep(min(_SETTLING, left()))
            # The database may have restarted: the dead connections go at once.
            await self.database.sweep(left())

    async def _outcome(self, stream: int, expected: int, row: tuple[t.Any, ...],
                       submission: Submission | None, events: Sequence[Event]) -> Appended:
        outcome, block, first, last, seq, last_digest = row
        if outcome == "appended":
            self._heads[stream] = (seq, last_digest.encode("ascii"))
            self._position = max(self._position, block)
            await self._notify()
            return Appended(block, first, last)
        if outcome == "again":
            return Appended(block, first, last, again=True)
        if outcome == "reused":
            raise ReusedSubmissionError(None if submission is None else submission.id)
        if outcome == "missing":
            raise unknown_class(self.cls)
        self._heads[stream] = (seq, last_digest.encode("ascii"))
        if events or seq != expected:
            raise StaleAppendError(stream, seq)
        # Nothing to append, at the right place: nothing changes.
        return Appended(self._position, expected + 1, expected)

    async def _probe(self, stream: int, expected: int, keys: tuple[str | None, str | None]
                     ) -> tuple[t.Any, ...]:
        """The submission's block, or where the stream is: a call that writes
        nothing, so it is tried again on a connection lost."""
        for _ in range(2):
            with contextlib.suppress(_LostError):
                return await self._call(stream, expected, None, [], b"", keys)
        raise unavailable()

    async def _call(self, stream: int, expected: int, previous: bytes | None,
                    lines: list[bytes], last: bytes, keys: tuple[str | None, str | None],
                    timeout: float | None = None) -> tuple[t.Any, ...]:
        """One call of ``aces.append()``; ``timeout``: the seconds to wait for a
        connection (the pool's own timeout by default). An append's first
        sending (lines, and no timeout of its own) goes with the others of
        the moment (:class:`_Batcher`)."""
        call = (self.cls, stream, expected,
                None if previous is None else previous.decode("ascii"), lines,
                last.decode("ascii"), *keys)
        if previous is not None and lines and timeout is None:
            return await _batcher(self.database).append(call)
        row = (await _send(self.database, [call], timeout))[0]
        assert not isinstance(row, Exception)  # one call's error is raised
        return row

    async def _appended_at(self, stream: int, first: int, last: int) -> Appended:
        async with self.database.connection() as connection:
            cursor = await connection.execute(
                "SELECT position FROM aces.blocks WHERE class = %s AND stream = %s"
                " AND first = %s", (self.cls, stream, first))
            row = await cursor.fetchone()
        assert row is not None, "a block written has its place in the feed"
        await self._look()
        return Appended(row[0], first, last)

    # -- The feed -----------------------------------------------------------------------

    @property
    def position(self) -> int:
        return self._position

    async def latest(self) -> int:
        await self._look()
        return self._position

    async def entries(self, after: int, limit: int) -> list[FeedEntry]:
        async with self.database.connection() as connection:
            cursor = await connection.execute(
                "SELECT position, stream, first, last FROM aces.blocks WHERE class = %s"
                " AND position > %s ORDER BY position LIMIT %s", (self.cls, after, limit))
            rows = await cursor.fetchall()
        if rows:
            self._position = max(self._position, rows[-1][0])
        return [FeedEntry(*row) for row in rows]

    async def blocks(self, after: int, limit: int) -> list[tuple[FeedEntry, bytes]]:
        async with self.database.connection() as connection:
            cursor = await connection.execute(
                "SELECT b.position, b.stream, b.first, b.last, (SELECT string_agg(l.line,"
                " ''::bytea ORDER BY l.seq) FROM aces.lines l WHERE l.class = b.class"
                " AND l.stream = b.stream AND l.seq BETWEEN b.first AND b.last)"
                " FROM aces.blocks b WHERE b.class = %s AND b.position > %s"
                " ORDER BY b.position LIMIT %s", (self.cls, after, limit))
            rows = await cursor.fetchall()
        if rows:
            self._position = max(self._position, rows[-1][0])
        blocks = [(FeedEntry(*row[:4]), bytes(row[4] or b"")) for row in rows]
        for entry, block in blocks:
            if block and entry.last > self._heads.get(entry.stream, (0, b""))[0]:
                self._heads[entry.stream] = (entry.last, _last_digest(block))
        return blocks

    async def lines(self, stream: int, first: int, last: int) -> list[bytes]:
        return await self._lines(stream, first, last)

    async def _lines(self, stream: int, first: int, last: int | None) -> list[bytes]:
        async with self.database.connection() as connection:
            cursor = await connection.execute(
                "SELECT seq, line FROM aces.lines WHERE class = %s AND stream = %s"
                " AND seq >= %s AND (%s::bigint IS NULL OR seq <= %s) ORDER BY seq",
                (self.cls, stream, first, last, last))
            rows = await cursor.fetchall()
        if rows and rows[-1][0] > self._heads.get(stream, (0, b""))[0]:
            # Another process's lines, folded in here: the stream's head as
            # they leave it, so that the next append here needs no probe.
            self._heads[stream] = (int(rows[-1][0]), _last_digest(bytes(rows[-1][1])))
        return [bytes(line) for _, line in rows]

    async def changed(self, after: int, revision: int | None = None) -> None:
        """Wait for a block after ``after`` (or a record past ``revision``): rung
        by the database's notifications, and looking for itself every
        :attr:`Database.poll <aces.classroom.database.Database.poll>` seconds.

        :raises UnknownClassError: once the class is deleted.
        """
        assert self._changed is not None

        def moved() -> bool:
            return self._gone or self._position > after or (
                revision is not None and self._revision > revision)

        while not moved():
            async with self._changed:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait_for(moved), self.database.poll)
            if not moved():
                try:
                    await self._look()
                except UnknownClassError:
                    # Deleted (its retention passed): its followers stop.
                    raise
                except AcesError:
                    pass
        if self._gone:
            raise unknown_class(self.cls)

    async def close(self) -> None:
        self.database.unfollow(self.cls, self._ring)


#: One append's arguments of ``aces.append()``: the class, the stream, the
#: line expected last, its digest (none for a probe, which writes nothing),
#: the lines, the digest of the last, the digests of the submission's id and
#: payload.
_Call: t.TypeAlias = tuple[int, int, int, str | None, list[bytes], str, str | None, str | None]
#: The most appends sent in one call.
_BATCH: t.Final = 64
#: The share of the pool's connections the appends' calls may hold (1/2).
_FLIGHTS: t.Final = 2
_APPEND: t.Final = "SELECT * FROM aces.append(%s, %s, %s, %s, %s, %s, %s, %s)"
_APPEND_MANY: t.Final = (
    "SELECT * FROM aces.append_many(%s::bigint[], %s::integer[], %s::bigint[], %s::text[],"
    " %s::integer[], %s::bytea[], %s::text[], %s::text[], %s::text[])")


class _Batcher:
    """Group commit: the appends of one process that arrive while its calls
    of them are all in flight are sent together in the next, one call of
    ``aces.append_many()``, one transaction and one round trip (migration
    0002). Under load a roll so costs this process, the database and the
    other processes' listeners a share of a call, a commit and a
    notification's wake, not one each; alone, a roll goes at once, in a
    call of ``aces.append()`` as before. Each append keeps its own outcome:
    one stale does not fail the others. Only the sending is shared; a
    connection lost in the middle leaves each append of the call to be
    settled by itself (:meth:`PostgresStore._settled`)."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self._waiting: list[tuple[_Call, asyncio.Future[tuple[t.Any, ...]]]] = []
        #: The calls in flight (an append's own, or a batch's).
        self._busy = 0
        #: The tasks that send the batches, each what waits when it is done.
        self._flights: set[asyncio.Task[None]] = set()
        #: The most calls in flight at once: half the pool, so that the
        #: appends leave connections for the reads (the follower's, the
        #: projectors') and wait for one of their own calls, where their
        #: turn comes sooner than at the pool's.
        self._most = max(1, database.settings.pool // _FLIGHTS)

    async def append(self, call: _Call) -> tuple[t.Any, ...]:
        """``aces.append()``'s answer to ``call``, sent with whatever else waits.

        :raises _LostError: for a connection lost, or none had.
        """
        if self._busy < self._most:
            # A call free: this append goes at once, alone, in its own task
            # (as it went before there were batches: no hop to another task).
            self._busy += 1
            try:
                row = (await self._sent([call]))[0]
            finally:
                self._busy -= 1
                self._next()
            assert not isinstance(row, Exception)
            return row
        loop = asyncio.get_running_loop()
        future: asyncio.Future[tuple[t.Any, ...]] = loop.create_future()
        self._waiting.append((call, future))
        # A request given up (its client gone) leaves its append to the call:
        # the table is read again from the log, whatever the call does.
        return await asyncio.shield(future)

    def _next(self) -> None:
        """A call has ended: what waits goes in the next."""
        if self._waiting and self._busy < self._most:
            self._busy += 1
            self._flights.add(asyncio.get_running_loop().create_task(self._fly()))

    async def _fly(self) -> None:
        batch: list[tuple[_Call, asyncio.Future[tuple[t.Any, ...]]]] = []
        try:
            while self._waiting:
                batch, self._waiting = self._waiting[:_BATCH], self._waiting[_BATCH:]
                rows: list[tuple[t.Any, ...] | Exception]
                try:
                    rows = await self._sent([call for call, _ in batch])
                except _LostError as lost:
                    rows = [_LostError(sent=lost.sent) for _ in batch]
                except Exception as exc:  # the callers' to raise
                    rows = [exc] * len(batch)
                for (_, future), row in zip(batch, rows, strict=True):
                    if future.done():
                        continue
                    if isinstance(row, BaseException):
                        future.set_exception(row)
                    else:
                        future.set_result(row)
                batch = []
        finally:
            # Out of the count at once: an append that comes now has a call.
            self._busy -= 1
            self._flights.discard(t.cast("asyncio.Task[None]", asyncio.current_task()))
            # Cancelled (the loop ends): no one waits for ever.
            for _, future in batch:
                future.cancel()
            if not self._busy:
                for _, future in self._waiting:
                    future.cancel()
                self._waiting = []

    async def _sent(self, calls: list[_Call]) -> list[tuple[t.Any, ...] | Exception]:
        """Each call's row, sent in one call of the database (:func:`_send`)."""
        return await _send(self.database, calls)


async def _send(database: Database, calls: list[_Call], timeout: float | None = None,
                ) -> list[tuple[t.Any, ...] | Exception]:
    """Each call's row, sent in one call of the database: ``aces.append()``
    for one, ``aces.append_many()`` for more; ``timeout``: the seconds to
    wait for a connection (the pool's own by default). One call's error is
    raised; after an error of a call of many, each is sent alone.

    :raises _LostError: for a connection lost, or none had.
    """
    import psycopg

    lost = (psycopg.OperationalError, psycopg.InterfaceError)
    try:
        async with database.pool.connection(timeout) as connection:
            try:
                if len(calls) == 1:
                    cursor = await connection.execute(_APPEND, calls[0])
                    row = await cursor.fetchone()
                    assert row is not None
                    return [tuple(row)]
                cursor = await connection.execute(_APPEND_MANY, _columns(calls))
                found = await cursor.fetchall()
            except lost:
                # Sent: the database may have committed them.
                raise _LostError(sent=True) from None
            except psycopg.Error:
                if len(calls) == 1:
                    raise
                # Not one append's outcome, but an error of the call (none
                # is known): nothing of it was committed; each is sent by
                # itself, so that only the one at fault fails.
                found = None
    except lost:
        # No connection to send them on (the pool's wait ran out).
        database.trouble()
        raise _LostError(sent=False) from None
    except _LostError:
        database.trouble()
        raise
    if found is None:
        return [await _alone(database, call) for call in calls]
    rows: list[tuple[t.Any, ...] | Exception] = [()] * len(calls)
    for item, *row in found:
        rows[item - 1] = tuple(row)
    return rows


async def _alone(database: Database, call: _Call) -> tuple[t.Any, ...] | Exception:
    try:
        return (await _send(database, [call]))[0]
    except Exception as exc:  # the caller's to raise
        return exc


def _columns(calls: list[_Call]) -> tuple[list[t.Any], ...]:
    """The arguments of ``aces.append_many()`` for ``calls``: a column each,
    the lines of all in one."""
    classes, streams, expected, previous, lines, digests, ids, payloads = zip(*calls,
                                                                               strict=True)
    return (list(classes), list(streams), list(expected), list(previous),
            [len(each) for each in lines], [line for each in lines for line in each],
            list(digests), list(ids), list(payloads))


#: The batcher of each database's appends.
_BATCHERS: weakref.WeakKeyDictionary[Database, _Batcher] = weakref.WeakKeyDictionary()


def _batcher(database: Database) -> _Batcher:
    found = _BATCHERS.get(database)
    if found is None:
        found = _BATCHERS[database] = _Batcher(database)
    return found


#: Seconds between the tries that settle an append whose connection was lost.
_SETTLING: t.Final = 0.2
#: The least wait for a connection on the last try that settles an append:
#: a pool asked to wait for no time at all gives up even with one idle.
_LEAST_WAIT: t.Final = 0.05


class _LostError(Exception):
    """The connection went in the middle of a call; ``sent``: the call may
    have reached the database (it did not if no connection was had)."""

    def __init__(self, *, sent: bool) -> None:
        super().__init__()
        self.sent = sent


def _last_digest(block: bytes) -> bytes:
    """The digest of the last line of ``block``."""
    digest: str = json.loads(block.rstrip(b"\n").rsplit(b"\n", 1)[-1])["digest"]
    return digest.encode("ascii")


def _decoded(value: t.Any) -> ClassRecord:
    data = value if isinstance(value, (bytes, str)) else msgspec.json.encode(value)
    return _DECODER.decode(data)


def _unique_violation() -> type[Exception]:
    import psycopg

    return psycopg.errors.UniqueViolation


def unknown_class(cls: int) -> UnknownClassError:
    """The refusal of class ``cls``, which the database does not (or no longer) hold."""
    # Translators: the school's class server: a class that was deleted (its
    # retention passed) or never was. {number}: the class's number.
    return UnknownClassError(N_("the school's server holds no class number {number}; it may"
                                " have been deleted once its time was up"), number=cls)


def _taken() -> AcesError:
    # Translators: the school's class server: a new class drew the code of an
    # open class (it happens seldom, and trying again draws another).
    return ClassError("another open class has this code; try again").coded("code_taken")



async def make_class(database: Database, record: ClassRecord | None,
                     teacher: int | None = None) -> int:
    """Make a class on the school's server, with its record (``None``: a class
    begun by the first :meth:`PostgresStore.save`); its number.

    :raises ~aces.errors.AcesError: (a ClassError ``code_taken``) for the
        code of an open class.
    """
    encoded = None if record is None else _ENCODER.encode(record).decode()
    async with database.connection() as connection, connection.transaction():
        try:
            cursor = await connection.execute(
                "INSERT INTO aces.classes (teacher, record) VALUES (%s, %s::jsonb)"
                " RETURNING id", (teacher, encoded))
        except _unique_violation() as exc:
            raise _taken() from exc
        row = await cursor.fetchone()
        assert row is not None
        await connection.execute("INSERT INTO aces.feeds (class) VALUES (%s)", (row[0],))
    return int(row[0])
