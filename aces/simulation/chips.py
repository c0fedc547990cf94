"""Many games at once, each held as its chips: for games too big for a table.

With many players the states of a game are too many to list (twelve
players with two chips each have more than 800 million), so each game of a
batch is kept as the chips of every seat, whose turn it is, and how far a
try has got, and every roll updates all the games of the batch together.
A normal roll is settled through the table of
:func:`aces.rules.pot.settle`'s answers that the chain uses; the order of
turns and the finish follow :func:`aces.rules.pot.decide`, and the tests
play the same dice through this engine and :func:`aces.engine.play`, game
by game.

>>> import numpy as np
>>> from aces.simulation.batch import ScriptedRolls, play_each
>>> # Two players with a chip each: seat 0 rolls 1-3, its chip goes to the
>>> # pot, and seat 1 holds the last chip; 2-2, 3-3, 4-4 win the try.
>>> codes = [6 * (a - 1) + (b - 1) for a, b in [(1, 3), (2, 2), (3, 3), (4, 4)]]
>>> game = play_each(ChipEngine(2, 1, "last-chip"), ScriptedRolls(np.array([codes])))
>>> game.winners.tolist(), game.lengths.tolist()
([1], [4])
"""

from __future__ import annotations

import typing as t
from dataclasses import dataclass

import numpy as np

from aces.exact.chain import SETTLE_CAP, settle_tables
from aces.exact.outcomes import OUTCOME_INDEX, OUTCOMES
from aces.rules.pot import TRY_ROLLS
from aces.simulation.batch import Finished, next_holder

if t.TYPE_CHECKING:
    from collections.abc import Iterator

    from numpy.typing import NDArray

    from aces.rules import pot
    from aces.simulation.batch import Rolls

__all__ = ["CHECK_EVERY", "ChipEngine", "ChipStart", "ChipStarts"]

#: Rolls between two sweeps for finished games.
CHECK_EVERY: t.Final = 8

_OUTCOME: t.Final = np.array(OUTCOME_INDEX, dtype=np.intp)
_SIXES: t.Final = np.array([o.sixes for o in OUTCOMES], dtype=np.int16)


class ChipStart(t.NamedTuple):
    """A position to play games on from: chips by seat, the roller, the try so far."""

    hands: tuple[int, ...]
    turn: int
    trying: bool = False
    tries: int = 0


class ChipStarts(t.NamedTuple):
    """Many positions to play games on from, ``each`` games from each: game
    ``g`` starts from row ``g // each`` of every field (chips by seat, the
    roller, whether a try is on and how far it has got)."""

    hands: NDArray[np.int64]
    turn: NDArray[np.int64]
    trying: NDArray[np.bool_]
    tries: NDArray[np.int64]
    each: int


@dataclass(frozen=True, eq=False)
class ChipEngine:
    """Aces in the Pot for any number of players, one array row per game."""

    seats: int
    chips: int
    finish: pot.Finish
    #: Where every game starts, or many such positions (:class:`ChipStarts`);
    #: ``None``: everyone holds ``chips``, seat 0 rolls.
    start: ChipStart | ChipStarts | None = None

    def play(self, games: NDArray[np.int64], rolls: Rolls) -> Iterator[Finished]:
        """Play a batch of games to their ends, yielding them as they finish."""
        batch = _Batch(self, games)
        k = 0
        while len(games):
            outcome = _OUTCOME[rolls(games, k)]
            k += 1
            batch.roll(outcome, k)
            if k % CHECK_EVERY == 0:
                done = batch.over_at > 0
                if done.any():
                    yield Finished(games[done], batch.turn[done], batch.over_at[done])
                    games = games[~done]
                    batch.keep(~done)


