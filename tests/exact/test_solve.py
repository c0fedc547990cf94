"""The exact solution, against brute force with the event-sourced rules."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from bruteforce import played_out, table
from jacobi import jacobi_values

from aces.exact import exact
from aces.exact.chain import build
from aces.exact.solve import length_cdf, solve, state_values
from aces.rules import pot
from aces.simulation import simulation
from aces.simulation.stats import summarize

CASES = [(2, 1), (3, 1), (2, 2), (3, 2), (4, 2), (5, 1)]


@pytest.mark.parametrize(("players", "chips"), CASES)
@pytest.mark.parametrize("finish", pot.FINISHES)
def test_win_chances_sum_to_one(players: int, chips: int, finish: pot.Finish) -> None:
    answer = solve(build(players, chips, finish))
    assert len(answer.win_by_seat) == players
    assert sum(answer.win_by_seat) == pytest.approx(1, abs=1e-12)
    assert all(0 < chance < 1 for chance in answer.win_by_seat)


@pytest.mark.parametrize(("players", "chips", "depth"), [(2, 1, 160), (3, 1, 80), (2, 2, 60)])
@pytest.mark.parametrize("finish", pot.FINISHES)
def test_the_chain_agrees_with_brute_force(players: int, chips: int, depth: int,
                                           finish: pot.Finish) -> None:
    chain = build(players, chips, finish)
    start = table(players, {"finish": finish, "chips": chips}, phase="play", turn=0)
    won, over = played_out(start, depth)
    cdf = length_cdf(chain, 1 - 1e-12)
    for k in range(min(depth, len(cdf))):
        assert cdf[k] == pytest.approx(over[k], abs=1e-12)
    # What has not finished by the depth bounds what the seats can still win.
    unfinished = 1 - over[-1]
    answer = solve(chain)
    for seat in range(players):
        assert won[-1][seat] - 1e-12 <= answer.win_by_seat[seat]
        assert answer.win_by_seat[seat] <= won[-1][seat] + unfinished + 1e-12


def test_two_players_with_one_chip_by_hand() -> None:
    # x: the roller's chance with one chip each; y: the roller's chance
    # holding both chips; h: the holder's chance in a one-chip finish.
    p = Fraction(25, 36) ** 3
    h = p / (1 - (1 - p) ** 2)
    # One chip each: nothing (16/36) hands the roll over; any ace (11/36) puts
    # the chip in the pot and the other holds the last one; a six without an
    # ace (9/36) passes the chip, and the other rolls holding both.
    #   x = 16/36 (1 - x) + 11/36 (1 - h) + 9/36 (1 - y)
    # Both chips: nothing (16/36) and the roller rolls again, the other being
    # empty-handed; an ace without a six (8/36), or 1-1 with its second ace
    # ignored (1/36), leaves the roller the last chip; 1-6 (2/36) passes it
    # on; one six (8/36) leaves one chip each, the other to roll; 6-6 (1/36)
    # passes both.
    #   y = 16/36 y + 9/36 h + 2/36 (1 - h) + 8/36 (1 - x) + 1/36 (1 - y)
    a1, b1 = 1 + Fraction(16, 36), Fraction(9, 36)
    c1 = Fraction(16, 36) + Fraction(11, 36) * (1 - h) + Fraction(9, 36)
    a2, b2 = Fraction(8, 36), 1 - Fraction(16, 36) + Fraction(1, 36)
    c2 = Fraction(9, 36) * h + Fraction(2, 36) * (1 - h) + Fraction(8, 36) + Fraction(1, 36)
    x = (c1 * b2 - b1 * c2) / (a1 * b2 - b1 * a2)
    answer = solve(build(2, 1, "last-chip"))
    assert answer.win_by_seat[0] == pytest.approx(float(x), abs=1e-13)
    assert answer.win_by_seat[1] == pytest.approx(float(1 - x), abs=1e-13)


@pytest.mark.parametrize(("players", "chips"), CASES)
@pytest.mark.parametrize("finish", pot.FINISHES)
def test_the_moments_agree_with_the_length_distribution(players: int, chips: int,
                                                        finish: pot.Finish) -> None:
    # Backward (the solver) and forward (the distribution) computations.
    chain = build(players, chips, finish)
    answer = solve(chain)
    cdf = length_cdf(chain, 1 - 1e-15)
    survival = [1 - p for p in cdf]
    mean = 1 + sum(survival[:-1])  # P(T > 0) = 1, then P(T > k) for k = 1, 2, ...
    second = 1 + sum((2 * k + 1) * s for k, s in enumerate(survival[:-1], start=1))
    assert answer.expected_rolls == pytest.approx(mean, rel=1e-9)
    assert answer.sd_rolls == pytest.approx(math.sqrt(second - mean * mean), rel=1e-7)


def test_exact_refuses_a_quantile_outside_zero_and_one() -> None:
    from aces.errors import OptionError

    for quantile in (0.0, 1.0, 1.5, -0.1):
        with pytest.raises(OptionError, match="--quantile"):
            exact(3, 2, "last-chip", quantile)


def test_exact_refuses_too_many_states_and_says_what_to_do() -> None:
    from aces.errors import OptionError

    with pytest.raises(OptionError) as caught:
        exact(11, 2, "last-chip", 0.99)
    message = caught.value.render()
    assert "25000000" in message
    assert "aces simulate" in message
    # Raised to a program, it names the function a program calls instead.
    assert "try aces.simulate instead" in str(caught.value)


def test_the_most_players_are_the_most_with_one_chip_each_under_the_limit() -> None:
    from aces.exact import MAX_STATES, check_size, most_players
    from aces.exact.chain import state_count

    most = most_players()
    assert state_count(most, 1) <= MAX_STATES < state_count(most + 1, 1)
    assert check_size(most, 1) == state_count(most, 1)


@pytest.mark.parametrize(("players", "chips"), [*CASES, (6, 2), (4, 3), (3, 4)])
@pytest.mark.parametrize("finish", pot.FINISHES)
def test_every_state_agrees_with_the_plain_jacobi_solver(players: int, chips: int,
                                                         finish: pot.Finish) -> None:
    # The sweeps reorder the work, never the answers: every state's chances
    # and moments are those of the plain iteration the solver used to be.
    chain = build(players, chips, finish)
    swept, reference = state_values(chain), jacobi_values(chain)
    assert np.abs(swept - reference).max() <= 1e-9 * np.maximum(1.0, np.abs(reference)).max()
    assert np.abs(swept[:, :players] - reference[:, :players]).max() <= 1e-9


@pytest.mark.parametrize(("players", "chips", "finish"),
                         [(4, 2, "last-chip"), (5, 2, "last-holder"), (3, 4, "last-holder")])
@pytest.mark.parametrize("chunk", [1, 7])
def test_chunks_of_any_size_give_the_answers_of_the_plain_jacobi_solver(
        players: int, chips: int, finish: pot.Finish, chunk: int) -> None:
    # Large layers are swept a chunk at a time; small tables have no layer
    # larger than a chunk, so small chunks make them take the same path.
    chain = build(players, chips, finish)
    chunked, reference = state_values(chain, chunk=chunk), jacobi_values(chain)
    assert np.abs(chunked - reference).max() <= 1e-9 * np.maximum(1.0, np.abs(reference)).max()
    assert np.abs(chunked[:, :players] - reference[:, :players]).max() <= 1e-9


def test_the_progress_of_a_solve_moves_within_layers_and_never_back() -> None:
    chain = build(6, 2, "last-chip")
    heard: list[float] = []
    state_values(chain, heard.append)
    assert heard == sorted(heard)
    assert heard[-1] == 1.0
    # Within the largest layer too, not only at its end.
    largest = int(np.argmax(np.diff(chain.layers)))
    lo, hi = (int(chain.layers[largest]) / chain.size, int(chain.layers[largest + 1]) / chain.size)
    assert any(lo < share < hi for share in heard)


def test_a_table_of_eight_solved_in_chunks_sums_to_one_and_agrees_with_a_simulation() -> None:
    # Eight players with two chips each: layers of up to 170,000 states, each
    # swept in many chunks (the path nine and ten players take), held to
    # what 200,000 simulated games show, within four standard errors.
    games = 200_000
    solved = exact(8, 2, "last-chip", 0.5)
    assert solved.states == 490_316
    answer = solved.solution
    assert sum(answer.win_by_seat) == pytest.approx(1, abs=1e-12)
    summary = summarize(simulation("pot", 8, {"finish": "last-chip"}).run(games, seed=8))
    for share, chance in zip(summary.win_by_seat, answer.win_by_seat, strict=True):
        assert abs(share - chance) <= 4 * math.sqrt(chance * (1 - chance) / games)
    assert abs(summary.expected_rolls - answer.expected_rolls) <= 4 * answer.sd_rolls / math.sqrt(
        games)
    assert summary.sd_rolls == pytest.approx(answer.sd_rolls, rel=0.02)
