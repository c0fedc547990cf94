"""What the estimated chances of one output may cost, so that no output costs without bound.

Exact chances are a look-up; estimated ones cost a simulation a moment
(:mod:`aces.chances`). One :class:`Budget` goes with each output
that shows chances: a replay with ``--odds``, a replay page (and so a
notebook's view of a game), a walkthrough's turning points. It grants
the moments whose chances are estimated, from the first on, until it has
granted :data:`MOST_ESTIMATED` of them or :data:`OUTPUT_WORK` simulated
rolls, or the output has spent :data:`OUTPUT_SECONDS`; after that, the
output says once that the chances stop.

This module is light (no NumPy), so that what only counts does not load
what simulates.
"""

from __future__ import annotations

import time
import typing as t

if t.TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["MOST_ESTIMATED", "OUTPUT_SECONDS", "OUTPUT_WORK", "Budget"]

#: The most rolls of one output (a replay, a page, a walkthrough, a notebook
#: view) whose chances are estimated; past them the output says once that
#: the chances stop being shown.
MOST_ESTIMATED: t.Final = 2_000
#: The most rolls simulated for the estimates of one output, some seconds of
#: work: past it too the chances stop. Counted in rolls, not read off a
#: clock, so that an output written twice is the same output.
OUTPUT_WORK: t.Final = 40_000_000
#: A clock as well, for a machine far slower than the count expects: seconds
#: of estimates one output may take.
OUTPUT_SECONDS: t.Final = 60.0


class Budget:
    """What the estimated chances of one output may cost: :data:`MOST_ESTIMATED`
    rolls, :data:`OUTPUT_WORK` simulated rolls and :data:`OUTPUT_SECONDS`.
    Exact chances cost nothing here.

    >>> class Estimated:                     # odds whose every state costs 10 rolls
    ...     exact = False
    ...     def cost(self, states): return 10 * len(states)
    >>> budget = Budget(rolls=3)
    >>> budget.grant(Estimated(), [1, 2]), budget.grant(Estimated(), [3, 4]), budget.spent
    (2, 1, True)
    >>> Budget(work=35).grant(Estimated(), [1, 2, 3, 4, 5])   # as many as the work allows
    3
    """

    def __init__(self, rolls: int | None = None, work: int | None = None,
                 seconds: float | None = None) -> None:
        self.rolls = MOST_ESTIMATED if rolls is None else rolls
        self.work = OUTPUT_WORK if work is None else work
        self.seconds = OUTPUT_SECONDS if seconds is None else seconds
        #: Once a grant falls short: no estimate is granted again.
        self.spent = False
        self._deadline: float | None = None

    def grant(self, odds: t.Any, states: Sequence[t.Any]) -> int:
        """How many of ``states``, from the first, may have their chances now
        (all of them when ``odds`` is exact or ``None``: it costs nothing)."""
        if odds is None or odds.exact:
            return len(states)
        if self.spent:
            return 0
        now = time.monotonic()
        if self._deadline is None:
            self._deadline = now + self.seconds
        granted = min(len(states), self.rolls)
        if odds.cost(states[:granted]) > self.work:
            # The longest run from the first that fits the work left.
            fits, over = 0, granted
            while over - fits > 1:
                middle = (fits + over) // 2
                fits, over = (middle, over) if odds.cost(states[:middle]) <= self.work \
                    else (fits, middle)
            granted = fits
        if granted < len(states) or now > self._deadline:
            self.spent = True
            if now > self._deadline:
                return 0
        self.rolls -= granted
        self.work -= odds.cost(states[:granted])
        return granted
