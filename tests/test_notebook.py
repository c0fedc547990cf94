"""The notebook view: the replay page inside a sandboxed frame, and the pooled
statistics in the language asked for, each checked as HTML and, where it
runs a script, in a real Chromium."""

from __future__ import annotations

import html
import re
import time
import typing as t
from html.parser import HTMLParser

import pytest

import aces
import aces.log
import aces.results
from aces.errors import OptionError
from aces.page.html import SRCDOC_BASE

from browser import visit

if t.TYPE_CHECKING:
    from pathlib import Path

    from playwright.sync_api import Browser

HOSTILE: t.Final = ('<img src=x onerror="alert(1)">', '</iframe><script>alert(2)</script>',
                    "Cy\"'&amp;")


class Tags(HTMLParser):
    """Every start tag of a piece of HTML with its attributes (as a browser
    reads them: entities undone)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def named(self, tag: str) -> list[dict[str, str | None]]:
        return [attrs for name, attrs in self.tags if name == tag]


@pytest.fixture(scope="module")
def hostile() -> aces.api.Game:
    return aces.play(list(HOSTILE), seed=2)


def test_a_game_shows_its_replay_page_in_a_sandboxed_frame(hostile: aces.api.Game) -> None:
    shown = hostile._repr_html_()
    outside = Tags(shown)
    (frame,) = outside.named("iframe")
    # Scripts run in the frame, at an origin of their own: nothing else is allowed.
    assert frame["sandbox"] == "allow-scripts"
    # What the browser reads from the attribute is the very page aces replay --html writes,
    # made to keep its links inside the frame (its policy allows that base alone).
    assert frame["srcdoc"] == hostile.page().replace(
        "<head>\n", f"<head>\n{SRCDOC_BASE}\n", 1).replace("base-uri 'none'", "base-uri about:")
    # Nothing from the names is markup, neither in the notebook nor in the page.
    assert {name for name, _ in outside.tags} <= {
        "div", "strong", "p", "iframe", "details", "summary", "table", "thead", "tbody", "tr",
        "th", "td"}
    assert "<script" not in shown
    assert "<img" not in shown
    inside = Tags(frame["srcdoc"])
    assert not inside.named("img")
    assert len(inside.named("script")) == 2  # the page's data and its own script
    assert all(attrs.get("src") is None for attrs in inside.named("script"))
    # The frame's size is bounded, whatever the game.
    assert re.search(r"height:\d+px", t.cast("str", frame["style"]))


def test_the_page_opens_in_the_games_language(hostile: aces.api.Game) -> None:
    game = aces.play(3, seed=1)
    assert '<html lang="en">' in html.unescape(game._repr_html_())
    game.lang = "nn"
    assert '<html lang="nn">' in html.unescape(game._repr_html_())
    assert '<html lang="nb">' in game.page("no")
    with pytest.raises(OptionError, match="unknown language 'de'"):
        game.lang = "de"


def test_a_game_of_a_log_has_the_page_aces_replay_writes(tmp_path: Path) -> None:
    from clitest import run

    page = tmp_path / "game-3.html"
    result = run("replay", "replays/session.jsonl", "--html", str(page), "--game", "3")
    assert result.exit_code == 0, result.output
    game = aces.load("replays/session.jsonl")[2]
    assert game.page() == page.read_text(encoding="utf-8")


def test_a_game_of_a_session_is_told_as_that_game_of_the_session() -> None:
    session = t.cast("aces.api.Session", aces.play(["Ada", "Bo", "Cy"], seed=1, games=3))
    second, last = session[1].page(), session[2].page()
    assert "Aces in the Pot, game 2: " in second
    assert "Aces in the Pot, game 3: " in last
    # Only the last game closes the session with its verdict.
    assert "Pots won after 2 games: " in second
    assert "the most pots" not in second.split('class="rolls"')[1]
    assert "the most pots" in last.split('class="rolls"')[1]


def test_a_game_too_long_for_a_notebook_leaves_its_page_out(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = aces.play(3, seed=1)
    monkeypatch.setattr(aces.notebook, "PAGE_STEPS", len(game.steps) - 1)
    shown = game._repr_html_()
    assert "<iframe" not in shown
    assert "The replay page is left out here" in shown
    assert "<table>" in shown  # every roll is still there


def test_the_page_runs_in_its_frame_in_a_real_browser(browser: Browser, tmp_path: Path,
                                                      hostile: aces.api.Game) -> None:
    notebook = tmp_path / "notebook.html"
    hostile.lang = "nb"
    notebook.write_text("<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head>"
                        f"<body data-ready>{hostile._repr_html_()}</body></html>",
                        encoding="utf-8")
    opened = visit(browser, notebook)
    assert len(opened.page.frames) == 2
    page = opened.page.frames[1]
    page.wait_for_selector("body[data-ready]")
    assert page.inner_text("#position") == "Før første kast"
    page.click("#next")
    page.click("#next")
    assert page.inner_text("#position").startswith("Kast 2 av ")
    assert page.url == "about:srcdoc#roll=2&lang=nb"
    # A link of the page goes to that roll, inside the frame.
    page.click('.rolls a[href="#roll=5"]')
    deadline = time.monotonic() + 5
    # (The page's policy forbids the evaluated predicates of Playwright's own waiting.)
    while not page.inner_text("#position").startswith("Kast 5 av "):
        assert time.monotonic() < deadline, page.inner_text("#position")
        page.wait_for_timeout(50)
    assert page.url.startswith("about:srcdoc#roll=5")
    assert opened.page.url == opened.url
    # The names are text, never markup: no alert, no image, no request.
    assert HOSTILE[1] in page.inner_text("#seats")
    assert opened.dialogs == []
    assert opened.requests == []
    assert opened.errors == []
    # The page's script cannot reach the notebook around it.
    assert page.evaluate("(() => { try { return parent.document.title; }"
                         " catch (e) { return 'refused'; } })()") == "refused"


@pytest.mark.parametrize(("lang", "words"), [
    ("nb", ["Seire etter plass", "Hver logg ved siden av det samlede resultatet"]),
    ("nn", ["Sigrar etter plass", "Kvar logg ved sida av det samla resultatet"]),
])
def test_pooled_stats_speak_the_language_asked_for(lang: str, words: list[str]) -> None:
    logs = ["replays/class-group-1.jsonl", "replays/class-group-2.jsonl", "README.md"]
    result = aces.stats(logs, lang=lang)
    shown = html.unescape(result._repr_html_())
    for word in words:
        assert word in shown
    assert "README.md, linje 1" in shown
    assert re.search(r"\d,\d\s%", shown)  # Babel's Norwegian numbers
    for english in ("Wins by seat", "Each log", "95% interval", "pooled", "exact"):
        assert english not in shown
    assert not re.search(r"%\s+to\s", shown)  # an interval's ends, "25.9% to 26.3%"
    english = html.unescape(aces.stats(logs)._repr_html_())
    assert "Each log's 95% interval for the share of wins by seat" in english
    result.lang = "en"
    assert html.unescape(result._repr_html_()) == english


def test_each_log_shows_its_interval_in_the_notebook() -> None:
    from aces.inference import wilson

    result = aces.stats(["replays/class-group-1.jsonl", "replays/class-group-2.jsonl"])
    shown = html.unescape(result._repr_html_())
    for group in result.groups:
        for log in group.logs:
            for won in log.wins:
                low, high = wilson(won, log.games)
                assert f"{100 * low:.1f}% to {100 * high:.1f}%" in shown
    # Seat 1 of each log, and of the pool, drawn with its interval against the exact chance.
    charts = Tags(shown).named("svg")
    assert len(charts) == 2
    assert shown.count("class-group-1.jsonl</text>") == 1


@pytest.fixture(scope="module")
def five_dice_evenings(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Two sessions of the five-dice game, enough games for its tests."""
    folder = tmp_path_factory.mktemp("evenings")
    for seed in (1, 2):
        aces.play(4, game="five-dice", games=30, seed=seed).save(folder / f"{seed}.jsonl")
    return [str(folder / "1.jsonl"), str(folder / "2.jsonl")]


