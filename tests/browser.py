"""A real Chromium for the tests of pages: Debian's, driven by Playwright.

No browser is ever downloaded: Playwright launches the system's Chromium
(``/usr/bin/chromium``, or ``$ACES_CHROMIUM``). Where there is none, the
browser tests skip and say why; where ``ACES_BROWSER_REQUIRED`` is set (as
``.ci/run`` sets it, after installing Chromium), they fail instead, so a CI
run can never pass without having run them.

Every page is opened in a context that refuses any request other than the
page's own file and counts them, and that collects console errors.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import typing as t
from dataclasses import dataclass, field
from pathlib import Path

import pytest

if t.TYPE_CHECKING:
    from collections.abc import Iterator

    from playwright.sync_api import Browser, ConsoleMessage, Dialog, Page, Request, Route

REQUIRED: t.Final = "ACES_BROWSER_REQUIRED"
_DATA: t.Final = re.compile(r'<script type="application/json" id="aces-data">(.*?)</script>',
                            re.S)


def page_data(page: Path) -> dict[str, t.Any]:
    """The JSON a page embeds, read back as a browser's ``JSON.parse`` would."""
    found = _DATA.search(page.read_text(encoding="utf-8"))
    assert found is not None
    data: dict[str, t.Any] = json.loads(found.group(1))
    return data


def chromium_path() -> str | None:
    """The system's Chromium, if there is one."""
    wanted = os.environ.get("ACES_CHROMIUM", "/usr/bin/chromium")
    if Path(wanted).is_file() and os.access(wanted, os.X_OK):
        return wanted
    return shutil.which("chromium")


def unavailable(reason: str) -> t.NoReturn:
    """Skip with the reason, or fail where a browser is required."""
    if os.environ.get(REQUIRED):
        pytest.fail(f"{reason}, but {REQUIRED} is set: the browser tests must run here")
    pytest.skip(reason)


def launch() -> Iterator[Browser]:
    """A headless Chromium for a whole test session."""
    executable = chromium_path()
    if executable is None:
        unavailable("no Chromium on this machine (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("Playwright for Python is not installed (pip install -e '.[test]')")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable, args=["--no-sandbox", "--disable-gpu"])
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class Visit:
    """An open page, and what it did: requests refused, console errors."""

    page: Page
    url: str
    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)


def visit(browser: Browser, path: Path, fragment: str = "", *, width: int = 1280,
          height: int = 900, script: bool = True) -> Visit:
    """Open ``path`` (with ``fragment``) from ``file://`` in a fresh, offline context."""
    context = browser.new_context(viewport={"width": width, "height": height},
                                  java_script_enabled=script, offline=True)
    page = context.new_page()
    url = path.resolve().as_uri()
    opened = Visit(page, url)

    def refuse(route: Route) -> None:
        """The page's own file loads; anything else is counted and refused."""
        if route.request.url.split("#", 1)[0] == url:
            route.continue_()
            return
        opened.requests.append(route.request.url)
        route.abort()

    def heard(request: Request) -> None:
        if request.url.split("#", 1)[0] != url and request.url not in opened.requests:
            opened.requests.append(request.url)

    def said(message: ConsoleMessage) -> None:
        if message.type in ("error", "warning"):
            opened.errors.append(message.text)

    context.route("**/*", refuse)
    page.on("request", heard)
    page.on("console", said)
    page.on("pageerror", lambda error: opened.errors.append(str(error)))
    def alerted(dialog: Dialog) -> None:
        opened.dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", alerted)
    page.goto(url + fragment)
    if script:
        page.wait_for_selector("body[data-ready]")
    return opened
