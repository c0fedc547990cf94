"""How long a game of Aces lasts, exactly, for tables far too big for the chain of the rules.

:mod:`aces.exact.fivedice_chain` settles every branch of every state
through the rules, which is what keeps it honest and what limits it: a
full game, four players with five dice each, has 886,259 branches, and
five players with five dice 23 million. The length of a game needs no
branch on its own, only the chance of each state, carried forward one
roll at a time; and a roll need not be listed as all the ways its dice
can fall at once. Each die falls on its own, so a roll is a few binomial
splits in a row, one for each place a die can go (:func:`_places`):

- the roller's 2s go to the left, 5s to the right, 1s to the centre;
- with threes given at ``random``, each 3 goes to any other player alike,
  so each seat's share of the roll is one split; given to the player
  holding the ``fewest`` or ``most`` dice, the 3s wait until the other
  dice have moved and then go one at a time, as
  :func:`aces.rules.fivedice.choose` gives them;
- the last die in the centre ends the game; the roller rolls again if a
  die left the hand and they still hold one; else the next player to the
  left who holds dice rolls.

Between splits the chance is kept per position (the dice of every seat
counted from the roller, the 3s still to give, and whether a die left
the hand), so equal positions reached in different ways are one entry:
five players with five dice each have 118,755 states and 3.7 million
entries in the splits of a roll, not 23 million branches.

Each seat's chance to lose comes the same way, with the chance kept
apart for each seat of the roller (counted from the player who rolls
first): the roll that ends the game is lost by the roller's seat. It
costs as many times the length as there are players, so it is worked
out only for smaller tables (``solvable(..., by_seat=True)``: four
players with five dice each, not five).

These are the rules of :func:`aces.rules.fivedice.decide` written for
arrays, and the tests hold them to it: one roll from states of tables of
several sizes, with and without threes and for every policy, gives the
next states with the chances of the rules' own branches, and the whole
length is the chain's wherever the chain can be built.

How exact: the chance of every length is carried until what is not yet
over is below :data:`TOLERANCE` (1e-12); that rest is reported as the
chance of a longer game, and the mean is short by about the rest times a
few hundred rolls (below 1e-9). The chances are floating point, each good
to some 1e-15. A table whose roll has more than :data:`MAX_ENTRIES`
entries (about, :func:`entry_count`) or more than :data:`MAX_STATES`
states is not worked out, which :func:`solvable` says before listing
anything: six players with five dice each, or five with six.

>>> lengths = length_cdf(4, 5)
>>> round(lengths.mean, 2), lengths.quantile(0.5), lengths.rest < 1e-12
(48.58, 47, True)
"""

from __future__ import annotations

import functools
import math
import typing as t
from dataclasses import dataclass

import numpy as np

if t.TYPE_CHECKING:
    from numpy.typing import NDArray

    from aces.rules.fivedice import Policy

__all__ = [
    "MAX_ENTRIES",
    "MAX_STATES",
    "TOLERANCE",
    "Flow",
    "Lengths",
    "cost",
    "entry_count",
    "flow",
    "length_cdf",
    "solvable",
    "solved",
    "state_count",
]

#: What is left not yet over when the carrying stops: the chance of a
#: longer game than the distribution lists.
TOLERANCE: t.Final = 1e-12
#: The most states worked out (five players with five dice each: 118,755).
MAX_STATES: t.Final = 400_000
#: The most entries (:func:`entry_count`) in the splits of one roll: each
#: takes 16 bytes, and a roll is carried through a million of them in some
#: 3 ms of one core, so a game of about 250 rolls to the tolerance in some
#: 8 s (five players with five dice and threes: 6 s and 200 to 300 MiB at
#: the peak, measured in tests/benchmarks/lengths.py).
MAX_ENTRIES: t.Final = 10_000_000
#: The most rolls a game is followed for (far past any table's tail).
_MAX_ROLLS: t.Final = 100_000


