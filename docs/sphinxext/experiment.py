"""The directives of the class experiment and the API reference.

``.. aces-stats:: replays/class-group-1.jsonl replays/class-group-2.jsonl``
    What ``aces stats`` reports for these logs, pooled now in the build's
    language, below the command that makes it; with ``:plot:``, the plot of
    ``aces stats --plot`` beside it. The paths are relative to
    ``aces_log_root``, as for walkthroughs. A log left out fails the build:
    the lesson's example must be a real, sound one.
``.. aces-api::``
    The reference of :mod:`aces.api`, from its docstrings by autodoc. It
    stays in English in every language, and out of the translation
    catalogs (the gettext builder sees nothing of it).
"""

from __future__ import annotations

import base64
import shlex
import tempfile
import typing as t
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives

from aces.i18n import translations
from aces.sphinxext.build import AcesDirective, registered

if t.TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

    from aces.experiment.pool import Source

__all__ = ["API", "ApiDirective", "StatsDirective", "setup"]


class StatsDirective(AcesDirective):
    """``.. aces-stats:: LOG...``: a class's logs pooled at build time."""

    required_arguments = 1
    final_argument_whitespace = True
    option_spec: t.ClassVar[dict[str, t.Callable[[str], t.Any]]] = {
        "plot": directives.flag}

    def run(self) -> list[nodes.Node]:
        import aces

        names = self.arguments[0].split()
        paths: list[Source] = []
        for name in names:
            path = self.log_path(name)
            paths.append((path.open("rb"), name) if path.exists() else name)
        lang = self.lang
        args = ["stats", *names] + (["--lang", lang] if lang != "en" else [])
        shown = "$ " + shlex.join(["aces", *args])
        try:
            result = aces.stats(paths)
        finally:
            for source in paths:
                if isinstance(source, tuple):
                    source[0].close()
        for log in result.pooled.left_out:
            assert log.error is not None
            self.fail(f"a log of the example is left out: {log.error.render()}")
        if self.text_only:
            return []
        text = f"{shown}\n{result.report(lang)}"
        block = nodes.literal_block(text, text, classes=["aces-output"])
        block["language"] = "text"
        made: list[nodes.Node] = [block]
        if "plot" in self.options:
            made.append(self._plot(result, lang))
        return made

    def _plot(self, result: t.Any, lang: str) -> nodes.Node:
        from aces.files import Output
        from aces.reports.plot import plot

        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "plot.png"
            plot(result.pooled, Output(path), lang, translations(lang))
            png = path.read_bytes()
        uri = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
        image = nodes.image(uri=uri, alt="aces stats --plot", classes=["aces-plot"])
        return nodes.figure("", image, classes=["aces-plot"])


#: What the API reference shows, in this order.
API: t.Final = ("load", "play", "odds", "simulate", "stats",
                "Log", "Game", "Session", "Odds", "Simulated", "Stats")


class ApiDirective(AcesDirective):
    """``.. aces-api::``: the public API, by autodoc, in English everywhere."""

    def run(self) -> list[nodes.Node]:
        if self.text_only:
            return []
        lines = []
        for name in API:
            kind = "autoclass" if name[0].isupper() else "autofunction"
            lines.append(f".. {kind}:: aces.api.{name}")
            if kind == "autoclass":
                lines.append("   :members:")
            lines.append("")
        return self.parse_text_to_nodes("\n".join(lines))


def setup(app: Sphinx) -> ExtensionMetadata:
    """Register the class experiment and the API reference."""
    app.setup_extension("sphinx.ext.autodoc")
    return registered(app, {"aces-stats": StatsDirective, "aces-api": ApiDirective})
