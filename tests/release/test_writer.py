"""A writer's own Sphinx project, made here, with the wheel installed as a writer
installs it (beside Sphinx and myst-parser, nothing of the project's): the
walkthroughs and the replay page in reStructuredText and in MyST Markdown,
under html, dirhtml, latex and text, with ``-W -j 2``, in every language on
an English site, and the writer's own settings left alone."""

from __future__ import annotations

import re
import shutil
import textwrap
import typing as t

import pytest

from browser import ready_frame
from installs import DISTRIBUTION, ROOT

if t.TYPE_CHECKING:
    from pathlib import Path

    from playwright.sync_api import Browser

    from installs import Venv

README: t.Final = ROOT / "README.md"
#: The documentation's page for writers, which a writer follows alone.
WRITERS_PAGE: t.Final = ROOT / "docs" / "writers.rst"

#: The writer's conf.py: English, their own MathJax, MyST beside the package.
CONF: t.Final = """\
project = "Our games"
extensions = ["aces.sphinxext", "myst_parser"]
mathjax_path = "ours/tex-chtml.js"
"""

INDEX: t.Final = """\
Our games
=========

A formula of our own: :math:`p = 1/6`.

.. toctree::

   guide/evening
   guide/markdown
   readme
"""

#: One game of a session, told in each language the package speaks.
EVENING: t.Final = """\
An evening
==========

In Bokmål:

.. aces-walkthrough:: evening.jsonl
   :lang: nb
   :game: 2

In Nynorsk:

.. aces-walkthrough:: evening.jsonl
   :lang: nn
   :game: 2
   :show: narration, rules

In English, with the chances after each roll:

.. aces-walkthrough:: evening.jsonl
   :game: 2
   :show: narration, odds

.. aces-replay-page:: /guide/evening.jsonl
   :game: 2
   :lang: nb

Or play one yourself: :aces-page:`simulation-3`.

.. aces-simulation-page:: 3
"""

MARKDOWN: t.Final = """\
# In Markdown

A game told in Bokmål, with its page:

```{aces-walkthrough} evening.jsonl
:lang: nb
:game: 1
:show: narration, standings, rules, page
```
"""

#: What the package speaks in each language, as a walkthrough tells game 2 of the session.
OPENINGS: t.Final = {
    "nb": "Ess i potten, parti 2: Kari, Ola, Per og Siri har to sjetonger hver.",
    "nn": "Ess i potten, parti 2: Kari, Ola, Per og Siri har to sjetongar kvar.",
    "en": "Aces in the Pot, game 2: Kari, Ola, Per, and Siri have 2 chips each.",
}


def readme_rst() -> str:
    """The README's example for writers, as it stands there."""
    text = README.read_text(encoding="utf-8")
    found = re.search(r"```rst\n(.*?)```", text, re.DOTALL)
    assert found is not None
    return found.group(1)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory, writer: Venv) -> Path:
    """The writer's sources, their logs beside the pages that name them."""
    source = tmp_path_factory.mktemp("writers") / "docs"
    (source / "guide").mkdir(parents=True)
    (source / "games").mkdir()
    (source / "conf.py").write_text(CONF, encoding="utf-8")
    (source / "index.rst").write_text(INDEX, encoding="utf-8")
    (source / "guide" / "evening.rst").write_text(EVENING, encoding="utf-8")
    (source / "guide" / "markdown.md").write_text(MARKDOWN, encoding="utf-8")
    (source / "readme.rst").write_text("From the README\n===============\n\n" + readme_rst(),
                                       encoding="utf-8")
    # The writer's log: an example that came with the package, found as a user finds it.
    found = writer.run("aces", "examples", "session", cwd=source)
    assert found.returncode == 0, found.stderr
    shutil.copyfile(found.stdout.strip(), source / "guide" / "evening.jsonl")
    shutil.copyfile(found.stdout.strip(), source / "games" / "evening.jsonl")
    return source


BUILDERS: t.Final = ("html", "dirhtml", "latex", "text")


@pytest.fixture(scope="module")
def built(project: Path, writer: Venv) -> dict[str, Path]:
    """Each builder's output, every build with ``-W -j 2``."""
    out: dict[str, Path] = {}
    for builder in BUILDERS:
        target = project.parent / "out" / builder
        # -N: no colour, which Sphinx turns on wherever FORCE_COLOR is set (as in CI).
        done = writer.run("sphinx-build", "-N", "-W", "--keep-going", "-j", "2", "-q",
                          "-b", builder, project, target, cwd=project.parent)
        assert done.returncode == 0, f"{builder}:\n{done.stdout}\n{done.stderr}"
        assert done.stderr.strip() == "", done.stderr
        out[builder] = target
    return out


