"""New files, never written over: logs, tables and plots the package makes.

A file that exists is refused in one line, in words the caller chooses
(a log says logs are never overwritten; ``aces stats`` says it never
overwrites a file), and any other failure to create it says why in words
that can be translated. :func:`read_at` reads part of an open file the
same way on every system.
"""

from __future__ import annotations

import errno
import os
import typing as t
from pathlib import Path

from aces.errors import N_, OptionError, os_reason

__all__ = ["LOG_EXISTS", "STATS_EXISTS", "cannot_write", "create", "read_at"]

#: Why a log is not written: its file exists. {path}: the file.
LOG_EXISTS: t.Final = N_("{path} already exists; logs are never overwritten, choose a new name")
#: Why a table or a plot of ``aces stats`` is not written. {path}: the file.
STATS_EXISTS: t.Final = N_("{path} already exists; tables and plots are never overwritten,"
                           " choose a new name")


@t.overload
def create(path: str | os.PathLike[str], exists: str, *, text: t.Literal[False] = ...,
           ) -> t.BinaryIO: ...


@t.overload
def create(path: str | os.PathLike[str], exists: str, *, text: t.Literal[True]) -> t.TextIO: ...


def create(path: str | os.PathLike[str], exists: str, *, text: bool = False,
           ) -> t.BinaryIO | t.TextIO:
    """``path`` opened to write, as a new file: bytes, or with ``text`` UTF-8
    text with a byte-order mark (which spreadsheets read as UTF-8) and newlines
    as written.

    :raises aces.errors.OptionError: ``exists`` (a message with ``{path}``)
        when the file is there already, or why it cannot be created.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     with create(Path(folder) / "a.csv", STATS_EXISTS, text=True) as out:
    ...         _ = out.write("seat")
    ...     create(Path(folder) / "a.csv", STATS_EXISTS)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    aces.errors.OptionError: .../a.csv already exists; tables and plots are never ...
    """
    if Path(path).is_dir():
        # Creating a folder's name says "it exists", which misleads.
        raise cannot_write(path, IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR)))
    try:
        if text:
            return Path(path).open("x", encoding="utf-8-sig", newline="")
        return Path(path).open("xb")
    except FileExistsError:
        raise OptionError(exists, path=str(path)) from None
    except OSError as exc:
        raise cannot_write(path, exc) from None


def cannot_write(path: str | os.PathLike[str], error: OSError) -> OptionError:
    """The error of a file that could not be written, saying why."""
    return OptionError("cannot write {path}: {reason}", path=str(path), reason=os_reason(error))


def read_at(fd: int, count: int, offset: int) -> bytes:
    """Up to ``count`` bytes of the file open at ``fd``, from ``offset`` on.

    ``os.pread`` where there is one, which leaves the file's position alone;
    Windows has none, so there the position moves (a file opened to append
    writes at its end wherever the position is).

    >>> import tempfile
    >>> with tempfile.TemporaryFile() as out:
    ...     _ = out.write(b"one\\ntwo\\n"); out.flush()
    ...     read_at(out.fileno(), 3, 4)
    b'two'
    """
    if hasattr(os, "pread"):
        return os.pread(fd, count, offset)
    os.lseek(fd, offset, os.SEEK_SET)
    chunks = []
    while count > 0 and (chunk := os.read(fd, count)):
        chunks.append(chunk)
        count -= len(chunk)
    return b"".join(chunks)
