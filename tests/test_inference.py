"""The statistics against results worked out by hand and the tables' values."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aces import inference
from aces.inference import (
    Row,
    chi2_sf,
    goodness_of_fit,
    merge,
    quantile,
    rows_fit,
    wilson,
)


def test_chi_square_of_a_small_table_worked_by_hand() -> None:
    # 60 games at three seats with chances 1/2, 1/3, 1/6 expect 30, 20 and 10.
    # Observed 25, 25, 10: (25-30)²/30 + (25-20)²/20 + 0 = 0.8333 + 1.25 = 2.0833,
    # two degrees of freedom, so p = exp(-2.0833 / 2) = 0.3528.
    fit = goodness_of_fit([25, 25, 10], [1 / 2, 1 / 3, 1 / 6])
    assert fit is not None
    assert fit.statistic == pytest.approx(25 / 30 + 25 / 20)
    assert fit.df == 2
    assert fit.p == pytest.approx(math.exp(-(25 / 30 + 25 / 20) / 2))
    assert not fit.merged
    assert not fit.evidence


def test_small_categories_are_merged_and_the_merge_is_said() -> None:
    # 20 games at four seats of chance 0.4, 0.4, 0.1, 0.1 expect 8, 8, 2, 2:
    # the last two together expect 4, too few alone, so they join the second.
    fit = goodness_of_fit([10, 4, 3, 3], [0.4, 0.4, 0.1, 0.1])
    assert fit is not None
    assert fit.groups == ((0,), (1, 2, 3))
    assert fit.merged
    assert fit.observed == (10, 10)
    assert fit.statistic == pytest.approx((10 - 8) ** 2 / 8 + (10 - 12) ** 2 / 12)
    assert fit.df == 1


def test_no_test_when_everything_merges_into_one_category() -> None:
    assert goodness_of_fit([1, 2], [0.5, 0.5]) is None
    assert goodness_of_fit([0, 0], [0.5, 0.5]) is None


def test_a_clear_departure_is_evidence() -> None:
    fit = goodness_of_fit([90, 10], [0.5, 0.5])
    assert fit is not None
    assert fit.evidence
    assert fit.p == pytest.approx(math.erfc(math.sqrt(64 / 2)), rel=1e-9)


@pytest.mark.parametrize("x", [0.01, 0.5, 1.0, 3.0, 7.5, 20.0, 80.0])
def test_chi_square_tail_matches_the_closed_forms(x: float) -> None:
    assert chi2_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-10, abs=1e-300)
    assert chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-10)
    # Four degrees of freedom: exp(-x/2) (1 + x/2).
    assert chi2_sf(x, 4) == pytest.approx(math.exp(-x / 2) * (1 + x / 2), rel=1e-10)


@pytest.mark.parametrize(("x", "df", "p"), [
    (3.841458820694124, 1, 0.05), (5.991464547107979, 2, 0.05), (11.070497693516351, 5, 0.05),
    (18.307038053275146, 10, 0.05), (6.634896601021214, 1, 0.01), (124.34211340400407, 100, 0.05),
])
def test_chi_square_tail_gives_the_tables_critical_values(x: float, df: int, p: float) -> None:
    assert chi2_sf(x, df) == pytest.approx(p, rel=1e-8)


def test_merge_runs_until_each_expects_five() -> None:
    assert merge([5, 5, 5]) == [(0,), (1,), (2,)]
    assert merge([0, 0, 2, 3, 1, 9, 0.5]) == [(0, 1, 2, 3), (4, 5, 6)]


def test_rows_of_different_chances_add_a_degree_of_freedom_each() -> None:
    # Row 1: 40 trials, chance 1/2, 26 successes: (26-20)²/20 + (14-20)²/20 = 3.6.
    # Row 2: 30 trials, chance 0.9, 24 successes: (24-27)²/27 + (6-3)²/3, but its
    # failures expect 3 < 5, so it joins row 1: 70 trials, 50 successes,
    # expected 47 and 23: 9/47 + 9/23.
    fit = rows_fit([Row(40, 26, 0.5), Row(30, 24, 0.9)])
    assert fit is not None
    assert fit.groups == ((0, 1),)
    assert fit.df == 1
    assert fit.statistic == pytest.approx(9 / 47 + 9 / 23)
    fit = rows_fit([Row(40, 26, 0.5), Row(40, 20, 0.5)])
    assert fit is not None
    assert fit.df == 2
    assert fit.statistic == pytest.approx(3.6)


def test_wilson_interval_of_a_known_case() -> None:
    # 30 of 100: the textbook Wilson interval is 0.2189 to 0.3958.
    low, high = wilson(30, 100)
    assert (round(low, 4), round(high, 4)) == (0.2189, 0.3958)


def test_an_interval_asked_again_is_the_one_kept_and_the_one_worked_out() -> None:
    """A class's pool asks for the same intervals twice a second: each is
    worked out once, and kept exactly as worked out; counts that are not
    Python's own numbers (NumPy's) are worked out each time, never kept."""
    first = wilson(17, 41)
    assert wilson(17, 41) is first
    for trials in (1, 2, 7, 100, 9_999):
        for hits in {0, 1, trials // 3, trials - 1, trials}:
            assert wilson(hits, trials) == inference._wilson(hits, trials, inference.Z95)
            assert wilson(hits, trials, 1.0) == inference._wilson(hits, trials, 1.0)
    with pytest.raises(ValueError, match="at least one trial"):
        wilson(0, 0)
    with pytest.raises(ValueError, match="at least one trial"):
        wilson(0, 0)

    class Count(int):
        pass

    assert wilson(Count(17), 41) == first
    assert wilson(Count(17), 41) is not first
    assert wilson(True, 2) == wilson(1, 2)
    assert all(type(end) is float for end in wilson(17, 41))


def test_quantiles_read_the_counts_as_the_exact_distribution_is_read() -> None:
    counts = [0, 0, 3, 3, 3, 1]
    assert quantile(counts, 0.3) == 2
    assert quantile(counts, 0.5) == 3
    assert quantile(counts, 0.9) == 4
    assert quantile(counts, 1.0) == 5


@pytest.mark.parametrize("chance", [16 / 36, (25 / 36) ** 3, 0.1])
def test_a_shares_interval_and_its_test_never_disagree(chance: float) -> None:
    # The Wilson interval is the inversion of the one-degree chi-square test,
    # so the report never says "outside the interval" beside "no evidence".
    for trials in (20, 57, 200):
        for hits in range(trials + 1):
            fit = goodness_of_fit([hits, trials - hits], [chance, 1 - chance])
            if fit is None:
                continue
            inside = wilson(hits, trials).holds(chance)
            assert inside == (not fit.evidence), (hits, trials, fit.p)


@given(st.integers(min_value=1, max_value=10_000).flatmap(
    lambda n: st.tuples(st.integers(min_value=0, max_value=n), st.just(n))))
def test_an_interval_holds_the_share_observed_and_stays_within_0_and_1(
        counts: tuple[int, int]) -> None:
    """``wilson(0, 3).low`` was 5.55e-17 and ``wilson(10, 10).high`` 0.9999999999999999:
    the interval left out the observation, and a plot's error bar went negative."""
    hits, trials = counts
    low, high = wilson(hits, trials)
    assert 0.0 <= low <= hits / trials <= high <= 1.0
    assert hits != 0 or low == 0.0
    assert hits != trials or high == 1.0


@pytest.mark.parametrize(("hits", "trials"), [(0, 3), (10, 10), (0, 1), (1, 1), (0, 7)])
def test_the_ends_of_a_small_pool_are_exactly_its_share(hits: int, trials: int) -> None:
    low, high = wilson(hits, trials)
    if hits == 0:
        assert low == 0.0
    if hits == trials:
        assert high == 1.0
