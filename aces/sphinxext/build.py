"""What the package's directives share with a Sphinx build: their language, their
logs, what they keep of each document, and their failures.

A build reads its documents in parallel (``-j``) and again when they
change, so what a directive keeps of a document is a :class:`ByDocument`,
merged from the parallel readers and forgotten when the document is read
again. Whatever cannot be shown (a missing or invalid log, an unknown
language) is one warning at its document and line, in the build's
language, and a failure status when the build ends, with ``-W`` or
without: a page never shows a silently empty section.

An extension that builds on these (the project's own documentation does,
in ``docs/sphinxext``) subclasses :class:`AcesDirective` and registers
itself with :func:`registered`.
"""

from __future__ import annotations

import typing as t
from pathlib import Path

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from aces import __version__
from aces.errors import AcesError, OptionError, Term
from aces.files import os_reason
from aces.i18n import negotiate
from aces.log import read
from aces.walkthrough import TURNING_POINTS, Aside, Standings, Told

if t.TYPE_CHECKING:
    from collections.abc import Callable, Collection, Mapping, Sequence

    from docutils.parsers.rst import Directive
    from docutils.parsers.rst.states import Inliner
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata, RoleFunction

    from aces.log import Reader
    from aces.walkthrough import Part

__all__ = ["DEFAULT_SHOWN", "TEXT_ONLY", "AcesDirective", "ByDocument", "failed", "language",
           "registered", "role_failed", "setup", "table_node", "told", "walkthrough_nodes"]

#: What a walkthrough shows unless told otherwise: what ``aces walkthrough`` writes.
DEFAULT_SHOWN: t.Final = frozenset({"narration", "standings", "rules", "turning-points"})

R = t.TypeVar("R")
N = t.TypeVar("N", bound=nodes.Element)
V = t.TypeVar("V")

#: Builders that only read the text (to translate or to test it): the
#: computed parts of a page are left out of them.
TEXT_ONLY: t.Final = frozenset({"gettext", "doctest"})


class ByDocument(t.Generic[V]):
    """What the extensions keep for each document, with the build environment.

    Kept there under :attr:`name`, it is pickled with the environment. What
    a document kept is forgotten when the document is read again, and taken
    from the parallel reader that read it: :func:`registered` connects both
    for every store made, so no store can miss either and go stale.
    """

    #: Every store made, for the handlers that purge and merge them all.
    made: t.ClassVar[list[ByDocument[t.Any]]] = []

    def __init__(self, name: str) -> None:
        self.name = name
        ByDocument.made.append(self)

    def __call__(self, env: BuildEnvironment) -> dict[str, V]:
        """The store of ``env``, made empty on first use."""
        found: dict[str, V] | None = getattr(env, self.name, None)
        if found is None:
            found = {}
            setattr(env, self.name, found)
        return found


#: What each document asked for and could not have.
_failures: t.Final = ByDocument[list[str]]("aces_failures")


def failed(env: BuildEnvironment, docname: str, message: str) -> None:
    """Note that ``docname`` asked for something it cannot have: the build will fail."""
    _failures(env).setdefault(docname, []).append(message)


def role_failed(inliner: Inliner, rawtext: str, lineno: int, reason: str,
                hint: str = "") -> tuple[list[nodes.Node], list[nodes.system_message]]:
    """What a role that cannot be shown gives: ``reason`` (and ``hint``) in the
    page at its line, and a build that fails naming it."""
    env = inliner.document.settings.env
    failed(env, env.docname, reason)
    message = inliner.reporter.error(reason + hint, line=lineno)
    return [inliner.problematic(rawtext, rawtext, message)], [message]


def _purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    for store in ByDocument.made:
        store(env).pop(docname, None)


def _merge(app: Sphinx, env: BuildEnvironment, docnames: set[str],
           other: BuildEnvironment) -> None:
    for store in ByDocument.made:
        store(env).update((docname, value) for docname, value in store(other).items()
                          if docname in docnames)


def _started(app: Sphinx) -> None:
    """Let the directives know the builder: some leave their work out of text-only builds."""
    app.env.aces_builder = app.builder.name  # type: ignore[attr-defined]


