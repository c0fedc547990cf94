"""A real Chromium for the tests of pages: Debian's, driven by Playwright.

No browser is ever downloaded: Playwright launches the system's Chromium
(``/usr/bin/chromium``, or ``$ACES_CHROMIUM``). Where there is none, the
browser tests skip and say why; where ``ACES_BROWSER_REQUIRED`` is set (as
``.ci/run`` sets it, after installing Chromium), they fail instead, so a CI
run can never pass without having run them.

Every page is opened in a context that refuses any request other than the
page's own file and counts them, and that collects console errors.

:func:`assert_accessible` checks an open page against the WCAG 2.0 and 2.1
rules of levels A and AA with axe-core, the engine of Deque's axe, whose
script travels inside the axe-playwright-python package (never fetched at
test time); see /work/team/AXE.md and the tests in tests/test_browser.py.
"""

from __future__ import annotations

import functools
import importlib.resources
import json
import os
import re
import shutil
import time
import typing as t
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

if t.TYPE_CHECKING:
    from collections.abc import Iterator

    from playwright.sync_api import (
        Browser,
        ConsoleMessage,
        Dialog,
        ElementHandle,
        Frame,
        Page,
        Request,
        Route,
    )

REQUIRED: t.Final = "ACES_BROWSER_REQUIRED"
#: axe-core's tags for the success criteria of WCAG 2.0 and 2.1, levels A and AA:
#: the 47 criteria that Norway's regulation on universal design of ICT requires.
WCAG21_AA: t.Final = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa")
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


#: What ``script="blocked"`` adds to the page's own policy: no script of its own runs.
_NO_SCRIPT: t.Final = "script-src 'none'"
#: A browser without JavaScript shows what ``<noscript>`` holds; with scripts
#: merely refused it would not, so the harness shows it as such a browser does.
_SHOW_NOSCRIPT: t.Final = """() => {
  for (const hidden of document.querySelectorAll('noscript')) {
    const shown = document.createElement('template');
    shown.innerHTML = hidden.textContent;
    hidden.replaceWith(shown.content);
  }
}"""


def visit(browser: Browser, path: Path, fragment: str = "", *, width: int = 1280,
          height: int = 900, script: bool | t.Literal["blocked"] = True,
          color_scheme: t.Literal["light", "dark"] = "light",
          reduced_motion: bool = False, scale: float = 1) -> Visit:
    """Open ``path`` (with ``fragment``) from ``file://`` in a fresh, offline context.

    ``script=False`` turns JavaScript off, as a browser set so would; axe-core
    cannot run there (no timer fires), so ``script="blocked"`` shows the same
    page (its own scripts refused by a Content-Security-Policy, ``<noscript>``
    shown) with JavaScript on for the tests' own scripts. ``color_scheme`` and
    ``reduced_motion`` are what the reader's system asks for; ``scale`` is the
    pixels to a CSS pixel (2, with ``width`` halved, is a window zoomed to 200 %).
    """
    context = browser.new_context(
        viewport={"width": width, "height": height}, device_scale_factor=scale,
        java_script_enabled=script is not False,
        offline=True, color_scheme=color_scheme,
        reduced_motion="reduce" if reduced_motion else "no-preference")
    page = context.new_page()
    url = path.resolve().as_uri()
    opened = Visit(page, url)

    def refuse(route: Route) -> None:
        """The page's own file loads; anything else is counted and refused."""
        if route.request.url.split("#", 1)[0] == url:
            if script == "blocked":
                route.fulfill(path=path, headers={
                    "Content-Type": "text/html; charset=utf-8",
                    "Content-Security-Policy": _NO_SCRIPT})
            else:
                route.continue_()
            return
        opened.requests.append(route.request.url)
        route.abort()

    def heard(request: Request) -> None:
        if request.url.split("#", 1)[0] != url and request.url not in opened.requests:
            opened.requests.append(request.url)

    def said(message: ConsoleMessage) -> None:
        if script == "blocked" and _NO_SCRIPT in message.text:
            return  # the page's scripts, refused as asked
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
    if script is True:
        page.wait_for_selector("body[data-ready]")
    elif script == "blocked":
        page.evaluate(_SHOW_NOSCRIPT)
    return opened


