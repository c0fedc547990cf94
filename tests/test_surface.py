"""The package states its public surface: ``__all__`` in every module meant to be imported."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import typing as t

import aces


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
