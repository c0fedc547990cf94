"""One roll of two dice, sorted by what the rules look at: aces and sixes.

A normal roll is settled by :func:`aces.rules.pot.settle` from two numbers,
the count of aces and the count of sixes, and a try only counts sixes. So
the 36 equally likely rolls fall into six outcomes, and every chance in
the game is built from theirs. Nothing here is typed in: the chances are
counted from the faces, and the costs come from the rules' own settle.

>>> CHANCES[Outcome(0, 0)]     # a roll that does nothing: no 1 and no 6
Fraction(4, 9)
>>> NO_SIX
Fraction(25, 36)
>>> roll_cost(1).total, roll_cost(2).total
(Fraction(5, 9), Fraction(2, 3))
"""

from __future__ import annotations

import typing as t
from fractions import Fraction

from aces.dice import FACES
from aces.rules.pot import ACE, SIX, settle

__all__ = ["CHANCES", "NO_SIX", "OUTCOMES", "OUTCOME_INDEX", "ROLLS", "Cost", "Outcome", "example",
           "outcome_of", "roll_cost"]


class Outcome(t.NamedTuple):
    """What a roll of two dice means to the rules."""

    aces: int
    sixes: int


#: The outcomes in a fixed order; arrays of the chain are indexed by it.
OUTCOMES: t.Final = (
    Outcome(0, 0),
    Outcome(1, 0),
    Outcome(2, 0),
    Outcome(0, 1),
    Outcome(0, 2),
    Outcome(1, 1),
)

#: Every roll of two dice, in the order ``(1, 1), (1, 2), ... (6, 6)``.
ROLLS: t.Final[tuple[tuple[int, int], ...]] = tuple(
    (first, second) for first in FACES for second in FACES)


def outcome_of(dice: tuple[int, ...]) -> Outcome:
    """The outcome of a roll, counted the way the rules count it.

    >>> outcome_of((1, 6))
    Outcome(aces=1, sixes=1)
    """
    return Outcome(dice.count(ACE), dice.count(SIX))


def _chances() -> dict[Outcome, Fraction]:
    counts = dict.fromkeys(OUTCOMES, 0)
    for dice in ROLLS:
        counts[outcome_of(dice)] += 1
    return {outcome: Fraction(count, len(ROLLS)) for outcome, count in counts.items()}


#: The exact chance of each outcome of one roll.
CHANCES: t.Final = _chances()

#: For each of the 36 rolls (``6 * (first - 1) + (second - 1)``), the index
#: of its outcome in :data:`OUTCOMES`: a uniform draw from 0 to 35 becomes
#: an outcome with a single table look-up.
OUTCOME_INDEX: t.Final = tuple(OUTCOMES.index(outcome_of(dice)) for dice in ROLLS)

#: The chance that a roll shows no six: a try survives it.
NO_SIX: t.Final = sum((c for o, c in CHANCES.items() if o.sixes == 0), Fraction(0))


def example(outcome: Outcome) -> tuple[int, int]:
    """A roll with this outcome, to hand to the rules as a stand-in for all of them.

    >>> example(Outcome(1, 1))
    (1, 6)
    """
    return next(dice for dice in ROLLS if outcome_of(dice) == outcome)


class Cost(t.NamedTuple):
    """The expected chips one normal roll moves out of the roller's hands."""

    to_pot: Fraction
    to_left: Fraction

    @property
    def total(self) -> Fraction:
        return self.to_pot + self.to_left


def roll_cost(held: int) -> Cost:
    """What a roll costs, on average, a player holding ``held`` chips.

    Away from the finish, so no ace is ever ignored: the chips in play are
    taken to be more than the roller's.

    >>> roll_cost(1)
    Cost(to_pot=Fraction(11, 36), to_left=Fraction(1, 4))
    """
    to_pot = to_left = Fraction(0)
    for outcome, chance in CHANCES.items():
        paid = settle(held, held + 2, outcome.aces, outcome.sixes, protect_last=False)
        to_pot += chance * paid.to_pot
        to_left += chance * paid.to_left
    return Cost(to_pot, to_left)
