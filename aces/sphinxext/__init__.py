"""The package's own Sphinx extension: the documentation computed from the code.

``extensions = ["aces.sphinxext"]`` in a ``conf.py`` adds:

``.. aces-walkthrough:: replays/three-players.jsonl``
    A log told as a walkthrough (:mod:`aces.walkthrough`), in the build's
    language; the path is relative to ``aces_log_root``, itself relative to
    the documentation's source folder.
``:aces:`try```
    A number of the lessons (:mod:`aces.sphinxext.quantities`).
``.. aces-table:: outcomes`` and ``.. aces-plot:: nothing(20000)``
    A table or a plot of the lessons (:mod:`~aces.sphinxext.tables`,
    :mod:`~aces.sphinxext.plots`), drawn at build time.
``.. aces-output:: odds --players 3``
    What an ``aces`` command prints, run at build time in the build's language.
``.. aces-language:: nb``
    Text written for one language only, left out of the other and of the
    translation catalogs.
``.. aces-commands::``
    The command reference, by sphinx-click, in the build's language.
``.. aces-replay-page:: replays/three-players.jsonl`` and ``.. aces-simulation-page:: 4``
    The replay page of a log (``aces replay --html``) and the simulation page
    (``aces simulate --html``), opening in the build's language, written into
    the site's ``_aces`` folder and shown in a frame with a link to open them
    alone.
``:aces-page:`simulation-4```
    A link to a page that another page embeds, in the build's language
    (:mod:`aces.sphinxext.pagelinks`).
``.. aces-stats:: LOG...`` and ``.. aces-api::``
    A class's logs pooled by ``aces stats``, and the reference of the
    public API (:mod:`aces.sphinxext.experiment`).

Whatever cannot be computed (a missing or invalid log, an unknown number)
is reported as an error at its document and line, with the reason, the
page shows the error in its place, and the build ends with a failure
status, with ``-W`` or without: the pages never show a silently empty
section.
"""

from __future__ import annotations

import base64
import shlex
import typing as t
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective

from aces import __version__

if t.TYPE_CHECKING:
    import gettext
    from collections.abc import Mapping, Sequence

    from docutils.parsers.rst import Directive
    from docutils.parsers.rst.states import Inliner
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata, RoleFunction

    from aces.log import Reader
    from aces.walkthrough import Part

__all__ = [
    "DIRECTIVES",
    "EXTENSIONS",
    "PAGES_FOLDER",
    "TEXT_ONLY",
    "ByDocument",
    "CommandsDirective",
    "LanguageDirective",
    "OutputDirective",
    "PlotDirective",
    "ReplayPageDirective",
    "SimulationPageDirective",
    "TableDirective",
    "WalkthroughDirective",
    "language",
    "number_nodes",
    "number_role",
    "registered",
    "role_failed",
    "setup",
    "table_node",
    "walkthrough_nodes",
]

R = t.TypeVar("R")
V = t.TypeVar("V")

#: Builders that only read the text (to translate or to test it): the
#: computed parts of a page are left out of them.
TEXT_ONLY: t.Final = frozenset({"gettext", "doctest"})


class ByDocument(t.Generic[V]):
    """What the extensions keep for each document, with the build environment.

    Kept there under :attr:`name`, it is pickled with the environment. What
    a document kept is forgotten when the document is read again, and taken
    from the parallel reader that read it: :func:`setup` does both for every
    store made, so no store can miss either and go stale.
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


def _failed(env: BuildEnvironment, docname: str, message: str) -> None:
    _failures(env).setdefault(docname, []).append(message)


def role_failed(inliner: Inliner, rawtext: str, lineno: int, reason: str,
                hint: str = "") -> tuple[list[nodes.Node], list[nodes.system_message]]:
    """What a role that cannot be shown gives: ``reason`` (and ``hint``) in the
    page at its line, and a build that fails naming it."""
    env = inliner.document.settings.env
    _failed(env, env.docname, reason)
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

    The site's languages are those of its own catalogs; a language the
    package does not (yet) speak has its computed parts (narration, plots,
    command output) in English, the language of the sources, until the
    package's catalog for it exists.
    """
    from aces.errors import OptionError
    from aces.i18n import negotiate

    try:
        return negotiate(config_language or "en", {})
    except OptionError:
        return "en"


def _catalog(lang: str) -> gettext.NullTranslations:
    from aces.i18n import translations

    return translations(lang)


