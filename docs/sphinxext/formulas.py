r"""Formulas with the package's numbers in them, typeset on the pages and on the pupil sheets.

A lesson writes a formula in TeX with Sphinx's math (``:math:`` in a
sentence, ``.. math::`` on a line of its own). A number the package computes
stands in it as ``\aces{name(args):format}``, the names of the ``:aces:``
role (:mod:`sphinxext.quantities`): when the page has been read, and
translated, each is replaced by its number in TeX, written the way the
build's language writes numbers (``\frac{15625}{46656}``, ``33{,}5\,\%``),
and a decimal written in the formula itself (``0.75``) gets the language's
decimal sign, so that one formula serves every language.
So a formula's numbers come from the code like every other number on the
pages, and an unknown name stops the build at its page and line.

On the pages MathJax typesets the formulas (:mod:`sphinxext.mathjax`).
A pupil sheet is printed by WeasyPrint, which runs no JavaScript, so
:func:`picture` draws a formula as an SVG picture with matplotlib's mathtext
(no TeX installation), its glyphs as outlines and its baseline where the
line's is, and :func:`pictures` puts those pictures in a sheet's copy of a
lesson. Mathtext reads a large subset of TeX; a formula it cannot read
stops the sheet, and with it the build, naming the formula. A picture's text,
which a screen reader reads, is the formula in words in the sheet's language
(:mod:`sphinxext.spoken`), not its TeX.

>>> tex(quantity("try"), "en")
'\\frac{15625}{46656}'
>>> tex(quantity("try:percent"), "nb")
'33{,}5\\,\\%'
>>> numbers_in(r"\left(\aces{no-six}\right)^3 = \aces{try}", "en")
'\\left(\\frac{25}{36}\\right)^3 = \\frac{15625}{46656}'
"""

from __future__ import annotations

import base64
import html
import io
import re
import typing as t

from docutils import nodes
from sphinx.transforms import SphinxTransform

from aces.sphinxext.build import failed, language, registered
from sphinxext.quantities import Offered, Quantity, SpecError, quantity, show
from sphinxext.spoken import SpokenError, spoken

if t.TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

__all__ = ["MATH_CLASS", "FormulaError", "FormulaNumbers", "Picture", "numbers_in", "picture",
           "pictures", "setup", "tex"]

#: ``\aces{spec}`` in a formula: a number of the lessons.
_NUMBER: t.Final = re.compile(r"\\aces\{([^{}]*)\}")
#: A decimal written in a formula, not part of a command's name or argument.
_DECIMAL: t.Final = re.compile(r"(?<![\w\\.])(\d+)\.(\d+)")
#: The class of a formula drawn as a picture on a pupil sheet.
MATH_CLASS: t.Final = "aces-math"


class FormulaError(ValueError):
    """A formula that cannot be drawn; the message names it and says why."""


def tex(found: Quantity, lang: str) -> str:
    """A quantity written in TeX, the way the language writes numbers."""
    value = found.value
    shown = show(found, lang)
    if found.kind == "fraction" and "/" in shown and not isinstance(shown, Offered):
        sign = "-" if value < 0 else ""
        numerator, denominator = str(shown).lstrip("-\u2212").split("/")
        return rf"{sign}\frac{{{numerator}}}{{{denominator}}}"
    # A comma inside braces is an ordinary symbol in TeX, not punctuation with a space.
    return (shown.replace(",", "{,}").replace("\u2212", "-").replace("\xa0", r"\,")
            .replace("\u202f", r"\,").replace("%", r"\%"))


def numbers_in(latex: str, lang: str) -> str:
    r"""A formula with each ``\aces{spec}`` replaced by that number in TeX, and each
    decimal written in it (``0.75``) with the language's decimal sign (``0{,}75``).

    >>> numbers_in(r"\sqrt{10} \approx 3.2", "nn")
    '\\sqrt{10} \\approx 3{,}2'
    """
    from babel.numbers import get_decimal_symbol

    sign = get_decimal_symbol(lang)
    if sign != ".":
        written = "{" + sign + "}" if sign == "," else sign
        latex = _DECIMAL.sub(lambda match: match[1] + written + match[2], latex)
    return _NUMBER.sub(lambda match: tex(quantity(match[1]), lang), latex)


