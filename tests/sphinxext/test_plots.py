"""The lessons' plots: each the pages use is drawn, with a description, in both languages."""

from __future__ import annotations

import re
import typing as t
from pathlib import Path

import pytest

from aces.i18n import translations
from aces.sphinxext.plots import PLOTS, plot
from aces.sphinxext.quantities import SpecError

DOCS: t.Final = Path(__file__).resolve().parent.parent.parent / "docs"
DIRECTIVE: t.Final = re.compile(r"^\.\. aces-plot:: (.+)$", re.MULTILINE)
SVG: t.Final = b"<svg "


def specs() -> list[str]:
    return sorted({spec for path in DOCS.rglob("*.rst")
                   for spec in DIRECTIVE.findall(path.read_text(encoding="utf-8"))})


@pytest.mark.parametrize("spec", specs())
def test_every_plot_of_the_pages_is_drawn_in_norwegian(spec: str) -> None:
    drawn = plot(spec, translations("nb"), "nb")
    assert SVG in drawn.svg
    # The words are text, which scales with the picture, not outlines.
    assert b"<text" in drawn.svg
    assert drawn.alt.endswith(".")
    assert drawn.alt != plot(spec, translations("en"), "en").alt if spec == "try" else True


def test_every_plot_is_used_by_a_page() -> None:
    assert {re.match(r"[a-z0-9-]+", spec)[0] for spec in specs()} == set(PLOTS)  # type: ignore[index]


def test_a_plot_is_the_same_at_every_build() -> None:
    first = plot("finish(3, 2000)", translations("en"), "en")
    assert plot("finish(3, 2000)", translations("en"), "en").svg == first.svg


def test_the_description_is_in_the_language_of_the_build() -> None:
    english = plot("table(3, 0)", translations("en"), "en").alt
    norwegian = plot("table(3, 0)", translations("nb"), "nb").alt
    assert "Ada, Bo, and Cy" in english
    assert "Ada, Bo og Cy" in norwegian


@pytest.mark.parametrize("spec", ["nowhere(1)", "finish(3)", "finish 3"])
def test_a_bad_plot_says_why(spec: str) -> None:
    with pytest.raises(SpecError):
        plot(spec, translations("en"), "en")