class Lengths(t.NamedTuple):
    """The length of a game in rolls (rolls again included, the opening not)."""

    #: ``cdf[k - 1]``: the chance that the game is over within ``k`` rolls.
    cdf: list[float]
    #: The chance that it is not over within ``len(cdf)`` rolls.
    rest: float
    #: The expected number of turns, a turn being the rolls of one player in a row.
    turns: float
    #: The chance that each seat loses, counted from the player who rolls first
    #: (``None`` where not asked for); their sum is ``1 - rest``.
    losses: list[float] | None = None

    @property
    def chances(self) -> list[float]:
        """``chances[k - 1]``: the chance of a game of exactly ``k`` rolls."""
        return [b - a for a, b in zip([0.0, *self.cdf], self.cdf, strict=False)]

    @property
    def mean(self) -> float:
        """The expected length; what is left unknown is below :data:`TOLERANCE`."""
        return sum(k * p for k, p in enumerate(self.chances, 1))

    @property
    def sd(self) -> float:
        mean = self.mean
        return math.sqrt(max(0.0, sum(k * k * p for k, p in enumerate(self.chances, 1))
                             - mean * mean))

    def quantile(self, q: float) -> int | None:
        """The smallest length whose chance of a game at most that long reaches ``q``."""
        return next((k for k, p in enumerate(self.cdf, 1) if p >= q - 1e-12), None)


class _Step(t.NamedTuple):
    """One split of a roll. Positions keep their index and grow by ``size``; each keeps
    ``stays`` of its chance (all of it where ``None``), and the chance in ``sources``
    moves to ``targets`` with ``chances``: only dice that move cost an entry."""

    stays: NDArray[np.float64] | None
    sources: NDArray[np.int32]
    targets: NDArray[np.int32]
    chances: NDArray[np.float64]
    size: int


@dataclass(frozen=True, eq=False)
class Flow:
    """A table's roll as splits over positions, ready to carry chances forward."""

    players: int
    #: Dice of each seat, counted from the roller.
    states: NDArray[np.int64]
    start: int
    steps: list[_Step]
    #: Where each position reached by the last step goes: a state, or
    #: ``len(states)`` when the game is over.
    ends: NDArray[np.int32]
    #: Whether each position reached by the last step ends the roller's turn.
    ends_turn: NDArray[np.bool_]
    #: The seat of the next roller from this one, for each position reached by
    #: the last step (0 when the roller rolls again, or loses).
    turned: NDArray[np.int64]

    @property
    def entries(self) -> int:
        """The numbers one roll reads: the measure of its time and memory."""
        return sum(len(step.sources) + (0 if step.stays is None else len(step.stays))
                   for step in self.steps) + len(self.ends)

    def roll(self, mass: NDArray[np.float64]) -> tuple[NDArray[np.float64], float]:
        """The chance of each state after one more roll (``len(states)``: over), from
        ``mass``, the chance of each state before; and the chance that the roll ends a turn.

        ``mass`` may also have a row for each seat of the roller, counted from the
        player who rolled first: then the next roller's seat is followed too, and
        the chance of the game over is the chance that the roller's seat loses.
        """
        rows = mass.reshape(-1, mass.shape[-1])
        for step in self.steps:
            moved = np.empty((len(rows), step.size))
            for row, before in enumerate(rows):
                moved[row] = np.bincount(step.targets, weights=before[step.sources] * step.chances,
                                         minlength=step.size)
            moved[:, :rows.shape[1]] += rows if step.stays is None else rows * step.stays
            rows = moved
        turns = float(rows[:, self.ends_turn].sum())
        size = len(self.states) + 1
        if mass.ndim == 1:
            return np.bincount(self.ends, weights=rows[0], minlength=size).astype(np.float64), turns
        seats = (np.arange(self.players)[:, None] + self.turned[None, :]) % self.players
        after = np.bincount((seats * size + self.ends[None, :]).ravel(), weights=rows.ravel(),
                            minlength=self.players * size)
        return after.reshape(self.players, size).astype(np.float64), turns

    def lengths(self, tolerance: float = TOLERANCE, by_seat: bool = False) -> Lengths:
        """The length of a game from the start, carried until less than ``tolerance``
        is not over; ``by_seat``, each seat's chance to lose too, at ``players`` times
        the cost."""
        size = len(self.states)
        mass = np.zeros((self.players, size + 1) if by_seat else size + 1)
        mass.reshape(-1, size + 1)[0, self.start] = 1.0
        losses = np.zeros(self.players)
        over = 0.0
        left = 1.0
        turns = 0.0
        cdf: list[float] = []
        while left >= tolerance and len(cdf) < _MAX_ROLLS:
            mass, ended = self.roll(mass[..., :size])
            turns += ended
            losses += mass[..., size]
            over += float(mass[..., size].sum())
            left = float(mass[..., :size].sum())
            cdf.append(min(over, 1.0))
        return Lengths(cdf, max(0.0, left), turns,
                       [float(p) for p in losses] if by_seat else None)


