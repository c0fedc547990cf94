"""The log store: one game log on disk, held by one writer, every append durable.

``aces record``, the public API's ``save`` and the class server keep their
logs through :class:`LogStore`, so that what each acknowledges is on disk,
and only one of them writes a log at a time. It promises:

- **One writer.** The log is locked while the store is open: a second
  store on the same file, in this process or another, is refused with
  :class:`LogBusyError`. The lock is on the log itself (``flock`` on POSIX,
  so a tool that locks the log with ``flock`` holds it too) and on a hidden
  file beside it, ``.NAME.lock``, which keeps the *name* taken while an
  editor saves a new file over the log by rename; it is removed on close.
- **Durable appends, all or nothing.** :meth:`LogStore.append` writes one
  batch of events in one write, numbered and chained on from the last line
  (:class:`aces.log.LogWriter`), and syncs it to disk (and, for a new log,
  its folder) before it returns. Ctrl-C and termination wait until it is
  done. A write that fails (a full disk) is cut back off, so the log ends
  with the last batch saved whole, and :class:`LogWriteError` says why.
- **Never written blind.** A log removed or replaced under the store (saved
  over by rename, say) is not written to again: what the store had written
  is copied to ``NAME.rescued-N`` beside it, and :class:`LogSwappedError`
  names the copy.
- **Repaired, never rewritten.** A crash can leave the last line torn
  (the reader refuses it with :class:`~aces.errors.TruncatedLogError`);
  :meth:`LogStore.repair` cuts it off, or ends a whole last line that lacks
  its newline, and nothing else of a log is ever changed.

The interface, in the order a writer uses it::

    store = LogStore.open(path)   # or LogStore.open(path, new=True); a context manager too
    reader = store.read()         # aces.log.Reader from line 1, for the caller's checked walk
                                  # (store.handle(): the bytes themselves; store.size)
    ...                           # drive(reader, ...), catching TruncatedLogError at a torn end
    store.check()                 # an older schema is refused (append checks too)
    torn = store.repair()         # the torn last line cut off: its number, or None
    seq = store.append(events)    # one durable batch; the number of its last line
    store.close()                 # the lock let go; a new log left empty is removed

Reading and repairing are optional: :meth:`~LogStore.append` reads a log
nobody read (checking its shape and digests, not its rules) and repairs it
first. A store may stay open for as long as its writer runs, and appends
from several threads take turns.

Why not a library: ``filelock`` locks a separate file, and opens it
truncated, so it cannot lock the log itself; ``portalocker`` locks the
first 64 KiB on Windows, where locks are enforced, so a reader (``aces
verify`` on a log being recorded) would be refused. On Windows the store
locks one byte far past the end any log can reach, as SQLite does, which
excludes a second writer and leaves every byte of the log readable.
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import io
import os
import signal
import stat
import threading
import typing as t
from pathlib import Path

from aces.errors import N_, OptionError, SaveError, TruncatedLogError
from aces.events import SCHEMA
from aces.files import LOG_EXISTS, os_reason, read_at, target_name
from aces.log import EVENT_LIMIT, LINE_LIMIT, LogWriter, Reader, Tail, read, whole_length

if t.TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from types import TracebackType

    from aces.events import Event

try:
    import fcntl
except ImportError:  # Windows: its own locks are msvcrt's
    _FLOCK = False
    #: Typed loosely: its stubs hold nothing off Windows, where it is not used.
    _msvcrt: t.Any = importlib.import_module("msvcrt")
else:
    _FLOCK = True

__all__ = ["LogBusyError", "LogStore", "LogSwappedError", "LogWriteError", "lock_file",
           "sync_folder", "unlock_file"]

#: Opened as bytes on every system (Windows opens text by default).
_BINARY: t.Final = getattr(os, "O_BINARY", 0)
#: A lock beside the log is never a link followed somewhere else (POSIX).
_NOFOLLOW: t.Final = getattr(os, "O_NOFOLLOW", 0)
#: Where the Windows lock sits: past the most a reader takes from one log.
_FAR: t.Final = 2 * EVENT_LIMIT * LINE_LIMIT
#: Windows refuses to remove a file that is open, the lock beside the log too.
_OPEN_FILES_STAY: t.Final = os.name == "nt"
#: The signals held while a batch is written.
_HELD: t.Final = (signal.SIGINT, signal.SIGTERM)
#: Copies of a swapped log tried beside it before giving up.
_RESCUES: t.Final = 99
#: Why a log of an older schema is not added to.
# Translators: an error of "aces record" on a log written by an
# older aces. {path}: the log; {schema}: its schema version.
_OLDER: t.Final = N_("{path} is written in schema {schema} by an older aces, so nothing can be"
                     " added to it; record into a new file")


class LogBusyError(OptionError):
    """The log is held by another writer: another ``aces record``, or a class server."""


class LogWriteError(SaveError):
    """A batch that could not be written (a full disk, say); nothing of it is in the log,
    and every batch before it is."""

    def __init__(self, path: str, error: OSError) -> None:
        # Translators: an error of "aces record" when a roll cannot be
        # written. {log}: the log's file; {reason}: why, such as "no
        # space left on the disk".
        super().__init__(N_("cannot save this roll in {log}: {reason}; every roll before it"
                            " is saved"), log=path, reason=os_reason(error))
        #: What the system said.
        self.error = error


class LogSwappedError(SaveError):
    """The log was removed or replaced while the store held it: nothing more is
    written to it, and what it held is copied beside it (:attr:`rescue`) if it can be."""

    #: The copy of the lines the store's file held, or ``None`` if none could be made.
    rescue: str | None = None


class LogStore:
    """One log on disk, locked for this writer while the store is open.

    Make one with :meth:`open`; see the module's documentation for its use.
    """

    def __init__(self, path: str, fd: int, created: bool,
                 name_lock: tuple[str, int] | None) -> None:
        #: The log's path, as given.
        self.path = path
        #: Whether opening the store created the file.
        self.created = created
        self._fd: int | None = fd
        self._name_lock = name_lock
        #: The folder must be synced once a new file holds something.
        self._unsynced = created
        self._turn = threading.Lock()
        self._reader: Reader | None = None
        self._handle: t.BinaryIO | None = None
        #: Where appending carries on, once the log is ready for it.
        self._repaired = False
        self._seq = 0
        self._digest = b""
        self._broken: SaveError | None = None

    # -- Opening and closing -----------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, new: bool = False) -> LogStore:
        """The log at ``path``, locked for this store: created if need be, or
        with ``new`` created and refused if it exists.

        A store that created the file and wrote nothing removes it again on
        :meth:`close`, but only while it holds the lock, so a file is
        removed only when no other writer can be writing to it; and a store
        that locks a file just removed (its name now gone, or naming a new
        file) opens the name again rather than write where nobody will look.

        :raises LogBusyError: another writer holds the log.
        :raises aces.errors.OptionError: with ``new``, the file exists
            already; or it is not a regular file (a folder, say), or cannot
            be opened to write, saying why; or its name is empty.
        """
        # Not empty, not a folder: creating a folder's name says "it exists",
        # which misleads.
        path = target_name(path)
        if new and os.path.lexists(path):
            raise OptionError(LOG_EXISTS, path=path)
        name_lock = _lock_name(path)
        try:
            while True:
                fd, created = cls._open(path, new)
                try:
                    cls._lock(path, fd)
                    if _still_named(path, fd):
                        return cls(path, fd, created, name_lock)
                except BaseException:
                    os.close(fd)
                    raise
                os.close(fd)
        except BaseException:
            if name_lock is not None:
                _unlock_name(*name_lock)
            raise

    @staticmethod
    def _open(path: str, new: bool) -> tuple[int, bool]:
        """A descriptor of the file at ``path``, and whether this call created it."""
        while True:
            try:
                return os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_EXCL | _BINARY,
                               0o644), True
            except FileExistsError:
                if new:
                    raise OptionError(LOG_EXISTS, path=path) from None
            except OSError as exc:
                raise _cannot(path, exc) from None
            try:
                return os.open(path, os.O_RDWR | os.O_APPEND | _BINARY), False
            except FileNotFoundError as exc:
                if Path(path).is_symlink():
                    # A link to nowhere: nothing to open, and nothing to create.
                    raise _cannot(path, exc) from None
                # Removed in between (an empty log given up by another writer).
                continue
            except OSError as exc:
                raise _cannot(path, exc) from None

    @staticmethod
    def _lock(path: str, fd: int) -> None:
        """Lock the open file, or refuse: it is not a file, or another writer holds it."""
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            # Translators: an error of "aces record". {path}: what was
            # given as the log, such as a device or a pipe.
            raise OptionError("{path} is not a regular file, so it cannot be a log",
                              path=path)
        _exclusive(path, fd)

    def close(self) -> None:
        """Let the log go: another writer may take it. A new log left empty is removed.

        Closing twice does nothing.
        """
        with self._turn:
            fd, self._fd = self._fd, None
            if fd is None:
                return
            self._close_reading()
            try:
                # A log this store created and never wrote to is no log at all.
                if self.created and os.fstat(fd).st_size == 0:
                    with contextlib.suppress(OSError):
                        Path(self.path).unlink()
            finally:
                _release(fd)
                if self._name_lock is not None:
                    _unlock_name(*self._name_lock)

    def __enter__(self) -> LogStore:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._fd is None else "open"
        return f"<LogStore {self.path} {state}>"

    # -- Reading -------------------------------------------------------------------

    def read(self) -> Reader:
        """The log from its first line, to read while the lock stays held.

        A :class:`aces.log.Reader`: it checks the lines' shape, numbers and
        digests as it is iterated, and the caller's walk checks the rules
        (:func:`aces.walk.drive`). A last line cut short ends it with a
        :class:`~aces.errors.TruncatedLogError`; :meth:`repair` cuts it off.
        Before the first append, the store carries the log on from where
        this reader stops, so it must be read to its end. Each reader ends
        the one before; a read while another thread appends may end in the
        line being written.
        """
        handle = os.fdopen(os.dup(self._descriptor()), "rb")
        handle.seek(0)
        reader = read(handle, self.path)
        self._close_reading()
        self._handle = handle
        if not self._repaired:
            self._reader = reader
        return reader

    def handle(self) -> t.BinaryIO:
        """The log's bytes from its start, in a file of its own for the caller to
        close (the lock stays held): to read lines at places already known."""
        fd = os.dup(self._descriptor())
        if not hasattr(os, "pread"):
            # (Windows, which has no pread.)
            handle = os.fdopen(fd, "rb")
            handle.seek(0)
            return handle
        # A duplicate descriptor shares its place in the file with the store's
        # appends and with every other reader (a thread each): read at a place
        # of its own, or a seek here moves theirs.
        return t.cast("t.BinaryIO", io.BufferedReader(_OwnPlace(fd)))

    @property
    def size(self) -> int:
        """The log's length in bytes, as it is on disk now."""
        return os.fstat(self._descriptor()).st_size

    @property
    def tail(self) -> Tail:
        """Where the log ends: its last sound line's number and digest, and its schema.

        :raises RuntimeError: the log has been read but not to its end (a bug
            of the caller, who must not append to a log it could not walk).
        """
        if self._reader is None:
            # Nobody read it: read through to its end, a last line cut short
            # being the end (repair cuts it off).
            with contextlib.suppress(TruncatedLogError):
                for _ in self.read().pairs():
                    pass
        assert self._reader is not None
        tail = self._reader.tail
        if not tail.ended:
            raise RuntimeError(f"{self.path} was not read to its end, so it cannot be added to")
        return tail

    @property
    def seq(self) -> int:
        """The number of the log's last line (0 for an empty log)."""
        return self._seq if self._repaired else self.tail.seq

    def check(self) -> None:
        """Refuse a log this version cannot add to, before anything is written.

        :raises aces.errors.OptionError: the log is written in an older schema.
        """
        schema = self.tail.schema
        if schema is not None and schema != SCHEMA:
            raise OptionError(_OLDER, path=self.path, schema=schema)

    # -- Writing -------------------------------------------------------------------

    def repair(self) -> int | None:
        """Make the end of the log fit to add to, as a crash may have left it.

        A last line cut short holds no event and is cut off; a whole last
        line without its newline gets one. Returns the number of the line
        cut off, if one was; once repaired, ``None``.

        :raises aces.errors.OptionError: see :meth:`check`.
        :raises LogWriteError: the newline cannot be written.
        :raises LogSwappedError: see :meth:`append`.
        """
        with self._turn:
            return self._repair()

    def _repair(self) -> int | None:
        if self._repaired:
            return None
        self.check()
        fd = self._descriptor()
        tail = self.tail
        torn = tail.torn
        if torn is not None:
            length = whole_length(fd)
            with _signals_held():
                os.ftruncate(fd, length)
                os.fsync(fd)
        elif _last_byte(fd) not in (b"", b"\n"):
            # A whole last line without its newline: finish it before adding.
            self._write(b"\n")
        self._seq, self._digest = tail.seq, tail.digest
        self._repaired = True
        self._close_reading()
        return torn

    def append(self, events: Iterable[Event]) -> int:
        """Write ``events`` at the end of the log in one write, and sync them to disk.

        They are numbered and chained on from the last line. On failure
        nothing of them is in the log; on success all of them are, durably.
        No events, no write. Returns the number of the log's last line.

        :raises LogWriteError: the batch cannot be written (nothing of it is).
        :raises LogSwappedError: the log was removed or replaced under the
            store; nothing is written, now or later.
        :raises aces.errors.OptionError: the log is of an older schema.
        :raises aces.errors.LogError: a log the store read itself is not sound.
        """
        with self._turn:
            self._repair()
            writer = LogWriter(None, first_seq=self._seq + 1, previous=self._digest)
            data = writer.encode(events)
            if data:
                self._write(data)
                self._seq, self._digest = writer.written, writer.digest
            return self._seq

    def _write(self, data: bytes) -> None:
        """Write ``data`` at the end, all of it, and sync it to disk, or none of it.

        Ctrl-C waits until this is done, so that it cannot leave half a
        batch behind.
        """
        if self._broken is not None:
            raise self._broken
        fd = self._descriptor()
        with _signals_held():
            if not _still_named(self.path, fd):
                self._broken = self._swapped(fd)
                raise self._broken
            size = os.fstat(fd).st_size
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
                os.fsync(fd)
            except OSError as exc:
                # A full disk, say: take back what got written, so that the
                # log ends with the last batch saved whole.
                error = LogWriteError(self.path, exc)
                try:
                    os.ftruncate(fd, size)
                    os.fsync(fd)
                except OSError:
                    # Half a batch may stay: a later open repairs it, but
                    # nothing may be added after it now.
                    self._broken = error
                raise error from None
            if self._unsynced:
                # A new file is only safe once its folder says it exists.
                self._unsynced = False
                _sync_folder(self.path)

    def _swapped(self, fd: int) -> LogSwappedError:
        """The error for a log removed or replaced while held: what was
        written is copied to a file beside it, so that every event acknowledged
        can be found."""
        held = read_at(fd, os.fstat(fd).st_size, 0)
        lines = held.count(b"\n")
        reason: object = None
        for number in range(1, _RESCUES + 1):
            rescue = f"{self.path}.rescued-{number}"
            try:
                out = os.open(rescue, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _BINARY, 0o644)
            except FileExistsError:
                continue
            except OSError as exc:
                reason = os_reason(exc)
                break
            try:
                with os.fdopen(out, "wb") as copy:
                    copy.write(held)
                    copy.flush()
                    os.fsync(copy.fileno())
            except OSError as exc:
                reason = os_reason(exc)
                break
            # Translators: an error of "aces record": another program removed
            # or replaced the log while it was being recorded. {log}: the
            # log's file; {lines}: the lines it held, the last roll saved
            # among them; {rescue}: the new file they are copied to.
            error = LogSwappedError(N_(
                "{log} was removed or replaced by another program while the game was recorded,"
                " so nothing more is written to it; its {lines} lines, up to the last roll"
                " saved, are copied to {rescue}"), log=self.path, lines=lines, rescue=rescue)
            error.rescue = rescue
            return error
        if reason is None:
            reason = os_reason(FileExistsError(errno.EEXIST, "exists"))
        # Translators: an error of "aces record": another program removed or
        # replaced the log while it was being recorded, and the lines
        # recorded could not be copied elsewhere. {log}: the log's file;
        # {lines}: the lines it held; {reason}: why they could not be copied.
        return LogSwappedError(N_(
            "{log} was removed or replaced by another program while the game was recorded, so"
            " nothing more is written to it; its {lines} lines could not be copied beside it:"
            " {reason}"), log=self.path, lines=lines, reason=reason)

    # -- Helpers -------------------------------------------------------------------

    def _descriptor(self) -> int:
        if self._fd is None:
            raise ValueError(f"{self.path}: the log store is closed")
        return self._fd

    def _close_reading(self) -> None:
        handle, self._handle = self._handle, None
        if handle is not None:
            handle.close()