class _AcesDirective(SphinxDirective):
    """What the package's directives share: the build's language, and loud failure."""

    @property
    def lang(self) -> str:
        return language(self.config.language)

    @property
    def builder(self) -> str:
        """The name of the builder at work (recorded when it starts, see :func:`setup`)."""
        return str(getattr(self.env, "aces_builder", ""))

    @property
    def text_only(self) -> bool:
        return self.builder in TEXT_ONLY

    def fail(self, reason: str) -> t.NoReturn:
        """Report ``reason`` at this directive's line, in the page and the build's log."""
        message = f"{self.name}: {reason}"
        _failed(self.env, self.env.docname, message)
        raise self.error(message)

    def log_path(self, name: str) -> Path:
        """Where the log ``name`` is (relative to ``aces_log_root``); the page is
        rebuilt when it changes."""
        path = Path(self.env.srcdir, self.config.aces_log_root, name).resolve()
        self.env.note_dependency(str(path))
        return path

    def read_log(self, name: str, reader: t.Callable[[Reader], R]) -> tuple[R, Path]:
        """What ``reader`` makes of the log ``name``, and where the log is; a log
        that cannot be opened or is not sound fails the build here, naming it."""
        from aces.errors import AcesError
        from aces.log import read

        path = self.log_path(name)
        try:
            with path.open("rb") as stream:
                return reader(read(stream, name)), path
        except OSError as exc:
            self.fail(f"cannot read the log {name} ({path}): {exc.strerror or exc}")
        except AcesError as exc:
            self.fail(f"the log is not valid: {exc.render()}")


# -- Walkthroughs ---------------------------------------------------------------------


class WalkthroughDirective(_AcesDirective):
    """``.. aces-walkthrough:: LOG``: a log told as a walkthrough of the rules."""

    required_arguments = 1
    final_argument_whitespace = True

    def run(self) -> list[nodes.Node]:
        from aces.walkthrough import walkthrough

        name, lang = self.arguments[0], self.lang
        parts, _ = self.read_log(name, lambda log: walkthrough(log, name, _catalog(lang), lang))
        if not parts:
            self.fail(f"the log {name} is empty: it holds no events")
        # Checked in every build; shown only in those that show pages.
        return [] if self.text_only else [walkthrough_nodes(parts)]


def walkthrough_nodes(parts: Sequence[Part]) -> nodes.container:
    """A walkthrough as docutils nodes: each game's opening as a rubric, the
    narration as line blocks, the rules as admonitions, the standings as tables."""
    from aces.walkthrough import Aside, Standings, Told

    box = nodes.container(classes=["aces-walkthrough"])
    for part in parts:
        if isinstance(part, Told):
            lines = list(part.lines)
            if part.opens_game:
                box += nodes.rubric(text=lines.pop(0), classes=["aces-game"])
            if lines:
                box += nodes.line_block("", *(nodes.line(text=line) for line in lines))
        elif isinstance(part, Aside):
            box += nodes.admonition("", nodes.title(text=part.label),
                                    nodes.paragraph(text=part.text),
                                    classes=["tip", "aces-rule"])
        elif isinstance(part, Standings):
            box += table_node(part.header, [part.row], stub=0, classes=["aces-standings"])
    return box


def table_node(header: Sequence[str], rows: Sequence[Sequence[str]], stub: int = 1,
               classes: Sequence[str] = ()) -> nodes.table:
    """A plain table: a header row, then the rows; ``stub`` label columns at the left."""
    table = nodes.table(classes=["aces-table", *classes])
    group = nodes.tgroup(cols=len(header))
    table += group
    for _ in header:
        group += nodes.colspec(colwidth=1)

    def row_of(cells: Sequence[str]) -> nodes.row:
        row = nodes.row()
        for number, cell in enumerate(cells):
            row += nodes.entry("", nodes.paragraph("", "", *number_nodes(cell)),
                               classes=[] if number < stub else ["aces-number"])
        return row

    group += nodes.thead("", row_of(header))
    group += nodes.tbody("", *(row_of(cells) for cells in rows))
    return table


# -- Numbers, tables, plots, commands ------------------------------------------------------


def number_nodes(shown: str, rawtext: str = "") -> list[nodes.Node]:
    """A number as text, or, if it offers an exact value, as an abbreviation whose
    title holds it: the exact fraction is there for a reader who asks, out of the way."""
    from aces.sphinxext.quantities import Offered

    if isinstance(shown, Offered):
        return [nodes.abbreviation(rawtext, str(shown), explanation=shown.exact)]
    return [nodes.Text(shown)]