@dataclass(frozen=True)
class Violation:
    """One axe-core rule a page breaks, with the elements that break it."""

    rule: str
    impact: str
    help: str
    url: str
    nodes: tuple[tuple[str, str, str], ...]  # (selector, HTML, what to fix)

    def __str__(self) -> str:
        lines = [f"{self.rule} ({self.impact}): {self.help} <{self.url}>"]
        for selector, html, summary in self.nodes:
            lines.append(f"    {selector}: {_shorten(html)}")
            lines.extend(f"      {line.strip()}" for line in summary.splitlines()
                         if line.strip())
        return "\n".join(lines)


def _shorten(html: str, width: int = 160) -> str:
    flat = " ".join(html.split())
    return flat if len(flat) <= width else flat[:width - 1] + "…"


@functools.cache
def _axe_script() -> str:
    """axe-core's script as the package ships it (read once per session)."""
    try:
        shipped = importlib.resources.files("axe_playwright_python") / "axe.min.js"
    except ModuleNotFoundError:
        unavailable("axe-playwright-python is not installed (pip install -e '.[test]')")
    return shipped.read_text(encoding="utf-8")


#: Marks (``data-aces-kind``) one element of each kind that holds text of its own,
#: for axe-core's contrast rule to check: elements that look the same (colour, font,
#: shadow) on the same grounds (each ancestor's background, opacity, blending,
#: filter) are drawn in the same colours on the same colours, and the rule's answer
#: is the same for each. An element that may stand on something other than its
#: ancestors is marked always: one placed out of the flow (absolute, fixed, floated,
#: shifted), inside a box its content overflows, or under a pseudo-element that
#: draws a background.
_KINDS: t.Final = """() => {
  for (const el of document.querySelectorAll('[data-aces-kind]')) {
    el.removeAttribute('data-aces-kind');
  }
  const grounds = new Map();
  const ground = el => {
    if (!el) return '';
    if (grounds.has(el)) return grounds.get(el);
    const s = getComputedStyle(el);
    // A box that draws nothing and blends nothing adds no ground of its own (and
    // what overflows it stands on its parent's, the same).
    const own = [s.backgroundColor, s.backgroundImage, s.opacity, s.mixBlendMode, s.filter,
                 s.backdropFilter].join('|');
    const neutral = own === 'rgba(0, 0, 0, 0)|none|1|normal|none|none';
    const shifted = s.position === 'relative'
      && ['top', 'right', 'bottom', 'left'].some(side => !['auto', '0px'].includes(s[side]));
    const pseudo = ['::before', '::after'].some(part => {
      const p = getComputedStyle(el, part);
      return p.content !== 'none' && (p.backgroundColor !== 'rgba(0, 0, 0, 0)'
                                      || p.backgroundImage !== 'none');
    });
    // The page's own boxes overflow onto the canvas, which is their ground.
    const spills = !neutral && el !== document.documentElement && el !== document.body
      && (s.overflowX === 'visible' && el.scrollWidth > el.clientWidth + 1
          || s.overflowY === 'visible' && el.scrollHeight > el.clientHeight + 1);
    const out = ['absolute', 'fixed'].includes(s.position) || s.cssFloat !== 'none'
      || shifted || pseudo || spills;
    const up = ground(el.parentElement);
    const mine = out || up === null ? null : neutral ? up : own + '/' + up;
    grounds.set(el, mine);
    return mine;
  };
  const seen = new Set();
  for (const el of document.body.querySelectorAll('*')) {
    if (![...el.childNodes].some(n => n.nodeType === Node.TEXT_NODE && n.data.trim())) continue;
    const s = getComputedStyle(el);
    const under = ground(el);
    const kind = under === null ? null
      : [s.color, s.fontSize, s.fontWeight, s.fontFamily, s.textShadow, s.visibility,
         s.webkitTextStrokeWidth, el.getClientRects().length > 0].join('|') + '/' + under;
    if (kind === null || !seen.has(kind)) {
      if (kind !== null) seen.add(kind);
      el.setAttribute('data-aces-kind', '');
    }
  }
}"""
#: Runs axe-core on the page (or on the part named by a selector) with only the
#: rules of the given tags, and returns its violations, trimmed to what a report
#: needs. Passing checks are not returned: they are most of axe's work to serialize.
_RUN: t.Final = """async ([within, tags, only, disabled, perKind]) => {
  const rules = Object.fromEntries(disabled.map(rule => [rule, {enabled: false}]));
  axe.reset();
  if (perKind) {
    (""" + _KINDS + """)();
    axe.configure({rules: [{id: 'color-contrast', selector: '[data-aces-kind]'}]});
  }
  const runOnly = only ? {type: 'rule', values: only} : {type: 'tag', values: tags};
  // axe-core reads every style sheet of the page again at each run ("preload"), for
  // one rule alone (css-orientation-lock): a run without that rule skips it.
  const preload = only ? only.includes('css-orientation-lock')
                       : !disabled.includes('css-orientation-lock');
  const found = await axe.run(within ? {include: [within]} : document,
    {runOnly, rules, resultTypes: ['violations'], iframes: false, preload});
  axe.reset();
  return found.violations.map(v => ({
    rule: v.id, impact: v.impact || '', help: v.help, url: v.helpUrl,
    nodes: v.nodes.map(n => [n.target.join(' '), n.html, n.failureSummary || ''])}));
}"""


