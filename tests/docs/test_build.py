"""The documentation builds in every language with warnings as errors, and says what the code says.

The site is built once for the session, exactly as ``scripts/docs.py
build`` builds it (English, Bokmål, Nynorsk and the doctests, each with
``-W``), and the translation catalogs are checked against a fresh
extraction. The languages are those of the catalogs in ``docs/locale``.
"""

from __future__ import annotations

import html
import io
import re
import shutil
import subprocess
import sys
import typing as t
from html.parser import HTMLParser
from pathlib import Path

import pytest

from aces import engine, i18n
from aces.dice import RandomDice
from aces.exact.finish import try_success
from aces.exact.outcomes import CHANCES, Outcome
from aces.games import game_named
from aces.i18n import translations
from aces.log import LogWriter, read
from aces.narrate import tell
from aces.numbers import percent
from aces.sphinxext.pages import PAGES_FOLDER

from docsite import DOCS_EXTENSIONS, load_tool

ROOT: t.Final = Path(__file__).resolve().parent.parent.parent


tool = load_tool()
#: The site's languages, read from its catalogs as the build reads them.
LANGUAGES: t.Final = tuple(tool.languages())
NORWEGIAN: t.Final = ("nb", "nn")


def test_the_site_is_built_in_english_bokmal_and_nynorsk() -> None:
    assert LANGUAGES[0] == "en"
    assert {"nb", "nn"} <= set(LANGUAGES)


def spoken_by_the_package(lang: str) -> None:
    """The computed parts of a page (narration, plots, command output) speak the
    package's languages; skip, saying why, for a language it does not speak yet."""
    if lang not in i18n.LANGUAGES:
        pytest.skip(f"the package has no catalog for {lang!r} yet: the computed parts"
                    " of that site fall back to English")


class _Other(HTMLParser):
    """A page without the parts it marks as told in another language (``lang="nb"``)."""

    def __init__(self, lang: str) -> None:
        super().__init__(convert_charrefs=False)
        self.lang = lang
        self.kept: list[str] = []
        #: The open elements, each with whether it is in another language.
        self.open: list[tuple[str, bool]] = []

    def _away(self) -> bool:
        return any(other for _, other in self.open)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        other = dict(attrs).get("lang") not in (None, self.lang)
        if tag not in VOID:
            self.open.append((tag, other))
        if not self._away():
            self.kept.append(self.get_starttag_text() or "")

    def handle_endtag(self, tag: str) -> None:
        away = self._away()
        while self.open:
            if self.open.pop()[0] == tag:
                break
        if not away:
            self.kept.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        if not self._away():
            self.kept.append(data)

    def handle_entityref(self, name: str) -> None:
        self.handle_data(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self.handle_data(f"&#{name};")


#: Elements without an end tag.
VOID: t.Final = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
                           "meta", "source", "track", "wbr"})


def visible_text(page: Path, lang: str | None = None) -> str:
    """The words a reader sees on a page, without code, scripts or markup; with
    ``lang``, only those in that language (not a part marked as told in another)."""
    text = page.read_text(encoding="utf-8")
    if lang is not None:
        other = _Other(lang)
        other.feed(text)
        other.close()
        text = "".join(other.kept)
    for tag in ("script", "style", "pre", "code", "svg"):
        text = re.sub(rf"<{tag}\b.*?</{tag}>", " ", text, flags=re.DOTALL)
    # Option names and other literals in signatures: code, not prose.
    text = re.sub(r'<span class="pre">.*?</span>', " ", text, flags=re.DOTALL)
    text = re.sub(r"<[^>]+>", " ", text)
    return re.sub(r"[ \t\r\n]+", " ", html.unescape(text))


def pages(root: Path) -> list[Path]:
    """The site's own pages: not the search page or the index Sphinx adds, nor
    the pages they embed (``_aces``: the replay and simulation pages, which
    carry every language and are tested in tests/docs/test_embedded_pages.py)."""
    return [page for page in sorted(root.rglob("*.html"))
            if page.name not in ("search.html", "genindex.html")
            and PAGES_FOLDER not in page.relative_to(root).parts]


@pytest.mark.parametrize("name", [*(f"html-{lang}" for lang in LANGUAGES), "doctest"])
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