def number_role(name: str, rawtext: str, text: str, lineno: int, inliner: Inliner,
                options: dict[str, t.Any] | None = None,
                content: Sequence[str] = ()) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    """``:aces:`name(args):format```: a lesson's number, in the build's language."""
    from aces.sphinxext.quantities import SpecError, quantity, show

    try:
        shown = show(quantity(text), language(inliner.document.settings.env.config.language))
    except SpecError as exc:
        return role_failed(inliner, rawtext, lineno, f":{name}: {exc}")
    return [nodes.inline(rawtext, "", *number_nodes(shown, rawtext),
                         classes=["aces-number"])], []


class _SpecDirective(_AcesDirective):
    """What the directives that draw a lesson's spec (``name(args)``) share: the
    spec as their argument, drawn in the build's language, and nothing drawn
    in a text-only build."""

    required_arguments = 1
    final_argument_whitespace = True

    def run(self) -> list[nodes.Node]:
        return [] if self.text_only else self.drawn()

    def drawn(self) -> list[nodes.Node]:
        raise NotImplementedError

    def spec(self, make: t.Callable[[str, gettext.NullTranslations, str], R]) -> R:
        """What ``make`` draws of this directive's spec in the build's language;
        a bad spec fails the build here."""
        from aces.sphinxext.quantities import SpecError

        lang = self.lang
        try:
            return make(self.arguments[0], _catalog(lang), lang)
        except SpecError as exc:
            self.fail(str(exc))


class TableDirective(_SpecDirective):
    """``.. aces-table:: name(args)``: a table of the lessons."""

    def drawn(self) -> list[nodes.Node]:
        from aces.sphinxext.tables import table

        made = self.spec(table)
        return [table_node(made.header, made.rows, made.stub)]


class PlotDirective(_SpecDirective):
    """``.. aces-plot:: name(args)``: a plot of the lessons, drawn now, embedded in the page."""

    def drawn(self) -> list[nodes.Node]:
        from aces.sphinxext.plots import plot

        drawn = self.spec(plot)
        uri = "data:image/svg+xml;base64," + base64.b64encode(drawn.svg).decode("ascii")
        image = nodes.image(uri=uri, alt=drawn.alt, classes=["aces-plot"])
        return [nodes.figure("", image, classes=["aces-plot"])]


class OutputDirective(_AcesDirective):
    """``.. aces-output:: odds --players 3``: a command's output, run now, in the build's
    language, below the command line that makes it."""

    required_arguments = 1
    final_argument_whitespace = True

    def run(self) -> list[nodes.Node]:
        from click.testing import CliRunner

        from aces.cli import cli

        args = shlex.split(self.arguments[0])
        if self.lang != "en":
            args += ["--lang", self.lang]
        shown = "$ " + shlex.join(["aces", *args])
        if self.text_only:
            return []
        result = CliRunner().invoke(cli, args, env={"LANG": None, "LANGUAGE": None,
                                                    "LC_ALL": None, "LC_MESSAGES": None})
        if result.exit_code != 0:
            self.fail(f"{shown} failed ({result.exit_code}): {result.output.strip()}")
        text = f"{shown}\n{result.stdout.rstrip()}"
        block = nodes.literal_block(text, text, classes=["aces-output"])
        block["language"] = "text"
        return [block]


class LanguageDirective(_AcesDirective):
    """``.. aces-language:: nb``: text written for one language, shown in its build only.

    For a passage that reads better written afresh than translated: the
    other languages have their own block, and neither enters the catalogs.
    """

    required_arguments = 1
    has_content = True

    def run(self) -> list[nodes.Node]:
        if self.builder == "gettext" or self.arguments[0] != (self.config.language or "en"):
            return []
        return self.parse_content_to_nodes(allow_section_headings=True)