#: Every element the keyboard should reach on a page: visible, enabled, not taken out
#: of the order; each is marked with a number, to tell links to the same place apart
#: (the tests of focus: tests/page/test_universal_design.py, tests/server/test_class_pages.py).
FOCUSABLE: t.Final = """() => [...document.querySelectorAll(
    'a[href], button, select, input, textarea, summary, [tabindex]')]
  .filter(el => el.tabIndex >= 0 && !el.disabled && el.getClientRects().length
          && getComputedStyle(el).visibility !== 'hidden')
  .map((el, k) => {
    el.setAttribute('data-reach', String(k));
    return k + ' ' + (el.id || el.getAttribute('href') || el.outerHTML.slice(0, 60));
  })"""


#: Whether scripts run in a document: with scripting on, the parser takes what a
#: ``<noscript>`` holds as text; with it off, as elements. Read through the
#: DevTools protocol, which runs where the page's own scripts may not.
_SCRIPTING: t.Final = """() => {
  const probe = document.createElement('noscript');
  probe.innerHTML = '<i></i>';
  return probe.firstChild !== null && probe.firstChild.nodeType === Node.TEXT_NODE;
}"""


def axe_violations(page: Page, within: str | None = None, *,
                   tags: Sequence[str] = WCAG21_AA, rules: Sequence[str] | None = None,
                   disabled: Sequence[str] = (), frames: bool = True) -> list[Violation]:
    """The WCAG 2.1 A and AA violations axe-core finds on ``page`` as it is now.

    ``within`` limits the check to the elements a CSS selector names (and what
    they hold), in the page itself, not its frames; ``rules`` runs only the
    rules it names (instead of all those of ``tags``), where a setting can
    change no other's result; ``disabled`` names rules to leave out, each of
    which must be justified where it is passed. Every frame of the page is checked too, each
    by itself (a notebook's sandboxed frame has an origin of its own, which
    axe-core's messages between frames cannot reach), its findings marked
    with the frame's address; ``frames=False`` leaves them out, for a page
    whose frames are checked as pages of their own.
    """
    return axe_at_once([page], within, tags=tags, rules=rules, disabled=disabled,
                       frames=frames)[0]


#: Starts axe-core in a document without waiting for it: the promise is kept in
#: the document, for :data:`_TAKE` to wait for.
_START: t.Final = f"args => {{ window.__acesAxe = ({_RUN})(args); }}"
_TAKE: t.Final = "() => window.__acesAxe"


def axe_at_once(pages: Sequence[Page], within: str | None = None, *,
                tags: Sequence[str] = WCAG21_AA, rules: Sequence[str] | None = None,
                disabled: Sequence[str] = (), frames: bool = True,
                contrast: t.Literal["every", "per kind"] = "every") -> list[list[Violation]]:
    """:func:`axe_violations` of several pages, checked side by side: every
    check starts before the first is waited for, so that pages of different
    contexts, each in a renderer process of its own, are checked in parallel.

    ``contrast="per kind"`` has the contrast rule check one element of each kind
    (:data:`_KINDS`) rather than every one: the same answer, in a fraction of the
    rule's time on a long page of few kinds of text, as the site's pages are."""
    started: list[tuple[int, Frame, str]] = []
    for index, page in enumerate(pages):
        for frame in page.frames if within is None and frames else [page.main_frame]:
            if frame.is_detached():
                continue
            if not frame.evaluate(_SCRIPTING):
                # axe-core waits on timers, and none fires there: it would never answer.
                pytest.fail(f"axe-core cannot run in {frame.url}, where JavaScript is off (no"
                            " timer fires there): open the page with its own scripts refused"
                            ' instead, as visit(..., script="blocked") does', pytrace=False)
            if not frame.evaluate("typeof window.axe === 'object'"):
                # Evaluated through the DevTools protocol, not as a <script>: the page's
                # Content-Security-Policy does not stop it, and no request is made.
                frame.evaluate(_axe_script())
            main = frame is page.main_frame
            frame.evaluate(_START, [within if main else None, list(tags),
                                    None if rules is None else list(rules), list(disabled),
                                    contrast == "per kind"])
            started.append((index, frame, "" if main else f"(frame {frame.url}) "))
    found: list[list[Violation]] = [[] for _ in pages]
    for index, frame, where in started:
        for v in frame.evaluate(_TAKE):
            found[index].append(Violation(v["rule"], v["impact"], v["help"], v["url"], tuple(
                (where + n[0], n[1], n[2]) for n in v["nodes"])))
    return found


