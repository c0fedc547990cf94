"""The project's tools in ``scripts/``, for the tests that check what they build:
``docs.py`` (the site) and ``catalogs.py`` (the package's message catalogs); and
what the pages' directives ask for."""

from __future__ import annotations

import importlib.util
import re
import typing as t
from pathlib import Path

ROOT: t.Final = Path(__file__).resolve().parent.parent
DOCS: t.Final = ROOT / "docs"
#: The ``conf.py`` of a small site that loads the documentation's own
#: extensions (``docs/sphinxext``) as the documentation's ``conf.py`` does.
DOCS_EXTENSIONS: t.Final = (f"import sys\nsys.path.insert(0, {str(DOCS)!r})\n"
                            'extensions = ["sphinxext"]\n')


def load_tool(name: str = "docs") -> t.Any:
    """``scripts/NAME.py``: by default ``docs.py``, the one way the site is built and
    checked; ``catalogs`` for the one way the package's catalogs are."""
    spec = importlib.util.spec_from_file_location(f"{name}_tool", ROOT / "scripts" / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def directive_specs(directive: str) -> list[str]:
    """What every ``.. DIRECTIVE:: spec`` of the pages asks for, each once, sorted."""
    found = re.compile(rf"^\.\. {re.escape(directive)}:: (.+)$", re.MULTILINE)
    return sorted({spec for path in DOCS.rglob("*.rst")
                   for spec in found.findall(path.read_text(encoding="utf-8"))})
