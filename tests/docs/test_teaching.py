"""What a teacher takes into class: the front page's table, each lesson's facts, the pupil
sheets without answers (HTML and PDF), and formulas typeset by a MathJax the site serves."""

from __future__ import annotations

import base64
import html
import re
import subprocess
import sys
import typing as t
from pathlib import Path

import pytest

from aces import i18n
from sphinxext.teaching import FIELDS

from docsite import DOCS_EXTENSIONS

if t.TYPE_CHECKING:
    from playwright.sync_api import Page

ROOT: t.Final = Path(__file__).resolve().parent.parent.parent
LANGUAGES: t.Final = sorted(path.name for path in (ROOT / "docs" / "locale").iterdir()
                            if (path / "LC_MESSAGES").is_dir())
SITES: t.Final = ["en", *LANGUAGES]


#: A formula as MathJax finds it on a page, and as a picture on a pupil sheet (its
#: TeX kept beside its words): each becomes its TeX between ⟦ ⟧, so that the two
#: can be compared.
PAGE_FORMULA: t.Final = re.compile(r'<span class="math[^"]*">\\\((.*?)\\\)</span>', re.DOTALL)
SHEET_FORMULA: t.Final = re.compile(r'<img class="aces-math" src="data:image/svg\+xml;base64,'
                                    r'[^"]+" alt="[^"]*" data-tex="([^"]*)"[^>]*>')
MARKED: t.Final = re.compile(r"⟦[^⟧]*⟧")


def words(markup: str) -> str:
    """The text of some HTML, its white space made single spaces, each formula ⟦its TeX⟧."""
    markup = re.sub(r"<(script|style)\b.*?</\1>", " ", markup, flags=re.DOTALL)
    markup = PAGE_FORMULA.sub(r" ⟦\1⟧ ", markup)
    markup = SHEET_FORMULA.sub(r" ⟦\1⟧ ", markup)
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


def pdf_links(path: Path) -> list[str]:
    """The addresses a PDF's links lead to."""
    from pypdf import PdfReader

    return [str(note.get_object()["/A"]["/URI"])
            for page in PdfReader(path).pages for note in page.get("/Annots", [])
            if "/URI" in note.get_object().get("/A", {})]


@pytest.mark.parametrize("lang", SITES)
def test_a_printed_sheet_links_only_to_the_web(site: dict[str, t.Any], lang: str) -> None:
    """A sheet's PDF is handed round by e-mail and the school's learning platform: a link
    to another lesson would lead into the folder it was built in, so it is plain words."""
    root = site[f"html-{lang}"].out
    sheets = sorted(root.rglob("*-sheet.pdf"))
    assert sheets
    linked = sorted({page.name for page in sheets
                     if "reference internal" in page.with_suffix(".html").read_text("utf-8")})
    assert linked, "no sheet links to another page: the test would prove nothing"
    for page in sheets:
        for address in pdf_links(page):
            assert address.startswith(("https://", "http://")), (lang, page.name, address)


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
        # Compared without white space: a PDF breaks lines where a page does not; its
        # formulas are drawings, not text.
        for text, pdf in ((squash(sheet), False), (squash(printed), True)):
            for markup in pupils:
                for item in items(markup):
                    expected = MARKED.sub("", item) if pdf else item
                    assert squash(expected) in text, (lang, page.name, item)
            for answer in items(answers):
                # A PDF's formulas are drawings: look for the answer's longest stretch of words.
                shown = squash(max(MARKED.split(answer), key=len) if pdf else answer)
                if len(shown) >= 20:
                    assert shown not in text, (lang, page.name, answer)
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
    (source / "conf.py").write_text(DOCS_EXTENSIONS, encoding="utf-8")
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
    # The whole table on one sheet of paper, under its heading: a group takes one page.
    printed = [" ".join((page.extract_text() or "").split()) for page in pdf.pages]
    holding = [text for text in printed if words(head[0]) in text]
    assert len(holding) == 1, printed
    lines = holding[0].split()
    assert [str(n) for n in range(1, 21)] == [word for word in lines if word.isdigit()
                                              and 1 <= int(word) <= 20][-20:], holding[0]


def curves(pdf: Path) -> int:
    """The Bézier curves a PDF draws: on a sheet, only its formulas' glyphs are curves
    (its words are text, its tables straight lines)."""
    from pypdf import PdfReader

    found = 0
    for page in PdfReader(pdf).pages:
        contents = page.get_contents()
        if contents is not None:
            found += contents.get_data().count(b" c\n")
    return found