def state_count(players: int, dice: int) -> int:
    """The states of a table: the roller holds a die, and some dice are in play.

    >>> state_count(3, 1), state_count(5, 5)
    (10, 118755)
    """
    return math.comb(players * dice + players - 1, players)


def entry_count(players: int, dice: int, threes: bool = False,
                threes_to: Policy = "random") -> int:
    """About how many entries a roll's splits have, known without listing them.

    Each split reads every die in the roller's hand, over about twice the
    states (a die has left the hand or not yet), and every position once.
    Measured, this is within a fifth of the count for the tables tried.

    >>> entry_count(5, 5), flow(4, 5).entries <= entry_count(4, 5)
    (5937750, True)
    """
    in_hand = sum(k * math.comb(in_play - k + players - 2, players - 2)
                  for in_play in range(1, players * dice + 1) for k in range(1, in_play + 1))
    splits = len(_places(players, threes, threes_to)) + (threes and threes_to != "random")
    return in_hand * (2 * splits + 4)


def solvable(players: int, dice: int, threes: bool = False, threes_to: Policy = "random",
             by_seat: bool = False) -> bool:
    """Whether the table is small enough to work out here, ``by_seat`` at ``players``
    times the cost; say no before listing anything.

    >>> solvable(5, 5, threes=True), solvable(5, 5, by_seat=True), solvable(4, 5, by_seat=True)
    (True, False, True)
    >>> solvable(6, 5), solvable(100, 10)
    (False, False)
    """
    if state_count(players, dice) > MAX_STATES:
        return False
    cost = entry_count(players, dice, threes, threes_to) * (players if by_seat else 1)
    return cost <= MAX_ENTRIES


def flow(players: int, dice: int, threes: bool = False,
         threes_to: Policy = "random") -> Flow:
    """The splits of a roll at a table; the caller keeps it small (:func:`solvable`)."""
    total = players * dice
    # A position is a key: the dice of each seat from the roller, the 3s still to give
    # and whether any die left the hand, as digits of one number: a move is a sum.
    moved = players + 1
    weights = (total + 1) ** np.arange(players + 2, dtype=np.int64)
    states = np.unique(_states(players, total) @ weights[:players])
    keys = states
    steps: list[_Step] = []
    # Each die of the roll, one after the other kind: the chance it goes where, given
    # that it went to none of the places before.
    undecided = 1.0
    for target, chance in _places(players, threes, threes_to):
        keys, step = _split(keys, weights, target, chance / undecided, moved)
        undecided -= chance
        steps.append(step)
    if threes and threes_to != "random":
        keys, step = _choose(keys, weights, players, threes_to)
        steps.append(step)
    held = _digits(keys, weights)[:, :players]
    ends, ends_turn, turned = _settle(held, _digit(keys, weights, moved) > 0, states,
                                      weights[:players])
    rows = _digits(states, weights)[:, :players]
    start = int(np.flatnonzero(np.all(rows == dice, axis=1))[0])
    return Flow(players, rows, start, steps, ends, ends_turn, turned)