def test_the_writers_environment_has_nothing_of_the_projects(writer: Venv, tmp_path: Path,
                                                              ) -> None:
    for module in ("matplotlib", "sphinx_click", "mathjax", "furo"):
        done = writer.run(writer.python, "-c", f"import {module}", cwd=tmp_path)
        assert done.returncode != 0, module
    done = writer.run(writer.python, "-c", "import aces; print(aces.__file__)", cwd=tmp_path)
    assert not done.stdout.strip().startswith(str(ROOT))


@pytest.mark.parametrize("builder", ["html", "dirhtml"])
def test_every_language_tells_its_walkthrough_on_an_english_site(built: dict[str, Path],
                                                                 builder: str) -> None:
    root = built[builder]
    page = root / ("guide/evening.html" if builder == "html" else "guide/evening/index.html")
    text = page.read_text(encoding="utf-8")
    assert '<html lang="en"' in text
    for opening in OPENINGS.values():
        assert opening in text, opening
    # Each part told in another language than the page's says so, for a screen reader.
    assert 'class="aces-walkthrough docutils container" lang="nb"' in text
    assert 'class="aces-walkthrough docutils container" lang="nn"' in text
    # Game 2 alone: the first game is left out.
    assert "parti 1:" not in text
    assert "aces-standings" in text
    # The English one has the chances after the rolls.
    assert "The chances to win the pot: Kari " in text


def test_a_walkthrough_in_myst_markdown(built: dict[str, Path]) -> None:
    text = (built["html"] / "guide" / "markdown.html").read_text(encoding="utf-8")
    assert "Ess i potten, parti 1: Kari, Ola, Per og Siri har to sjetonger hver." in text
    assert re.search(r'class="[^"]*\baces-rule\b', text)
    assert '<iframe src="../_aces/replay-evening-1-nb.html"' in text


def test_the_readmes_example_builds(built: dict[str, Path]) -> None:
    text = (built["html"] / "readme.html").read_text(encoding="utf-8")
    assert "Ess i potten, parti 1:" in text
    assert '<iframe src="_aces/replay-evening-nb.html"' in text


def test_the_frames_point_to_the_pages_wherever_the_builder_puts_a_page(
    built: dict[str, Path],
) -> None:
    for builder, page, up in (("html", "guide/evening.html", "../"),
                              ("dirhtml", "guide/evening/index.html", "../../")):
        root = built[builder]
        text = (root / page).read_text(encoding="utf-8")
        frames = re.findall(r'<iframe src="([^"]+)"', text)
        assert frames == [f"{up}_aces/replay-evening-2-nb.html",
                          f"{up}_aces/simulation-3-en.html"], (builder, frames)
        links = re.findall(r'<a class="aces-page-link reference external" href="([^"]+)"', text)
        assert links == [f"{up}_aces/simulation-3-en.html"] or links == [], links
        for frame in frames:
            assert (root / page).parent.joinpath(frame).resolve().is_file(), (builder, frame)


