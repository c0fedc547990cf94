"""``aces simulate``: many games played fast, with confidence intervals."""

from __future__ import annotations

import contextlib
import json
import sys
import typing as t

import click

from aces.cli._common import lang_option, page_output, reported, translations, write_page, writing
from aces.cli._games import GAME_HELP, GameChoice, GameCommand, header_options
from aces.errors import OptionError, Term
from aces.files import forced_alone
from aces.games import game_named, registered, registration

if t.TYPE_CHECKING:
    import gettext
    from collections.abc import Callable, Iterator

    from aces.cli._games import Given

__all__ = ["PROGRESS_FROM", "simulate"]

#: Runs of at least this many games show a progress bar (on a terminal).
PROGRESS_FROM: t.Final = 200_000


@click.command(cls=GameCommand)
@click.option("--players", type=int, required=True, metavar="N",
              help="Number of players, 2 to 100 (five-dice: 3 to 100).")
@click.option("--games", type=int, default=100_000, show_default=True,
              help="How many games to play.")
@click.option("--seed", type=int, default=None,
              help="Seed for the dice; the same seed gives the same results, on any"
                   " number of cores (a long run uses them all).")
@click.option("--game", "game_name", type=GameChoice(), default="pot",
              show_default=True, help=GAME_HELP)
@click.option("--exact/--no-exact", "with_exact", default=None,
              help="Show the exact answers beside the estimates (default: when quick).")
@click.option("--json", "as_json", is_flag=True, help="Write the results as JSON.")
@click.option("--html", "page", metavar="FILE", default=None,
              help="Write instead an offline web page where a class runs the simulation in"
                   " the browser, beside the exact values. A page this command wrote before"
                   " is replaced; any other file only with --force, and a log never. '-'"
                   " writes the page to standard output.")
@click.option("--force", is_flag=True,
              help="With --html: replace the file even if it is not a page of aces simulate.")
@lang_option
def simulate(players: int, games: int, seed: int | None, game_name: str,
             with_exact: bool | None, as_json: bool, page: str | None, force: bool,
             lang: str | None, game_options: Given) -> None:
    """Play many games at once and estimate each seat's chance to win.

    Seats are counted from the player who rolls first after the opening, as
    in aces odds. Each share of wins comes with a 95% confidence interval,
    and so does the mean number of rolls; where the exact answer is known,
    it stands beside the estimate, with whether it lies inside the interval.

    For five-dice (Aces) the shares are of losses: a game has one loser,
    whoever sends the last die to the centre. Its rolls are those after the
    opening, rolls again included (a missed turn is not a roll), and the
    report adds the mean number of rolls in a turn. Games of Aces up to five
    players with five dice each have an exact answer: the length of a game,
    and up to four players with five dice each the chances by seat too.

    The keys of --json: game, players, options, games, seed; win_by_seat
    (pot) or loss_by_seat (five-dice), a share for each seat, the first
    entry for seat 1 (who rolls first after the opening), and
    win_by_seat_ci or loss_by_seat_ci, a [low, high] interval for each;
    expected_rolls, expected_rolls_ci and sd_rolls for the game's length;
    rolls_per_turn (five-dice only); confidence (0.95); exact, the exact
    answers under the same keys, or null (the shares by seat null where only
    the length is worked out); exact_inside, whether each exact value lies
    inside its interval, or null.
    """
    from aces.reports.simulation import as_dict, report
    from aces.simulation import check_games, check_seed, run

    if page is not None:
        _page(page, players, game_name, game_options, lang, force)
        return
    with reported(lang):
        chosen, catalog = translations(lang)
        if force:
            raise forced_alone(Term("--html"))
        check_games(games)
        if seed is not None:
            check_seed(seed)
        # An option of the other game is refused by name, not ignored.
        options = header_options(game_named(game_name), game_options)
        with _progress(games, catalog) as progress:
            sim, seed, summary, exact, unsolved = run(game_name, players, options, games, seed,
                                                      with_exact, progress)
        if as_json:
            text = json.dumps(as_dict(sim, seed, summary, exact), indent=2)
        else:
            text = report(sim, seed, summary, exact, chosen, catalog, unsolved=unsolved)
        with writing(None):
            click.echo(text)


@contextlib.contextmanager
def _progress(games: int, catalog: gettext.NullTranslations,
              ) -> Iterator[Callable[[int], None] | None]:
    """A progress bar on standard error, for long runs on a terminal only."""
    if games < PROGRESS_FROM or not sys.stderr.isatty():
        yield None
        return
    # Translators: the label of the progress bar while games are simulated.
    label = catalog.gettext("Simulating")
    with click.progressbar(length=games, file=sys.stderr, label=label) as bar:
        yield bar.update


def _page(page: str, players: int, game_name: str, given: Given, lang: str | None,
          force: bool) -> None:
    """``aces simulate --html``: the simulation page, written whole or not at all,
    never over a file that is not a page of its own unless forced, and never
    over a log."""
    from aces.page.html import render_simulation

    with reported(lang):
        chosen, _ = translations(lang)
        output = page_output(page, "simulate", force, ())
        found = registration(game_name)
        game = found.rules
        options = game.options(header_options(game, given))
        make = found.page
        if make is None:
            raise OptionError("the simulation does not know the game {name!r}; it knows:"
                              " {known}", name=game_name, known=", ".join(sorted(
                                  name for name, one in registered().items()
                                  if one.has("page"))))
        data = make(players, options, chosen)
        write_page(output, render_simulation(data))
