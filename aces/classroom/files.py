"""The file store: a class in a folder of ordinary logs, the embedded default.

The folder holds, for a class:

- ``group-001.jsonl``, ``group-002.jsonl``...: each group's log, written
  through the log store ``aces record`` writes with (locked, every block
  synced to disk before it is acknowledged, a torn last line cut off on
  start), so ``aces verify``, ``aces replay`` and ``aces stats`` read them
  as they read any log;
- ``class.json``: the class's record (:class:`~aces.classroom.store.ClassRecord`),
  replaced whole and atomically; readable by its owner alone, since it
  holds the teacher's secret;
- ``.feed``: the class-wide order of the blocks (:mod:`aces.classroom.feed`).

Appends to one log are serialised; logs are synced in parallel, and the
feed is synced once for every block written meanwhile (group commit),
while the block's log is synced (:mod:`aces.classroom.feed` says what a
crash between the two leaves), so one fsync's wait a block is the whole
cost. A block is acknowledged once both are synced, and shown to
projectors once every block before it in the feed is too. The syncs have threads of
their own (:data:`WRITERS`), not asyncio's few (the cores and four more): a
disk takes many syncs of different files at once far faster than one after
another (on a small virtual machine, several times as many a second with
32 threads as with 6), and a block waits for its own sync, not for a queue
of others.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import contextlib
import hashlib
import os
import re
import typing as t
from pathlib import Path

import msgspec

from aces.classroom import store
from aces.classroom.feed import VOID, Feed, Line
from aces.errors import AcesError, SaveError, TruncatedLogError
from aces.files import file_name, os_reason
from aces.logstore import LogBusyError, LogStore, lock_file, sync_folder, unlock_file
from aces.page.html import write_atomically

if t.TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence

    from aces.events import Event

__all__ = ["RECORD", "REMEMBERED", "WRITERS", "FileStore", "digest", "log_name"]

T = t.TypeVar("T")

#: The class's record in its folder.
RECORD: t.Final = "class.json"
#: Submissions remembered for each group, to answer a retry with the first
#: answer: far more than a retry can lag behind (a page tries again at once),
#: and few enough that a class of hundreds of groups fills them in seconds,
#: its memory flat from then on.
REMEMBERED: t.Final = 32
#: Blocks' places in their logs remembered: the newest, which projectors
#: keeping up read, and those a projector far behind is reading (placed as
#: the feed gives them to it, see :meth:`FileStore.entries`).
_PLACES: t.Final = 1 << 12
#: Threads that write and sync logs and the feed.
WRITERS: t.Final = 32
_DECODER: t.Final = msgspec.json.Decoder(store.ClassRecord)
#: The name of a group's log: its stream is the number.
_LOG: t.Final = re.compile(r"group-(\d{3,9})\.jsonl")


def log_name(group: int) -> str:
    """The file of a group's log: ``group-001.jsonl``, so that ``aces stats
    DIR/*.jsonl`` takes the groups in the order they joined.

    >>> log_name(7), log_name(1234)
    ('group-007.jsonl', 'group-1234.jsonl')
    """
    return f"group-{group:03d}.jsonl"


def digest(text: str) -> str:
    """A short digest of a submission's id or payload, as the feed keeps it."""
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()


class FileStore:
    """The store of one class, in ``folder`` (see the module): its only
    writer, since the folder is locked for it."""

    shared: t.ClassVar[bool] = False

    def __init__(self, folder: str) -> None:
        # Not "": as a path it is the current folder, which a class would fill.
        self.folder = Path(file_name(folder))
        self._record: store.ClassRecord | None = None
        self._revision = 0
        self._feed = Feed(str(self.folder / ".feed"))
        self._stack = contextlib.ExitStack()
        self._logs: dict[int, LogStore] = {}
        self._seq: dict[int, int] = {}
        #: Each log's size: where the next block goes.
        self._size: dict[int, int] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._submitted: dict[int, collections.OrderedDict[str, tuple[str, store.Appended]]] = {}
        #: Where blocks begin in their logs, by stream and first line.
        self._places: collections.OrderedDict[tuple[int, int], int] = collections.OrderedDict()
        self._pending: list[tuple[Line, asyncio.Future[None]]] = []
        self._writing = False
        self._durable = 0
        #: Positions past :attr:`_durable` whose block is synced to its log and
        #: the feed (or whose line is void), waiting for those before them.
        self._settled: set[int] = set()
        self._broken: AcesError | None = None
        self._changed: asyncio.Condition | None = None
        self._writers = concurrent.futures.ThreadPoolExecutor(WRITERS,
                                                              thread_name_prefix="aces-sync")

    # -- Opening ---------------------------------------------------------------

    async def open(self) -> store.Opened:
        """Lock the folder, read the class's record, open every group's log
        (cutting off a torn last line) and bring the feed level with them."""
        self._changed = asyncio.Condition()
        return await asyncio.to_thread(self._open)

    def _open(self) -> store.Opened:
        folder = self.folder
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise AcesError("cannot write {path}: {reason}", path=str(folder),
                            reason=os_reason(exc)) from None
        if not folder.is_dir():
            # Translators: an error of "aces class serve DIR". {path}: DIR.
            raise AcesError("{path} is not a folder: aces class serve keeps a class in a folder"
                            " of its own", path=str(folder))
        self._stack.enter_context(_folder_locked(folder))
        record = self._read_record()
        repaired: list[tuple[int, int]] = []
        for path in sorted(folder.iterdir()):
            found = _LOG.fullmatch(path.name)
            if found is None:
                continue
            stream = int(found.group(1))
            book = self._stack.enter_context(LogStore.open(str(path)))
            # Read to its end (a torn last line is the end), then cut the torn line off.
            with contextlib.suppress(TruncatedLogError):
                for _ in book.read().pairs():
                    pass
            torn = book.repair()
            if torn is not None:
                repaired.append((stream, torn))
            self._add(stream, book)
        if record is not None:
            kept = [group for group in record.groups if group.id in self._logs]
            if len(kept) != len(record.groups):
                # A join cut short before its group's log was begun: no one
                # was ever given its token.
                record.groups = kept
                self._write_record(record)
        self._level(self._feed.open())
        self._record = record
        logs = tuple((stream, book.path) for stream, book in self._logs.items())
        return store.Opened(record, repaired, logs)

    def _read_record(self) -> store.ClassRecord | None:
        path = self.folder / RECORD
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise AcesError("cannot read {path}: {reason}", path=str(path),
                            reason=os_reason(exc)) from None
        try:
            return _DECODER.decode(data)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            # Translators: an error of "aces class serve DIR" when the class's
            # record in DIR cannot be read. {path}: the file; {detail}: why.
            raise AcesError("{path} is not a class's record that aces can read: {detail}",
                            path=str(path), detail=str(exc)) from None

    def _add(self, stream: int, book: LogStore) -> None:
        self._logs[stream] = book
        # The store reads a log nobody read (shape and digests) and repairs it.
        book.repair()
        self._seq[stream] = book.seq
        self._size[stream] = book.size
        self._locks[stream] = asyncio.Lock()
        self._submitted[stream] = collections.OrderedDict()

    def _level(self, lines: list[Line]) -> None:
        """Know every block of the feed, and give a place in it to every block a
        log holds beyond it: blocks synced to their log just before a crash,
        never acknowledged and never shown."""
        last: dict[int, Line] = {}
        for line in lines:
            if line.stream in self._seq:
                last[line.stream] = line
        # A block's line is synced while its log is: a crash between the two
        # leaves the group's last line for a block its log does not hold
        # (or holds only the first lines of), never acknowledged.
        void = {line.position for stream, line in last.items()
                if line.first - 1 <= self._seq[stream] < line.last}
        # A group deleted with its log (as the privacy page says a group's
        # logs may be): its blocks are nowhere to be read, so their lines go
        # void too, and projectors pass their positions.
        void |= {line.position for line in lines
                 if line.stream != VOID and line.stream not in self._seq}
        if void:
            self._feed.void(sorted(void))
            self._feed.forget(sorted(void))
        covered: dict[int, int] = {}
        for line in lines:
            if line.stream == VOID or line.position in void:
                continue
            covered[line.stream] = line.last
            self._remember(line)
        missing = []
        for stream, seq in self._seq.items():
            done = covered.get(stream, 0)
            if seq < done:
                # Translators: an error of "aces class serve DIR": a group's log
                # is shorter than the class's record of it says. {log}: the
                # log's file; {lines}: the lines it holds; {expected}: the lines
                # the class knows it had.
                raise AcesError("{log} holds {lines} lines, but the class had {expected}:"
                                " lines were taken out of it after they were written",
                                log=self._logs[stream].path,
                                lines=seq, expected=done)
            if seq > done:
                missing.append(self._feed.entry(stream, done + 1, seq,
                                                _offset(self._logs[stream], done + 1), None))
        if missing:
            self._feed.write(missing)
            self._feed.keep(missing)
            for line in missing:
                self._remember(line)
        self._durable = self._feed.position

    def _remember(self, line: Line) -> None:
        self._place(line)
        if line.submission is not None and line.stream in self._submitted:
            assert line.payload is not None
            self._keep(line.stream, line.submission, line.payload,
                       store.Appended(line.position, line.first, line.last))

    def _place(self, line: Line) -> None:
        self._places[(line.stream, line.first)] = line.offset
        if len(self._places) > _PLACES:
            self._places.popitem(last=False)

    def _keep(self, stream: int, sid: str, payload: str, appended: store.Appended) -> None:
        known = self._submitted[stream]
        known[sid] = (payload, appended)
        known.move_to_end(sid)
        if len(known) > REMEMBERED:
            known.popitem(last=False)

    # -- The class's record ----------------------------------------------------

    async def save(self, record: store.ClassRecord) -> None:
        await asyncio.to_thread(self._write_record, record)
        self._record = record
        self._revision += 1
        if self._changed is not None:
            async with self._changed:
                self._changed.notify_all()

    async def update(self, change: Callable[[store.ClassRecord], None]) -> store.ClassRecord:
        """Apply ``change`` to a copy of the class's record, and keep it.

        :raises ~aces.errors.SaveError: if it cannot be written (the record
            stays as it was).
        """
        assert self._record is not None, "a class's record is saved before it is changed"
        changed = _copy(self._record)
        change(changed)
        await self.save(changed)
        return changed

    async def record(self) -> store.ClassRecord:
        assert self._record is not None, "a class's record is saved before it is read"
        return self._record

    @property
    def revision(self) -> int:
        return self._revision

    def _write_record(self, record: store.ClassRecord) -> None:
        path = self.folder / RECORD
        text = msgspec.json.format(msgspec.json.encode(record), indent=2).decode() + "\n"
        try:
            write_atomically(str(path), text)
            path.chmod(0o600)
            sync_folder(str(path))
        except OSError as exc:
            raise SaveError("cannot write {path}: {reason}", path=str(path),
                            reason=os_reason(exc)) from None

    # -- Streams ---------------------------------------------------------------

    async def create(self, stream: int, log: str) -> None:
        """Begin the log of a new group.

        :raises ~aces.errors.SaveError: for a file of that name in the folder.
        """
        path = self.folder / log
        if path.exists():
            # Translators: an error of "aces class serve DIR": a group's new
            # log would overwrite a file in DIR. {path}: the file.
            raise SaveError("{path} exists already, and a class never writes over a file;"
                            " move it away", path=str(path))
        book = await asyncio.to_thread(
            lambda: self._stack.enter_context(LogStore.open(str(path))))
        self._add(stream, book)

    @contextlib.asynccontextmanager
    async def reading(self, stream: int) -> AsyncIterator[Iterable[bytes]]:
        with self._logs[stream].handle() as handle:
            yield handle

    def seq(self, stream: int) -> int:
        return self._seq[stream]

    async def find(self, stream: int, submission: store.Submission) -> store.Appended | None:
        """Where ``submission`` was appended, if it was.

        :raises ~aces.classroom.store.ReusedSubmissionError: for its id with
            another payload.
        """
        return self._found(stream, submission)

    def _found(self, stream: int, submission: store.Submission) -> store.Appended | None:
        known = self._submitted[stream].get(digest(submission.id))
        if known is None:
            return None
        payload, appended = known
        if payload != digest(submission.digest):
            raise store.ReusedSubmissionError(submission.id)
        return appended._replace(again=True)

    async def append(self, stream: int, expected: int, events: Sequence[Event],
                     submission: store.Submission | None = None) -> store.Appended:
        """Append ``events`` after line ``expected``, durably (see the store's promises).

        :raises ~aces.classroom.store.StaleAppendError: for an ``expected`` that
            has passed; :raises ~aces.classroom.store.ReusedSubmissionError: for
            a submission's id with another payload.
        """
        async with self._locks[stream]:
            if submission is not None:
                found = self._found(stream, submission)
                if found is not None:
                    return found
            if self._broken is not None:
                raise self._broken
            if expected != self._seq[stream]:
                raise store.StaleAppendError(stream, self._seq[stream])
            if not events:
                return store.Appended(self._durable, expected + 1, expected)
            book = self._logs[stream]
            offset = self._size[stream]
            count = len(events)
            keys = None if submission is None else (digest(submission.id),
                                                    digest(submission.digest))
            line = self._feed.entry(stream, expected + 1, expected + count, offset, keys)
            # The block's line goes to the feed while the block goes to its log.
            committed = self._commit(line)
            try:
                # One write, synced; on failure nothing of the block is in the
                # log, and the store's chain stays where it was.
                self._size[stream] = await self._synced(_appended, book, events)
            except BaseException:
                await self._void(line, committed)
                raise
            self._seq[stream] = expected + count
            await committed
            self._remember(line)
            await self._settle(line.position)
            return store.Appended(line.position, line.first, line.last)

    async def _synced(self, write: Callable[..., T], *data: t.Any) -> T:
        """``write(*data)`` in a thread of the store's writers, waited for: what it gives."""
        return await asyncio.get_running_loop().run_in_executor(self._writers, write, *data)

    def _commit(self, line: Line) -> asyncio.Future[None]:
        """Sync ``line`` into the feed with every other line waiting (group
        commit): done once it is, in the order of the lines."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((line, done))
        if not self._writing:
            self._writing = True
            asyncio.get_running_loop().create_task(self._write_pending())
        return done

    async def _void(self, line: Line, committed: asyncio.Future[None]) -> None:
        """After the block of ``line`` failed to go to its log: its line in the
        feed made void, once written, so that projectors pass its position.

        No reader sees the line while it is rewritten: readers stop at the
        last settled position, and this one settles only once it is void."""
        try:
            await committed
        except SaveError:
            return  # The feed is broken: the class is served again to go on.
        try:
            await self._synced(self._feed.void, [line.position])
        except OSError as exc:
            # Served again, the class finds the line past its log, and voids it.
            self._broken = SaveError("cannot write {path}: {reason}", path=self._feed.path,
                                     reason=os_reason(exc))
            return
        self._feed.forget([line.position])
        await self._settle(line.position)

    async def _settle(self, position: int) -> None:
        """The block at ``position`` is in its log and the feed: shown once
        every block before it is too."""
        assert self._changed is not None
        settled = self._settled
        settled.add(position)
        durable = self._durable
        while durable + 1 in settled:
            durable += 1
            settled.remove(durable)
        if durable != self._durable:
            self._durable = durable
            async with self._changed:
                self._changed.notify_all()

    async def _write_pending(self) -> None:
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                lines = [line for line, _ in batch]
                try:
                    await self._synced(self._feed.write, lines)
                except OSError as exc:
                    # The blocks synced to their logs get their places in
                    # the feed when the class is served again.
                    self._broken = SaveError("cannot write {path}: {reason}",
                                             path=self._feed.path, reason=os_reason(exc))
                    for _, done in batch:
                        done.set_exception(self._broken)
                    continue
                self._feed.keep(lines)
                for _, done in batch:
                    done.set_result(None)
        finally:
            self._writing = False

    # -- The feed --------------------------------------------------------------

    @property
    def position(self) -> int:
        return self._durable

    async def latest(self) -> int:
        return self._durable

    async def entries(self, after: int, limit: int) -> list[store.FeedEntry]:
        """Up to ``limit`` blocks after ``after``, void lines passed: a run of
        them longer than ``limit`` (a deleted group's) must not look like the
        end of the feed to a reader."""
        durable = self._durable
        found: list[store.FeedEntry] = []
        while len(found) < limit and after < durable:
            count = min(limit, durable - after)
            # A projector keeping up reads lines kept in memory: no thread for them
            # (the threads are busy syncing logs, and a hop costs more than the read).
            lines = self._feed.kept_after(after, count)
            if lines is None:
                lines = await asyncio.to_thread(self._feed.after, after, count)
            if not lines:
                break
            for line in lines:
                if line.position > durable or len(found) == limit:
                    break
                after = line.position
                if line.stream != VOID:
                    # Placed again where a reader far behind has made them forgotten: it
                    # reads their lines next, without looking for them from the log's start.
                    self._place(line)
                    found.append(store.FeedEntry(line.position, line.stream, line.first,
                                                 line.last))
        return found

    async def blocks(self, after: int, limit: int) -> list[tuple[store.FeedEntry, bytes]]:
        # This process is the class's only writer: no one follows it, so the
        # lines are read one block at a time.
        return [(entry, b"".join(await self.lines(entry.stream, entry.first, entry.last)))
                for entry in await self.entries(after, limit)]

    async def lines(self, stream: int, first: int, last: int) -> list[bytes]:
        book = self._logs[stream]
        offset = self._places.get((stream, first))

        def read() -> list[bytes]:
            start = _offset(book, first) if offset is None else offset
            with book.handle() as handle:
                handle.seek(start)
                read = (handle.readline() for _ in range(last - first + 1))
                return [line for line in read if line]

        return await asyncio.to_thread(read)

    async def changed(self, after: int, revision: int | None = None) -> None:
        assert self._changed is not None
        async with self._changed:
            await self._changed.wait_for(
                lambda: self._durable > after or (revision is not None
                                                  and self._revision > revision))

    async def close(self) -> None:
        while self._writing:
            await asyncio.sleep(0.01)
        self._writers.shutdown()
        self._feed.close()
        self._stack.close()


def _appended(book: LogStore, events: Sequence[Event]) -> int:
    """Append ``events`` to ``book`` (see :meth:`LogStore.append`): the log's
    size after them, asked of the system in the writer's thread, where the
    loop's thread would give up the GIL for it and wait to have it back."""
    book.append(events)
    return book.size


def _copy(record: store.ClassRecord) -> store.ClassRecord:
    """A record that shares nothing with ``record``, to change."""
    return msgspec.json.decode(msgspec.json.encode(record), type=store.ClassRecord)


def _offset(book: LogStore, line: int) -> int:
    """The byte where line ``line`` of a log begins (its end, past the last line)."""
    place = 0
    with book.handle() as handle:
        for _ in range(line - 1):
            read = handle.readline()
            if not read:
                break
            place += len(read)
    return place


@contextlib.contextmanager
def _folder_locked(folder: Path) -> Iterator[None]:
    """Hold the class's folder for this server alone, on every system."""

    path = folder / ".class.lock"
    fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o600)
    try:
        lock_file(str(path), fd)
    except LogBusyError:
        os.close(fd)
        # Translators: an error of "aces class serve DIR" run twice on
        # one folder. {path}: DIR.
        raise AcesError("{path} is being served by another aces class serve; only one"
                        " may serve a class at a time", path=str(folder)) from None
    except BaseException:
        os.close(fd)
        raise
    try:
        yield
    finally:
        unlock_file(fd)
