"""``aces simulate``: many games played fast, with confidence intervals."""

from __future__ import annotations

import contextlib
import json
import sys
import typing as t

import click

from aces.cli._common import finish_name, lang_option, reported, translations, writing
from aces.cli._games import GAME_HELP, GameChoice, GameCommand
from aces.errors import N_, Term

if t.TYPE_CHECKING:
    import gettext
    from collections.abc import Callable, Iterator, Mapping

    from aces.cli._games import Given
    from aces.narrate.voice import Voice
    from aces.rules import OptionValue
    from aces.simulate import Exact, Simulation, Unsolved
    from aces.simulate.stats import Summary

__all__ = ["COUNTS_LOSERS", "EXACT", "GAME_NAMES", "PROGRESS_FROM", "Parts", "as_dict", "parts",
           "report", "simulate", "table_words"]

#: The games' names in the report.
GAME_NAMES: t.Final = {
    "pot": N_("Aces in the Pot"),
    "five-dice": N_("Aces"),
}
#: Games whose simulation counts each game's loser rather than its winner.
COUNTS_LOSERS: t.Final = frozenset({"five-dice"})
#: How the exact answers are asked for whatever they cost.
EXACT: t.Final = Term("--exact", "exact=True")
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
    from aces.cli._games import header_options
    from aces.rules import game_named
    from aces.simulate import answers, check_games, check_seed, simulation
    from aces.simulate.stats import summarize

    if page is not None:
        _page(page, players, game_name, game_options, lang, force)
        return
    with reported(lang):
        chosen, catalog = translations(lang)
        if force:
            from aces.files import forced_alone

            raise forced_alone(Term("--html"))
        check_games(games)
        if seed is not None:
            check_seed(seed)
        # An option of the other game is refused by name, not ignored.
        options = header_options(game_named(game_name), game_options)
        sim = simulation(game_name, players, options)
        if seed is None:
            import secrets

            seed = secrets.randbelow(2**32)
        with _progress(games, catalog) as progress:
            summary = summarize(sim.run(games, seed, progress))
        exact, unsolved = answers(sim, with_exact)
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


def as_dict(sim: Simulation, seed: int, summary: Summary, exact: Exact | None,
            ) -> dict[str, t.Any]:
    """The results for machines, with the keys of ``aces odds`` where they apply.

    The shares by seat are ``win_by_seat``, or ``loss_by_seat`` for a game
    that counts losers (five-dice); ``rolls_per_turn`` is there for a game
    that counts turns.
    """
    by_seat = "loss_by_seat" if sim.game in COUNTS_LOSERS else "win_by_seat"
    result: dict[str, t.Any] = {
        "game": sim.game,
        "players": sim.seats,
        "options": sim.options,
        "games": summary.games,
        "seed": seed,
        by_seat: summary.win_by_seat,
        f"{by_seat}_ci": [list(interval) for interval in summary.win_intervals],
        "expected_rolls": summary.expected_rolls,
        "expected_rolls_ci": list(summary.rolls_interval),
        "sd_rolls": summary.sd_rolls,
    }
    if summary.rolls_per_turn is not None:
        result["rolls_per_turn"] = summary.rolls_per_turn
    result |= {"confidence": 0.95, "exact": None, "exact_inside": None}
    if exact is not None:
        shares = exact.win_by_seat
        result["exact"] = {by_seat: shares,
                           "expected_rolls": exact.expected_rolls,
                           "sd_rolls": exact.sd_rolls}
        if exact.rolls_per_turn is not None:
            result["exact"]["rolls_per_turn"] = exact.rolls_per_turn
        result["exact_inside"] = {
            by_seat: None if shares is None else
            [interval.holds(value) for interval, value
             in zip(summary.win_intervals, shares, strict=True)],
            "expected_rolls": summary.rolls_interval.holds(exact.expected_rolls),
        }
    return result


class Parts(t.NamedTuple):
    """The report in its pieces: the lines above the table of seats, its rows
    (the heading first) and the lines below it. A notebook shows the same
    pieces as HTML (:class:`aces.api.Simulated`)."""

    above: list[str]
    rows: list[list[str]]
    below: list[str]


def report(sim: Simulation, seed: int, summary: Summary, exact: Exact | None, lang: str,
           catalog: gettext.NullTranslations, *, unsolved: Unsolved = None) -> str:
    """The results as a readable page, in the catalog's language.

    ``unsolved`` says why the exact answers are missing, when they were not
    turned off (:data:`aces.simulate.Unsolved`): ``"slow"``, they were left
    out as slow to work out (and ``--exact`` adds them); ``"none"``, the game
    is too big to solve.
    """
    from aces.cli._numbers import table

    above, rows, below = parts(sim.game, sim.seats, sim.options, seed, summary, exact, lang,
                               catalog, unsolved=unsolved)
    return "\n".join([*above, table(rows, "  "), *below]).rstrip("\n")


