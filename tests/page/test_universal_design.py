"""What axe-core cannot see on the replay and simulation pages, checked in a real
Chromium: every control reached by the keyboard with its focus shown, the page
reflowed at 320 px and at 200 % zoom, names a screen reader says for the dice and
the chart, motion that respects the reader's settings and can be paused, no
shortcut of a character key, text spaced out as a reader's style sheet may
space it, and the chart's lines in colours that stand out (WCAG 2.1: 2.1.1,
2.4.7, 1.4.10, 1.4.4, 1.1.1, 4.1.2, 2.2.2, 2.1.4, 1.4.12, 1.4.11)."""

from __future__ import annotations

import time
import typing as t
from pathlib import Path

import pytest

from aces.colours import PALETTE, contrast
from aces.i18n import LANGUAGES

from browser import FOCUSABLE, page_data, text_spacing_faults, visit
from clitest import run

if t.TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

REPLAYS: t.Final = Path(__file__).resolve().parents[2] / "replays"


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("usable")
    made = {}
    for name, command in (("pot", ("replay", str(REPLAYS / "four-players.jsonl"))),
                          ("five", ("replay", str(REPLAYS / "five-dice-four-players.jsonl"))),
                          ("session", ("replay", str(REPLAYS / "session.jsonl"))),
                          ("simulation", ("simulate", "--players", "4")),
                          ("simulation-five", ("simulate", "--game", "five-dice",
                                               "--players", "3"))):
        page = folder / f"{name}.html"
        result = run(*command, "--html", str(page), "--lang", "nb")
        assert result.exit_code == 0, result.output
        made[name] = page
    return made


#: The element with the focus, and whether its focus shows: an outline of at least
#: 2 px, on it or (a link of the chart) on the shape inside it.
FOCUSED: t.Final = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const shows = node => {
    const style = getComputedStyle(node);
    return style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
  };
  const inside = el.querySelector('rect');
  return [el.getAttribute('data-reach') + ' '
            + (el.id || el.getAttribute('href') || el.outerHTML.slice(0, 60)),
          shows(el) || (inside !== null && shows(inside))];
}"""


#: Run, and pause at once: after the first frame's games, before the next frame.
RUN_AND_PAUSE: t.Final = ("() => { document.getElementById('run').click();"
                          " document.getElementById('pause').click(); }")


def _tab_through(page: Page) -> list[str]:
    """Press Tab until the focus leaves the page; what it reached, in order. Each
    element reached must show its focus."""
    reached: list[str] = []
    for _ in range(1000):  # out of the page first, so that Tab starts at its top
        if page.evaluate("document.activeElement === document.body"):
            break
        page.keyboard.press("Tab")
    for _ in range(1000):
        page.keyboard.press("Tab")
        found = page.evaluate(FOCUSED)
        if found is None or (reached and found[0] == reached[0]):
            break
        name, shows = found
        assert shows, f"the focus does not show on {name}"
        reached.append(name)
    return reached


@pytest.mark.parametrize("name", ["pot", "session", "simulation-five"])
def test_every_control_is_reached_by_the_keyboard_and_shows_its_focus(
        browser: Browser, pages: dict[str, Path], name: str) -> None:
    opened = visit(browser, pages[name], "#roll=3" if name == "pot" else "")
    page = opened.page
    if name == "simulation-five":
        page.evaluate(RUN_AND_PAUSE)  # a run under way makes the Pause button a control
    expected = page.evaluate(FOCUSABLE)
    reached = _tab_through(page)
    assert sorted(reached) == sorted(expected)
    assert len(reached) == len(set(reached))


def test_the_replay_is_played_by_the_keyboard_alone(browser: Browser,
                                                    pages: dict[str, Path]) -> None:
    """The keys the page lists are the keys it answers; the buttons answer Enter,
    the pickers the arrow keys."""
    opened = visit(browser, pages["pot"], "#roll=0&lang=nn")
    page = opened.page
    data = page_data(pages["pot"])
    keys = page.inner_text("p[data-label=keys]")
    assert keys == data["labels"]["nn"]["keys"]
    assert all(key in keys for key in ("←", "→", "Home", "End"))
    page.focus("#next")
    page.keyboard.press("Enter")
    assert page.evaluate("location.hash") == "#roll=1&lang=nn"
    page.focus("#language")
    page.keyboard.press("ArrowUp")  # nn to nb, as a pupil picks with the keys
    assert page.evaluate("document.documentElement.lang") == "nb"
    # A roll of the chart is opened with Enter, like any link.
    page.focus("#chart-0 a[href='#roll=7']")
    page.keyboard.press("Enter")
    # The link changes the address first, and the page follows it on the
    # hashchange event: both are waited for.
    deadline = time.monotonic() + 5
    while not (page.evaluate("location.hash").startswith("#roll=7")
               and page.inner_text("#position").startswith("Kast 7 av ")):
        assert time.monotonic() < deadline, page.inner_text("#position")
        page.wait_for_timeout(50)


#: Every character a key types alone or with Shift, on an English and a Norwegian
#: keyboard: what a shortcut of a single character key (WCAG 2.1.4) would answer.
CHARACTERS: t.Final = "".join(chr(c) for c in range(32, 127)) + "æøåÆØÅ§½¤"
#: What a shortcut would change on a page: its address, where the replay stands,
#: the Play button's name, the language, the games played, the focus (not the
#: scroll: Space scrolls a page, as the browser does).
STATE: t.Final = """() => [location.hash, document.documentElement.lang,
  ...['#position', '#play', '#played', '#status', '#rows']
    .map(s => document.querySelector(s)).map(el => el ? el.textContent : null),
  document.activeElement && (document.activeElement.id || document.activeElement.tagName)]"""


@pytest.mark.parametrize("name", ["pot", "session", "simulation-five"])
def test_no_character_key_is_a_shortcut(browser: Browser, pages: dict[str, Path],
                                        name: str) -> None:
    """2.1.4: no key that types a character does anything by itself, wherever the
    focus is that is not a control taking it (a button answers Space and Enter as a
    button does): the replay's keys are the arrows, Home and End."""
    opened = visit(browser, pages[name], "#roll=3" if name != "simulation-five" else "")
    page = opened.page
    links = page.locator("a[href]:visible")
    for place in ("body", "a link") if links.count() else ("body",):
        if place == "body":
            page.evaluate("document.activeElement.blur()")
        else:
            links.first.focus()
        before = page.evaluate(STATE)
        page.keyboard.type(CHARACTERS)
        page.wait_for_timeout(300)  # a timer a key might have started has ticked
        assert page.evaluate(STATE) == before, (name, place)
    assert opened.errors == []
    # The keys the replay answers are not character keys, and they do answer.
    if name == "pot":
        page.evaluate("document.activeElement.blur()")
        page.keyboard.press("ArrowRight")
        assert page.evaluate("location.hash").startswith("#roll=4")


