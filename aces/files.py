"""Files the package makes: never over what is not theirs, and whole or not at all.

Every file a command or a call writes (a log, a page, a table, a plot)
follows the same three rules, checked before any work is done:

- never over what the command reads (its own log, say);
- never over a game log, whatever is asked;
- never over any other existing file, unless the caller says it may
  (``--force``), or the file is a page the same command wrote before,
  recognised by the mark in its head.

A page, a table or a plot is then written to a temporary file beside its
target, flushed to the disk, and only then given its name: Ctrl-C, a full
disk or an error part-way leaves the target as it was (or absent), never
a file that looks complete and is not. A new file is given its name by a
hard link, which fails if a file of that name appeared meanwhile, so that
nothing is replaced that was not there when the check was made. Every
error names the target, not the temporary file.

A log is written as it is played (a game of a million rolls is never held
whole), so it is opened as a new file at once (:func:`create`); a log cut
short by Ctrl-C is one that ``aces verify`` names as such. A log written
roll by roll is the log store's (:mod:`aces.logstore`), which reads part of
an open file the same way on every system (:func:`read_at`).

Why a file could not be used is said in words that can be translated
(:func:`os_reason`), since the operating system words its reasons in English.
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
import typing as t
from pathlib import Path

from aces.errors import N_, AcesError, OneOf, OptionError, Term

if t.TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

__all__ = ["FORCE", "LOG_EXISTS", "Output", "Read", "cannot_write", "create", "file_name",
           "forced_alone", "identity", "is_log", "os_reason", "read_at", "target_name",
           "temporary_name"]

#: Why a log is not written: its file exists. {path}: the file.
LOG_EXISTS: t.Final = N_("{path} already exists; logs are never overwritten, choose a new name")
#: How the caller says that an existing file may be replaced.
FORCE: t.Final = Term("--force", "force=True")
#: The bytes of a file's start read to tell what it is.
_HEAD: t.Final = 4096
#: How much of the target's name a temporary file's name keeps: short enough
#: that the longest name a file system allows still fits once extended.
_KEPT: t.Final = 32

#: What a command reads: a path, or an open stream with the name it is known by.
Read = t.Union[str, "os.PathLike[str]", tuple[t.IO[t.Any], str]]


def file_name(path: str | os.PathLike[str]) -> str:
    """``path`` as a name to open, refusing an empty one (which the system
    would read as the current folder, and misname in every error).

    :raises aces.errors.OptionError: for an empty name.

    >>> file_name("game.jsonl")
    'game.jsonl'
    >>> file_name("")
    Traceback (most recent call last):
    aces.errors.OptionError: a file name cannot be empty
    """
    name = os.fspath(path)
    if not name:
        # Translators: an error of a command or a call given '' where a file's name goes.
        raise OptionError("a file name cannot be empty")
    return name


def target_name(path: str | os.PathLike[str]) -> str:
    """``path`` as the name of a file to write: not empty, and not a folder's
    (which the system would refuse in words that mislead, or not at all).

    :raises aces.errors.OptionError: for such a name.

    >>> target_name("/")
    Traceback (most recent call last):
    aces.errors.OptionError: cannot write /: it is a folder, not a file
    """
    name = file_name(path)
    if Path(name).is_dir() or not Path(name).name:
        raise _folder_error(name)
    return name


def cannot_write(path: str | os.PathLike[str], error: OSError) -> OptionError:
    """The error of a file that could not be written, saying why."""
    return OptionError("cannot write {path}: {reason}", path=os.fspath(path),
                       reason=os_reason(error))


def _folder_error(path: str | os.PathLike[str]) -> OptionError:
    return cannot_write(path, IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR)))


def create(path: str | os.PathLike[str], reads: Iterable[Read] = ()) -> t.BinaryIO:
    """``path`` opened to write a log, as a new file (see :class:`Output` for
    why it is not ``reads``).

    :raises aces.errors.OptionError: when the file is there already
        (:data:`LOG_EXISTS`), or why it cannot be created.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     with create(Path(folder) / "a.jsonl") as out:
    ...         _ = out.write(b"")
    ...     create(Path(folder) / "a.jsonl")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    aces.errors.OptionError: .../a.jsonl already exists; logs are never overwritten, ...
    """
    name = target_name(path)
    _not_read(name, reads)
    try:
        return Path(name).open("xb")
    except FileExistsError:
        raise OptionError(LOG_EXISTS, path=name) from None
    except OSError as exc:
        raise cannot_write(name, exc) from None


def is_log(path: str | os.PathLike[str]) -> bool:
    """Whether the file at ``path`` is a game log, by its first line: a JSON
    object that starts a game (a log being recorded, or cut short, included).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     log = Path(folder) / "game.jsonl"
    ...     _ = log.write_text('{"seq":1,"digest":"","type":"game_started"}\\n')
    ...     is_log(log), is_log(folder)
    (True, False)
    """
    try:
        with Path(path).open("rb") as stream:
            head = stream.read(_HEAD)
    except OSError:
        return False
    first = head.removeprefix(b"\xef\xbb\xbf").lstrip().partition(b"\n")[0]
    return first.startswith(b"{") and b'"game_started"' in first


def identity(read: Read) -> tuple[int, int] | None:
    """The file a command reads, by its device and inode: ``None`` for a
    stream with no file behind it, or a name that cannot be opened."""
    try:
        status = os.fstat(read[0].fileno()) if isinstance(read, tuple) else Path(read).stat()
    except (OSError, ValueError, AttributeError, TypeError):
        # A stream with no file behind it (a pipe has one, a BytesIO none).
        return None
    return status.st_dev, status.st_ino


def _not_read(path: str, reads: Iterable[Read]) -> None:
    """Refuse ``path`` if it is one of the files ``reads`` names."""
    try:
        target = Path(path).stat()
    except OSError:
        return
    for read in reads:
        if identity(read) == (target.st_dev, target.st_ino):
            # Translators: an error of a command asked to write its output over a
            # file it reads (aces replay game.jsonl --html game.jsonl). {path}: the file.
            raise OptionError("{path} is read by this command, so it cannot also be"
                              " written by it; choose another name", path=path)


class Output:
    """A file to make, checked when this is made and written whole at the end.

    ``force``: the caller allows an existing file to be replaced; ``mark``:
    bytes that the start of a file this same command wrote holds (a page's
    generator), so that such a file is replaced without asking; ``reads``:
    what the command reads, which is never written over. Whatever is
    asked, a game log is never replaced.

    :raises aces.errors.OptionError: for a target that may not be written,
        naming it and saying why.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     Output(Path(folder) / "t.csv").write("seat\\n")
    ...     Output(Path(folder) / "t.csv")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    aces.errors.OptionError: .../t.csv already exists; choose a new name, or add force=True ...
    """

    def __init__(self, path: str | os.PathLike[str], *, force: bool = False,
                 mark: bytes | None = None, reads: Iterable[Read] = ()) -> None:
        self.path = target_name(path)
        self.force = force
        self.mark = mark
        #: Whether an existing file is replaced; otherwise the file is new.
        self.replaces = self._check(list(reads))

    def _check(self, reads: list[Read]) -> bool:
        path = Path(self.path)
        _not_read(self.path, reads)
        if not path.exists() and not path.is_symlink():
            return False
        if is_log(path):
            # Translators: an error of a command asked to write a page, a table or a
            # plot over a game log: even --force does not allow it. {path}: the file.
            raise OptionError("{path} is a game log, and a log is never overwritten;"
                              " choose another name", path=self.path)
        if self.force or (self.mark is not None and self._marked()):
            return True
        raise _exists(self.path)

    def _marked(self) -> bool:
        assert self.mark is not None
        try:
            with Path(self.path).open("rb") as stream:
                return self.mark in stream.read(_HEAD)
        except OSError:
            return False

    @t.overload
    def open(self, *, text: t.Literal[False] = ...) -> t.ContextManager[t.BinaryIO]: ...

    @t.overload
    def open(self, *, text: t.Literal[True]) -> t.ContextManager[t.TextIO]: ...

    def open(self, *, text: bool = False) -> t.ContextManager[t.BinaryIO | t.TextIO]:
        """A stream to write the file's content to: bytes, or with ``text``
        UTF-8 text with a byte-order mark (which spreadsheets read as UTF-8)
        and newlines as written. The file gets its name when the ``with``
        block ends well, and never otherwise.

        :raises aces.errors.OptionError: for a file that cannot be written,
            naming it and saying why.
        """
        return self._writing(text)

    @contextlib.contextmanager
    def _writing(self, text: bool) -> Iterator[t.Any]:
        target = Path(self.path)
        try:
            handle, temporary = tempfile.mkstemp(prefix=temporary_name(target.name),
                                                 suffix=".tmp", dir=target.parent)
        except OSError as exc:
            raise cannot_write(self.path, exc) from None
        try:
            stream = (os.fdopen(handle, "w", encoding="utf-8-sig", newline="") if text
                      else os.fdopen(handle, "wb"))
            try:
                yield _Named(stream, self.path)
                try:
                    stream.flush()
                    os.fsync(stream.fileno())
                except OSError as exc:
                    raise cannot_write(self.path, exc) from None
            except BaseException:
                # What is still buffered would fail again as the file closes,
                # and hide the error that says why.
                with contextlib.suppress(OSError):
                    stream.close()
                raise
            stream.close()
            # mkstemp makes the file private; the file is as readable as any new one.
            mask = os.umask(0)
            os.umask(mask)
            Path(temporary).chmod(0o666 & ~mask)
            self._name(Path(temporary))
        finally:
            Path(temporary).unlink(missing_ok=True)

    def _name(self, temporary: Path) -> None:
        """Give the written file its name: over the old file, or as a new one."""
        try:
            if self.replaces:
                temporary.replace(self.path)
                return
            try:
                os.link(temporary, self.path)
            except FileExistsError:
                raise _exists(self.path) from None
            except OSError:
                # A file system without hard links (a FAT stick, some network
                # shares): the check made at the start stands.
                temporary.replace(self.path)
        except OSError as exc:
            raise cannot_write(self.path, exc) from None

    def write(self, content: str | bytes) -> None:
        """The whole file at once: text (UTF-8, newlines as given) or bytes."""
        data = content.encode() if isinstance(content, str) else content
        with self.open() as stream:
            stream.write(data)


def forced_alone(*outputs: Term) -> OptionError:
    """The error of :data:`FORCE` given without any of the ``outputs`` it is for."""
    # Translators: an error of a command given --force ({option}; force=True in
    # Python) without an option that writes a file ({output}: --html; or --csv
    # or --plot, joined by "or").
    return OptionError("{option} lets {output} replace an existing file, so it needs"
                       " {output}", option=FORCE, output=OneOf(outputs))


def _exists(path: str) -> OptionError:
    # Translators: an error of a command or a call that would replace an existing
    # file. {path}: the file; {option}: --force on the command line, force=True
    # in Python.
    return OptionError("{path} already exists; choose a new name, or add {option} to"
                       " replace it", path=path, option=FORCE)


class _Named:
    """A stream whose failed writes name the file they were for (the
    temporary file's name means nothing to the user)."""

    def __init__(self, stream: t.IO[t.Any], path: str) -> None:
        self._stream = stream
        self._path = path

    def write(self, data: t.Any) -> int:
        try:
            return self._stream.write(data)
        except OSError as exc:
            raise cannot_write(self._path, exc) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            raise cannot_write(self._path, exc) from None

    def __getattr__(self, name: str) -> t.Any:
        return getattr(self._stream, name)


def temporary_name(name: str) -> str:
    """The start of a temporary file's name beside a file called ``name``:
    hidden, and short whatever the name, so that it fits where ``name`` does.

    >>> temporary_name("game.html"), len(temporary_name("x" * 250))
    ('.game.html.', 34)
    """
    return f".{name[:_KEPT]}."


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
    # Translators: why a file cannot be written: the file system allows no file
    # this big (a memory stick's FAT, say).
    errno.EFBIG: N_("the file is too big for this disk"),
    # Translators: why a file cannot be written: the user's share of the disk (a
    # disk quota, as school networks set) is used up.
    errno.EDQUOT: N_("your share of the disk is used up"),
    errno.ENAMETOOLONG: N_("the name is too long"),
    # Translators: why standard output cannot be written: the shell closed it (">&-").
    errno.EBADF: N_("it is closed"),
}


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