class _Batch:
    """The games of a batch: chips by seat, turn, phase, and when each ended."""

    def __init__(self, engine: ChipEngine, numbers: NDArray[np.int64]) -> None:
        self.engine = engine
        self.to_pot, self.to_left = settle_tables(engine.finish)
        n = engine.seats
        games = len(numbers)
        start = engine.start or ChipStart((engine.chips,) * n, 0)
        if isinstance(start, ChipStarts):
            rows = numbers // start.each
            self.hands = start.hands[rows].astype(np.int16)
            #: The roller, the holder making a try, or (once over) the winner.
            self.turn = start.turn[rows].astype(np.int64)
            self.trying = start.trying[rows].astype(bool)
            self.tries = start.tries[rows].astype(np.int64)
        else:
            self.hands = np.tile(np.array(start.hands, dtype=np.int16), (games, 1))
            self.turn = np.full(games, start.turn, dtype=np.int64)
            self.trying = np.full(games, start.trying, dtype=bool)
            self.tries = np.full(games, start.tries, dtype=np.int64)
        self.in_play = self.hands.sum(axis=1, dtype=np.int64)
        self.holders = (self.hands > 0).sum(axis=1, dtype=np.int64)
        #: The roll that ended the game; 0 while it goes on.
        self.over_at = np.zeros(games, dtype=np.int64)

    def keep(self, rows: NDArray[np.bool_]) -> None:
        for name in ("hands", "in_play", "holders", "turn", "trying", "tries", "over_at"):
            setattr(self, name, getattr(self, name)[rows])

    def roll(self, outcome: NDArray[np.intp], k: int) -> None:
        """Roll ``k`` of every game still going: normal turns and tries alike."""
        going = self.over_at == 0
        turns = np.flatnonzero(going & ~self.trying)
        tries = np.flatnonzero(going & self.trying)
        if len(turns):
            self._turns(turns, outcome[turns])
        if len(tries):
            self._tries(tries, outcome[tries], k)

    def _turns(self, rows: NDArray[np.intp], outcome: NDArray[np.intp]) -> None:
        n = self.engine.seats
        hands = self.hands
        roller = self.turn[rows]
        left = (roller + 1) % n
        held = hands[rows, roller].astype(np.int64)
        in_play = self.in_play[rows]
        capped_held = np.minimum(held, SETTLE_CAP)
        capped_play = np.minimum(in_play, SETTLE_CAP)
        to_pot = self.to_pot[capped_held, capped_play, outcome]
        to_left = self.to_left[capped_held, capped_play, outcome]
        kept = held - to_pot - to_left
        before = hands[rows, left]
        hands[rows, roller] = kept
        hands[rows, left] = before + to_left
        in_play = in_play - to_pot
        self.in_play[rows] = in_play
        holders = self.holders[rows] + ((before == 0) & (to_left > 0)) - (kept == 0)
        self.holders[rows] = holders
        # The finish starts with one chip left (last-chip) or one holder.
        finished = in_play == 1 if self.engine.finish == "last-chip" else holders == 1
        if finished.any():
            start = rows[finished]
            self.turn[start] = np.argmax(hands[start] > 0, axis=1)
            self.trying[start] = True
            self.tries[start] = 0
        going = rows[~finished]
        self.turn[going] = next_holder(hands, going, left[~finished])

    def _tries(self, rows: NDArray[np.intp], outcome: NDArray[np.intp], k: int) -> None:
        sixes = _SIXES[outcome]
        safe = rows[sixes == 0]
        self.tries[safe] += 1
        self.over_at[safe[self.tries[safe] == TRY_ROLLS]] = k
        failed, sixes = rows[sixes > 0], sixes[sixes > 0]
        if not len(failed):
            return
        holder = self.turn[failed]
        left = (holder + 1) % self.engine.seats
        held = self.hands[failed, holder]
        # last-chip: the one chip goes left; last-holder: one chip per six.
        passed = np.ones_like(held) if self.engine.finish == "last-chip" \
            else np.minimum(sixes, held)
        self.hands[failed, holder] = held - passed
        self.hands[failed, left] += passed
        self.turn[failed] = left
        self.tries[failed] = 0
        resumed = held > passed
        self.trying[failed[resumed]] = False
        self.holders[failed[resumed]] = 2
