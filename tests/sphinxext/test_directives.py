"""The writer's directives in small projects: what each option refuses, in the
build's language at the document's line, and what each builder makes of an
embedded page. (tests/release/test_writer.py builds a whole project with the
wheel installed as a writer installs it.)"""

from __future__ import annotations

import shutil
import subprocess
import sys
import typing as t

from docsite import ROOT

if t.TYPE_CHECKING:
    from pathlib import Path


class Built(t.NamedTuple):
    returncode: int
    warnings: list[str]
    out: Path


def build(tmp_path: Path, body: str, builder: str = "html", conf: str = "") -> Built:
    """A one-page project with the session example beside its page, built."""
    source = tmp_path / "source"
    source.mkdir()
    (source / "conf.py").write_text(f'extensions = ["aces.sphinxext"]\n{conf}', encoding="utf-8")
    (source / "index.rst").write_text(f"Games\n=====\n\nSome text.\n\n{body}\n",
                                      encoding="utf-8")
    shutil.copyfile(ROOT / "replays" / "session.jsonl", source / "session.jsonl")
    # -N: no colour, which Sphinx otherwise turns on wherever FORCE_COLOR is set (as in CI).
    done = subprocess.run([sys.executable, "-m", "sphinx", "-N", "-q", "-b", builder, str(source),
                           str(tmp_path / "out")], capture_output=True, text=True, check=False)
    # Sphinx ends a warning with its kind, "[docutils]" for a directive's error.
    return Built(done.returncode, [line.removesuffix(" [docutils]")
                                   for line in done.stderr.splitlines() if line.strip()],
                 tmp_path / "out")


#: Directives that cannot be shown, each with what the build says of it.
REFUSED: t.Final = [
    (".. aces-walkthrough:: session.jsonl\n   :lang: sv",
     "aces-walkthrough: unknown language 'sv'; the languages are: en, nb, nn"),
    (".. aces-walkthrough:: session.jsonl\n   :show: narration, everything",
     "aces-walkthrough: a walkthrough cannot show 'everything'; it shows narration,"
     " standings, rules, turning-points, odds, and page"),
    (".. aces-walkthrough:: session.jsonl\n   :game: 6",
     "aces-walkthrough: there is no game 6 in session.jsonl: it holds 5 games"),
    (".. aces-replay-page:: session.jsonl\n   :game: none",
     "aces-replay-page: :game: must be at least 1, not none"),
    (".. aces-simulation-page:: many", "aces-simulation-page: a simulation page takes a"
     " number of players, not 'many'"),
]


def test_what_a_directive_cannot_show_is_one_warning_at_its_line(tmp_path: Path) -> None:
    built = build(tmp_path, "\n\n".join(body for body, _ in REFUSED))
    assert built.returncode == 1
    index = tmp_path / "source" / "index.rst"
    lines = index.read_text(encoding="utf-8").splitlines()
    places = [number for number, line in enumerate(lines, 1) if line.startswith(".. aces-")]
    assert built.warnings == [f"{index}:{line}: ERROR: {said}"
                              for line, (_, said) in zip(places, REFUSED, strict=True)]


def test_the_warning_speaks_the_builds_language(tmp_path: Path) -> None:
    built = build(tmp_path, ".. aces-walkthrough:: session.jsonl\n   :lang: sv",
                  conf='language = "nn"\n')
    [warning] = built.warnings
    assert warning.endswith("aces-walkthrough: ukjent språk «sv»; språka er: en, nb, nn")


def test_under_singlehtml_the_frame_is_at_the_top(tmp_path: Path) -> None:
    built = build(tmp_path, ".. aces-replay-page:: session.jsonl\n   :game: 3", "singlehtml")
    assert built.returncode == 0, built.warnings
    text = (built.out / "index.html").read_text(encoding="utf-8")
    assert '<iframe src="_aces/replay-session-3-en.html"' in text
    assert (built.out / "_aces" / "replay-session-3-en.html").is_file()


def test_an_epub_tells_the_game_as_text(tmp_path: Path) -> None:
    built = build(tmp_path, ".. aces-replay-page:: session.jsonl\n   :game: 3\n   :lang: nb",
                  "epub")
    assert built.returncode == 0, built.warnings
    text = (built.out / "index.xhtml").read_text(encoding="utf-8")
    assert "iframe" not in text
    assert "Ess i potten, parti 3: Kari, Ola, Per og Siri har to sjetonger hver." in text
    assert not (built.out / "_aces").exists()


def test_nothing_is_written_for_a_site_that_embeds_no_page(tmp_path: Path) -> None:
    built = build(tmp_path, ".. aces-walkthrough:: session.jsonl\n   :game: 1")
    assert built.returncode == 0, built.warnings
    assert not (built.out / "_aces").exists()
    assert not (built.out / "_static" / "mathjax").exists()


def test_the_walkthroughs_text_stays_out_of_the_documentations_catalogs(tmp_path: Path) -> None:
    built = build(tmp_path, ".. aces-walkthrough:: session.jsonl\n   :game: 1\n"
                  "   :show: narration, page", "gettext")
    assert built.returncode == 0, built.warnings
    template = (built.out / "index.pot").read_text(encoding="utf-8")
    assert "Some text." in template
    assert "Kari" not in template
