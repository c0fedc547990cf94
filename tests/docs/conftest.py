"""The documentation built once for the session, shared by its tests and the browser's."""

from __future__ import annotations

import importlib.util
import typing as t
from pathlib import Path

import pytest

ROOT: t.Final = Path(__file__).resolve().parent.parent.parent


def load_tool() -> t.Any:
    """``scripts/docs.py``, the one way the site is built and checked."""
    spec = importlib.util.spec_from_file_location("docs_tool", ROOT / "scripts" / "docs.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> dict[str, t.Any]:
    """Every build of the site, by name, and the fresh message templates."""
    tool = load_tool()
    out = tmp_path_factory.mktemp("docs")
    builds: dict[str, t.Any] = {result.name: result for result in tool.build(out)}
    builds["templates"] = tool.extract(out / "gettext")
    return builds
