"""The finish with one chip left, in closed form.

A try is three rolls without a six; each roll survives with the chance of
showing no six, so a try succeeds with that chance cubed. With one chip
(finish ``last-chip``, or ``last-holder`` once a single chip is left) a
failed try hands the chip to the left, and the tries go round the table:
the seat ``k`` places to the left of the first holder wins after ``k``
failures and one success, and a whole round of failures starts it over.
Summing that geometric series gives

    p (1 - p)**k / (1 - (1 - p)**n)

for ``n`` seats and a try that succeeds with chance ``p``.

>>> try_success()
Fraction(15625, 46656)
>>> sum(finish_by_seat(4)) == 1
True
"""

from __future__ import annotations

import typing as t

from aces.exact.outcomes import NO_SIX
from aces.rules.pot import TRY_ROLLS

if t.TYPE_CHECKING:
    from fractions import Fraction

__all__ = ["finish_by_seat", "try_success"]


def try_success() -> Fraction:
    """The chance that one try of three rolls shows no six: ``(25/36)**3``."""
    return NO_SIX**TRY_ROLLS


def finish_by_seat(players: int) -> list[Fraction]:
    """The chance that each seat wins a one-chip finish, counted from the holder.

    Index 0 is the holder who makes the first try, 1 the player on the
    holder's left, and so on round the table.

    >>> [round(float(chance), 4) for chance in finish_by_seat(2)]
    [0.6006, 0.3994]
    """
    p = try_success()
    fail = 1 - p
    round_trip = 1 - fail**players
    return [p * fail**seat / round_trip for seat in range(players)]