def assert_accessible(page: Page | Sequence[tuple[Page, str]], within: str | None = None, *,
                      label: str = "", rules: Sequence[str] | None = None,
                      disabled: Sequence[str] = (), frames: bool = True,
                      contrast: t.Literal["every", "per kind"] = "every") -> None:
    """Fail, listing every violation readably, unless axe-core finds none of
    the WCAG 2.0 and 2.1 A and AA rules broken on ``page`` (see
    :func:`axe_violations`). ``label`` says which page and setting failed,
    beside the page's address. Given pairs of a page and its label instead,
    it checks them side by side (:func:`axe_at_once`, which says what ``contrast``
    does)."""
    labelled = [(page, label)] if not isinstance(page, Sequence) else list(page)
    every = axe_at_once([each for each, _ in labelled], within, rules=rules,
                        disabled=disabled, frames=frames, contrast=contrast)
    failed = []
    for (each, name), violations in zip(labelled, every, strict=True):
        if violations:
            where = f"{name} ({each.url})" if name else each.url
            listed = "\n".join(str(v) for v in violations)
            failed.append(f"{where}: {len(violations)} WCAG 2.1 A/AA rule(s) broken "
                          f"(axe-core):\n{listed}")
    if failed:
        pytest.fail("\n".join(failed), pytrace=False)


#: The styles of the WCAG text-spacing bookmarklet (success criterion 1.4.12): line
#: height 1.5 times the font size, paragraphs 2 times apart, letters 0.12 and words
#: 0.16 times the font size apart, over whatever the page sets.
TEXT_SPACING: t.Final = ("* { line-height: 1.5 !important; letter-spacing: 0.12em !important;"
                         " word-spacing: 0.16em !important; }"
                         " p { margin-bottom: 2em !important; }")
#: With those styles on, every box that cuts its text off (overflow hidden or clip,
#: its content larger than its box), and every two lines of different texts that
#: overlap by more than 2 px each way. A line in a box that scrolls counts only
#: where the box shows it (a wide table's cells beyond its edge are scrolled to,
#: not hidden); what is hidden on purpose (a box of 1 px or clipped away, as a text
#: for screen readers alone is) and what is fixed to the window are left out.
_SPACED_FAULTS: t.Final = r"""() => {
  const name = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
    + (el.className && typeof el.className === 'string'
       ? '.' + el.className.trim().split(/\s+/).join('.') : '');
  // Hidden on purpose, as a text for screen readers alone is: a box of 1 px, or clipped
  // away (MathJax's MathML beside a formula).
  const unseen = (el, style) => el.clientWidth <= 1 || el.clientHeight <= 1
    || style.position === 'absolute' && style.clip !== 'auto' && style.clip !== ''
    || style.clipPath !== 'none';
  const clipping = style => ['hidden', 'clip'].includes(style.overflowX)
    || ['hidden', 'clip'].includes(style.overflowY);
  const faults = [];
  for (const el of document.body.querySelectorAll('*')) {
    if (!el.getClientRects().length || !el.textContent.trim()) continue;
    const style = getComputedStyle(el);
    if (unseen(el, style)) continue;
    if (clipping(style) && (el.scrollWidth > el.clientWidth + 1
                            || el.scrollHeight > el.clientHeight + 1)) {
      faults.push(`cut off: ${name(el)} (${el.scrollWidth}x${el.scrollHeight} in `
                  + `${el.clientWidth}x${el.clientHeight}): ${el.textContent.trim().slice(0, 60)}`);
    }
  }
  const lines = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(), k = 0; text; text = walker.nextNode(), k++) {
    if (!text.data.trim()) continue;
    let view = {left: -Infinity, top: -Infinity, right: Infinity, bottom: Infinity};
    let hidden = false;
    for (let up = text.parentElement; up && up !== document.documentElement;
         up = up.parentElement) {
      const style = getComputedStyle(up);
      if (style.position === 'fixed' || unseen(up, style)
          || style.visibility === 'hidden') { hidden = true; break; }
      if (style.overflowX !== 'visible' || style.overflowY !== 'visible') {
        const box = up.getBoundingClientRect();
        view = {left: Math.max(view.left, box.left), top: Math.max(view.top, box.top),
                right: Math.min(view.right, box.right),
                bottom: Math.min(view.bottom, box.bottom)};
      }
    }
    if (hidden) continue;
    const range = document.createRange();
    range.selectNodeContents(text);
    for (const r of range.getClientRects()) {
      const line = {left: Math.max(r.left, view.left), top: Math.max(r.top, view.top),
                    right: Math.min(r.right, view.right),
                    bottom: Math.min(r.bottom, view.bottom), k, text};
      if (line.right - line.left > 2 && line.bottom - line.top > 2) lines.push(line);
    }
  }
  lines.sort((a, b) => a.top - b.top);
  for (let i = 0; i < lines.length; i++) {
    const a = lines[i];
    for (let j = i + 1; j < lines.length && lines[j].top < a.bottom - 2; j++) {
      const b = lines[j];
      if (a.k === b.k) continue;
      const wide = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const high = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (wide > 2 && high > 2) {
        faults.push(`overlap: «${a.text.data.trim().slice(0, 40)}» (${name(a.text.parentElement)})`
                    + ` and «${b.text.data.trim().slice(0, 40)}» (${name(b.text.parentElement)})`);
        if (faults.length > 20) return faults;
      }
    }
  }
  return faults;
}"""