class CommandsDirective(_AcesDirective):
    """``.. aces-commands::``: every command of ``aces``, by sphinx-click, in the
    build's language (the help texts come from the package's catalogs)."""

    option_spec: t.ClassVar[dict[str, t.Callable[[str], t.Any]]] = {
        "nested": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        from aces.sphinxext.commands import reference

        if self.builder == "gettext":
            return []
        return reference(self, self.lang)


# -- Pages a class opens in a browser ----------------------------------------------


#: Where the pages embedded in the documentation are written, in each site.
PAGES_FOLDER: t.Final = "_aces"


#: The pages each document embeds, by file name, written out when the build
#: is done (see :func:`_write_pages`).
_pages: t.Final = ByDocument[dict[str, str]]("aces_pages")


def _write_pages(app: Sphinx, exception: Exception | None) -> None:
    """Write every embedded page beside the site's own, for the pages that show it."""
    if exception is not None or app.builder.name in TEXT_ONLY:
        return
    from aces.page.html import write_atomically

    folder = Path(app.outdir) / PAGES_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    for pages in _pages(app.env).values():
        for name, text in pages.items():
            write_atomically(str(folder / name), text)


class _PageDirective(_AcesDirective):
    """What the directives that embed a page share: the frame and its link."""

    def embed(self, name: str, text: str, title: str) -> list[nodes.Node]:
        """The page in a frame, with a link that opens it on its own."""
        import html

        _pages(self.env).setdefault(self.env.docname, {})[name] = text
        depth = self.env.docname.count("/")
        uri = html.escape("../" * depth + f"{PAGES_FOLDER}/{name}", quote=True)
        label = html.escape(title, quote=True)
        # Translators: under a page embedded in the documentation (a replay or
        # a simulation), the link that opens it alone, for a projector.
        opener = html.escape(_catalog(self.lang).gettext("Open it on a page of its own"))
        raw = (f'<figure class="aces-page"><iframe src="{uri}" title="{label}" loading="lazy"'
               f' style="width: 100%; height: 42rem; border: 1px solid #767676"></iframe>'
               f'<figcaption><a href="{uri}">{opener}</a></figcaption></figure>')
        return [nodes.raw("", raw, format="html")]


class ReplayPageDirective(_PageDirective):
    """``.. aces-replay-page:: LOG``: the replay page of a log (``aces replay --html``),
    opening in the build's language."""

    required_arguments = 1
    final_argument_whitespace = True

    def run(self) -> list[nodes.Node]:
        from aces.page.html import render
        from aces.page.replay import PageCollector
        from aces.walk import drive

        name, lang = self.arguments[0], self.lang
        data, path = self.read_log(name, lambda log: drive(log, name,
                                                           PageCollector(None, name, lang)))
        if self.text_only:
            return []
        page = f"replay-{path.stem}-{lang}.html"
        return self.embed(page, render(data), data["games"][0]["start"]["text"][lang][0])


class SimulationPageDirective(_PageDirective):
    """``.. aces-simulation-page:: 4``: the simulation page (``aces simulate --html``)
    for that many players, with two chips each, in the build's language."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        from aces.errors import AcesError
        from aces.page.html import render_simulation
        from aces.page.simulation import collect

        if self.text_only:
            return []
        lang = self.lang
        try:
            players = int(self.arguments[0])
            data = collect(players, 2, "last-chip", lang)
        except (ValueError, AcesError) as exc:
            self.fail(f"no simulation page for {self.arguments[0]!r}: {exc}")
        page = f"simulation-{players}-{lang}.html"
        return self.embed(page, render_simulation(data), data["labels"][lang]["title"])


#: The directives of this module, by name; the extensions it sets up
#: (:data:`EXTENSIONS`) register their own.
DIRECTIVES: t.Final[dict[str, type[Directive]]] = {
    "aces-walkthrough": WalkthroughDirective,
    "aces-table": TableDirective,
    "aces-plot": PlotDirective,
    "aces-output": OutputDirective,
    "aces-language": LanguageDirective,
    "aces-commands": CommandsDirective,
    "aces-replay-page": ReplayPageDirective,
    "aces-simulation-page": SimulationPageDirective,
}
#: The extensions this one sets up: sphinx-click's, and the other modules of this package.
EXTENSIONS: t.Final = ("sphinx_click", "aces.sphinxext.languages", "aces.sphinxext.mathjax",
                       "aces.sphinxext.teaching", "aces.sphinxext.sheets",
                       "aces.sphinxext.pagelinks", "aces.sphinxext.experiment")


def registered(app: Sphinx, directives: Mapping[str, type[Directive]] | None = None,
               roles: Mapping[str, RoleFunction] | None = None,
               events: Sequence[tuple[str, t.Callable[..., t.Any]]] = ()) -> ExtensionMetadata:
    """Register an extension's directives, roles and event handlers; its metadata.

    Every extension of the package reads and writes in parallel safely: what
    it keeps of a document is a :class:`ByDocument`, merged from the parallel
    readers.
    """
    for name, directive in (directives or {}).items():
        app.add_directive(name, directive)
    for name, role in (roles or {}).items():
        app.add_role(name, role)
    for event, handler in events:
        app.connect(event, handler)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}


def setup(app: Sphinx) -> ExtensionMetadata:
    """Register the directives and the role, and set up the other extensions."""
    import matplotlib

    # Plots are drawn to files, never to a screen.
    matplotlib.use("Agg")
    for extension in EXTENSIONS:
        app.setup_extension(extension)
    app.add_config_value("aces_log_root", "..", "env", types=[str])
    return registered(app, DIRECTIVES, {"aces": number_role}, [
        ("builder-inited", _started),
        ("env-purge-doc", _purge),
        ("env-merge-info", _merge),
        ("build-finished", _finish),
        ("build-finished", _write_pages),
    ])
