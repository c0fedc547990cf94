"""A big log read on two cores, with the output and errors of one walk.

``aces verify`` and ``aces replay`` walk a log of at least
:data:`SPLIT_FROM` bytes, read from a file on a machine of two cores or
more, in two parts where a second core is idle. The log is cut before the first line past about its
middle that begins a game (:func:`aces.log.seam`): games are independent once
begun, and each line carries its own digest and its predecessor's. A
forked process walks the later part, from what the earlier part's starts,
ends and exclusions of games say the walk and its visitor carry there
(:func:`aces.log.milestones`, :meth:`aces.walk.Visitor.passed`), while this
process walks the earlier part as it would walk the whole.

Where the two meet, this process compares what its walk carries at the
seam (the games begun and taken out, its visitor's
:meth:`~aces.walk.Visitor.carried`, the line's number and digest) with
what the later part was walked from. The same, and the later part's result
is taken as it is, its output (written meanwhile to a temporary file)
copied after the earlier part's; anything else (a game unfinished there, a
roll taken back before it, a fault anywhere in the later part, a process
that could not be forked), and this process walks on through the later
part itself. So what is printed, and every error, are those of one walk
byte for byte: the second process only ever saves time. Memory stays
bounded as for one walk: each process reads its part a chunk at a time.
"""

from __future__ import annotations

import contextlib
import io
import os
import pickle
import shutil
import signal
import stat
import sys
import tempfile
import threading
import typing as t

from aces.events import GameExcluded, GameStarted
from aces.log import lines_at, milestones, read, resume, seam
from aces.walk import Seam, Visitor, drive

__all__ = ["SHARE", "SPLIT_FROM", "Writer", "drive_log"]

#: The smallest log read in two parts, in bytes (some 80,000 events): a
#: smaller one takes a few tenths of a second alone.
SPLIT_FROM = 8 << 20

#: Where the log is cut, as a share of its bytes: the later part's process
#: also reads the earlier part's starts and ends of games (a tenth of its
#: time, the earlier part's process none), so its part is the smaller.
SHARE: t.Final = 0.54

ResultT = t.TypeVar("ResultT")


class Writer(t.Protocol):
    """A visitor's output as the walk goes (the printer of ``aces replay``):
    the text stream it writes to, and how it writes out what it holds."""

    out: t.TextIO

    def flush(self) -> None:
        """Write out whatever is told and not yet written."""


class _Taken(Exception):  # noqa: N818 - the later part's result, not an error
    """The later part's result, taken where the two parts meet."""

    def __init__(self, result: object) -> None:
        super().__init__()
        self.result = result


def drive_log(stream: t.BinaryIO, source: str, visitor: Visitor[ResultT], *,
              allow_unfinished: bool = False, allow_unsettled: bool | None = None,
              writer: Writer | None = None) -> ResultT:
    """:func:`aces.walk.drive` of the log read from ``stream``, in two parts on
    two cores where it is big enough (see above); ``writer`` is where the
    visitor writes as it goes, if it does.

    :raises ~aces.errors.AcesError: as :func:`aces.walk.drive` raises it.
    """
    flags = allow_unfinished, allow_unsettled
    cut = _plan(stream, visitor)
    if cut is None:
        return drive(read(stream, source), source, visitor, allow_unfinished=allow_unfinished,
                     allow_unsettled=allow_unsettled)
    offset, number, previous = cut
    fd = stream.fileno()
    with contextlib.ExitStack() as held:
        try:
            spill = None if writer is None else held.enter_context(tempfile.TemporaryFile())
        except OSError:  # nowhere to hold the later part's output: one process
            spill = later = None
        else:
            later = _fork(lambda: _walk_later(fd, source, visitor, offset, number, previous,
                                              spill, writer, flags))
        if later is None:
            return drive(read(stream, source), source, visitor,
                         allow_unfinished=allow_unfinished, allow_unsettled=allow_unsettled)
        held.callback(later.close)
        reader = read(stream, source)

        def meet(here: Seam | None) -> None:
            outcome = later.outcome()
            if outcome is None or here is None:
                return
            start, carried, result = outcome
            if (here == start and reader.tail.stopped == (number, previous, offset)
                    and visitor.carried() == carried):
                raise _Taken(result)

        try:
            return drive(reader, source, visitor, allow_unfinished=allow_unfinished,
                         allow_unsettled=allow_unsettled, meet=(number + 1, meet))
        except _Taken as taken:
            if writer is not None and spill is not None:
                _copy(spill, writer)
            return t.cast("ResultT", taken.result)


