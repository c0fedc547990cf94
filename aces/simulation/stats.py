"""From counted games to estimates with 95 % confidence intervals.

A seat's share of wins gets a Wilson score interval, which stays inside
0 to 1 and behaves for small shares; the mean length gets the usual
normal interval, the mean plus or minus 1.96 standard errors.

>>> import numpy as np
>>> from aces.simulation.batch import Tally
>>> summary = summarize(Tally(np.array([30, 70]), np.array([0, 0, 50, 50])))
>>> summary.win_by_seat, summary.expected_rolls
([0.3, 0.7], 2.5)
>>> [round(end, 4) for end in summary.win_intervals[0]]
[0.2189, 0.3958]
"""

from __future__ import annotations

import math
import typing as t

import numpy as np

# One interval for the simulation and the class experiment alike.
from aces.inference import Z95, Interval, wilson

if t.TYPE_CHECKING:
    from aces.simulation.batch import Tally

__all__ = ["Z95", "Interval", "Summary", "summarize", "wilson"]


class Summary(t.NamedTuple):
    """What a simulation found, seat 0 being the first to roll after the opening."""

    games: int
    win_by_seat: list[float]
    win_intervals: list[Interval]
    expected_rolls: float
    rolls_interval: Interval
    sd_rolls: float
    #: Rolls in all the games over turns in all the games: the mean length of
    #: a turn, when the engine counts turns.
    rolls_per_turn: float | None = None


def summarize(tally: Tally) -> Summary:
    """Shares of wins and the game length, with their intervals."""
    games = tally.games
    lengths = np.arange(len(tally.lengths))
    rolls = int((lengths * tally.lengths).sum())
    mean = rolls / games
    squares = float((((lengths - mean) ** 2) * tally.lengths).sum())
    sd = math.sqrt(squares / (games - 1)) if games > 1 else 0.0
    half = Z95 * sd / math.sqrt(games)
    return Summary(
        games=games,
        win_by_seat=[int(w) / games for w in tally.wins],
        win_intervals=[wilson(int(w), games) for w in tally.wins],
        expected_rolls=mean,
        rolls_interval=Interval(mean - half, mean + half),
        sd_rolls=sd,
        rolls_per_turn=rolls / tally.turns if tally.turns else None,
    )
