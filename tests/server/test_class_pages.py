"""What a pupil and a teacher rely on in the live class's pages, in a real
Chromium against one ``aces class serve`` on loopback (the helpers that open,
join and play the pages are tests/classtest.py's, as test_class_in_browser.py's).

The QR code's link fills in the code, and the page suggests a name for the
group; a group switches its page's language, prompt and narration alike,
and the projector's switch leaves the groups' alone; the narration of the
last roll goes to a polite live region; every control of the pages shows
its focus, in a ring that stands 3:1 against what is behind it; a game's
end offers the next game, with JavaScript and without, and undo works
without it; a page carries on by itself when the server restarts, at the
right roll and with the group's cookie; the projector's rows say what the
groups' pages say, and the teacher's forms work when clicked; and the pages
are drawn in the replay page's colours.
"""

from __future__ import annotations

import colorsys
import io
import json
import random
import re
import typing as t
import zipfile

import pytest
import segno

from aces import colours
from aces.colours import contrast

from browser import FOCUSABLE
from classtest import (
    WAIT,
    Player,
    Pupil,
    Server,
    aces_stats,
    due_roll,
    join,
    join_on_page,
    opened,
    play_a_game,
    poll,
    roll_by_buttons,
    roll_without_script,
    state,
    undo,
)

if t.TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

    from playwright.sync_api import Browser, Page

# One server for the module, on one worker: the restart's test restarts it.
pytestmark = pytest.mark.xdist_group("class_pages")

#: The server's options: one chip each, for games of a dozen rolls.
OPTIONS: t.Final = ("--lang", "nb", "--chips", "1")