class _OwnPlace(io.RawIOBase):
    """A descriptor read with ``pread`` at a place kept here."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._at = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def readinto(self, buffer: t.Any) -> int:
        data = os.pread(self._fd, len(buffer), self._at)
        buffer[:len(data)] = data
        self._at += len(data)
        return len(data)

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        base = {os.SEEK_SET: 0, os.SEEK_CUR: self._at}.get(whence)
        self._at = max(0, offset + (os.fstat(self._fd).st_size if base is None else base))
        return self._at

    def tell(self) -> int:
        return self._at

    def close(self) -> None:
        if not self.closed:
            os.close(self._fd)
        super().close()


def _last_byte(fd: int) -> bytes:
    size = os.fstat(fd).st_size
    return read_at(fd, 1, size - 1) if size else b""


def _still_named(path: str, fd: int) -> bool:
    """Whether ``path`` still names the file open at ``fd`` (another writer may
    have removed the empty file it made between our opening and locking it)."""
    try:
        named = Path(path).stat()
    except FileNotFoundError:
        return False
    locked = os.fstat(fd)
    return (named.st_dev, named.st_ino) == (locked.st_dev, locked.st_ino)


def _cannot(path: str, exc: OSError) -> OptionError:
    return OptionError("cannot write {path}: {reason}", path=path, reason=os_reason(exc))


def _sync_folder(path: str) -> None:
    """Sync the folder that holds ``path``, so that the new name in it is durable.

    Windows cannot open a folder to sync it; its file system journals the
    name itself.
    """
    if os.name == "nt":
        return
    folder = os.open(Path(path).resolve().parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def sync_folder(path: str) -> None:
    """Sync the folder that holds ``path`` wherever the system can, as a new
    log's name is synced: for another file the store's user keeps beside its
    logs (the live class's record)."""
    _sync_folder(path)


# -- Locks -------------------------------------------------------------------------


def lock_file(path: str, fd: int) -> None:
    """Lock the open file ``fd`` for this process alone, as a log is locked:
    a POSIX lock where there is one, Windows' own where not (the live class
    locks its folder so).

    :raises LogBusyError: another process holds it (the error names ``path``
        as a log being recorded; a caller with other words catches it).
    :raises aces.errors.OptionError: the file cannot be locked at all.
    """
    _exclusive(path, fd)


def unlock_file(fd: int) -> None:
    """Let go of the lock :func:`lock_file` took, and close ``fd``."""
    _release(fd)


def _exclusive(path: str, fd: int) -> None:
    """Lock ``fd`` for this writer alone, or refuse: another one holds the log at ``path``.

    :raises LogBusyError: the lock is held.
    :raises aces.errors.OptionError: the file cannot be locked at all.
    """
    if _FLOCK:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise _busy(path) from None
        except OSError as exc:
            # A file system without locks, say.
            raise _cannot(path, exc) from None
        return
    os.lseek(fd, _FAR, os.SEEK_SET)
    try:
        _msvcrt.locking(fd, _msvcrt.LK_NBLCK, 1)
    except OSError as exc:
        if exc.errno in (errno.EACCES, errno.EDEADLK):
            raise _busy(path) from None
        raise _cannot(path, exc) from None


def _release(fd: int) -> None:
    """Let go of the lock on ``fd`` and close it."""
    try:
        if not _FLOCK:
            # Windows lets a lock go with its handle only some time after.
            os.lseek(fd, _FAR, os.SEEK_SET)
            with contextlib.suppress(OSError):
                _msvcrt.locking(fd, _msvcrt.LK_UNLCK, 1)
    finally:
        os.close(fd)


def _busy(path: str) -> LogBusyError:
    # Translators: an error of "aces record" run twice on one log.
    return LogBusyError(N_("{path} is being recorded by another aces record; only one may"
                           " write to a log at a time"), path=path)


def _lock_name(path: str) -> tuple[str, int] | None:
    """Take the lock of the log's name: the lock file beside it, and its descriptor.

    The log's own lock goes with the file, and a file saved over by rename
    (as editors and sync tools save) is a new file, unlocked: a second
    writer could start on it while the first still runs. So a writer also
    locks a hidden file beside the log, named after it
    (``.game.jsonl.lock``), which nothing else replaces. It is removed
    again while locked, and a lock taken on a file just removed is taken
    again on the name, as for the log itself. In a folder where it cannot
    be made, the log's own lock is all there is (``None``).

    :raises LogBusyError: another writer holds the name.
    """
    named = Path(path)
    lock = str(named.with_name(f".{named.name}.lock"))
    while True:
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT | _NOFOLLOW | _BINARY, 0o644)
        except OSError:
            return None
        try:
            _exclusive(path, fd)
            if _still_named(lock, fd):
                return lock, fd
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)


