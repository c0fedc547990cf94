"""Files the package makes, never written over, and why a file could not be used.

A new file (a log, a table, a plot) that exists already is refused in one
line, in words the caller chooses (a log says logs are never overwritten;
``aces stats`` says it never overwrites a file), and any other failure to
create it says why in words that can be translated (:func:`os_reason`).
"""

from __future__ import annotations

import errno
import os
import typing as t
from pathlib import Path

from aces.errors import N_, AcesError, OptionError

__all__ = ["LOG_EXISTS", "STATS_EXISTS", "cannot_write", "create", "os_reason"]

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


def os_reason(error: OSError) -> AcesError | str:
    """Why a file could not be used, in words that can be translated.

    The operating system words its reasons in English whatever the user's
    language; the common ones get a message of ours, the rare ones keep the
    system's words.

    >>> str(os_reason(FileNotFoundError(errno.ENOENT, "No such file or directory")))
    'no such file or folder'
    """
    message = _OS_REASONS.get(error.errno) if error.errno is not None else None
    if message is None:
        return error.strerror or str(error)
    return AcesError(message)


_OS_REASONS: t.Final = {
    errno.ENOENT: N_("no such file or folder"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("permission denied"),
    errno.EISDIR: N_("it is a folder, not a file"),
    errno.ENOTDIR: N_("a part of the path is not a folder"),
    errno.ENOSPC: N_("no space left on the disk"),
    errno.EROFS: N_("the disk is read-only"),
    errno.EEXIST: N_("the file already exists"),
}