@pytest.mark.parametrize("lang", SITES)
def test_the_sheets_draw_the_lessons_formulas(site: dict[str, t.Any], lang: str) -> None:
    """WeasyPrint runs no MathJax: a formula on a pupil sheet is a picture, in the HTML
    and in the PDF, and each formula of the lesson's pupil sections is there."""
    root = site[f"html-{lang}"].out / "lessons"
    drawn = 0
    for page in lessons(root.parent):
        parts = [markup for classes, markup in sections(page) if "aces-pupil" in classes]
        wanted = [tex for markup in parts
                  for tex in PAGE_FORMULA.findall(re.sub(
                      r'<p class="aces-teacher">.*?</p>', "", markup, flags=re.DOTALL))]
        sheet = (root / f"{page.stem}-sheet.html").read_text(encoding="utf-8")
        pictures = SHEET_FORMULA.findall(sheet)
        assert [html.unescape(tex) for tex in pictures] == [html.unescape(tex)
                                                           for tex in wanted], page.name
        for uri in re.findall(r'<img class="aces-math" src="data:image/svg\+xml;base64,([^"]+)"',
                              sheet):
            assert b"<path" in base64.b64decode(uri)
        assert "\\(" not in words(sheet)
        printed = root / f"{page.stem}-sheet.pdf"
        assert (curves(printed) > 0) == bool(pictures), page.name
        assert "\\frac" not in pdf_text(printed), page.name
        drawn += len(pictures)
    assert drawn >= 8, drawn


@pytest.mark.parametrize("lang", SITES)
def test_the_formulas_carry_the_packages_numbers(site: dict[str, t.Any], lang: str) -> None:
    root = site[f"html-{lang}"].out / "lessons"
    for page in lessons(root.parent):
        assert "\\aces" not in page.read_text(encoding="utf-8"), page.name
    three = PAGE_FORMULA.findall((root / "three-rolls.html").read_text(encoding="utf-8"))
    assert any("\\frac{15625}{46656}" in tex for tex in three), three
    large = " ".join(PAGE_FORMULA.findall((root / "large-numbers.html").read_text("utf-8")))
    # A decimal in a formula is written the language's way.
    assert ("\\approx 3.2" if lang == "en" else "\\approx 3{,}2") in large, large


def small_lesson(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    source = tmp_path / "source"
    source.mkdir()
    (source / "conf.py").write_text(DOCS_EXTENSIONS, encoding="utf-8")
    (source / "index.rst").write_text("A lesson\n========\n\n.. aces-sheet::\n\n"
                                      ".. rst-class:: aces-pupil\n\nExercises\n---------\n\n"
                                      f"{body}\n", encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "sphinx", "-q", "-b", "html", str(source),
                           str(tmp_path / "out")], capture_output=True, text=True, check=False)


def test_a_formula_for_pupils_is_drawn_on_their_sheet(tmp_path: Path) -> None:
    result = small_lesson(tmp_path, "#. Show that :math:`\\left(\\aces{no-six}\\right)^3 ="
                                    " \\aces{try}`.\n\n.. math::\n\n   \\frac{p\\,q^k}{1 - q^n}")
    assert result.returncode == 0, result.stderr
    sheet = (tmp_path / "out" / "index-sheet.html").read_text(encoding="utf-8")
    assert [html.unescape(tex) for tex in SHEET_FORMULA.findall(sheet)] == [
        "\\left(\\frac{25}{36}\\right)^3 = \\frac{15625}{46656}",
        "\\frac{p\\,q^k}{1 - q^n}"]
    assert curves(tmp_path / "out" / "index-sheet.pdf") > 0


def test_a_formula_the_sheet_cannot_draw_stops_the_build(tmp_path: Path) -> None:
    result = small_lesson(tmp_path, "#. Show that :math:`\\bigl( x \\bigr)`.")
    assert result.returncode != 0
    assert "index" in result.stderr
    assert "\\bigl" in result.stderr
    assert not (tmp_path / "out" / "index-sheet.pdf").exists()


def test_an_unknown_number_in_a_formula_stops_the_build(tmp_path: Path) -> None:
    result = small_lesson(tmp_path, "#. Show that :math:`x = \\aces{no-such-number}`.")
    assert result.returncode != 0
    assert "index.rst:11" in result.stderr
    assert "no-such-number" in result.stderr


def fact(page: str, key: str) -> str:
    """The text of one of a lesson's facts (sphinxext.teaching), by its class."""
    found = re.search(rf'<dt class="aces-{key}[^"]*">.*?</dt>\s*<dd[^>]*>(.*?)</dd>', page,
                      re.DOTALL)
    assert found is not None, key
    return words(found[1])


