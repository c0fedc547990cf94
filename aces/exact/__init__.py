"""Exact odds of Aces in the Pot: closed forms where they exist, a Markov chain for the rest.

* :mod:`aces.exact.outcomes` — one roll of two dice, as exact fractions;
* :mod:`aces.exact.finish` — the finish with one chip, in closed form;
* :mod:`aces.exact.chain` — the whole game as an absorbing Markov chain,
  built from the rules' own functions;
* :mod:`aces.exact.solve` — win chances by seat and the game's length;

:func:`exact` puts them together for ``aces odds``; :func:`check_size`
says in advance whether a game is small enough to solve.

>>> odds = exact(3, 1, "last-chip", 0.5)
>>> round(sum(odds.solution.win_by_seat), 12), len(odds.length_cdf) > 0
(1.0, True)
"""

from __future__ import annotations

import typing as t

from aces.errors import OptionError, Term
from aces.exact.chain import build, state_count
from aces.exact.solve import length_cdf, solve
from aces.rules import pot

if t.TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from aces.exact.solve import Solution
    from aces.rules import OptionValue

__all__ = ["BYTES_PER_STATE", "MAX_STATES", "MAX_WORK", "QUICK_STATES", "Exact", "Solved",
           "check_players", "check_size", "exact", "memory_needed", "most_players", "table_odds",
           "work_needed"]

#: The most states ``aces odds`` solves exactly: ten players with two chips
#: each (20 million states) take minutes and some gigabytes of memory
#: (:func:`memory_needed`); eleven would need 130 million.
MAX_STATES: t.Final = 25_000_000
#: The most states solved where the chances are wanted at once, without a
#: progress bar (a replay's or a page's chances, a class's pooled
#: statistics): eight players with two chips each (490,000 states), a few
#: seconds; larger tables are estimated.
QUICK_STATES: t.Final = 1_000_000
#: Bytes of memory a solve needs for each state, roughly, besides one byte per
#: player: the transitions, every state's answers, and the working arrays of
#: the largest layer (measured: 1.2 GiB at the most for nine players with
#: two chips each, 7.1 GiB for ten).
BYTES_PER_STATE: t.Final = 450
#: The most work a solve is allowed, in states times the rolls a game lasts:
#: the length of a game is carried over every state one roll at a time, so
#: that a game of few states but thousands of rolls (two players with
#: hundreds of chips) costs as much as a table of millions. Ten players with
#: two chips each need about 2.4 thousand million.
MAX_WORK: t.Final = 3_000_000_000


class Exact(t.NamedTuple):
    """The exact answers of a table of either game, which a simulation's
    estimates are held against."""

    #: Each seat's chance to win; to lose, in a game that counts losers (five-dice);
    #: ``None`` where only the length is worked out (five players with five dice).
    win_by_seat: list[float] | None
    expected_rolls: float
    sd_rolls: float
    #: The mean length of a turn, for games that count turns.
    rolls_per_turn: float | None = None


class Solved(t.NamedTuple):
    """A table of Aces in the Pot solved exactly: everything ``aces odds`` reports of it."""

    players: int
    chips: int
    finish: pot.Finish
    states: int
    solution: Solution
    #: ``length_cdf[k - 1]``: the chance the game is over within ``k`` rolls.
    length_cdf: list[float]
    quantile: float


def check_players(players: int) -> None:
    """At least two players, as the rules say.

    :raises ~aces.errors.OptionError: for fewer.
    """
    if players < pot.MIN_PLAYERS:
        raise OptionError("{option} must be at least {minimum}, not {players}",
                          option=Term("--players"), minimum=pot.MIN_PLAYERS, players=players)


def most_players(limit: int = MAX_STATES) -> int:
    """The most players solved exactly within ``limit`` states: one more has
    too many even with one chip each (fifteen players need 77 million).

    >>> most_players(), most_players(QUICK_STATES)
    (14, 11)
    """

    players = pot.MIN_PLAYERS
    while state_count(players + 1, 1) <= limit:
        players += 1
    return players


def memory_needed(players: int, states: int) -> int:
    """Bytes of memory a solve of ``states`` states needs, roughly.

    >>> round(memory_needed(10, 20_030_070) / 1e9, 1)
    9.2
    """
    return states * (BYTES_PER_STATE + players)


