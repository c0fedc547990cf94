"""Aces in the Pot, simulated with the transition table of its exact chain.

The table is the chain of :mod:`aces.exact.chain`: the same states, the
same transitions, made by the rules' own settle and decide. So the
simulation and the exact odds can only disagree by chance. Games too big
for a table are played by :mod:`aces.simulation.chips`. The tests play the
same dice through both engines and through :func:`aces.engine.play`, game
by game.

>>> sim = PotSimulation.create(4, {"finish": "last-holder"})
>>> sim.options
{'finish': 'last-holder', 'chips': 2}
>>> sim.run(10, seed=7).games
10
"""

from __future__ import annotations

import functools
import typing as t
from dataclasses import dataclass

import numpy as np

from aces.errors import OptionError
from aces.exact import QUICK_STATES
from aces.exact.chain import build, state_count
from aces.exact.outcomes import OUTCOME_INDEX
from aces.exact.solve import solve
from aces.rules import pot
from aces.simulation import Exact, check_seats, cores
from aces.simulation.batch import RandomRolls, tally
from aces.simulation.chips import ChipEngine
from aces.simulation.tables import TransitionTable

if t.TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from aces.exact.chain import Chain
    from aces.rules import OptionValue
    from aces.simulation.batch import Engine, Tally

__all__ = ["MAX_CHIPS", "MAX_TABLE_STATES", "PotSimulation", "table_of"]

#: Up to this many states, games are played by the chain's transition table
#: (eight players with two chips each have about 490,000); beyond, by chips.
MAX_TABLE_STATES: t.Final = QUICK_STATES
#: The most states solved for the exact answers beside a simulation, even
#: with ``--exact``: a solve without a progress bar of its own must not take
#: minutes (``aces odds`` solves larger tables, with one).
MAX_EXACT_STATES: t.Final = QUICK_STATES
#: The most chips in all a simulation takes: a game of 100 players with 10
#: chips each lasts some 4,000 rolls.
MAX_CHIPS: t.Final = 1000


@dataclass(frozen=True, eq=False)
class PotSimulation:
    """Aces in the Pot for a number of players and a set of options."""

    seats: int
    options: dict[str, OptionValue]
    game: str = pot.NAME

    @classmethod
    def create(cls, players: int, raw: Mapping[str, OptionValue]) -> PotSimulation:
        """Check the players and options against what the simulation can play.

        :raises ~aces.errors.OptionError: for what it cannot.
        """
        check_seats(players, pot.MIN_PLAYERS)
        options = pot.options(raw)
        if players * cls._chips(options) > MAX_CHIPS:
            raise OptionError(
                "the simulation takes at most {limit} chips in all, not {players} players"
                " with {chips} each", limit=MAX_CHIPS, players=players, chips=options["chips"])
        return cls(players, options)

    @staticmethod
    def _chips(options: Mapping[str, OptionValue]) -> int:
        chips = options["chips"]
        assert isinstance(chips, int)
        return chips

    @property
    def finish(self) -> pot.Finish:
        return t.cast("pot.Finish", self.options["finish"])

    @functools.cached_property
    def states(self) -> int:
        """The size of the game's chain (an upper bound), known without building it."""

        return state_count(self.seats, self._chips(self.options))

    @functools.cached_property
    def chain(self) -> Chain:
        return build(self.seats, self._chips(self.options), self.finish)

    @functools.cached_property
    def engine(self) -> Engine:
        """The transition table when the chain is small enough, else the chips engine."""

        if self.states <= MAX_TABLE_STATES:
            return table_of(self.chain)
        return ChipEngine(self.seats, self._chips(self.options), self.finish)

    def run(self, games: int, seed: int, progress: Callable[[int], None] | None = None,
            jobs: int | None = None) -> Tally:
        """Play ``games`` games with dice from ``seed``, on ``jobs`` cores
        (default: all); the answers are the same on any number
        (:mod:`aces.simulation.cores`)."""
        return cores.run(self, games, seed, progress, jobs)

    def play(self, games: int, rng: np.random.Generator,
             progress: Callable[[int], None] | None = None) -> Tally:
        """Play ``games`` games with dice from ``rng``, here."""

        return tally(self.engine, games, RandomRolls(rng, len(OUTCOME_INDEX)), progress)

    def solvable(self) -> bool:
        """Whether the game is small enough to solve beside a simulation."""
        return self.states <= MAX_EXACT_STATES

    def exact(self, most_states: int | None = None) -> Exact | None:
        """The chain's solution, when it is small enough for ``aces odds``."""

        limit = MAX_EXACT_STATES if most_states is None else min(most_states, MAX_EXACT_STATES)
        if self.states > limit:
            return None
        answer = solve(self.chain)
        return Exact(answer.win_by_seat, answer.expected_rolls, answer.sd_rolls)


def table_of(chain: Chain) -> TransitionTable:
    """The simulation's table: the chain's transitions, rolls mapped to outcomes."""

    return TransitionTable(
        seats=chain.players,
        nxt=chain.nxt,
        rot=chain.rot,
        start=chain.start,
        outcome_of_roll=np.array(OUTCOME_INDEX, dtype=np.uint8),
    )