class Served:
    """The module's one server, which a test may restart on its folder and port."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.server = Server(folder, *OPTIONS)
        self.every = [self.server]

    def restart(self) -> Server:
        """The same command again on the same folder and port, once stopped."""
        assert self.server.process.poll() is not None
        self.server = Server(self.folder, *OPTIONS, "--port", str(self.server.port))
        self.every.append(self.server)
        return self.server


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    running = Served(tmp_path_factory.mktemp("pages") / "class")
    try:
        yield running
    finally:
        running.server.stop()
    for each in running.every:
        assert [line for line in each.err if line] == [], each.err


@pytest.fixture
def server(served: Served) -> Server:
    return served.server


@pytest.fixture
def open_page(browser: Browser, served: Served) -> Iterator[Callable[..., Pupil]]:
    """Opens pages on the server; every one is closed after the test (an open
    stream would hold a restart up)."""
    pages: list[Pupil] = []

    def opening(path: str, **options: t.Any) -> Pupil:
        pupil = opened(browser, served.server, path, **options)
        pages.append(pupil)
        return pupil

    yield opening
    for pupil in pages:
        pupil.context.close()
    for pupil in pages:
        assert pupil.outside == [], "no request leaves the class"
        assert pupil.errors == [], pupil.errors


def story(page: Page) -> list[str]:
    return page.locator("#main .story li").all_inner_texts()


def group_view(pupil: Pupil, server: Server, lang: str | None = None) -> dict[str, t.Any]:
    """The group's state through the API, with the token of the page's cookie
    (in ``lang``, or the group's own)."""
    cookie = cookie_of(pupil)
    group, _, token = cookie.partition(".")
    asked = {} if lang is None else {"lang": lang}
    with server.client(authorization=f"Bearer {token}") as client:
        view: dict[str, t.Any] = client.get(f"/api/v1/groups/{group}", params=asked).json()
    return view


def play_over_the_api(pupil: Pupil, server: Server, seed: int) -> None:
    """The group's game played to its end through the API with the page's token,
    quicker than on the page, where the page is not what is tested; the page is
    loaded again to show it."""
    group, _, token = cookie_of(pupil).partition(".")
    with server.client() as client:
        player = Player(client, int(group), token, group_view(pupil, server), seed)
        player.roll()
        while player.state["request"] is not None:
            player.roll()
    pupil.page.reload()


def cookie_of(pupil: Pupil) -> str:
    return next(found["value"] for found in pupil.context.cookies()
                if found["name"] == "aces_group")


def switch_language(page: Page, lang: str) -> None:
    page.select_option("header select[name=lang]", lang)
    page.locator("header form.lang button").click()
    page.locator(f'html[lang="{lang}"]').wait_for(timeout=WAIT)


# -- Joining -----------------------------------------------------------------------------


def test_the_qr_link_fills_in_the_code_and_the_page_suggests_a_label(
        open_page: Callable[..., Pupil], server: Server) -> None:
    # The browser asks for English; the link is the projector's QR code's.
    pupil = open_page(f"/join/{server.code}")
    page = pupil.page
    assert page.locator("#code").input_value() == server.code
    english = page.locator("#label").input_value()
    assert re.fullmatch(r"Group \d+", english), english
    # The page in the group's language keeps the code of the link.
    switch_language(page, "nb")
    assert page.locator("#code").input_value() == server.code
    suggested = page.locator("#label").input_value()
    assert suggested == "Gruppe " + english.split()[1]
    # Joined as suggested, with nothing typed but the players.
    page.fill("#player-0", "Kari")
    page.fill("#player-1", "Ola")
    page.locator("form.join button[type=submit]").click()
    page.wait_for_url("**/group", timeout=WAIT)
    assert page.locator("header h1").inner_text() == f"{suggested}: parti 1"
    record = json.loads((server.folder / "class.json").read_text())
    assert suggested in [group["label"] for group in record["groups"]]
    # The next group is offered the next name.
    other = open_page(f"/join/{server.code}?lang=nb")
    assert other.page.locator("#label").input_value() != suggested
    assert other.page.locator("#label").input_value().startswith("Gruppe ")


# -- Language -----------------------------------------------------------------------------


def test_a_group_switches_its_language_and_the_projector_its_own(
        open_page: Callable[..., Pupil], server: Server) -> None:
    pupil = open_page("/")
    page = pupil.page
    join_on_page(pupil, server, "Språk", ["Kari", "Ola"])
    page.wait_for_selector("body[data-ready]")
    roll_by_buttons(page, [4])
    assert "Kari kaster 4." in story(page)
    assert page.locator("#prompt").inner_text() == "Ola kaster én terning (åpningskast)"

    switch_language(page, "nn")
    assert page.locator("#prompt").inner_text() == "Ola kastar éin terning (opningskast)"
    assert "Kari kastar 4." in story(page)
    assert "Kari kaster 4." not in story(page)
    roll_by_buttons(page, [2])
    assert page.locator("#announce").inner_text() == (
        "Ola kastar 2. Kari kastar høgast med 4 og byrjar.")

    switch_language(page, "en")
    assert "Kari rolls 4." in story(page)
    assert "Ola rolls 2." in story(page)
    assert page.locator("#main .story h2").inner_text() == "The game so far"
    assert group_view(pupil, server)["lang"] == "en"

    # The projector speaks Nynorsk now; the group's page stays in English.
    projector = open_page(f"/teacher/{server.secret}")
    try:
        switch_language(projector.page, "nn")
        assert projector.page.locator("#tables-head").inner_text() == "Borda no"
        turn = projector.page.locator("#rows tr", has_text="Språk").locator("td").nth(1)
        nynorsk = group_view(pupil, server, "nn")["request"]["prompt"]
        assert turn.inner_text() == nynorsk
        page.reload()
        assert page.locator("html").get_attribute("lang") == "en"
        assert "Kari rolls 4." in story(page)
        english = page.locator("#prompt").inner_text()
        assert english == group_view(pupil, server)["request"]["prompt"] != nynorsk
        assert group_view(pupil, server)["lang"] == "en"
        switch_language(projector.page, "en")
        assert projector.page.locator("#tables-head").inner_text() == "The tables now"
        assert turn.inner_text() == english
    finally:
        switch_language(projector.page, "nb")


def test_the_last_rolls_narration_is_read_out_politely(
        open_page: Callable[..., Pupil], server: Server) -> None:
    pupil = open_page("/")
    page = pupil.page
    join_on_page(pupil, server, "Lytterne", ["Kari", "Ola", "Per"])
    page.wait_for_selector("body[data-ready]")
    announce = page.locator("#announce")
    assert announce.get_attribute("aria-live") == "polite"
    # Outside the part the script swaps, so that screen readers keep hearing it.
    assert page.locator("#main #announce").count() == 0
    roll_by_buttons(page, [5])
    assert announce.inner_text() == "Kari kaster 5."
    dice = random.Random(4)
    for _ in range(4):
        before = story(page)
        roll_by_buttons(page, [dice.randint(1, 6) for _ in range(int(state(page)["dice"]))])
        after = story(page)
        # The roll's narration, as the story tells it, and nothing else.
        assert after[:len(before)] == before
        assert announce.inner_text() == " ".join(after[len(before):])
        assert announce.get_attribute("aria-live") == "polite"


# -- Focus --------------------------------------------------------------------------------


#: The element with the focus, its outline and what the outline is drawn on: the
#: background of the nearest ancestor that has one (the outline stands off the element).
FOCUS_RING: t.Final = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const style = getComputedStyle(el);
  let ground = null;
  for (let up = el.parentElement; up && ground === null; up = up.parentElement) {
    const colour = getComputedStyle(up).backgroundColor;
    if (colour !== 'rgba(0, 0, 0, 0)') ground = colour;
  }
  return {name: el.getAttribute('data-reach') + ' '
                + (el.id || el.getAttribute('href') || el.outerHTML.slice(0, 60)),
          style: style.outlineStyle, width: parseFloat(style.outlineWidth),
          colour: style.outlineColor, ground: ground || 'rgb(255, 255, 255)'};
}"""


def hex_of(css: str) -> str:
    """``rgb(r, g, b)`` or ``rgba(r, g, b, a)`` as ``#rrggbb``, blended on paper."""
    found = re.fullmatch(r"rgba?\((\d+), (\d+), (\d+)(?:, ([\d.]+))?\)", css)
    assert found is not None, css
    solid = "#" + "".join(f"{int(value):02x}" for value in found.groups()[:3])
    alpha = float(found.group(4)) if found.group(4) is not None else 1.0
    return colours.blend(solid, alpha)