def work_needed(players: int, chips: int, states: int) -> int:
    """The work of a solve, in states times rolls: a game loses a third of a
    chip to the pot a roll, on average (:func:`aces.exact.outcomes.roll_cost`),
    so its length is carried over some three rolls a chip, and more for the
    finish and the spread of its length.

    >>> work_needed(10, 2, 20_030_070) < MAX_WORK < work_needed(2, 705, 998_985)
    True
    """
    return states * (4 * players * chips + 40)


def check_size(players: int, chips: int, limit: int = MAX_STATES) -> int:
    """The states a game needs, when they are at most ``limit`` and the work
    at most :data:`MAX_WORK`.

    Too many players are refused before their states are counted: the count
    grows so fast with the players that for a class of a thousand it is a
    number of thousands of digits, and takes long to work out.

    :raises ~aces.errors.OptionError: when they are too many to solve, or
        the players too many to count them.
    """

    check_players(players)
    most = most_players(limit)
    if players > most:
        # Translators: an error of "aces odds". {limit}: the most players the
        # exact solver takes; {players}: the number asked for; {simulate}: the
        # command aces simulate, or aces.simulate in Python.
        raise OptionError(
            "exact odds can be worked out for at most {limit} players, not {players}: with"
            " more, even one chip each gives too many states to solve; try {simulate} instead",
            limit=most, players=players, simulate=Term("aces simulate"))
    states = state_count(players, chips)
    if states > limit:
        # Translators: an error of "aces odds". {players} (2 or more) players with
        # {chips} (2 or more) chips each; {simulate}: the command aces simulate, or
        # aces.simulate in Python.
        raise OptionError(
            "exact odds for {players} players with {chips} chips each need {states} states,"
            " more than the limit of {limit}; try {simulate} instead",
            players=players, chips=chips, states=states, limit=limit,
            simulate=Term("aces simulate"))
    if work_needed(players, chips, states) > MAX_WORK:
        # Translators: an error of "aces odds". {players} players with {chips} chips
        # each; {rolls}: about how many rolls such a game lasts; {simulate}: the
        # command aces simulate, or aces.simulate in Python.
        raise OptionError(
            "exact odds for {players} players with {chips} chips each would take too long:"
            " a game lasts some {rolls} rolls, and its length is worked out over all"
            " {states} states roll by roll; try {simulate} instead",
            players=players, chips=chips, rolls=3 * players * chips, states=states,
            simulate=Term("aces simulate"))
    return states


#: How the work of :func:`exact` is shared out, for its progress: building
#: the chain, solving it, and the distribution of the game's length.
_SHARES: t.Final = (0.05, 0.8, 0.15)


def exact(players: int, chips: int, finish: pot.Finish, quantile: float,
          progress: Callable[[float], None] | None = None) -> Solved:
    """Solve a game: who wins, how long it lasts, up to the given quantile of its length.

    ``progress`` hears, now and then, the share of the work done so far
    (from 0 to 1), for a progress bar.

    :raises ~aces.errors.OptionError: for a quantile outside 0 to 1, or a
        game too big to solve (see :func:`check_size`).
    """

    if not 0 < quantile < 1:
        raise OptionError("--quantile must be between 0 and 1, not {quantile}",
                          quantile=quantile)
    check_size(players, chips)
    build_share, solve_share, length_share = _SHARES

    def part(start: float, share: float) -> Callable[[float], None] | None:
        if progress is None:
            return None
        report = progress
        return lambda done: report(start + share * done)

    chain = build(players, chips, finish)
    if progress is not None:
        progress(build_share)
    solution = solve(chain, part(build_share, solve_share))
    cdf = length_cdf(chain, quantile, part(build_share + solve_share, length_share))
    return Solved(players, chips, finish, chain.size, solution, cdf, quantile)


def table_odds(players: int, options: Mapping[str, OptionValue], wait: bool = False) -> Exact:
    """The exact odds of a table of Aces in the Pot for ``aces.odds``, solved
    as ``aces odds`` solves it, however long it takes (``wait`` is for the
    five-dice game, whose larger tables are worked out only when asked).

    :raises ~aces.errors.OptionError: for options the rules refuse, or a table
        too big to solve (see :func:`check_size`).

    >>> [round(p, 3) for p in table_odds(2, {"chips": 1}).win_by_seat]
    [0.471, 0.529]
    """
    full = pot.options(options)
    solved = exact(players, t.cast("int", full["chips"]), t.cast("pot.Finish", full["finish"]),
                   0.5)
    solution = solved.solution
    return Exact(solution.win_by_seat, solution.expected_rolls, solution.sd_rolls)