#: The Norwegian upper-secondary courses a lesson may be for.
COURSES: t.Final = re.compile(r"\b(1P|1T|R1|R2|S1|S2)\b")

#: The LK20 plan in force in the school year 2026-27 for each level a lesson may name:
#: MAT01-06 replaced MAT01-05 in every year 1-10 on 1 August 2026, and MAT09-02
#: replaced MAT09-01 for Vg1 on the same day.
PLAN_IN_FORCE: t.Final = {"trinn": "MAT01-06", "1P": "MAT08-01", "1T": "MAT09-02",
                          "R1": "MAT03-02", "R2": "MAT03-02", "S1": "MAT04-02", "S2": "MAT04-02"}
RETIRED_PLANS: t.Final = ("MAT01-05", "MAT09-01")

#: Udir's wording of each competence aim a lesson quotes, as the site's language has it.
#: Sources: udir.no/lk20/mat08-01/kompetansemaal-og-vurdering/kv31 (?lang=nob, ?lang=eng),
#: udir.no/lk20/mat09-02/kompetansemaal-og-vurdering/kv979 (?lang=nob, ?lang=eng),
#: udir.no/lk20/mat01-06/kompetansemaal-og-vurdering/kv1029?lang=eng; the nn texts and the
#: R and S plans as data.udir.no/kl06/v201906/laereplaner-lk20 serves them. English marked
#: "our translation" on the sites is ours, not Udir's.
UDIR_WORDING: t.Final = {
    "nb": {
        "beregne og vurdere sannsynlighet i statistikk og spill",
        "simulere utfall i tilfeldige forsøk og beregne sannsynligheten for at noe skal"
        " inntreffe, ved å bruke programmering",
        "modellere situasjoner, presentere resultatene og vurdere hvor gyldige modellene er",
        "utforske matematiske egenskaper og sammenhenger ved å bruke programmering",
        "lese og forklare tekstbasert programkode i Python",
        "modellere situasjoner knyttet til temaer fra samfunnsliv og arbeidsliv, presentere og"
        " argumentere for resultatene og for når modellene er gyldige",
        "modellere situasjoner knyttet til ulike temaer, drøfte, presentere og forklare"
        " resultatene og argumentere for om modellene er gyldige",
        "formulere og løse problemer ved hjelp av algoritmisk tenkning, ulike"
        " problemløsingsstrategier, digitale verktøy og programmering",
        "bruke digitale verktøy til å simulere og utforske utfall i stokastiske forsøk, og forstå"
        " begrepet stokastiske variabler",
        "analysere et problem der sannsynlighet og kombinatorikk inngår, og bruke ulike"
        " strategier i problemløsingen",
        "utforske egenskaper ved ulike rekker og gjøre rede for praktiske anvendelser av"
        " egenskaper ved rekker",
        # Core elements, by their names.
        "Utforsking og problemløsing", "Modellering og anvendelser",
    },
    "nn": {
        "berekne og vurdere sannsyn i statistikk og spel",
        "simulere utfall i tilfeldige forsøk og berekne sannsynet for at noko skal inntreffe,"
        " ved å bruke programmering",
        "modellere situasjonar, presentere resultata og vurdere kor gyldige modellane er",
        "utforske matematiske eigenskapar og samanhengar ved å bruke programmering",
        "lese og forklare tekstbasert programkode i Python",
        "modellere situasjonar knytte til tema frå samfunnsliv og arbeidsliv, presentere og"
        " argumentere for resultata og for når modellane er gyldige",
        "modellere situasjonar knytte til ulike tema, drøfte, presentere og forklare resultata og"
        " argumentere for om modellane er gyldige",
        "formulere og løyse problem ved hjelp av algoritmisk tenking, ulike"
        " problemløysingsstrategiar, digitale verktøy og programmering",
        "Utforsking og problemløysing", "Modellering og anvendingar",
    },
    "en": {
        "model situations, present the results and assess the validity of the models",
        "explore mathematical properties and relationships using programming",
        "read and explain text-based programming code in Python",
        "model situations related to issues from society and the workplace, present and argue"
        " for the results and for when the models are valid",
        "model situations related to different topics, discuss, present and explain the results"
        " and argue the validity of the models",
        "formulate and solve problems through the use of computational thinking, different"
        " problem solving strategies, digital tools and programming",
    },
}
#: A quotation in a lesson's aims: «» in Norwegian, “” in English (Sphinx's smart quotes),
#: except an English one marked as the project's own translation.
QUOTED: t.Final = {"nb": re.compile(r"«([^»]+)»"), "nn": re.compile(r"«([^»]+)»"),
                   "en": re.compile(r"“([^”]+)”(?! \(our translation\))")}


