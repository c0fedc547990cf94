"""Pages a class opens in a browser, embedded in the documentation.

``.. aces-replay-page:: LOG``
    The replay page of a log (``aces replay --html``): the table, the
    narration in every language, each player's chance at every roll. With
    ``:game: N``, only that game of the log; with ``:lang: nb``, opening
    in that language (by default the build's).
``.. aces-simulation-page:: 4``
    The simulation page (``aces simulate --html``) for that many players,
    with two chips each; it takes ``:lang:`` too.

A page is written into the site's ``_aces`` folder once the build is done,
and shown in a frame, with a link that opens it alone (for a projector).
Both are made when the page is written, for the builder at work: the
frame's address is relative to where that builder puts the page
(``game.html`` under ``html``, ``game/index.html`` under ``dirhtml``, one
page under ``singlehtml``). Builders that do not make a website (``latex``,
``epub``, ``text``, ``man``...) get plain text instead: the narration of
the log, or the exact chances of the simulation. Nothing is written, and no
``_aces`` folder made, where no page embeds one.
"""

from __future__ import annotations

__all__ = ["EMBEDDING", "PAGES_FOLDER", "EmbedPages", "ReplayPageDirective",
           "SimulationPageDirective", "embedded_page", "embeds", "page_uri", "replay_page",
           "write_pages"]

import html
import posixpath
import typing as t
from pathlib import Path

from babel.numbers import format_decimal
from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.transforms.post_transforms import SphinxPostTransform

from aces.errors import AcesError, OptionError
from aces.i18n import babel_locale, translations
from aces.narrate.chances import percent_in
from aces.page.html import render, render_simulation, write_atomically
from aces.page.replay import PageCollector
from aces.page.simulation import collect
from aces.sphinxext.build import (
    TEXT_ONLY,
    AcesDirective,
    ByDocument,
    table_node,
    told,
    walkthrough_nodes,
)
from aces.walk import drive
from aces.walkthrough import walkthrough

if t.TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.builders import Builder


#: Where the pages embedded in the documentation are written, in each site.
PAGES_FOLDER: t.Final = "_aces"
#: The builders whose pages show an embedded page in a frame.
EMBEDDING: t.Final = frozenset({"html", "dirhtml", "singlehtml"})

#: The pages each document embeds, by file name, written out when the build
#: is done (see :func:`write_pages`).
pages: t.Final = ByDocument[dict[str, str]]("aces_pages")


class embedded_page(nodes.General, nodes.Element):  # noqa: N801 (docutils names nodes so)
    """Where a page is embedded, until the builder is known: its ``name`` (the
    file in :data:`PAGES_FOLDER`) and ``title``, and as children what stands
    in its place where no frame can (:data:`EMBEDDING`)."""


def embeds(builder: Builder) -> bool:
    """Whether ``builder`` makes web pages that can show another in a frame."""
    return builder.name in EMBEDDING


def page_uri(builder: Builder, docname: str, name: str) -> str:
    """The address of the embedded page ``name`` from the page that builder makes
    of ``docname``.

    Under ``html`` the page of ``guide/game`` is ``guide/game.html``, under
    ``dirhtml`` ``guide/game/index.html``, and under ``singlehtml`` every
    document is in the one page at the top.
    """
    target = "" if builder.name == "singlehtml" else builder.get_target_uri(docname)
    here = posixpath.dirname(target) if not target.endswith("/") else target.rstrip("/")
    return posixpath.relpath(f"{PAGES_FOLDER}/{name}", here or ".")


def _frame(uri: str, title: str, opener: str) -> str:
    uri, label = html.escape(uri, quote=True), html.escape(title, quote=True)
    return (f'<figure class="aces-page"><iframe src="{uri}" title="{label}" loading="lazy"'
            f' style="width: 100%; height: 42rem; border: 1px solid #767676"></iframe>'
            f'<figcaption><a href="{uri}">{html.escape(opener)}</a></figcaption></figure>')


def _embed(directive: AcesDirective, name: str, text: str, title: str, lang: str,
           fallback: list[nodes.Node]) -> embedded_page:
    """The page ``text``, kept to be written as ``name``, and its place in the document."""

    pages(directive.env).setdefault(directive.env.docname, {})[name] = text
    # Translators: under a page embedded in the documentation (a replay or
    # a simulation), the link that opens it alone, for a projector.
    opener = translations(lang).gettext("Open it on a page of its own")
    node = embedded_page("", *fallback, name=name, title=title, opener=opener)
    directive.set_source_info(node)
    return node


