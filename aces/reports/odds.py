"""The report of ``aces odds``: the exact odds of a table of Aces in the Pot,
in words for a lesson (:func:`report`) or as JSON for a machine (:func:`as_dict`).

>>> from aces.i18n import translations
>>> from aces.exact import exact
>>> print(report(exact(2, 1, "last-chip", 0.5), "en", translations("en")).splitlines()[1])
2 players, 1 chip each, finish at the last chip (last-chip)
"""

from __future__ import annotations

import math
import typing as t

from aces.exact.finish import finish_by_seat, try_success
from aces.exact.outcomes import CHANCES, OUTCOMES, roll_cost
from aces.narrate.names import OUTCOME_NAMES, finish_name
from aces.numbers import table
from aces.voice import Voice, line_start

if t.TYPE_CHECKING:
    import gettext

    from aces.exact import Solved

__all__ = ["LENGTH_ROWS", "SHOWN", "as_dict", "length_rows", "report"]

#: Rows of the length table, at most.
LENGTH_ROWS: t.Final = 20
#: The smallest chance the length table shows (0.1 % with one decimal).
SHOWN: t.Final = 0.0005


def as_dict(answer: Solved) -> dict[str, t.Any]:
    """The answers for machines; chances that are closed forms also as exact fractions."""

    solution = answer.solution
    success = try_success()
    return {
        "game": "pot",
        "players": answer.players,
        "options": {"finish": answer.finish, "chips": answer.chips},
        "roll": [{"aces": o.aces, "sixes": o.sixes, "chance": str(CHANCES[o]),
                  "value": float(CHANCES[o])} for o in OUTCOMES],
        "roll_cost": [{"held": held, "to_pot": str(cost.to_pot), "to_left": str(cost.to_left),
                       "total": str(cost.total), "value": float(cost.total)}
                      for held, cost in ((1, roll_cost(1)), (2, roll_cost(2)))],
        "try_success": {"chance": str(success), "value": float(success)},
        "finish_from_holder": [{"chance": str(c), "value": float(c)}
                               for c in finish_by_seat(answer.players)],
        "win_by_seat": solution.win_by_seat,
        "expected_rolls": solution.expected_rolls,
        "sd_rolls": solution.sd_rolls,
        "quantile": answer.quantile,
        "rolls_at_quantile": len(answer.length_cdf),
        "length_cdf": answer.length_cdf,
        "states": answer.states,
    }


