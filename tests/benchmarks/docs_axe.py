"""The time of the docs' accessibility check (tests/docs/test_accessibility.py),
beside the narrower check it replaced, on the same pages in the same run.

    .venv/bin/python tests/benchmarks/docs_axe.py                  # builds the site
    .venv/bin/python tests/benchmarks/docs_axe.py --site build/docs  # a built one
    .venv/bin/python tests/benchmarks/docs_axe.py --every 3          # every third page

The baseline is the matrix the suite ran before: every language at 360 px in the
light theme (every rule), and Bokmål alone at 1280 px, every rule in light and
the rules about colour in dark. The check is the suite's own :func:`check`:
every language at 1280 and 360 px, light and dark, and the text spaced out.
For each page both run on the same loaded pages, one after the other, the
order turned round at every page, so that the machine's load weighs on both
alike. Reported: each one's seconds in all, and the check's over the baseline's.
"""

from __future__ import annotations

import argparse
import functools
import sys
import tempfile
import threading
import time
import typing as t
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

HERE: t.Final = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))


from docs.test_accessibility import COLOUR_RULES, LANGUAGES, check, open_all, pages  # noqa: E402

from browser import assert_accessible, launch  # noqa: E402
from docsite import load_tool  # noqa: E402

if t.TYPE_CHECKING:
    from collections.abc import Generator

    from playwright.sync_api import Browser, Page


def narrowed(opened: dict[str, Page]) -> None:
    """The baseline: the check as it was before every setting was checked."""
    for page in opened.values():
        page.set_viewport_size({"width": 320, "height": 640})
        page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    for page in opened.values():
        page.set_viewport_size({"width": 360, "height": 900})
        page.emulate_media(color_scheme="light")
    assert_accessible([(page, f"{lang}, 360 px, light") for lang, page in opened.items()],
                      frames=False)
    page = opened["nb"]
    settings: tuple[tuple[int, t.Literal["light", "dark"], tuple[str, ...] | None], ...] = (
        (1280, "light", None), (1280, "dark", COLOUR_RULES))
    for width, scheme, rules in settings:
        page.set_viewport_size({"width": width, "height": 900})
        page.emulate_media(color_scheme=scheme)
        assert_accessible([(page, f"nb, {width} px, {scheme}")], frames=False, rules=rules)


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: t.Any) -> None:
        """Requests are not news."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, help="a site built by scripts/docs.py build")
    parser.add_argument("--every", type=int, default=1, help="check every n-th page")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = args.site
        if root is None:
            root = Path(folder)
            for build in load_tool().build(root, only=[f"html-{lang}" for lang in LANGUAGES]):
                assert build.passed, build.name
        names = {lang: pages(root / lang) for lang in LANGUAGES}
        handler = functools.partial(_Quiet, directory=str(root))
        with ThreadingHTTPServer(("127.0.0.1", 0), handler) as httpd:
            threading.Thread(target=httpd.serve_forever, daemon=True).start()
            server = f"http://127.0.0.1:{httpd.server_address[1]}/"
            spent = {"baseline": 0.0, "check": 0.0}
            runs = {"baseline": narrowed, "check": check}
            browsers = t.cast("Generator[Browser, None, None]", launch())
            browser = next(browsers)
            contexts = {lang: browser.new_context() for lang in LANGUAGES}
            opened = {lang: context.new_page() for lang, context in contexts.items()}
            chosen = range(0, len(names["en"]), args.every)
            for turn, k in enumerate(chosen):
                order = ["baseline", "check"] if turn % 2 == 0 else ["check", "baseline"]
                for name in order:
                    open_all(opened, server, names, k)  # a fresh load: the spacing's styles go
                    start = time.monotonic()
                    runs[name](opened)
                    spent[name] += time.monotonic() - start
            for context in contexts.values():
                context.close()
            browsers.close()
            httpd.shutdown()
    count = len(chosen)
    print(f"{count} pages in {len(LANGUAGES)} languages: baseline (every language at 360 px"
          f" light, nb at 1280 px light and dark) {spent['baseline']:.1f} s"
          f" ({spent['baseline'] / count:.2f} s a page); check (every language, 360 and"
          f" 1280 px, light and dark, text spacing) {spent['check']:.1f} s"
          f" ({spent['check'] / count:.2f} s a page): {spent['check'] / spent['baseline']:.2f}"
          " times the baseline's time")


if __name__ == "__main__":
    main()