@pytest.mark.parametrize("name", ["pot", "five", "session", "simulation", "simulation-five"])
@pytest.mark.parametrize("width", [360, 1280])
def test_text_spaced_out_is_neither_cut_nor_overlapping(
        browser: Browser, pages: dict[str, Path], name: str, width: int) -> None:
    """1.4.12: with the text-spacing bookmarklet's styles on (line height 1.5, paragraphs
    2 apart, letters 0.12 and words 0.16 of the font size), no text is cut off or drawn
    over other text, on a phone and a desktop, with the replay's table and the
    simulation's rows filled in."""
    fragment = "#roll=9" if name in ("pot", "five") else ""
    page = visit(browser, pages[name], fragment, width=width).page
    if name.startswith("simulation"):
        page.click("#run")
        page.wait_for_selector("#rows tr")
        page.wait_for_selector("#status[aria-busy=false]", timeout=120_000)
    before = text_spacing_faults(page)  # applies the styles; what follows sees them
    assert before == [], (name, width)
    found = page.evaluate(REFLOW)
    assert found["sideways"] <= 0, found


#: Each player's line on the chart and its swatch in the table: the colour Chromium
#: draws it in, and the colour of what it is drawn on (the first ancestor with a
#: background of its own).
LINES: t.Final = """() => {
  const ground = el => {
    for (let up = el; up; up = up.parentElement) {
      const colour = getComputedStyle(up).backgroundColor;
      if (colour !== 'rgba(0, 0, 0, 0)' && colour !== 'transparent') return colour;
    }
    return 'rgb(255, 255, 255)';
  };
  return [...document.querySelectorAll('.chart polyline, .swatch line')]
    .filter(el => el.getClientRects().length)
    .map(el => [getComputedStyle(el).stroke, ground(el.closest('svg'))]);
}"""


