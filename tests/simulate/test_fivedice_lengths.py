"""The length of a game of Aces from arrays: the chain's branches, for tables the chain
cannot build, held to the rules through the chain wherever the chain can be built."""

from __future__ import annotations

import math

import pytest

from aces.experiment.inference import goodness_of_fit
from aces.rules import fivedice
from aces.simulate import fivedice_chain, fivedice_lengths, simulation


@pytest.mark.parametrize(("players", "dice"), [(3, 1), (3, 2), (3, 3), (4, 1), (4, 2), (5, 1),
                                               (6, 1)])
def test_the_branches_are_the_chains_made_by_the_rules(players: int, dice: int) -> None:
    found = fivedice_lengths.branches(players, dice)
    chain = fivedice_chain.build(players, dice, threes=False, threes_to="random")
    assert found.states.tolist() == [list(held) for held in chain.states]
    assert found.start == chain.start
    size = len(chain.states)
    mine = sorted(zip(found.sources.tolist(),
                      [-1 if target == size else target for target in found.targets.tolist()],
                      found.rotations.tolist(), found.chances.tolist(), strict=True))
    theirs = sorted((source, branch.state, branch.rotation, float(branch.chance))
                    for source, out in enumerate(chain.branches) for branch in out)
    assert len(mine) == len(theirs) == fivedice_lengths.branch_count(players, dice)
    for a, b in zip(mine, theirs, strict=True):
        assert a[:3] == b[:3]
        assert a[3] == pytest.approx(b[3], rel=1e-12)
    assert fivedice_lengths.length_cdf(players, dice, 0.9999) == pytest.approx(
        fivedice_chain.length_cdf(chain, 0.9999), abs=1e-12)


def test_a_full_game_is_long_as_the_simulation_plays_it() -> None:
    cdf = fivedice_lengths.length_cdf(4, 5, 0.9999)
    chances = [b - a for a, b in zip([0.0, *cdf], cdf, strict=False)]
    mean = sum(k * chance for k, chance in enumerate(chances, 1))
    games = 40_000
    tally = simulation(fivedice.NAME, 4, {}).run(games, seed=11)
    lengths = tally.lengths
    played = sum(k * int(n) for k, n in enumerate(lengths)) / games
    sd = math.sqrt(sum(k * k * chance for k, chance in enumerate(chances, 1)) - mean**2)
    assert abs(played - mean) <= 4 * sd / math.sqrt(games)
    observed = [int(n) for n in lengths[1:len(chances) + 1]]
    observed += [0] * (len(chances) - len(observed))
    observed.append(int(lengths[len(chances) + 1:].sum()))
    fit = goodness_of_fit(observed, [*chances, max(0.0, 1 - cdf[-1])])
    assert fit is not None
    assert fit.df >= 20
    assert fit.p > 0.001, fit


def test_only_tables_of_a_few_million_branches_are_worked_out() -> None:
    assert fivedice_lengths.solvable(4, 5)
    assert fivedice_lengths.branch_count(5, 5) > fivedice_lengths.MAX_BRANCHES
    assert not fivedice_lengths.solvable(5, 5)
    assert not fivedice_lengths.solvable(100, 10)  # refused before a state is listed
