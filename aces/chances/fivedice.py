"""Aces, the five-dice game: each player's chance to lose from every moment,
from the chain's values where the table is small enough, else estimated.

>>> odds = odds_of_table(3, {"dice": 1, "threes": False, "threes_to": "random"})
>>> odds.exact
True
"""

from __future__ import annotations

import typing as t

import numpy as np

from aces.chances import Chances, GameOdds, random, turned
from aces.exact import fivedice_chain
from aces.simulation.batch import tally_each
from aces.simulation.fivedice import FairDice, FiveDiceEngine, Starts

if t.TYPE_CHECKING:
    from collections.abc import Mapping

    from numpy.typing import NDArray

    from aces.rules.fivedice import FiveDiceState

__all__ = ["FiveDiceOdds", "odds_of_table"]


class FiveDiceOdds(GameOdds):
    """Aces: each seat's chance to lose, from the chain when it is small."""

    chain: fivedice_chain.Chain | None

    def __init__(self, players: int, dice: int, threes: bool, threes_to: t.Any,
                 chain: fivedice_chain.Chain | None,
                 values: NDArray[np.float64] | None) -> None:
        super().__init__(players, dice, chain, values)
        self.dice = dice
        self.threes = threes
        self.threes_to = threes_to
        self._index = {held: i for i, held in enumerate(chain.states)} if chain else {}

    @classmethod
    def of(cls, players: int, dice: int, threes: bool, threes_to: t.Any) -> FiveDiceOdds:
        shape = (players, dice, threes, threes_to)
        if not fivedice_chain.solvable(*shape):
            return cls(*shape, None, None)
        chain = fivedice_chain.build(*shape)
        return cls(*shape, chain, fivedice_chain.loss_values(chain))

    def _holdings(self, state: FiveDiceState) -> tuple[int, ...]:
        return state.held.as_tuple()

    def _position(self, state: FiveDiceState, seat: int | None = None) -> tuple[t.Any, ...]:
        return (self._holdings(state), state.turn if seat is None else seat)

    def _ended(self, state: FiveDiceState) -> int:
        assert state.loser is not None
        return state.loser

    def _look_up(self, key: tuple[t.Any, ...]) -> Chances:
        assert self.values is not None
        held, turn = key
        relative = held[turn:] + held[:turn]
        return Chances(turned(self.values[self._index[relative]], turn), True)

    def _rolls_left(self, key: tuple[t.Any, ...]) -> float:
        # A die leaves for the centre after some rolls: about 2.5 with five
        # dice each, 3.8 with two, 5 with one (simulated, for 3 to 12 players).
        dice = int(sum(key[0]))
        each = min(max(dice / self.players, 1.0), 5.0)
        return dice * (2.0 + 3.0 / each)

    def _play_on(self, keys: list[tuple[t.Any, ...]], games: int) -> NDArray[np.int64]:
        starts = Starts(held=np.array([key[0] for key in keys], dtype=np.int64),
                        turn=np.array([key[1] for key in keys], dtype=np.int64),
                        each=games)
        engine = FiveDiceEngine(self.players, self.dice, self.threes, self.threes_to, starts)
        return tally_each(engine, len(keys), games, FairDice(random()))


def odds_of_table(players: int, options: Mapping[str, t.Any]) -> FiveDiceOdds:
    """The odds of a table of Aces, its options complete."""
    return FiveDiceOdds.of(players, int(options["dice"]), bool(options["threes"]),
                           options["threes_to"])