@pytest.mark.parametrize("lang", SITES)
def test_each_course_a_lesson_is_for_has_its_aims(site: dict[str, t.Any], lang: str) -> None:
    """A lesson for Vg1 1T, or R1 and S1, names what it serves in those courses, not only
    in the years before; and every site names the curriculum the aims come from: for each
    level, the plan in force today, never one that was replaced."""
    courses_seen = set()
    for page in lessons(site[f"html-{lang}"].out):
        text = page.read_text(encoding="utf-8")
        level, aims = fact(text, "level"), fact(text, "competence-aims")
        wanted = set(COURSES.findall(level))
        courses_seen |= wanted
        assert wanted <= set(COURSES.findall(aims)), (page.name, wanted, aims)
        assert "LK20" in aims, page.name
        for course in wanted | ({"trinn"} if "trinn" in level else set()):
            assert PLAN_IN_FORCE[course] in aims, (page.name, course, aims)
        assert not [code for code in RETIRED_PLANS if code in aims], (page.name, aims)
    assert courses_seen == {"1P", "1T", "R1", "R2", "S1", "S2"}


@pytest.mark.parametrize("lang", SITES)
def test_every_quoted_aim_is_udirs_wording(site: dict[str, t.Any], lang: str) -> None:
    """A competence aim in quotation marks is the curriculum's own words, never ours: every
    quotation is one of the aims as Udir words them in the site's language."""
    quoted = 0
    for page in lessons(site[f"html-{lang}"].out):
        aims = fact(page.read_text(encoding="utf-8"), "competence-aims")
        for quote in QUOTED[lang].findall(aims):
            assert quote in UDIR_WORDING[lang], (page.name, quote)
            quoted += 1
    assert quoted >= 12


#: A link from a page to a browser page it offers (aces.sphinxext.pagelinks).
PAGE_LINK: t.Final = re.compile(r'<a class="aces-page-link reference external" href="([^"]+)">'
                                r"(.*?)</a>", re.DOTALL)


@pytest.mark.parametrize("lang", SITES)
def test_the_front_page_links_the_browser_pages_that_need_nothing_installed(
        site: dict[str, t.Any], lang: str) -> None:
    root = site[f"html-{lang}"].out
    spoken = lang if lang in i18n.LANGUAGES else "en"
    front = (root / "index.html").read_text(encoding="utf-8")
    links = PAGE_LINK.findall(front)
    assert sorted(Path(href).name for href, _text in links) == [
        f"replay-three-players-{spoken}.html", f"simulation-4-{spoken}.html"]
    for href, text in links:
        target = (root / href).resolve()
        assert target.is_file(), href
        assert target.parent == (root / "_aces").resolve()
        shown = target.read_text(encoding="utf-8")
        assert f'<html lang="{spoken}">' in shown
        title = re.search(r"<title>(.*?)</title>", shown, re.DOTALL)
        assert title is not None
        assert words(text) == html.unescape(title[1]).strip().rstrip(".")


@pytest.mark.parametrize("lang", SITES)
def test_the_front_pages_links_open_the_pages_in_a_browser(page: Page, server: str,
                                                          lang: str) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{server}{lang}/index.html")
    links = page.locator("a.aces-page-link")
    assert links.count() == 2
    for number in range(2):
        page.goto(f"{server}{lang}/index.html")
        link = page.locator("a.aces-page-link").nth(number)
        link.scroll_into_view_if_needed()
        assert link.is_visible()
        expected = link.inner_text().strip()
        with page.expect_response(lambda response: "/_aces/" in response.url) as opened:
            link.click()
        assert opened.value.status == 200
        page.wait_for_load_state("load")
        assert page.title().strip().rstrip(".") == expected


def test_a_link_to_a_page_the_site_does_not_have_stops_the_build(tmp_path: Path) -> None:
    source = tmp_path / "source"
    source.mkdir()
    (source / "conf.py").write_text('extensions = ["aces.sphinxext"]\n', encoding="utf-8")
    (source / "index.rst").write_text("Home\n====\n\nPlay it: :aces-page:`simulation-4`.\n",
                                      encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "sphinx", "-q", "-b", "html", str(source),
                             str(tmp_path / "out")], capture_output=True, text=True, check=False)
    assert result.returncode != 0
    assert "index.rst:4" in result.stderr
    assert "simulation-4" in result.stderr