@pytest.mark.parametrize("lang", ["en", "nb", "nn"])
@pytest.mark.parametrize("game", ["pot", "five-dice"])
def test_the_stats_view_carries_the_tests_the_command_line_prints(
    lang: str, game: str, five_dice_evenings: list[str],
) -> None:
    from aces.reports.stats import length_test, seat_test, share_sections
    from aces.voice import Voice

    logs = (five_dice_evenings if game == "five-dice"
            else ["replays/class-group-1.jsonl", "replays/class-group-2.jsonl"])
    shares = 1 if game == "five-dice" else 2
    result = aces.stats(logs, lang=lang)
    shown = html.unescape(result._repr_html_())
    report = result.report()
    w = Voice.of(lang)
    for group in result.groups:
        # χ², its degrees of freedom and p, what was counted together, the conclusion.
        said = [*seat_test(group, w), *length_test(group.pooled.length, w)]
        assert sum("χ²" in sentence for sentence in said) >= 1
        sections = share_sections(group.pooled, w)
        assert len(sections) == shares
        for heading, sentences in sections:
            said += [heading, *sentences]
        for sentence in said:
            # The same words as aces stats prints.
            assert sentence in report, sentence
            assert f">{sentence}<" in shown, sentence


def test_the_stats_view_counts_the_logs_as_the_language_counts() -> None:
    one = aces.stats(["replays/session.jsonl"], lang="nb")
    assert html.unescape(one._repr_html_()).startswith(
        "<p>Klasseforsøket: én logg, 1 slått sammen, 0 utelatt.</p>")
    assert one.report(lang="nn").startswith("Klasseforsøket: éin logg, 1 slått saman, 0 forkasta.")
    assert one.report(lang="en").startswith("The class experiment: 1 log, 1 pooled, 0 left out.")
    assert repr(one) == "<Stats: 1 log (0 left out), 5 games in 1 group of rules>"


