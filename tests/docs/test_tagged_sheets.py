"""Every pupil sheet's PDF is tagged PDF/UA-1, read back with pypdf: a structure
tree a screen reader follows (headings, lists and tables in reading order), the
sheet's language, the title shown for the file's name, headings that nest
(the sheet's title the one H1, its sections H2), and for every figure (the
formulas, drawn as pictures for the sheet) a text that says it in words."""

from __future__ import annotations

import html
import itertools
import re
import typing as t
from collections import Counter

import pytest
from pypdf import PdfReader
from pypdf.generic import ArrayObject, DictionaryObject

from docsite import load_tool

if t.TYPE_CHECKING:
    from pathlib import Path

LANGUAGES: t.Final = tuple(load_tool().languages())


def structure(node: t.Any) -> list[DictionaryObject]:
    """Every structure element under ``node``, in the tree's (reading) order."""
    node = node.get_object()
    found: list[DictionaryObject] = []
    if isinstance(node, ArrayObject):
        for kid in node:
            found += structure(kid)
    elif isinstance(node, DictionaryObject) and node.get("/Type") != "/MCR":
        if "/S" in node:
            found.append(node)
        if "/K" in node:
            found += structure(node["/K"])
    return found


def sheets(root: Path) -> list[Path]:
    found = sorted(root.rglob("*-sheet.pdf"))
    assert len(found) >= 10, found  # every lesson's
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_sheet_is_tagged_pdf_ua(site: dict[str, t.Any], lang: str) -> None:
    root = site[f"html-{lang}"].out
    for pdf in sheets(root):
        reader = PdfReader(pdf)
        catalog: t.Any = reader.trailer["/Root"]
        assert bool(catalog["/MarkInfo"]["/Marked"]), pdf.name
        assert catalog["/Lang"] == lang, pdf.name
        assert bool(catalog["/ViewerPreferences"]["/DisplayDocTitle"]), pdf.name
        page = pdf.with_suffix(".html").read_text(encoding="utf-8")
        title = re.search(r"<title>(.*?)</title>", page)
        assert title is not None
        assert reader.metadata is not None
        assert reader.metadata.title == title.group(1).replace("&amp;", "&"), pdf.name
        xmp = catalog["/Metadata"].get_object().get_data().decode("utf-8")
        assert re.search(r'pdfuaid:part(="|>)1\b', xmp), pdf.name  # says it is PDF/UA-1
        elements = structure(catalog["/StructTreeRoot"])
        kinds = Counter(str(element["/S"]) for element in elements)
        assert kinds["/Document"] == 1, pdf.name
        # The headings nest: the sheet's title the one H1, each section an H2 under
        # it, a part of a section an H3, none skipping a level, as the page has them.
        levels = [int(str(element["/S"])[2:]) for element in elements
                  if re.fullmatch(r"/H[1-6]", str(element["/S"]))]
        assert levels == [int(n) for n in re.findall(r"<h([1-6])\b", page)], (pdf.name, levels)
        assert levels[0] == 1, (pdf.name, levels)
        assert levels.count(1) == 1, (pdf.name, levels)
        assert 2 in levels, (pdf.name, levels)
        assert all(later <= earlier + 1 for earlier, later in itertools.pairwise(levels)), (
            pdf.name, levels)
        # What is printed: the header and the sections (the links below are for the screen).
        printed = page.split("<body>", 1)[1].split("</main>", 1)[0]
        assert kinds["/L"] == len(re.findall(r"<[ou]l\b", printed)), (pdf.name, kinds)
        assert kinds["/Table"] == page.count("<table"), (pdf.name, kinds)
        if kinds["/Table"]:
            assert kinds["/TR"], (pdf.name, kinds)
            assert kinds["/TH"] + kinds["/TD"], (pdf.name, kinds)
        figures = [element for element in elements if str(element["/S"]) == "/Figure"]
        assert len(figures) == page.count("<img"), (pdf.name, kinds)
        # A formula's text is the formula in words in the sheet's language, never its TeX.
        said = [html.unescape(alt) for alt in re.findall(r'<img [^>]*\balt="([^"]*)"', page)]
        assert [str(figure.get("/Alt", "")) for figure in figures] == said, pdf.name
        for text in said:
            assert text.strip(), (pdf.name, "a figure without /Alt")
            assert not set(text) & set("\\{}^_"), (pdf.name, text)
