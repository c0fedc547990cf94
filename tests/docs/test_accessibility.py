"""Every page of the site meets WCAG 2.1 A and AA as axe-core checks it: in every
language on a phone (360 px), and in Bokmål on a desktop (1280 px) as well, in
furo's light and dark themes (``tests/browser.py``: :func:`assert_accessible`).

Every HTML file the build writes is checked: the lessons, rules, walkthroughs
and references, the search and index pages, the pupil sheets, and the replay
and simulation pages the site embeds (``_aces/``), each as a page of its own
(so a page's frames are not checked again inside it).
The site is served over http://127.0.0.1 (tests/docs/conftest.py) and read by
one browser page per language, which goes from page to page; the three are
checked side by side, each in its own context and so its own process.

Cost is kept to what each setting can change, so that the check fits the
suite's time (axe-core takes seconds on a long page, and most of it on
contrast). Every page in every language reflows at 320 px and meets every rule
at 360 px in the light theme: a language changes the words (their language
tags, their length, a label left untranslated), and a phone is where long words
and wide tables break. The desktop width and the dark theme change the layout
and the colours, never the words, so they are checked in one language, Bokmål,
the home ground's: every rule at 1280 px in light, and the rules about colour
in dark at 1280 px, where the sidebars show what the phone's menu hides. A page
is loaded once and checked in each setting by resizing the window and
switching the theme it reports.
"""

from __future__ import annotations

import typing as t

from browser import assert_accessible
from docsite import load_tool

if t.TYPE_CHECKING:
    from pathlib import Path

    from playwright.sync_api import Browser, Page

LANGUAGES: t.Final = tuple(load_tool().languages())
#: The rules of WCAG 2.1 A and AA whose result a theme's colours can change:
#: 1.4.3 Contrast (minimum), and 1.4.1 Use of colour for links within text.
COLOUR_RULES: t.Final = ("color-contrast", "link-in-text-block")
#: What the build writes besides pages: the theme's and Sphinx's own files.
NOT_PAGES: t.Final = ("_static", "_sources", "_images", ".doctrees")
TYPESET: t.Final = ("() => [...document.querySelectorAll('span.math, div.math')]"
                    ".every(el => el.querySelector('mjx-container'))")


def pages(root: Path) -> list[str]:
    """Every HTML page under ``root``, as a path relative to it."""
    return sorted(path.relative_to(root).as_posix() for path in root.rglob("*.html")
                  if not set(path.relative_to(root).parts) & set(NOT_PAGES))


#: The settings a page is checked in after the phone in light, in Bokmål alone:
#: (width, theme, the rules, None for every rule).
DESKTOP: t.Final[tuple[tuple[int, t.Literal["light", "dark"], tuple[str, ...] | None], ...]] = (
    (1280, "light", None), (1280, "dark", COLOUR_RULES))
#: The language checked in every setting, the others on a phone in light.
EVERY_SETTING: t.Final = "nb"


def check(pages: dict[str, Page]) -> None:
    """The same page in each language as it stands: at 320 px (a phone, or a
    1280 px window at 400 %), that it reflows; at 360 px in light, every rule,
    the languages side by side; then the desktop's settings in Bokmål."""
    for page in pages.values():
        page.set_viewport_size({"width": 320, "height": 640})
        sideways = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert sideways <= 0, f"{page.url} scrolls sideways by {sideways} px at 320 px"
    for page in pages.values():
        page.set_viewport_size({"width": 360, "height": 900})
        page.emulate_media(color_scheme="light")
    assert_accessible([(page, f"{lang}, 360 px, light") for lang, page in pages.items()],
                      frames=False)
    page = pages[EVERY_SETTING]
    for width, scheme, rules in DESKTOP:
        page.set_viewport_size({"width": width, "height": 900})
        page.emulate_media(color_scheme=scheme)
        assert_accessible([(page, f"{EVERY_SETTING}, {width} px, {scheme}")], frames=False,
                          rules=rules)


def test_every_page_meets_wcag_2_1_aa(browser: Browser, server: str,
                                      site: dict[str, t.Any]) -> None:
    # Each language's pages: the same ones (an embedded page's name ends in its language).
    names = {lang: pages(site[f"html-{lang}"].out) for lang in LANGUAGES}
    assert len(names["en"]) > 30, names["en"]  # the whole site, not a part of it
    for lang in LANGUAGES:
        assert [name.replace(f"-{lang}.html", ".html") for name in names[lang]] == [
            name.replace("-en.html", ".html") for name in names["en"]], lang
    # A context for each language: each its own renderer process, checked in parallel.
    contexts = {lang: browser.new_context() for lang in LANGUAGES}
    try:
        opened = {lang: context.new_page() for lang, context in contexts.items()}
        for k in range(len(names["en"])):
            for lang, page in opened.items():
                page.goto(f"{server}{lang}/{names[lang][k]}")
                page.wait_for_load_state("load")
                if page.locator("span.math, div.math").count():
                    page.wait_for_function(TYPESET, timeout=30_000)
            check(opened)
    finally:
        for context in contexts.values():
            context.close()
