"""The pages a class opens in a browser, embedded in the documentation: each
walkthrough shows the replay page of its log, and the lessons on the law of
large numbers and the best seat the simulation, in the site's language."""

from __future__ import annotations

import re
import typing as t
from pathlib import Path

import pytest

from aces import i18n

from browser import page_data
from docsite import load_tool

LANGUAGES: t.Final = tuple(load_tool().languages())
DOCS: t.Final = Path(__file__).resolve().parents[2] / "docs"
FRAME: t.Final = re.compile(r'<iframe src="([^"]+)"')


def frames(page: Path) -> list[Path]:
    """The files the frames of a page show, resolved beside it."""
    return [(page.parent / src).resolve() for src in FRAME.findall(page.read_text("utf-8"))]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_walkthrough_embeds_the_replay_of_its_log(site: dict[str, t.Any],
                                                        lang: str) -> None:
    root = site[f"html-{lang}"].out
    spoken = lang if lang in i18n.LANGUAGES else "en"
    for page in sorted((root / "walkthroughs").glob("*.html")):
        source = DOCS / "walkthroughs" / f"{page.stem}.rst"
        logs = re.findall(r"aces-walkthrough:: replays/(\S+)\.jsonl", source.read_text("utf-8"))
        shown = frames(page)
        assert [frame.name for frame in shown] == [f"replay-{log}-{spoken}.html"
                                                  for log in logs], page.name
        for frame in shown:
            assert page_data(frame)["lang"] == spoken
            assert f'<html lang="{spoken}">' in frame.read_text("utf-8")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("lesson", ["large-numbers", "best-seat"])
def test_two_lessons_embed_the_simulation(site: dict[str, t.Any], lang: str,
                                          lesson: str) -> None:
    root = site[f"html-{lang}"].out
    spoken = lang if lang in i18n.LANGUAGES else "en"
    shown = frames(root / "lessons" / f"{lesson}.html")
    assert [frame.name for frame in shown] == [f"simulation-4-{spoken}.html"]
    data = page_data(shown[0])
    assert data["players"] == 4
    assert data["lang"] == spoken
