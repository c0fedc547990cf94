"""The documentation's build tool, ``scripts/docs.py``, for the tests that build the site."""

from __future__ import annotations

import importlib.util
import typing as t
from pathlib import Path

ROOT: t.Final = Path(__file__).resolve().parent.parent


def load_tool() -> t.Any:
    """``scripts/docs.py``, the one way the site is built and checked."""
    spec = importlib.util.spec_from_file_location("docs_tool", ROOT / "scripts" / "docs.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