def _hex(rgb: str) -> str:
    channels = [int(float(v)) for v in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3]]
    return "#" + "".join(f"{c:02x}" for c in channels)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_players_line_stands_3_to_1_against_the_chart(
        browser: Browser, tmp_path: Path, scheme: t.Literal["light", "dark"]) -> None:
    """1.4.11: on a chart of eight players (every colour of the palette), each line
    and its swatch in the table beside it, in the colours Chromium draws, stand at
    least 3:1 against what they are drawn on, whichever theme the reader's system
    asks for; and the colours drawn are those of aces.colours."""
    log, page_path = tmp_path / "eight.jsonl", tmp_path / "eight.html"
    played = run("play", "--players", "A,B,C,D,E,F,G,H", "--seed", "3", "-o", str(log))
    assert played.exit_code == 0, played.output
    written = run("replay", str(log), "--html", str(page_path), "--lang", "nb")
    assert written.exit_code == 0, written.output
    page = visit(browser, page_path, "#roll=1", color_scheme=scheme).page
    drawn = page.evaluate(LINES)
    assert len(drawn) == 2 * len(PALETTE), drawn
    assert {_hex(line) for line, _ in drawn} == {colour.lower() for colour in PALETTE}
    for line, ground in drawn:
        assert contrast(_hex(line), _hex(ground)) >= 3, (line, ground)


#: How far the page scrolls sideways, and every element cut off at the right
#: edge that is not inside a box that scrolls sideways itself (a table's).
REFLOW: t.Final = """() => {
  const width = document.documentElement.clientWidth;
  const scrolls = el => {
    for (let up = el.parentElement; up; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (['auto', 'scroll'].includes(style.overflowX)) return true;
    }
    return false;
  };
  const cut = [...document.body.querySelectorAll('*')]
    .filter(el => el.getClientRects().length && !scrolls(el))
    .filter(el => el.getBoundingClientRect().right > width + 1
                  || (el.scrollWidth > el.clientWidth + 1
                      && getComputedStyle(el).overflowX === 'hidden'))
    .map(el => el.outerHTML.slice(0, 80));
  return {sideways: document.documentElement.scrollWidth - width, cut};
}"""


@pytest.mark.parametrize("name", ["pot", "five", "session", "simulation", "simulation-five"])
@pytest.mark.parametrize(("width", "height", "zoom"), [(320, 640, 1), (640, 450, 2)],
                         ids=["320px", "zoom-200"])
def test_the_page_reflows_at_320_px_and_at_200_percent(
        browser: Browser, pages: dict[str, Path], name: str, width: int, height: int,
        zoom: int) -> None:
    """1.4.10 and 1.4.4: at 320 CSS px, and a 1280 px window zoomed to 200 % (640
    CSS px at twice the pixels), nothing is cut and the page does not scroll sideways."""
    fragment = "#roll=9" if name in ("pot", "five") else ""
    opened = visit(browser, pages[name], fragment, width=width, height=height, scale=zoom)
    page = opened.page
    if name.startswith("simulation"):
        page.click("#run")
        page.wait_for_selector("#rows tr")
    found = page.evaluate(REFLOW)
    assert found["sideways"] <= 0, found
    assert found["cut"] == [], found
    without = visit(browser, pages[name], width=width, height=height, scale=zoom,
                    script="blocked")
    found = without.page.evaluate(REFLOW)
    assert found["sideways"] <= 0, found
    assert found["cut"] == [], found


def test_the_dice_and_each_roll_on_the_chart_are_named(browser: Browser,
                                                       pages: dict[str, Path]) -> None:
    """1.1.1 and 4.1.2: the dice are a picture named by the roll, and each roll on
    the chart is a link named by its moment and its dice, in the page's language."""
    opened = visit(browser, pages["pot"], "#roll=7&lang=nb")
    page = opened.page
    assert page.get_by_role("img", name="Ada kaster 4 og 4", exact=True).count() == 1
    count = page_data(pages["pot"])["games"][0]["rolls"]
    link = page.get_by_role("link", name=f"Kast 8 av {len(count)}: Bo kaster 6 og 4",
                            exact=True)
    assert link.count() == 1
    assert link.get_attribute("href") == "#roll=8"
    page.select_option("#language", "nn")
    assert page.get_by_role("img", name="Ada kastar 4 og 4", exact=True).count() == 1
    assert page.get_by_role("link", name=f"Kast 8 av {len(count)}: Bo kastar 6 og 4",
                            exact=True).count() == 1
    page.select_option("#language", "en")
    assert page.get_by_role("img", name="Ada rolls 4 and 4", exact=True).count() == 1
    # Before the first roll there are no dice, and nothing named.
    page.keyboard.press("Home")
    assert page.get_attribute("#dice", "role") is None
    # The chart says what it is and how to read it; the table beside it holds the
    # chances it draws, at the roll opened.
    chart = page.get_by_role("group", name="The chances over the game", exact=True)
    assert chart.count() == 1
    hint = page.inner_text("#chart-hint-0")
    assert chart.get_attribute("aria-describedby") == "chart-hint-0"
    assert "click a roll" in hint
    # The five-dice game names all five dice, without a script too.
    five = visit(browser, pages["five"], "#roll=1&lang=nb").page
    assert five.get_by_role("img", name="Ada kaster 2, 5, 3, 2 og 6", exact=True).count() == 1
    plain = visit(browser, pages["five"], script="blocked").page
    assert plain.get_by_role("link", name="Kast 1 av "
                             f"{len(page_data(pages['five'])['games'][0]['rolls'])}:"
                             " Ada kaster 2, 5, 3, 2 og 6", exact=True).count() == 1


