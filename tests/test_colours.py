"""Every colour that tells something stands 3:1 against what it is drawn on
(WCAG 2.1, 1.4.11 non-text contrast), measured as WCAG measures it, from the
colours the pages and plots are drawn with (aces.colours). The pages in the
browser are measured too, from what Chromium draws: tests/page/test_universal_design.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from aces import colours
from aces.colours import BAND_EDGE, BAR, EXACT, HOVER, OTHER, PALETTE, PAPER, SIMULATED

ASSETS = Path(colours.__file__).parent / "page" / "assets"


def test_contrast_is_measured_as_wcag_measures_it() -> None:
    assert colours.contrast("#000000", "#ffffff") == pytest.approx(21)
    assert colours.contrast("#fff", "#ffffff") == pytest.approx(1)
    # WCAG's own example pairs: #767676 is the lightest grey that passes 4.5:1 on white.
    assert colours.contrast("#767676", "#fff") == pytest.approx(4.54, abs=0.01)
    assert colours.contrast("#777777", "#fff") < 4.5
    # Okabe and Ito's orange and sky blue, the lines that fell short of 3:1.
    assert colours.contrast("#E69F00", PAPER) < 3
    assert colours.contrast("#56B4E9", PAPER) < 3
    assert colours.contrast("#0072B2", "#D55E00") == pytest.approx(
        colours.contrast("#D55E00", "#0072B2"))
    with pytest.raises(ValueError, match="#rrggbb"):
        colours.luminance("blue")


@pytest.mark.parametrize("colour", PALETTE)
def test_every_players_line_stands_3_to_1_on_the_chart(colour: str) -> None:
    for ground in (PAPER, HOVER):
        assert colours.contrast(colour, ground) >= 3, (colour, ground)


def test_the_players_lines_are_as_many_distinct_colours_as_dashes() -> None:
    from aces.page.html import DASHES

    assert len(set(PALETTE)) == len(PALETTE) == len(DASHES) == len(set(DASHES))


@pytest.mark.parametrize("colour", [EXACT, SIMULATED, OTHER, BAND_EDGE, BAR])
def test_the_plots_colours_stand_3_to_1_on_white(colour: str) -> None:
    assert colours.contrast(colour, PAPER) >= 3


def _css(name: str) -> str:
    return (ASSETS / name).read_text(encoding="utf-8")


def test_the_pages_paper_and_hover_are_the_colours_measured() -> None:
    paper = re.search(r"--paper:\s*(#[0-9a-fA-F]{3,6})", _css("page.css"))
    assert paper is not None
    assert colours.luminance(paper.group(1)) == colours.luminance(PAPER)
    mark = re.search(r"--mark:\s*(#[0-9a-fA-F]{6})", _css("page.css"))
    hover = re.search(r"rect\.col:hover \{ fill: rgba\((\d+), (\d+), (\d+), ([\d.]+)\)",
                      _css("replay.css"))
    assert mark is not None
    assert hover is not None
    tint = "#" + "".join(f"{int(v):02x}" for v in hover.groups()[:3])
    assert tint == mark.group(1)
    assert colours.blend(tint, float(hover.group(4))) == HOVER


def test_blend_is_what_a_colour_at_an_opacity_shows() -> None:
    assert colours.blend("#000000", 0.5) == "#808080"
    assert colours.blend("#0072b2", 1) == "#0072b2"
    assert colours.blend("#0072b2", 0) == PAPER
