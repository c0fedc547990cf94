"""The layers of the package hold: a module imports only from its own layer or
lower ones, no imports go round in a cycle, and imports stand at the top.

The layers are written once, as import-linter's contracts in pyproject.toml
(explained in docs/layers.rst). An import inside a function is an edge at
run time like any other, and counts; only one under ``if TYPE_CHECKING:``
does not. The probes below plant an import in a copy of the package, to
show that each check fails when it should.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import tomllib
import typing as t
from pathlib import Path

import pytest

from aces.games import PIECES, registered, resolve

ROOT: t.Final = Path(__file__).resolve().parent.parent
PACKAGE: t.Final = ROOT / "aces"
CONFIG: t.Final = ROOT / "pyproject.toml"


def lint(package_parent: Path = ROOT, *contracts: str) -> subprocess.CompletedProcess[str]:
    """import-linter's report on the package found in ``package_parent``."""
    env = {**os.environ, "PYTHONPATH": str(package_parent)}
    limit = [arg for contract in contracts for arg in ("--contract", contract)]
    return subprocess.run([sys.executable, "-c", "from importlinter.cli import"
                           " lint_imports_command; lint_imports_command()",
                           "--config", str(CONFIG), "--no-cache", *limit],
                          cwd=package_parent, env=env, capture_output=True, text=True,
                          check=False)


def layers() -> list[set[str]]:
    """The layers of the contract, from the top, each a set of top-level names."""
    config = tomllib.loads(CONFIG.read_text(encoding="utf-8"))["tool"]["importlinter"]
    contract = next(c for c in config["contracts"] if c["id"] == "layers")
    found = []
    for layer in contract["layers"]:
        names = layer.replace("|", ":").split(":")
        found.append({name.strip().strip("()") for name in names})
    return found


def layer_of(module: str) -> int:
    """The layer of ``module`` (``aces.exact.chain``), counted from the top."""
    top = module.split(".")[1]
    return next(i for i, names in enumerate(layers()) if top in names)


def test_every_module_imports_only_from_its_own_layer_or_lower_ones() -> None:
    done = lint(ROOT, "layers")
    assert done.returncode == 0, done.stdout


def test_no_import_goes_round_in_a_cycle_between_modules_or_packages() -> None:
    done = lint(ROOT, "acyclic")
    assert done.returncode == 0, done.stdout


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> t.Callable[[str, str], str]:
    """A copy of the package with one import planted in one module, linted."""
    def lint_with(module: str, code: str) -> str:
        copy = tmp_path_factory.mktemp("planted")
        shutil.copytree(PACKAGE, copy / "aces",
                        ignore=shutil.ignore_patterns("__pycache__", "assets", "*.js", "*.css"))
        path = copy / Path(*module.split(".")).with_suffix(".py")
        path.write_text(path.read_text(encoding="utf-8") + "\n\n" + code + "\n",
                        encoding="utf-8")
        done = lint(copy)
        return done.stdout if done.returncode else ""

    return lint_with


def test_an_upward_import_inside_a_function_breaks_the_layers(
        planted: t.Callable[[str, str], str]) -> None:
    report = planted("aces.errors", "def _probe() -> None:\n    import aces.cli  # noqa")
    assert "aces.errors is not allowed to import aces.cli" in report


def test_a_face_importing_another_breaks_the_layers(
        planted: t.Callable[[str, str], str]) -> None:
    report = planted("aces.server.pages", "from aces import api  # noqa")
    assert "aces.server is not allowed to import aces.api" in report


def test_a_cycle_within_a_layer_breaks_the_acyclic_contract(
        planted: t.Callable[[str, str], str]) -> None:
    # The registry and the walk share a layer; the walk asks the registry for rules.
    report = planted("aces.games", "def _probe() -> None:\n    import aces.walk  # noqa")
    assert "No cycle of imports between modules or packages BROKEN" in report
    assert "A module imports only from its own layer or lower ones KEPT" in report


def test_a_type_only_import_is_no_edge(planted: t.Callable[[str, str], str]) -> None:
    assert planted("aces.errors", "import typing\nif typing.TYPE_CHECKING:\n"
                                  "    import aces.cli  # noqa") == ""


def test_every_module_has_its_place_in_a_layer() -> None:
    """A module no layer names fails the contract (it is exhaustive): a new
    module is given its place, in pyproject.toml and in docs/layers.rst."""
    named = set().union(*layers())
    modules = {path.stem if path.is_file() else path.name for path in PACKAGE.iterdir()
               if (path.suffix == ".py" and path.stem != "__init__")
               or (path / "__init__.py").is_file()}
    assert modules <= named, sorted(modules - named)


#: The layer of each piece a game registers as "module:name", by the first
#: name of the layer: the one in which it must stand, no higher than the
#: lowest layer that asks for it.
PIECE_LAYERS: t.Final = {
    "rules": {"rules"}, "holding": {"rules"}, "phrasebook": {"narrate"},
    "rulebook": {"walkthrough"}, "simulation": {"simulation"},
    "odds": {"exact", "simulation"}, "chances": {"experiment"},
    "expected": {"experiment"}, "page": {"walkthrough"},
}


def test_every_piece_a_registry_names_exists_and_stands_in_its_layer() -> None:
    assert set(PIECE_LAYERS) == set(PIECES)
    wrong: list[str] = []
    for game in registered().values():
        for piece in PIECES:
            where = game.where(piece)
            if where is None:
                continue
            assert resolve(where) is not None, where
            module = where.partition(":")[0]
            allowed = {i for i, names in enumerate(layers())
                       if names & PIECE_LAYERS[piece]}
            if layer_of(module) not in allowed:
                wrong.append(f"{game.name}: {piece} {where} is not in the layer of"
                             f" {sorted(PIECE_LAYERS[piece])}")
    assert not wrong, "\n".join(wrong)


#: Modules worth importing only when needed: heavy to load, or optional
#: (importlib.resources, for the table of look-alike names that a log of
#: plain names never reads).
HEAVY: t.Final = frozenset({"importlib", "numpy", "matplotlib", "sphinx", "docutils", "weasyprint",
                            "uvicorn", "starlette", "sse_starlette", "segno", "psycopg",
                            "psycopg_pool", "markupsafe", "django_static_mathjax",
                            "sphinx_click"})
#: Modules of the package that stand on an optional library (psycopg, of the
#: ``school`` extra): the class server on a folder imports them only when it
#: runs on the school's PostgreSQL.
OPTIONAL: t.Final = frozenset({"aces.classroom.database", "aces.classroom.postgres"})


def test_imports_stand_at_the_top_but_at_a_heavy_boundary_or_for_start_up() -> None:
    """Imports inside functions hide the graph; they are kept for a heavy
    library, an optional one (``try``, or a module of the package that needs
    one: :data:`OPTIONAL`), the package's five functions, and the command
    line, whose commands import what they run so that ``aces --help`` starts
    at once (tests/cli/test_startup.py)."""
    found: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith("aces/cli/") or relative == "aces/__init__.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        spared = {id(node) for guard in ast.walk(tree)
                  if isinstance(guard, ast.Try) or (isinstance(guard, ast.If)
                                                     and "TYPE_CHECKING" in ast.unparse(guard.test))
                  for node in ast.walk(guard)}
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in spared:
                    names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                             else [node.module or ""])
                    if not all(name.split(".")[0] in HEAVY or name in OPTIONAL
                               for name in names):
                        found.append(f"{relative}:{node.lineno}: {ast.unparse(node)}")
    assert not found, "\n".join(found)