def tab_through(page: Page) -> list[str]:
    """Tab from the top of the page until the focus leaves it: every element
    reached, each of which must show a ring of 2 px or more that stands 3:1
    against what it is drawn on (WCAG 2.4.7, 1.4.11)."""
    for _ in range(200):  # out of the page first, so that Tab starts at its top
        if page.evaluate("document.activeElement === document.body"):
            break
        page.keyboard.press("Tab")
    reached: list[str] = []
    for _ in range(200):
        page.keyboard.press("Tab")
        ring = page.evaluate(FOCUS_RING)
        if ring is None or (reached and ring["name"] == reached[0]):
            break
        name = ring["name"]
        assert ring["style"] not in ("none", "auto"), f"no outline of its own on {name}"
        assert ring["width"] >= 2, f"an outline of {ring['width']} px on {name}"
        ratio = contrast(hex_of(ring["colour"]), hex_of(ring["ground"]))
        assert ratio >= 3, f"the focus ring of {name} stands {ratio:.2f}:1 on its ground"
        reached.append(name)
    return reached


#: What the keyboard cannot reach though it has a box: the content of a closed
#: ``<details>`` (the projector's form that takes a game out), by its mark.
_FOLDED: t.Final = """() => [...document.querySelectorAll('details:not([open]) [data-reach]')]
  .filter(el => el.tagName !== 'SUMMARY' || el.parentElement.tagName !== 'DETAILS')
  .map(el => el.getAttribute('data-reach'))"""


def every_control_shows_its_focus(page: Page) -> list[str]:
    """Every control the page has is reached by Tab, and shows its focus."""
    expected = page.evaluate(FOCUSABLE)
    folded = set(page.evaluate(_FOLDED))
    expected = [name for name in expected if name.split(" ", 1)[0] not in folded]
    reached = tab_through(page)
    assert sorted(reached) == sorted(expected)
    return reached


