"""Formulas in words (sphinxext.spoken): what a screen reader says for a formula
on a pupil sheet, in each language, from the package's catalogs; every formula
of the lessons can be said, with no TeX left in it."""

from __future__ import annotations

import re
import typing as t
from pathlib import Path

import pytest

from sphinxext.formulas import FormulaError, numbers_in, pictures
from sphinxext.spoken import SpokenError, spoken

DOCS: t.Final = Path(__file__).resolve().parents[3] / "docs"
#: The lessons' formulas, inline and displayed, in their source's TeX.
INLINE: t.Final = re.compile(r":math:`([^`]+)`")
DISPLAYED: t.Final = re.compile(r"^\.\. math::\n\n((?:[ \t]+.*\n|\n)+)", re.MULTILINE)


def lesson_formulas() -> list[str]:
    found = []
    for source in sorted((DOCS / "lessons").glob("*.rst")):
        text = source.read_text(encoding="utf-8")
        found += INLINE.findall(text)
        found += [" ".join(block.split()) for block in DISPLAYED.findall(text)]
    assert len(found) > 50, found
    return found


@pytest.mark.parametrize(("latex", "lang", "said"), [
    (r"\frac{5}{6} \cdot \frac{5}{6} = \frac{25}{36}", "en",
     "5 over 6 times 5 over 6 equals 25 over 36"),
    (r"\frac{5}{6} \cdot \frac{5}{6} = \frac{25}{36}", "nb",
     "5 delt på 6 ganger 5 delt på 6 er lik 25 delt på 36"),
    (r"\frac{5}{6} \cdot \frac{5}{6} = \frac{25}{36}", "nn",
     "5 delt på 6 gonger 5 delt på 6 er lik 25 delt på 36"),
    # A power of a bracket raises all of it; a power's part of more than one word is
    # said in brackets.
    (r"\left(\frac{5}{6}\right)^6", "en", "(5 over 6) to the power of 6"),
    (r"\left(\frac{5}{6}\right)^6", "nn", "(5 delt på 6) opphøgd i 6"),
    (r"10^{-12}", "nb", "10 opphøyd i (minus 12)"),
    (r"p, pq, \ldots, pq^{n-1}", "nn",
     "p, p q, og så vidare, p q opphøgd i (n minus 1)"),
    (r"\frac{p\,q^k}{1 - q^n}.", "en",
     "(p q to the power of k) over (1 minus q to the power of n)"),
    # A product with a root or a fraction is said with "times".
    (r"1{,}96\sqrt{p\,(1-p)/n}", "nb",
     "1,96 ganger kvadratroten av (p (1 minus p) delt på n)"),
    (r"\frac{1}{4}\,(p_1 + p_2) = \frac{1}{4} \cdot 1", "nn",
     "1 delt på 4 gonger (p 1 pluss p 2) er lik 1 delt på 4 gonger 1"),
    (r"E(k) = 1 + \sum_{j=1}^{k-1} P_k(j)\,E(k-j),", "nn",
     "E (k) er lik 1 pluss summen frå j lik 1 til k minus 1 av P k (j) E (k minus j)"),
    (r"\sqrt{10} \approx 3{,}2", "nn", "kvadratrota av 10 er tilnærma lik 3,2"),
    # Numbers as the language writes them: groups and per cent with a no-break space.
    (r"33{,}5\,\% = 15\,625", "nb", "33,5\xa0% er lik 15\xa0625"),
    (r"33.5\%", "en", "33.5%"),
])
def test_a_formula_is_said_in_words(latex: str, lang: str, said: str) -> None:
    assert spoken(latex, lang) == said


@pytest.mark.parametrize("lang", ["en", "nb", "nn"])
def test_every_formula_of_the_lessons_is_said_without_tex(lang: str) -> None:
    for latex in lesson_formulas():
        # The numbers of \aces{...} are put in first, as on the sheets.
        said = spoken(numbers_in(latex, lang), lang)
        assert said, latex
        assert not set(said) & set("\\{}^_"), (latex, said)
        if lang != "en":
            for english in ("over", "times", "equals", "power", "square root"):
                assert english not in said, (latex, said)


@pytest.mark.parametrize("latex", [r"\int_0^1 x", r"\frac{1}", "x^", r"\left\{ x \right\}",
                                   r"\sum_{j}^{n} j", "{x", "x \\"])
def test_tex_that_is_not_read_stops_with_the_formula_named(latex: str) -> None:
    with pytest.raises(SpokenError, match=re.escape(repr(latex))):
        spoken(latex, "en")


def test_a_sheets_picture_says_the_formula_and_keeps_its_tex() -> None:
    from docutils import nodes

    section = nodes.section()
    section += nodes.paragraph("", "", nodes.math(text=r"\frac{1}{6} + \frac{1}{6}"))
    pictures(section, "nn")
    image = section.astext()
    assert 'alt="1 delt på 6 pluss 1 delt på 6"' in image
    assert 'data-tex="\\frac{1}{6} + \\frac{1}{6}"' in image
    broken = nodes.section()
    broken += nodes.paragraph("", "", nodes.math(text=r"\binom{4}{2}"))
    with pytest.raises(FormulaError, match=r"cannot be said in words: \\binom"):
        pictures(broken, "en")
