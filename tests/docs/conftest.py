"""A local server the browser reads the site from (built once for the whole run:
``site`` in tests/conftest.py). The browser is the suite's one harness
(tests/browser.py, the session's ``browser`` fixture): Debian's Chromium driven
by Playwright, never a downloaded one; where there is none the browser tests
skip and say why, or fail where ``ACES_BROWSER_REQUIRED`` is set.
"""

from __future__ import annotations

import functools
import threading
import typing as t
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest

if t.TYPE_CHECKING:
    from collections.abc import Iterator

    from playwright.sync_api import Browser, Page



class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: t.Any) -> None:
        """Requests are not news."""


@pytest.fixture(scope="module")
def server(site: dict[str, t.Any]) -> Iterator[str]:
    """The built site (every language side by side) at http://127.0.0.1:PORT/."""
    root = site["html-en"].out.parent
    handler = functools.partial(_Quiet, directory=str(root))
    with ThreadingHTTPServer(("127.0.0.1", 0), handler) as httpd:
        thread = threading.Thread(target=httpd.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{httpd.server_address[1]}/"
        finally:
            httpd.shutdown()
            thread.join()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context()
    try:
        yield context.new_page()
    finally:
        context.close()