#: Resolves once the page's main part has not changed for half a second (at most ten).
_QUIET: t.Final = """() => new Promise(done => {
  let timer = setTimeout(done, 500);
  const watching = new MutationObserver(() => {
    clearTimeout(timer);
    timer = setTimeout(() => { watching.disconnect(); done(); }, 500);
  });
  watching.observe(document.body, {subtree: true, childList: true});
  setTimeout(() => { watching.disconnect(); done(); }, 10000);
})"""


def settled(projector: Page) -> None:
    """The projector once its stream has caught up with the class (it goes over
    the whole class's feed first, putting each row in place again)."""
    projector.wait_for_selector("body[data-pooled]")
    projector.evaluate(_QUIET)


def test_every_control_of_the_class_pages_shows_its_focus(
        open_page: Callable[..., Pupil], server: Server) -> None:
    joining = open_page("/")
    reached = every_control_shows_its_focus(joining.page)
    for field in ("code", "label", "player-0", "player-5"):
        assert any(name.endswith(" " + field) for name in reached), (field, reached)

    pupil = open_page("/")
    join_on_page(pupil, server, "Tastene", ["Kari", "Ola"])
    page = pupil.page
    page.wait_for_selector("body[data-ready]")
    play_over_the_api(pupil, server, seed=3)  # for the projector's form of its games
    roll_by_buttons(page, [3])  # and an undo button to reach
    reached = every_control_shows_its_focus(page)
    faces = [name for name in reached if 'class="face"' in name]
    assert len(faces) == 6, reached
    assert any(name.endswith(" notation") for name in reached), reached
    # The faces are pressed with the keyboard alone.
    page.focus("#main button.face[value='5']")
    before = state(page)["seq"]
    page.keyboard.press("Enter")
    page.locator(f'#main[data-seq]:not([data-seq="{before}"])').wait_for(timeout=WAIT)
    assert "Ola kaster 5." in story(page)

    projector = open_page(f"/teacher/{server.secret}")
    settled(projector.page)
    reached = every_control_shows_its_focus(projector.page)
    assert any("<summary" in name for name in reached), reached


# -- The next game, and undo without a script -----------------------------------------------


@pytest.mark.parametrize("script", [True, False], ids=["script", "no-script"])
def test_a_games_end_offers_the_next_game_and_undo_works(
        open_page: Callable[..., Pupil], server: Server, script: bool) -> None:
    pupil = open_page("/", script=script)
    page = pupil.page
    join_on_page(pupil, server, f"Neste {'med' if script else 'uten'}", ["Kari", "Ola"])
    roll = roll_by_buttons if script else roll_without_script
    if script:
        page.wait_for_selector("body[data-ready]")

    # A roll taken back: the page asks for that roll again, and its story forgets it.
    asked = page.locator("#prompt").inner_text()
    told = story(page)
    roll(page, [6])
    assert story(page)[-1] == "Kari kaster 6."
    assert page.locator("#prompt").inner_text() != asked
    if script:
        undo(page)
    else:
        page.locator("#main form.undo button").click()
        page.wait_for_load_state()
    assert page.locator("#prompt").inner_text() == asked
    # The story says the roll was taken back.
    assert story(page)[:len(told) + 1] == [*told, "Kari kaster 6."]
    assert story(page)[len(told) + 1].startswith("Angret: Kari kastet 6, men det kastet er"
                                                 " tatt tilbake")
    assert group_view(pupil, server)["request"]["player"] == "Kari"

    # The game to its end: on the page with its script, which swaps in the answer
    # of the last roll; without it every answer is the page loaded anew, as here.
    # (Seeds of their own: two logs alike, aces stats would pool as one.)
    if script:
        play_a_game(page, roll, seed=5)
    else:
        play_over_the_api(pupil, server, seed=6)
    main = page.locator("#main")
    assert main.locator("p.notice").inner_text() == "Partiet er over."
    assert main.locator("h2").first.inner_text() == "Neste parti: parti 2"
    assert state(page)["over"] == "1"
    assert state(page)["game"] == "2"
    following = due_roll(pupil, server)
    assert page.locator("#prompt").inner_text() == following["prompt"]
    roll(page, [4])
    assert (state(page)["over"], state(page)["game"]) == ("0", "2")
    assert page.locator("header h1").inner_text().endswith(": parti 2")
    assert story(page)[0].startswith("Ess i potten, parti 2: ")
    assert story(page)[-1] == "Kari kaster 4."
    view = group_view(pupil, server)
    assert (view["game"], view["games_finished"]) == (2, 1)


