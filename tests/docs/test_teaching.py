"""What a teacher takes into class: the front page's table, each lesson's facts, the pupil
sheets without answers (HTML and PDF), and formulas typeset by a MathJax the site serves."""

from __future__ import annotations

import html
import re
import subprocess
import sys
import typing as t
from pathlib import Path

import pytest

from aces.sphinxext.teaching import FIELDS

ROOT: t.Final = Path(__file__).resolve().parent.parent.parent
LANGUAGES: t.Final = sorted(path.name for path in (ROOT / "docs" / "locale").iterdir()
                            if (path / "LC_MESSAGES").is_dir())
SITES: t.Final = ["en", *LANGUAGES]


def words(markup: str) -> str:
    """The text of some HTML, its white space made single spaces."""
    markup = re.sub(r"<(script|style)\b.*?</\1>", " ", markup, flags=re.DOTALL)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def lessons(root: Path) -> list[Path]:
    return [page for page in sorted((root / "lessons").glob("*.html"))
            if page.name != "index.html" and not page.stem.endswith("-sheet")]


def sections(page: Path) -> list[tuple[list[str], str]]:
    """Each second-level section of a page: its classes and its HTML, in order."""
    text = page.read_text(encoding="utf-8")
    found = []
    for match in re.finditer(r'<section(?: class="([^"]*)")? id="[^"]*">\s*<h2>', text):
        end = text.find("<section", match.end())
        found.append(((match[1] or "").split(), text[match.start():end if end > 0 else None]))
    return found


def items(markup: str) -> list[str]:
    return [words(item) for item in re.findall(r"<li>(.*?)</li>", markup, flags=re.DOTALL)]


def pdf_text(path: Path) -> str:
    from pypdf import PdfReader

    return " ".join(" ".join(page.extract_text() or "" for page in PdfReader(path).pages).split())


@pytest.mark.parametrize("lang", SITES)
def test_every_lesson_has_a_pupil_sheet_with_the_exercises_and_no_answer(
        site: dict[str, t.Any], lang: str) -> None:
    root = site[f"html-{lang}"].out
    for page in lessons(root):
        parts = sections(page)
        pupils = [markup for classes, markup in parts if "aces-pupil" in classes]
        exercises = next(number for number, (classes, _m) in enumerate(parts)
                         if "aces-pupil" in classes and "<ol" in _m)
        answers, notes = parts[exercises + 1][1], parts[exercises + 2][1]
        sheet = words((root / "lessons" / f"{page.stem}-sheet.html").read_text(encoding="utf-8"))
        printed = pdf_text(root / "lessons" / f"{page.stem}-sheet.pdf")
        # Compared without white space: a PDF breaks lines where a page does not.
        for text in (squash(sheet), squash(printed)):
            for markup in pupils:
                for item in items(markup):
                    assert squash(item) in text, (lang, page.name, item)
            for answer in items(answers):
                assert squash(answer) not in text, (lang, page.name, answer)
            first = words(notes).split(". ")[1]
            assert squash(first) not in text, (lang, page.name, first)


@pytest.mark.parametrize("lang", SITES)
def test_the_front_page_lists_every_lesson_with_its_level_and_time(
        site: dict[str, t.Any], lang: str) -> None:
    root = site[f"html-{lang}"].out
    front = (root / "index.html").read_text(encoding="utf-8")
    table = re.search(r'<table class="[^"]*aces-lessons[^"]*".*?</table>', front, re.DOTALL)
    assert table is not None
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", table[0], re.DOTALL)[1:]
    linked = sorted(re.findall(r'href="lessons/([a-z-]+)\.html"', table[0]))
    assert linked == sorted(page.stem for page in lessons(root))
    for row in rows:
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.DOTALL)
        assert len(cells) == 4
        assert all(words(cell) for cell in cells), row


@pytest.mark.parametrize("lang", SITES)
def test_every_lesson_states_its_facts(site: dict[str, t.Any], lang: str) -> None:
    root = site[f"html-{lang}"].out
    for page in lessons(root):
        text = page.read_text(encoding="utf-8")
        box = re.search(r'<div class="aces-lesson[^"]*">(.*?)</dl>', text, re.DOTALL)
        assert box is not None, page.name
        assert len(re.findall(r"<dt", box[1])) == len(FIELDS), page.name
        assert ("LK20" in words(box[1])), page.name


