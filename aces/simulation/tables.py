"""Many games at once, one table look-up per roll.

A game whose states fit in a table (see :mod:`aces.exact.chain`) is played
by keeping, for every game of a batch, one integer: its state. A roll is a
random number; the table says the next state and how far round the table
the next roller sits. All the games of a batch take the same step
together with NumPy's integer indexing, and finished games are dropped
every few rolls, so the work follows the games still running.

A finished game must still say when it finished. It enters an *end* state
that counts the rolls since: the game's length is the roll count at the
check minus that age, exact to the roll, with no counter to update.

>>> import numpy as np
>>> from aces.simulation.batch import ScriptedRolls, play_each
>>> # One state: a roll of 0 ends the game, anything else starts it over.
>>> table = TransitionTable(seats=1, nxt=np.array([[1, 0]], dtype=np.int32),
...               rot=np.zeros((1, 2), dtype=np.int8), start=0,
...               outcome_of_roll=np.array([0, 1, 1], dtype=np.uint8))
>>> games = play_each(table, ScriptedRolls(np.array([[1, 2, 0], [0, 0, 0]])))
>>> games.lengths.tolist(), games.winners.tolist()
([3, 1], [0, 0])
"""

from __future__ import annotations

import functools
import typing as t
from dataclasses import dataclass

import numpy as np

from aces.simulation.batch import Finished

if t.TYPE_CHECKING:
    from collections.abc import Iterator

    from numpy.typing import NDArray

    from aces.simulation.batch import Rolls

__all__ = ["CHECK_EVERY", "WIDE_CELLS", "TransitionTable"]

#: Rolls between two sweeps for finished games.
CHECK_EVERY: t.Final = 8
#: Tables up to this many cells are spread out by roll, saving a look-up per
#: roll; larger ones stay by outcome, to keep them small and quick to build.
WIDE_CELLS: t.Final = 1 << 22


class _Flat(t.NamedTuple):
    """The tables as the stepping loop reads them."""

    #: Next state times the row width, by ``state * width + column``.
    steps: NDArray[np.int32]
    #: Seats turned by each step; ``None`` when the states carry the turn
    #: themselves (see :attr:`Table._flat`).
    turns: NDArray[np.int8] | None
    width: int
    #: Rolls to outcomes, when the rows are by outcome; ``None`` when by roll.
    outcome_of: NDArray[np.uint8] | None
    #: Where the end states start, times the width.
    ended: int
    #: The first state, times the width.
    start: int


@dataclass(frozen=True, eq=False)
class TransitionTable:
    """A game as a transition table over its states.

    ``nxt[s, o]`` is the state after outcome ``o`` in state ``s``, where
    the number of states (``len(nxt)``) means the game is over, won by the
    player who made that roll. ``rot[s, o]`` is how many seats to the left
    the next state's roller (or the winner) sits. A roll is a uniform
    number below ``len(outcome_of_roll)``, which maps it to its outcome.
    """

    seats: int
    nxt: NDArray[np.int32]
    rot: NDArray[np.int8]
    start: int
    outcome_of_roll: NDArray[np.uint8]

    @property
    def rolls(self) -> int:
        """How many equally likely rolls there are."""
        return len(self.outcome_of_roll)

    @functools.cached_property
    def _flat(self) -> _Flat:
        """The tables flattened, with the end states added.

        A small table carries the turn in its states: state ``s`` with the
        roller ``r`` seats from the first is row ``s * seats + r``, so that a
        roll costs one look-up and nothing more. End state ``a`` (``a``
        rolls since the game ended) is then a row for each winner; it moves
        to ``a + 1``, and the last one stays. A large table keeps its rows
        and a separate table of the seats each step turns.
        """
        size = len(self.nxt)
        carried = size * self.seats * len(self.outcome_of_roll) <= WIDE_CELLS
        wide = size * self.rolls * (self.seats if carried else 1) <= WIDE_CELLS
        nxt, rot = self.nxt.astype(np.int64), self.rot.astype(np.int64)
        if wide:
            nxt, rot = nxt[:, self.outcome_of_roll], rot[:, self.outcome_of_roll]
        width = nxt.shape[1]
        ages = np.minimum(np.arange(CHECK_EVERY + 1) + 1, CHECK_EVERY)
        if not carried:
            steps = np.concatenate([nxt, np.repeat(ages[:, None] + size, width, axis=1)])
            turns = np.concatenate([rot, np.zeros((CHECK_EVERY + 1, width), dtype=np.int64)])
            return _Flat((steps * width).astype(np.int32).ravel(), turns.astype(np.int8).ravel(),
                         width, None if wide else self.outcome_of_roll, size * width,
                         self.start * width)
        n = self.seats
        # Row (s, r): the next state, its roller r + rot seats on; the end's
        # rows, by winner, follow all the states.
        turned = (np.arange(n)[None, :, None] + rot[:, None, :]) % n
        following = np.where(nxt[:, None, :] < size, nxt[:, None, :] * n + turned,
                             size * n + turned)
        ended = (size * n + ages[:, None] * n + np.arange(n)[None, :])[:, :, None]
        steps = np.concatenate([following.reshape(size * n, width),
                                np.broadcast_to(ended, (CHECK_EVERY + 1, n, width)).reshape(
                                    (CHECK_EVERY + 1) * n, width)])
        return _Flat((steps * width).astype(np.int32).ravel(), None, width,
                     None if wide else self.outcome_of_roll, size * n * width,
                     self.start * n * width)

    def play(self, games: NDArray[np.int64], rolls: Rolls) -> Iterator[Finished]:
        """Step a batch of games to their ends, yielding those that finish.

        States are stored multiplied by the row width, so that a state plus
        a roll is the flat index of the table cell to read.
        """
        steps, turns, width, outcome_of, ended, start = self._flat
        n = self.seats
        state = np.full(len(games), start, dtype=np.int32)
        turned = np.zeros(len(games), dtype=np.int32)
        cell = np.empty(len(games), dtype=np.int32)
        turn = np.empty(len(games), dtype=np.int8)
        k = 0
        while len(games):
            rolled = rolls(games, k)
            if outcome_of is not None:
                rolled = np.take(outcome_of, rolled)
            np.add(state, rolled, out=cell)
            if turns is not None:
                np.take(turns, cell, out=turn)
                turned += turn
            np.take(steps, cell, out=state)
            k += 1
            if k % CHECK_EVERY:
                continue
            over = state >= ended
            if not over.any():
                continue
            end = (state[over].astype(np.int64) - ended) // width
            if turns is None:
                age, winner = end // n, end % n
            else:
                age, winner = end, turned[over].astype(np.int64) % n
            yield Finished(games[over], winner, k - age)
            going = ~over
            games, state = games[going], state[going]
            if turns is not None:
                turned = turned[going]
            cell, turn = cell[: len(games)], turn[: len(games)]
