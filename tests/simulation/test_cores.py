"""A simulation shared out over cores gives the same answers on any number of them."""

from __future__ import annotations

import numpy as np
import pytest

from aces.simulation import cores, simulation
from aces.simulation.batch import RandomRolls, Tally, tally

#: Small chunks, so that a run of a few thousand games has several.
CHUNK = 2048


@pytest.mark.parametrize(("game", "players", "options"),
                         [("pot", 4, {}), ("pot", 9, {}), ("five-dice", 3, {"dice": 2})])
def test_the_same_seed_gives_the_same_answers_on_one_core_or_two(
        game: str, players: int, options: dict[str, int]) -> None:
    sim = simulation(game, players, options)
    here = cores.run(sim, 5 * CHUNK + 17, 3, jobs=1, chunk=CHUNK)
    shared = cores.run(sim, 5 * CHUNK + 17, 3, jobs=2, chunk=CHUNK)
    assert here.games == shared.games == 5 * CHUNK + 17
    assert here.wins.tolist() == shared.wins.tolist()
    assert here.lengths.tolist() == shared.lengths.tolist()
    assert here.turns == shared.turns


def test_a_run_of_one_chunk_rolls_the_dice_it_always_rolled() -> None:
    # Up to a chunk of games, a seed gives what it gave before runs were shared out.
    sim = simulation("pot", 4, {})
    before = tally(sim.engine, 3000, RandomRolls(np.random.default_rng(8), 36))  # type: ignore[attr-defined]
    now = sim.run(3000, 8)
    assert now.wins.tolist() == before.wins.tolist()
    assert now.lengths.tolist() == before.lengths.tolist()


def test_each_chunk_rolls_dice_of_its_own() -> None:
    first = [cores.rng(5, k).integers(1 << 30) for k in range(4)]
    assert len(set(first)) == 4
    assert cores.rng(5, 2).integers(1 << 30) == first[2]


def test_progress_hears_every_game_once_on_two_cores() -> None:
    heard: list[int] = []
    cores.run(simulation("pot", 3, {}), 3 * CHUNK, 1, heard.append, jobs=2, chunk=CHUNK)
    assert sum(heard) == 3 * CHUNK
    assert sorted(heard) == [CHUNK] * 3


def test_tallies_merge_whatever_their_lengths() -> None:
    merged = cores.merge(Tally(np.array([1, 2]), np.array([0, 3]), None),
                         Tally(np.array([4, 0]), np.array([0, 0, 4]), 7))
    assert merged.wins.tolist() == [5, 2]
    assert merged.lengths.tolist() == [0, 3, 4]
    assert merged.turns == 7