def _places(players: int, threes: bool, threes_to: Policy) -> list[tuple[int | None, float]]:
    """Where a die rolled goes (a seat from the roller, ``None`` for the centre, or
    ``players`` for a 3 still to give), with its chance; it stays in the hand else.

    A 2 goes left, a 5 right, a 1 to the centre, each with chance 1/6. A 3 given
    at random goes to each other player alike, so that a seat's dice are counted
    together whatever face brought them; given by ``fewest`` or ``most``, it
    waits until the roll's other dice have moved.

    >>> _places(3, threes=True, threes_to="random")
    [(1, 0.25), (2, 0.25), (None, 0.16666666666666666)]
    """
    sixth = 1 / 6
    if not threes:
        return [(1, sixth), (players - 1, sixth), (None, sixth)]
    if threes_to != "random":
        return [(1, sixth), (players - 1, sixth), (None, sixth), (players, sixth)]
    share = sixth / (players - 1)
    return [*[(seat, share + sixth * (seat in (1, players - 1))) for seat in range(1, players)],
            (None, sixth)]


def length_cdf(players: int, dice: int, threes: bool = False, threes_to: Policy = "random",
               tolerance: float = TOLERANCE, by_seat: bool = False) -> Lengths:
    """The length of a game at a table, carried until less than ``tolerance`` is not
    over; ``by_seat``, each seat's chance to lose too."""
    return flow(players, dice, threes, threes_to).lengths(tolerance, by_seat)


@functools.lru_cache(maxsize=8)
def solved(players: int, dice: int, threes: bool = False,
           threes_to: Policy = "random") -> Lengths | None:
    """Everything worked out for a table, once: its length, and each seat's chance
    to lose where that costs little enough; ``None`` for a table too big.

    The one source of the exact values of tables too big for the chain, for
    ``aces stats`` and ``aces simulate`` alike; a few tables are kept, as the
    biggest take seconds.
    """
    if not solvable(players, dice, threes, threes_to):
        return None
    by_seat = solvable(players, dice, threes, threes_to, by_seat=True)
    return length_cdf(players, dice, threes, threes_to, by_seat=by_seat)


def cost(players: int, dice: int, threes: bool = False, threes_to: Policy = "random") -> int:
    """About how many entries :func:`solved` reads a roll, each seat's chance to
    lose included where it is worked out: the measure of its time.

    >>> cost(4, 5), cost(5, 5)
    (1700160, 5937750)
    """
    by_seat = solvable(players, dice, threes, threes_to, by_seat=True)
    return entry_count(players, dice, threes, threes_to) * (players if by_seat else 1)


def _compositions(total: int, parts: int) -> NDArray[np.int64]:
    """Every way to write ``total`` as ``parts`` counts."""
    if parts == 1:
        return np.array([[total]], dtype=np.int64)
    rows = [np.hstack([np.full((len(rest), 1), first, dtype=np.int64), rest])
            for first in range(total, -1, -1)
            for rest in [_compositions(total - first, parts - 1)]]
    return np.vstack(rows)


def _states(players: int, total: int) -> NDArray[np.int64]:
    """The roller holds a die; from one die in play to all of them."""
    return np.vstack([rows[rows[:, 0] > 0] for in_play in range(1, total + 1)
                      for rows in [_compositions(in_play, players)]])