def report(answer: Solved, lang: str, catalog: gettext.NullTranslations) -> str:
    """The answers as a readable page, in the catalog's language."""

    voice = Voice(catalog, lang)
    _ = voice.gettext
    count = voice.count
    lines = [
        _("Exact odds of Aces in the Pot"),
        # Translators: {players}: "4 players"; {chips}: "2 chips each", each with
        # its count in words where your language writes small counts so; {finish}:
        # which finish, e.g. "finish at the last chip (last-chip)". The line's
        # first letter is made a capital.
        line_start(_("{players}, {chips}, {finish}").format(
            players=catalog.ngettext("{count} player", "{count} players",
                                     answer.players).format(count=count(answer.players)),
            chips=catalog.ngettext("{count} chip each", "{count} chips each",
                                   answer.chips).format(count=count(answer.chips)),
            finish=finish_name(answer.finish, _))),
        "",
        _("One roll of two dice"),
    ]
    # Translators: column headings: what a roll shows, and its exact chance (a fraction).
    rows = [[_("outcome"), _("chance"), ""]]
    for name, outcome in zip(OUTCOME_NAMES, OUTCOMES, strict=True):
        chance = CHANCES[outcome]
        rows.append([_(name), voice.fraction(chance), voice.percent(float(chance))])
    lines += [table(rows, "  "), ""]

    lines.append(_("What a normal roll costs, on average, in chips"))
    # Translators: column headings: the roller's chips, then the chips a roll sends to the
    # pot, to the player on the left, and both together.
    rows = [[_("chips held"), _("to the pot"), _("to the left"), _("in all")]]
    for label, held in (("1", 1), (_("2 or more"), 2)):
        cost = roll_cost(held)
        rows.append([label] + [
            f"{voice.fraction(part)} ({voice.decimal(float(part))})"
            for part in (cost.to_pot, cost.to_left, cost.total)])
    lines += [table(rows, "  "), ""]

    success = try_success()
    lines.append(_("The finish"))
    # Translators: {fraction}: an exact fraction such as 15,625/46,656; {percent}: the
    # same chance as a percentage, rounded (hence "about equal to").
    lines.append("  " + _("One try (three rolls without a six) succeeds with chance"
                          " {fraction} \u2248 {percent}.").format(
        fraction=voice.fraction(success), percent=voice.percent(float(success))))
    lines.append("  " + _("With one chip left, each player's chance to win, counted from"
                          " the holder who tries first:"))
    # Translators: column headings: a player, named by seat from the holder, and the chance.
    rows = [[_("player"), _("chance to win")]]
    for seat, chance in enumerate(finish_by_seat(answer.players)):
        label = _("the holder") if seat == 0 else catalog.ngettext(
            "{count} seat to the left", "{count} seats to the left", seat).format(count=count(seat))
        rows.append([label, voice.percent(float(chance))])
    lines += [table(rows, "    "), ""]

    solution = answer.solution
    lines.append(_("The whole game"))
    lines.append("  " + _("Seat 1 rolls first after the opening; the others follow to the left."))
    # Translators: column headings: a seat number (1 rolls first) and its chance to win.
    rows = [[_("seat"), _("chance to win")]]
    rows += [[voice.integer(seat), voice.percent(chance, 2)]
             for seat, chance in enumerate(solution.win_by_seat, start=1)]
    lines.append(table(rows, "    "))
    # Translators: rolls count every roll of two dice after the opening, tries included.
    lines.append("  " + _("Rolls in a game: {mean} on average, standard deviation {sd}.").format(
        mean=voice.decimal(solution.expected_rolls), sd=voice.decimal(solution.sd_rolls)))
    lines.append("")

    lines.append(_("How long a game lasts"))
    shortest = next(k for k, p in enumerate(answer.length_cdf, start=1) if p > 0)
    # Translators: {rolls}: the fewest rolls (after the opening) a game can take.
    lines.append("  " + _("The shortest games take {rolls} rolls.").format(
        rolls=voice.integer(shortest)))
    # Translators: column headings: a number of rolls, and the chance a game is that short.
    rows = [[_("rolls"), _("chance the game is over by then")]]
    rows += [[voice.integer(k), voice.percent(answer.length_cdf[k - 1])]
             for k in length_rows(answer.length_cdf)]
    lines.append(table(rows, "  "))
    # Translators: {percent}: a share of games such as 99 %; {rolls}: a number of rolls.
    lines.append("  " + _("{percent} of games are over within {rolls} rolls.").format(
        percent=voice.percent(answer.quantile, _digits(answer.quantile)),
        rolls=voice.integer(len(answer.length_cdf))))
    lines.append("  " + _("Solved exactly over {states} states of the game.").format(
        states=voice.integer(answer.states)))
    return "\n".join(lines)


def _digits(share: float) -> int:
    """Decimals enough to show a share as given: 99 %, 99.5 %, 99.95 %..."""
    for digits in range(6):
        if abs(share * 100 * 10**digits - round(share * 100 * 10**digits)) < 1e-6:
            return digits
    return 6


def length_rows(cdf: list[float], most: int = LENGTH_ROWS) -> list[int]:
    """Which game lengths to show, evenly spaced up to the quantile: from the
    first that a table can show (0.1 %), or the shortest possible.

    >>> length_rows([0.0, 0.0, 0.0001, 0.7, 0.8, 0.9, 0.95, 0.97, 0.99], most=2)
    [4, 7, 9]
    """
    first = next((k for k, p in enumerate(cdf, start=1) if p >= SHOWN), None)
    if first is None:
        first = next(k for k, p in enumerate(cdf, start=1) if p > 0)
    last = len(cdf)
    step = max(1, math.ceil((last - first) / most))
    shown = list(range(first, last, step))
    return [*shown, last]