def _unlock_name(lock: str, fd: int) -> None:
    """Remove the lock beside the log and let it go.

    Removed while still locked, so that nobody locks a file about to go;
    Windows refuses to remove an open file, so there it goes once closed
    (and nobody else can have it open then, or it would stay).
    """
    if not _OPEN_FILES_STAY:
        with contextlib.suppress(OSError):
            Path(lock).unlink()
    _release(fd)
    if _OPEN_FILES_STAY:
        with contextlib.suppress(OSError):
            Path(lock).unlink()


# -- Signals -----------------------------------------------------------------------


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Hold Ctrl-C and termination back until the block is done.

    Blocked where the system can block them (POSIX); elsewhere (Windows,
    which has no ``pthread_sigmask``) caught while the block runs and
    raised again after it. Python runs its handlers in the main thread
    only, so a block in another thread is never cut short by one.
    """
    if hasattr(signal, "pthread_sigmask"):
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)
        return
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []

    def later(number: int, frame: object) -> None:
        caught.append(number)

    handlers = {number: signal.signal(number, later) for number in _HELD}
    try:
        yield
    finally:
        for number, handler in handlers.items():
            signal.signal(number, signal.SIG_DFL if handler is None else handler)
        for waited in caught:
            signal.raise_signal(waited)
