"""The replay and simulation pages meet WCAG 2.1 A and AA as axe-core checks it, in
a real Chromium: every page in every language, on a phone (360 px) and a
projector (1280 px), in a light and a dark system theme, with its script and
without (``tests/browser.py``: :func:`assert_accessible`).

One page is written per kind and language, opened once, and checked in each
size and theme by resizing the window and switching the theme it reports, so
the whole matrix costs one load per page and one check per setting.
"""

from __future__ import annotations

import typing as t
from pathlib import Path

import pytest

from aces.i18n import LANGUAGES

from browser import assert_accessible, visit
from clitest import run

if t.TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

REPLAYS: t.Final = Path(__file__).resolve().parents[2] / "replays"
WIDTHS: t.Final = (360, 1280)
SCHEMES: t.Final = ("light", "dark")

#: Each page the package writes, the command that writes it, and a moment to open
#: it at (dice on the table, a roll marked on the chart and in the list).
PAGES: t.Final = {
    "replay": (("replay", str(REPLAYS / "four-players.jsonl")), "#roll=12"),
    "replay-five-dice": (("replay", str(REPLAYS / "five-dice-four-players.jsonl")), "#roll=7"),
    "session": (("replay", str(REPLAYS / "session.jsonl")), "#game=2&roll=3"),
    "simulation": (("simulate", "--players", "4"), ""),
    "simulation-five-dice": (("simulate", "--game", "five-dice", "--players", "3"), ""),
}


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Path]:
    """Every page of :data:`PAGES` in every language, written once for the module."""
    folder = tmp_path_factory.mktemp("accessible")
    made = {}
    for kind, (command, _) in PAGES.items():
        for lang in LANGUAGES:
            page = folder / f"{kind}-{lang}.html"
            result = run(*command, "--html", str(page), "--lang", lang)
            assert result.exit_code == 0, result.output
            made[kind, lang] = page
    return made


#: The rules of WCAG 2.1 A and AA whose result a theme's colours can change:
#: 1.4.3 Contrast (minimum), and 1.4.1 Use of colour for links within text.
COLOUR_RULES: t.Final = ("color-contrast", "link-in-text-block")


def every_setting(page: Page, label: str) -> None:
    """Check ``page`` at each width and in each theme, as it stands: every rule
    in the light theme, and in the dark one the rules its colours can change."""
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 800})
        for scheme in SCHEMES:
            page.emulate_media(color_scheme=scheme)
            assert_accessible(page, label=f"{label}, {width} px, {scheme}",
                              rules=None if scheme == "light" else COLOUR_RULES)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("kind", sorted(PAGES))
def test_every_page_meets_wcag_2_1_aa(browser: Browser, written: dict[tuple[str, str], Path],
                                      kind: str, lang: str) -> None:
    path = written[kind, lang]
    fragment = PAGES[kind][1]
    opened = visit(browser, path, f"{fragment}&lang={lang}" if fragment else "")
    page = opened.page
    every_setting(page, f"{kind} ({lang})")
    if kind.startswith("simulation"):
        # Running: the bars and the table of shares, as they fill.
        page.click("#run")
        page.wait_for_selector("#rows tr")
        every_setting(page, f"{kind} ({lang}), running")
    assert opened.errors == []
    assert opened.requests == []
    # Without its script: the whole game as a list, or the exact values.
    blocked = visit(browser, path, script="blocked")
    every_setting(blocked.page, f"{kind} ({lang}), without JavaScript")
    blocked.page.context.close()
    page.context.close()