def _finish(app: Sphinx, exception: Exception | None) -> None:
    """A build with a page that asked for something impossible fails, even without -W."""
    if exception is None and any(_failures(app.env).values()):
        app.statuscode = 1


def language(config_language: str | None) -> str:
    """The package's language for a build's ``language`` setting (``nb``, ``nb_NO``...).

    A language the package does not (yet) speak has its computed parts
    (narration, pages) in English, the language of the sources, until the
    package's catalog for it exists.

    >>> language("nb_NO"), language("fr"), language(None)
    ('nb', 'en', 'en')
    """

    try:
        return negotiate(config_language or "en", {})
    except OptionError:
        return "en"


class AcesDirective(SphinxDirective):
    """What the package's directives share: the build's language, their logs,
    and loud failure."""

    @property
    def build_lang(self) -> str:
        """The build's language, as the package speaks it: its warnings speak it."""
        return language(self.config.language)

    @property
    def lang(self) -> str:
        """The language the directive shows: its ``:lang:`` (any the package ships,
        ``nb``, ``nn_NO``, ``no``...), else the build's."""

        chosen = self.options.get("lang")
        if chosen is None:
            return self.build_lang
        try:
            return negotiate(str(chosen), {})
        except OptionError as exc:
            self.fail(exc)

    def marked(self, lang: str) -> str | None:
        """``lang``, where it is not the site's: what a part told in it is marked
        with (``lang="nb"`` in a web page), for a screen reader to speak it in
        its own language; ``None`` where it is the site's own."""
        return None if lang == (self.config.language or "en") else lang

    def number(self, option: str) -> int | None:
        """The value of an option that takes a whole number from 1 (``:game: 2``), if given."""

        given = self.options.get(option)
        if given is None:
            return None
        try:
            value = int(given)
        except ValueError:
            value = 0
        if value < 1:
            self.fail(OptionError("{option} must be at least 1, not {games}",
                                  option=Term(f":{option}:"), games=given))
        return value

    @property
    def builder(self) -> str:
        """The name of the builder at work (recorded when it starts, see :func:`registered`)."""
        return str(getattr(self.env, "aces_builder", ""))

    @property
    def text_only(self) -> bool:
        return self.builder in TEXT_ONLY

    def fail(self, reason: str | AcesError) -> t.NoReturn:
        """Report ``reason`` at this directive's line, in the page and the build's
        log, in the build's language."""

        said = reason.spoken(self.build_lang) if isinstance(reason, AcesError) else reason
        message = f"{self.name}: {said}"
        failed(self.env, self.env.docname, message)
        raise self.error(message)

    def log_path(self, name: str) -> Path:
        """Where the log ``name`` is; the page is rebuilt when it changes.

        As for Sphinx's ``literalinclude``, a relative path is read from the
        folder of the document that names it, and an absolute one (``/logs/
        game.jsonl``) from the source folder; or, where ``aces_log_root`` is
        set, every path from that folder (relative to the source folder).
        """
        root = self.config.aces_log_root
        if root is None:
            _, found = self.env.relfn2path(name)
            path = Path(found).resolve()
        else:
            path = Path(self.env.srcdir, root, name).resolve()
        self.env.note_dependency(str(path))
        return path

    def read_log(self, name: str, reader: Callable[[Reader], R]) -> tuple[R, Path]:
        """What ``reader`` makes of the log ``name``, and where the log is; a log
        that cannot be opened or is not sound fails the build here, naming it."""

        path = self.log_path(name)
        try:
            with path.open("rb") as stream:
                return reader(read(stream, name)), path
        except OSError as exc:
            self.fail(OptionError("cannot read {path}: {reason}", path=str(path),
                                  reason=os_reason(exc)))
        except AcesError as exc:
            self.fail(exc)


def told(node: N) -> N:
    """``node`` marked as already in its language: none of its text is a message
    for the documentation's catalogs, nor translated by them."""
    for element in node.findall(nodes.TextElement):
        element["translatable"] = False
    return node


