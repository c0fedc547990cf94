"""Exact answers from the chain: who wins, and how long a game lasts.

For every state the solver finds the chance that each seat (counted from
the roller) wins, and the first two moments of the number of rolls still
to come. Each is a linear system ``x = b + Q x`` over the states. Because
chips in play never grow, the systems are solved one layer at a time,
fewest chips first: what leads down to a smaller layer is already known,
and within a layer the iteration ``x <- b + Q x`` converges fast, since
every normal roll leaves the layer with the chance of showing an ace
(11/36). The length of a game is found by carrying the chance of being in
each state forward, one roll at a time.

>>> from aces.exact.chain import build
>>> answer = solve(build(2, 1, "last-chip"))
>>> [round(chance, 4) for chance in answer.win_by_seat]
[0.471, 0.529]
>>> round(answer.expected_rolls, 4)
9.7723
"""

from __future__ import annotations

import math
import typing as t

import numpy as np

if t.TYPE_CHECKING:
    from collections.abc import Callable

    from numpy.typing import NDArray

    from aces.exact.chain import Chain

__all__ = ["TOLERANCE", "Solution", "carry", "length_cdf", "solve", "state_values"]

#: Iterations stop once no value moves by more than this, relative to its size.
TOLERANCE: t.Final = 1e-14
_MAX_ITERATIONS: t.Final = 20_000
#: Iterations between two convergence checks (a check costs about one iteration).
_CHECK_EVERY: t.Final = 4
#: Rolls after which the length distribution gives up (a guard, never reached
#: for a quantile below one).
_MAX_ROLLS: t.Final = 1_000_000


class Solution(t.NamedTuple):
    """The answers for a game from its first roll after the opening."""

    #: Seat 0 rolls first; the others follow to its left.
    win_by_seat: list[float]
    expected_rolls: float
    sd_rolls: float


def solve(chain: Chain, progress: Callable[[float], None] | None = None) -> Solution:
    """Win chances by seat, and the mean and spread of the number of rolls.

    ``progress`` hears the share of the states solved, after each layer.
    """
    values = state_values(chain, progress)
    row = values[chain.start]
    n = chain.players
    expected = float(row[n])
    second = float(row[n + 1]) - 2 * expected
    return Solution(
        win_by_seat=[float(v) for v in row[:n]],
        expected_rolls=expected,
        sd_rolls=math.sqrt(max(second - expected * expected, 0.0)),
    )


def state_values(chain: Chain,
                 progress: Callable[[float], None] | None = None) -> NDArray[np.float64]:
    """For every state: the win chance of each seat from the roller, then
    ``E`` (rolls to come) and ``Z = 2 E + E[rolls**2]``.

    Storing ``Z`` keeps every column of the update a plain average over
    the next states: ``E = 1 + avg E'``, ``E[T**2] = 1 + avg Z'``.

    :raises RuntimeError: should the values not converge: a fault of the
        chain, never of what a user asked for.
    """
    n = chain.players
    width = n + 2
    chances = chain.chances()
    values = np.zeros((chain.size + 1, width))
    values[chain.size, 0] = 1.0  # the end: the player who rolled wins
    columns = np.arange(width)
    for lo, hi in zip(chain.layers[:-1], chain.layers[1:], strict=True):
        if lo == hi:
            continue
        nxt = chain.nxt[lo:hi].astype(np.int64)
        rot = chain.rot[lo:hi].astype(np.int64)
        inside = (nxt >= lo) & (nxt < hi)
        count = hi - lo
        # What leads out of the layer is known already.
        fixed = np.zeros((count, width))
        for o, chance in enumerate(chances):
            rows = np.flatnonzero(~inside[:, o])
            if len(rows):
                flat = _flat(nxt[rows, o], rot[rows, o], columns, n)
                fixed[rows] += chance * np.take(values, flat)
        # What stays in the layer is iterated. A spare zero row stands for
        # every target outside it, so that the classes of roll that mostly
        # stay (nothing, sixes) gather for every row at once, in one call,
        # and are averaged in one product; the few others go row by row.
        full_weights: list[float] = []
        full_flats: list[NDArray[np.int64]] = []
        some: list[tuple[float, NDArray[np.int64], NDArray[np.int64]]] = []
        for o, chance in enumerate(chances.tolist()):
            rows = np.flatnonzero(inside[:, o])
            if 2 * len(rows) > count:
                local = np.where(inside[:, o], nxt[:, o] - lo, count)
                full_weights.append(chance)
                full_flats.append(_flat(local, rot[:, o], columns, n))
            elif len(rows):
                some.append((chance, rows, _flat(nxt[rows, o] - lo, rot[rows, o], columns, n)))
        weights = np.array([full_weights])
        flats = np.stack(full_flats) if full_flats else np.zeros((0, count, width), np.int64)
        gathered = np.empty(flats.shape)
        layer, spare = np.zeros((count + 1, width)), np.zeros((count + 1, width))
        done = False
        for iteration in range(_MAX_ITERATIONS):
            new = spare[:count]
            np.take(layer, flats, out=gathered)
            np.matmul(weights, gathered.reshape(len(full_flats), -1), out=new.reshape(1, -1))
            new += fixed
            for chance, rows, flat in some:
                new[rows] += chance * np.take(layer, flat)
            # One more roll: E = 1 + avg E', E[T**2] = 1 + avg Z', Z = 2 E + E[T**2].
            new[:, n] += 1.0
            new[:, n + 1] += 1.0 + 2.0 * new[:, n]
            if iteration % _CHECK_EVERY == 0:
                change = np.abs(new - layer[:count]) / np.maximum(1.0, np.abs(new))
                done = float(change.max()) <= TOLERANCE
            layer, spare = spare, layer
            if done:
                break
        else:  # pragma: no cover - the chain always converges
            raise RuntimeError("the exact solution did not converge")
        values[lo:hi] = layer[:count]
        if progress is not None:
            progress(hi / chain.size)
    return values


