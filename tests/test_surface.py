"""The package states its public surface: ``__all__`` in every module meant to be
imported, and in the docstring of every public function the exceptions it raises.

A caller (the command line, the docs, a pupil's program) learns from a
function's docstring which errors to expect: ``read`` raises
:class:`~aces.errors.TruncatedLogError`, which ``record`` relies on. Each
exception a public function or method raises itself (``raise
OptionError(...)``, or ``raise too_wide()`` of a function that returns one)
must be named in a ``:raises X:`` field, or a class it derives from
(``:raises AcesError:`` covers them all). Errors passed on from what it
calls are the callee's to state; assertions and NotImplementedError are no
contract.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import inspect
import pkgutil
import re
import textwrap
import typing as t

import aces
from aces.errors import OptionError, TruncatedLogError


def public_modules() -> list[str]:
    """Every module of the package but the private ones (``_name``) and ``__main__``."""
    found = ["aces"]
    for module in pkgutil.walk_packages(aces.__path__, "aces."):
        if not any(part.startswith("_") for part in module.name.split(".")):
            found.append(module.name)
    return found


def test_every_public_module_names_its_public_surface_and_nothing_it_lacks() -> None:
    missing: list[str] = []
    for name in public_modules():
        module = importlib.import_module(name)
        names: t.Sequence[str] | None = getattr(module, "__all__", None)
        if names is None:
            missing.append(f"{name} has no __all__")
            continue
        missing.extend(f"{name}.{item} is in __all__ but not defined" for item in names
                       if not hasattr(module, item))
        for item, value in vars(module).items():
            defined_here = getattr(value, "__module__", None) == name
            if (not item.startswith("_") and defined_here and item not in names
                    and (inspect.isfunction(value) or inspect.isclass(value))):
                missing.append(f"{name}.{item} is public but not in __all__")
    assert not missing, "\n".join(missing)


def test_the_walk_the_registry_and_the_errors_are_among_them() -> None:
    from aces import errors, games, walk

    assert {"Visitor", "drive", "walk", "Step", "Standing"} <= set(walk.__all__)
    assert {"Registration", "register", "registration"} <= set(games.__all__)
    assert {"AcesError", "LogError", "TruncatedLogError", "RollError"} <= set(errors.__all__)


#: Raised, but no part of the contract.
NOT_CONTRACT: t.Final = frozenset({NotImplementedError, AssertionError})
_RAISES: t.Final = re.compile(r":raises\s+~?([\w.]+)\s*:")


def _public_functions(module: t.Any) -> t.Iterator[tuple[str, t.Any, str]]:
    """Each public function and method of ``module``: its name, the function,
    and the docstring that states its contract (a class's, for ``__init__``)."""
    for name in getattr(module, "__all__", ()):
        value = getattr(module, name)
        if getattr(value, "__module__", None) != module.__name__:
            continue
        if inspect.isfunction(value):
            yield name, value, inspect.getdoc(value) or ""
        elif inspect.isclass(value):
            for attribute, member in vars(value).items():
                if isinstance(member, (classmethod, staticmethod)):
                    member = member.__func__
                if (not inspect.isfunction(member) or member.__module__ != module.__name__
                        or member.__code__.co_filename.startswith("<")):
                    # Not a function of the module's own: one it inherits (a
                    # Protocol's __init__), or one a decorator made (a
                    # dataclass's), which has no source.
                    continue
                if attribute == "__init__":
                    doc = (inspect.getdoc(member) or "") + (inspect.getdoc(value) or "")
                elif attribute.startswith("_"):
                    continue
                else:
                    doc = inspect.getdoc(member) or ""
                yield f"{name}.{attribute}", member, doc


def _raised(function: t.Any) -> set[type[BaseException]]:
    """The exceptions ``function`` raises itself, as far as its source says."""
    try:
        source = textwrap.dedent(inspect.getsource(function))
    except OSError:
        raise AssertionError(f"no source for {function!r}") from None
    tree = ast.parse(source)
    node = tree.body[0]
    assert isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    names = dict(vars(builtins))
    names.update(function.__globals__)
    found: set[type[BaseException]] = set()
    for inner in ast.walk(node):
        if isinstance(inner, ast.ImportFrom) and inner.module and inner.level == 0:
            module = importlib.import_module(inner.module)
            for alias in inner.names:
                if hasattr(module, alias.name):
                    names[alias.asname or alias.name] = getattr(module, alias.name)
    for inner in _own_nodes(node):
        if not isinstance(inner, ast.Raise) or inner.exc is None:
            continue
        target = inner.exc.func if isinstance(inner.exc, ast.Call) else inner.exc
        if not isinstance(target, ast.Name) or target.id not in names:
            continue
        kind = names[target.id]
        if inspect.isfunction(kind):
            # A function that makes the error: its return annotation says which.
            kind = t.get_type_hints(kind).get("return")
        if inspect.isclass(kind) and issubclass(kind, BaseException) \
                and kind not in NOT_CONTRACT:
            found.add(kind)
    return found


def _own_nodes(function: ast.AST) -> t.Iterator[ast.AST]:
    """The nodes of a function's body, not of functions or classes inside it."""
    for child in ast.iter_child_nodes(function):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                              ast.Lambda)):
            continue
        yield child
        yield from _own_nodes(child)


def _stated(kind: type[BaseException], doc: str) -> bool:
    named = {name.rpartition(".")[2] for name in _RAISES.findall(doc)}
    return any(base.__name__ in named for base in kind.__mro__)


def test_every_public_function_states_what_it_raises() -> None:
    unstated = [
        f"{module.__name__}.{name}: {kind.__name__}"
        for module in map(importlib.import_module, public_modules())
        for name, function, doc in _public_functions(module)
        for kind in sorted(_raised(function), key=lambda kind: kind.__name__)
        if not _stated(kind, doc)
    ]
    assert not unstated, "\n".join(unstated)


def test_the_check_finds_an_unstated_error() -> None:
    def quiet(value: int) -> None:
        """Nothing said."""
        if value:
            raise OptionError("no")

    def told(value: int) -> None:
        """:raises ~aces.errors.AcesError: when it must."""
        if value:
            raise OptionError("no")

    assert _raised(quiet) == {OptionError}
    assert not _stated(OptionError, inspect.getdoc(quiet) or "")
    assert _stated(OptionError, inspect.getdoc(told) or "")
    assert not _stated(OptionError, ":raises ~aces.errors.TruncatedLogError: cut short")
    assert _stated(TruncatedLogError, ":raises ~aces.errors.LogError: bad")
