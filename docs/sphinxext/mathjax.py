"""Formulas typeset by MathJax, served from the site itself: the pages work offline.

Sphinx's own ``sphinx.ext.mathjax`` writes ``:math:`` and ``.. math::`` for
MathJax, which it would load from a CDN. A school network may block that, and
a page saved to a laptop must still work on the train; so the script comes
from a Python package that ships MathJax (``django-static-mathjax``, MathJax
3, with no dependencies of its own) and is copied into the site's ``_static``
folder. Only ``tex-svg.js`` is copied: a single file that needs no web fonts,
since it draws every symbol as SVG. Without JavaScript a formula reads as its
TeX source.
"""

from __future__ import annotations

import importlib.resources
import shutil
import typing as t
from pathlib import Path

from sphinx.errors import SphinxError

from aces.sphinxext.build import registered

if t.TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.util.typing import ExtensionMetadata

__all__ = ["SCRIPT", "MathJaxMissingError", "setup", "shipped"]

#: Where the script goes in the site, below ``_static``.
SCRIPT: t.Final = "mathjax/tex-svg.js"


class MathJaxMissingError(SphinxError):
    """The package that ships MathJax is not installed."""

    category = "aces documentation error"


def shipped() -> Path:
    """The folder of MathJax's files in the installed package.

    :raises MathJaxMissingError: when it is not installed, or not whole.
    """
    try:
        root = importlib.resources.files("mathjax")
    except ModuleNotFoundError:
        raise MathJaxMissingError("MathJax is not installed: pip install -e '.[docs]'") from None
    folder = Path(str(root)) / "static" / "mathjax"
    if not (folder / "es5" / "tex-svg.js").is_file():
        raise MathJaxMissingError(f"the installed MathJax has no es5/tex-svg.js ({folder})")
    return folder


def _configure(app: Sphinx, config: Config) -> None:
    # A relative path is served from the site's own _static folder.
    config.mathjax_path = SCRIPT
    # Symbols drawn once per page and reused: smaller pages, same look.
    config.mathjax3_config = {"svg": {"fontCache": "global"}}


def _copy(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    folder = shipped()
    target = Path(app.outdir, "_static", SCRIPT).parent
    target.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(folder / "es5" / "tex-svg.js", target / "tex-svg.js")
    shutil.copyfile(folder / "LICENSE", target / "LICENSE")


def setup(app: Sphinx) -> ExtensionMetadata:
    """Typeset math with a MathJax the site carries itself."""
    shipped()
    app.setup_extension("sphinx.ext.mathjax")
    # The package's numbers in the formulas, and the formulas drawn for the pupil sheets.
    app.setup_extension("sphinxext.formulas")
    return registered(app, events=[("config-inited", _configure), ("build-finished", _copy)])
