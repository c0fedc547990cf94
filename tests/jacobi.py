"""The solver as it was before its Gauss-Seidel sweeps: the reference the new one is held to.

Plain Jacobi iteration, layer by layer, ``x <- b + Q x`` for every state
of a layer at once, until no value moves by more than 1e-14. Slow, and
simple enough to trust: the tests compare every state's answers with
:func:`aces.exact.solve.state_values` to 1e-9.
"""

from __future__ import annotations

import typing as t

import numpy as np

if t.TYPE_CHECKING:
    from numpy.typing import NDArray

    from aces.exact.chain import Chain


def jacobi_values(chain: Chain) -> NDArray[np.float64]:
    """Every state's win chance by seat from the roller, ``E`` and ``Z``, as
    :func:`aces.exact.solve.state_values` gives them."""
    n = chain.players
    width = n + 2
    chances = chain.chances()
    values = np.zeros((chain.size + 1, width))
    values[chain.size, 0] = 1.0
    columns = np.arange(width)
    for lo, hi in zip(chain.layers[:-1].tolist(), chain.layers[1:].tolist(), strict=True):
        if lo == hi:
            continue
        nxt = chain.nxt[lo:hi].astype(np.int64)
        rot = chain.rot[lo:hi].astype(np.int64)
        # Seat j from this roller is seat j - rot from the next; E and Z do not turn.
        turned = np.where(columns[None, None, :] < n,
                          (columns[None, None, :] - rot[:, :, None]) % n, columns)
        inside = (nxt >= lo) & (nxt < hi)
        layer = np.zeros((hi - lo, width))
        for _ in range(20_000):
            new = np.zeros_like(layer)
            for o, chance in enumerate(chances):
                source = np.where(inside[:, o, None], 0.0,
                                  values[nxt[:, o, None], turned[:, o]])
                rows = np.flatnonzero(inside[:, o])
                source[rows] = layer[nxt[rows, o, None] - lo, turned[rows, o]]
                new += chance * source
            new[:, n] += 1.0
            new[:, n + 1] += 1.0 + 2.0 * new[:, n]
            moved = np.abs(new - layer) / np.maximum(1.0, np.abs(new))
            layer = new
            if moved.max() <= 1e-14:
                break
        else:
            raise AssertionError("the reference did not converge")
        values[lo:hi] = layer
    return values