# -- A restart -----------------------------------------------------------------------------


def test_the_page_carries_on_by_itself_after_the_server_restarts(
        open_page: Callable[..., Pupil], served: Served) -> None:
    server = served.server
    pupil = open_page("/")
    page = pupil.page
    join_on_page(pupil, server, "Omstart", ["Kari", "Ola"])
    page.wait_for_selector("body[data-ready]")
    roll_by_buttons(page, [2])
    cookie = cookie_of(pupil)
    seq = int(state(page)["seq"])
    log = server.folder / group_view(pupil, server)["log"]

    assert server.stop() == 130
    try:
        # A roll while the server is down: the page says it is trying, and goes on.
        page.locator("#main button.face[value='5']").click()
        page.locator("#status", has_text="Ingen svar fra klassen; prøver igjen …").wait_for(
            timeout=WAIT)
        assert state(page)["seq"] == str(seq)
    finally:
        again = served.restart()
    assert (again.base, again.code, again.secret) == (server.base, server.code, server.secret)
    # The roll sent again lands once the server is back, right after the last.
    page.locator(f'#main[data-seq]:not([data-seq="{seq}"])').wait_for(timeout=3 * WAIT)
    assert page.url.endswith("/group")
    assert page.locator("#status").inner_text() == ""
    assert "Ola kaster 5." in story(page)
    assert cookie_of(pupil) == cookie
    # The browser's own word for each request that found no server, and nothing else.
    assert pupil.errors
    assert all(error.startswith("Failed to load resource: net::ERR_") for error in pupil.errors)
    pupil.errors.clear()
    # The next roll follows it, and each roll is in the log once, in order.
    after = state(page)["seq"]
    roll_by_buttons(page, [1] * int(state(page)["dice"]))
    view = group_view(pupil, again)
    assert view["seq"] == int(state(page)["seq"]) > int(after)
    rolled = [line for line in map(json.loads, log.read_bytes().splitlines())
              if line["type"] == "rolled"]
    assert [line["dice"] for line in rolled] == [[2], [5], [1] * len(rolled[-1]["dice"])]
    page.reload()
    assert page.url.endswith("/group")
    assert cookie_of(pupil) == cookie


# -- The projector ------------------------------------------------------------------------


def row_of(projector: Page, label: str) -> list[str]:
    row = projector.locator("#rows tr", has_text=label)
    return [row.locator("th").inner_text(), *row.locator("td").all_inner_texts()]


def holding(page: Page) -> dict[str, str]:
    """The group's table, as its page shows it: each player's chips, and the pot."""
    rows = page.locator("#main .holding tbody tr")
    held = {}
    for number in range(rows.count()):
        name = rows.nth(number).locator("th").inner_text().split(" (")[0]
        held[name] = rows.nth(number).locator("td").inner_text()
    return held


