"""The site's HTML for every reader: captions a screen reader can place among the
headings, and every region that scrolls reachable from the keyboard.

Two findings of axe-core on the pages Sphinx writes, against WCAG 2.1:

* A toctree's caption ("Lessons", in the sidebar and on the front page) is
  ``<p class="caption" role="heading">`` with no level (4.1.2 Name, role,
  value; axe's ``aria-required-attr``, rated critical). Here it gets the level
  of a heading just below the section it stands in: 2 in the sidebar and under
  a page's title, one more in each section deeper.
* A wide table, a long line of code or a command's output scrolls sideways in
  its own box on a phone (1.4.10 Reflow lets it, rather than the page), but a
  box that scrolls must be reachable from the keyboard to be scrolled (2.1.1
  Keyboard; axe's ``scrollable-region-focusable``). Each such box takes the
  focus (``tabindex="0"``), shows it (``aces.css``), and is a named region, so
  that a screen reader says what it arrived at: the table's caption, or
  "Table" or "Code" in the page's language.

Both are made by the HTML translator as it writes the page (the sidebar too,
which Sphinx renders with the same translator), never by editing what it
wrote. It serves this documentation only: it changes the translator of every
HTML builder, which a writer's own project may not want.
"""

from __future__ import annotations

import re
import typing as t

from docutils import nodes
from sphinx import addnodes
from sphinx.writers.html5 import HTML5Translator

from aces.i18n import translations
from aces.sphinxext.build import language, registered

if t.TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

__all__ = ["BUILDERS", "AccessibleTranslator", "caption_level", "setup"]

#: The builders whose pages are read in a browser.
BUILDERS: t.Final = ("html", "dirhtml", "singlehtml")
#: The class furo gives the box it wraps each table in, which scrolls sideways.
_TABLE_BOX: t.Final = "table-wrapper"
#: What makes a box the reader can tab to, and hear named.
_REGION: t.Final = {"tabindex": "0", "role": "region"}
_PRE: t.Final = re.compile(r"<pre(?=[\s>])")


def caption_level(section_level: int) -> int:
    """The heading level of a toctree's caption inside ``section_level`` sections.

    >>> [caption_level(n) for n in (0, 1, 2, 5, 9)]
    [2, 2, 3, 6, 6]
    """
    return min(max(section_level + 1, 2), 6)


class AccessibleTranslator(HTML5Translator):
    """Sphinx's HTML5 translator, with headings' levels and reachable scrolling boxes."""

    def _names(self) -> tuple[str, str]:
        """The names of a table's box and a code block's, in the page's language."""
        catalog = translations(language(self.config.language))
        # Translators: what a screen reader calls a table without a caption,
        # or a block of code or of a command's output, in the documentation,
        # where it scrolls sideways on a phone and is reached with Tab.
        return (catalog.pgettext("a box that scrolls sideways", "Table"),
                catalog.pgettext("a box that scrolls sideways", "Code"))

    def visit_title(self, node: nodes.title) -> None:
        parent = node.parent
        if isinstance(parent, addnodes.compact_paragraph) and parent.get("toctree"):
            level: dict[str, t.Any] = {"aria-level": caption_level(self.section_level)}
            self.body.append(self.starttag(node, "p", "", CLASS="caption", ROLE="heading",
                                           **level))
            self.body.append('<span class="caption-text">')
            self.context.append("</span></p>\n")
            self.add_secnumber(node)
            self.add_fignumber(parent)
            return
        super().visit_title(node)

    def _region(self, table: nodes.Element) -> dict[str, t.Any]:
        """A table's box: reached with Tab, named by the table's caption."""
        title = next(iter(table.findall(nodes.title)), None)
        return {**_REGION, "aria-label": title.astext() if title is not None
                else self._names()[0]}

    def visit_container(self, node: nodes.container) -> None:
        if _TABLE_BOX not in node["classes"]:
            super().visit_container(node)
            return
        node.html5tagname = "div"  # type: ignore[attr-defined]  # what docutils' departure closes
        self.body.append(self.starttag(node, "div", CLASS="docutils container",
                                       **self._region(node)))

    def _boxed(self, node: nodes.table) -> bool:
        """Whether the table stands in furo's box (on a page, not on a pupil sheet,
        which Sphinx renders without the theme's transforms)."""
        parent = node.parent
        return isinstance(parent, nodes.container) and _TABLE_BOX in parent["classes"]

    def visit_table(self, node: nodes.table) -> None:
        if not self._boxed(node):
            self.body.append(f'<div class="{_TABLE_BOX}"' + "".join(
                f' {name}="{self.attval(str(value))}"'
                for name, value in self._region(node).items()) + ">\n")
        super().visit_table(node)

    def depart_table(self, node: nodes.table) -> None:
        super().depart_table(node)
        if not self._boxed(node):
            self.body.append("</div>\n")

    def visit_literal_block(self, node: nodes.literal_block) -> None:
        before = len(self.body)
        try:
            super().visit_literal_block(node)
        finally:
            # Its <pre> is the box that scrolls (in the highlighted block's one string).
            label = self.attval(self._names()[1])
            for at in range(before, len(self.body)):
                marked, found = _PRE.subn(
                    f'<pre tabindex="0" role="region" aria-label="{label}"', self.body[at], 1)
                if found:
                    self.body[at] = marked
                    break


def _translators(app: Sphinx) -> None:
    for builder in BUILDERS:
        app.set_translator(builder, AccessibleTranslator, override=True)


def setup(app: Sphinx) -> ExtensionMetadata:
    _translators(app)
    return registered(app)