def _flat(target: NDArray[np.int64], rot: NDArray[np.int64],
          columns: NDArray[np.int64], n: int) -> NDArray[np.int64]:
    """Flat indices of the values a state averages over, rotated to its roller.

    Seat ``j`` from this roller is seat ``j - rot`` from the next one; the
    last two columns (the moments) do not rotate.
    """
    width = len(columns)
    turned = np.where(columns[None, :] < n, (columns[None, :] - rot[:, None]) % n, columns)
    return target[:, None] * width + turned


def length_cdf(chain: Chain, quantile: float,
               progress: Callable[[float], None] | None = None) -> list[float]:
    """The chance that the game is over within ``k`` rolls, for ``k = 1, 2, ...``.

    The list ends at the first ``k`` where the chance reaches ``quantile``;
    ``progress`` hears how far the chance has come towards it.

    >>> from aces.exact.chain import build
    >>> [round(p, 4) for p in length_cdf(build(2, 1, "last-chip"), 0.5)]
    [0.0, 0.0, 0.0, 0.1023, 0.2047, 0.307, 0.4093, 0.5012]
    """
    chances = chain.chances()
    size = chain.size
    # Branch (state, outcome) of the flat table leads to nxt[state, outcome].
    return carry(lambda mass: (mass[:size, None] * chances[None, :]).ravel(),
                 chain.nxt.astype(np.int64).ravel(), chain.start, size, quantile, progress)


def carry(moving: Callable[[NDArray[np.float64]], NDArray[np.float64]],
          targets: NDArray[np.int64], start: int, size: int, quantile: float,
          progress: Callable[[float], None] | None = None) -> list[float]:
    """The chance that a game is over within ``k`` rolls, for ``k = 1, 2, ...``,
    the chance of each of ``size`` states carried from ``start`` one roll at a time.

    ``moving(mass)`` is the chance that goes along each branch, given the
    chance of each state (and, last, of the game over); branch ``b`` leads to
    state ``targets[b]``, and a target of ``size`` is the game over. The
    list ends at the first ``k`` where the chance of being over reaches
    ``quantile``; ``progress`` hears how far it has come towards it.

    >>> # One state, left with a chance of 1/2 at every roll.
    >>> carry(lambda mass: mass[[0, 0]] * 0.5, np.array([0, 1]), 0, 1, 0.8)
    [0.5, 0.75, 0.875]
    """
    mass = np.zeros(size + 1)
    mass[start] = 1.0
    over = 0.0
    cdf: list[float] = []
    # Stop on either count: the sum of what ended can fall short of the
    # quantile by rounding alone, what is left cannot. A quantile so small
    # that 1 - quantile rounds to 1 still goes on to the first game over.
    left = 1.0
    while over < quantile and (left > 1 - quantile or not over) and len(cdf) < _MAX_ROLLS:
        mass = np.bincount(targets, weights=moving(mass), minlength=size + 1).astype(np.float64)
        over += float(mass[size])
        mass[size] = 0.0
        left = float(mass.sum())
        cdf.append(min(over, 1.0))
        if progress is not None:
            progress(min(over / quantile, 1.0))
    if progress is not None:
        progress(1.0)
    return cdf