def parts(game: str, seats: int, options: dict[str, OptionValue], seed: int,
          summary: Summary, exact: Exact | None, lang: str,
          catalog: gettext.NullTranslations, *, unsolved: Unsolved = None,
          python: bool = False) -> Parts:
    """The pieces of :func:`report`, for ``game`` at a table of ``seats``; with
    ``python``, for a notebook, where the exact answers are asked for with
    ``exact=True`` rather than ``--exact``."""
    from aces.cli._numbers import decimal, integer, percent
    from aces.narrate.voice import Voice, line_start

    _ = catalog.gettext
    voice = Voice(catalog, lang)
    # Translators: whether the exact value lies inside the interval.
    yes, no = _("yes"), _("no")
    details = table_words(game, seats, options, voice)
    # Translators: {seed}: the number that reproduces the dice of the run.
    details.append(_("seed {seed}").format(seed=seed))
    lines = [
        # Translators: {game}: the game's name; {games}: how many games were played.
        _("{game}: {games} simulated games").format(
            game=_(GAME_NAMES.get(game, game)), games=integer(summary.games, lang)),
        line_start(", ".join(details)),
        "",
        _("Seat 1 rolls first after the opening; the others follow to the left."),
    ]
    losers = game in COUNTS_LOSERS
    # Translators: column headings: a seat number, its share of the simulated wins (of the
    # losses, in a game where one player loses), and the 95 % confidence interval of that share.
    header = [_("seat"), _("share of losses") if losers else _("share of wins"),
              _("95% interval")]
    # Each seat's exact chance, where it is worked out (five players with five dice:
    # the length only).
    by_seat = exact.win_by_seat if exact is not None else None
    if by_seat is not None:
        # Translators: column headings: the exact chance, and whether it lies in the interval.
        header += [_("exact"), _("inside?")]
    rows = [header]
    for seat, (share, interval) in enumerate(
            zip(summary.win_by_seat, summary.win_intervals, strict=True)):
        row = [integer(seat + 1, lang), percent(share, lang, 2),
               _interval(interval, lang, catalog)]
        if by_seat is not None:
            value = by_seat[seat]
            row += [percent(value, lang, 2), yes if interval.holds(value) else no]
        rows.append(row)
    above, lines = lines, []
    if by_seat is not None:
        # Translators: under the table of "aces simulate", beside the exact
        # answers: a "no" in its last column is what chance alone gives now and then.
        lines.append(_("About one 95% interval in twenty misses the exact value by chance"
                       " alone, so an occasional no is expected."))
    lines.append("")

    low, high = summary.rolls_interval
    # Translators: rolls count every roll after the opening (Aces in the Pot: tries
    # included; Aces: rolls again included); {low} and {high} are the ends of the 95 %
    # confidence interval of the mean.
    lines.append(_("Rolls in a game: {mean} on average (95% interval {low} to {high}),"
                   " standard deviation {sd}.").format(
        mean=decimal(summary.expected_rolls, lang), low=decimal(low, lang),
        high=decimal(high, lang), sd=decimal(summary.sd_rolls, lang)))
    if exact is not None:
        inside = summary.rolls_interval.holds(exact.expected_rolls)
        message = (_("Exact: {mean} on average, inside the interval; standard deviation {sd}.")
                   if inside else
                   _("Exact: {mean} on average, outside the interval; standard deviation {sd}."))
        lines.append(message.format(mean=decimal(exact.expected_rolls, lang),
                                    sd=decimal(exact.sd_rolls, lang)))
    if summary.rolls_per_turn is not None:
        lines.append(_turns(summary.rolls_per_turn, exact, lang, catalog))
    lines.append("")
    if losers:
        lines.append(_("A game's rolls are those after the opening, rolls again included;"
                       " a missed turn is not a roll."))
    if exact is not None and by_seat is None:
        # Translators: after a simulation of Aces whose exact length is known but not
        # each seat's chance (five players with five dice each, say): why the table of
        # seats has no column of exact chances.
        lines.append(_("There are no exact chances by seat to compare with: for a game this"
                       " size only its length is worked out exactly, as the chances by seat"
                       " would take that work once for each player."))
    if unsolved == "slow":
        # Translators: after a simulation whose exact answers exist but were left out,
        # as they take seconds to work out. {option}: --exact on the command line,
        # exact=True in Python, which the reader adds to what they typed.
        lines.append(_("The exact answers take a while to work out for a game this size;"
                       " add {option} to see them beside the estimates.").format(
            option=EXACT.spelled(python)))
    elif unsolved == "none":
        # Translators: after a simulation too big to solve: Aces in the Pot too big for
        # aces odds, or Aces with more than five players with five dice each.
        lines.append(_("There is no exact answer to compare with: this game has too many"
                       " states to solve exactly."))
    return Parts(above, rows, lines)


