"""The old import paths of modules that moved, kept working.

``aces.odds`` and ``aces.simulate`` are two of the package's functions
(``aces.odds(4)``, ``aces.simulate(4)``); the packages they also named
until they moved are :mod:`aces.exact` (the exact odds of both games) and
:mod:`aces.simulation` (the fast engines). A program, a notebook or a page
of the documentation that imports from an old path (``from aces.odds
import exact``, ``from aces.simulate.stats import summarize``) is given
what the new module holds: each old path is a module of its own in
``sys.modules``, made when ``aces`` is imported, which looks every name up
in its new module when first asked for. Nothing is imported before then,
and the functions keep their names on the package.

>>> from aces.odds.outcomes import CHANCES
>>> from aces.exact import outcomes
>>> CHANCES is outcomes.CHANCES
True
"""

from __future__ import annotations

import importlib
import sys
import types
import typing as t

__all__ = ["MOVED", "Moved", "install"]

#: Each old path, and where its module is now.
MOVED: t.Final = {
    "aces.odds": "aces.exact",
    "aces.odds.budget": "aces.chances.budget",
    "aces.odds.chain": "aces.exact.chain",
    "aces.odds.finish": "aces.exact.finish",
    "aces.odds.outcomes": "aces.exact.outcomes",
    "aces.odds.solve": "aces.exact.solve",
    "aces.simulate": "aces.simulation",
    "aces.simulate.batch": "aces.simulation.batch",
    "aces.simulate.chips": "aces.simulation.chips",
    "aces.simulate.cores": "aces.simulation.cores",
    "aces.simulate.fivedice": "aces.simulation.fivedice",
    "aces.simulate.pot": "aces.simulation.pot",
    "aces.simulate.stats": "aces.simulation.stats",
    "aces.simulate.tables": "aces.simulation.tables",
    "aces.simulate.fivedice_chain": "aces.exact.fivedice_chain",
    "aces.simulate.fivedice_lengths": "aces.exact.fivedice_lengths",
}
#: Names that changed with their module, by old path.
RENAMED: t.Final = {
    "aces.odds": {"Odds": "Solved"},
    "aces.simulate.tables": {"Table": "TransitionTable"},
}


class Moved(types.ModuleType):
    """An old import path: every name is looked up in the module it moved to."""

    def __init__(self, old: str, new: str) -> None:
        super().__init__(old, f"The old path of :mod:`{new}`, which holds what it held.")
        self.__moved_to__ = new

    def __getattr__(self, name: str) -> t.Any:
        if name.startswith("__") and name.endswith("__") and name != "__all__":
            raise AttributeError(name)
        module = importlib.import_module(self.__moved_to__)
        found = RENAMED.get(self.__name__, {}).get(name, name)
        try:
            return getattr(module, found)
        except AttributeError:
            below = f"{self.__name__}.{name}"
            if below in MOVED:
                return sys.modules[below]
            raise

    def __dir__(self) -> list[str]:
        return dir(importlib.import_module(self.__moved_to__))


def install() -> None:
    """Put every old path in ``sys.modules``, where the import system finds it."""
    for old, new in MOVED.items():
        sys.modules.setdefault(old, Moved(old, new))
