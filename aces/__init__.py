"""aces: Aces in the Pot and Aces, as event-sourced games.

Every game is an append-only log of events; state is always derived by
folding them through the pure rules in :mod:`aces.rules`. See the README
and the documentation for the command line.

For programs and notebooks, five functions (:mod:`aces.api`):
``aces.load``, ``aces.play``, ``aces.odds``, ``aces.simulate`` and
``aces.stats``. Each is found when first asked for (the module's
``__getattr__``), so ``import aces`` loads nothing else. The exact odds
and the simulation, once also named ``aces.odds`` and ``aces.simulate``,
are :mod:`aces.exact` and :mod:`aces.simulation`; their old import paths
still work (:mod:`aces._moved`).

>>> import aces
>>> aces.odds(2, chips=1).win_by_seat[0] < 0.5
True
"""

from __future__ import annotations

import typing as t

from aces import _moved

if t.TYPE_CHECKING:
    # What the type checker sees; at run time __getattr__ finds them.
    from aces.api import load as load
    from aces.api import odds as odds
    from aces.api import play as play
    from aces.api import simulate as simulate
    from aces.api import stats as stats

__version__ = "0.1.0"
__all__ = ["load", "odds", "play", "simulate", "stats"]

_moved.install()


def __getattr__(name: str) -> t.Any:
    """One of the five functions of :mod:`aces.api`, imported when first asked for."""
    if name in __all__:
        from aces import api

        return getattr(api, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
