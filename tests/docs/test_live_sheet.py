"""The pupil's card of the live lesson (docs/class/live.rst, ``.. aces-sheet::``):
in every language a PDF beside the page, holding the pupils' sections of the
page (the question, the steps to join the class and record, the questions
for the class) and nothing of the teacher's (how to start the server). The
lessons' sheets are checked by test_teaching, which reads lessons/ alone."""

from __future__ import annotations

import html
import re
import typing as t
from pathlib import Path

import pytest

ROOT: t.Final = Path(__file__).resolve().parent.parent.parent
SITES: t.Final = ["en", *sorted(path.name for path in (ROOT / "docs" / "locale").iterdir()
                                if (path / "LC_MESSAGES").is_dir())]


def squashed(markup: str) -> str:
    """The text of some HTML (or a PDF's), without any white space: a PDF
    breaks its lines where a page does not."""
    markup = re.sub(r"<(script|style)\b.*?</\1>", " ", markup, flags=re.DOTALL)
    return re.sub(r"\s+", "", html.unescape(re.sub(r"<[^>]+>", " ", markup)))


def pupils_sections(page: str) -> list[str]:
    """The HTML of each section of ``page`` that the pupils are given."""
    found = []
    for match in re.finditer(r'<section class="aces-pupil" id="[^"]*">', page):
        end = page.find("<section", match.end())
        found.append(page[match.start():end if end > 0 else None])
    return found


def pdf_text(path: Path) -> str:
    from pypdf import PdfReader

    return " ".join(page.extract_text() or "" for page in PdfReader(path).pages)


@pytest.mark.parametrize("lang", SITES)
def test_the_live_lessons_pupil_card_holds_the_steps_to_join(site: dict[str, t.Any],
                                                             lang: str) -> None:
    root = site[f"html-{lang}"].out / "class"
    card = root / "live-sheet.pdf"
    assert card.is_file(), sorted(path.name for path in root.iterdir())
    assert card.read_bytes().startswith(b"%PDF-")
    page = (root / "live.html").read_text(encoding="utf-8")
    sections = pupils_sections(page)
    assert len(sections) == 3, lang
    printed = squashed(pdf_text(card))
    steps = [re.findall(r"<li>(.*?)</li>", section, flags=re.DOTALL) for section in sections]
    # The steps to join and record are the second section's five.
    assert [len(found) for found in steps] == [0, 5, 3], lang
    assert "QR" in steps[1][0]
    # Every paragraph of the pupils' sections (each step one) is on the card.
    for section in sections:
        for paragraph in re.findall(r"<p>(.*?)</p>", section, flags=re.DOTALL):
            assert squashed(paragraph) in printed, (lang, paragraph)
    # The teacher's part is the page's, not the card's.
    assert "acesclassservelesson-3" in squashed(page)
    assert "acesclassservelesson-3" not in printed
