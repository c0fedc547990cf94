"""The package installed as its users install it, once for the session: the sdist,
and new environments outside the checkout, one with the wheel alone (as
``pip install aces-dice`` leaves it) and one a writer's, with Sphinx and MyST
beside it (tests/installs.py). The two environments are filled at once: pip
spends most of its time waiting on files."""

from __future__ import annotations

import concurrent.futures
import typing as t

import pytest

from installs import build_sdist, new_venv

if t.TYPE_CHECKING:
    from pathlib import Path

    from installs import Venv


@pytest.fixture(scope="session")
def sdist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_sdist(tmp_path_factory.mktemp("sdist"))


@pytest.fixture(scope="session")
def environments(tmp_path_factory: pytest.TempPathFactory, wheel: Path) -> dict[str, Venv]:
    """Both environments, made side by side."""
    wanted = {
        # The wheel and its dependencies, and nothing else.
        "user": (wheel,),
        # A writer's: Sphinx, myst-parser and the wheel, nothing of the project's.
        "writer": (wheel, "sphinx", "myst-parser"),
    }
    with concurrent.futures.ThreadPoolExecutor(len(wanted)) as pool:
        made = {name: pool.submit(new_venv, tmp_path_factory.mktemp(name) / "venv", *needs)
                for name, needs in wanted.items()}
        return {name: future.result() for name, future in made.items()}


@pytest.fixture(scope="session")
def installed(environments: dict[str, Venv]) -> Venv:
    return environments["user"]


@pytest.fixture(scope="session")
def writer(environments: dict[str, Venv]) -> Venv:
    return environments["writer"]