class FormulaNumbers(SphinxTransform):
    r"""Put the numbers into the page's formulas, and their decimal signs, after the page
    has been translated."""

    # After the translation (sphinx.transforms.i18n.Locale, 20): the numbers of the
    # formulas that the translated sentences carry.
    default_priority = 700

    def apply(self, **kwargs: t.Any) -> None:
        lang = language(self.config.language)
        formulas: list[nodes.Element] = [*self.document.findall(nodes.math),
                                         *self.document.findall(nodes.math_block)]
        for node in formulas:
            source = node.astext()
            try:
                latex = numbers_in(source, lang)
            except SpecError as exc:
                message = f"a formula's number: {exc}"
                failed(self.env, self.env.docname, message)
                from sphinx.util import logging

                logging.getLogger(__name__).error(message, location=node)
                continue
            if latex == source:
                continue
            node.clear()
            node.append(nodes.Text(latex))
            if isinstance(node, nodes.math_block):
                node["latex"] = latex


class Picture(t.NamedTuple):
    """A formula drawn: an SVG document and its size in points, its depth below the line."""

    svg: bytes
    width: float
    height: float
    depth: float

    def html(self, latex: str, said: str, block: bool = False) -> str:
        """The picture as an image, its baseline on the line's, the formula in words as
        its text (:func:`sphinxext.spoken.spoken`) and its TeX beside them."""
        uri = "data:image/svg+xml;base64," + base64.b64encode(self.svg).decode("ascii")
        style = (f"width: {self.width:.2f}pt; height: {self.height:.2f}pt;"
                 f" vertical-align: {-self.depth:.2f}pt")
        image = (f'<img class="{MATH_CLASS}" src="{uri}" alt="{html.escape(said)}"'
                 f' data-tex="{html.escape(latex)}" style="{style}">')
        return f'<div class="{MATH_CLASS}-block">{image}</div>' if block else image


#: The size of a formula on a sheet: the sheet's text, 16 px; a displayed one a little larger.
SIZE: t.Final = 12.0
DISPLAY_SIZE: t.Final = 13.5
_STYLE: t.Final[dict[t.Any, t.Any]] = {"mathtext.fontset": "dejavusans", "svg.fonttype": "path",
                                     "svg.hashsalt": "aces", "svg.id": "aces"}


def picture(latex: str, size: float = SIZE) -> Picture:
    """A formula drawn by matplotlib's mathtext as SVG, the same bytes at every build.

    :raises FormulaError: for TeX that mathtext cannot read.
    """
    import matplotlib
    from matplotlib.figure import Figure
    from matplotlib.font_manager import FontProperties
    from matplotlib.mathtext import MathTextParser

    text = f"${' '.join(latex.split())}$"
    prop = FontProperties(family="DejaVu Sans", size=size)
    with matplotlib.rc_context(_STYLE):
        try:
            width, height, depth, *_rest = MathTextParser("path").parse(text, dpi=72, prop=prop)
        except ValueError as exc:
            first = str(exc).strip().splitlines()
            raise FormulaError(f"the formula {latex!r} cannot be drawn for the sheet:"
                               f" {first[-1] if first else exc}") from None
        figure = Figure(figsize=(width / 72, height / 72))
        figure.text(0, depth / height, text, fontproperties=prop)
        out = io.BytesIO()
        figure.savefig(out, format="svg", metadata={"Date": None, "Creator": None},
                       transparent=True)
    return Picture(out.getvalue(), float(width), float(height), float(depth))


def _said(latex: str, lang: str) -> str:
    try:
        return spoken(latex, lang)
    except SpokenError as exc:
        raise FormulaError(str(exc)) from None


def pictures(section: nodes.Element, lang: str) -> None:
    """Replace every formula in a (copied) section by its picture, its text the formula
    in words in ``lang``."""
    for inline in list(section.findall(nodes.math)):
        latex = inline.astext()
        inline.replace_self(nodes.raw("", picture(latex).html(latex, _said(latex, lang)),
                                      format="html"))
    for block in list(section.findall(nodes.math_block)):
        latex = block.astext()
        drawn = picture(latex, DISPLAY_SIZE).html(latex, _said(latex, lang), block=True)
        block.replace_self(nodes.raw("", drawn, format="html"))


def setup(app: Sphinx) -> ExtensionMetadata:
    """Put the package's numbers into the formulas."""
    app.add_transform(FormulaNumbers)
    return registered(app)
