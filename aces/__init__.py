"""aces: Aces in the Pot and Aces, as event-sourced games.

Every game is an append-only log of events; state is always derived by
folding them through the pure rules in :mod:`aces.rules`. See the README
and the documentation for the command line.

For programs and notebooks, five functions (:mod:`aces.api`):
``aces.load``, ``aces.play``, ``aces.odds``, ``aces.simulate`` and
``aces.stats``. Each is imported when first used, so ``import aces`` loads
nothing else.

>>> import aces
>>> aces.odds(2, chips=1).win_by_seat[0] < 0.5
True
"""

from __future__ import annotations

import sys
import types
import typing as t

if t.TYPE_CHECKING:
    # What the type checker sees; at run time the descriptors below find them.
    from aces.api import load as load  # noqa: TC004
    from aces.api import odds as odds  # noqa: TC004
    from aces.api import play as play  # noqa: TC004
    from aces.api import simulate as simulate  # noqa: TC004
    from aces.api import stats as stats  # noqa: TC004

__version__ = "0.1.0"
__all__ = ["load", "odds", "play", "simulate", "stats"]


class _Public:
    """One function of :mod:`aces.api`, found when first asked for.

    ``aces.odds`` and ``aces.simulate`` are also the names of subpackages.
    Importing a subpackage sets the parent's attribute of that name to the
    module; as a data descriptor on the package's type, this one is asked
    first and keeps the name for the function. The subpackages themselves
    stay importable by their full names (``from aces.odds import exact``).
    """

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, package: object, owner: type | None = None) -> t.Any:
        from aces import api

        return getattr(api, self.name)

    def __set__(self, package: object, value: object) -> None:
        """The import system records a subpackage here: it stays in sys.modules."""


class _Package(types.ModuleType):
    load = _Public("load")
    play = _Public("play")
    odds = _Public("odds")
    simulate = _Public("simulate")
    stats = _Public("stats")


sys.modules[__name__].__class__ = _Package
