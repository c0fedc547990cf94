"""``aces odds``: exact chances of Aces in the Pot, for a lesson or a machine."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import typing as t
from pathlib import Path

import click

from aces.cli._common import lang_option, reported, translations, writing

if t.TYPE_CHECKING:
    import gettext
    from collections.abc import Callable, Iterator


__all__ = ["PROGRESS_FROM", "odds"]

#: Games with at least this many states show a progress bar while they are
#: solved (on a terminal): a second or more of work.
PROGRESS_FROM: t.Final = 20_000
#: Steps of the progress bar.
_STEPS: t.Final = 1000


@click.command()
@click.option("--players", type=int, required=True, metavar="N",
              help="Number of players (2 or more). The exact solver takes games of up to"
                   " 25 million states, which need up to about 10 GB of memory: 10 players"
                   " with 2 chips each, or 14 with 1.")
@click.option("--chips", type=int, default=2, show_default=True,
              help="Chips each player starts with.")
@click.option("--finish", type=click.Choice(["last-chip", "last-holder"]), default="last-chip",
              show_default=True,
              help="When the finish starts: one chip left, or one holder left.")
@click.option("--quantile", type=float, default=0.99, show_default=True,
              help="Show the game length distribution up to this chance of being over.")
@click.option("--json", "as_json", is_flag=True, help="Write the answers as JSON.")
@lang_option
def odds(players: int, chips: int, finish: str, quantile: float, as_json: bool,
         lang: str | None) -> None:
    """Exact chances of Aces in the Pot, never sampled.

    One roll of two dice, what a roll costs, the finish, and for the whole
    game each seat's chance to win (seat 1 rolls first after the opening),
    the expected number of rolls and how the length of a game is spread.

    The keys of --json: game, players, options; roll and roll_cost, each
    exact fraction as text ("4/9") beside its value; try_success and
    finish_from_holder, the finish with one chip, from the holder on to the
    left; win_by_seat, a chance for each seat, the first entry for seat 1
    (who rolls first after the opening); expected_rolls and sd_rolls; length_cdf, whose k-th entry
    (counted from 1) is the chance that the game is over within k rolls, up
    to quantile, reached after rolls_at_quantile rolls; states, the size of
    the chain solved.
    """
    from aces.exact import exact
    from aces.reports.odds import as_dict, report
    from aces.rules import pot

    with reported(lang):
        chosen, catalog = translations(lang)
        options = pot.options({"finish": finish, "chips": chips})
        with _progress(None if as_json else players, chips, catalog, chosen) as progress:
            answer = exact(players, chips, t.cast("pot.Finish", options["finish"]),
                           quantile, progress)
        text = json.dumps(as_dict(answer), indent=2) if as_json else report(answer, chosen,
                                                                           catalog)
        with writing(None):
            click.echo(text)


@contextlib.contextmanager
def _progress(players: int | None, chips: int, catalog: gettext.NullTranslations,
              lang: str) -> Iterator[Callable[[float], None] | None]:
    """A progress bar on standard error while a big game is solved: on a
    terminal only, and never for --json (``players`` is ``None``), so that
    what a program reads is only the answer."""
    if players is None or not sys.stderr.isatty():
        yield None
        return
    from aces.exact import check_size, memory_needed
    from aces.numbers import integer

    states = check_size(players, chips)
    if states < PROGRESS_FROM:
        yield None
        return
    # Translators: the label of the progress bar while the exact odds are worked
    # out. {states}: how many states the game has; {memory}: about how much memory
    # the solve needs, such as "1.3 GB".
    label = catalog.gettext("Solving {states} states (needs about {memory})").format(
        states=integer(states, lang), memory=_bytes(memory_needed(players, states), lang))

    def in_use(_: object) -> str:
        used = _memory_in_use()
        # Translators: after the progress bar: the memory the solve holds now, "1.1 GB".
        return "" if used is None else catalog.gettext("{memory} in use").format(
            memory=_bytes(used, lang))

    with click.progressbar(length=_STEPS, file=sys.stderr, label=label,
                           item_show_func=in_use) as bar:
        def advance(done: float) -> None:
            bar.update(min(_STEPS, round(done * _STEPS)) - bar.pos, current_item=done)

        yield advance


def _bytes(count: int, lang: str) -> str:
    """A size in megabytes or gigabytes, as ``lang`` writes numbers: "200 MB", "1.3 GB".

    >>> _bytes(1_277_963_036, "en"), _bytes(200_067_696, "nb")
    ('1.3\xa0GB', '200\xa0MB')
    """
    from aces.numbers import decimal

    if count >= 10**9:
        return f"{decimal(count / 1e9, lang, 1)}\xa0GB"
    return f"{decimal(count / 1e6, lang, 0)}\xa0MB"


def _memory_in_use() -> int | None:
    """Bytes this process holds in memory now (its resident set), where the
    system tells (Linux); ``None`` elsewhere."""
    try:
        pages = int(Path("/proc/self/statm").read_text(encoding="ascii").split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE")
