"""The report of ``aces simulate``: many games' estimates beside the exact
answers, in words (:func:`report`, in pieces for a notebook: :func:`parts`)
or as JSON for a machine (:func:`as_dict`).
"""

from __future__ import annotations

import typing as t

from aces.games import registration
from aces.narrate.names import table_words
from aces.numbers import table
from aces.simulation import EXACT
from aces.voice import Voice, line_start

if t.TYPE_CHECKING:
    import gettext

    from aces.rules import OptionValue
    from aces.simulation import Exact, Simulation, Unsolved
    from aces.simulation.stats import Summary

__all__ = ["Parts", "as_dict", "parts", "report"]


def as_dict(sim: Simulation, seed: int, summary: Summary, exact: Exact | None,
            ) -> dict[str, t.Any]:
    """The results for machines, with the keys of ``aces odds`` where they apply.

    The shares by seat are ``win_by_seat``, or ``loss_by_seat`` for a game
    that counts losers (five-dice); ``rolls_per_turn`` is there for a game
    that counts turns.
    """
    by_seat = "loss_by_seat" if registration(sim.game).counts == "losers" else "win_by_seat"
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
    turned off (:data:`aces.simulation.Unsolved`): ``"slow"``, they were left
    out as slow to work out (and ``--exact`` adds them); ``"none"``, the game
    is too big to solve.
    """
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
    voice = Voice(catalog, lang)
    _ = voice.gettext
    # Translators: whether the exact value lies inside the interval.
    yes, no = _("yes"), _("no")
    details = table_words(game, seats, options, voice)
    # Translators: {seed}: the number that reproduces the dice of the run.
    details.append(_("seed {seed}").format(seed=seed))
    lines = [
        # Translators: {game}: the game's name; {games}: how many games were played.
        _("{game}: {games} simulated games").format(
            game=_(registration(game).title), games=voice.integer(summary.games)),
        line_start(", ".join(details)),
        "",
        _("Seat 1 rolls first after the opening; the others follow to the left."),
    ]
    losers = registration(game).counts == "losers"
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
        row = [voice.integer(seat + 1), voice.percent(share, 2),
               _interval(interval, voice)]
        if by_seat is not None:
            value = by_seat[seat]
            row += [voice.percent(value, 2), yes if interval.holds(value) else no]
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
        mean=voice.decimal(summary.expected_rolls), low=voice.decimal(low),
        high=voice.decimal(high), sd=voice.decimal(summary.sd_rolls)))
    if exact is not None:
        inside = summary.rolls_interval.holds(exact.expected_rolls)
        message = (_("Exact: {mean} on average, inside the interval; standard deviation {sd}.")
                   if inside else
                   _("Exact: {mean} on average, outside the interval; standard deviation {sd}."))
        lines.append(message.format(mean=voice.decimal(exact.expected_rolls),
                                    sd=voice.decimal(exact.sd_rolls)))
    if summary.rolls_per_turn is not None:
        lines.append(_turns(summary.rolls_per_turn, exact, voice))
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


def _turns(mean: float, exact: Exact | None, voice: Voice) -> str:
    """The mean length of a turn, and the exact one when known."""
    # Translators: a turn is one player's rolls until play passes on; a roll that moves
    # a die is rolled again, which makes turns longer. {mean}: rolls in a turn on average.
    line = voice.gettext("Rolls in a turn: {mean} on average.").format(mean=voice.decimal(mean))
    if exact is not None and exact.rolls_per_turn is not None:
        # Translators: follows "Rolls in a turn: ... on average."; {mean}: the exact value.
        line += " " + voice.gettext("Exact: {mean}.").format(
            mean=voice.decimal(exact.rolls_per_turn))
    return line


def _interval(interval: tuple[float, float], voice: Voice) -> str:
    # Translators: the two ends of a confidence interval, e.g. "25.9% to 26.3%".
    return voice.gettext("{low} to {high}").format(
        low=voice.percent(interval[0], 2), high=voice.percent(interval[1], 2))
