"""Aces in the Pot played out by the rules themselves: every roll of every game, to a depth.

The exact odds are held against this. Equal states are merged, so the
enumeration is exhaustive but small.
"""

from __future__ import annotations

import typing as t

import msgspec

from aces.events import SCHEMA, GameStarted
from aces.exact.outcomes import ROLLS
from aces.rules import Roll, pot

if t.TYPE_CHECKING:
    from collections.abc import Mapping

    from aces.rules import OptionValue

#: What tells two states apart, for merging their chances.
Key = tuple[tuple[int, ...], str, int, int]


def table(players: int, options: Mapping[str, OptionValue], **fields: t.Any) -> pot.PotState:
    """The state the rules start ``players`` players (P0, P1...) in, with ``fields``
    replaced: ``phase="play", turn=0`` skips the opening."""
    names = tuple(f"P{seat}" for seat in range(players))
    header = GameStarted(schema=SCHEMA, game="pot", players=names, options=pot.options(options))
    return msgspec.structs.replace(pot.start(header), **fields)


def played_out(start: pot.PotState, depth: int) -> tuple[list[list[float]], list[float]]:
    """Every roll of every game from ``start`` with the rules' decide and evolve.

    Returns, for each ``k`` up to ``depth``, the chance that each seat has
    won within ``k`` rolls, and the chance that the game is over within ``k``.
    """
    def key(state: pot.PotState) -> Key:
        return state.chips.as_tuple(), state.phase, state.turn, state.try_rolls

    alive = {key(start): (start, 1.0)}
    won = [0.0] * len(start.players)
    by_depth: list[list[float]] = []
    over: list[float] = []
    for _ in range(depth):
        after: dict[Key, tuple[pot.PotState, float]] = {}
        for state, chance in alive.values():
            for dice in ROLLS:
                nxt = state
                for event in pot.decide(state, Roll(dice)):
                    nxt = pot.evolve(nxt, event)
                if nxt.phase == "over":
                    assert nxt.winner is not None
                    won[nxt.winner] += chance / 36
                else:
                    old = after.get(key(nxt), (nxt, 0.0))[1]
                    after[key(nxt)] = (nxt, old + chance / 36)
        alive = after
        by_depth.append(list(won))
        over.append(sum(won))
    return by_depth, over