def test_every_site_has_every_part(site: dict[str, t.Any]) -> None:
    for lang in LANGUAGES:
        root = site[f"html-{lang}"].out
        names = {page.relative_to(root).as_posix() for page in pages(root)}
        assert {"rules/pot.html", "rules/five-dice.html", "rules/rulings.html",
                "log-format.html", "commands.html"} <= names
        assert len([name for name in names if name.startswith("lessons/")]) >= 9
        assert len([name for name in names if name.startswith("walkthroughs/")]) >= 5


def test_every_lesson_has_its_parts_and_a_plot(site: dict[str, t.Any]) -> None:
    root = site["html-en"].out / "lessons"
    lessons = [page for page in sorted(root.glob("*.html"))
               if page.name != "index.html" and not page.stem.endswith("-sheet")]
    for page in lessons:
        text = visible_text(page)
        for part in ("The question", "The exact answer", "A simulation",
                     "Questions for the class", "Exercises", "Answers",
                     "Notes for the teacher"):
            assert part in text, (page.name, part)
        assert "data:image/svg+xml;base64," in page.read_text(encoding="utf-8"), page.name


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_install_says_how_to_run_the_commands_on_windows(site: dict[str, t.Any],
                                                             lang: str) -> None:
    """On Windows the wheel's script gets no launcher (README), so ``aces`` alone
    is no command there: the first commands a reader types say the other way."""
    page = (site[f"html-{lang}"].out / "index.html").read_text(encoding="utf-8")
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", "", page)).split())  # code too
    assert "python -m pip install aces-dice aces play --players Ada,Bo,Cy" in text
    windows = text.partition("Windows")[2]
    assert "python -m aces" in windows.partition(".")[0]
    assert "python -m aces play --players Ada,Bo,Cy --seed 3 -o game.jsonl" in windows


def test_the_numbers_are_the_codes_own(site: dict[str, t.Any]) -> None:
    english = site["html-en"].out / "lessons"
    assert str(CHANCES[Outcome(0, 0)]) in visible_text(english / "nothing.html")
    assert str(try_success()) in visible_text(english / "three-rolls.html")


