"""Aces in the Pot: each player's chance from every moment, from the chain's
values where the table is small enough to solve, else estimated.

>>> odds = odds_of_table(3, {"chips": 1, "finish": "last-chip"})
>>> odds.exact, odds.players
(True, 3)
"""

from __future__ import annotations

import typing as t

import numpy as np

from aces.chances import Chances, GameOdds, random, turned
from aces.exact import QUICK_STATES, most_players
from aces.exact.chain import build, state_count
from aces.exact.solve import state_values
from aces.simulation.batch import RandomRolls, tally_each
from aces.simulation.chips import ChipEngine, ChipStarts

if t.TYPE_CHECKING:
    from collections.abc import Mapping

    from numpy.typing import NDArray

    from aces.exact.chain import Chain
    from aces.rules.pot import PotState

__all__ = ["PotOdds", "odds_of_table"]


class PotOdds(GameOdds):
    """Aces in the Pot: the chain's values for every state, or estimates."""

    chain: Chain | None

    def __init__(self, players: int, chips: int, finish: t.Any,
                 chain: Chain | None, values: NDArray[np.float64] | None) -> None:
        super().__init__(players, 1, chain, values)
        self.chips = chips
        self.finish = finish

    @classmethod
    def of(cls, players: int, chips: int, finish: t.Any) -> PotOdds:
        """Solve the table when it is small enough (as ``aces odds`` would)."""

        if players > most_players(QUICK_STATES) or state_count(players, chips) > QUICK_STATES:
            return cls(players, chips, finish, None, None)
        chain = build(players, chips, finish)
        return cls(players, chips, finish, chain, state_values(chain))

    def _holdings(self, state: PotState) -> tuple[int, ...]:
        return state.chips.as_tuple()

    def _position(self, state: PotState, seat: int | None = None) -> tuple[t.Any, ...]:
        chips = self._holdings(state)
        if seat is not None:
            return (chips, seat, "play", 0)
        return (chips, state.turn, state.phase, state.try_rolls)

    def _ended(self, state: PotState) -> int:
        assert state.winner is not None
        return state.winner

    def _look_up(self, key: tuple[t.Any, ...]) -> Chances:
        assert self.chain is not None
        assert self.values is not None
        chips, turn, phase, tries = key
        relative = chips[turn:] + chips[:turn]
        if phase == "try":
            index = int(self.chain.try_start[sum(chips)]) + tries
        else:
            index = self.chain.index_of(relative)
        return Chances(turned(self.values[index, :self.players], turn), True)

    def _rolls_left(self, key: tuple[t.Any, ...]) -> float:
        # A roll sends about a third of a chip to the pot, a little less with
        # one chip each (simulated: 3.1 rolls a chip at five chips each, 3.5 at
        # one), and the finish takes a few more.
        chips = int(sum(key[0]))
        each = max(chips / self.players, 1.0)
        return chips * (3.0 + 0.5 / each) + 5.0

    def _play_on(self, keys: list[tuple[t.Any, ...]], games: int) -> NDArray[np.int64]:
        starts = ChipStarts(hands=np.array([key[0] for key in keys], dtype=np.int64),
                            turn=np.array([key[1] for key in keys], dtype=np.int64),
                            trying=np.array([key[2] == "try" for key in keys]),
                            tries=np.array([key[3] for key in keys], dtype=np.int64),
                            each=games)
        engine = ChipEngine(self.players, self.chips, self.finish, starts)
        return tally_each(engine, len(keys), games, RandomRolls(random(), 6 * 6))


def odds_of_table(players: int, options: Mapping[str, t.Any]) -> PotOdds:
    """The odds of a table of Aces in the Pot, its options complete."""
    return PotOdds.of(players, int(options["chips"]), options["finish"])
