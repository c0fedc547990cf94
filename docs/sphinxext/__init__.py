"""The project's own documentation machinery: the lessons computed from the code.

These extensions serve this documentation alone, so they live beside it
(as matplotlib keeps its own in ``doc/sphinxext``) and never travel with
the package: a writer who adds ``aces.sphinxext`` to their own docs loads
none of them, nor matplotlib, sphinx-click or MathJax. ``conf.py`` puts
this folder's parent on the path and names ``sphinxext``, which sets up
the package's extension and every one of these:

``:aces:`try```
    A number of the lessons (:mod:`sphinxext.quantities`, computed by
    :mod:`sphinxext.lessons`).
``.. aces-table:: outcomes`` and ``.. aces-plot:: nothing(20000)``
    A table or a plot of the lessons (:mod:`sphinxext.tables`,
    :mod:`sphinxext.plots`), drawn at build time.
Formulas
    With the lessons' numbers in them, typeset by a MathJax the site
    carries itself (:mod:`sphinxext.formulas`, :mod:`sphinxext.mathjax`).
``.. aces-output:: odds --players 3`` and ``.. aces-commands::``
    What an ``aces`` command prints, and the command reference by
    sphinx-click, in the build's language (:mod:`sphinxext.commands`).
``.. aces-language:: nb``
    Text written for one language only (:mod:`sphinxext.languages`, which
    also links every page to itself in the site's other languages).
``.. aces-lesson::``, ``.. aces-lessons::`` and ``.. aces-sheet::``
    A lesson's facts, the table of lessons, and the pupils' sheets
    (:mod:`sphinxext.teaching`, :mod:`sphinxext.sheets`).
``.. aces-stats:: LOG...`` and ``.. aces-api::``
    A class's logs pooled by ``aces stats``, and the reference of the
    public API (:mod:`sphinxext.experiment`).
Accessible HTML
    Toctree captions with a heading level, and boxes that scroll sideways
    reached by keyboard (:mod:`sphinxext.access`).

They share the package's machinery (:mod:`aces.sphinxext.build`): loud
failure at a document's line, and what they keep of each document merged
from parallel readers.
"""

from __future__ import annotations

import typing as t

from aces.sphinxext.build import registered

if t.TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

__all__ = ["EXTENSIONS", "setup"]

#: The extensions this one sets up: the package's, then each of this folder.
EXTENSIONS: t.Final = ("aces.sphinxext", "sphinxext.quantities", "sphinxext.tables",
                       "sphinxext.plots", "sphinxext.commands", "sphinxext.languages",
                       "sphinxext.mathjax", "sphinxext.teaching", "sphinxext.sheets",
                       "sphinxext.experiment", "sphinxext.access")


def setup(app: Sphinx) -> ExtensionMetadata:
    """Set up the package's extension and every extension of the documentation."""
    for extension in EXTENSIONS:
        app.setup_extension(extension)
    return registered(app)
