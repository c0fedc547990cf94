"""The colours of the charts and plots, and the contrast WCAG measures them by.

Every colour that tells something (a player's line, a bar, an exact value)
stands at least 3:1 against what it is drawn on, as WCAG 2.1's success
criterion 1.4.11 (non-text contrast) asks: the white of the replay's chart,
the tint a column of it takes under the pointer, and the white of a plot.
The hues are Okabe and Ito's, which readers with the common colour
blindnesses tell apart, darkened where the originals fall short of 3:1
(their orange, bluish green, reddish purple and yellow-green); their sky
blue, which darkened is their blue, gives way to a purple. Each player's
line has its own dash pattern too, so that no line is told by its colour
alone. The pages and plots read their colours from here, and so do the
tests of their contrast (tests/test_colours.py).

>>> round(contrast("#767676", PAPER), 2)
4.54
"""

from __future__ import annotations

import typing as t

__all__ = ["BAND", "BAND_EDGE", "BAR", "EXACT", "HOVER", "OTHER", "PALETTE", "PAPER",
           "SIMULATED", "blend", "contrast", "luminance"]

#: What the charts and plots are drawn on: the pages' paper (page.css's ``--paper``).
PAPER: t.Final = "#ffffff"
#: A column of the replay's chart under the pointer: the mark colour at 12 % on paper.
HOVER: t.Final = "#e2eaf1"
#: The players' lines on the replay's chart, one a seat, darkest first.
PALETTE: t.Final = ("#0072B2", "#D55E00", "#008A65", "#B8558F", "#000000", "#7E4FA0",
                    "#A86F00", "#7F7F26")
#: The lessons' plots: the exact answer, what a simulation found, a second series.
EXACT: t.Final = "#d55e00"
SIMULATED: t.Final = "#0072b2"
OTHER: t.Final = "#008a65"
#: The band where 95 % of estimates fall: a light fill, bounded by lines that show.
BAND: t.Final = "#56b4e9"
BAND_EDGE: t.Final = "#2f7fb8"
#: The bars of what a class or a simulation observed (the notebook, aces stats --plot).
BAR: t.Final = "#4a7fa5"


def _channels(colour: str) -> tuple[float, float, float]:
    """``#rrggbb`` or ``#rgb`` as three channels from 0 to 1."""
    digits = colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    if len(digits) != 6:
        raise ValueError(f"not a colour of the form #rrggbb: {colour!r}")
    red, green, blue = (int(digits[i:i + 2], 16) / 255 for i in (0, 2, 4))
    return red, green, blue


def luminance(colour: str) -> float:
    """WCAG's relative luminance: 0 for black, 1 for white."""
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(c) for c in _channels(colour))
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(one: str, other: str) -> float:
    """WCAG's contrast ratio of two colours, from 1 to 21."""
    lighter, darker = sorted((luminance(one), luminance(other)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def blend(colour: str, alpha: float, under: str = PAPER) -> str:
    """What ``colour`` at opacity ``alpha`` looks like drawn over ``under``."""
    top, bottom = _channels(colour), _channels(under)
    return "#" + "".join(f"{round(255 * (alpha * a + (1 - alpha) * b)):02x}"
                         for a, b in zip(top, bottom, strict=True))
