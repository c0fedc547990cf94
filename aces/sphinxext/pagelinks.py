"""Links to the pages a class opens in a browser, from any page of the site.

``:aces-page:`simulation-4``` or ``:aces-page:`replay-three-players``` links
to a page that another page of the site embeds (``.. aces-simulation-page::
4``, ``.. aces-replay-page:: replays/three-players.jsonl``), in the build's
language: the front page offers a class the pages that need nothing
installed. The link's words are the page's own title, in the build's
language, without a final full stop. A link to a page that no page embeds,
so that the site would not have it, stops the build at the link's page and
line.
"""

from __future__ import annotations

import html
import re
import typing as t

from docutils import nodes

from aces.sphinxext.build import failed, language, registered, role_failed
from aces.sphinxext.pages import PAGES_FOLDER, embeds, page_uri, pages

if t.TYPE_CHECKING:
    from collections.abc import Sequence

    from docutils.parsers.rst.states import Inliner
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

__all__ = ["page_link", "page_role", "setup"]

_TITLE: t.Final = re.compile(r"<title>(.*?)</title>", re.DOTALL)
_NAME: t.Final = re.compile(r"^[a-z0-9-]+$")


class page_link(nodes.Inline, nodes.Element):  # noqa: N801 (docutils names nodes so)
    """Where ``:aces-page:`` stands, until every page has been read."""


def page_role(name: str, rawtext: str, text: str, lineno: int, inliner: Inliner,
              options: dict[str, t.Any] | None = None,
              content: Sequence[str] = ()) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    """``:aces-page:`simulation-4```: a link to an embedded page, in the build's language."""
    target = text.strip()
    if not _NAME.match(target):
        return role_failed(inliner, rawtext, lineno, f":{name}: {target!r} is not a page's name",
                           ", such as simulation-4 or replay-three-players")
    node = page_link(rawtext, target=target, line=lineno)
    source, node.line = inliner.reporter.get_source_and_line(lineno)
    node.source = str(source) if source is not None else None
    return [node], []


def _resolve(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Each link becomes a reference to its page where the builder makes web
    pages, and the page's title elsewhere; or the build fails naming it."""
    links = list(doctree.findall(page_link))
    if not links:
        return

    lang = language(app.config.language)
    written = {name: text for kept in pages(app.env).values() for name, text in kept.items()}
    for link in links:
        name = f"{link['target']}-{lang}.html"
        page = written.get(name)
        if page is None:
            message = (f":aces-page: no page of the site embeds {link['target']!r}"
                       f" ({PAGES_FOLDER}/{name}): embed it with aces-replay-page or"
                       " aces-simulation-page")
            failed(app.env, docname, message)
            from sphinx.util import logging

            logging.getLogger(__name__).error(message, location=link)
            link.replace_self(nodes.Text(link["target"]))
            continue
        found = _TITLE.search(page)
        # A replay page's title is a sentence; the link stands inside one.
        title = html.unescape(found[1]).strip().rstrip(".") if found else link["target"]
        if not embeds(app.builder):
            link.replace_self(nodes.Text(title))
            continue
        link.replace_self(nodes.reference("", title, refuri=page_uri(app.builder, docname, name),
                                          internal=False, classes=["aces-page-link"]))


def setup(app: Sphinx) -> ExtensionMetadata:
    """Register the links to the browser pages."""
    app.add_node(page_link)
    return registered(app, roles={"aces-page": page_role},
                      events=[("doctree-resolved", _resolve)])
