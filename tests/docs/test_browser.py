"""The site between its languages, in a real browser: the switcher and Norwegian search.

The built site is served over http://127.0.0.1 by a local ``http.server``
(search loads its index with JavaScript) and read by Debian's Chromium,
driven by Playwright; no browser is ever downloaded. Where there is no
Chromium the tests skip and say why; where ``ACES_BROWSER_REQUIRED`` is set
(``.ci/run`` sets it after installing Chromium) they fail instead.
"""

from __future__ import annotations

import typing as t

import pytest

if t.TYPE_CHECKING:
    from playwright.sync_api import Page

# The browser, the local server and a fresh page: fixtures of tests/docs/conftest.py.

LANGUAGES: t.Final = ("en", "nb", "nn")
#: Pages of every kind: the front page, a rule page, a lesson, a walkthrough, the search.
PAGES: t.Final = ("index.html", "rules/pot.html", "lessons/nothing.html",
                  "walkthroughs/three-players.html", "translating.html")


@pytest.mark.parametrize("name", PAGES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_switcher_leads_to_the_same_page_in_each_language(page: Page, server: str,
                                                              lang: str, name: str) -> None:
    for other in LANGUAGES:
        page.goto(f"{server}{lang}/{name}")
        assert page.locator("html").get_attribute("lang") == lang
        switcher = page.locator("nav.aces-languages")
        assert switcher.is_visible()
        if other == lang:
            assert switcher.locator("[aria-current=page]").get_attribute("lang") == lang
            continue
        switcher.locator(f"a[hreflang={other}]").click()
        page.wait_for_load_state()
        assert page.url == f"{server}{other}/{name}"
        assert page.locator("html").get_attribute("lang") == other
        heading = page.locator("article h1").first
        assert heading.is_visible()


def test_the_switcher_names_each_language_in_itself(page: Page, server: str) -> None:
    page.goto(f"{server}nn/rules/pot.html")
    names = page.locator("nav.aces-languages li").all_inner_texts()
    assert [name.strip() for name in names] == ["English", "Norsk bokmål", "Norsk nynorsk"]
    assert page.locator("nav.aces-languages").get_attribute("aria-label") == "Språk"


def search(page: Page, url: str) -> list[str]:
    """Run the site's own search (JavaScript) at ``url``; the pages it found."""
    page.goto(url)
    page.locator("#search-results .search-summary").wait_for(timeout=30_000)
    page.wait_for_function(
        "() => !document.querySelector('#search-results h2')?.textContent.endsWith('…')"
        " && document.querySelector('#search-results .search-summary').textContent !== ''")
    links = page.locator("#search-results ul.search li a").evaluate_all(
        "links => links.map(link => link.getAttribute('href'))")
    return [link.split("?", 1)[0].split("#", 1)[0] for link in links]


@pytest.mark.parametrize(("lang", "query", "word"), [
    ("nb", "sluttspill", "sluttspillet"),
    ("nn", "sluttspel", "sluttspelet"),
])
def test_norwegian_search_finds_the_inflected_word(page: Page, server: str, lang: str,
                                                   query: str, word: str) -> None:
    found = search(page, f"{server}{lang}/search.html?q={query}")
    assert "rules/pot.html" in found, found
    summary = page.locator("#search-results .search-summary").inner_text()
    assert summary.startswith("Søket er ferdig"), summary
    page.goto(f"{server}{lang}/rules/pot.html")
    assert word in page.locator("article").inner_text().lower()