def _turns(mean: float, exact: Exact | None, lang: str,
           catalog: gettext.NullTranslations) -> str:
    """The mean length of a turn, and the exact one when known."""
    from aces.cli._numbers import decimal

    # Translators: a turn is one player's rolls until play passes on; a roll that moves
    # a die is rolled again, which makes turns longer. {mean}: rolls in a turn on average.
    line = catalog.gettext("Rolls in a turn: {mean} on average.").format(mean=decimal(mean, lang))
    if exact is not None and exact.rolls_per_turn is not None:
        # Translators: follows "Rolls in a turn: ... on average."; {mean}: the exact value.
        line += " " + catalog.gettext("Exact: {mean}.").format(
            mean=decimal(exact.rolls_per_turn, lang))
    return line


def table_words(game: str, seats: int, options: Mapping[str, OptionValue],
                voice: Voice) -> list[str]:
    """The table in words, as every report names it: the players, then the options
    in the order of their names (chips before the finish, as ``aces odds`` and
    ``aces stats`` say them), the five-dice threes named before whom they go to.

    >>> from aces.i18n import translations
    >>> from aces.narrate.voice import Voice
    >>> voice = Voice(translations("nn"), "nn")
    >>> table_words("pot", 4, {"finish": "last-chip", "chips": 2}, voice)[:2]
    ['fire spelarar', 'to sjetongar kvar']
    """
    words = [voice.ngettext("{count} player", "{count} players",
                            seats).format(count=voice.count(seats))]
    for name, value in sorted(options.items()):
        if name == "threes" and game == "five-dice" and value:
            # Before whom the 3s go to: «med treere, hver treer til ...».
            # Translators: the variation of the five-dice game where 3s leave the hand too.
            words.append(voice.gettext("with threes"))
        elif text := _option(name, value, options, voice):
            words.append(text)
    return words


def _option(name: str, value: OptionValue, options: Mapping[str, OptionValue],
            voice: Voice) -> str | None:
    """A game option as the report names it; ``None`` for one that goes unsaid."""
    _ = voice.gettext
    if name == "chips" and isinstance(value, int):
        return voice.ngettext("{count} chip each", "{count} chips each",
                              value).format(count=voice.count(value))
    if name == "finish":
        return finish_name(str(value), _)
    if name == "dice" and isinstance(value, int):
        return voice.ngettext("{count} die each", "{count} dice each",
                              value).format(count=voice.count(value))
    if name == "threes":
        # Without the variation, neither it nor whom the 3s would go to is worth a word.
        return None
    if name == "threes_to":
        if not options.get("threes"):
            return None
        # Translators: the threes variation of Aces, and whom each 3 goes to.
        return {"fewest": _("each 3 to the player holding the fewest dice"),
                "most": _("each 3 to the player holding the most dice"),
                }.get(str(value), _("each 3 to a random other player"))
    return f"{name} {value}"


def _interval(interval: tuple[float, float], lang: str, catalog: gettext.NullTranslations,
              ) -> str:
    from aces.cli._numbers import percent

    # Translators: the two ends of a confidence interval, e.g. "25.9% to 26.3%".
    return catalog.gettext("{low} to {high}").format(
        low=percent(interval[0], lang, 2), high=percent(interval[1], lang, 2))


def _page(page: str, players: int, game_name: str, given: Given, lang: str | None,
          force: bool) -> None:
    """``aces simulate --html``: the simulation page, written whole or not at all,
    never over a file that is not a page of its own unless forced, and never
    over a log."""
    from aces.cli._common import page_output, write_page
    from aces.cli._games import header_options
    from aces.odds import check_players
    from aces.page.html import render_simulation
    from aces.page.simulation import collect, collect_fivedice
    from aces.rules import game_named

    with reported(lang):
        chosen, _ = translations(lang)
        output = page_output(page, "simulate", force, ())
        game = game_named(game_name)
        options = game.options(header_options(game, given))
        if game_name == "five-dice":
            from aces.simulate.fivedice import FiveDiceSimulation

            FiveDiceSimulation.create(players, options)  # the players the game takes
            data = collect_fivedice(players, t.cast("int", options["dice"]),
                                    bool(options["threes"]),
                                    t.cast("t.Any", options["threes_to"]), chosen)
        else:
            check_players(players)
            data = collect(players, t.cast("int", options.get("chips", 2)),
                           t.cast("t.Any", options.get("finish", "last-chip")), chosen)
        write_page(output, render_simulation(data))