def test_a_log_that_cannot_be_read_is_refused_when_loaded(tmp_path: Path) -> None:
    from aces.errors import AcesError

    with pytest.raises(AcesError) as refused:
        aces.load(tmp_path / "nope.jsonl", lang="nb")
    assert str(refused.value) == (f"kan ikke lese {tmp_path / 'nope.jsonl'}: filen eller"
                                  " mappen finnes ikke")
    with pytest.raises(AcesError, match="is a folder"):
        aces.load(tmp_path)
    missing = aces.stats([str(tmp_path / "missing.jsonl")])
    assert repr(missing) == "<Stats: 1 log (1 left out), 0 games in 0 groups of rules>"


def test_a_language_not_offered_is_refused() -> None:
    with pytest.raises(OptionError, match="unknown language 'sv'"):
        aces.stats(["replays/e1-last-chip.jsonl"], lang="sv")
    result = aces.stats(["replays/e1-last-chip.jsonl"])
    result.lang = "no"
    assert result.lang == "nb"


# -- Every object's view in the language asked for -----------------------------------

#: The rolls of a game worked out by hand (the README's example): Cy starts, Bo wins.
E1: t.Final = "2/3/5/1 6/3 5/6 6/1 1/1 6/1 4/2 5/6 6/1 1/3 4/5 2"
#: Words of the views' English that no Norwegian view may hold ("no" is Nynorsk for now;
#: an option's value, "last-chip", stays as the command line spells it, and a parameter,
#: "exact=True", as Python does).
ENGLISH: t.Final = re.compile(
    r"\b(the|rolls?|games?|seats?|chances?|exact|average|wins?|lose|loses|losses|session"
    r"|every|players?|shares?|interval|simulated|stage|opening|after|starts?|holds?|of"
    r"|and|yes|on|more|left out|moment|still)\b", re.IGNORECASE)


class Shown(HTMLParser):
    """A view as a reader sees it: its text (attributes left out), and its tags."""

    def __init__(self, markup: str) -> None:
        super().__init__()
        self.text: list[str] = []
        self.tags: list[str] = []
        self.feed(markup)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        if data.strip():
            self.text.append(data.strip())

    @property
    def words(self) -> str:
        return " | ".join(self.text)


def shown(thing: object) -> Shown:
    markup = thing._repr_html_()  # type: ignore[attr-defined]
    view = Shown(markup)
    assert "script" not in view.tags
    assert "<script" not in markup.split("srcdoc=")[0]
    return view


