"""The lessons' mathematics: exact answers from the rules, and simulations that agree."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from aces.exact.outcomes import CHANCES, OUTCOMES, roll_cost
from aces.rules import fivedice
from aces.simulation import simulation
from sphinxext import lessons as les


def within(found: float, exact: float, trials: int, sigmas: float = 4.0) -> bool:
    """Whether a simulated share lies within ``sigmas`` standard errors of the exact one."""
    return abs(found - exact) <= sigmas * math.sqrt(exact * (1 - exact) / trials)


@pytest.mark.parametrize("held", [1, 2, 3])
def test_the_cost_of_each_outcome_averages_to_the_expected_cost(held: int) -> None:
    average = sum((CHANCES[o] * c for o, c in zip(OUTCOMES, les.cost_per_outcome(held),
                                                  strict=True)), Fraction(0))
    assert average == roll_cost(held).total == les.cost(held)


def test_the_simulated_rolls_do_nothing_as_often_as_the_rules_say() -> None:
    rolls = 50_000
    share = float(les.running_share(les.outcome_codes(rolls) == 0)[-1])
    assert within(share, float(les.NOTHING), rolls)


def test_the_first_six_is_geometric() -> None:
    assert sum(les.first_six(k) for k in range(1, 200)) == pytest.approx(1.0)
    assert 1 - sum(les.first_six(k) for k in range(1, 4)) == les.TRY
    players = 40_000
    first = les.simulated_first_six(players)
    assert within(float((first > 3).mean()), float(les.TRY), players)
    assert float(first.mean()) == pytest.approx(float(1 / les.SIX), rel=0.03)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_simulated_finishes_go_round_the_table_as_the_seat_formula_says(players: int) -> None:
    count = 40_000
    won = np.bincount(les.simulated_finish(players, count), minlength=players) / count
    for seat, chance in enumerate(les.finish_chances(players)):
        assert within(float(won[seat]), float(chance), count)


def test_games_one_by_one_are_the_simulations_own() -> None:
    # The same seed, the same engine: game by game, the same winners that
    # aces simulate adds up.
    games = 5_000
    played = les.simulated_games(4, games, seed=11)
    counted = simulation("pot", 4, {}).run(games, seed=11)
    assert np.bincount(played.winners, minlength=4).tolist() == counted.wins.tolist()
    assert (played.lengths > 0).all()
    lengths = np.bincount(played.lengths, minlength=len(counted.lengths))
    assert lengths.tolist() == counted.lengths.tolist()


def test_the_length_distribution_adds_up_to_its_mean() -> None:
    pmf = les.length_pmf(3)
    assert pmf.sum() == pytest.approx(1.0, abs=2e-3)
    mean = float((np.arange(1, len(pmf) + 1) * pmf).sum())
    assert mean == pytest.approx(les.game(3).expected_rolls, rel=0.01)
    assert les.rolls_quantile(3, 0.5) <= les.rolls_quantile(3, 0.9)


def test_the_best_seat_and_the_games_to_see_it() -> None:
    chances = les.game(4).win_by_seat
    assert chances[les.best_seat(4) - 1] == max(chances)  # seats counted from 1
    needed = les.games_to_tell_apart(4)
    gap = max(chances) - 1 / 4
    half = 1.959963984540054 * math.sqrt(max(chances) * (1 - max(chances)) / needed)
    assert half <= gap
    assert les.games_for_error(0.5, Fraction(1, 10)) == 97


@pytest.mark.parametrize("threes", [False, True])
def test_a_die_leaves_with_the_chance_of_its_faces(threes: bool) -> None:
    moving = {fivedice.ACE, fivedice.TWO, fivedice.FIVE} | ({fivedice.THREE} if threes else set())
    assert les.fd_leave(threes) == Fraction(len(moving), 6)


@pytest.mark.parametrize("threes", [False, True])
@pytest.mark.parametrize("dice", [1, 2, 3, 5])
def test_the_turn_recursion_is_the_mean_of_the_turn_lengths(dice: int, threes: bool) -> None:
    lengths = les.fd_turn_length(dice, threes, longest=60)
    assert float(sum(lengths)) == pytest.approx(1.0, abs=1e-12)
    mean = sum((r * p for r, p in enumerate(lengths, start=1)), Fraction(0))
    assert float(mean) == pytest.approx(float(les.fd_turn_rolls(dice, threes)), abs=1e-12)


def test_simulated_turns_take_as_long_as_the_recursion_says() -> None:
    turns = 40_000
    rolls = les.simulated_turns(5, False, turns)
    assert rolls.min() >= 1
    spread = float(rolls.std())
    assert abs(float(rolls.mean()) - float(les.fd_turn_rolls(5, False))) <= 4 * spread / math.sqrt(
        turns)
    one = float(les.fd_turn_length(5, False)[0])
    assert within(float((rolls == 1).mean()), one, turns)


def test_sample_sizes_run_in_powers_of_ten() -> None:
    assert les.sample_sizes(99_999) == [10, 100, 1000, 10_000]
