"""The exact values a class's games are held against, from the package's own odds.

Each game works its values out itself (:mod:`aces.experiment.pot`,
:mod:`aces.experiment.fivedice`, named by its registration), and nothing
is typed in: the chances of a roll come from :mod:`aces.exact.outcomes`,
who wins and how long a game lasts from the Markov chains of
:mod:`aces.exact` (Aces in the Pot) and :mod:`aces.exact.fivedice_chain`
(the five-dice game), the length of a game too: its whole distribution,
carried roll by roll through the chain.
A five-dice table too big for the chain, a full game among them and
tables with threes, still has the length of a game and the rolls of a
turn, from :mod:`aces.exact.fivedice_lengths`, and up to four players
with five dice each the chance of each seat to lose too.
A table too big for either still has the chances of single rolls; its
whole-game values are ``None``.

>>> from aces.experiment.observe import Rules
>>> expected = exact(Rules("pot", 3, (("chips", 1), ("finish", "last-chip"))))
>>> [round(p, 3) for p in expected.seats]
[0.325, 0.32, 0.355]
>>> expected.nothing
Fraction(4, 9)
"""

from __future__ import annotations

import functools
import typing as t

from aces.games import registration

if t.TYPE_CHECKING:
    from fractions import Fraction

    from aces.experiment.observe import Rules

__all__ = ["LENGTH_MASS", "UNKNOWN", "Expected", "exact", "spread"]

#: The length distribution is carried until this much of it is known; the
#: rest is one last category, "longer".
LENGTH_MASS: t.Final = 0.9999
#: Distinct tables whose exact values are remembered.
_CACHE: t.Final = 32


class Expected(t.NamedTuple):
    """Exact values for one set of rules; ``None`` where there is none."""

    #: Chance of each seat (from the starter) to win, or to lose in five-dice.
    seats: list[float] | None
    mean_rolls: float | None
    sd_rolls: float | None
    #: ``length[k - 1]``: the chance of a game of exactly ``k`` rolls, up to
    #: where the rest is tiny; ``length_rest`` is the chance of a longer one.
    length: list[float] | None
    length_rest: float
    #: Aces in the Pot: a normal roll shows no 1 and no 6 (16/36).
    nothing: Fraction | None
    #: Aces in the Pot: a try ends by a six on roll 1, 2, 3, or is won.
    tries: tuple[Fraction, Fraction, Fraction, Fraction] | None
    #: Five-dice: the chance a face stays in the roller's hand.
    stays: Fraction | None
    rolls_per_turn: float | None

    def again(self, dice: int) -> float:
        """Five-dice: the chance that a roll of ``dice`` dice is followed by a
        roll again: some die leaves the hand and some die stays."""
        assert self.stays is not None
        stay = self.stays
        return float(1 - stay**dice - (1 - stay) ** dice)

    def quantile(self, q: float) -> int | None:
        """The smallest length whose chance of a game at most that long reaches ``q``."""
        if self.length is None:
            return None
        running = 0.0
        for k, chance in enumerate(self.length, 1):
            running += chance
            if running >= q - 1e-12:
                return k
        return None


@functools.lru_cache(maxsize=_CACHE)
def exact(rules: Rules) -> Expected:
    """The exact values for ``rules``, solved once per set of rules, as the
    game's registration works them out (:attr:`aces.games.Registration.expected`);
    a game that brings none has none but its rules."""

    found = registration(rules.game).expected
    if found is None:
        return UNKNOWN
    return found(rules)


#: What is known of a game that brings no exact values: nothing.
UNKNOWN: t.Final = Expected(None, None, None, None, 0.0, None, None, None, None)


def spread(cdf: list[float]) -> tuple[list[float], float]:
    """The chance of each length, and of a longer game, from the chance of
    a game over within each length."""
    return ([b - a for a, b in zip([0.0, *cdf], cdf, strict=False)],
            max(0.0, 1.0 - cdf[-1]))
