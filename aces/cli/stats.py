"""``aces stats``: a class's logs pooled and held against the exact odds."""

from __future__ import annotations

import contextlib
import json
import sys
import typing as t
from pathlib import Path

import click

from aces.cli._common import (
    EXAMPLES_HELP,
    example_option,
    lang_option,
    loaded,
    log_path,
    message,
    reported,
    stdin,
    translations,
    writing,
)
from aces.errors import AcesError, OptionError, Plural, Term, visible
from aces.files import forced_alone

if t.TYPE_CHECKING:
    import gettext
    from collections.abc import Iterator

    from aces.experiment.pool import Source

__all__ = ["stats"]

# Translators: the last line of "aces stats" when damaged logs were left out.
_LEFT_OUT: t.Final = Plural("{count} log was left out; the others were pooled",
                            "{count} logs were left out; the others were pooled", by="count")
# Translators: the last line of "aces stats" when no log given could be pooled
# (none could be read, or every one is damaged).
_ALL_LEFT_OUT: t.Final = Plural("{count} log was left out; there was nothing to pool",
                                "{count} logs were left out; there was nothing to pool",
                                by="count")


@click.command()
@click.argument("logs", nargs=-1, required=True, metavar="LOG...")
@click.option("--json", "as_json", is_flag=True, help="Write the numbers as JSON.")
@click.option("--csv", "csv_path", metavar="FILE", default=None,
              help="Also write a table with one row per game to this new CSV file.")
@click.option("--rolls", is_flag=True,
              help="With --csv: one row per roll instead (log, game, roll, player, seat,"
                   " stage, dice, chips or dice held after).")
@click.option("--by-log", is_flag=True,
              help="With --csv: one row per log and seat instead (log, game, players,"
                   " options, seat, games, wins or losses, share, its 95% interval and the"
                   " exact chance).")
@click.option("--decimal-comma", is_flag=True,
              help="With --csv: semicolons between the columns and a decimal comma, as Excel"
                   " opens a file as it is with Norwegian settings (LibreOffice and Google"
                   " Sheets read it too). Without it, commas and decimal points, as GeoGebra"
                   " and CODAP read a file.")
@click.option("--plot", "plot_path", metavar="FILE", default=None,
              help="Also draw observed against exact into this new .svg or .png file.")
@click.option("--force", is_flag=True,
              help="Let --csv and --plot replace a file that exists (never a log, nor one of"
                   " the logs read).")
@example_option(EXAMPLES_HELP)
@lang_option
def stats(logs: tuple[str, ...], as_json: bool, csv_path: str | None, rolls: bool,
          by_log: bool, decimal_comma: bool, plot_path: str | None, force: bool, example: bool,
          lang: str | None) -> None:
    """Pool the logs of a class and compare them with the exact odds.

    Games are pooled by their rules and table size; games with different
    rules are reported apart, never mixed. For each set of rules: wins by
    seat (losses in the five-dice game), the length of a game, the normal
    rolls that moved nothing, the tries that succeeded and the rolls again,
    each with a 95% interval, the exact value and a chi-square test, and
    each log's result, with its 95% intervals, beside the pooled one. LOG
    may be '-' for standard input.

    A damaged log is named with its line and left out; the others are still
    pooled, and the exit status is 1. A log given twice (or a copy of it) is
    pooled once, and a log whose last game is still being played gives its
    finished games; the report says so. --csv and --plot write a file whole
    or not at all, and never over one that exists unless --force. The keys
    of --json follow aces simulate: win_by_seat (loss_by_seat in five-dice)
    with _ci, expected_rolls with expected_rolls_ci, exact and exact_inside,
    and tests with each chi-square test.
    """
    from aces.reports.export import as_dict
    from aces.reports.plot import check_path, plot
    from aces.reports.stats import pool_logs, report

    with reported(lang), contextlib.ExitStack() as held:
        chosen, catalog = translations(lang)
        # Options that need others are refused by pool_logs, before a log is read.
        if logs.count("-") > 1 and not example:
            raise OptionError("standard input ('-') can be read only once")
        for path, option in ((csv_path, "--csv"), (plot_path, "--plot")):
            if path == "-":
                # Translators: an error of "aces stats". {option}: --csv or --plot.
                raise OptionError("{option} writes a file, and '-' would be standard output,"
                                  " which carries the report; give a file name",
                                  option=Term(option))
        if force and csv_path is None and plot_path is None:
            raise forced_alone(Term("--csv"), Term("--plot"))
        sources: list[Source] = []
        for name in logs:
            if example:
                # An example is named by its file's name, not its place in the package.
                path, shown = log_path(name, example)
                sources.append((held.enter_context(Path(path).open("rb")), shown))
            else:
                sources.append((stdin(), "<stdin>") if name == "-" else name)
        if plot_path is not None:
            check_path(plot_path, force=force, reads=sources)
        loaded()
        with _progress(len(sources), catalog) as progress:
            pooled = pool_logs(sources, csv=csv_path, rolls=rolls, by_log=by_log,
                               decimal_comma=decimal_comma, force=force and csv_path is not None,
                               lang=chosen, progress=progress)
        for log in pooled.left_out:
            assert log.error is not None
            # The message of a log left out, as every error is shown; a file's name
            # may hold anything, so the whole line is escaped for the terminal.
            click.echo("aces: " + visible(message(log.error, lang)), err=True)
        text = (json.dumps(as_dict(pooled), indent=2, ensure_ascii=False) if as_json
                else report(pooled, chosen, catalog))
        with writing(None):
            click.echo(text)
        if plot_path is not None:
            plot(pooled, check_path(plot_path, force=force,
                                    reads=[log.source for log in pooled.logs]), chosen, catalog)
        left = len(pooled.left_out)
        if left:
            raise AcesError(_ALL_LEFT_OUT if left == len(sources) else _LEFT_OUT, count=left)


class _Progress:
    def __init__(self, total: int, label: str) -> None:
        self.total = total
        self.label = label
        self.shown = False

    def __call__(self, done: int) -> None:
        click.echo("\r" + self.label.format(done=done, total=self.total), err=True, nl=False)
        self.shown = True


class _Quiet:
    def __call__(self, done: int) -> None:
        pass


def _progress(total: int, catalog: gettext.NullTranslations) -> t.ContextManager[
        t.Callable[[int], None]]:
    @contextlib.contextmanager
    def shown() -> Iterator[t.Callable[[int], None]]:
        if total < 2 or not sys.stderr.isatty():
            yield _Quiet()
            return
        # Translators: the progress of "aces stats" on a terminal, on standard error.
        progress = _Progress(total, catalog.gettext("{done} of {total} logs read"))
        try:
            yield progress
        finally:
            if progress.shown:
                click.echo("\r\033[K", err=True, nl=False)

    return shown()