#: Puts the text-spacing styles on a page, by a style sheet built by script, not a
#: <style> element, which the package's pages' Content-Security-Policy refuses (as it
#: would any the page did not bring); once they are drawn, whether they apply.
_SPACE_OUT: t.Final = """css => new Promise(done => {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  requestAnimationFrame(() => requestAnimationFrame(() => {
    const style = getComputedStyle(document.body);
    const size = parseFloat(style.fontSize);
    done(Math.abs(parseFloat(style.letterSpacing) - 0.12 * size) < 0.01
         && Math.abs(parseFloat(style.lineHeight) - 1.5 * size) < 0.01);
  }));
})"""


def evaluate_at_once(pages: Sequence[Page], script: str, arg: t.Any = None) -> list[t.Any]:
    """``script`` (a function of one argument, which may return a promise) in each
    page, every one started before the first is waited for, so that pages of
    different contexts, each in a renderer process of its own, work in parallel."""
    start = (f"arg => {{ window.__acesAtOnce = new Promise(done => setTimeout("
             f"() => done(({script})(arg)))); }}")
    for page in pages:
        page.evaluate(start, arg)
    return [page.evaluate("() => window.__acesAtOnce") for page in pages]


def space_out(pages: Sequence[Page]) -> None:
    """Space the text of each page out as WCAG's 1.4.12 asks a page to bear
    (:data:`TEXT_SPACING`), side by side; the styles stay on a page, at any width
    it is set to, until it is loaded again."""
    for page, spaced in zip(pages, evaluate_at_once(pages, _SPACE_OUT, TEXT_SPACING),
                            strict=True):
        assert spaced, f"the text-spacing styles did not apply on {page.url}"


def spacing_faults(pages: Sequence[Page]) -> list[list[str]]:
    """What is broken on each page, spaced out by :func:`space_out`, as it stands:
    text cut off, or text over other text (:data:`_SPACED_FAULTS`), side by side."""
    return t.cast("list[list[str]]", evaluate_at_once(pages, _SPACED_FAULTS))


def text_spacing_faults(page: Page) -> list[str]:
    """What breaks on ``page`` with its text spaced out (:func:`space_out`)."""
    space_out([page])
    return spacing_faults([page])[0]


def ready_frame(frame_element: ElementHandle, timeout: float = 60.0) -> Frame:
    """The frame of a page embedded in another (an ``<iframe>``), once its script
    has run to the end (``body[data-ready]``). Frames load lazily, so it is
    scrolled to first, as a reader would."""
    frame_element.scroll_into_view_if_needed()
    owner = frame_element.owner_frame()
    assert owner is not None, "the frame is in no page"
    deadline = time.monotonic() + timeout
    while True:
        frame = frame_element.content_frame()
        if frame is not None and frame.url != "about:blank" and frame.query_selector(
                "body[data-ready]") is not None:
            return frame
        assert time.monotonic() < deadline, (f"the frame {frame_element.get_attribute('src')}"
                                             " did not get ready")
        owner.page.wait_for_timeout(100)