def test_the_projectors_rows_and_the_teachers_forms(
        open_page: Callable[..., Pupil], server: Server) -> None:
    projector = open_page(f"/teacher/{server.secret}", width=1600)
    teacher = projector.page
    teacher.wait_for_selector("body[data-ready]")
    pupil = open_page("/")
    page = pupil.page
    join_on_page(pupil, server, "Tavla", ["Kari", "Ola", "Per"])
    page.wait_for_selector("body[data-ready]")
    play_over_the_api(pupil, server, seed=8)
    roll_by_buttons(page, [3])
    roll_by_buttons(page, [5])

    def matches() -> bool:
        _, game, turn, table, over, _ = row_of(teacher, "Tavla")
        held = holding(page)
        return (game == state(page)["game"] == "2" and over == "1"
                and turn == page.locator("#prompt").inner_text()
                and all(f"{name} {count}" in table for name, count in held.items()
                        if name != "I potten")
                and table.endswith(f"i potten: {held['I potten']}."))

    # Live, without the projector being loaded again.
    try:
        poll(matches)
    except AssertionError:
        raise AssertionError((row_of(teacher, "Tavla"), holding(page), state(page),
                              page.locator("#prompt").inner_text())) from None
    turn = page.locator("#prompt").inner_text()
    assert turn.startswith("Per kaster")

    # Closed: the group's page says so and takes no roll; opened again, it does.
    row = teacher.locator("#rows tr", has_text="Tavla")
    row.locator("form[action$='/close'] button").click()
    poll(lambda: row_of(teacher, "Tavla")[2] == "Stengt")
    page.reload()
    assert page.locator("#main p.notice").inner_text() == "Læreren har stengt denne gruppen."
    assert page.locator("#main form.roll").count() == 0
    assert row.locator("form[action$='/close'] button").inner_text() == "Åpne igjen"
    row.locator("form[action$='/close'] button").click()
    poll(lambda: row_of(teacher, "Tavla")[2] == turn)
    page.reload()
    roll_by_buttons(page, [2])

    # Game 1 taken out: the pooled numbers change as aces stats says.
    pooled = aces_stats(server.folder)
    try:
        poll(lambda: json.loads(teacher.locator("body").get_attribute("data-pooled")
                                or "null") == pooled)
    except AssertionError:
        shown = json.loads(teacher.locator("body").get_attribute("data-pooled") or "null")
        raise AssertionError((json.dumps(shown)[:3000], json.dumps(pooled)[:3000])) from None
    row.locator("details.exclude summary").click()
    row.locator("details.exclude input[name=game]").fill("1")
    row.locator("details.exclude button").click()
    poll(lambda: "Tatt ut: 1" in row_of(teacher, "Tavla")[4])
    expected = aces_stats(server.folder)
    assert expected != pooled
    poll(lambda: json.loads(teacher.locator("body").get_attribute("data-pooled")
                            or "null") == expected)

    # The logs, downloaded: every log as it is on the disk, and the results.
    with teacher.expect_download() as downloading:
        teacher.locator(".controls a[href$='/download']").click()
    archive = zipfile.ZipFile(io.BytesIO(downloading.value.path().read_bytes()))
    logs = sorted(path for path in server.folder.glob("*.jsonl"))
    names = archive.namelist()
    for log in logs:
        found = next(name for name in names if name.endswith(log.name))
        assert archive.read(found) == log.read_bytes()
    assert any(name.endswith(".csv") for name in names)

    # The group's games, as the replay page.
    row.locator("a[href$='/replay']").click()
    teacher.wait_for_url("**/replay#**", timeout=WAIT)
    teacher.wait_for_selector("body[data-ready]")
    assert "Kari, Ola og Per" in teacher.title()
    assert teacher.locator("#position").count() == 1

    # A game played to its end with no projector open; a projector opened on the
    # quiet class then shows the class as it is (and goes on showing it).
    play_over_the_api(pupil, server, seed=10)
    expected = aces_stats(server.folder)
    fresh = open_page(f"/teacher/{server.secret}").page
    poll(lambda: json.loads(fresh.locator("body").get_attribute("data-pooled")
                            or "null") == expected)


def drawn_modules(path: str) -> set[tuple[int, int]]:
    """The dark modules of segno's SVG path (``M2 2.5h7m2 0h1m-25 1h1``...):
    each ``h`` a run of them along the row the pen is on, in the code's units."""
    x = y = 0.0
    dark: set[tuple[int, int]] = set()
    for command, numbers in re.findall(r"([MmHh])([-0-9. ]+)", path):
        values = [float(value) for value in numbers.split()]
        if command == "M":
            x, y = values
        elif command == "m":
            x, y = x + values[0], y + values[1]
        else:
            run = values[0] if command == "h" else values[0] - x
            dark |= {(int(y), int(x) + step) for step in range(int(run))}
            x += run
    return dark


