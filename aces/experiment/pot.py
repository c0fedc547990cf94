"""What the class experiment expects of Aces in the Pot, exactly.

>>> from aces.experiment.observe import Rules
>>> expected(Rules("pot", 3, (("chips", 1), ("finish", "last-chip")))).nothing
Fraction(4, 9)
"""

from __future__ import annotations

import typing as t

from aces.errors import OptionError
from aces.exact import QUICK_STATES, check_size
from aces.exact.chain import build
from aces.exact.outcomes import CHANCES, NO_SIX, Outcome
from aces.exact.solve import length_cdf, solve
from aces.experiment.exact import LENGTH_MASS, Expected, spread

if t.TYPE_CHECKING:
    from aces.experiment.observe import Rules

__all__ = ["expected"]


def expected(rules: Rules) -> Expected:
    """The exact values of a table of Aces in the Pot: each seat's chance and
    the length of a game from the chain (where the table is small enough to
    solve), and always the chance of a normal roll moving nothing and of
    each end of a try."""

    six = 1 - NO_SIX
    tries = (six, NO_SIX * six, NO_SIX**2 * six, NO_SIX**3)
    nothing = CHANCES[Outcome(0, 0)]
    chips = t.cast("int", rules.option("chips"))
    finish = t.cast("t.Literal['last-chip', 'last-holder']", rules.option("finish"))
    try:
        check_size(rules.players, chips, QUICK_STATES)
    except OptionError:
        return Expected(None, None, None, None, 0.0, nothing, tries, None, None)

    chain = build(rules.players, chips, finish)
    solution = solve(chain)
    length, rest = spread(length_cdf(chain, LENGTH_MASS))
    return Expected(solution.win_by_seat, solution.expected_rolls, solution.sd_rolls, length,
                    rest, nothing, tries, None, None)
