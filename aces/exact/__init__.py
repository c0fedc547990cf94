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

__all__ = ["MAX_STATES", "Exact", "Solved", "check_players", "check_size", "exact", "most_players",
           "table_odds"]

#: The most states solved exactly: eight players with two chips each (about
#: 490,000 states) take a few seconds; nine need 3.1 million, a minute and
#: gigabytes, which is the simulation's job.
MAX_STATES: t.Final = 1_000_000


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


def most_players() -> int:
    """The most players solved exactly: one more has too many states even
    with one chip each (twelve players need 1.35 million).

    >>> most_players()
    11
    """

    players = pot.MIN_PLAYERS
    while state_count(players + 1, 1) <= MAX_STATES:
        players += 1
    return players


def check_size(players: int, chips: int) -> int:
    """The states a game needs.

    Too many players are refused before their states are counted: the count
    grows so fast with the players that for a class of a thousand it is a
    number of thousands of digits, and takes long to work out.

    :raises ~aces.errors.OptionError: when they are too many to solve, or
        the players too many to count them.
    """

    check_players(players)
    limit = most_players()
    if players > limit:
        # Translators: an error of "aces odds". {limit}: the most players the
        # exact solver takes; {players}: the number asked for; {simulate}: the
        # command aces simulate, or aces.simulate in Python.
        raise OptionError(
            "exact odds can be worked out for at most {limit} players, not {players}: with"
            " more, even one chip each gives too many states to solve; try {simulate} instead",
            limit=limit, players=players, simulate=Term("aces simulate"))
    states = state_count(players, chips)
    if states > MAX_STATES:
        # Translators: an error of "aces odds". {players} (2 or more) players with
        # {chips} (2 or more) chips each; {simulate}: the command aces simulate, or
        # aces.simulate in Python.
        raise OptionError(
            "exact odds for {players} players with {chips} chips each need {states} states,"
            " more than the limit of {limit}; try {simulate} instead",
            players=players, chips=chips, states=states, limit=MAX_STATES,
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