def test_the_projectors_qr_code_is_the_link_the_pupils_join_by(
        open_page: Callable[..., Pupil], server: Server) -> None:
    teacher = open_page(f"/teacher/{server.secret}").page
    drawn = drawn_modules(teacher.locator("figure.qr svg path.qrline").get_attribute("d") or "")
    link = f"{server.base}/join/{server.code}"
    assert teacher.locator("figure.qr svg").get_attribute("role") == "img"

    def code_of(text: str) -> set[tuple[int, int]]:
        matrix = segno.make(text, error="m").matrix
        border = min(row for row, _ in drawn)
        return {(row + border, column + border) for row, line in enumerate(matrix)
                for column, module in enumerate(line) if module}

    assert drawn == code_of(link)
    assert drawn != code_of(f"{server.base}/join/XXXXXX")


def chart_words(page: Page) -> list[float]:
    """The size each word of the pool's charts is drawn at, in CSS pixels, once
    the stream has put the pool in place (it puts it in place again as it goes)."""
    sizes: list[float] = []

    def measured() -> bool:
        sizes[:] = page.evaluate("""() => Array.from(document.querySelectorAll(
            '#pool svg.chart text'),
            text => text.getScreenCTM().a * parseFloat(getComputedStyle(text).fontSize))""")
        return bool(sizes)

    poll(measured)
    return sizes


def test_the_projectors_charts_are_drawn_for_the_back_row(
        open_page: Callable[..., Pupil], server: Server) -> None:
    """The pool's charts grow with the projector's width: no word of theirs is
    smaller than the projector's own text, whatever the screen."""
    with server.client() as client:
        group, token, state_now = join(client, server.code, "Bakerst", ["Ada", "Bo", "Cy"])
        player = Player(client, group, token, state_now, seed=21)
        while player.state["games_finished"] < 1:
            player.roll()
    for width in (1024, 1920):
        teacher = open_page(f"/teacher/{server.secret}", width=width).page
        sizes = chart_words(teacher)
        body = teacher.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
        assert min(sizes) >= body, (width, min(sizes), body)


def test_a_row_drawn_again_keeps_the_teachers_place_in_it(
        open_page: Callable[..., Pupil], server: Server) -> None:
    """A group's row is drawn again at each of its rolls: a teacher on one of
    its controls stays there, and the fold they opened stays open."""
    teacher = open_page(f"/teacher/{server.secret}", width=1600).page
    teacher.wait_for_selector("body[data-ready]")
    pupil = open_page("/")
    join_on_page(pupil, server, "Fokus", ["Kari", "Ola"])
    pupil.page.wait_for_selector("body[data-ready]")
    play_over_the_api(pupil, server, seed=12)  # a game to take out
    pupil.page.wait_for_selector("body[data-ready]")
    roll_by_buttons(pupil.page, [3])
    row = teacher.locator("#rows tr", has_text="Fokus")
    poll(lambda: row.locator("details.exclude").count() == 1)
    settled(teacher)
    row.locator("details.exclude summary").click()
    row.locator("details.exclude input[name=game]").focus()
    turn = row_of(teacher, "Fokus")[2]
    roll_by_buttons(pupil.page, [4])
    poll(lambda: row_of(teacher, "Fokus")[2] != turn)
    assert row.locator("details.exclude").evaluate("fold => fold.open")
    assert teacher.evaluate("document.activeElement.name") == "game"
    assert teacher.evaluate("document.activeElement.closest('tr').id") == row.get_attribute("id")
    # And on the row's first button, through another roll.
    row.locator("form[action$='/close'] button").focus()
    turn = row_of(teacher, "Fokus")[2]
    roll_by_buttons(pupil.page, [2] * int(state(pupil.page)["dice"]))
    poll(lambda: row_of(teacher, "Fokus")[2] != turn)
    assert teacher.evaluate("document.activeElement.closest('form').action").endswith("/close")


# -- Colours -------------------------------------------------------------------------------