def _digit(keys: NDArray[np.int64], weights: NDArray[np.int64],
           column: int) -> NDArray[np.int64]:
    digit: NDArray[np.int64] = (keys // weights[column]) % weights[1]
    return digit


def _digits(keys: NDArray[np.int64], weights: NDArray[np.int64]) -> NDArray[np.int64]:
    digits: NDArray[np.int64] = (keys[:, None] // weights[None, :]) % weights[1]
    return digits


def _split(keys: NDArray[np.int64], weights: NDArray[np.int64], target: int | None,
           chance: float, moved: int) -> tuple[NDArray[np.int64], _Step]:
    """Each die in the roller's hand goes to column ``target`` (``None``: out of the
    game) with ``chance``, each die on its own: a binomial split of every position.
    A position some die left is marked in column ``moved``."""
    have = _digit(keys, weights, 0)
    top = int(have.max(initial=0))
    ways = np.array([[math.comb(n, j) for j in range(top + 1)] for n in range(top + 1)],
                    dtype=np.float64)
    shift = (0 if target is None else int(weights[target])) - int(weights[0])
    mark = (_digit(keys, weights, moved) == 0) * weights[moved]
    moves: list[NDArray[np.int64]] = []
    sources: list[NDArray[np.int32]] = []
    chances: list[NDArray[np.float64]] = []
    for j in range(1, top + 1):
        where = np.flatnonzero(have >= j).astype(np.int32)
        n = have[where]
        moves.append(keys[where] + mark[where] + j * shift)
        sources.append(where)
        chances.append(ways[n, j] * chance**j * (1 - chance) ** (n - j))
    return _grown(keys, moves, sources, chances, (1 - chance) ** have.astype(np.float64))


def _grown(keys: NDArray[np.int64], moved: list[NDArray[np.int64]],
           sources: list[NDArray[np.int32]], chances: list[NDArray[np.float64]],
           stays: NDArray[np.float64] | None) -> tuple[NDArray[np.int64], _Step]:
    """The positions after a split: those before, then the new ones ``moved`` reached."""
    reached = np.concatenate([np.empty(0, dtype=np.int64), *moved])
    grown = np.concatenate([keys, np.setdiff1d(reached, keys)])
    order = np.argsort(grown)
    targets = order[np.searchsorted(grown, reached, sorter=order)].astype(np.int32)
    step = _Step(stays, np.concatenate([np.empty(0, dtype=np.int32), *sources]), targets,
                 np.concatenate([np.empty(0), *chances]), len(grown))
    return grown, step


def _choose(keys: NDArray[np.int64], weights: NDArray[np.int64], players: int,
            policy: Policy) -> tuple[NDArray[np.int64], _Step]:
    """The 3s on their way go one at a time to the other player holding the fewest
    (or most) dice, the first from the roller's left on a tie, as
    :func:`aces.rules.fivedice.choose` gives them."""
    giving = np.flatnonzero(_digit(keys, weights, players) > 0).astype(np.int32)
    rows = _digits(keys[giving], weights)
    pick = np.argmin if policy == "fewest" else np.argmax
    while (left := np.flatnonzero(rows[:, players] > 0)).size:
        receiver = pick(rows[left, 1:players], axis=1) + 1
        rows[left, receiver] += 1
        rows[left, players] -= 1
    stays = np.ones(len(keys))
    stays[giving] = 0.0
    return _grown(keys, [rows @ weights], [giving], [np.ones(len(giving))], stays)


def _settle(held: NDArray[np.int64], moved: NDArray[np.bool_], keys: NDArray[np.int64],
            weights: NDArray[np.int64],
            ) -> tuple[NDArray[np.int32], NDArray[np.bool_], NDArray[np.int64]]:
    """Where each position's roll ends: over, the roller again, or the next holder to
    the left, as the state of that roller among the states' sorted ``keys``; whether
    the turn ends; and the next roller's seat from this roller."""
    players, size = held.shape[1], len(keys)
    over = held.sum(axis=1) == 0
    again = moved & (held[:, 0] > 0)
    holds = held[:, np.r_[1:players, 0]] > 0
    nxt = np.where(again, 0, (np.argmax(holds, axis=1) + 1) % players)
    seats = np.arange(players)
    turned = held[np.arange(len(held))[:, None], (seats[None, :] + nxt[:, None]) % players]
    wanted = turned @ weights
    found = np.minimum(np.searchsorted(keys, wanted), size - 1)
    assert np.array_equal(keys[found][~over], wanted[~over]), "a state not in the table"
    return np.where(over, size, found).astype(np.int32), ~again, np.where(over, 0, nxt)