@pytest.mark.parametrize("lang", SITES)
def test_formulas_are_typeset_by_a_mathjax_the_site_serves(
        site: dict[str, t.Any], lang: str) -> None:
    root = site[f"html-{lang}"].out
    assert (root / "_static" / "mathjax" / "tex-svg.js").stat().st_size > 100_000
    page = (root / "lessons" / "nothing.html").read_text(encoding="utf-8")
    assert 'class="math' in page
    assert '<script defer="defer" src="../_static/mathjax/tex-svg.js">' in page
    for each in root.rglob("*.html"):
        scripts = re.findall(r"<script[^>]*\bsrc=\"([^\"]+)\"", each.read_text(encoding="utf-8"))
        assert not [src for src in scripts if "//" in src], each


def test_a_sheet_with_nothing_for_pupils_stops_the_build(tmp_path: Path) -> None:
    source = tmp_path / "source"
    source.mkdir()
    (source / "conf.py").write_text('extensions = ["aces.sphinxext"]\n', encoding="utf-8")
    (source / "index.rst").write_text("A lesson\n========\n\n.. aces-sheet::\n\nAnswers\n"
                                      "-------\n\nFour ninths.\n", encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "sphinx", "-q", "-b", "html", str(source),
                             str(tmp_path / "out")], capture_output=True, text=True, check=False)
    assert result.returncode != 0
    assert "index" in result.stderr
    assert "no section is marked for pupils" in result.stderr
    assert not (tmp_path / "out" / "index-sheet.pdf").exists()


#: Words that speak to the teacher, not to a pupil: none may stand on a pupil sheet.
TEACHER_WORDS: t.Final = {
    "en": r"\b(ask the class|ask for|the pupils|students|the teacher|show of hands)\b",
    "nb": r"\b(spør klassen|la klassen|be klassen|elevene|læreren|rekke opp hånden)\b",
    "nn": r"\b(spør klassen|la klassen|be klassen|elevane|læraren|rekkje opp handa)\b",
}


@pytest.mark.parametrize("lang", SITES)
def test_a_pupil_sheet_speaks_to_pupils_only(site: dict[str, t.Any], lang: str) -> None:
    """A line in a pupils' section that speaks to the teacher stays on the lesson,
    where the teacher needs it, and is left off the sheet, HTML and PDF alike."""
    root = site[f"html-{lang}"].out
    marked = 0
    for page in lessons(root):
        lesson = page.read_text(encoding="utf-8")
        teacher = [words(line) for line in
                   re.findall(r'<p class="aces-teacher">(.*?)</p>', lesson, re.DOTALL)]
        marked += len(teacher)
        sheet = words((root / "lessons" / f"{page.stem}-sheet.html").read_text("utf-8"))
        printed = pdf_text(root / "lessons" / f"{page.stem}-sheet.pdf")
        for text in (sheet, printed):
            for line in teacher:
                assert squash(line) not in squash(text), (lang, page.name, line)
            found = re.findall(TEACHER_WORDS.get(lang, TEACHER_WORDS["en"]), text,
                               re.IGNORECASE)
            assert found == [], (lang, page.name, found)
    assert marked >= 7, marked


@pytest.mark.parametrize("lang", SITES)
def test_the_class_experiments_sheet_has_a_tally_table_for_twenty_games_on_a4(
        site: dict[str, t.Any], lang: str) -> None:
    from pypdf import PdfReader

    root = site[f"html-{lang}"].out / "lessons"
    sheet = (root / "class-experiment-sheet.html").read_text(encoding="utf-8")
    tables = re.findall(r"<table.*?</table>", sheet, re.DOTALL)
    assert tables, lang
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", tables[0], re.DOTALL)
    head = re.findall(r"<th[^>]*>(.*?)</th>", rows[0], re.DOTALL)
    assert len(head) == 5, head
    assert all(words(cell) for cell in head), head
    body = [re.findall(r"<td[^>]*>(.*?)</td>", row, re.DOTALL) for row in rows[1:]]
    # One numbered line a game, the other cells blank to write in.
    assert [words(cells[0]) for cells in body] == [str(n) for n in range(1, 21)]
    assert all(len(cells) == 5 and not any(words(cell) for cell in cells[1:])
               for cells in body)
    pdf = PdfReader(root / "class-experiment-sheet.pdf")
    for page in pdf.pages:
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        assert (round(width), round(height)) == (595, 842), (width, height)
    assert "20" in pdf_text(root / "class-experiment-sheet.pdf")
