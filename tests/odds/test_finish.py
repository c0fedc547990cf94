"""The one-chip finish: closed forms, against the rules played out."""

from __future__ import annotations

from fractions import Fraction

import msgspec
import pytest

from aces.events import SCHEMA, GameStarted
from aces.odds.chain import build
from aces.odds.finish import finish_by_seat, try_success
from aces.odds.outcomes import ROLLS
from aces.odds.solve import state_values
from aces.rules import Roll, pot
from aces.rules.seats import Seats


def test_a_try_succeeds_with_three_rolls_without_a_six() -> None:
    assert try_success() == Fraction(25, 36) ** 3 == Fraction(15625, 46656)


@pytest.mark.parametrize("players", range(2, 9))
def test_the_seat_formula(players: int) -> None:
    p = Fraction(25, 36) ** 3
    expected = [p * (1 - p) ** k / (1 - (1 - p) ** players) for k in range(players)]
    assert finish_by_seat(players) == expected
    assert sum(finish_by_seat(players)) == 1


@pytest.mark.parametrize("players", [2, 3, 5])
@pytest.mark.parametrize("finish", pot.FINISHES)
def test_the_chain_finish_agrees_with_the_formula(players: int, finish: pot.Finish) -> None:
    chain = build(players, 1, finish)
    first_try = int(chain.try_start[1])
    values = state_values(chain)[first_try, :players]
    assert values.tolist() == pytest.approx([float(c) for c in finish_by_seat(players)],
                                            abs=1e-13)


def _finish_by_rules(players: int, depth: int) -> list[float]:
    """Play a one-chip finish with the rules, every roll of every try, to a depth."""
    names = tuple(f"P{seat}" for seat in range(players))
    header = GameStarted(schema=SCHEMA, game="pot", players=names, options=pot.options({}))
    chips = (1,) + (0,) * (players - 1)
    start = msgspec.structs.replace(pot.start(header), phase="try", turn=0, chips=Seats(chips),
                                    pot=2 * players - 1)
    def key(state: pot.PotState) -> tuple[int, int, str]:
        return state.turn, state.try_rolls, state.phase

    alive = {key(start): (start, 1.0)}
    won = [0.0] * players
    for _ in range(depth):
        after: dict[tuple[int, int, str], tuple[pot.PotState, float]] = {}
        for state, chance in alive.values():
            for dice in ROLLS:
                nxt = state
                for event in pot.decide(state, Roll(dice)):
                    nxt = pot.evolve(nxt, event)
                if nxt.phase == "over":
                    assert nxt.winner is not None
                    won[nxt.winner] += chance / 36
                    continue
                old = after.get(key(nxt), (nxt, 0.0))[1]
                after[key(nxt)] = (nxt, old + chance / 36)
        alive = after
    return won


def test_the_rules_play_the_finish_as_the_formula_says() -> None:
    played = _finish_by_rules(3, 120)
    assert played == pytest.approx([float(c) for c in finish_by_seat(3)], abs=1e-9)