class EmbedPages(SphinxPostTransform):
    """Each embedded page as a frame where the builder makes web pages, as its
    plain text elsewhere, and as nothing where the text is only read."""

    default_priority = 200

    def run(self, **kwargs: t.Any) -> None:
        builder = self.app.builder
        for node in list(self.document.findall(embedded_page)):
            if builder.name in TEXT_ONLY:
                node.parent.remove(node)
            elif embeds(builder):
                uri = page_uri(builder, self.env.docname, node["name"])
                node.replace_self(nodes.raw("", _frame(uri, node["title"], node["opener"]),
                                            format="html"))
            else:
                node.replace_self(node.children)


def write_pages(app: Sphinx, exception: Exception | None) -> None:
    """Write every embedded page beside the site's own, for the builders that frame them."""
    if exception is not None or not embeds(app.builder):
        return
    written = [(name, text) for kept in pages(app.env).values() for name, text in kept.items()]
    if not written:
        return

    folder = Path(app.outdir) / PAGES_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in written:
        write_atomically(str(folder / name), text)


def replay_page(directive: AcesDirective, name: str, lang: str,
                game: int | None = None) -> embedded_page:
    """The replay page of the log ``name`` (of its game ``game``, if given), opening
    in ``lang``; in plain text, the log's narration."""

    data, path = directive.read_log(name, lambda log: drive(log, name, PageCollector(
        game, name, lang), allow_unfinished=True, allow_unsettled=False))
    parts, _ = directive.read_log(name, lambda log: walkthrough(
        log, name, translations(lang), lang, game=game, turning_points=False))
    page = f"replay-{path.stem}{'' if game is None else f'-{game}'}-{lang}.html"
    return _embed(directive, page, render(data), data["games"][0]["start"]["text"][lang][0],
                  lang, [walkthrough_nodes(parts, {"narration", "standings"},
                                           directive.marked(lang))])


class ReplayPageDirective(AcesDirective):
    """``.. aces-replay-page:: LOG``: the replay page of a log (``aces replay --html``)."""

    required_arguments = 1
    final_argument_whitespace = True
    option_spec: t.ClassVar[dict[str, t.Callable[[str], t.Any]]] = {
        "lang": directives.unchanged_required, "game": directives.unchanged_required}

    def run(self) -> list[nodes.Node]:
        return [replay_page(self, self.arguments[0], self.lang, self.number("game"))]


class SimulationPageDirective(AcesDirective):
    """``.. aces-simulation-page:: 4``: the simulation page (``aces simulate --html``)
    for that many players, with two chips each."""

    required_arguments = 1
    option_spec: t.ClassVar[dict[str, t.Callable[[str], t.Any]]] = {
        "lang": directives.unchanged_required}

    def run(self) -> list[nodes.Node]:
        lang = self.lang
        try:
            players = int(self.arguments[0])
        except ValueError:
            # Translators: an error of a simulation page in the documentation,
            # whose argument is not a number of players. {value}: what it is.
            self.fail(OptionError("a simulation page takes a number of players, not {value!r}",
                                  value=self.arguments[0]))
        try:
            data = collect(players, 2, "last-chip", lang)
        except AcesError as exc:
            self.fail(exc)
        words = data["labels"][lang]
        exact = nodes.container("", *_exact(data), classes=[
            "aces-exact", *([f"language-{lang}"] if self.marked(lang) else [])])
        return [_embed(self, f"simulation-{players}-{lang}.html", render_simulation(data),
                       words["title"], lang, [exact])]


def _exact(data: dict[str, t.Any]) -> list[nodes.Node]:
    """What a simulation page shows without a script, as text: its title, and
    each seat's exact chance with the mean length of a game."""

    lang = data["lang"]
    words = data["labels"][lang]
    table = next(entry for entry in data["tables"] if entry["players"] == data["players"]
                 and entry["finish"] == data["finish"])
    locale = babel_locale(lang)
    seats = data["seats"][lang][:table["players"]]
    row = [percent_in(p, locale) for p in table["exact"]["by_seat"]]
    row.append(format_decimal(table["exact"]["rolls"], "0.00", locale=locale))
    return [told(nodes.paragraph(text=words["title"])),
            told(table_node([*seats, words["rolls"]], [row], stub=0))]
