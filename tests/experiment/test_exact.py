"""The exact values a class's games are held against, for the five-dice game's tables."""

from __future__ import annotations

import pytest

from aces.exact import fivedice_chain
from aces.experiment.exact import exact
from aces.experiment.observe import Rules


def five_dice(players: int, dice: int, threes: bool = False) -> Rules:
    return Rules("five-dice", players, (("dice", dice), ("threes", threes),
                                        ("threes_to", "random")))


def test_a_small_table_has_everything_from_the_chain() -> None:
    expected = exact(five_dice(3, 1))
    solved = fivedice_chain.solve(fivedice_chain.build(3, 1, threes=False, threes_to="random"))
    assert expected.seats == solved.win_by_seat
    assert expected.mean_rolls == solved.expected_rolls
    assert expected.length is not None
    assert sum(expected.length) + expected.length_rest == pytest.approx(1)
    assert sum(k * p for k, p in enumerate(expected.length, 1)) == pytest.approx(
        solved.expected_rolls, rel=1e-3)


def test_a_full_table_of_four_has_everything_but_the_single_rolls() -> None:
    expected = exact(five_dice(4, 5))
    assert expected.seats is not None
    assert sum(expected.seats) == pytest.approx(1, abs=1e-11)
    assert [round(p, 4) for p in expected.seats] == [0.25, 0.2501, 0.25, 0.2499]
    assert expected.length is not None
    assert expected.length_rest < 1e-11
    assert expected.mean_rolls == pytest.approx(48.58, abs=0.01)
    assert expected.sd_rolls == pytest.approx(11.89, abs=0.01)
    assert [expected.quantile(q) for q in (0.25, 0.5, 0.75, 0.9)] == [40, 47, 56, 64]


def test_a_full_table_with_threes_has_the_length_of_a_game_and_the_rolls_of_a_turn() -> None:
    expected = exact(five_dice(4, 5, threes=True))
    assert expected.seats is not None
    assert expected.length is not None
    assert expected.length_rest < 1e-11
    assert expected.mean_rolls == pytest.approx(46.35, abs=0.01)
    assert [expected.quantile(q) for q in (0.25, 0.5, 0.75, 0.9)] == [38, 45, 53, 61]
    assert expected.rolls_per_turn == pytest.approx(1.585, abs=0.001)


def test_a_full_table_of_five_has_the_length_but_no_seats() -> None:
    expected = exact(five_dice(5, 5))
    assert expected.seats is None  # five times the cost of the length: too slow
    assert expected.mean_rolls == pytest.approx(60.69, abs=0.01)
    assert [expected.quantile(q) for q in (0.25, 0.5, 0.75, 0.9)] == [51, 60, 69, 78]


def test_a_table_too_big_to_work_out_has_no_exact_length() -> None:
    expected = exact(five_dice(6, 5))
    assert expected.length is None
    assert expected.mean_rolls is None
    assert expected.rolls_per_turn is None
    assert expected.quantile(0.5) is None