def _plan(stream: t.BinaryIO, visitor: Visitor[t.Any]) -> tuple[int, int, bytes] | None:
    """Where to cut the log of ``stream`` in two, or ``None`` to walk it whole:
    a log too small, not a file read from its start, a visitor that cannot
    be walked in parts, a machine of one core, or no core idle, or without
    ``fork``, a process of threads."""
    if (not hasattr(os, "fork") or not _spare_core() or not _alone()
            or visitor.carried() is None):
        return None
    try:
        fd = stream.fileno()
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode) or status.st_size < SPLIT_FROM or stream.tell():
            return None
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return None
    return seam(fd, status.st_size, SHARE)


def _alone() -> bool:
    """Whether this process runs one thread: a process of several is never
    forked, since a lock another thread holds would stay held in the copy."""
    return threading.active_count() == 1


def _spare_core() -> bool:
    """Whether a second core is free for the later part, as ``make -l``
    judges it: the machine's load over the last minute (this process
    included) is below the count of cores this process may run on. On two
    cores at a load of eight, the two parts took some 25 % longer by the
    wall clock than the log walked alone (the second process only takes CPU
    time from the first, and each has its own start); at a load of two,
    ``aces verify`` of the 20,000-game session took 2.1-2.4 s against
    3.1-4.7 s alone."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    if not cores or cores < 2:
        return False
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        return True
    return load < cores


def _walk_later(fd: int, source: str, visitor: Visitor[t.Any], offset: int, number: int,
                previous: bytes, spill: t.BinaryIO | None, writer: Writer | None,
                flags: tuple[bool, bool | None]) -> bytes:
    """In the forked process: walk the lines from ``offset`` on (after the line
    ``number`` of digest ``previous``), from what the lines before say, and
    give what it was walked from and its result, pickled."""
    games = 0
    excluded: set[int] = set()
    for event in milestones(fd, offset):
        visitor.passed(event)
        if type(event) is GameStarted:
            games += 1
        elif type(event) is GameExcluded:
            excluded.add(event.game)
    start = Seam(number + 1, games, frozenset(excluded))
    carried = visitor.carried()
    if writer is not None and spill is not None:
        out = writer.out
        writer.out = io.TextIOWrapper(spill, encoding=getattr(out, "encoding", None) or "utf-8",
                                      errors=getattr(out, "errors", None) or "strict")
    reader = resume(lines_at(fd, offset), source, number, previous)
    result = drive(reader, source, visitor, allow_unfinished=flags[0], allow_unsettled=flags[1],
                   start=start)
    if writer is not None:
        writer.flush()
        writer.out.flush()
    return pickle.dumps((start, carried, result))


def _copy(spill: t.BinaryIO, writer: Writer) -> None:
    """Write out what the earlier part told and not yet written, then the
    later part's output."""
    writer.flush()
    out = writer.out
    out.flush()
    spill.seek(0)
    buffer = getattr(out, "buffer", None)
    if buffer is not None:
        shutil.copyfileobj(spill, buffer, 1 << 20)
        buffer.flush()
        return
    encoding = getattr(out, "encoding", None) or "utf-8"
    text = io.TextIOWrapper(spill, encoding=encoding, newline="")
    shutil.copyfileobj(text, out, 1 << 20)
    text.detach()
    out.flush()


class _Later:
    """The forked process that walks the later part, and what it gives."""

    def __init__(self, pid: int, pipe: int) -> None:
        self.pid = pid
        self._pipe: int | None = pipe
        self._done = False

    def outcome(self) -> tuple[Seam, t.Hashable, t.Any] | None:
        """What the later part was walked from, and its result, once it is
        done; ``None`` if it could not be walked to its end."""
        assert self._pipe is not None, "a later part gives its outcome once"
        with os.fdopen(self._pipe, "rb") as pipe:
            self._pipe = None
            data = pipe.read()
        self._reap()
        try:
            return t.cast("tuple[Seam, t.Hashable, t.Any]", pickle.loads(data)) if data else None
        except Exception:  # any outcome not read whole is none
            return None

    def close(self) -> None:
        """Stop the process if it still runs (the earlier part ended first)."""
        if self._pipe is not None:
            os.close(self._pipe)
            self._pipe = None
        if not self._done:
            with contextlib.suppress(OSError):
                os.kill(self.pid, signal.SIGKILL)
            self._reap()

    def _reap(self) -> None:
        if not self._done:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(self.pid, 0)
            self._done = True


def _fork(work: t.Callable[[], bytes]) -> _Later | None:
    """Run ``work`` in a forked process, which gives its bytes down a pipe
    and nothing at all if it fails; ``None`` if no process can be forked."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    try:
        read_end, write_end = os.pipe()
    except OSError:
        return None
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return None
    if pid:
        os.close(write_end)
        return _Later(pid, read_end)
    # The forked process: whatever happens, it says nothing and ends here.
    status = 0
    try:
        os.close(read_end)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        data = work()
        with os.fdopen(write_end, "wb") as pipe:
            pipe.write(data)
    except BaseException:  # a later part that fails gives nothing
        status = 1
    finally:
        os._exit(status)
