"""One roll of two dice: the exact chances and costs, against closed forms."""

from __future__ import annotations

from fractions import Fraction

from aces.exact.outcomes import (
    CHANCES,
    NO_SIX,
    OUTCOME_INDEX,
    OUTCOMES,
    ROLLS,
    Outcome,
    example,
    outcome_of,
    roll_cost,
)
from aces.rules.pot import settle

# Faces that are neither an ace nor a six: 2, 3, 4, 5.
PLAIN = 4


def test_a_roll_that_does_nothing_has_no_1_and_no_6() -> None:
    assert CHANCES[Outcome(0, 0)] == Fraction(PLAIN * PLAIN, 36) == Fraction(16, 36)


def test_each_outcome_has_its_closed_form() -> None:
    assert CHANCES[Outcome(1, 0)] == Fraction(2 * PLAIN, 36)
    assert CHANCES[Outcome(0, 1)] == Fraction(2 * PLAIN, 36)
    assert CHANCES[Outcome(2, 0)] == Fraction(1, 36)
    assert CHANCES[Outcome(0, 2)] == Fraction(1, 36)
    assert CHANCES[Outcome(1, 1)] == Fraction(2, 36)


def test_the_outcomes_cover_every_roll_once() -> None:
    assert sum(CHANCES.values()) == 1
    assert set(CHANCES) == set(OUTCOMES)
    assert len(ROLLS) == 36
    assert len(set(ROLLS)) == 36


def test_no_six_is_five_faces_on_each_die() -> None:
    assert Fraction(5 * 5, 36) == NO_SIX


def test_the_index_of_each_roll_names_its_outcome() -> None:
    for code, (first, second) in enumerate(ROLLS):
        assert code == 6 * (first - 1) + (second - 1)
        assert OUTCOMES[OUTCOME_INDEX[code]] == outcome_of((first, second))


def test_an_example_roll_has_its_outcome() -> None:
    for outcome in OUTCOMES:
        assert outcome_of(example(outcome)) == outcome


def test_one_chip_is_lost_to_any_1_or_6() -> None:
    # With one chip, any 1 sends it to the pot; otherwise any 6 passes it.
    any_ace = Fraction(36 - 5 * 5, 36)
    six_without_ace = Fraction(5 * 5 - 4 * 4, 36)
    assert roll_cost(1).to_pot == any_ace
    assert roll_cost(1).to_left == six_without_ace
    assert roll_cost(1).total == Fraction(20, 36)


def test_two_chips_or_more_pay_every_1_and_6() -> None:
    # Each die shows a 1 with chance 1/6 and a 6 with chance 1/6.
    for held in (2, 3, 7):
        assert roll_cost(held).to_pot == 2 * Fraction(1, 6)
        assert roll_cost(held).to_left == 2 * Fraction(1, 6)
        assert roll_cost(held).total == Fraction(2, 3)


def test_the_costs_come_from_the_rules_settle() -> None:
    for held in (1, 2, 3):
        paid = [settle(held, held + 5, d.count(1), d.count(6), protect_last=False)
                for d in ROLLS]
        assert roll_cost(held).to_pot == Fraction(sum(p.to_pot for p in paid), 36)
        assert roll_cost(held).to_left == Fraction(sum(p.to_left for p in paid), 36)
