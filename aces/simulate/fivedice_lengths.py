"""How long a game of Aces lasts, exactly, for tables too big for the chain of the rules.

:mod:`aces.simulate.fivedice_chain` settles every branch of every state
through the rules, which is what keeps it honest and what limits it: a
full game, four players with five dice each, has 886,259 branches (half a
minute of the rules), and its chances of losing need a system of 8,855
equations for every seat. The length of a game needs neither the seat
that loses nor a system: only the chance of each state, carried forward
one roll at a time.

So here the branches of a game without threes are worked out for all the
states at once, with NumPy: a roll of ``k`` dice is counted as its 1s, 2s,
5s and the rest; 1s go to the centre, 2s to the left, 5s to the right;
the roller rolls again while the roll moved a die and they still hold
one, else the next player to the left who holds dice rolls; the last die
in the centre ends the game. These are the rules of
:func:`aces.rules.fivedice.decide` written for arrays, and the tests hold
them to it: for every table the chain can build, the branches here are
the chain's, state for state, with the same chances.

With threes, a 3 goes to a player chosen by a policy, which this does
not model: such tables have exact lengths only where the chain has them.

>>> cdf = length_cdf(4, 5, 0.5)
>>> len(cdf), round(cdf[-1], 3)  # half of the full games are over within this many rolls
(47, 0.503)
"""

from __future__ import annotations

import math
import typing as t

import numpy as np

if t.TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = [
    "MAX_BRANCHES",
    "Branches",
    "branch_count",
    "branches",
    "carry",
    "length_cdf",
    "solvable",
]

#: The most branches worked out: their arrays take some 25 bytes each, and
#: a roll carried through them some milliseconds a million. Four players
#: with five dice each need 886,259; five players with five dice, 23 million.
MAX_BRANCHES: t.Final = 3_000_000
#: The most rolls a game is followed for (far past any table's tail).
_MAX_ROLLS: t.Final = 100_000


class Branches(t.NamedTuple):
    """Every branch of every state: from, to (``size`` when the game ends), chance."""

    states: NDArray[np.int64]
    start: int
    sources: NDArray[np.int64]
    targets: NDArray[np.int64]
    chances: NDArray[np.float64]
    rotations: NDArray[np.int64]


def _compositions(total: int, parts: int) -> NDArray[np.int64]:
    """Every way to write ``total`` as ``parts`` counts, in the chain's order."""
    if parts == 1:
        return np.array([[total]], dtype=np.int64)
    rows = [np.hstack([np.full((len(rest), 1), first, dtype=np.int64), rest])
            for first in range(total, -1, -1)
            for rest in [_compositions(total - first, parts - 1)]]
    return np.vstack(rows)


def _states(players: int, total: int) -> NDArray[np.int64]:
    """The states of the chain, in its order: the roller holds a die, fewest in play first."""
    return np.vstack([rows[rows[:, 0] > 0] for in_play in range(1, total + 1)
                      for rows in [_compositions(in_play, players)]])


def branch_count(players: int, dice: int) -> int:
    """How many branches a game without threes has, known without listing them.

    >>> branch_count(3, 1), branch_count(4, 5)
    (74, 886259)
    """
    # A roller with k dice has C(k + 3, 3) rolls; the others share the rest of the
    # dice in play in C(rest + players - 2, players - 2) ways.
    return sum(math.comb(k + 3, 3) * math.comb(in_play - k + players - 2, players - 2)
               for in_play in range(1, players * dice + 1) for k in range(1, in_play + 1))


def solvable(players: int, dice: int) -> bool:
    """Whether the game's branches are few enough to work out here."""
    # Each state has a branch at least: a table with too many states is refused at once.
    if math.comb(players * dice + players - 1, players) > MAX_BRANCHES:
        return False
    return branch_count(players, dice) <= MAX_BRANCHES


