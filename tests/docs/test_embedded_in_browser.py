"""The pages the documentation embeds, opened as a reader opens them: the
built site from disk in Debian's Chromium, every request outside the site
refused and counted, and no error in the console of the page or its frames.

Each walkthrough shows the replay page of its log and the two lessons the
simulation; here each frame must load, run its script to the end, speak the
site's language, and answer a key (a replay) or a Run (the simulation).
"""

from __future__ import annotations

import re
import typing as t
from pathlib import Path

import pytest

from aces import i18n

from browser import ready_frame
from docsite import load_tool

if t.TYPE_CHECKING:
    from playwright.sync_api import Browser, ConsoleMessage, Page, Route

LANGUAGES: t.Final = tuple(load_tool().languages())
DOCS: t.Final = Path(__file__).resolve().parents[2] / "docs"
LESSONS: t.Final = ("lessons/large-numbers.html", "lessons/best-seat.html")


def _pages() -> list[str]:
    """Every page of the site that embeds a page: the walkthroughs with a
    replay page, and the two lessons with the simulation."""
    walkthroughs = sorted(
        f"walkthroughs/{source.stem}.html" for source in (DOCS / "walkthroughs").glob("*.rst")
        if "aces-replay-page::" in source.read_text(encoding="utf-8"))
    return [*walkthroughs, *LESSONS]


class Opened(t.NamedTuple):
    page: Page
    refused: list[str]
    errors: list[str]


def _open(browser: Browser, root: Path, name: str) -> Opened:
    """``name`` of the built site at ``root``, from ``file://``, offline: the
    site's own files load, anything else is refused and counted."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, offline=True)
    page = context.new_page()
    inside = root.resolve().as_uri() + "/"
    refused: list[str] = []
    errors: list[str] = []

    def route(request: Route) -> None:
        if request.request.url.startswith(inside):
            request.continue_()
        else:
            refused.append(request.request.url)
            request.abort()

    def said(message: ConsoleMessage) -> None:
        if message.type in ("error", "warning"):
            errors.append(f"{message.text} ({message.location.get('url', '')})")

    context.route("**/*", route)
    page.on("console", said)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto((root / name).resolve().as_uri())
    page.wait_for_load_state("load")
    return Opened(page, refused, errors)


@pytest.mark.parametrize("name", _pages())
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_embedded_page_runs_offline_without_errors(browser: Browser,
                                                         site: dict[str, t.Any],
                                                         lang: str, name: str) -> None:
    root = site[f"html-{lang}"].out
    spoken = lang if lang in i18n.LANGUAGES else "en"
    opened = _open(browser, root, name)
    page = opened.page
    try:
        frames = page.query_selector_all("figure.aces-page iframe")
        assert frames, f"{name} embeds no page"
        for element in frames:
            frame = ready_frame(element)
            assert frame.evaluate("document.documentElement.lang") == spoken
            if name in LESSONS:
                frame.click("#run")
                frame.wait_for_selector("body[data-done='100000']", timeout=120_000)
                assert len(frame.query_selector_all("#rows tr")) == 6
            else:
                before = frame.inner_text("#position")
                frame.click("#next")
                assert frame.inner_text("#position") != before
                assert re.search(r"roll=1&lang=" + spoken + "$",
                                 t.cast("str", frame.evaluate("location.hash")))
                assert frame.inner_text("#narration").strip()
        assert opened.refused == []
        assert opened.errors == []
    finally:
        page.context.close()