def _hash(page: Page) -> str:
    return t.cast("str", page.evaluate("location.hash"))


def test_the_replay_plays_slowly_for_less_motion_and_pauses(browser: Browser,
                                                            pages: dict[str, Path]) -> None:
    calm = visit(browser, pages["pot"], "#roll=2", reduced_motion=True).page
    assert calm.input_value("#speed") == "slow"
    transition = "getComputedStyle(document.querySelector('.rolls li')).transitionDuration"
    assert calm.evaluate(transition) == "0s"
    moving = visit(browser, pages["pot"], "#roll=2").page
    assert moving.input_value("#speed") == "normal"
    assert moving.evaluate(transition) != "0s"
    # Play, then pause: the page stays where it paused.
    moving.select_option("#speed", "fast")
    moving.click("#play")
    deadline = time.monotonic() + 10
    while _hash(moving).startswith("#roll=2&"):
        assert time.monotonic() < deadline, "the page did not play"
        moving.wait_for_timeout(50)
    assert moving.get_by_role("button", name="Pause", exact=True).count() == 1
    moving.click("#play")
    assert moving.get_by_role("button", name="Spill av", exact=True).count() == 1
    paused = _hash(moving)
    moving.wait_for_timeout(1500)  # more than two steps at the fastest speed
    assert _hash(moving) == paused


def _played(page: Page) -> str:
    return page.inner_text("#played")


def test_the_simulation_pauses_and_moves_calmly_for_less_motion(
        browser: Browser, pages: dict[str, Path]) -> None:
    opened = visit(browser, pages["simulation-five"])
    page = opened.page
    assert page.is_disabled("#pause")
    # Read in the same turn of the page as the click: a quiet machine can play
    # every game of the run in a few frames, before another call of the test.
    assert page.evaluate("() => { document.getElementById('run').click();"
                         " return document.getElementById('status')"
                         ".getAttribute('aria-busy'); }") == "true"
    page.evaluate(RUN_AND_PAUSE)  # run again, and pause
    assert page.get_attribute("#pause", "aria-pressed") == "true"
    assert page.get_attribute("#status", "aria-busy") == "false"
    held = _played(page)
    rows = len(page.query_selector_all("#rows tr"))
    page.wait_for_timeout(500)
    assert _played(page) == held
    assert len(page.query_selector_all("#rows tr")) == rows
    page.click("#pause")  # plays on, from where it was
    assert page.get_attribute("#pause", "aria-pressed") == "false"
    deadline = time.monotonic() + 60
    while _played(page) == held:
        assert time.monotonic() < deadline, "the games did not play on"
        page.wait_for_timeout(50)
    assert len(page.query_selector_all("#rows tr")) >= rows
    # With less motion, the count moves only when a row of the table is added.
    calm = visit(browser, pages["simulation"], reduced_motion=True).page
    calm.click("#run")
    seen = set()
    deadline = time.monotonic() + 120
    while calm.get_attribute("body", "data-done") is None:
        assert time.monotonic() < deadline
        seen.add(_played(calm))
        calm.wait_for_timeout(20)
    counts = [row.inner_text() for row in calm.query_selector_all("#rows th")]
    assert seen <= {*counts, "0"}, seen
    assert calm.get_attribute("#pause", "disabled") is not None
    for lang in LANGUAGES:
        calm.select_option("#language", lang)
        words = page_data(pages["simulation"])["labels"][lang]
        assert calm.inner_text("#pause") == words["pause"]
