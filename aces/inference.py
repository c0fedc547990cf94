"""The statistics of a class experiment: tests and intervals, as pure functions.

Observed counts are held against the exact chances of the rules with
Pearson's chi-square goodness-of-fit test. The test is only trusted when
every category expects at least five games, so neighbouring categories
with fewer are merged first (and the merge is reported, so a reader sees
which seats or lengths were counted together).

The chi-square distribution's tail is the regularised upper incomplete
gamma function, computed here by its series and its continued fraction
(Numerical Recipes, 6.2) rather than by SciPy: a dependency of some forty
megabytes for one function of twenty lines, which the tests check against
the closed forms for one and two degrees of freedom and against the
tables' critical values.

>>> fit = goodness_of_fit([18, 22, 20], [1 / 3, 1 / 3, 1 / 3])
>>> round(fit.statistic, 2), fit.df, round(fit.p, 3)
(0.4, 2, 0.819)
"""

from __future__ import annotations

import math
import typing as t

from aces.memo import OBJECT, Memo

if t.TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["ALPHA", "MIN_EXPECTED", "Z95", "Fit", "Interval", "Row", "chi2_sf", "goodness_of_fit",
           "mean_interval", "merge", "quantile", "rows_fit", "upper_gamma", "wilson"]

#: A category is tested only when it expects at least this many.
MIN_EXPECTED: t.Final = 5.0
#: Below this p-value the data count as evidence against the exact chances.
ALPHA: t.Final = 0.05
#: The two-sided 95 % point of the standard normal distribution.
Z95: t.Final = 1.959963984540054

_EPSILON: t.Final = 1e-15
_TINY: t.Final = 1e-300
_MAX_TERMS: t.Final = 100_000


class Interval(t.NamedTuple):
    """A 95 % confidence interval."""

    low: float
    high: float

    def holds(self, value: float) -> bool:
        """Whether ``value`` lies inside, ends included."""
        return self.low <= value <= self.high


def wilson(successes: int, trials: int, z: float = Z95) -> Interval:
    """The Wilson score interval for a share: it stays within 0 and 1, holds
    the share observed, and behaves for the small samples of one group.

    >>> [round(end, 4) for end in wilson(0, 10)]
    [0.0, 0.2775]
    >>> wilson(0, 3).low, wilson(10, 10).high
    (0.0, 1.0)

    :raises ValueError: for no trials.
    """
    if type(successes) is int and type(trials) is int and type(z) is float:
        # Only Python's own numbers are kept: NumPy's would give NumPy's floats.
        key = (successes, trials, z)
        found = _INTERVALS.get(key)
        if found is None:
            found = _INTERVALS.keep(key, _wilson(successes, trials, z), _INTERVAL)
        return found
    return _wilson(successes, trials, z)


#: The intervals :func:`wilson` has worked out, by their counts: a class's
#: pool, twice a second, asks for some four hundred, each group's and each
#: seat's, nearly all of them the last pool's (1 MB at most, see :mod:`aces.memo`).
_INTERVALS: t.Final[Memo[tuple[int, int, float], Interval]] = Memo(1 << 20)
#: What an interval kept costs, roughly: its key (a tuple of three numbers)
#: and the interval (a tuple of two).
_INTERVAL: t.Final = 7 * OBJECT


def _wilson(successes: int, trials: int, z: float) -> Interval:
    """:func:`wilson` worked out."""
    if trials <= 0:
        raise ValueError("an interval needs at least one trial")
    share = successes / trials
    spread = z * z / trials
    centre = (share + spread / 2) / (1 + spread)
    half = z * math.sqrt(share * (1 - share) / trials + spread / (4 * trials)) / (1 + spread)
    # Rounding can put an end a hair past the share itself (wilson(0, 3).low
    # came out 5.55e-17): the interval always holds what was observed.
    return Interval(max(0.0, min(centre - half, share)), min(1.0, max(centre + half, share)))


def mean_interval(mean: float, sd: float, n: int, z: float = Z95) -> Interval:
    """The normal interval of a mean, ``mean ± z·sd/√n`` (fair from a few dozen games)."""
    half = z * sd / math.sqrt(n)
    return Interval(mean - half, mean + half)


def chi2_sf(x: float, df: int) -> float:
    """The chance that a chi-square variable with ``df`` degrees of freedom exceeds ``x``.

    >>> round(chi2_sf(3.841458820694124, 1), 6)
    0.05

    :raises ValueError: for no degree of freedom.
    """
    if df < 1:
        raise ValueError("a chi-square distribution needs at least one degree of freedom")
    if x <= 0:
        return 1.0
    return upper_gamma(df / 2, x / 2)


def upper_gamma(a: float, x: float) -> float:
    """The regularised upper incomplete gamma function Q(a, x), for a > 0, x ≥ 0.

    Below ``x = a + 1`` the series of the lower function converges fast,
    above it the continued fraction of the upper one does.
    """
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        denominator = a
        for _ in range(_MAX_TERMS):
            denominator += 1
            term *= x / denominator
            total += term
            if abs(term) < abs(total) * _EPSILON:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    # Modified Lentz's method for the continued fraction.
    b = x + 1 - a
    c = 1 / _TINY
    d = 1 / b
    h = d
    for i in range(1, _MAX_TERMS):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        if abs(d) < _TINY:
            d = _TINY
        c = b + an / c
        if abs(c) < _TINY:
            c = _TINY
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < _EPSILON:
            break
    return math.exp(log_front) * h


