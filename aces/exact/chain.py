"""Aces in the Pot as an absorbing Markov chain over chip distributions.

A state is what the rules need to know before the next roll, seen from the
player about to roll: the chips of every seat counted leftwards from the
roller, and whether this is a normal turn or the ``r``-th roll of a try.
Seeing it from the roller folds the table's rotations into one state, so
there are ``n`` times fewer of them; a *rotation* on every transition says
how many seats to the left the next roller sits, and lets the callers put
absolute seats back.

Chips in play never grow: they only leave for the pot. So the states fall
into *layers* by the chips still in play, and a roll either stays in its
layer or goes down. The solver works up from the smallest layer, and the
simulation steps games with one table look-up per roll.

Every transition comes from the rules. A normal roll is settled by
:func:`aces.rules.pot.settle` (through a table of its answers, applied to
all states at once); the tries, few in number, are decided by
:func:`aces.rules.pot.decide` and folded by :func:`aces.rules.pot.evolve`
themselves. :func:`rules_successor` does the same for any state, and the
tests check every normal transition of small tables against it.

>>> chain = build(2, 1, "last-chip")
>>> chain.size, chain.describe(chain.start)
(5, ((1, 1), 'play', 0))
>>> [chain.describe(int(s)) for s in chain.nxt[chain.start, :2]]   # nothing, an ace
[((1, 1), 'play', 0), ((1, 0), 'try', 0)]
"""

from __future__ import annotations

import math
import typing as t
from dataclasses import dataclass

import numpy as np

from aces.exact.outcomes import CHANCES, OUTCOMES, example
from aces.rules import Roll, pot
from aces.rules.seats import Seats
from aces.rules.table import opening_seating

if t.TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["SETTLE_CAP", "Chain", "Phase", "build", "rules_successor", "settle_tables",
           "state_count"]

Phase = t.Literal["play", "try"]

#: A roll of two dice moves at most two chips, so :func:`~aces.rules.pot.settle`
#: answers the same for every hand, and every count in play, beyond a few;
#: its table is built up to here and larger counts look up this row.
SETTLE_CAP: t.Final = 8

#: Rows of normal states transformed at once, to bound the memory used.
_BLOCK: t.Final = 1 << 17


def state_count(players: int, chips: int) -> int:
    """An upper bound on the states of a game, known before building it.

    The normal states are the ways to share at most ``players * chips``
    chips among the seats with at least one in the roller's hand.

    >>> state_count(8, 2)
    490362
    """
    total = players * chips
    return math.comb(total + players - 1, players) + 3 * total


@dataclass(frozen=True, eq=False)
class Chain:
    """The states of one game and, for each outcome of a roll, where each leads.

    States are numbered layer by layer, fewest chips in play first; in each
    layer the normal states come first, then the tries. Index ``size`` is
    the end of the game, won by the player who was about to roll.
    """

    players: int
    chips: int
    finish: pot.Finish
    #: Chips of each normal state, seen from the roller: ``(count, players)``.
    play: NDArray[np.int16]
    #: The state index of each row of :attr:`play`.
    play_index: NDArray[np.int64]
    #: ``layers[m]`` is the first state with ``m`` chips in play.
    layers: NDArray[np.int64]
    #: First try state (zero rolls made) of each layer, or -1.
    try_start: NDArray[np.int64]
    #: ``nxt[s, o]``: the state after a roll with outcome ``o`` in state ``s``.
    nxt: NDArray[np.int32]
    #: ``rot[s, o]``: seats to the left of the roller where the next state's
    #: roller sits (for the end of the game, where the winner sits).
    rot: NDArray[np.int8]
    #: ``_ways[i, r]``: the ways to share ``r - 1`` chips among ``i`` seats, for ranking.
    _ways: NDArray[np.int64]

    @property
    def size(self) -> int:
        """The number of states before the end; also the index of the end."""
        return len(self.nxt)

    @property
    def total(self) -> int:
        """Chips in the game."""
        return self.players * self.chips

    @property
    def start(self) -> int:
        """Everyone holds their chips, and seat 0 rolls."""
        return self.index_of((self.chips,) * self.players)

    def chances(self) -> NDArray[np.float64]:
        """The chance of each outcome, in the order of :data:`OUTCOMES`."""
        return np.array([float(CHANCES[o]) for o in OUTCOMES])

    def index_of(self, chips: tuple[int, ...]) -> int:
        """The normal state with these chips, seen from the roller."""
        return int(self._lookup(np.array([chips], dtype=np.int64))[0])

    def describe(self, index: int) -> tuple[tuple[int, ...], Phase, int]:
        """A state as chips seen from the roller, the phase and the rolls of a try."""
        layer = int(np.searchsorted(self.layers, index, side="right")) - 1
        first_try = int(self.try_start[layer])
        if first_try < 0 or index < first_try:
            row = int(np.searchsorted(self.play_index, index))
            return tuple(int(c) for c in self.play[row]), "play", 0
        return (layer,) + (0,) * (self.players - 1), "try", index - first_try

    def _lookup(self, chips: NDArray[np.int64]) -> NDArray[np.int64]:
        """The index of each normal state, worked out from its chips (see :func:`_ranks`)."""
        sums = chips.sum(axis=1, dtype=np.int64)
        if not ((chips[:, 0] >= 1) & (sums >= 2) & (sums <= self.total)).all():
            raise AssertionError("a transition leads to a state that was not enumerated")
        # last-holder: a layer's first composition, all the chips with the
        # roller, is the finish, not a normal state.
        skipped = 1 if self.finish == "last-holder" else 0
        index: NDArray[np.int64] = self.layers[sums] + _ranks(chips, sums, self._ways) - skipped
        return index

    def locate(self, state: pot.PotState) -> tuple[int, int]:
        """The chain's state for a state of the rules, and its rotation."""
        if state.phase == "over":
            assert state.winner is not None
            return self.size, state.winner
        turn = state.turn
        relative = state.chips[turn:] + state.chips[:turn]
        if state.phase == "try":
            first = int(self.try_start[state.in_play])
            assert first >= 0, "a try where the rules have none"
            assert relative[0] == state.in_play, "a try by a player who is not the holder"
            return first + state.try_rolls, turn
        assert state.phase == "play"
        return self.index_of(relative), turn