@pytest.mark.parametrize("lang", NORWEGIAN)
def test_the_norwegian_numbers_are_formatted_for_norwegian(site: dict[str, t.Any],
                                                           lang: str) -> None:
    spoken_by_the_package(lang)
    norwegian = visible_text(site[f"html-{lang}"].out / "lessons" / "nothing.html")
    assert percent(float(CHANCES[Outcome(0, 0)]), lang) in norwegian
    assert "," in percent(float(CHANCES[Outcome(0, 0)]), lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_walkthrough_is_the_logs_own_narration(site: dict[str, t.Any], lang: str) -> None:
    spoken_by_the_package(lang)
    log = ROOT / "replays" / "three-players.jsonl"
    with log.open("rb") as stream:
        story = tell(read(stream, log.name), log.name, translations(lang), lang)
    page = visible_text(site[f"html-{lang}"].out / "walkthroughs" / "three-players.html")
    told = [line for line in story if not line.startswith(("Standings", "Stillingen",
                                                            "Stillinga"))]
    assert all(html.unescape(line) in page for line in told)
    assert ("Rule" if lang == "en" else "Regel") in page


#: Pages that stay in English on every site, and say so: the API reference,
#: generated from the docstrings.
ENGLISH_PAGES: t.Final = frozenset({"api.html"})
#: Common English words that Norwegian never uses.
ENGLISH: t.Final = re.compile(r"\b(the|and|which|with|from|that|this|when|each|every)\b")


@pytest.mark.parametrize("lang", NORWEGIAN)
def test_the_norwegian_sites_have_no_english_prose(site: dict[str, t.Any], lang: str) -> None:
    spoken_by_the_package(lang)
    root = site[f"html-{lang}"].out
    found = {}
    for page in pages(root):
        if page.relative_to(root).as_posix() in ENGLISH_PAGES:
            continue
        words = ENGLISH.findall(visible_text(page))
        if words:
            found[page.relative_to(root).as_posix()] = words[:5]
    assert found == {}
    assert f'lang="{lang}"' in (root / "index.html").read_text(encoding="utf-8")



#: A comment in a code block, as Pygments marks it (``c``, ``c1``, ``cm``, ``ch``, ``cs``).
COMMENT: t.Final = re.compile(r'<span class="c[1hms]?">(.*?)</span>', re.DOTALL)


@pytest.mark.parametrize("lang", NORWEGIAN)
def test_the_code_on_the_norwegian_sites_has_no_english_comments(site: dict[str, t.Any],
                                                                 lang: str) -> None:
    """Code blocks are not translated: a comment in one would stay English, so the
    pages say in their prose what a command does, and their code carries no prose."""
    root = site[f"html-{lang}"].out
    found = {}
    for page in pages(root):
        if page.relative_to(root).as_posix() in ENGLISH_PAGES:
            continue
        comments = [html.unescape(comment)
                    for comment in COMMENT.findall(page.read_text(encoding="utf-8"))]
        english = [comment for comment in comments if ENGLISH.search(comment)]
        if english:
            found[page.relative_to(root).as_posix()] = english[:3]
    assert found == {}

#: Bokmål forms a Nynorsk text never has (Nynorsk says ikkje, eg/jeg → eg, kva, kven...).
BOKMAL: t.Final = re.compile(r"\b(ikke|hva|hvem|hvor|hvorfor|jeg|nå|spiller|spillere|sjetonger"
                             r"|terninger|hvis|bare|noen|mye)\b")


def test_the_nynorsk_site_has_no_bokmal(site: dict[str, t.Any]) -> None:
    spoken_by_the_package("nn")
    root = site["html-nn"].out
    found = {}
    for page in pages(root):
        # Not a walkthrough told in Bokmål and marked so (the page For writers shows one).
        words = BOKMAL.findall(visible_text(page, "nn"))
        if words:
            found[page.relative_to(root).as_posix()] = words[:5]
    assert found == {}


def test_the_nynorsk_pages_own_words_are_nynorsk(site: dict[str, t.Any]) -> None:
    """Whatever the package speaks, the pages' own text (the catalogs) is Nynorsk."""
    for name in ("rules/pot.html", "lessons/nothing.html", "translating.html"):
        article = (site["html-nn"].out / name).read_text(encoding="utf-8")
        # The pages' own paragraphs, not the computed parts (which the package narrates).
        text = " ".join(re.findall(r"<p>(.*?)</p>", article, flags=re.DOTALL))
        assert BOKMAL.findall(html.unescape(re.sub(r"<[^>]+>", " ", text))) == [], name


def test_the_catalogs_are_complete_and_in_step(site: dict[str, t.Any]) -> None:
    assert tool.problems(site["templates"]) == []


# -- The site between its languages --------------------------------------------------------


def switcher(page: Path) -> dict[str, str]:
    """The language switcher of a page: each language's link (the page's own: "")."""
    text = page.read_text(encoding="utf-8")
    nav = re.search(r'<nav class="aces-languages"[^>]*>(.*?)</nav>', text, flags=re.DOTALL)
    assert nav is not None, page
    links = dict(re.findall(r'<a href="([^"]+)" hreflang="([^"]+)"', nav.group(1)))
    current = re.findall(r'<span lang="([^"]+)" aria-current="page">', nav.group(1))
    return {**{lang: href for href, lang in links.items()}, **dict.fromkeys(current, "")}


def test_every_page_links_to_itself_in_every_language(site: dict[str, t.Any]) -> None:
    for lang in LANGUAGES:
        root = site[f"html-{lang}"].out
        for page in pages(root):
            name = page.relative_to(root).as_posix()
            links = switcher(page)
            assert set(links) == set(LANGUAGES), name
            assert links[lang] == "", name
            for other, href in links.items():
                if other != lang:
                    target = (page.parent / href).resolve()
                    assert target == (site[f"html-{other}"].out / name).resolve(), (name, href)
                    assert target.is_file(), (name, href)
            head = page.read_text(encoding="utf-8").split("</head>", 1)[0]
            alternates = set(re.findall(r'<link rel="alternate" hreflang="([^"]+)"', head))
            assert alternates == {*LANGUAGES, "x-default"}, name


@pytest.mark.parametrize("lang", NORWEGIAN)
def test_the_norwegian_sites_search_with_the_norwegian_stemmer(site: dict[str, t.Any],
                                                               lang: str) -> None:
    root = site[f"html-{lang}"].out
    assert "NorwegianStemmer" in (root / "_static" / "language_data.js").read_text("utf-8")
    index = (root / "searchindex.js").read_text(encoding="utf-8")
    # «sluttspillet» and «sluttspelet» are indexed under their stem.
    assert '"sluttsp' in index
    assert '"sluttspillet"' not in index
    assert '"sluttspelet"' not in index


@pytest.mark.parametrize("lang", NORWEGIAN)
def test_the_themes_words_are_norwegian(site: dict[str, t.Any], lang: str) -> None:
    """Sphinx ships no Nynorsk, and furo writes some accessible names in English: every
    word of the theme a page shows, to the eye or to a screen reader, is translated."""
    from babel.messages.pofile import read_po

    with (ROOT / "docs" / "locale" / lang / "LC_MESSAGES" / "sphinx.po").open("rb") as handle:
        theme = [message.id for message in read_po(handle) if isinstance(message.id, str)
                 and message.id.strip() and "%" not in message.id]
    root = site[f"html-{lang}"].out
    for page in [*pages(root), root / "search.html"]:
        text = page.read_text(encoding="utf-8")
        shown = [word for word in theme
                 if re.search(rf'>\s*{re.escape(word.strip())}\s*<|"{re.escape(word)}"', text)]
        assert shown == [], page.relative_to(root).as_posix()
        assert 'aria-label="Toggle' not in text, page.relative_to(root).as_posix()


@pytest.mark.parametrize("lang", NORWEGIAN)
def test_the_search_page_speaks_the_sites_language(site: dict[str, t.Any], lang: str) -> None:
    words = (site[f"html-{lang}"].out / "_static" / "translations.js").read_text("utf-8")
    assert '"Search Results": "S\\u00f8k' in words
    assert "${resultCount}" in words


def test_a_new_language_needs_only_its_catalogs(tmp_path: Path,
                                                site: dict[str, t.Any]) -> None:
    """A throwaway language, added as catalogs alone, is checked as strictly as the
    others and built with a page in it that links to every other language. (The
    pages are the site's, so their message templates are the site's too.)"""
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", docs, ignore=shutil.ignore_patterns("_build"))
    (tmp_path / "replays").symlink_to(ROOT / "replays")
    tool.init("sv", docs)
    assert tool.languages(docs) == [*LANGUAGES, "sv"]
    templates = site["templates"]
    untranslated = [problem for problem in tool.problems(templates, docs)
                    if problem.startswith("sv/")]
    assert untranslated
    assert all(problem.endswith("is not translated") for problem in untranslated)
    assert not [problem for problem in tool.problems(templates, docs)
                if not problem.startswith("sv/")]
    translate_as(docs, "sv", "nb")
    assert tool.problems(templates, docs) == []
    [built] = tool.build(tmp_path / "out", docs, only=["sv"], doctest=False)
    assert built.passed, built.output + built.warnings
    page = built.out / "rules" / "pot.html"
    assert 'lang="sv"' in page.read_text(encoding="utf-8")
    assert set(switcher(page)) == {*LANGUAGES, "sv"}
    assert "Ess i potten" in visible_text(page)


def translate_as(docs: Path, lang: str, model: str) -> None:
    """Fill every message of ``lang``'s catalogs with ``model``'s translation."""
    from babel.messages.pofile import read_po, write_po

    folder = docs / "locale" / lang / "LC_MESSAGES"
    for po in folder.rglob("*.po"):
        source = docs / "locale" / model / "LC_MESSAGES" / po.relative_to(folder)
        with source.open("rb") as handle:
            done = read_po(handle, locale=model)
        with po.open("rb") as handle:
            catalog = read_po(handle, locale=lang)
        for message in catalog:
            if message.id:
                message.string = done[message.id].string
        with po.open("wb") as handle:
            write_po(handle, catalog)


def test_the_markup_check_catches_a_broken_translation() -> None:
    assert tool.markup("Chance :aces:`try`, see :doc:`rules`.") != tool.markup(
        "Sjanse :aces:`forsøk`, se :doc:`rules`.")


# -- Bad input fails the build, with the file and the line ------------------------------


def build_small(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    """Build a one-page site that uses the extension; its output and status."""
    source = tmp_path / "source"
    source.mkdir()
    (source / "conf.py").write_text(
        f'{DOCS_EXTENSIONS}aces_log_root = {str(tmp_path)!r}\n',
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


# -- The command reference -----------------------------------------------------------------


def help_placeholders(lang: str) -> set[str]:
    """The placeholders of every option's value, as ``aces COMMAND --help`` prints
    them in ``lang`` (``HELTALL``, ``[last-chip|last-holder]``), without brackets."""
    import click

    from aces.cli import cli
    from aces.cli._language import commands, speaking, translated

    catalog = translations(lang)
    found = set()
    with speaking(catalog):
        for command in commands(translated(cli, catalog.gettext)):
            context = click.Context(command, info_name=command.name)
            for param in command.params:
                record = param.get_help_record(context) if isinstance(param, click.Option) else None
                if record is None:
                    continue
                names = click.formatting.join_options(param.opts)[0]
                value = record[0].removeprefix(names).strip()
                if value and not value.startswith("/"):  # "--exact / --no-exact": a flag
                    found.add(value.strip("[]{}"))
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_command_reference_names_each_value_as_the_help_does(site: dict[str, t.Any],
                                                                 lang: str) -> None:
    # Not the Python parameter's name (``--finish <finish>``, English everywhere).
    spoken_by_the_package(lang)
    page = (site[f"html-{lang}"].out / "commands.html").read_text(encoding="utf-8")
    signatures = [html.unescape(re.sub(r"<[^>]+>", "", found)) for found in
                  re.findall(r'<dt class="sig sig-object std"[^>]*>(.*?)</dt>', page, re.DOTALL)]
    shown = {value for signature in signatures for value in re.findall(r"<([^<>]+)>", signature)}
    assert shown == help_placeholders(lang)


def help_defaults(lang: str) -> dict[str, str]:
    """Every number an option's help gives as its default, by option, as
    ``aces COMMAND --help`` prints it in ``lang`` (``[standard: 0,99]``)."""
    import click

    from aces.cli import cli
    from aces.cli._language import commands, speaking, translated

    catalog = translations(lang)
    found = {}
    with speaking(catalog):
        for command in commands(translated(cli, catalog.gettext, lang)):
            context = click.Context(command, info_name=command.name)
            for param in command.params:
                record = param.get_help_record(context) if isinstance(param, click.Option) else None
                shown = re.search(r"\[[^:\]]+: ([0-9][^;\]]*)", record[1]) if record else None
                if shown is not None:
                    found[f"{command.name} {param.opts[0]}"] = shown.group(1)
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_command_reference_writes_a_default_number_as_the_help_does(
    site: dict[str, t.Any], lang: str,
) -> None:
    # «0,99» and «100 000» on the Norwegian sites, as the help has them, not
    # Python's «0.99» and «100000».
    spoken_by_the_package(lang)
    page = (site[f"html-{lang}"].out / "commands.html").read_text(encoding="utf-8")
    # The value of each field of an option ("Standard: 0,99").
    shown = [html.unescape(re.sub(r"<[^>]+>", "", found)).strip() for found in
             re.findall(r'<dd class="field-\w+"><p>(.*?)</p>', page, re.DOTALL)]
    defaults = help_defaults(lang)
    assert {"odds --quantile", "simulate --games"} <= set(defaults)
    for option, text in defaults.items():
        assert text in shown, (option, text, shown)
    if lang in NORWEGIAN:
        assert defaults["simulate --games"] == "100\xa0000"
        assert "100000" not in shown
        assert "0.99" not in shown


@pytest.mark.parametrize("lang", NORWEGIAN)
def test_the_command_reference_has_none_of_sphinx_clicks_english(site: dict[str, t.Any],
                                                                  lang: str) -> None:
    spoken_by_the_package(lang)
    page = (site[f"html-{lang}"].out / "commands.html").read_text(encoding="utf-8")
    article = html.unescape(re.sub(r"<[^>]+>", " ", page.split("<article", 1)[1]))
    for english in ("Required", "Optional", "argument(s)", "Default", "Usage"):
        assert english not in article, english
    # A default is shown as the help shows it, not as Python's repr of a text.
    assert "'last-chip'" not in article
    assert "last-chip" in article
