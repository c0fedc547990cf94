"""The site on a phone and on a desktop, in a real browser: nothing cut off, nothing too
small to read.

Each page is opened at a phone's width and a desktop's in Debian's Chromium
(the browser, server and page fixtures of tests/docs/conftest.py), a
screenshot of the whole page is taken (kept under the test's temporary folder
for a person to look at), and the page is measured: it does not scroll
sideways (a wide table scrolls in its own box instead), no heading runs out
of its box, the article's text is at least 12 px, a plot's lettering at
least 8 px, and every formula was typeset, none in error and none off the screen.
"""

from __future__ import annotations

import typing as t

import pytest

if t.TYPE_CHECKING:
    from pathlib import Path

    from playwright.sync_api import Page

LANGUAGES: t.Final = ("en", "nb", "nn")
SCREENS: t.Final = {"phone": (390, 844), "desktop": (1366, 900)}
#: Pages with the widest tables, the most plots, formulas, and a pupil sheet.
PAGES: t.Final = ("index.html", "lessons/nothing.html", "lessons/best-seat.html",
                  "lessons/five-dice.html", "lessons/game-length.html", "rules/rulings.html",
                  "lessons/nothing-sheet.html", "lessons/round-the-table.html",
                  "lessons/large-numbers.html", "lessons/round-the-table-sheet.html",
                  "lessons/class-experiment-sheet.html")
#: The plots' type size, in points (sphinxext.plots), and its smallest variant.
PLOT_TYPE: t.Final = 13.0 * 0.833

MEASURE: t.Final = """() => {
  const doc = document.documentElement;
  const article = document.querySelector('article') || document.body;
  const small = [];
  for (const el of article.querySelectorAll('p, li, td, th, dt, dd, h1, h2, h3, figcaption')) {
    if (!el.offsetParent || !el.textContent.trim()) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 12) small.push(el.tagName + ': ' + el.textContent.trim().slice(0, 40));
  }
  const overflowing = [...article.querySelectorAll('h1, h2, h3')]
    .filter(h => h.scrollWidth > h.clientWidth + 1).map(h => h.textContent.trim());
  const plots = [...document.querySelectorAll('figure.aces-plot img')].map(img => {
    const svg = atob(img.src.split(',')[1]);
    const width = parseFloat(svg.match(/<svg[^>]*width="([\\d.]+)pt"/)[1]) * 4 / 3;
    return img.getBoundingClientRect().width / width;
  });
  const untypeset = [...document.querySelectorAll('span.math, div.math')]
    .filter(el => !el.querySelector('mjx-container')).length;
  const wrong = [...document.querySelectorAll('mjx-merror')].map(el => el.textContent);
  const formulas = [...document.querySelectorAll('mjx-container, img.aces-math')]
    .filter(el => el.getBoundingClientRect().right > window.innerWidth + 1).length;
  return {sideways: doc.scrollWidth - window.innerWidth, small, overflowing, plots,
          untypeset, wrong, formulas};
}"""


@pytest.mark.parametrize("screen", sorted(SCREENS))
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_reads_on_a_phone_and_a_desktop(page: Page, server: str, lang: str,
                                                   screen: str, tmp_path: Path) -> None:
    width, height = SCREENS[screen]
    page.set_viewport_size({"width": width, "height": height})
    for name in PAGES:
        page.goto(f"{server}{lang}/{name}")
        page.wait_for_load_state("load")
        if page.locator("span.math, div.math").count():
            page.wait_for_function(
                "() => [...document.querySelectorAll('span.math, div.math')]"
                ".every(el => el.querySelector('mjx-container'))", timeout=30_000)
        shot = tmp_path / f"{lang}-{screen}-{name.replace('/', '-')}.png"
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 10_000, name
        found = page.evaluate(MEASURE)
        assert found["sideways"] <= 0, (name, "the page scrolls sideways", found["sideways"])
        assert found["small"] == [], (name, "text under 12 px", found["small"][:3])
        assert found["overflowing"] == [], (name, "a heading runs over", found["overflowing"])
        assert found["untypeset"] == 0, (name, "formulas left as TeX")
        assert found["wrong"] == [], (name, "MathJax could not read a formula", found["wrong"])
        assert found["formulas"] == 0, (name, "a formula runs off the screen")
        for scale in found["plots"]:
            # A point is 4/3 px: the smallest lettering of a plot, as shown.
            assert PLOT_TYPE * 4 / 3 * scale >= 8, (name, "a plot's lettering", scale)
