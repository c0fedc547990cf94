"""What every command shares: languages, errors as one line, files.

Errors the user can cause arrive as :class:`~aces.errors.AcesError` and
leave as one line on standard error with a non-zero exit status, in the
chosen language.
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
import typing as t
from pathlib import Path

import click

from aces import i18n
from aces.collector import SELDOM
from aces.errors import N_, AcesError, OptionError
from aces.files import Output, create, file_name, os_reason

if t.TYPE_CHECKING:
    import gettext
    from collections.abc import Callable, Iterator, Sequence

    from aces.files import Read

F = t.TypeVar("F", bound="Callable[..., t.Any]")

#: The status of a command stopped by Ctrl-C, as a shell gives it (128 + SIGINT).
INTERRUPTED: t.Final = 130

# Translators: in the help, what --lang takes: a language's code ("--lang LANG").
# Capitals are the custom for these placeholders.
LANG_METAVAR: t.Final = N_("LANG")
#: ``{languages}``: the languages offered, filled in when the help is shown.
LANG_HELP: t.Final = ("Language of the output, one of: {languages} (default: from the locale,"
                      " else en).")


def lang_option(function: F) -> F:
    """The ``--lang`` option, the same on every command."""
    return click.option("--lang", default=None, metavar=LANG_METAVAR, help=LANG_HELP)(function)


class Failure(click.ClickException):
    """An :class:`AcesError` on its way out: one line, no traceback."""

    def __init__(self, line: str, exit_code: int) -> None:
        super().__init__(line)
        self.exit_code = exit_code  # type: ignore[misc]

    def show(self, file: t.IO[t.Any] | None = None) -> None:
        click.echo(f"aces: {self.message}", file=file or sys.stderr)


def translations(lang: str | None) -> tuple[str, gettext.NullTranslations]:
    """The negotiated language and its catalog."""

    chosen = i18n.negotiate(lang, os.environ)
    return chosen, i18n.translations(chosen)


@contextlib.contextmanager
def reported(lang: str | None) -> Iterator[None]:
    """Turn an :class:`AcesError` into a one-line message in the user's language."""
    try:
        yield
    except AcesError as exc:
        raise Failure(message(exc, lang), exc.exit_code) from None


def message(error: AcesError, lang: str | None) -> str:
    """An error as one line in the user's language, its numbers and lists written that way."""

    try:
        chosen = i18n.negotiate(lang, os.environ)
    except AcesError:
        return error.render()
    return error.spoken(chosen)


def source_name(handle: t.IO[t.Any]) -> str:
    """How to name an open file in a message."""
    name = getattr(handle, "name", "-")
    return "<stdin>" if name in ("-", "<stdin>") else str(name)


@contextlib.contextmanager
def open_output(path: str | None, reads: Sequence[Read] = ()) -> Iterator[t.BinaryIO]:
    """A new file to write a log to, or standard output; never overwrites, and
    never what the command ``reads``."""
    if path is None or path == "-":
        yield sys.stdout.buffer
        sys.stdout.buffer.flush()
        return

    with create(path, reads) as handle:
        yield handle


def page_output(path: str, kind: str, force: bool, reads: Sequence[Read]) -> Output | None:
    """Where ``aces replay --html`` or ``aces simulate --html`` (``kind``) writes
    its page, checked before the work: a file (see :class:`aces.files.Output`;
    a page of the same ``kind`` is replaced), or ``None`` for standard output."""
    if path == "-":
        return None
    from aces.page.html import mark

    return Output(path, force=force, mark=mark(kind), reads=reads)


def write_page(output: Output | None, text: str) -> None:
    """A page written whole to its file, or to standard output."""
    if output is not None:
        output.write(text)
        return
    with writing(None):
        sys.stdout.write(text)


class _Collector:
    """Whether the command collects seldom (:func:`collecting_seldom`)."""

    seldom = False


