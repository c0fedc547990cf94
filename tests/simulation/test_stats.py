"""Intervals and summaries of simulated games."""

from __future__ import annotations

import statistics

import numpy as np
import pytest

from aces.simulation.batch import Tally
from aces.simulation.stats import Z95, Interval, summarize, wilson


def test_wilson_interval_closed_form() -> None:
    # For a share of one half, the Wilson interval is symmetric about it.
    low, high = wilson(50, 100)
    assert (low + high) / 2 == pytest.approx(0.5)
    n, z = 100, Z95
    half = z * (0.25 / n + z * z / (4 * n * n)) ** 0.5 / (1 + z * z / n)
    assert high - low == pytest.approx(2 * half)


def test_wilson_stays_inside_zero_and_one() -> None:
    assert wilson(0, 20).low == 0.0
    assert wilson(20, 20).high == 1.0
    assert wilson(0, 20).high > 0


def test_summary_from_lengths_matches_the_samples() -> None:
    samples = [3, 5, 5, 8, 9, 9, 9, 12]
    lengths = np.bincount(samples)
    summary = summarize(Tally(np.array([5, 3]), lengths))
    assert summary.games == len(samples)
    assert summary.expected_rolls == pytest.approx(statistics.mean(samples))
    assert summary.sd_rolls == pytest.approx(statistics.stdev(samples))
    half = Z95 * statistics.stdev(samples) / len(samples) ** 0.5
    assert summary.rolls_interval == pytest.approx(
        (statistics.mean(samples) - half, statistics.mean(samples) + half))
    assert summary.win_by_seat == [5 / 8, 3 / 8]


def test_an_interval_holds_its_ends() -> None:
    interval = Interval(0.2, 0.3)
    assert interval.holds(0.2)
    assert interval.holds(0.3)
    assert not interval.holds(0.31)