def rules_successor(chain: Chain, index: int, dice: tuple[int, int]) -> tuple[int, int]:
    """The state after ``dice`` and its rotation, as the rules decide them.

    The state is made into a :class:`~aces.rules.pot.PotState`, the roll is
    decided and its events evolved, and the result is located in the chain.
    """
    chips, phase, rolls = chain.describe(index)
    names = tuple(f"P{seat}" for seat in range(chain.players))
    state = pot.PotState(**opening_seating(names), finish=chain.finish, chips=Seats(chips),
                         pot=chain.total - sum(chips), phase=phase, try_rolls=rolls)
    for event in pot.decide(state, Roll(dice)):
        state = pot.evolve(state, event)
    return chain.locate(state)


def build(players: int, chips: int, finish: pot.Finish) -> Chain:
    """Every state of a game and every transition, from the rules.

    The caller keeps the size reasonable (see :func:`state_count`).
    """
    total = players * chips
    normal = _normal_states(players, total, finish)
    sums = normal.sum(axis=1, dtype=np.int64)
    ways = _ways_table(players, total)
    # Fewest chips first, and in each layer by rank: the states' own order.
    skipped = 1 if finish == "last-holder" else 0
    per_layer = np.bincount(sums, minlength=total + 1)
    first_normal = np.concatenate([[0], np.cumsum(per_layer)])[:-1]
    order = np.empty(len(normal), dtype=np.int64)
    order[first_normal[sums] + _ranks(normal, sums, ways) - skipped] = np.arange(len(normal))
    normal, sums = normal[order], sums[order]

    try_layers = [1] if finish == "last-chip" else list(range(1, total + 1))
    tries = np.zeros(total + 1, dtype=np.int64)
    tries[try_layers] = pot.TRY_ROLLS
    layers = np.concatenate([[0], np.cumsum(per_layer + tries)]).astype(np.int64)
    try_start = np.where(tries > 0, layers[:-1] + per_layer, -1).astype(np.int64)
    play_index = layers[sums] + np.arange(len(sums)) - first_normal[sums]
    size = int(layers[-1])
    chain = Chain(
        players=players,
        chips=chips,
        finish=finish,
        play=normal,
        play_index=play_index,
        layers=layers,
        try_start=try_start,
        nxt=np.full((size, len(OUTCOMES)), -1, dtype=np.int32),
        rot=np.zeros((size, len(OUTCOMES)), dtype=np.int8),
        _ways=ways,
    )
    _normal_moves(chain)
    for layer in try_layers:
        for rolls in range(pot.TRY_ROLLS):
            index = int(try_start[layer]) + rolls
            for o, outcome in enumerate(OUTCOMES):
                chain.nxt[index, o], chain.rot[index, o] = rules_successor(
                    chain, index, example(outcome))
    assert (chain.nxt >= 0).all()
    return chain


def _ways_table(players: int, total: int) -> NDArray[np.int64]:
    """``[i, r]``: the ways for ``i`` seats to hold ``r`` chips in all, the
    first of them one or more: ``C(r - 1 + i - 1, i - 1)``, cumulated over
    ``r`` so that :func:`_ranks` sums a run of them with one subtraction.

    Row ``i`` column ``r`` of the result is the count for every total below
    ``r``; the counts fit in 64 bits for any table small enough to solve.
    """
    ways = np.zeros((players + 1, total + 2), dtype=np.int64)
    for i in range(1, players + 1):
        for r in range(1, total + 1):
            ways[i, r + 1] = ways[i, r] + math.comb(r - 1 + i - 1, i - 1)
    return ways


