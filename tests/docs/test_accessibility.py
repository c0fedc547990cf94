"""Every page of the site meets WCAG 2.1 A and AA as axe-core checks it, in every
language, 360 and 1280 px wide, in furo's light and dark themes
(``tests/browser.py``: :func:`assert_accessible`); it reflows at 320 px; and its
text, spaced out as WCAG's 1.4.12 asks, is neither cut off nor drawn over
other text, at both widths.

Every HTML file the build writes is checked: the lessons, rules, walkthroughs
and references, the search and index pages, the pupil sheets, and the replay
and simulation pages the site embeds (``_aces/``), each as a page of its own
(so a page's frames are not checked again inside it). The site is served over
http://127.0.0.1 (tests/docs/conftest.py) and read by one browser page per
language, which goes from page to page; the languages are checked side by
side, each in its own context and so its own renderer process, and each page
is loaded once and checked in every setting by resizing its window and
switching the theme it reports.

Every setting is checked in every language: the light theme with every rule,
the dark with the rules about colour (a theme changes colours, nothing else),
each at 360 px (a phone, where long words, menus and wide tables break) and at
1280 px (a desktop, where furo's sidebars show). A language changes the words,
never the theme's colours, but a longer word can carry a line over another box.
axe-core's contrast rule, most of its time on a page, checks one element of each
kind (``contrast="per kind"`` in tests/browser.py): elements that look the same
(colour, font, shadow) on the same grounds (each ancestor's background, opacity,
blending) get the same answer, and one placed out of the flow or in a box its
text overflows is checked by itself. So the whole matrix takes no longer than
the narrower one it replaced (tests/benchmarks/docs_axe.py measures both).
"""

from __future__ import annotations

import typing as t

import pytest

from browser import assert_accessible, space_out, spacing_faults
from docsite import load_tool

if t.TYPE_CHECKING:
    from pathlib import Path

    from playwright.sync_api import Browser, Page

LANGUAGES: t.Final = tuple(load_tool().languages())
#: The rules of WCAG 2.1 A and AA whose result a theme's colours can change:
#: 1.4.3 Contrast (minimum), and 1.4.1 Use of colour for links within text.
COLOUR_RULES: t.Final = ("color-contrast", "link-in-text-block")
#: 1.3.4 Orientation: read from the style sheets, whatever the window's size.
ORIENTATION: t.Final = ("css-orientation-lock",)
#: What the build writes besides pages: the theme's and Sphinx's own files.
NOT_PAGES: t.Final = ("_static", "_sources", "_images", ".doctrees")
TYPESET: t.Final = ("() => [...document.querySelectorAll('span.math, div.math')]"
                    ".every(el => el.querySelector('mjx-container'))")
THEMES: t.Final[tuple[t.Literal["light", "dark"], ...]] = ("light", "dark")
#: The widths every page is checked at: a phone's and a desktop's.
WIDTHS: t.Final = (360, 1280)


def pages(root: Path) -> list[str]:
    """Every HTML page under ``root``, as a path relative to it."""
    return sorted(path.relative_to(root).as_posix() for path in root.rglob("*.html")
                  if not set(path.relative_to(root).parts) & set(NOT_PAGES))


def _set(pages: dict[str, Page], width: int, theme: t.Literal["light", "dark"]) -> None:
    for page in pages.values():
        page.set_viewport_size({"width": width, "height": 900})
        page.emulate_media(color_scheme=theme)


