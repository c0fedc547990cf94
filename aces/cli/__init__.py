"""The command line: the only place that reads files, prints and exits.

Each command lives in its own module and is a thin edge around pure
functions; heavy modules are imported inside the commands, so ``aces
--help`` starts at once.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import sys
import typing as t
from pathlib import Path

import click

from aces.cli._common import (
    INTERRUPTED,
    collecting_seldom,
    lang_option,
    message,
    reader_gone,
    reported,
)
from aces.cli._help import Context
from aces.cli._language import AcesGroup, commands, version_option
from aces.cli.classroom import classroom
from aces.cli.examples import examples
from aces.cli.logs import replay, verify
from aces.cli.odds import odds
from aces.cli.play import play
from aces.cli.record import record
from aces.cli.simulate import simulate
from aces.cli.stats import stats
from aces.cli.walkthrough import walkthrough
from aces.errors import AcesError
from aces.files import os_reason
from aces.i18n import negotiate

__all__ = ["INTERRUPTED", "cli", "main"]


# invoke_without_command: bare ``aces`` prints its help and exits 0, as git
# and pip do; a help asked for is no error.
@click.group(cls=AcesGroup, invoke_without_command=True, subcommand_metavar="COMMAND [ARGS]...",
             context_settings={"help_option_names": ["-h", "--help"]})
@version_option
@lang_option
@click.pass_context
def cli(ctx: click.Context, lang: str | None) -> None:
    """Aces in the Pot and Aces: play, record, verify and narrate dice games."""
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())
        ctx.exit(0)
    if lang is not None:
        with reported(lang):
            negotiate(lang, os.environ)
        # ``aces --lang nb replay LOG``: the command speaks the group's language.
        ctx.default_map = {name: _defaults(command, lang)
                           for name, command in cli.commands.items()}


cli.add_command(play)
cli.add_command(record)
cli.add_command(replay)
cli.add_command(verify)
cli.add_command(odds)
cli.add_command(simulate)
cli.add_command(stats)
cli.add_command(walkthrough)
cli.add_command(examples)
cli.add_command(classroom)


def _defaults(command: click.Command, lang: str) -> dict[str, t.Any]:
    """``--lang`` for a command, and for each command of a group of them."""
    if isinstance(command, click.Group):
        return {name: _defaults(sub, lang) for name, sub in command.commands.items()}
    return {"lang": lang}


# Every command's help is laid out without breaking a word at a hyphen.
for command in commands(cli):
    command.context_class = Context


def main() -> None:
    """Entry point of the ``aces`` command: whatever happens, one line, never a traceback.

    Standard output is flushed here, not at exit, so that a write that
    fails (``aces --help > /dev/full``) is one line of ours.
    """
    _stand_in_streams()
    try:
        try:
            with collecting_seldom():
                cli(prog_name="aces")
        finally:
            sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (``aces replay log | head``): not an error.
        reader_gone()
    except KeyboardInterrupt:
        # As while the command starts (bin/aces.py): a line break, and the
        # status a shell gives an interrupted command.
        click.echo("", err=True)
        sys.exit(INTERRUPTED)
    except MemoryError:
        # Translators: an error: the computer has run out of memory.
        _fail(AcesError("there is not enough memory to go on"))
    except OSError as exc:
        _fail(AcesError("cannot write {path}: {reason}", path="<stdout>",
                        reason=os_reason(exc)))


def _stand_in_streams() -> None:
    """Stand-ins for the standard streams a shell closed (``<&-``, ``>&-``, ``2>&-``).

    Each closed descriptor is first taken by the null device, so that no
    file the command opens (a log to write, say) is given its number and
    then treated as a standard stream. Standard input stays ``None``, which
    the commands that read it refuse in one line (:func:`~aces.cli._common.stdin`);
    a write to standard output fails as writing to a closed file does, so
    a command with something to print says it cannot, and one that writes
    only files is not hindered; standard error, where nothing can be said,
    swallows what it is given, and the exit status alone tells.
    """
    for number in (0, 1, 2):
        try:
            os.fstat(number)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != number:
                os.dup2(null, number)
                os.close(null)
    if sys.stdout is None:
        sys.stdout = _ClosedOutput()
    if sys.stderr is None:
        sys.stderr = Path(os.devnull).open("w", encoding="utf-8")  # noqa: SIM115 - for the run


class _ClosedBytes(io.RawIOBase):
    """The bytes of a closed standard output: every write fails."""

    def writable(self) -> bool:
        return True

    def write(self, data: t.Any) -> int:
        raise OSError(errno.EBADF, os.strerror(errno.EBADF))


class _ClosedOutput(io.TextIOBase):
    """A closed standard output: every write fails, as it does to a closed file,
    and nothing is held back to fail again at exit."""

    encoding = "utf-8"
    errors = "strict"

    def __init__(self) -> None:
        super().__init__()
        self.buffer = _ClosedBytes()

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, os.strerror(errno.EBADF))

    def fileno(self) -> int:
        return 1


def _fail(error: AcesError) -> t.NoReturn:
    """End with ``error`` on one line, in the language asked for if one was."""
    lang = next((arg.partition("=")[2] or follows for arg, follows
                 in zip(sys.argv, [*sys.argv[1:], ""], strict=True)
                 if arg == "--lang" or arg.startswith("--lang=")), None)
    with contextlib.suppress(OSError, ValueError):
        # Nothing more to standard output: it may be what failed.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    click.echo(f"aces: {message(error, lang)}", err=True)
    sys.exit(1)
