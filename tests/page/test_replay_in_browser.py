"""The replay page in a real Chromium: offline, keyboard, fragment, languages,
the very text of ``aces replay``, the package's own chances, and no script."""

from __future__ import annotations

import os
import time
import typing as t
from pathlib import Path

import pytest
from walktest import settled

from aces.chances import odds_for
from aces.i18n import LANGUAGES
from aces.page.replay import shown

from browser import Visit, visit
from clitest import run

if t.TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
HOSTILE = ("<img src=x onerror=alert(1)>", "</script>", "Cy")


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Pages of a few logs, written once for the module."""
    folder = tmp_path_factory.mktemp("pages")
    made: dict[str, Path] = {}
    hostile = folder / "hostile.jsonl"
    played = run("play", "--players", ",".join(HOSTILE), "--seed", "2", "-o", str(hostile))
    assert played.exit_code == 0, played.output
    for name, log in (("pot", REPLAYS / "four-players.jsonl"),
                      ("five", REPLAYS / "five-dice-one-die.jsonl"),
                      ("session", REPLAYS / "session.jsonl"),
                      ("hostile", hostile)):
        page = folder / f"{name}.html"
        result = run("replay", str(log), "--html", str(page))
        assert result.exit_code == 0, result.output
        made[name] = page
    return made


def _lines(page: Page) -> list[str]:
    return [p.inner_text() for p in page.query_selector_all("#narration p")]


def _fragment(page: Page) -> str:
    return t.cast("str", page.evaluate("location.hash"))


def _count(page: Page, game: int = 0) -> int:
    return t.cast("int", page.evaluate(
        f"JSON.parse(document.getElementById('aces-data').textContent).games[{game}].rolls.length"))


def _until(page: Page, fragment: str, timeout: float = 5.0) -> None:
    """Wait for the fragment (the page's policy forbids the evaluated predicates
    of Playwright's own waiting)."""
    deadline = time.monotonic() + timeout
    while not _fragment(page).startswith(fragment):
        assert time.monotonic() < deadline, f"still {_fragment(page)}, not {fragment}"
        page.wait_for_timeout(50)


def _clean(opened: Visit) -> None:
    assert opened.requests == []
    assert opened.errors == []
    assert opened.dialogs == []


@pytest.mark.parametrize(("name", "log"), [("pot", "four-players.jsonl"),
                                           ("five", "five-dice-one-die.jsonl")])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_roll_shows_what_replay_prints(browser: Browser, pages: dict[str, Path],
                                             name: str, log: str, lang: str) -> None:
    opened = visit(browser, pages[name], f"#roll=0&lang={lang}")
    page = opened.page
    told = _lines(page)
    for _ in range(_count(page)):
        page.keyboard.press("ArrowRight")
        told += _lines(page)
    printed = run("replay", str(REPLAYS / log), "--lang", lang).stdout.splitlines()
    assert told == printed
    _clean(opened)


def test_the_chances_shown_are_the_packages(browser: Browser, pages: dict[str, Path]) -> None:
    log = REPLAYS / "four-players.jsonl"
    header, states = settled(log)
    odds = odds_for(header)
    opened = visit(browser, pages["pot"], "#roll=1&lang=nb")
    page = opened.page
    for k, state in enumerate(states, start=1):
        if k > 1:
            page.keyboard.press("ArrowRight")
        cells = [c.inner_text() for c in page.query_selector_all("#seats td:nth-child(3)")]
        assert cells == shown(odds.chances(state), "nb"), f"roll {k}"
        held = [c.inner_text() for c in page.query_selector_all("#seats td:nth-child(2)")]
        assert held == [str(chips) for chips in state.chips]
        assert page.inner_text("#middle") == str(state.pot)
    _clean(opened)


@pytest.mark.parametrize(("name", "held", "middle"), [
    ("pot", {"en": "Chips", "nb": "Sjetonger", "nn": "Sjetongar"},
     {"en": "In the pot", "nb": "I potten", "nn": "I potten"}),
    ("five", {"en": "Dice", "nb": "Terninger", "nn": "Terningar"},
     {"en": "In the centre", "nb": "I midten", "nn": "I midten"}),
])
def test_the_tables_headings_name_what_the_game_holds(
    browser: Browser, pages: dict[str, Path], name: str, held: dict[str, str],
    middle: dict[str, str],
) -> None:
    """Chips and the pot, or dice and the centre, in every language: the page
    reads them from the game's registration, never from its name."""
    opened = visit(browser, pages[name], "#roll=1&lang=en")
    page = opened.page
    for lang in LANGUAGES:
        page.select_option("#language", lang)
        assert (page.inner_text("#held-head"), page.inner_text("#middle-head")) == (
            held[lang], middle[lang])
    _clean(opened)


def test_keyboard_and_fragment(browser: Browser, pages: dict[str, Path]) -> None:
    opened = visit(browser, pages["pot"], "#roll=17&lang=nb")
    page = opened.page
    count = _count(page)
    assert _fragment(page) == "#roll=17&lang=nb"
    assert page.inner_text("#position") == f"Kast 17 av {count}"
    assert page.get_attribute("html", "lang") == "nb"
    page.keyboard.press("ArrowRight")
    assert _fragment(page) == "#roll=18&lang=nb"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert _fragment(page) == "#roll=16&lang=nb"
    page.keyboard.press("End")
    assert _fragment(page) == f"#roll={count}&lang=nb"
    page.keyboard.press("ArrowRight")
    assert _fragment(page) == f"#roll={count}&lang=nb"
    page.keyboard.press("Home")
    assert _fragment(page) == "#roll=0&lang=nb"
    # A reload opens the same moment.
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    shown_before = _lines(page)
    page.reload()
    page.wait_for_selector("body[data-ready]")
    assert _fragment(page) == "#roll=2&lang=nb"
    assert _lines(page) == shown_before
    # The Play button, reached by the keyboard, plays at the fastest speed and pauses:
    # its name says what it does next ("Spill av", "Pause"), as the WAI-ARIA Authoring
    # Practices ask of a toggle whose name changes (and so with no aria-pressed).
    page.select_option("#speed", "fast")
    page.focus("#play")
    page.keyboard.press("Space")
    assert page.get_by_role("button", name="Pause", exact=True).count() == 1
    assert page.get_attribute("#play", "aria-pressed") is None
    deadline = time.monotonic() + 10
    while _fragment(page) == "#roll=2&lang=nb":  # played on (a busy machine may skip a roll)
        assert time.monotonic() < deadline, "the page did not play"
        page.wait_for_timeout(50)
    page.keyboard.press("Enter")
    assert page.get_by_role("button", name="Spill av", exact=True).count() == 1
    assert page.get_attribute("#play", "aria-pressed") is None
    # A click on a roll of the list, and on the chart, opens it.
    page.click("#roll-0-5 a")
    _until(page, "#roll=5&lang=nb")
    page.click("#chart-0 a[href='#roll=9'] rect", force=True)
    _until(page, "#roll=9&lang=nb")
    assert page.get_attribute("#roll-0-9", "aria-current") == "true"
    _clean(opened)


def test_the_language_switch(browser: Browser, pages: dict[str, Path]) -> None:
    opened = visit(browser, pages["pot"], "#roll=4&lang=en")
    page = opened.page
    english = _lines(page)
    data = page.evaluate("JSON.parse(document.getElementById('aces-data').textContent)")
    options = [o.get_attribute("value") for o in page.query_selector_all("#language option")]
    assert options == list(LANGUAGES)
    for lang in LANGUAGES:
        page.select_option("#language", lang)
        assert _lines(page) == data["games"][0]["rolls"][3]["text"][lang]
        assert _fragment(page) == f"#roll=4&lang={lang}"
        assert page.get_attribute("html", "lang") == lang
        assert page.inner_text("#next") == data["labels"][lang]["next"]
        listed = [p.inner_text() for p in page.query_selector_all("#roll-0-4 .text p")]
        assert listed == data["games"][0]["rolls"][3]["text"][lang]
    page.select_option("#language", "en")
    assert _lines(page) == english
    # The narration is announced; the table has headers a screen reader reads.
    assert page.get_attribute("#narration", "aria-live") == "polite"
    assert len(page.query_selector_all("#seats th[scope=row]")) == 4
    _clean(opened)


def test_without_a_script_the_page_is_the_whole_game(browser: Browser,
                                                     pages: dict[str, Path]) -> None:
    opened = visit(browser, pages["pot"], script=False)
    page = opened.page
    assert not page.is_visible("#controls")
    items = page.query_selector_all(".rolls li")
    printed = run("replay", str(REPLAYS / "four-players.jsonl")).stdout.splitlines()
    told = [p.inner_text() for p in page.query_selector_all(".rolls li .text p")]
    assert told == printed
    assert len(items) == len(page.query_selector_all("#chart-0 a"))
    assert page.query_selector("#games-box") is None  # one game: nothing to pick
    _clean(opened)


def test_a_session_without_a_script_is_every_game_in_turn(browser: Browser,
                                                          pages: dict[str, Path]) -> None:
    opened = visit(browser, pages["session"], script=False)
    page = opened.page
    printed = run("replay", str(REPLAYS / "session.jsonl")).stdout.splitlines()
    told = [p.inner_text() for p in page.query_selector_all(".rolls li .text p")]
    assert told == printed
    links = page.query_selector_all("#games-box a")
    assert [link.inner_text() for link in links] == [f"Game {n} of 5" for n in range(1, 6)]
    assert len(page.query_selector_all("section.game")) == 5
    assert all(page.is_visible(f"#game-{n}") for n in range(1, 6))
    # The list of games links to each game's part of the page.
    links[2].click()
    assert _fragment(page) == "#game-3"
    top = page.evaluate("document.getElementById('game-3').getBoundingClientRect().top")
    assert abs(float(top)) < 2
    _clean(opened)


def test_a_session_offers_its_games_to_pick(browser: Browser, pages: dict[str, Path]) -> None:
    opened = visit(browser, pages["session"], "#game=2&roll=17&lang=nb")
    page = opened.page
    data = page.evaluate("JSON.parse(document.getElementById('aces-data').textContent)")
    second = data["games"][1]
    assert page.is_visible("#game-picker")
    assert not page.is_visible("#games-box")
    assert page.input_value("#game") == "1"
    assert [o.inner_text() for o in page.query_selector_all("#game option")] == [
        f"Parti {n} av 5" for n in range(1, 6)]
    assert page.inner_text("#position") == f"Kast 17 av {len(second['rolls'])}"
    assert _lines(page) == second["rolls"][16]["text"]["nb"]
    assert page.inner_text("#title") == second["start"]["text"]["nb"][0]
    # Only the game picked is shown: its chart and its list.
    assert [page.is_visible(f"#game-{n}") for n in range(1, 6)] == [
        False, True, False, False, False]
    # The picker opens another game at its start, and the fragment follows.
    page.select_option("#game", "3")
    _until(page, "#game=4&roll=0&lang=nb")
    assert page.inner_text("#title") == data["games"][3]["start"]["text"]["nb"][0]
    assert page.is_visible("#game-4")
    assert not page.is_visible("#game-2")
    page.keyboard.press("End")
    assert _fragment(page) == f"#game=4&roll={_count(page, 3)}&lang=nb"
    assert _lines(page) == data["games"][3]["rolls"][-1]["text"]["nb"]
    # A roll on the chart of this game; then a link straight to another game.
    page.click("#chart-3 a[href='#game=4&roll=2'] rect", force=True)
    _until(page, "#game=4&roll=2&lang=nb")
    page.evaluate("location.hash = '#game=5&roll=3&lang=en'")
    _until(page, "#game=5&roll=3&lang=en")
    assert page.input_value("#game") == "4"
    assert _lines(page) == data["games"][4]["rolls"][2]["text"]["en"]
    assert page.inner_text("#game option >> nth=0") == "Game 1 of 5"
    # A reload opens the same game and moment.
    page.reload()
    page.wait_for_selector("body[data-ready]")
    assert _fragment(page) == "#game=5&roll=3&lang=en"
    assert _lines(page) == data["games"][4]["rolls"][2]["text"]["en"]
    _clean(opened)


def test_names_with_markup_stay_text(browser: Browser, pages: dict[str, Path]) -> None:
    opened = visit(browser, pages["hostile"], "#roll=3")
    page = opened.page
    assert page.query_selector_all("img") == []
    names = [th.inner_text().split(" (")[0].strip()
             for th in page.query_selector_all("#seats th")]
    assert names == list(HOSTILE)
    page.keyboard.press("End")
    page.select_option("#language", "nb")
    _clean(opened)


def test_legible_on_a_phone_and_a_projector(browser: Browser, pages: dict[str, Path],
                                            tmp_path: Path) -> None:
    """Nothing wider than a phone's screen; screenshots of both kept for review
    (in ``$ACES_SCREENSHOTS`` when set)."""
    folder = Path(os.environ.get("ACES_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    for label, width, height, name, fragment in (
            ("phone", 375, 812, "pot", "#roll=12&lang=nb"),
            ("projector", 1920, 1080, "pot", "#roll=12&lang=nb"),
            ("session-phone", 375, 812, "session", "#game=3&roll=4&lang=nn")):
        opened = visit(browser, pages[name], fragment, width=width, height=height)
        page = opened.page
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        size = float(page.evaluate(
            "parseFloat(getComputedStyle(document.getElementById('narration')).fontSize)"))
        assert size >= (24 if label == "projector" else 16)
        shot = folder / f"replay-{label}.png"
        page.screenshot(path=str(shot), full_page=label != "projector")
        assert shot.stat().st_size > 10_000
        _clean(opened)
