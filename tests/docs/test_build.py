"""The documentation builds in both languages with warnings as errors, and says what the code says.

The site is built once for the session, exactly as ``scripts/docs.py
build`` builds it (English, Norwegian and the doctests, each with ``-W``),
and the translation catalogs are checked against a fresh extraction.
"""

from __future__ import annotations

import html
import importlib.util
import io
import re
import subprocess
import sys
import typing as t
from pathlib import Path

import pytest

from aces import engine
from aces.cli._numbers import percent
from aces.dice import RandomDice
from aces.i18n import translations
from aces.log import LogWriter, read
from aces.narrate import tell
from aces.odds.finish import try_success
from aces.odds.outcomes import CHANCES, Outcome
from aces.rules import game_named

ROOT: t.Final = Path(__file__).resolve().parent.parent.parent


def _load_tool() -> t.Any:
    spec = importlib.util.spec_from_file_location("docs_tool", ROOT / "scripts" / "docs.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


tool = _load_tool()


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> dict[str, t.Any]:
    """Every build of the site, by name, and the fresh message templates."""
    out = tmp_path_factory.mktemp("docs")
    builds: dict[str, t.Any] = {result.name: result for result in tool.build(out)}
    builds["templates"] = tool.extract(out / "gettext")
    return builds


def visible_text(page: Path) -> str:
    """The words a reader sees on a page, without code, scripts or markup."""
    text = page.read_text(encoding="utf-8")
    for tag in ("script", "style", "pre", "code", "svg"):
        text = re.sub(rf"<{tag}\b.*?</{tag}>", " ", text, flags=re.DOTALL)
    # Option names and other literals in signatures: code, not prose.
    text = re.sub(r'<span class="pre">.*?</span>', " ", text, flags=re.DOTALL)
    text = re.sub(r"<[^>]+>", " ", text)
    return re.sub(r"[ \t\r\n]+", " ", html.unescape(text))


def pages(root: Path) -> list[Path]:
    """The site's own pages: not the search page or the index Sphinx adds."""
    return [page for page in sorted(root.rglob("*.html"))
            if page.name not in ("search.html", "genindex.html")]


@pytest.mark.parametrize("name", ["html-en", "html-nb", "doctest"])
def test_each_build_passes_without_a_warning(site: dict[str, t.Any], name: str) -> None:
    result = site[name]
    assert result.returncode == 0, result.output
    assert result.warnings == "", result.output
    assert result.passed


def small_site(tmp_path: Path, conf: str, page: str) -> t.Any:
    """Build a one-page site exactly as the real one is built; the result."""
    source = tmp_path / "source"
    source.mkdir()
    (source / "conf.py").write_text(conf, encoding="utf-8")
    (source / "index.rst").write_text(f"Small\n=====\n\n{page}\n", encoding="utf-8")
    command = tool.sphinx("html", tmp_path / "out", source=source)
    return tool.finish("small", command, tool.run(command))


#: What matplotlib says the first time it runs on a machine, said the way it says it.
FIRST_RUN: t.Final = """\
import logging, sys
logging.basicConfig(format="%(levelname)s %(name)s %(message)s")
logging.getLogger("matplotlib.font_manager").setLevel(logging.INFO)
logging.getLogger("matplotlib.font_manager").info("generated new fontManager")
print("Matplotlib is building the font cache; this may take a moment.", file=sys.stderr)
"""


def test_a_librarys_first_run_chatter_does_not_fail_the_build(tmp_path: Path) -> None:
    result = small_site(tmp_path, FIRST_RUN, "Some text.")
    assert "generated new fontManager" in result.output
    assert result.passed, result.output


def test_a_sphinx_warning_still_fails_the_build(tmp_path: Path) -> None:
    result = small_site(tmp_path, FIRST_RUN, "See :doc:`nowhere`.")
    assert not result.passed
    assert "nowhere" in result.warnings
    assert "generated new fontManager" not in result.warnings


def test_the_doctests_ran_and_passed(site: dict[str, t.Any]) -> None:
    report = (site["doctest"].out / "output.txt").read_text(encoding="utf-8")
    ran = sum(int(count) for count in re.findall(r"^\s*(\d+) tests", report, re.MULTILINE))
    assert ran >= 9, report
    assert "0 failures in tests" in report


def test_both_sites_have_every_part(site: dict[str, t.Any]) -> None:
    for lang in ("en", "nb"):
        root = site[f"html-{lang}"].out
        names = {page.relative_to(root).as_posix() for page in pages(root)}
        assert {"rules/pot.html", "rules/five-dice.html", "rules/rulings.html",
                "log-format.html", "commands.html"} <= names
        assert len([name for name in names if name.startswith("lessons/")]) >= 9
        assert len([name for name in names if name.startswith("walkthroughs/")]) >= 5


def test_every_lesson_has_its_parts_and_a_plot(site: dict[str, t.Any]) -> None:
    root = site["html-en"].out / "lessons"
    lessons = [page for page in sorted(root.glob("*.html")) if page.name != "index.html"]
    for page in lessons:
        text = visible_text(page)
        for part in ("The question", "The exact answer", "A simulation",
                     "Questions for the class", "Exercises", "Answers",
                     "Notes for the teacher"):
            assert part in text, (page.name, part)
        assert "data:image/png;base64," in page.read_text(encoding="utf-8"), page.name


def test_the_numbers_are_the_codes_own(site: dict[str, t.Any]) -> None:
    english = site["html-en"].out / "lessons"
    assert str(CHANCES[Outcome(0, 0)]) in visible_text(english / "nothing.html")
    assert str(try_success()) in visible_text(english / "three-rolls.html")
    norwegian = visible_text(site["html-nb"].out / "lessons" / "nothing.html")
    assert percent(float(CHANCES[Outcome(0, 0)]), "nb") in norwegian


@pytest.mark.parametrize("lang", ["en", "nb"])
def test_a_walkthrough_is_the_logs_own_narration(site: dict[str, t.Any], lang: str) -> None:
    log = ROOT / "replays" / "three-players.jsonl"
    with log.open("rb") as stream:
        story = tell(read(stream, log.name), log.name, translations(lang), lang)
    page = visible_text(site[f"html-{lang}"].out / "walkthroughs" / "three-players.html")
    told = [line for line in story if not line.startswith(("Standings", "Stillingen"))]
    assert all(html.unescape(line) in page for line in told)
    assert ("Regel" if lang == "nb" else "Rule") in page


#: Common English words that Norwegian never uses.
ENGLISH: t.Final = re.compile(r"\b(the|and|which|with|from|that|this|when|each|every)\b")


def test_the_norwegian_site_has_no_english_prose(site: dict[str, t.Any]) -> None:
    root = site["html-nb"].out
    found = {}
    for page in pages(root):
        words = ENGLISH.findall(visible_text(page))
        if words:
            found[page.relative_to(root).as_posix()] = words[:5]
    assert found == {}
    assert 'lang="nb"' in (root / "index.html").read_text(encoding="utf-8")


def test_the_catalogs_are_complete_and_in_step(site: dict[str, t.Any]) -> None:
    assert tool.problems(site["templates"]) == []


def test_the_markup_check_catches_a_broken_translation() -> None:
    assert tool.markup("Chance :aces:`try`, see :doc:`rules`.") != tool.markup(
        "Sjanse :aces:`forsøk`, se :doc:`rules`.")


# -- Bad input fails the build, with the file and the line ------------------------------


def build_small(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    """Build a one-page site that uses the extension; its output and status."""
    source = tmp_path / "source"
    source.mkdir()
    (source / "conf.py").write_text(
        f'extensions = ["aces.sphinxext"]\naces_log_root = {str(tmp_path)!r}\n',
        encoding="utf-8")
    (source / "index.rst").write_text(f"Small\n=====\n\nSome text.\n\n{body}\n", encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "sphinx", "-q", "-b", "html", str(source),
                           str(tmp_path / "out")], capture_output=True, text=True, check=False)


def test_a_missing_log_fails_the_build(tmp_path: Path) -> None:
    result = build_small(tmp_path, ".. aces-walkthrough:: nowhere.jsonl")
    assert result.returncode != 0
    assert "index.rst:6" in result.stderr
    assert "nowhere.jsonl" in result.stderr


def test_an_invalid_log_fails_the_build_naming_its_line(tmp_path: Path) -> None:
    game = game_named("pot")
    log = io.BytesIO()
    LogWriter(log).write_all(engine.play(game, engine.header(game, ["Ada", "Bo", "Cy"], {}),
                                         RandomDice(3)))
    lines = log.getvalue().splitlines(keepends=True)
    (tmp_path / "bad.jsonl").write_bytes(b"".join(lines[:8]) + b"not json\n")
    result = build_small(tmp_path, ".. aces-walkthrough:: bad.jsonl")
    assert result.returncode != 0
    assert "index.rst:6" in result.stderr
    assert "bad.jsonl, line 9" in result.stderr


def test_an_unknown_number_fails_the_build(tmp_path: Path) -> None:
    result = build_small(tmp_path, "The chance is :aces:`no-such-number`.")
    assert result.returncode != 0
    assert "index.rst:6" in result.stderr
    assert "no-such-number" in result.stderr
