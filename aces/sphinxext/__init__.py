"""Narrated walkthroughs and replay pages in anyone's Sphinx or MyST documentation.

One line in a ``conf.py``, ``extensions = ["aces.sphinxext"]``, adds:

``.. aces-walkthrough:: LOG``
    A log told as a walkthrough of the rules (:mod:`aces.sphinxext.walkthroughs`):
    the narration, each rule explained the first time it applies, the
    standings, each game's turning points; ``:lang:``, ``:game:`` and
    ``:show:`` choose the language, the game and what it shows.
``.. aces-replay-page:: LOG`` and ``.. aces-simulation-page:: 4``
    The replay page of a log (``aces replay --html``) and the simulation
    page (``aces simulate --html``) in a frame, with a link that opens them
    alone (:mod:`aces.sphinxext.pages`); plain text where the builder makes
    no website.
``:aces-page:`replay-three-players```
    A link to a page that another page embeds (:mod:`aces.sphinxext.pagelinks`).

It needs Sphinx and the package, nothing else, and changes none of the
writer's settings. A log's path is read as ``literalinclude`` reads one:
relative to the document that names it, or from the source folder when it
starts with ``/`` (unless ``aces_log_root`` names a folder to read every
log from). The page's language is the build's, unless ``:lang:`` asks for
another the package ships. Whatever cannot be shown (a missing or invalid
log, an unknown language) is one warning at its document and line, in the
build's language, and the build ends with a failure status, with ``-W`` or
without (:mod:`aces.sphinxext.build`). The documentation's page "For
writers" shows every option, in reStructuredText and in MyST Markdown.
"""

from __future__ import annotations

import typing as t

from aces.sphinxext.build import ByDocument, registered, walkthrough_nodes
from aces.sphinxext.pages import (
    PAGES_FOLDER,
    EmbedPages,
    ReplayPageDirective,
    SimulationPageDirective,
    embedded_page,
    write_pages,
)
from aces.sphinxext.walkthroughs import WalkthroughDirective

if t.TYPE_CHECKING:
    from docutils.parsers.rst import Directive
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

__all__ = ["DIRECTIVES", "PAGES_FOLDER", "ByDocument", "ReplayPageDirective",
           "SimulationPageDirective", "WalkthroughDirective", "setup", "walkthrough_nodes"]

#: The directives a writer gets, by name.
DIRECTIVES: t.Final[dict[str, type[Directive]]] = {
    "aces-walkthrough": WalkthroughDirective,
    "aces-replay-page": ReplayPageDirective,
    "aces-simulation-page": SimulationPageDirective,
}


def setup(app: Sphinx) -> ExtensionMetadata:
    """Register the walkthroughs, the embedded pages and the links to them."""
    app.require_sphinx("8.0")
    app.add_node(embedded_page)
    app.add_post_transform(EmbedPages)
    app.setup_extension("aces.sphinxext.pagelinks")
    return registered(app, DIRECTIVES, events=[("build-finished", write_pages)])
