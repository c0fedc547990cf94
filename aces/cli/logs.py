"""``aces verify`` and ``aces replay``: the commands that read a log."""

from __future__ import annotations

import contextlib
import functools
import sys
import typing as t

import click

from aces.cli._common import (
    example_option,
    lang_option,
    open_log,
    page_output,
    reader_gone,
    reported,
    stdin_closed,
    translations,
    write_page,
    writing,
)
from aces.errors import AcesError, EmptyLogError, OptionError, Term
from aces.files import forced_alone, os_reason

if t.TYPE_CHECKING:
    import gettext
    from collections.abc import Iterator

__all__ = ["replay", "verify"]

#: The last words of the help of aces replay and aces walkthrough: how far a
#: session's tally remembers players (:mod:`aces.scores` keeps it bounded).
TALLY_EPILOG: t.Final = ("A session's tally remembers everyone at the table, and besides them"
                         " the thousand players seated most recently: a player away for"
                         " longer is forgotten, and comes back with nothing scored.")

#: The last words of the help of aces verify and aces replay: a big log is
#: read on two cores (:mod:`aces.split`).
VERIFY_EPILOG: t.Final = ("A log of 8 MiB or more, read from a file, is checked on two cores"
                          " where the machine has two and one is idle: the games of its later"
                          " half in a second process. The summary, or the error, is the same as"
                          " on one core.")
REPLAY_EPILOG: t.Final = ("A log of 8 MiB or more, read from a file, is narrated on two cores"
                          " where the machine has two and one is idle (not with --step or"
                          " --odds): the games of"
                          " its later half in a second"
                          " process, whose narration waits in a temporary file until the earlier"
                          " half's is written. What is written is the same as on one core.")


@click.command(epilog=VERIFY_EPILOG)
@click.argument("log", metavar="LOG")
@example_option()
@lang_option
def verify(log: str, example: bool, lang: str | None) -> None:
    """Check a log against the rules, every event of it.

    Prints one summary line when the log is sound; otherwise the first line
    that is not, and why. LOG may be '-' for standard input.
    """
    from aces import summary
    from aces.split import drive_log

    with reported(lang):
        chosen, catalog = translations(lang)
        with open_log(log, example) as (stream, source):
            # A game still being played is sound so far: the line says so.
            tally = drive_log(stream, source, summary.Tally(), allow_unfinished=True,
                              allow_unsettled=False)
            if not tally.events:
                # Translators: an error. {source}: the log's file name, or <stdin>.
                raise EmptyLogError("{source} is empty: it holds no events", source=source)
        with writing(None):
            click.echo(tally.line(source, chosen, catalog))


@click.command(epilog=f"{TALLY_EPILOG}\n\n{REPLAY_EPILOG}")
@click.argument("log", metavar="LOG")
@lang_option
@click.option("--step", "stepwise", is_flag=True,
              help="Wait for Enter before each roll (for a class or a table); q stops. With"
                   " the log on standard input, Enter is read from the terminal.")
@click.option("--odds", "odds", is_flag=True,
              help="After each roll, each player's chance from then on: to win the pot, or"
                   " in the five-dice game to lose.")
@click.option("--html", "page", metavar="FILE", default=None,
              help="Write the games as one offline web page instead: the table, the narration"
                   " in every language, each player's chance at every roll; a log of several"
                   " games offers them to pick from. A page this command wrote before is"
                   " replaced; any other file only with --force, and a log never. '-' writes"
                   " the page to standard output.")
@click.option("--force", is_flag=True,
              help="With --html: replace the file even if it is not a page of aces replay.")
@click.option("--game", "number", type=click.IntRange(min=1), default=None, metavar="N",
              help="With --html: write only this game of the log (from 1).")