def table_node(header: Sequence[str], rows: Sequence[Sequence[str]], stub: int = 1,
               classes: Sequence[str] = (),
               cell: Callable[[str], list[nodes.Node]] | None = None) -> nodes.table:
    """A plain table: a header row, then the rows; ``stub`` label columns at the
    left, the others numbers (set to the right); ``cell`` makes each cell's
    nodes from its text (by default, the text as it is)."""
    table = nodes.table(classes=["aces-table", *classes])
    group = nodes.tgroup(cols=len(header))
    table += group
    # A column as wide as its widest text: what a text or LaTeX build lays
    # out by (a web page lays out by its own).
    for column in zip(header, *rows, strict=True):
        group += nodes.colspec(colwidth=max(1, *(len(text) for text in column)))
    made = cell or (lambda text: [nodes.Text(text)])

    def row_of(cells: Sequence[str]) -> nodes.row:
        row = nodes.row()
        for number, text in enumerate(cells):
            row += nodes.entry("", nodes.paragraph("", "", *made(text)),
                               classes=[] if number < stub else ["aces-number"])
        return row

    group += nodes.thead("", row_of(header))
    group += nodes.tbody("", *(row_of(cells) for cells in rows))
    return table


def registered(app: Sphinx, directives: Mapping[str, type[Directive]] | None = None,
               roles: Mapping[str, RoleFunction] | None = None,
               events: Sequence[tuple[str, Callable[..., t.Any]]] = ()) -> ExtensionMetadata:
    """Register an extension's directives, roles and event handlers; its metadata.

    This module is set up first (once, however many extensions ask), so that
    every extension of the package reads and writes in parallel safely.
    """
    app.setup_extension(__name__)
    for name, directive in (directives or {}).items():
        app.add_directive(name, directive)
    for name, role in (roles or {}).items():
        app.add_role(name, role)
    for event, handler in events:
        app.connect(event, handler)
    return _metadata()


def _metadata() -> ExtensionMetadata:
    # Every extension of the package keeps what it knows of a document in a
    # ByDocument, so each is safe to read and write in parallel.
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}


def setup(app: Sphinx) -> ExtensionMetadata:
    """What every extension of the package shares: where logs are found, the
    builder made known to the directives, every :class:`ByDocument` purged
    and merged, and a build with a failure ending with status 1."""
    # None: a log's path is read as literalinclude reads one (see AcesDirective.log_path).
    app.add_config_value("aces_log_root", None, "env", types=[str, type(None)])
    app.connect("builder-inited", _started)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    app.connect("build-finished", _finish)
    return _metadata()


def walkthrough_nodes(parts: Sequence[Part], shown: Collection[str] = DEFAULT_SHOWN,
                      lang: str | None = None) -> nodes.container:
    """A walkthrough as docutils nodes: each game's opening as a rubric, the
    narration as line blocks, the rules as admonitions, the standings as
    tables; only what ``shown`` names (see :data:`SHOWN`). It is told in its
    own language, so none of it goes to the documentation's catalogs; told in
    ``lang``, another than the page's, it is marked so (docutils writes the
    class ``language-nb`` as ``lang="nb"``)."""
    box = nodes.container(classes=["aces-walkthrough",
                                   *([f"language-{lang}"] if lang else [])])
    for part in parts:
        if isinstance(part, Told):
            if "narration" not in shown:
                continue
            lines = list(part.lines)
            if part.opens_game:
                box += nodes.rubric(text=lines.pop(0), classes=["aces-game"])
            if lines:
                box += nodes.line_block("", *(nodes.line(text=line) for line in lines))
        elif isinstance(part, Aside):
            if ("turning-points" if part.rule == TURNING_POINTS else "rules") not in shown:
                continue
            box += nodes.admonition("", nodes.title(text=part.label),
                                    nodes.paragraph(text=part.text),
                                    classes=["tip", "aces-rule"])
        elif isinstance(part, Standings) and "standings" in shown:
            box += table_node(part.header, [part.row], stub=0, classes=["aces-standings"])
    return told(box)