class Fit(t.NamedTuple):
    """A chi-square goodness-of-fit test, after merging small categories."""

    statistic: float
    df: int
    p: float
    #: The categories tested, each a run of the original ones (their indices).
    groups: tuple[tuple[int, ...], ...]
    observed: tuple[int, ...]
    expected: tuple[float, ...]

    @property
    def merged(self) -> bool:
        """Whether some categories had to be counted together."""
        return any(len(group) > 1 for group in self.groups)

    @property
    def evidence(self) -> bool:
        """Whether the data are evidence against the exact chances (p < 0.05)."""
        return self.p < ALPHA


def merge(expected: Sequence[float], least: float = MIN_EXPECTED) -> list[tuple[int, ...]]:
    """Runs of neighbouring categories, each expecting at least ``least``.

    Categories are taken in order and gathered until the run expects
    enough; a short run left at the end joins the one before it.

    >>> merge([1, 2, 6, 3, 3, 1])
    [(0, 1, 2), (3, 4, 5)]
    >>> merge([10, 1])
    [(0, 1)]
    """
    groups: list[tuple[int, ...]] = []
    run: list[int] = []
    total = 0.0
    for index, value in enumerate(expected):
        run.append(index)
        total += value
        if total >= least:
            groups.append(tuple(run))
            run, total = [], 0.0
    if run:
        if groups:
            groups[-1] = groups[-1] + tuple(run)
        else:
            groups.append(tuple(run))
    return groups


def goodness_of_fit(observed: Sequence[int], chances: Sequence[float]) -> Fit | None:
    """Pearson's test of counts against exact chances; ``None`` when, once
    small categories are merged, fewer than two are left to compare.

    ``chances`` must add up to one (a last category "more" or "the rest"
    where the list would be endless); the observed counts go in the same
    order.

    :raises ValueError: for a count without its chance, or a chance without its count.
    """
    if len(observed) != len(chances):
        raise ValueError("one chance for each observed count")
    n = sum(observed)
    if n == 0:
        return None
    expected = [n * chance for chance in chances]
    groups = merge(expected)
    if len(groups) < 2:
        return None
    counts = tuple(sum(observed[i] for i in group) for group in groups)
    wanted = tuple(sum(expected[i] for i in group) for group in groups)
    statistic = sum((o - e) ** 2 / e for o, e in zip(counts, wanted, strict=True))
    df = len(groups) - 1
    return Fit(statistic, df, chi2_sf(statistic, df), tuple(groups), counts, wanted)


class Row(t.NamedTuple):
    """Trials of one kind, each a success with its own exact chance."""

    trials: int
    successes: int
    chance: float


def rows_fit(rows: Sequence[Row]) -> Fit | None:
    """Pearson's test for several rows of trials with different chances.

    Each row (say, rolls of two dice, of three dice...) has its own number
    of trials, so it is a two-cell table of its own and adds one degree of
    freedom. Neighbouring rows are merged until each of the two cells
    expects at least five; ``None`` when no row is big enough.

    >>> fit = rows_fit([Row(100, 60, 0.5), Row(100, 40, 0.5)])
    >>> round(fit.statistic, 2), fit.df
    (8.0, 2)
    """
    kept = [row for row in rows if row.trials > 0]
    positions = [i for i, row in enumerate(rows) if row.trials > 0]
    groups: list[tuple[int, ...]] = []
    run: list[int] = []
    trials = 0
    hits = 0.0
    for index, row in zip(positions, kept, strict=True):
        run.append(index)
        trials += row.trials
        hits += row.trials * row.chance
        if min(hits, trials - hits) >= MIN_EXPECTED:
            groups.append(tuple(run))
            run, trials, hits = [], 0, 0.0
    if run and groups:
        groups[-1] = groups[-1] + tuple(run)
    if not groups:
        return None
    statistic = 0.0
    counts: list[int] = []
    wanted: list[float] = []
    for group in groups:
        n = sum(rows[i].trials for i in group)
        o = sum(rows[i].successes for i in group)
        e = sum(rows[i].trials * rows[i].chance for i in group)
        statistic += (o - e) ** 2 / e + (o - e) ** 2 / (n - e)
        counts.append(o)
        wanted.append(e)
    df = len(groups)
    return Fit(statistic, df, chi2_sf(statistic, df), tuple(groups), tuple(counts),
               tuple(wanted))


def quantile(counts: Sequence[int], q: float) -> int:
    """The smallest value whose share of games at or below it reaches ``q``;
    ``counts[k]`` is the number of games of value ``k``. The exact
    distribution's quantiles are read the same way, so the two compare.

    >>> quantile([0, 2, 1, 1], 0.5)
    1
    """
    n = sum(counts)
    running = 0
    for value, count in enumerate(counts):
        running += count
        if running >= q * n - 1e-9 * n:
            return value
    return len(counts) - 1