VIEWS: t.Final[dict[str, t.Callable[[str], t.Any]]] = {
    "game": lambda lang: aces.play(["Ada", "Bo", "Cy"], dice=E1, lang=lang),
    "five-dice game": lambda lang: aces.play(["Ada", "Bo", "Cy"], game="five-dice", seed=1,
                                             lang=lang),
    "session": lambda lang: aces.play(["Ada", "Bo", "Cy"], seed=1, games=3, lang=lang),
    "log": lambda lang: aces.load("replays/session.jsonl", lang=lang),
    "odds": lambda lang: aces.odds(3, lang=lang),
    "five-dice odds": lambda lang: aces.odds(3, game="five-dice", dice_each=1, lang=lang),
    "odds of a moment": lambda lang: aces.odds(aces.play(["Ada", "Bo", "Cy"], seed=1).moments[3],
                                               lang=lang),
    "simulation": lambda lang: aces.simulate(3, games=2000, seed=1, lang=lang),
    "five-dice simulation": lambda lang: aces.simulate(3, game="five-dice", games=2000, seed=1,
                                                       dice_each=1, lang=lang),
    # Five players with five dice: the exact length takes seconds, so it waits to be asked for.
    "full five-dice simulation": lambda lang: aces.simulate(5, game="five-dice", games=300,
                                                            seed=1, lang=lang),
    # Seven players with two dice each: the exact length, but no exact chances by seat.
    "five-dice simulation of lengths": lambda lang: aces.simulate(7, game="five-dice",
                                                                  games=300, seed=1,
                                                                  dice_each=2, lang=lang),
}

