"""The old import paths keep working, and ``aces.odds`` and ``aces.simulate``
stay the functions, whatever is imported first.

The exact odds and the simulation were the packages ``aces.odds`` and
``aces.simulate`` before they became :mod:`aces.exact` and
:mod:`aces.simulation`; the documentation's lessons and pupils' programs
import from the old paths. Each probe runs in a fresh interpreter, so that
nothing another test imported decides the answer.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from aces import _moved

PROBES = (
    # An old subpackage's module first, then the functions of the package.
    "from aces.odds.outcomes import CHANCES\nfrom aces.exact.outcomes import CHANCES as NEW\n"
    "assert CHANCES is NEW\nimport aces\nassert callable(aces.odds)\n"
    "assert aces.odds(2, chips=1).win_by_seat[0] < 0.5",
    # The old package itself, as a module and by attribute.
    "import aces.odds\nimport aces\nassert callable(aces.odds) and callable(aces.simulate)\n"
    "from aces.odds import exact, Odds\nfrom aces.exact import Solved\nassert Odds is Solved\n"
    "assert exact(2, 1, 'last-chip', 0.5).players == 2",
    # The simulation's old paths, and a name that moved with its module.
    "from aces.simulate import simulation\nfrom aces.simulate.stats import summarize\n"
    "from aces.simulate.tables import Table\nfrom aces.simulation.tables import TransitionTable\n"
    "assert Table is TransitionTable\n"
    "assert summarize(simulation('pot', 3, {}).run(100, seed=1)).games == 100\n"
    "import aces\nassert aces.simulate(3, games=100, seed=1).games == 100",
    # The five-dice chains, which moved from the simulation to the exact odds.
    "from aces.simulate import fivedice_chain\nimport aces.exact.fivedice_chain as new\n"
    "assert fivedice_chain.build is new.build\nfrom aces import odds\nassert callable(odds)",
)


@pytest.mark.parametrize("probe", PROBES)
def test_an_old_import_path_gives_the_new_module_and_the_functions_keep_their_names(
        probe: str) -> None:
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr


def test_every_old_path_leads_to_a_module_that_is_there() -> None:
    import importlib

    for old, new in _moved.MOVED.items():
        module = importlib.import_module(new)
        for name in getattr(module, "__all__", ()):
            assert getattr(importlib.import_module(old), name) is getattr(module, name), (old, name)


def test_no_module_of_the_package_is_named_as_a_function_of_it() -> None:
    """A submodule named ``odds`` would take the name of ``aces.odds`` as it loads."""
    import pkgutil

    import aces

    modules = {info.name for info in pkgutil.iter_modules(aces.__path__)}
    assert modules.isdisjoint(aces.__all__)
