"""The notebook views meet WCAG 2.1 A and AA as axe-core checks them: each view
(a game with its replay page in a frame, a session, odds, a simulation, a class's
statistics) rendered in a page as a notebook shows its output, in every
language, at 360 and 1280 px, in a light and a dark theme."""

from __future__ import annotations

import html
import typing as t
from pathlib import Path

import pytest

import aces
from aces.i18n import LANGUAGES

from browser import assert_accessible, visit

if t.TYPE_CHECKING:
    from playwright.sync_api import Browser

REPLAYS: t.Final = Path(__file__).resolve().parent.parent / "replays"
#: A notebook's page around its outputs: the language of the notebook, a title, a main part.
NOTEBOOK: t.Final = """<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title></head>
<body data-ready><main><h1>{title}</h1>
{outputs}
</main></body></html>
"""


def views(lang: str) -> dict[str, str]:
    """Every kind of view, in ``lang``."""
    game = aces.play(["Kari", "Ola", "Per"], seed=4, lang=lang)
    return {
        "game": game._repr_html_(),
        "session": aces.load(REPLAYS / "session.jsonl", lang=lang)._repr_html_(),
        "odds": aces.odds(4, lang=lang)._repr_html_(),
        "simulation": aces.simulate(3, games=2_000, seed=1, lang=lang)._repr_html_(),
        "stats": aces.stats(sorted(REPLAYS.glob("class-group-*.jsonl")),
                            lang=lang)._repr_html_(),
    }


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_notebook_view_meets_wcag_2_1_aa(browser: Browser, tmp_path: Path,
                                               lang: str) -> None:
    shown = views(lang)
    page_file = tmp_path / f"notebook-{lang}.html"
    page_file.write_text(NOTEBOOK.format(
        lang=lang, title=html.escape(f"aces ({lang})"),
        outputs="\n".join(f'<section aria-label="{name}">{view}</section>'
                          for name, view in shown.items())), encoding="utf-8")
    opened = visit(browser, page_file)
    page = opened.page
    frames = page.frames[1:]
    assert frames, "the game's replay page is shown in a frame"
    for frame in frames:
        frame.wait_for_selector("body[data-ready]")
    for width in (360, 1280):
        page.set_viewport_size({"width": width, "height": 900})
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            assert_accessible(page, label=f"notebook views ({lang}), {width} px, {scheme}")
    assert opened.requests == []
    assert opened.errors == []
