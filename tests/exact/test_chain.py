"""The chain's transitions are the rules' transitions."""

from __future__ import annotations

import numpy as np
import pytest

from aces.exact.chain import SETTLE_CAP, build, rules_successor, state_count
from aces.exact.outcomes import OUTCOME_INDEX, ROLLS
from aces.rules import pot

SMALL = [(2, 1), (2, 2), (2, 3), (3, 1), (3, 2), (4, 2), (5, 1)]


@pytest.mark.parametrize(("players", "chips"), SMALL)
@pytest.mark.parametrize("finish", pot.FINISHES)
def test_every_transition_is_what_the_rules_decide(players: int, chips: int,
                                                   finish: pot.Finish) -> None:
    chain = build(players, chips, finish)
    for state in range(chain.size):
        for code, dice in enumerate(ROLLS):
            outcome = OUTCOME_INDEX[code]
            assert rules_successor(chain, state, dice) == (
                int(chain.nxt[state, outcome]), int(chain.rot[state, outcome])
            ), (chain.describe(state), dice)


def test_settle_answers_the_same_beyond_its_table() -> None:
    # The chain reads settle's answers for bigger hands from the last row.
    for held in range(1, 3 * SETTLE_CAP):
        for in_play in range(held, 3 * SETTLE_CAP):
            for aces in range(3):
                for sixes in range(3 - aces):
                    for protect in (True, False):
                        capped = pot.settle(min(held, SETTLE_CAP), min(in_play, SETTLE_CAP),
                                            aces, sixes, protect_last=protect)
                        assert pot.settle(held, in_play, aces, sixes,
                                          protect_last=protect) == capped


@pytest.mark.parametrize("finish", pot.FINISHES)
def test_many_chips_against_the_rules(finish: pot.Finish) -> None:
    chain = build(2, 2 * SETTLE_CAP, finish)
    rng = np.random.default_rng(5)
    for state in rng.choice(chain.size, 200, replace=False).tolist():
        for code in rng.choice(36, 6, replace=False).tolist():
            outcome = OUTCOME_INDEX[code]
            assert rules_successor(chain, state, ROLLS[code]) == (
                int(chain.nxt[state, outcome]), int(chain.rot[state, outcome]))


@pytest.mark.parametrize(("players", "chips"), SMALL)
@pytest.mark.parametrize("finish", pot.FINISHES)
def test_no_roll_adds_chips_to_play(players: int, chips: int, finish: pot.Finish) -> None:
    chain = build(players, chips, finish)
    layer = np.searchsorted(chain.layers, np.arange(chain.size), side="right") - 1
    ended = chain.nxt == chain.size
    after = layer[np.where(ended, 0, chain.nxt)]
    assert (after[~ended] <= np.repeat(layer[:, None], 6, axis=1)[~ended]).all()


@pytest.mark.parametrize(("players", "chips"), SMALL)
@pytest.mark.parametrize("finish", pot.FINISHES)
def test_the_state_count_is_known_in_advance(players: int, chips: int,
                                             finish: pot.Finish) -> None:
    chain = build(players, chips, finish)
    assert chain.size <= state_count(players, chips)
    assert chain.describe(chain.start) == ((chips,) * players, "play", 0)


def test_states_are_seen_from_the_roller() -> None:
    chain = build(3, 2, "last-chip")
    # Seat 0 rolls 3-4: nothing happens, and seat 1 rolls with the same chips.
    assert rules_successor(chain, chain.start, (3, 4)) == (chain.start, 1)
    # Seat 0 rolls 6-6: both chips go left; seat 1 rolls holding four.
    assert rules_successor(chain, chain.start, (6, 6)) == (chain.index_of((4, 2, 0)), 1)


@pytest.mark.parametrize(("players", "chips"), [*SMALL, (6, 2), (4, 4)])
@pytest.mark.parametrize("finish", pot.FINISHES)
def test_states_are_numbered_by_chips_in_play_then_from_the_last_seat(
        players: int, chips: int, finish: pot.Finish) -> None:
    # Each state's number is worked out from its chips (no search): it is its
    # place when every normal state is listed and sorted by chips in play,
    # then by the last seat's chips, the one before, and so on.
    import itertools

    chain = build(players, chips, finish)
    total = players * chips
    listed = [hand for hand in itertools.product(range(total + 1), repeat=players)
              if hand[0] >= 1 and 2 <= sum(hand) <= total
              and (finish == "last-chip" or sum(1 for c in hand if c) >= 2)]
    listed.sort(key=lambda hand: (sum(hand), hand[::-1]))
    assert [tuple(int(c) for c in row) for row in chain.play] == listed
    assert [chain.index_of(hand) for hand in listed] == chain.play_index.tolist()
    assert all(chain.describe(chain.index_of(hand)) == (hand, "play", 0) for hand in listed)