#: What each view says in each language: its labels, and numbers as Babel writes them
#: (a no-break space before % and between thousands in Norwegian).
SAYS: t.Final = {
    ("game", "en"): ["Aces in the Pot, game 1: Ada, Bo, and Cy have 2 chips each.",
                     "Cy rolls highest with 5 and starts. Bo wins the pot of 5 chips."
                     " The game took 11 rolls after the opening.", "Every roll", "held after",
                     "opening", "try", "1-6"],
    ("game", "nb"): ["Ess i potten, parti 1: Ada, Bo og Cy har to sjetonger hver.",
                     "Cy kaster høyest med 5 og begynner. Bo vinner potten på fem sjetonger."
                     " Partiet varte i elleve kast etter åpningskastene.", "Alle kastene",
                     "har etterpå", "åpningskast", "forsøk", "1-6"],
    ("game", "nn"): ["Ess i potten, parti 1: Ada, Bo og Cy har to sjetongar kvar.",
                     "Cy kastar høgast med 5 og byrjar. Bo vinn potten på fem sjetongar."
                     " Partiet varte i elleve kast etter opningskasta.", "Alle kasta",
                     "har etterpå", "opningskast", "forsøk", "1-6"],
    ("five-dice game", "en"): ["Aces, game 1:", "Cy loses", "40 rolls", "Every roll"],
    ("five-dice game", "nb"): ["Femterningspillet, parti 1:", "Cy taper", "40 kast",
                               "Alle kastene"],
    ("five-dice game", "nn"): ["Femterningspelet, parti 1:", "Cy tapar", "40 kast", "Alle kasta"],
    ("session", "en"): ["A session of 3 games", "Pots won after 3 games: Ada 1, Bo 1, and Cy 1.",
                        "starter", "winner"],
    ("session", "nb"): ["En økt med tre partier",
                        "Potter vunnet etter tre partier: Ada 1, Bo 1 og Cy 1.", "begynner",
                        "vinner"],
    ("session", "nn"): ["Ei økt med tre parti",
                        "Pottar vunne etter tre parti: Ada 1, Bo 1 og Cy 1.", "byrjar", "vinnar"],
    ("log", "en"): ["A session of 5 games", "Pots won after 5 games:", "Per won the most pots"],
    ("log", "nb"): ["En økt med fem partier", "Potter vunnet etter fem partier:",
                    "Per vant flest potter"],
    ("log", "nn"): ["Ei økt med fem parti", "Pottar vunne etter fem parti:",
                    "Per vann flest pottar"],
    ("odds", "en"): ["Aces in the Pot: exact odds for 3 players", "chance to win", "33.05%",
                     "22.04 on average"],
    ("odds", "nb"): ["Ess i potten: eksakte sannsynligheter for tre spillere", "sjanse til å vinne",
                     "33,05\xa0%", "22,04 i gjennomsnitt"],
    ("odds", "nn"): ["Ess i potten: eksakte sannsyn for tre spelarar", "sjanse til å vinne",
                     "33,05\xa0%", "22,04 i gjennomsnitt"],
    ("five-dice odds", "en"): ["Aces: exact odds for 3 players", "chance to lose"],
    ("five-dice odds", "nb"): ["Femterningspillet: eksakte sannsynligheter for tre spillere",
                               "sjanse til å tape"],
    ("five-dice odds", "nn"): ["Femterningspelet: eksakte sannsyn for tre spelarar",
                               "sjanse til å tape"],
    ("odds of a moment", "en"): ["Rolls still to come: 19.03 on average.", "32.03%"],
    ("odds of a moment", "nb"): ["Kast som gjenstår: 19,03 i gjennomsnitt.", "32,03\xa0%"],
    ("odds of a moment", "nn"): ["Kast som står att: 19,03 i gjennomsnitt.", "32,03\xa0%"],
    ("simulation", "en"): ["Aces in the Pot: 2,000 simulated games", "share of wins",
                           "30.92% to 35.04%", "exact: 33.0%"],
    ("simulation", "nb"): ["Ess i potten: 2\xa0000 simulerte partier", "andel seire",
                           "30,92\xa0% til 35,04\xa0%", "eksakt: 33,0\xa0%"],
    ("simulation", "nn"): ["Ess i potten: 2\xa0000 simulerte parti", "del av sigrane",
                           "30,92\xa0% til 35,04\xa0%", "eksakt: 33,0\xa0%"],
    ("five-dice simulation", "en"): ["Aces: 2,000 simulated games", "share of losses"],
    ("five-dice simulation", "nb"): ["Femterningspillet: 2\xa0000 simulerte partier",
                                     "andel tap"],
    ("five-dice simulation", "nn"): ["Femterningspelet: 2\xa0000 simulerte parti", "del av tapa"],
    ("full five-dice simulation", "en"): [
        "5 players, 5 dice each, seed 1",
        "The exact answers take a while to work out for a game this size; add exact=True to see"
        " them beside the estimates."],
    ("full five-dice simulation", "nb"): [
        "Fem spillere, fem terninger hver, frø 1",
        "De eksakte svarene tar litt tid å regne ut for et så stort spill; legg til exact=True"
        " for å se dem ved siden av anslagene."],
    ("full five-dice simulation", "nn"): [
        "Fem spelarar, fem terningar kvar, frø 1",
        "Dei eksakte svara tek litt tid å rekne ut for eit så stort spel; legg til exact=True"
        " for å sjå dei ved sida av anslaga."],
    ("five-dice simulation of lengths", "en"): [
        "There are no exact chances by seat to compare with: for a game this size only its"
        " length is worked out exactly, as the chances by seat would take that work once for"
        " each player."],
    ("five-dice simulation of lengths", "nb"): [
        "Her finnes det ingen eksakte sjanser for hver plass å sammenligne med: for et så stort"
        " spill er det bare lengden på et parti som regnes ut eksakt, siden sjansene for hver"
        " plass ville kreve det samme arbeidet én gang for hver spiller."],
    ("five-dice simulation of lengths", "nn"): [
        "Her finst det ingen eksakte sjansar for kvar plass å samanlikne med: for eit så stort"
        " spel er det berre lengda på eit parti som blir rekna ut eksakt, sidan sjansane for kvar"
        " plass ville krevje det same arbeidet éin gong for kvar spelar."],
}


@pytest.mark.parametrize("lang", ["en", "nb", "nn"])
@pytest.mark.parametrize("view", list(VIEWS))
def test_every_view_speaks_the_language_asked_for(view: str, lang: str) -> None:
    thing = VIEWS[view](lang)
    assert thing.lang == lang
    words = shown(thing).words
    for said in SAYS[view, lang]:
        assert said in words
    if lang != "en":
        # An option's value and a Python parameter stay as they are typed.
        assert ENGLISH.findall(words.replace("last-chip", "").replace("exact=True", "")) == []
    # The short form stays English whatever the view speaks, as doctests read it.
    assert repr(thing) == repr(VIEWS[view]("en"))


