"""The lessons' plots: each the pages use is drawn, with a description, in both languages."""

from __future__ import annotations

import re
import typing as t

import pytest

from aces.i18n import translations
from sphinxext.plots import PLOTS, drawn, plot
from sphinxext.quantities import SpecError

from docsite import directive_specs

SPECS: t.Final = directive_specs("aces-plot")
SVG: t.Final = b"<svg "


@pytest.mark.parametrize("spec", SPECS)
def test_every_plot_of_the_pages_is_drawn_in_norwegian(spec: str) -> None:
    drawn = plot(spec, translations("nb"), "nb")
    assert SVG in drawn.svg
    # The words are text, which scales with the picture, not outlines.
    assert b"<text" in drawn.svg
    assert drawn.alt.endswith(".")
    assert drawn.alt != plot(spec, translations("en"), "en").alt if spec == "try" else True


def test_every_plot_is_used_by_a_page() -> None:
    assert {re.match(r"[a-z0-9-]+", spec)[0] for spec in SPECS} == set(PLOTS)  # type: ignore[index]


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


def covered(figure: t.Any) -> list[str]:
    """What a legend of the figure hides: the bars and the marked points under it."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(figure)
    canvas.draw()  # type: ignore[no-untyped-call]
    renderer = canvas.get_renderer()  # type: ignore[no-untyped-call]
    hidden = []
    for axes in figure.axes:
        legend = axes.get_legend()
        if legend is None:
            continue
        box = legend.get_window_extent(renderer)
        for patch in axes.patches:
            if patch.get_visible() and patch.get_window_extent(renderer).overlaps(box):
                hidden.append(f"bar {patch.get_label() or patch}")
        for line in axes.lines:
            if line.get_marker() in (None, "None", "", " "):
                continue
            for x, y in line.get_transform().transform(line.get_xydata()):
                if box.contains(x, y):
                    hidden.append(f"point {line.get_label()} at ({x:.0f}, {y:.0f})")
    return hidden


@pytest.mark.parametrize("lang", ["en", "nb", "nn"])
@pytest.mark.parametrize("spec", SPECS)
def test_no_legend_hides_a_bar_or_a_point(spec: str, lang: str) -> None:
    """Measured with the plot's own fonts; the picture only scales after that, so what
    holds here holds at a phone's width as at a desktop's."""
    figure, _alt = drawn(spec, translations(lang), lang)
    assert covered(figure) == [], (spec, lang)
