"""Exact answers from the chain: who wins, and how long a game lasts.

For every state the solver finds the chance that each seat (counted from
the roller) wins, and the first two moments of the number of rolls still
to come. Each is a linear system ``x = b + Q x`` over the states. Because
chips in play never grow, the systems are solved one layer at a time,
fewest chips first: what leads down to a smaller layer is already known,
and within a layer Gauss-Seidel sweeps of ``x <- b + Q x`` converge fast,
since every normal roll leaves the layer with the chance of showing an ace
(11/36), and the sweeps take the states in an order that follows the
likeliest roll, the one that does nothing (see :func:`_sweep_order`).
The length of a game is found by carrying the chance of being in each
state forward, one roll at a time.

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

__all__ = ["CHUNK", "TOLERANCE", "Solution", "carry", "length_cdf", "solve", "state_values"]

#: Iterations stop once no value moves by more than this, relative to its size.
TOLERANCE: t.Final = 1e-14
_MAX_ITERATIONS: t.Final = 20_000
#: Iterations between two convergence checks (a check costs about one iteration).
_CHECK_EVERY: t.Final = 4
#: Rows updated together in a sweep. Each update passes over its rows
#: several times (gathering what they lead to, averaging, adding, writing
#: back); a chunk this size keeps those passes in a core's own cache, where
#: a whole block of a large layer (170,000 rows for eight players) streamed
#: them through main memory and took four times as long. Smaller chunks
#: also read more values already updated in the same sweep, so that fewer
#: sweeps are needed; much smaller ones pay for the calls themselves.
CHUNK: t.Final = 2048
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

    ``progress`` hears the share of the states solved, as they settle.
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


def state_values(chain: Chain, progress: Callable[[float], None] | None = None, *,
                 chunk: int = CHUNK) -> NDArray[np.float64]:
    """For every state: the win chance of each seat from the roller, then
    ``E`` (rolls to come) and ``Z = 2 E + E[rolls**2]``.

    Storing ``Z`` keeps every column of the update a plain average over
    the next states: ``E = 1 + avg E'``, ``E[T**2] = 1 + avg Z'``.

    ``progress`` hears the share of the work done, within a layer as its
    values settle; ``chunk`` is the most rows updated together
    (:data:`CHUNK`; the answers are the same for any, to the tolerance).

    :raises RuntimeError: should the values not converge: a fault of the
        chain, never of what a user asked for.
    """
    n = chain.players
    width = n + 2
    chances = chain.chances()
    values = np.zeros((chain.size + 1, width))
    values[chain.size, 0] = 1.0  # the end: the player who rolled wins
    columns = np.arange(width)
    for lo, hi in zip(chain.layers[:-1].tolist(), chain.layers[1:].tolist(), strict=True):
        if lo == hi:
            continue
        settled = None if progress is None else _settling(progress, lo, hi, chain.size)
        values[lo:hi] = _layer_values(chain, lo, hi, values, chances, columns, chunk, settled)
        if progress is not None:
            progress(hi / chain.size)
    return values


def _settling(progress: Callable[[float], None], lo: int, hi: int,
              size: int) -> Callable[[float], None]:
    """What a layer's sweeps tell: how far its values have moved, from the
    first sweep's change down to :data:`TOLERANCE`, on a log scale (the
    change shrinks by about the same factor every sweep), as a share of
    all the states, never going back."""
    first: list[float] = []
    done = [0.0]

    def heard(change: float) -> None:
        if not first:
            first.append(max(change, 10 * TOLERANCE))
            return
        share = math.log(first[0] / max(change, TOLERANCE)) / math.log(first[0] / TOLERANCE)
        done[0] = max(done[0], min(share, 1.0))
        progress((lo + (hi - lo) * done[0]) / size)

    return heard


class _Block(t.NamedTuple):
    """Rows of a layer updated together (``begin`` to ``end`` in sweep
    order), and what their update reads."""

    begin: int
    end: int
    #: What leads out of the layer, known already.
    fixed: NDArray[np.float64]
    #: The chances of the outcomes that mostly stay in the layer, as a row.
    weights: NDArray[np.float64]
    #: Their flat indices into the layer (a spare zero row for those that leave).
    flats: NDArray[np.int64]
    #: The few others: chance, rows of the block, flat indices.
    some: list[tuple[float, NDArray[np.int64], NDArray[np.int64]]]


def _layer_values(chain: Chain, lo: int, hi: int, values: NDArray[np.float64],
                  chances: NDArray[np.float64], columns: NDArray[np.int64], chunk: int,
                  settled: Callable[[float], None] | None) -> NDArray[np.float64]:
    """The values of one layer, from those of the layers below: ``x = b + Q x``
    solved by Gauss-Seidel sweeps, the layer's rows taken in blocks (see
    :func:`_sweep_order`) cut into chunks of ``chunk`` rows, and each chunk
    read what the chunks before it have just written. ``settled`` hears
    the largest change at every check."""
    n = chain.players
    width = len(columns)
    count = hi - lo
    order = _sweep_order(chain, lo, hi, chain.nxt[lo:hi, 0].astype(np.int64) - lo)
    # The layer is held in sweep order, so that each block is a slice of it.
    rows_in_order = np.concatenate(order)
    place = np.empty(count + 1, dtype=np.int64)
    place[rows_in_order] = np.arange(count)
    place[count] = count
    nxt = chain.nxt[lo:hi].astype(np.int64)[rows_in_order]
    rot = chain.rot[lo:hi].astype(np.int64)[rows_in_order]
    inside = (nxt >= lo) & (nxt < hi)
    local = place[np.where(inside, nxt - lo, count)]
    blocks: list[_Block] = []
    begin = 0
    for rows in _chunks(order, chunk):
        end = begin + len(rows)
        part = slice(begin, end)
        fixed = np.zeros((len(rows), width))
        # One more roll: E = 1 + avg E', and Z = 2 E + 1 + avg Z' (see below).
        fixed[:, n:] = 1.0
        full_weights: list[float] = []
        full_flats: list[NDArray[np.int64]] = []
        some: list[tuple[float, NDArray[np.int64], NDArray[np.int64]]] = []
        for o, chance in enumerate(chances.tolist()):
            stay = inside[part, o]
            leave = np.flatnonzero(~stay)
            if len(leave):
                flat = _flat(nxt[part, o][leave], rot[part, o][leave], columns, n)
                fixed[leave] += chance * np.take(values, flat)
            staying = np.flatnonzero(stay)
            if 2 * len(staying) > len(rows):
                full_weights.append(chance)
                full_flats.append(_flat(local[part, o], rot[part, o], columns, n))
            elif len(staying):
                some.append((chance, staying,
                             _flat(local[part, o][staying], rot[part, o][staying], columns, n)))
        flats = np.stack(full_flats) if full_flats \
            else np.zeros((0, len(rows), width), np.int64)
        blocks.append(_Block(begin, end, fixed, np.array([full_weights]), flats, some))
        begin = end
    # A spare zero row stands for every target outside the layer, so that
    # the classes of roll that mostly stay (nothing, sixes) gather for every
    # row of a block in one call, and are averaged in one product; the few
    # others go row by row.
    layer = np.zeros((count + 1, width))
    for iteration in range(_MAX_ITERATIONS):
        checking = iteration % _CHECK_EVERY == 0
        change = 0.0
        for block in blocks:
            gathered = np.take(layer, block.flats)
            new = (block.weights @ gathered.reshape(len(block.flats), -1)).reshape(
                block.end - block.begin, width)
            new += block.fixed
            for chance, rows, flat in block.some:
                new[rows] += chance * np.take(layer, flat)
            # E[T**2] = 1 + avg Z' (the 1 is in fixed), and Z = 2 E + E[T**2].
            new[:, n + 1] += 2.0 * new[:, n]
            if checking:
                moved = np.abs(new - layer[block.begin:block.end])
                moved /= np.maximum(1.0, np.abs(new))
                change = max(change, float(moved.max()))
            layer[block.begin:block.end] = new
        if checking and change <= TOLERANCE:
            return layer[place[:count]]
        if checking and settled is not None:
            settled(change)
    raise RuntimeError("the exact solution did not converge")  # pragma: no cover


def _chunks(order: list[NDArray[np.int64]], chunk: int) -> list[NDArray[np.int64]]:
    """The blocks of a sweep cut into chunks of at most ``chunk`` rows, in order.

    >>> [part.tolist() for part in _chunks([np.arange(5), np.arange(5, 7)], 2)]
    [[0, 1], [2, 3], [4], [5, 6]]
    """
    return [rows[start:start + chunk] for rows in order for start in range(0, len(rows), chunk)]


def _sweep_order(chain: Chain, lo: int, hi: int,
                 idle: NDArray[np.int64]) -> list[NDArray[np.int64]]:
    """The layer's rows in the blocks of a sweep, each block's rows local to the layer.

    A roll that does nothing (no 1 and no 6, the likeliest outcome) hands the
    dice to the next holder: it moves a state round its *orbit*, the same
    chips seen from each holder in turn. The normal states are put in blocks
    by their place on their orbit, counted back from its end, so that a
    state is updated after the one that nothing leads to, and reads its new
    value: a sweep then carries the values round every orbit but for one
    step, and the error shrinks by the chance of a six staying in the layer
    rather than of any roll staying (about 0.45 a sweep instead of 0.69).
    The tries, three at most, come last.
    """
    first_try = int(chain.try_start[np.searchsorted(chain.layers, lo, side="right") - 1])
    normal = (first_try if first_try >= 0 else hi) - lo
    blocks: list[NDArray[np.int64]] = []
    if normal:
        step = idle[:normal]
        if not ((step >= 0) & (step < normal)).all():
            raise AssertionError("a roll that does nothing leaves the chips")
        # Each orbit's first state: the lowest row on it (orbits are at most
        # one state per seat long).
        first = np.arange(normal)
        walker = step.copy()
        for _ in range(chain.players):
            np.minimum(first, walker, out=first)
            walker = step[walker]
        place = np.full(normal, -1, dtype=np.int64)
        at = np.flatnonzero(first == np.arange(normal))
        for k in range(chain.players):
            fresh = place[at] < 0
            if not fresh.any():
                break
            at = at[fresh]
            place[at] = k
            at = step[at]
        for k in range(int(place.max()), -1, -1):
            blocks.append(np.flatnonzero(place == k))
    if normal < hi - lo:
        blocks.append(np.arange(normal, hi - lo))
    return blocks


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
        # bincount's sums of float weights are float already: no copy.
        mass = np.asarray(np.bincount(targets, weights=moving(mass), minlength=size + 1),
                          dtype=np.float64)
        over += float(mass[size])
        mass[size] = 0.0
        left = float(mass.sum())
        cdf.append(min(over, 1.0))
        if progress is not None:
            progress(min(over / quantile, 1.0))
    if progress is not None:
        progress(1.0)
    return cdf