#: Every colour the page draws with: each element's text, background and
#: borders, and each shape's fill and stroke, with an element that uses it.
COLOURS: t.Final = """() => {
  const found = {};
  const add = (colour, el, what) => {
    if (!colour || colour === 'none' || colour.startsWith('url(')
        || colour === 'rgba(0, 0, 0, 0)') return;
    found[colour] = found[colour] || what + ' of ' + el.tagName.toLowerCase()
      + (el.id ? '#' + el.id : '') + (typeof el.className === 'string' && el.className
                                      ? '.' + el.className : '');
  };
  for (const el of document.querySelectorAll('body, body *')) {
    const s = getComputedStyle(el);
    if (s.display === 'none') continue;
    add(s.color, el, 'text');
    add(s.backgroundColor, el, 'background');
    for (const side of ['Top', 'Right', 'Bottom', 'Left']) {
      if (s['border' + side + 'Style'] !== 'none' && parseFloat(s['border' + side + 'Width']) > 0)
        add(s['border' + side + 'Color'], el, 'border');
    }
    if (el instanceof SVGElement) {
      add(s.fill, el, 'fill');
      add(s.stroke, el, 'stroke');
    }
  }
  return found;
}"""
#: The replay page's own colours, as its style sheets define them.
PROPERTIES: t.Final = """() => Object.fromEntries(['--ink', '--paper', '--soft', '--line', '--mark']
  .map(name => [name, getComputedStyle(document.documentElement).getPropertyValue(name).trim()]))"""


def hue(colour: str) -> float:
    red, green, blue = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return colorsys.rgb_to_hls(red, green, blue)[0] * 360


def lightness(colour: str) -> float:
    red, green, blue = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return colorsys.rgb_to_hls(red, green, blue)[1]


def test_the_class_pages_are_drawn_in_the_replay_pages_colours(
        open_page: Callable[..., Pupil], server: Server) -> None:
    pupil = open_page("/")
    join_on_page(pupil, server, "Fargene", ["Kari", "Ola"])
    page = pupil.page
    page.wait_for_selector("body[data-ready]")
    play_over_the_api(pupil, server, seed=9)  # for the pool's charts
    roll_by_buttons(page, [6])
    page.fill("#notation", "9")
    page.press("#notation", "Enter")
    page.wait_for_selector("#refused")  # the refusal's colours too
    joining = open_page("/")
    projector = open_page(f"/teacher/{server.secret}")
    teacher = projector.page
    teacher.wait_for_selector("body[data-ready]")
    try:
        poll(lambda: teacher.locator("#pool svg").count() > 0)
    except AssertionError:
        raise AssertionError(teacher.locator("#pool").inner_html()[:2000]) from None
    replay = open_page(teacher.locator("#rows tr", has_text="Fargene")
                       .locator("a[href$='/replay']").get_attribute("href") or "")
    replay.page.wait_for_selector("body[data-ready]")

    # The same custom properties as the replay page's style.
    properties = replay.page.evaluate(PROPERTIES)
    assert all(properties.values()), properties
    for shown in (joining.page, page, teacher):
        assert shown.evaluate(PROPERTIES) == properties

    # Every colour a class page draws with is a grey, one of the replay page's own,
    # a colour of the package's colour-blind-safe palette (aces.colours), or a light
    # tint of one of them.
    package = {value.lower() for value in (*colours.PALETTE, colours.EXACT, colours.SIMULATED,
                                           colours.OTHER, colours.BAND, colours.BAND_EDGE,
                                           colours.BAR, colours.HOVER, colours.PAPER)}
    own = {hex_of(colour) for colour in replay.page.evaluate(COLOURS)}
    own |= {colours.blend(value, 1) for value in properties.values()}
    hues = [hue(value) for value in package if lightness(value) < 0.9 and value != "#000000"]
    for shown in (joining.page, page, teacher):
        for css, where in shown.evaluate(COLOURS).items():
            colour = hex_of(css)
            grey = len({colour[1:3], colour[3:5], colour[5:7]}) == 1
            tint = lightness(colour) >= 0.85 and any(
                min(abs(hue(colour) - each), 360 - abs(hue(colour) - each)) <= 8
                for each in hues)
            assert grey or colour in own or colour in package or tint, (
                f"{colour} ({where}) on {shown.url} is not of the replay page's palette")