@contextlib.contextmanager
def collecting_seldom() -> Iterator[None]:
    """Keep Python's cycle collector, while a command runs as a process of its
    own (:func:`aces.cli.main`), from scanning again and again what start-up
    made and what a long command keeps.

    ``aces verify`` of a session of 20,000 games spent a tenth of its time
    in the collector, ``aces replay`` more: the walk's memos of places and
    the narration's phrasebooks live for the whole run, and with Python's
    threshold of 700 new objects each young collection moved them on, until
    full collections scanned every module loaded (click, Babel, the
    package) with them. What is loaded is frozen (:func:`gc.freeze`), here
    and again once a command has loaded its own (:func:`loaded`), and never
    scanned again; a young generation of :data:`~aces.collector.SELDOM` objects is
    scanned a few dozen times in such a run. Cycles are still collected: a
    command's memory stays what it was. The collector is Python's again
    afterwards, for a caller that goes on in the same process (a test).
    """
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(*SELDOM)
    _Collector.seldom = True
    try:
        yield
    finally:
        _Collector.seldom = False
        gc.set_threshold(*thresholds)
        gc.unfreeze()


def loaded() -> None:
    """A command has loaded what it works with (its modules, its catalog):
    where it collects seldom (:func:`collecting_seldom`), that is frozen too."""
    if _Collector.seldom:
        gc.freeze()


@contextlib.contextmanager
def writing(path: str | None) -> Iterator[None]:
    """Turn a failed write (a full disk, say) into one line naming where it went.

    ``path`` is the file written, or ``None`` for standard output. A closed
    pipe is not an error: it goes on to :func:`aces.cli.main`, which ends
    quietly.
    """
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise AcesError("cannot write {path}: {reason}",
                        path="<stdout>" if path in (None, "-") else path,
                        reason=os_reason(exc)) from None


@contextlib.contextmanager
def open_log(path: str, example: bool = False) -> Iterator[tuple[t.BinaryIO, str]]:
    """A log to read, from a file or ``-`` for standard input, with its name;
    with ``example``, ``path`` is the name of an example (see :func:`log_path`).

    What the command loaded before it reads the log is frozen (:func:`loaded`)."""
    loaded()
    if path == "-" and not example:
        yield stdin(), "<stdin>"
        return

    path, shown = log_path(path, example)
    try:
        handle = Path(file_name(path)).open("rb")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise OptionError("cannot read {path}: {reason}", path=path,
                          reason=os_reason(exc)) from None
    with handle:
        yield handle, shown


#: ``--example``: a log's name is an example's (:mod:`aces.examples`), on
#: every command that reads logs.
EXAMPLE_HELP: t.Final = ("LOG is the name of an example that comes with aces, not a file"
                         " (aces examples lists them).")
EXAMPLES_HELP: t.Final = ("Every LOG is the name of an example that comes with aces, not a"
                          " file (aces examples lists them).")

def example_option(help: str = EXAMPLE_HELP) -> Callable[[F], F]:
    """The ``--example`` flag: the logs named are examples that come with aces."""
    return click.option("--example", "example", is_flag=True, help=help)


def log_path(name: str, example: bool) -> tuple[str, str]:
    """Where the log ``name`` is, and how a message names it: the file as given,
    or with ``example`` the example of that name, named by its file name.

    :raises ~aces.errors.OptionError: for a name that is no example's.
    """
    if not example:
        return name, name
    from aces.examples import example as found

    path = found(name)
    return str(path), path.name


def stdin() -> t.BinaryIO:
    """Standard input, to read a log or dice from.

    :raises aces.errors.OptionError: where there is none (the shell closed it, ``<&-``).
    """
    if sys.stdin is None:
        raise stdin_closed()
    return sys.stdin.buffer


def stdin_closed() -> OptionError:
    """The error of a command that reads standard input where it is closed."""
    # Translators: an error of a command told to read standard input ('-', or the
    # rolls of aces record) where the shell closed it ("<&-").
    return OptionError("standard input is closed, so there is nothing to read from it")


def reader_gone() -> t.NoReturn:
    """The reader closed the pipe (``aces play | head``): stop quietly, status 0.

    Click would turn the broken pipe into exit status 1. Standard output is
    pointed at the null device first, as the Python documentation advises,
    so that the final flush of what is still buffered finds no pipe to break
    and prints no traceback.
    """
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    sys.exit(0)
