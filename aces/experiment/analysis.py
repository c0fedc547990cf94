"""Observed against exact: the numbers of a pooled (or one group's) report.

:func:`analyse` is pure: counts and exact values in, a :class:`Result`
out, with every share's 95 % interval, whether the exact value lies
inside it, and the chi-square tests. Nothing here chooses a word; the
report is written from a result in :mod:`aces.reports.stats`.

>>> from aces.experiment.observe import Counts, Rules
>>> counts = Counts(3)
>>> counts.games, counts.wins, counts.lengths = 30, [12, 9, 9], [0] * 10 + [30]
>>> result = analyse(Rules("pot", 3, (("chips", 1), ("finish", "last-chip"))), counts)
>>> result.seats.fit is not None and result.seats.fit.df
2
"""

from __future__ import annotations

import math
import typing as t

from aces.experiment.exact import Expected, exact
from aces.games import registration
from aces.inference import (
    Fit,
    Interval,
    Row,
    goodness_of_fit,
    mean_interval,
    quantile,
    rows_fit,
    wilson,
)

if t.TYPE_CHECKING:
    from aces.experiment.observe import Counts, Rules

__all__ = ["QUANTILES", "Length", "Result", "Seats", "Share", "analyse", "share", "spread"]

#: The quantiles of the game's length that a report shows.
QUANTILES: t.Final = (0.25, 0.5, 0.75, 0.9)


class Share(t.NamedTuple):
    """A count out of a number of trials, held against an exact chance."""

    hits: int
    trials: int
    exact: float | None
    interval: Interval | None

    @property
    def observed(self) -> float | None:
        return self.hits / self.trials if self.trials else None

    @property
    def inside(self) -> bool | None:
        """Whether the exact value lies in the 95 % interval."""
        if self.exact is None or self.interval is None:
            return None
        return self.interval.holds(self.exact)


def share(hits: int, trials: int, chance: float | None) -> Share:
    return Share(hits, trials, chance, wilson(hits, trials) if trials else None)


class Seats(t.NamedTuple):
    """Games won (lost, in five-dice) by each seat, counted from the starter."""

    shares: list[Share]
    fit: Fit | None


class Length(t.NamedTuple):
    """The length of the games: rolls after the opening."""

    games: int
    mean: float | None
    sd: float | None
    interval: Interval | None
    quantiles: list[int]
    exact_mean: float | None
    exact_sd: float | None
    exact_quantiles: list[int | None]
    fit: Fit | None
    #: The lengths tested, by the categories of the test: ``(first, last)``
    #: rolls of each, ``last`` ``None`` for "and longer".
    bins: list[tuple[int, int | None]]
    #: ``counts[k]``: games of ``k`` rolls.
    counts: tuple[int, ...] = ()

    @property
    def inside(self) -> bool | None:
        if self.exact_mean is None or self.interval is None:
            return None
        return self.interval.holds(self.exact_mean)


class Result(t.NamedTuple):
    """Everything a report says about one set of rules, for a group or pooled."""

    rules: Rules
    games: int
    rolls: int
    seats: Seats
    length: Length
    #: Aces in the Pot: normal rolls that moved nothing; tries that succeeded.
    nothing: Share | None
    tries: Share | None
    tries_fit: Fit | None
    #: Five-dice: rolls followed by a roll again (exact: given the dice rolled).
    agains: Share | None
    agains_fit: Fit | None
    #: The number of dice of each row of that test.
    agains_dice: tuple[int, ...]
    rolls_per_turn: float | None
    exact_rolls_per_turn: float | None


def analyse(rules: Rules, counts: Counts, expected: Expected | None = None) -> Result:
    """Hold ``counts`` against the exact values of ``rules``."""
    expected = expected or exact(rules)
    games = counts.games
    seats = [share(won, games, expected.seats[i] if expected.seats else None)
             for i, won in enumerate(counts.wins)]
    seat_fit = goodness_of_fit(counts.wins, expected.seats) if expected.seats else None
    pot = "nothing" in registration(rules.game).measures
    nothing = tries = agains = None
    tries_fit = agains_fit = None
    dice: tuple[int, ...] = ()
    if pot:
        assert expected.nothing is not None
        assert expected.tries is not None
        nothing = share(counts.nothing, counts.normal, float(expected.nothing))
        tried = sum(counts.tries)
        won = float(expected.tries[3])
        tries = share(counts.tries[3], tried, won)
        # Won against not won: the test the share's Wilson interval inverts, so
        # the two never disagree (which a test of the roll each try ended on could).
        tries_fit = goodness_of_fit([counts.tries[3], tried - counts.tries[3]], [won, 1 - won])
    else:
        dice = tuple(k for k, n in enumerate(counts.by_dice) if n and k >= 2)
        rows = [Row(counts.by_dice[k], counts.agains[k], expected.again(k)) for k in dice]
        rolled = sum(row.trials for row in rows)
        chance = sum(row.trials * row.chance for row in rows) / rolled if rolled else None
        agains = share(sum(row.successes for row in rows), rolled, chance)
        agains_fit = rows_fit(rows)
    turns = counts.turns
    return Result(
        rules=rules,
        games=games,
        rolls=counts.rolls,
        seats=Seats(seats, seat_fit),
        length=_length(counts.lengths, expected),
        nothing=nothing,
        tries=tries,
        tries_fit=tries_fit,
        agains=agains,
        agains_fit=agains_fit,
        agains_dice=dice,
        rolls_per_turn=None if pot or not turns else sum(counts.by_dice) / turns,
        exact_rolls_per_turn=expected.rolls_per_turn,
    )


def spread(lengths: t.Sequence[int]) -> tuple[float | None, float | None, Interval | None]:
    """The mean length, its standard deviation and the mean's 95 % interval,
    from ``lengths[k]``, the games of ``k`` rolls; ``None`` where too few games.

    >>> mean, sd, interval = spread([0, 1, 2, 1])
    >>> mean, round(sd, 3), [round(end, 2) for end in interval]
    (2.0, 0.816, [1.2, 2.8])
    """
    games = sum(lengths)
    if not games:
        return None, None, None
    mean = sum(k * n for k, n in enumerate(lengths)) / games
    if games < 2:
        return mean, None, None
    sd = math.sqrt(sum(n * (k - mean) ** 2 for k, n in enumerate(lengths)) / (games - 1))
    return mean, sd, mean_interval(mean, sd, games)


def _length(lengths: list[int], expected: Expected) -> Length:
    games = sum(lengths)
    mean, sd, interval = spread(lengths)
    fit = None
    bins: list[tuple[int, int | None]] = []
    if expected.length is not None and games:
        chances = [0.0, *expected.length, expected.length_rest]
        last = len(expected.length)
        observed = [*lengths[: last + 1], *[0] * max(0, last + 1 - len(lengths))]
        observed.append(sum(lengths[last + 1:]))
        fit = goodness_of_fit(observed, chances)
        if fit is not None:
            bins = [(group[0], group[-1] if group[-1] <= last else None)
                    for group in fit.groups]
    return Length(
        games=games,
        mean=mean,
        sd=sd,
        interval=interval,
        quantiles=[quantile(lengths, q) for q in QUANTILES] if games else [],
        exact_mean=expected.mean_rolls,
        exact_sd=expected.sd_rolls,
        exact_quantiles=[expected.quantile(q) for q in QUANTILES],
        fit=fit,
        bins=bins,
        counts=tuple(lengths),
    )