def _ranks(chips: NDArray[t.Any], sums: NDArray[np.int64],
           ways: NDArray[np.int64]) -> NDArray[np.int64]:
    """The place of each row of chips among the rows with the same sum, the
    roller holding one or more, ordered by the last seat's chips, then the
    one before, and so on (the combinatorial number system): for each seat
    from the last, the rows that agree on the seats after it and hold fewer
    chips in it are counted, which is a run of :func:`_ways_table`.

    >>> chips = np.array([[2, 0], [1, 1], [3, 0], [2, 1], [1, 2]])
    >>> _ranks(chips, chips.sum(axis=1), _ways_table(2, 3)).tolist()
    [0, 1, 0, 1, 2]
    """
    players = chips.shape[1]
    left = sums.copy()
    rank = np.zeros(len(chips), dtype=np.int64)
    for seat in range(players - 1, 0, -1):
        held = chips[:, seat].astype(np.int64)
        # Rows holding v < held here leave left - v for the seats before:
        # totals from left - held + 1 to left, among ``seat`` seats.
        rank += ways[seat, left + 1] - ways[seat, left - held + 1]
        left -= held
    return rank


def _normal_states(players: int, total: int, finish: pot.Finish) -> NDArray[np.int16]:
    """Every way to share chips among the seats, the roller holding one or more.

    Built column by column: each partial row is repeated once for each
    number of chips the next seat can still hold.
    """
    rows = np.arange(1, total + 1, dtype=np.int16)[:, None]
    sums = rows[:, 0].astype(np.int64)
    for _ in range(1, players):
        counts = total - sums + 1
        parent = np.repeat(np.arange(len(rows)), counts)
        starts = np.cumsum(counts) - counts
        values = np.arange(int(counts.sum())) - np.repeat(starts, counts)
        rows = np.column_stack([rows[parent], values.astype(np.int16)])
        sums = sums[parent] + values
    # A normal turn needs two chips in play (last-chip) or two holders
    # (last-holder); otherwise the finish has begun.
    keep = sums >= 2 if finish == "last-chip" else (rows > 0).sum(axis=1) >= 2
    return rows[keep]


def settle_tables(finish: pot.Finish) -> tuple[NDArray[np.int16], NDArray[np.int16]]:
    """``settle``'s chips to the pot and to the left, by hand, chips in play, outcome."""
    shape = (SETTLE_CAP + 1, SETTLE_CAP + 1, len(OUTCOMES))
    to_pot = np.zeros(shape, dtype=np.int16)
    to_left = np.zeros(shape, dtype=np.int16)
    for held in range(1, SETTLE_CAP + 1):
        for in_play in range(held, SETTLE_CAP + 1):
            for o, outcome in enumerate(OUTCOMES):
                paid = pot.settle(held, in_play, outcome.aces, outcome.sixes,
                                  protect_last=finish == "last-chip")
                to_pot[held, in_play, o] = paid.to_pot
                to_left[held, in_play, o] = paid.to_left
    return to_pot, to_left


def _normal_moves(chain: Chain) -> None:
    """Fill in the transitions of every normal state, a block of rows at a time.

    The roll is settled, the next roller is the first seat to the left
    holding chips (the roller again if nobody else holds any), and the
    finish starts when the rules say so: one chip left, or one holder.
    """
    to_pot, to_left = settle_tables(chain.finish)
    n = chain.players
    seats = np.arange(n)
    leftwards = np.r_[1:n, 0]
    for begin in range(0, len(chain.play), _BLOCK):
        chips = chain.play[begin:begin + _BLOCK]
        index = chain.play_index[begin:begin + _BLOCK]
        in_play = chips.sum(axis=1, dtype=np.int64)
        held = np.minimum(chips[:, 0], SETTLE_CAP)
        capped = np.minimum(in_play, SETTLE_CAP)
        for o in range(len(OUTCOMES)):
            paid_pot = to_pot[held, capped, o]
            paid_left = to_left[held, capped, o]
            after = chips.copy()
            after[:, 0] -= paid_pot + paid_left
            after[:, 1] += paid_left
            left_in_play = in_play - paid_pot
            holding = after > 0
            if chain.finish == "last-chip":
                finished = left_in_play == 1
            else:
                finished = holding.sum(axis=1) == 1
            holder = holding.argmax(axis=1)
            following = leftwards[holding[:, leftwards].argmax(axis=1)]
            turn = np.where(finished, holder, following)
            relative = np.take_along_axis(after, (seats[None, :] + turn[:, None]) % n, axis=1)
            nxt = np.empty(len(chips), dtype=np.int64)
            nxt[finished] = chain.try_start[left_in_play[finished]]
            going_on = ~finished
            nxt[going_on] = chain._lookup(relative[going_on])
            chain.nxt[index, o] = nxt
            chain.rot[index, o] = turn
