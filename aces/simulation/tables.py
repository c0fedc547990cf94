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
    turns: NDArray[np.int8]
    width: int
    #: Rolls to outcomes, when the rows are by outcome; ``None`` when by roll.
    outcome_of: NDArray[np.uint8] | None


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

        End state ``a`` (at index ``size + a``) is a game that ended ``a``
        rolls ago; it moves to ``a + 1``, and the last one stays.
        """
        size = len(self.nxt)
        wide = size * self.rolls <= WIDE_CELLS
        nxt, rot = self.nxt, self.rot
        if wide:
            nxt, rot = nxt[:, self.outcome_of_roll], rot[:, self.outcome_of_roll]
        width = nxt.shape[1]
        ages = np.minimum(np.arange(CHECK_EVERY + 1) + 1, CHECK_EVERY) + size
        steps = np.concatenate([nxt.astype(np.int64), np.repeat(ages[:, None], width, axis=1)])
        turns = np.concatenate([rot, np.zeros((CHECK_EVERY + 1, width), dtype=np.int8)])
        return _Flat((steps * width).astype(np.int32).ravel(), turns.ravel(), width,
                     None if wide else self.outcome_of_roll)

    def play(self, games: NDArray[np.int64], rolls: Rolls) -> Iterator[Finished]:
        """Step a batch of games to their ends, yielding those that finish.

        States are stored multiplied by the row width, so that a state plus
        a roll is the flat index of the table cell to read.
        """
        steps, turns, width, outcome_of = self._flat
        ended = len(self.nxt) * width
        state = np.full(len(games), self.start * width, dtype=np.int32)
        turned = np.zeros(len(games), dtype=np.int32)
        cell = np.empty(len(games), dtype=np.int32)
        turn = np.empty(len(games), dtype=np.int8)
        k = 0
        while len(games):
            rolled = rolls(games, k)
            if outcome_of is not None:
                rolled = np.take(outcome_of, rolled)
            np.add(state, rolled, out=cell)
            np.take(turns, cell, out=turn)
            turned += turn
            np.take(steps, cell, out=state)
            k += 1
            if k % CHECK_EVERY:
                continue
            over = state >= ended
            if not over.any():
                continue
            age = (state[over] - ended) // width
            yield Finished(games[over], turned[over].astype(np.int64) % self.seats,
                           (k - age).astype(np.int64))
            going = ~over
            games, state, turned = games[going], state[going], turned[going]
            cell, turn = cell[: len(games)], turn[: len(games)]
