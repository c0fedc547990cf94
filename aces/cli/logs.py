"""``aces verify`` and ``aces replay``: the commands that read a log."""

from __future__ import annotations

import sys
import typing as t

import click

from aces.cli._common import (
    lang_option,
    open_log,
    reader_gone,
    reported,
    translations,
    writing,
)
from aces.errors import AcesError, EmptyLogError, OptionError, os_reason

if t.TYPE_CHECKING:
    from collections.abc import Iterable

    from aces.narrate import Narrator
    from aces.walk import Step


@click.command()
@click.argument("log", metavar="LOG")
@lang_option
def verify(log: str, lang: str | None) -> None:
    """Check a log against the rules, every event of it.

    Prints one summary line when the log is sound; otherwise the first line
    that is not, and why. LOG may be '-' for standard input.
    """
    from aces import summary
    from aces.log import read
    from aces.walk import walk

    with reported(lang):
        chosen, catalog = translations(lang)
        with open_log(log) as (stream, source):
            tally = summary.Tally()
            for step in walk(read(stream, source), source):
                tally.add(step)
            if not tally.events:
                # Translators: an error. {source}: the log's file name, or <stdin>.
                raise EmptyLogError("{source} is empty: it holds no events", source=source)
        with writing(None):
            click.echo(tally.line(source, chosen, catalog))


@click.command()
@click.argument("log", metavar="LOG")
@lang_option
@click.option("--step", "stepwise", is_flag=True,
              help="Wait for Enter before each roll (for a class or a table).")
@click.option("--odds", "odds", is_flag=True,
              help="After each roll, each player's chance from then on: to win the pot, or"
                   " in the five-dice game to lose.")
@click.option("--html", "page", metavar="FILE", default=None,
              help="Write the game as one offline web page instead: the table, the narration"
                   " in every language, each player's chance at every roll.")
@click.option("--game", "number", type=click.IntRange(min=1), default=None, metavar="N",
              help="With --html: which game of a log of several to write (from 1).")
def replay(log: str, lang: str | None, stepwise: bool, odds: bool, page: str | None,
           number: int | None) -> None:
    """Narrate the games of a log, event by event.

    Every roll and what it moves, the standings as they change, and how
    each game ends; for a log of several games, the tally so far (pots won
    in Aces in the Pot, games lost in Aces). LOG may be '-' to read the log
    from standard input.
    """
    from aces.log import read
    from aces.narrate import Narrator
    from aces.walk import walk

    if page is not None or number is not None:
        _page(log, lang, page, number, stepwise)
        return
    with reported(lang):
        chosen, catalog = translations(lang)
        if stepwise and log == "-":
            # Translators: an error of "aces replay --step -"; the option and
            # the key name (Enter) stay as they are.
            raise OptionError("--step reads Enter from standard input, so the log cannot come"
                              " from there too; give the log's file name")
        narrator = Narrator(catalog, chosen)
        # Translators: the prompt of "aces replay --step", on standard error.
        prompt = catalog.gettext("Press Enter for the next roll...")
        with open_log(log) as (stream, source):
            steps = walk(read(stream, source), source)
            try:
                seen = _narrate(steps, narrator, sys.stdout, prompt if stepwise else None,
                                odds)
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


def _page(log: str, lang: str | None, page: str | None, number: int | None,
          stepwise: bool) -> None:
    """``aces replay --html``: the page of one game, written whole or not at all."""
    from aces.log import read
    from aces.page.html import render, write_atomically
    from aces.page.replay import collect
    from aces.walk import walk

    with reported(lang):
        chosen, _ = translations(lang)
        if page is None:
            # Translators: an error of "aces replay"; keep the options as they are.
            raise OptionError("--game chooses the game of a page: use it with --html FILE")
        if stepwise:
            # Translators: an error of "aces replay"; keep the options as they are.
            raise OptionError("--step and --html cannot go together: a page has its own"
                              " controls")
        with open_log(log) as (stream, source):
            steps = walk(read(stream, source), source)
            data = collect(steps, source, number, chosen)
        text = render(data)
        try:
            write_atomically(page, text)
        except OSError as exc:
            # Translators: an error of "aces replay --html". {file}: the page's
            # file name; {reason}: the system's reason.
            raise AcesError("cannot write {file}: {reason}", file=page,
                            reason=os_reason(exc)) from None


#: Lines gathered before each write: big enough that writing costs little.
_BATCH: t.Final = 4096


def _narrate(steps: Iterable[Step], narrator: Narrator, out: t.TextIO,
             prompt: str | None, odds: bool = False) -> bool:
    """Write the story of ``steps`` to ``out``; ``False`` if there were none.

    Lines are written in batches, and whatever was told is written out
    before an error in the log goes on its way to standard error. With
    ``odds``, each settled roll is followed by every player's chance.
    """
    from aces.narrate.chances import ChanceTeller

    lines: list[str] = []
    seen = False
    teller = ChanceTeller() if odds else None

    def chances() -> None:
        assert teller is not None
        narrator.settle(lines)
        said = teller.line(narrator.voice)
        if said is not None:
            lines.append(said)

    try:
        for step in steps:
            seen = True
            if teller is not None:
                if teller.due(step):
                    chances()
                teller.take(step)
            if prompt is not None and narrator.is_roll(step):
                narrator.settle(lines)
                _write(lines, out)
                out.flush()
                if not _pause(prompt):
                    prompt = None
            narrator.narrate(step, lines)
            if len(lines) >= _BATCH:
                _write(lines, out)
        if seen:
            if teller is not None:
                chances()
            narrator.finish(lines)
    finally:
        _write(lines, out)
        out.flush()
    return seen


def _write(lines: list[str], out: t.TextIO) -> None:
    if lines:
        lines.append("")
        text = "\n".join(lines)
        lines.clear()
        out.write(text)


def _pause(prompt: str) -> bool:
    """Wait for Enter; ``False`` once standard input has nothing more to give."""
    click.echo(prompt, err=True, nl=False)
    answer = sys.stdin.readline()
    click.echo("", err=True)
    return answer != ""
