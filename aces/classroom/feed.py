"""The class-wide feed of the file store: one fixed-width line a block.

A group's log says nothing of the other groups, and its format is
``aces record``'s, so the order in which the blocks of all the logs became
durable, which a projector's ``Last-Event-ID`` counts in, is kept beside
them, in the class's folder: ``.feed``, a line a block, each exactly
:data:`WIDTH` bytes::

    000000000042 000007 0000000013 0000000015 0000000000004817 5f0c... 9a1e...

the position, the group, the ``seq`` of the block's first and last lines,
the byte of the log where the block begins, and the digests of the
submission's id and payload (dashes for a block no submission asked for).
Position *n* is at byte ``(n - 1) * WIDTH``, so a resume from any position
reads only what follows it. A line is written while its block is written
to its log, each synced at the same time (one sync's wait, not two), and
the block is acknowledged once both are. So a crash can leave a torn last
line, which is cut off; blocks a log holds beyond the feed, which get
positions after the last; or a group's last line in the feed for a block
its log does not hold (a block whose write failed, too): such a line is
made *void* (:data:`VOID`, in its place), and its position holds no block.
None of these was acknowledged or shown. Positions are never reused and
never filled in later.

>>> import tempfile, os
>>> folder = tempfile.mkdtemp()
>>> feed = Feed(os.path.join(folder, ".feed"))
>>> feed.open()
[]
>>> feed.write([feed.entry(3, 1, 1, 0, None)])
>>> feed.close(); feed = Feed(os.path.join(folder, ".feed")); feed.open()
[Line(position=1, stream=3, first=1, last=1, offset=0, submission=None, payload=None)]
"""

from __future__ import annotations

import collections
import os
import typing as t

from aces.errors import AcesError

__all__ = ["RECENT", "VOID", "WIDTH", "Feed", "Line"]

_FORMAT: t.Final = b"%012d %06d %010d %010d %016d %s %s\n"
#: The bytes of one line of the feed.
WIDTH: t.Final = len(_FORMAT % (0, 0, 0, 0, 0, b"-" * 16, b"-" * 16))
_NONE: t.Final = b"-" * 16
#: Lines of the feed kept in memory, for projectors keeping up or resuming
#: from a recent position (ten seconds of a busy class); older ones are read
#: from the file.
RECENT: t.Final = 1 << 12
#: The stream of a void line: a position that holds no block.
VOID: t.Final = 0


class Line(t.NamedTuple):
    """One line of the feed."""

    position: int
    stream: int
    first: int
    last: int
    #: Where the block begins in its log.
    offset: int
    #: Digests of the submission's id and of its payload (hexadecimal), if
    #: a submission asked for the block.
    submission: str | None
    payload: str | None


class Feed:
    """The feed file of one class: opened once, appended to, read from anywhere."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._fd = -1
        #: The position of the last line written.
        self.position = 0
        self._recent: collections.deque[Line] = collections.deque(maxlen=RECENT)

    def open(self) -> list[Line]:
        """Open the file, cut off a torn last line, and give every line in it."""
        self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
        size = os.fstat(self._fd).st_size
        whole = size - size % WIDTH
        if whole != size:
            # A crash while a line was written: it was never synced, so its
            # block was never acknowledged.
            os.ftruncate(self._fd, whole)
            os.fsync(self._fd)
        lines: list[Line] = []
        with os.fdopen(os.dup(self._fd), "rb") as handle:
            handle.seek(0)
            while chunk := handle.read(WIDTH * 4096):
                for start in range(0, len(chunk), WIDTH):
                    lines.append(self._parse(chunk[start:start + WIDTH], len(lines) + 1))
        self.position = len(lines)
        self._recent.extend(lines)
        return lines

    def entry(self, stream: int, first: int, last: int, offset: int,
              submission: tuple[str, str] | None) -> Line:
        """The next line of the feed, for a block just made durable in its log;
        written by :meth:`write`."""
        self.position += 1
        sid, payload = (None, None) if submission is None else submission
        return Line(self.position, stream, first, last, offset, sid, payload)

    def write(self, lines: list[Line]) -> None:
        """Write lines given by :meth:`entry`, in order, and sync them; the
        caller then :meth:`keep` s them, in the thread that reads them.

        The writing may go on in a thread of its own: the lines kept in
        memory are not touched here (a thread adding to them while another
        reads them by index would shift the lines under the reader, once
        they are as many as are kept, and it would skip some).
        """
        data = b"".join(_FORMAT % (line.position, line.stream, line.first, line.last,
                                   line.offset, _hex(line.submission), _hex(line.payload))
                        for line in lines)
        view = memoryview(data)
        while view:
            view = view[os.write(self._fd, view):]
        os.fsync(self._fd)

    def void(self, positions: list[int]) -> None:
        """Make the lines at ``positions`` void, in their places, and sync them
        (in any thread); the caller then :meth:`forget` s them."""
        fd = os.open(self.path, os.O_WRONLY)
        try:
            for position in positions:
                # A descriptor of its own: one opened to append writes at the end.
                os.pwrite(fd, _FORMAT % (position, VOID, 0, 0, 0, _NONE, _NONE),
                          (position - 1) * WIDTH)
            os.fsync(fd)
        finally:
            os.close(fd)

    def forget(self, positions: list[int]) -> None:
        """The lines at ``positions``, made void, void in memory too (in the
        thread that reads them there)."""
        recent = self._recent
        for position in positions:
            index = position - recent[0].position if recent else -1
            if 0 <= index < len(recent):
                recent[index] = Line(position, VOID, 0, 0, 0, None, None)

    def keep(self, lines: list[Line]) -> None:
        """Keep lines just written in memory, for :meth:`kept_after`, in the
        thread that reads them there."""
        self._recent.extend(lines)

    def after(self, position: int, limit: int) -> list[Line]:
        """Up to ``limit`` lines after ``position``, read from the file (in any thread)."""
        count = min(limit, self.position - position)
        if count <= 0:
            return []
        data = os.pread(self._fd, count * WIDTH, position * WIDTH)
        return [self._parse(data[i * WIDTH:(i + 1) * WIDTH], position + i + 1)
                for i in range(len(data) // WIDTH)]

    def kept_after(self, position: int, limit: int) -> list[Line] | None:
        """Up to ``limit`` lines after ``position`` from those kept in memory;
        ``None`` where the file must be read (:meth:`after` reads it)."""
        recent = self._recent
        if limit <= 0:
            return []
        if recent and position + 1 >= recent[0].position:
            start = position + 1 - recent[0].position
            return [recent[i] for i in range(start, min(len(recent), start + limit))]
        return None

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def _parse(self, raw: bytes, position: int) -> Line:
        fields = raw.split()
        try:
            found, stream, first, last, offset = (int(value) for value in fields[:5])
            sid, payload = (None if value == _NONE else value.decode("ascii")
                            for value in fields[5:7])
        except (ValueError, UnicodeDecodeError):
            found = -1
        if found != position or len(fields) != 7 or not raw.endswith(b"\n"):
            # Translators: an error of "aces class serve": the file in the
            # class's folder that keeps the order of every group's rolls has
            # been changed by something else. {path}: the file; {position}:
            # the line.
            raise AcesError("{path} is damaged at line {position}: it keeps the order of the"
                            " class's rolls, and only aces writes it", path=self.path,
                            position=position)
        return Line(found, stream, first, last, offset, sid, payload)


def _hex(value: str | None) -> bytes:
    return _NONE if value is None else value.encode("ascii")