def test_a_view_changes_language_with_its_object() -> None:
    session = t.cast("aces.api.Session", aces.play(["Ada", "Bo"], seed=1, games=2))
    english = session._repr_html_()
    session.lang = "no"
    assert (session.lang, session[1].lang) == ("nb", "nb")
    assert "En økt med to partier" in html.unescape(session._repr_html_())
    session.lang = "en"
    assert session._repr_html_() == english
    chances = aces.odds(2)
    chances.lang = "nn"
    assert "sjanse til å vinne" in chances._repr_html_()
    with pytest.raises(OptionError, match="unknown language 'sv'"):
        aces.simulate(2, games=10, lang="sv")


@pytest.mark.parametrize("lang", ["en", "nb", "nn"])
def test_a_log_of_one_game_ends_as_its_replay_does(lang: str) -> None:
    """One game has no tally and no «most» to tell: aces replay gives neither, so
    the view never says «Bo tapte flest partier: 1 av 1»."""
    log = aces.load("replays/five-dice-four-players.jsonl", lang=lang)
    words = shown(log).words
    assert {"en": "A session of 1 game", "nb": "En økt med ett parti",
            "nn": "Ei økt med eitt parti"}[lang] in words
    for absent in ({"en": ["Losses after", "lost the most"], "nb": ["Tap etter", "tapte flest"],
                    "nn": ["Tap etter", "tapa flest"]}[lang]):
        assert absent not in words
    # Two games or more are tallied, as the replay tallies them.
    assert {"en": "Per won the most pots", "nb": "Per vant flest potter",
            "nn": "Per vann flest pottar"}[lang] in shown(VIEWS["log"](lang)).words

def test_the_too_long_game_and_log_are_said_in_the_language(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = aces.play(["Ada", "Bo", "Cy"], dice=E1, lang="nb")
    monkeypatch.setattr(aces.notebook, "PAGE_STEPS", 5)
    words = shown(game).words
    assert (f"Avspillingssiden er utelatt her: partiet har {len(game.steps)} hendelser, flere"
            " enn de 5 en notatbok viser.") in words
    monkeypatch.setattr(aces.notebook, "HTML_GAMES", 2)
    log = aces.load("replays/session.jsonl", lang="nn")
    assert shown(log).words == ("session.jsonl har 5 parti, fleire enn dei 2 ei notatbok viser;"
                                " gå gjennom partia med ei løkke.")


def test_names_stay_text_in_every_view() -> None:
    session = t.cast("aces.api.Session", aces.play(list(HOSTILE), seed=2, games=2, lang="nn"))
    chances = aces.odds(session[0].moments[2], lang="nb")
    for thing in (session, chances):
        view = shown(thing)
        assert set(view.tags) <= {"div", "strong", "p", "table", "thead", "tbody", "tr", "th",
                                  "td", "svg", "text", "rect", "title", "line"}
        assert HOSTILE[0] in view.words


def test_every_page_of_a_log_is_made_without_reading_it_again(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Showing game k of a log once read and told the whole file again, so that
    showing every game cost the square of its length."""
    from clitest import run

    log = tmp_path / "session.jsonl"
    assert run("play", "--players", "3", "--games", "6", "--seed", "4", "-o",
               str(log)).exit_code == 0
    reads: list[str] = []
    real = aces.log.read

    def counted(lines: t.Any, source: str) -> t.Any:
        reads.append(source)
        return real(lines, source)

    # Where aces.load's Log reads a log (aces.log.read, imported there).
    monkeypatch.setattr(aces.results, "read", counted)
    pages = [game.page() for game in aces.load(log)]
    assert len(reads) == 2  # the walk, and once the count of its games ("game 3 of 6")
    monkeypatch.setattr(aces.results, "read", real)
    for number, page in enumerate(pages, 1):
        written = tmp_path / f"game-{number}.html"
        assert run("replay", str(log), "--html", str(written), "--game",
                   str(number)).exit_code == 0
        assert page == written.read_text(encoding="utf-8")