def test_the_writers_mathjax_is_kept_and_none_is_added(built: dict[str, Path]) -> None:
    root = built["html"]
    index = (root / "index.html").read_text(encoding="utf-8")
    # Sphinx serves a relative mathjax_path from _static, as the writer asked.
    assert re.search(r'<script[^>]*src="_static/ours/tex-chtml\.js"', index)
    assert not (root / "_static" / "mathjax").exists()
    # A page without a formula loads no MathJax.
    assert "tex-chtml" not in (root / "guide" / "evening.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("builder", ["latex", "text"])
def test_a_builder_without_web_pages_gets_the_narration_as_text(built: dict[str, Path],
                                                                builder: str) -> None:
    root = built[builder]
    assert not (root / "_aces").exists()
    text = "\n".join(path.read_text(encoding="utf-8") for path in
                     sorted(root.rglob("*.tex" if builder == "latex" else "*.txt")))
    assert "iframe" not in text
    assert "Ess i potten, parti 2" in text
    assert "Kari kaster" in text
    # The simulation page stands as its exact chances.
    assert "%" in text


def test_a_missing_log_is_one_warning_naming_the_document_and_line(writer: Venv,
                                                                   tmp_path: Path) -> None:
    source = tmp_path / "docs"
    source.mkdir()
    (source / "conf.py").write_text('extensions = ["aces.sphinxext"]\n', encoding="utf-8")
    (source / "index.rst").write_text("Games\n=====\n\nSome text.\n\n"
                                      ".. aces-walkthrough:: games/nowhere.jsonl\n",
                                      encoding="utf-8")
    done = writer.run("sphinx-build", "-N", "-j", "2", "-q", "-b", "html", source,
                      tmp_path / "out", cwd=tmp_path)
    assert done.returncode != 0
    said = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(said) == 1, said
    [line] = said
    assert f"{source / 'index.rst'}:6" in line
    assert "nowhere.jsonl" in line
    assert str(source / "games" / "nowhere.jsonl") in line
    assert not (tmp_path / "out" / "_aces").exists()


def writers_page_blocks() -> list[tuple[str, str]]:
    """The code blocks of the page "For writers", in order: each one's language
    and its text, as a writer copies it."""
    text = WRITERS_PAGE.read_text(encoding="utf-8")
    return [(lang, textwrap.dedent(body).strip() + "\n") for lang, body in re.findall(
        r"^\.\. code-block:: (\w+)\n\n((?:(?:   .*)?\n)+)", text, re.MULTILINE)]


@pytest.mark.parametrize("markup", ["rst", "markdown"])
def test_a_writer_gets_a_norwegian_walkthrough_on_an_english_site_by_the_page_alone(
    markup: str, writer: Venv, tmp_path: Path,
) -> None:
    """What the page "For writers" says, done as it says it: install, the
    extensions line, its example in reStructuredText or in MyST Markdown with
    the log beside the page, and a Norwegian walkthrough on the English page."""
    blocks = writers_page_blocks()
    [install, extensions, rst, markdown, norwegian] = blocks
    # The writer's environment is that install, with the wheel standing for the release.
    assert install == ("shell", f"python -m pip install {DISTRIBUTION}\n")
    assert extensions[0] == "python"
    source = tmp_path / "docs"
    (source / "games").mkdir(parents=True)
    conf = extensions[1]
    if markup == "markdown":
        # "For pages in Markdown, add MyST as well": "myst_parser" in extensions.
        conf += 'extensions.append("myst_parser")\n'
    (source / "conf.py").write_text(f'project = "Our club"\n{conf}', encoding="utf-8")
    (source / "index.rst").write_text("Our club\n========\n\n.. toctree::\n\n   games/evening\n",
                                      encoding="utf-8")
    example = rst if markup == "rst" else markdown
    assert example[0] == markup
    page = example[1]
    # The same option on its own line below the directive, in Markdown.
    told = (norwegian[1] if markup == "rst" else
            "```{aces-walkthrough} evening.jsonl\n:lang: nb\n:show: narration, rules\n```\n")
    (source / "games" / f"evening.{'rst' if markup == 'rst' else 'md'}").write_text(
        f"{page}\n{told}", encoding="utf-8")
    found = writer.run("aces", "examples", "session", cwd=source)
    assert found.returncode == 0, found.stderr
    shutil.copyfile(found.stdout.strip(), source / "games" / "evening.jsonl")
    done = writer.run("sphinx-build", "-N", "-W", "-j", "2", "-q", "-b", "html", source,
                      tmp_path / "out", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stderr.strip() == "", done.stderr
    out = tmp_path / "out"
    text = (out / "games" / "evening.html").read_text(encoding="utf-8")
    assert '<html lang="en"' in text
    assert OPENINGS["en"] in text
    assert "Ess i potten, parti 1: Kari, Ola, Per og Siri har to sjetonger hver." in text
    assert 'class="aces-walkthrough docutils container" lang="nb"' in text
    assert re.findall(r'<iframe src="([^"]+)"', text) == ["../_aces/replay-evening-2-en.html"]
    assert (out / "_aces" / "replay-evening-2-en.html").is_file()


def test_the_embedded_page_opens_in_chromium_under_dirhtml(built: dict[str, Path],
                                                           browser: Browser) -> None:
    root = built["dirhtml"].resolve()
    context = browser.new_context(offline=True)
    refused: list[str] = []
    inside = root.as_uri() + "/"

    def route(request: t.Any) -> None:
        if request.request.url.startswith(inside):
            request.continue_()
        else:
            refused.append(request.request.url)
            request.abort()

    context.route("**/*", route)
    try:
        page = context.new_page()
        page.goto((root / "guide" / "evening" / "index.html").as_uri())
        frame = ready_frame(page.query_selector_all("figure.aces-page iframe")[0])
        assert frame.evaluate("document.documentElement.lang") == "nb"
        before = frame.inner_text("#position")
        frame.click("#next")
        assert frame.inner_text("#position") != before
        assert frame.inner_text("#narration").strip()
        assert refused == []
    finally:
        context.close()