@example_option()
def replay(log: str, lang: str | None, stepwise: bool, odds: bool, page: str | None,
           force: bool, number: int | None, example: bool) -> None:
    """Narrate the games of a log, event by event.

    Every roll and what it moves, the standings as they change, and how
    each game ends; for a log of several games, the tally so far (pots won
    in Aces in the Pot, games lost in Aces). LOG may be '-' to read the log
    from standard input.

    At a table of more than twelve players, a standings line names only the
    players whose chips (or dice) changed since the line before; the whole
    table is shown when the finish begins.
    """
    from aces.cli._printer import Printer
    from aces.narrate import Narrator
    from aces.narrate.chances import ChanceNarrator
    from aces.split import drive_log

    if page is not None or number is not None or force:
        _page(log, example, lang, page, number, stepwise, force)
        return
    with reported(lang), contextlib.ExitStack() as held:
        chosen, catalog = translations(lang)
        pause = None
        if stepwise:
            keys = held.enter_context(_keys(log))
            # Translators: the prompt of "aces replay --step", on standard error.
            # The words are the ones that end the replay early (q and quit
            # are understood in every language).
            prompt = catalog.gettext("Press Enter for the next roll, or q to stop...")
            pause = functools.partial(_pause, prompt, keys, _stop_words(catalog))
        narrator = (ChanceNarrator if odds else Narrator)(catalog, chosen)
        printer = Printer(narrator, sys.stdout, pause)
        with open_log(log, example) as (stream, source):
            try:
                try:
                    seen = drive_log(stream, source, printer, allow_unfinished=True,
                                     allow_unsettled=False, writer=printer)
                finally:
                    # What was told goes out before an error goes to standard error.
                    printer.flush()
            except _Stopped:
                return
            except BrokenPipeError:
                reader_gone()
            except OSError as exc:
                # Translators: an error of "aces replay": standard output
                # cannot be written. {reason}: the system's reason.
                raise AcesError("cannot write the narration: {reason}",
                                reason=os_reason(exc)) from None
            if not seen:
                # Translators: an error. {source}: the log's file name, or <stdin>.
                raise EmptyLogError("{source} is empty: it holds no events", source=source)


def _page(log: str, example: bool, lang: str | None, page: str | None, number: int | None,
          stepwise: bool, force: bool) -> None:
    """``aces replay --html``: the page of a log (or of one of its games), written
    whole or not at all, never over a file that is not a page of its own unless
    forced, and never over a log."""
    from aces.log import read
    from aces.page.html import render
    from aces.page.replay import PageCollector
    from aces.walk import drive

    with reported(lang):
        chosen, _ = translations(lang)
        if page is None:
            if force:
                raise forced_alone(Term("--html"))
            # Translators: an error of "aces replay"; keep the options as they are.
            raise OptionError("--game chooses the game of a page: use it with --html FILE")
        if stepwise:
            # Translators: an error of "aces replay"; keep the options as they are.
            raise OptionError("--step and --html cannot go together: a page has its own"
                              " controls")
        with open_log(log, example) as (stream, source):
            output = page_output(page, "replay", force, [(stream, source)])
            data = drive(read(stream, source), source, PageCollector(number, source, chosen),
                         allow_unfinished=True, allow_unsettled=False)
        write_page(output, render(data))


class _Stopped(Exception):  # noqa: N818 - a request to stop, not an error
    """The reader of a --step replay asked to stop."""


def _stop_words(catalog: gettext.NullTranslations) -> frozenset[str]:
    """What ends a --step replay: q, quit and avslutt, and the language's own word."""
    # Translators: the word typed at a --step replay to stop it, as at the
    # table ("command" context); q, quit and avslutt are understood too.
    own = catalog.pgettext("command", "quit")
    return frozenset({"q", "quit", "avslutt", own.strip().lower()})


@contextlib.contextmanager
def _keys(log: str) -> Iterator[t.TextIO]:
    """Where --step reads Enter from: standard input, or the terminal itself
    (/dev/tty) when standard input brings the log."""
    if log != "-":
        if sys.stdin is None:
            raise stdin_closed()
        yield sys.stdin
        return
    try:
        terminal = open("/dev/tty", encoding="utf-8", errors="replace")  # noqa: PTH123, SIM115
    except OSError:
        # Translators: an error of "aces replay --step -" run where there is no
        # terminal to press Enter at (a script, a scheduled job). The option
        # and the key name (Enter) stay as they are.
        raise OptionError("--step waits for Enter at a terminal, and there is none here:"
                          " the log comes from standard input, so give its file name or"
                          " leave out --step") from None
    with terminal:
        yield terminal


def _pause(prompt: str, keys: t.TextIO, stop: frozenset[str]) -> bool:
    """Wait for Enter; ``False`` once there is nothing more to read.

    On a terminal the prompt is erased once answered, so that what is
    projected is the story alone. A stop word ends the replay.
    """
    click.echo(prompt, err=True, nl=False)
    answer = keys.readline()
    if sys.stderr.isatty():
        # The answer's Enter, echoed by the terminal, moved down a line: go
        # back up to the prompt's line and clear it.
        up = "\x1b[1A" if keys.isatty() and answer.endswith("\n") else ""
        click.echo(f"{up}\r\x1b[2K", err=True, nl=False)
    else:
        click.echo("", err=True)
    if answer.strip().lower() in stop:
        raise _Stopped
    return answer != ""
