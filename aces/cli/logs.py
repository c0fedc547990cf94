"""``aces verify`` and ``aces replay``: the commands that read a log."""

from __future__ import annotations

import sys
import typing as t

import click

from aces.cli._common import lang_option, open_log, reported, translations
from aces.errors import N_, AcesError, OptionError


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
                raise AcesError("{source} is empty: it holds no events", source=source)
        click.echo(tally.line(source, chosen, catalog))


@click.command()
@click.argument("log", metavar="LOG")
@lang_option
@click.option("--step", "stepwise", is_flag=True,
              help="Wait for Enter before each roll (for a class or a table).")
def replay(log: str, lang: str | None, stepwise: bool) -> None:
    """Narrate the games of a log, event by event.

    LOG may be '-' to read the log from standard input.
    """
    from aces.log import read
    from aces.narrate import Narrator
    from aces.walk import walk

    with reported(lang):
        chosen, catalog = translations(lang)
        if stepwise and log == "-":
            raise OptionError("--step reads Enter from standard input, so the log cannot come"
                              " from there too; give the log's file name")
        narrator = Narrator(catalog, chosen)
        out = sys.stdout
        prompt = catalog.gettext(N_("Press Enter for the next roll..."))
        with open_log(log) as (stream, source):
            seen = False
            for step in walk(read(stream, source), source):
                seen = True
                lines = narrator.narrate(step)
                if stepwise and narrator.is_roll(step) and not _pause(prompt, out):
                    stepwise = False
                out.writelines(f"{line}\n" for line in lines)
            if not seen:
                raise AcesError("{source} is empty: it holds no events", source=source)
            out.writelines(f"{line}\n" for line in narrator.finish())


def _pause(prompt: str, out: t.TextIO) -> bool:
    """Wait for Enter; ``False`` once standard input has nothing more to give."""
    out.flush()
    click.echo(prompt, err=True, nl=False)
    answer = sys.stdin.readline()
    click.echo("", err=True)
    return answer != ""
