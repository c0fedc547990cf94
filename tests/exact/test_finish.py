"""The one-chip finish: closed forms, against the rules played out."""

from __future__ import annotations

from fractions import Fraction

import pytest
from bruteforce import played_out, table

from aces.exact.chain import build
from aces.exact.finish import finish_by_seat, try_success
from aces.exact.solve import state_values
from aces.rules import pot
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


def test_the_rules_play_the_finish_as_the_formula_says() -> None:
    # One chip at seat 0, the rest in the pot, a try begun: every roll of every try.
    start = table(3, {}, phase="try", turn=0, chips=Seats((1, 0, 0)), pot=5)
    won, _ = played_out(start, 120)
    assert won[-1] == pytest.approx([float(c) for c in finish_by_seat(3)], abs=1e-9)
