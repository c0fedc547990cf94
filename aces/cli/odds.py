"""``aces odds``: exact chances of Aces in the Pot, for a lesson or a machine."""

from __future__ import annotations

import contextlib
import json
import sys
import typing as t

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
              help="Number of players (2 or more; 8 with 2 chips each is the largest"
                   " the exact solver takes).")
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
        with _progress(None if as_json else players, chips, catalog) as progress:
            answer = exact(players, chips, t.cast("pot.Finish", options["finish"]),
                           quantile, progress)
        text = json.dumps(as_dict(answer), indent=2) if as_json else report(answer, chosen,
                                                                           catalog)
        with writing(None):
            click.echo(text)


@contextlib.contextmanager
def _progress(players: int | None, chips: int, catalog: gettext.NullTranslations,
              ) -> Iterator[Callable[[float], None] | None]:
    """A progress bar on standard error while a big game is solved: on a
    terminal only, and never for --json (``players`` is ``None``), so that
    what a program reads is only the answer."""
    if players is None or not sys.stderr.isatty():
        yield None
        return
    from aces.exact import check_size

    if check_size(players, chips) < PROGRESS_FROM:
        yield None
        return
    # Translators: the label of the progress bar while the exact odds are worked out.
    label = catalog.gettext("Solving")
    with click.progressbar(length=_STEPS, file=sys.stderr, label=label) as bar:
        def advance(done: float) -> None:
            bar.update(min(_STEPS, round(done * _STEPS)) - bar.pos)

        yield advance
