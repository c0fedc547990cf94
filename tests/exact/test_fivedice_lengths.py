"""The length of a game of Aces carried through splits of a roll: held to the rules
roll by roll on tables of every size, to the chain wherever the chain can be built,
and to the simulation for whole games with threes."""

from __future__ import annotations

import math
import random
from collections import defaultdict
from fractions import Fraction

import numpy as np
import pytest

from aces.exact import fivedice_chain, fivedice_lengths
from aces.inference import goodness_of_fit
from aces.rules import fivedice
from aces.simulation import simulation

#: The seven small tables the chain solves without threes, and tables with threes
#: under every policy.
CHAIN_TABLES = [
    (3, 1, False, "random"), (3, 2, False, "random"), (3, 3, False, "random"),
    (4, 1, False, "random"), (4, 2, False, "random"), (5, 1, False, "random"),
    (6, 1, False, "random"),
    (3, 1, True, "random"), (3, 2, True, "random"), (4, 1, True, "random"),
    (3, 2, True, "fewest"), (4, 1, True, "fewest"), (3, 2, True, "most"),
    (4, 1, True, "most"),
]


@pytest.mark.parametrize(("players", "dice", "threes", "policy"), CHAIN_TABLES)
def test_the_length_is_the_chains_made_by_the_rules(players: int, dice: int, threes: bool,
                                                    policy: fivedice.Policy) -> None:
    chain = fivedice_chain.build(players, dice, threes, policy)
    lengths = fivedice_lengths.length_cdf(players, dice, threes, policy, by_seat=True)
    theirs = fivedice_chain.length_cdf(chain, 1 - 1e-13)
    shared = min(len(theirs), len(lengths.cdf))
    assert lengths.cdf[:shared] == pytest.approx(theirs[:shared], abs=1e-13)
    assert lengths.rest < fivedice_lengths.TOLERANCE
    answer = fivedice_chain.solve(chain)
    assert lengths.mean == pytest.approx(answer.expected_rolls, abs=1e-8)
    assert lengths.sd == pytest.approx(answer.sd_rolls, abs=1e-6)
    assert lengths.mean / lengths.turns == pytest.approx(answer.rolls_per_turn, abs=1e-9)
    assert lengths.losses == pytest.approx(answer.win_by_seat, abs=1e-11)
    alone = fivedice_lengths.length_cdf(players, dice, threes, policy)
    assert lengths.cdf == pytest.approx(alone.cdf, abs=1e-15)


@pytest.mark.parametrize(("players", "dice", "threes", "policy"), [
    (5, 5, False, "random"), (4, 5, True, "random"), (5, 3, True, "fewest"),
    (4, 4, True, "most"), (7, 1, True, "random"), (3, 6, True, "random"),
])
def test_one_roll_from_any_state_goes_where_the_rules_send_it(
        players: int, dice: int, threes: bool, policy: fivedice.Policy) -> None:
    table = fivedice_lengths.flow(players, dice, threes, policy)
    index = {tuple(row): number for number, row in enumerate(table.states.tolist())}
    size = len(table.states)
    # The start, states where someone holds nothing, and a random sample of the rest.
    picks = random.Random(f"{players}x{dice}").sample(range(size), 12)
    picks += [table.start, *np.flatnonzero((table.states == 0).any(axis=1))[:4].tolist(),
              *np.flatnonzero(table.states.sum(axis=1) == 1)[:2].tolist()]
    for pick in picks:
        held = tuple(table.states[pick].tolist())
        expected: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
        ends_turn = Fraction(0)
        for chance, after, seat, ends in fivedice_chain.settled(players, dice, threes, policy,
                                                                held):
            expected[seat, size if after is None else index[after]] += chance
            ends_turn += chance * ends
        # The roller sits in seat 1 from the starter; the next roller's seat is followed.
        mass = np.zeros((players, size))
        mass[1, pick] = 1.0
        after_roll, turns = table.roll(mass)
        reached = {(int((seat - 1) % players), int(s)): float(after_roll[seat, s])
                   for seat, s in zip(*np.nonzero(after_roll), strict=True)}
        assert reached.keys() == expected.keys(), held
        for key, chance in expected.items():
            assert reached[key] == pytest.approx(float(chance), rel=1e-12, abs=1e-300), held
        assert turns == pytest.approx(float(ends_turn), rel=1e-12)
        alone, _ = table.roll(mass[1])
        # numpy's comparison, not pytest.approx, which walks the 118,755 states in Python.
        np.testing.assert_allclose(alone, after_roll.sum(axis=0), rtol=1e-12, atol=1e-300)


@pytest.mark.parametrize(("players", "threes", "policy"), [(4, True, "random"),
                                                           (3, True, "most"),
                                                           (4, False, "random")])
def test_whole_games_are_as_long_as_the_simulation_plays_them(
        players: int, threes: bool, policy: fivedice.Policy) -> None:
    lengths = fivedice_lengths.length_cdf(players, 5, threes, policy, by_seat=True)
    assert lengths.losses is not None
    chances = lengths.chances
    games = 100_000
    tally = simulation(fivedice.NAME, players, {"threes": threes, "threes_to": policy}).run(
        games, seed=2026)
    played = tally.lengths
    mean = sum(k * int(n) for k, n in enumerate(played)) / games
    assert abs(mean - lengths.mean) <= 4 * lengths.sd / math.sqrt(games)
    observed = [int(n) for n in played[1:len(chances) + 1]]
    observed += [0] * (len(chances) - len(observed))
    observed.append(int(played[len(chances) + 1:].sum()))
    fit = goodness_of_fit(observed, [*chances, lengths.rest])
    assert fit is not None
    assert fit.df >= 40
    assert fit.p > 0.001, fit
    seats = goodness_of_fit([int(n) for n in tally.wins], lengths.losses)
    assert seats is not None
    assert seats.p > 0.001, seats


def test_the_full_tables_are_worked_out_and_bigger_ones_refused_before_listing() -> None:
    assert fivedice_lengths.solvable(5, 5)
    for policy in fivedice.POLICIES:
        assert fivedice_lengths.solvable(5, 5, True, policy)
    assert fivedice_lengths.solvable(3, 20)
    assert not fivedice_lengths.solvable(6, 5)
    assert not fivedice_lengths.solvable(5, 6)
    assert not fivedice_lengths.solvable(100, 10)  # a number of states too big to list


@pytest.mark.parametrize(("players", "dice", "threes", "policy"), [
    (4, 5, False, "random"), (4, 5, True, "random"), (4, 5, True, "fewest"),
    (3, 20, False, "random")])
def test_the_entries_are_counted_about_right_in_advance(players: int, dice: int, threes: bool,
                                                       policy: fivedice.Policy) -> None:
    counted = fivedice_lengths.flow(players, dice, threes, policy).entries
    assert 0.6 * counted <= fivedice_lengths.entry_count(players, dice, threes, policy)
    assert fivedice_lengths.entry_count(players, dice, threes, policy) <= 2 * counted
