"""The simulation page of Aces, the five-dice game: the branches of every
table that fits, run in the browser beside the exact chance to lose.

The page is the one of :mod:`aces.page.simulation`, with the five-dice
game's tables and its own words.
"""

from __future__ import annotations

import typing as t
from fractions import Fraction

from aces.errors import OptionError
from aces.exact import fivedice_chain
from aces.exact.fivedice_chain import branch_count, state_count
from aces.i18n import LANGUAGES, translations
from aces.page.simulation import CHECKPOINTS, FORMAT, MOST_BRANCHES, MOST_FIVEDICE_STATES, seats
from aces.page.simulation import labels as pot_labels
from aces.rules import fivedice
from aces.simulation.fivedice import FiveDiceSimulation
from aces.voice import Voice

if t.TYPE_CHECKING:
    from collections.abc import Mapping

    from aces.rules import OptionValue

__all__ = ["collect_fivedice", "fivedice_table", "labels", "page"]


def labels(lang: str, dice: int) -> dict[str, str]:
    """The page's own words in one language, for a game of ``dice`` dice each."""
    catalog = translations(lang)
    _ = catalog.gettext
    words = pot_labels(lang)
    words.update(
        # Translators: the title of the simulation page of the five-dice
        # game (Aces), where one player loses, for a class.
        title=_("Aces: which seat loses most often?"),
        # Translators: on the simulation page of the five-dice game; seat 1
        # is the first to roll.
        intro=_("Choose the players and press Run: the browser plays game after game,"
                " and the share of games each seat loses settles on the exact chance."
                " Seat 1 rolls first after the opening."),
        setup=catalog.ngettext("{count} die each", "{count} dice each",
                               dice).format(count=Voice(catalog, lang).count(dice)),
        # Translators: the caption of the simulation page's table of the
        # five-dice game: each seat's share of the games lost.
        share=_("Share of losses"),
        # Translators: under the bars of the simulation page of the five-dice game.
        bars_hint=_("Each bar is a seat's share of the games lost so far; the black"
                    " line across it is the exact chance."),
    )
    return words


def fivedice_table(players: int, dice: int, threes: bool,
                   threes_to: fivedice.Policy) -> dict[str, t.Any]:
    """One five-dice game's branches and exact values, as the page carries them.

    ``first[s]`` is where state ``s``'s branches begin in ``step``, and
    ``chances[roll[s]]`` their chances, added up (the branches of every state
    whose roller holds as many dice share them); ``step[b]`` is the next
    state times the players, plus the seats to the left where the next
    roller sits; a state of ``size`` ends the game, lost by the roller.
    """

    chain = fivedice_chain.build(players, dice, threes, threes_to)
    answer = fivedice_chain.solve(chain)
    assert answer.win_by_seat is not None  # the chain works out every seat
    size = len(chain.states)
    profiles: dict[tuple[Fraction, ...], int] = {}
    first: list[int] = []
    roll: list[int] = []
    step: list[int] = []
    for out in chain.branches:
        first.append(len(step))
        roll.append(profiles.setdefault(tuple(b.chance for b in out), len(profiles)))
        step += [(size if b.state < 0 else b.state) * players + b.rotation for b in out]
    chances = []
    for profile in profiles:
        running, total = [], Fraction(0)
        for chance in profile:
            total += chance
            running.append(round(float(total), 12))
        running[-1] = 1.0
        chances.append(running)
    return {
        "players": players,
        "finish": None,
        "size": size,
        "start": chain.start,
        "first": first,
        "roll": roll,
        "chances": chances,
        "step": step,
        "exact": {"by_seat": [round(p, 6) for p in answer.win_by_seat],
                  "rolls": round(answer.expected_rolls, 4)},
    }


def collect_fivedice(players: int, dice: int, threes: bool, threes_to: fivedice.Policy,
                     lang: str) -> dict[str, t.Any]:
    """The page of the five-dice game: a table for every count of players
    from three that fits, the game asked for among them.

    :raises ~aces.errors.OptionError: for a game too big for a page.
    """

    def cost(n: int) -> int:
        return branch_count(n, dice, threes, threes_to)

    fits = state_count(players, dice) <= MOST_FIVEDICE_STATES and cost(players) <= MOST_BRANCHES
    if not fits:
        # Translators: an error of "aces simulate --html --game five-dice".
        # {players} and {dice}: the game asked for; {branches}: the most ways
        # a roll can go that a page carries, its games together.
        raise OptionError("a simulation page of Aces takes games of at most {branches} ways"
                          " for the rolls to go; --players {players} --dice-each {dice} has"
                          " more: try fewer players or dice", branches=MOST_BRANCHES,
                          players=players, dice=dice)
    counts = [players]
    total = cost(players)
    for n in range(fivedice.MIN_PLAYERS, 100):
        if n == players:
            continue
        if state_count(n, dice) > MOST_FIVEDICE_STATES or total + cost(n) > MOST_BRANCHES:
            if n > players:
                break
            continue
        counts.append(n)
        total += cost(n)
    counts.sort()
    return {
        "format": FORMAT,
        "game": fivedice.NAME,
        "dice": dice,
        "threes": threes,
        "threes_to": threes_to,
        "players": players,
        "finish": None,
        "checkpoints": list(CHECKPOINTS),
        "tables": [fivedice_table(n, dice, threes, threes_to) for n in counts],
        "lang": lang,
        "languages": list(LANGUAGES),
        "labels": {code: labels(code, dice) for code in LANGUAGES},
        "seats": {code: seats(code, counts[-1]) for code in LANGUAGES},
    }


def page(players: int, options: Mapping[str, OptionValue], lang: str) -> dict[str, t.Any]:
    """The page of a table of Aces (``aces simulate --html --game five-dice``),
    its options complete.

    :raises ~aces.errors.OptionError: for a table the game cannot be played
        at, or one too big for a page.
    """

    FiveDiceSimulation.create(players, options)  # the players the game takes
    return collect_fivedice(players, t.cast("int", options["dice"]), bool(options["threes"]),
                            t.cast("fivedice.Policy", options["threes_to"]), lang)