def check(pages: dict[str, Page]) -> None:
    """The same page in each language, as it stands, in every setting (see the
    module's text): it reflows at 320 px; every rule at 360 and 1280 px in the light
    theme and those about colour in the dark, contrast on one element of each kind;
    then the text spaced out, at both widths."""
    for page in pages.values():
        page.set_viewport_size({"width": 320, "height": 640})
        sideways = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert sideways <= 0, f"{page.url} scrolls sideways by {sideways} px at 320 px"
    for theme in reversed(THEMES):  # dark first: the spacing below is checked in light
        for width in WIDTHS:
            _set(pages, width, theme)
            assert_accessible([(page, f"{lang}, {width} px, {theme}")
                               for lang, page in pages.items()], frames=False,
                              rules=None if theme == "light" else COLOUR_RULES,
                              # css-orientation-lock reads the style sheets, the same at
                              # every width: it runs at the last, 1280 px.
                              disabled=() if width == WIDTHS[-1] else ORIENTATION,
                              contrast="per kind")
    space_out(list(pages.values()))
    for width in reversed(WIDTHS):
        for page in pages.values():
            page.set_viewport_size({"width": width, "height": 900})
        for (lang, page), faults in zip(pages.items(), spacing_faults(list(pages.values())),
                                        strict=True):
            assert faults == [], (f"{lang}, {width} px, text spaced out", page.url)


def open_all(opened: dict[str, Page], server: str, names: dict[str, list[str]],
             k: int) -> None:
    """Open the ``k``-th page in every language, its formulas typeset."""
    for lang, page in opened.items():
        page.goto(f"{server}{lang}/{names[lang][k]}")
        page.wait_for_load_state("load")
        if page.locator("span.math, div.math").count():
            page.wait_for_function(TYPESET, timeout=30_000)


def site_pages(site: dict[str, t.Any]) -> dict[str, list[str]]:
    """Each language's pages, in the same order: the same ones (an embedded page's
    name ends in its language)."""
    names = {lang: pages(site[f"html-{lang}"].out) for lang in LANGUAGES}
    assert len(names["en"]) > 30, names["en"]  # the whole site, not a part of it
    for lang in LANGUAGES:
        assert [name.replace(f"-{lang}.html", ".html") for name in names[lang]] == [
            name.replace("-en.html", ".html") for name in names["en"]], lang
    return names


#: The site's pages are checked in this many parts, every SHARES-th page in each,
#: so that the parts, each minutes long, run side by side on the suite's workers.
SHARES: t.Final = 4


@pytest.mark.parametrize("share", range(SHARES))
def test_every_page_meets_wcag_2_1_aa(browser: Browser, server: str,
                                      site: dict[str, t.Any], share: int) -> None:
    names = site_pages(site)
    # A context for each language: each its own renderer process, checked in parallel.
    contexts = {lang: browser.new_context() for lang in LANGUAGES}
    try:
        opened = {lang: context.new_page() for lang, context in contexts.items()}
        for k in range(share, len(names["en"]), SHARES):
            open_all(opened, server, names, k)
            check(opened)
    finally:
        for context in contexts.values():
            context.close()


#: Every character a key types alone or with Shift, on an English and a Norwegian
#: keyboard: what a shortcut of a single character key (WCAG 2.1.4) would answer.
CHARACTERS: t.Final = "".join(chr(c) for c in range(32, 127)) + "æøåÆØÅ§½¤"


def test_no_character_key_is_a_shortcut(page: Page, server: str) -> None:
    """2.1.4: on the site, no key that types a character does anything by itself
    (Sphinx's "/" to the search box is turned off): the address, the focus and the
    search box stay as they were, whatever is typed on a page."""
    for lang in LANGUAGES:
        page.goto(f"{server}{lang}/lessons/three-rolls.html")
        page.evaluate("document.activeElement.blur()")
        before = page.evaluate("[location.href, document.activeElement.tagName]")
        page.keyboard.type(CHARACTERS)
        assert page.evaluate("[location.href, document.activeElement.tagName]") == before
        assert page.input_value("input[name=q] >> nth=0") == ""
    # The shortcut that was there is what the check would catch: with it on, "/" moves.
    page.evaluate("DOCUMENTATION_OPTIONS.ENABLE_SEARCH_SHORTCUTS = true;"
                  " Documentation.initOnKeyListeners()")
    page.keyboard.type("/")
    assert page.evaluate("document.activeElement.tagName") == "INPUT"
