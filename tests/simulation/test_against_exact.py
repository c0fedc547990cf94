"""Simulated games land within four standard errors of the exact answers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from aces.exact.chain import build
from aces.exact.solve import solve
from aces.rules import pot
from aces.simulation import simulation
from aces.simulation.batch import RandomRolls, tally
from aces.simulation.chips import ChipEngine
from aces.simulation.stats import summarize

GAMES = 200_000


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("finish", pot.FINISHES)
def test_simulation_agrees_with_the_exact_odds(players: int, finish: pot.Finish) -> None:
    sim = simulation("pot", players, {"finish": finish})
    exact = sim.exact()
    assert exact is not None
    assert exact.win_by_seat is not None
    summary = summarize(sim.run(GAMES, seed=players * 100 + len(finish)))
    for seat, (share, chance) in enumerate(
            zip(summary.win_by_seat, exact.win_by_seat, strict=True)):
        error = math.sqrt(chance * (1 - chance) / GAMES)
        assert abs(share - chance) <= 4 * error, seat
    error = exact.sd_rolls / math.sqrt(GAMES)
    assert abs(summary.expected_rolls - exact.expected_rolls) <= 4 * error
    assert summary.sd_rolls == pytest.approx(exact.sd_rolls, rel=0.02)


@pytest.mark.parametrize("players", [4, 5])
@pytest.mark.parametrize("finish", pot.FINISHES)
def test_the_chips_engine_agrees_with_the_exact_odds(players: int, finish: pot.Finish) -> None:
    games = 100_000
    exact = solve(build(players, 2, finish))
    rolls = RandomRolls(np.random.default_rng(players), 36)
    summary = summarize(tally(ChipEngine(players, 2, finish), games, rolls))
    for share, chance in zip(summary.win_by_seat, exact.win_by_seat, strict=True):
        assert abs(share - chance) <= 4 * math.sqrt(chance * (1 - chance) / games)
    assert abs(summary.expected_rolls - exact.expected_rolls) <= 4 * exact.sd_rolls / math.sqrt(
        games)
