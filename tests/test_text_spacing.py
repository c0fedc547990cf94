"""The text-spacing check the browser tests use (tests/browser.py,
:func:`text_spacing_faults`, WCAG 2.1's 1.4.12), tested on pages made for it: a
page that bears the wider spacing passes, and each planted fault (text cut off
by a box of fixed size, text drawn over text, as the spacing pushes it) is
named; so the check is neither blind nor always failing. Its style sheet gets
past a page's Content-Security-Policy, as the package's pages have one."""

from __future__ import annotations

import typing as t

import pytest

from browser import text_spacing_faults, visit

if t.TYPE_CHECKING:
    from pathlib import Path

    from playwright.sync_api import Browser

PAGE: t.Final = """<!DOCTYPE html>
<html lang="nb">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<meta http-equiv="Content-Security-Policy"
 content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>Ess i potten</title>
<style>body {{ font: 16px/1.2 sans-serif; width: 40rem; }}</style></head>
<body><main><h1>Ess i potten</h1>
<p>Kari kaster en ener og en sekser, og sjetongen går til venstre.</p>
<p class="sr" style="position: absolute; width: 1px; height: 1px; overflow: hidden;
 clip: rect(0 0 0 0)">Bare for skjermlesere, og skjult med vilje.</p>
<div style="overflow-x: auto"><table><tr><td style="white-space: nowrap; padding-right: 60rem">
En bred tabell som ruller i sin egen boks</td></tr></table></div>
<p>Etter tabellen.</p>
{fault}
</main>
<script>document.body.dataset.ready = "";</script>
</body></html>
"""

FAULTS: t.Final = {
    # A line of text in a box of fixed height that hides what does not fit.
    "cut off": '<p style="height: 1.2em; overflow: hidden">Bo kaster to seksere og gir'
               " begge sjetongene videre til den neste spilleren ved bordet, som"
               " får dem begge</p>",
    # A box of fixed height whose text spills over the line set below it.
    "overlap": '<div style="height: 1.25em; width: 12rem">Kari kaster en ener og en'
               ' sekser</div><p style="margin: 0">Bo kaster to seksere</p>',
}


def _page(folder: Path, fault: str = "") -> Path:
    path = folder / "page.html"
    path.write_text(PAGE.format(fault=fault), encoding="utf-8")
    return path


def test_a_page_that_bears_the_spacing_passes(browser: Browser, tmp_path: Path) -> None:
    page = visit(browser, _page(tmp_path)).page
    assert text_spacing_faults(page) == []
    # The spacing is on: the line height is 1.5 times the font size.
    assert page.evaluate("getComputedStyle(document.querySelector('p')).lineHeight") == "24px"


@pytest.mark.parametrize("kind", list(FAULTS))
def test_each_fault_is_found(browser: Browser, tmp_path: Path, kind: str) -> None:
    page = visit(browser, _page(tmp_path, FAULTS[kind])).page
    faults = text_spacing_faults(page)
    assert faults, kind
    assert all(fault.startswith(kind) for fault in faults), faults