def branches(players: int, dice: int) -> Branches:
    """Every branch of a game without threes; the caller keeps it small (:func:`solvable`)."""
    total = players * dice
    states = _states(players, total)
    size = len(states)
    base = total + 1
    weights = base ** np.arange(players, dtype=np.int64)
    keys = states @ weights
    order = np.argsort(keys)
    sources: list[NDArray[np.int64]] = []
    targets: list[NDArray[np.int64]] = []
    chances: list[NDArray[np.float64]] = []
    rotations: list[NDArray[np.int64]] = []
    seats = np.arange(players)
    for k in range(1, total + 1):
        rows = np.flatnonzero(states[:, 0] == k)
        if not len(rows):
            continue
        rolls = _compositions(k, 4)  # 1s, 2s, 5s, the rest
        ways = np.array([math.factorial(k) // math.prod(math.factorial(int(c)) for c in roll)
                         for roll in rolls], dtype=np.float64)
        chance = ways * (1 / 6) ** rolls[:, :3].sum(axis=1) * 0.5 ** rolls[:, 3]
        held = np.repeat(states[rows], len(rolls), axis=0)
        roll = np.tile(rolls, (len(rows), 1))
        ones, twos, fives = roll[:, 0], roll[:, 1], roll[:, 2]
        held[:, 0] -= ones + twos + fives
        held[:, 1] += twos
        held[:, -1] += fives
        over = held.sum(axis=1) == 0
        moved = ones + twos + fives > 0
        again = moved & (held[:, 0] > 0)
        # The next player to the left who holds dice: seat 1, 2, ..., back to the roller.
        holds = held[:, np.r_[1:players, 0]] > 0
        nxt = np.where(again, 0, (np.argmax(holds, axis=1) + 1) % players)
        turned = held[np.arange(len(held))[:, None], (seats[None, :] + nxt[:, None]) % players]
        wanted = turned @ weights
        found = order[np.minimum(np.searchsorted(keys, wanted, sorter=order), size - 1)]
        assert np.array_equal(keys[found][~over], wanted[~over]), "a state not in the chain"
        sources.append(np.repeat(rows, len(rolls)))
        targets.append(np.where(over, size, found))
        chances.append(np.tile(chance, len(rows)))
        rotations.append(np.where(over, 0, nxt))
    start = int(np.flatnonzero(np.all(states == dice, axis=1))[0])
    return Branches(states, start, np.concatenate(sources), np.concatenate(targets),
                    np.concatenate(chances), np.concatenate(rotations))


def length_cdf(players: int, dice: int, quantile: float) -> list[float]:
    """The chance that a game without threes is over within ``k`` rolls, for
    ``k = 1, 2, ...``, up to the first ``k`` where it reaches ``quantile``
    (or where what is left in play is below ``1 - quantile``)."""
    found = branches(players, dice)
    size = len(found.states)
    # Rolls that lead from one state to the same next one are one step of the walk.
    pairs, where = np.unique(found.sources * (size + 1) + found.targets, return_inverse=True)
    sources, targets = pairs // (size + 1), pairs % (size + 1)
    chances = np.bincount(where.ravel(), weights=found.chances,
                          minlength=len(pairs)).astype(np.float64, copy=False)
    return carry(sources, targets, chances, found.start, size, quantile)


def carry(sources: NDArray[np.int64], targets: NDArray[np.int64],
          chances: NDArray[np.float64], start: int, size: int,
          quantile: float) -> list[float]:
    """The chance that the game is over within ``k`` rolls, for ``k = 1, 2, ...``,
    carried from ``start`` along branches given as arrays among ``size``
    states (a target of ``size`` is the game over).

    Each state's chance moves one roll at a time; the list ends at the first
    ``k`` where the chance of being over reaches ``quantile`` (or where what
    is left in play is below ``1 - quantile``, which rounding cannot hide).
    The chain (:func:`aces.simulate.fivedice_chain.length_cdf`) and the arrays
    worked out here both end in this one walk.
    """
    mass = np.zeros(size + 1)
    mass[start] = 1.0
    over = 0.0
    left = 1.0
    cdf: list[float] = []
    while over < quantile and (left > 1 - quantile or not over) and len(cdf) < _MAX_ROLLS:
        mass = np.bincount(targets, weights=mass[sources] * chances,
                           minlength=size + 1).astype(np.float64)
        over += float(mass[size])
        mass[size] = 0.0
        left = float(mass.sum())
        cdf.append(min(over, 1.0))
    return cdf
