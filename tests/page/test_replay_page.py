"""``aces replay --html``: the page's data, its safety with hostile names, and
logs that go wrong. What the page does in a browser is in test_replay_in_browser.py."""

from __future__ import annotations

import html
import re
import typing as t
from pathlib import Path

import pytest

from aces.chances import odds_for
from aces.events import GameStarted, Rolled
from aces.i18n import LANGUAGES
from aces.log import read
from aces.walk import walk

from browser import page_data
from clitest import NO_LOCALE, one_line_error, run

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
DATA = re.compile(r'<script type="application/json" id="aces-data">(.*?)</script>', re.S)


def write_page(log: Path, page: Path, *options: str) -> dict[str, t.Any]:
    result = run("replay", str(log), "--html", str(page), *options)
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    return page_data(page)


@pytest.mark.parametrize("log", ["e1-last-chip.jsonl", "five-dice-one-die.jsonl",
                                 "e2-last-holder.jsonl", "five-dice-threes.jsonl"])
def test_the_narration_is_what_replay_prints_in_every_language(log: str, tmp_path: Path) -> None:
    data = write_page(REPLAYS / log, tmp_path / "page.html")
    assert data["languages"] == list(LANGUAGES)
    for lang in LANGUAGES:
        printed = run("replay", str(REPLAYS / log), "--lang", lang).stdout.splitlines()
        game = data["games"][0]
        told = [line for position in [game["start"], *game["rolls"]]
                for line in position["text"][lang]]
        assert told == printed


def test_every_roll_of_the_log_with_its_table_and_chances(tmp_path: Path) -> None:
    log = REPLAYS / "four-players.jsonl"
    data = write_page(log, tmp_path / "page.html", "--lang", "nb")
    assert data["format"] == 2
    assert data["lang"] == "nb"
    assert len(data["games"]) == 1
    game = data["games"][0]
    assert game["number"] == 1
    assert game["name"]["nb"] == "Parti 1 av 1"
    steps = list(walk(read(log.read_bytes().splitlines(keepends=True), "log"), "log"))
    header = steps[0].event
    assert isinstance(header, GameStarted)
    rolls = [(step.line, step.event) for step in steps if isinstance(step.event, Rolled)]
    assert [roll["seq"] for roll in game["rolls"]] == [line for line, _ in rolls]
    assert [roll["dice"] for roll in game["rolls"]] == [list(roll.dice) for _, roll in rolls]
    odds = odds_for(header)
    settled = {}  # the state once each roll is settled: the last before the next roll
    last = None
    for step in steps:
        if isinstance(step.event, Rolled):
            last = step.line
        if last is not None:
            settled[last] = step.state
    for roll in game["rolls"]:
        state = settled[roll["seq"]]
        assert roll["held"] == list(state.chips)
        assert roll["middle"] == state.pot
        exact = odds.chances(state).by_seat
        assert [seat["chance"] for seat in roll["chances"]] == pytest.approx(exact, abs=1e-6)
        assert all(seat["exact"] for seat in roll["chances"])
    assert game["rolls"][-1]["next"] is None
    assert max(game["rolls"][-1]["held"]) in (0, 1)
    winner = game["rolls"][-1]["chances"]
    assert sorted(seat["chance"] for seat in winner) == [0, 0, 0, 1]


def test_a_game_too_large_to_solve_is_estimated_and_says_so(tmp_path: Path) -> None:
    data = write_page(REPLAYS / "five-dice-four-players.jsonl", tmp_path / "page.html")
    game = data["games"][0]
    assert game["exact"] is False
    middle = game["rolls"][len(game["rolls"]) // 2]
    assert not any(seat["exact"] for seat in middle["chances"])
    assert all(0 < seat["margin"] < 0.05 for seat in middle["chances"])
    assert "±" in middle["shown"]["en"][0]
    page = (tmp_path / "page.html").read_text(encoding="utf-8")
    assert "estimated" in data["labels"]["en"]["estimated"]
    assert 'id="odds-note"' in page


HOSTILE = ("<img src=x onerror=alert(1)>", "</script>", "&amp;<!--")


def test_names_with_markup_are_text_never_markup(tmp_path: Path) -> None:
    log, page = tmp_path / "game.jsonl", tmp_path / "page.html"
    made = run("play", "--players", ",".join(HOSTILE), "--seed", "4", "-o", str(log))
    assert made.exit_code == 0, made.output
    data = write_page(log, page)
    assert data["games"][0]["players"] == list(HOSTILE)
    text = page.read_text(encoding="utf-8")
    assert "<img" not in text
    # The page's own two scripts end, and nothing else does.
    assert text.count("</script>") == 2
    json_text = DATA.search(text)
    assert json_text is not None
    assert not set("<>&") & set(json_text.group(1))
    # The list that needs no script shows the names as text.
    assert html.escape(HOSTILE[0]) in text


def test_a_session_offers_its_games(tmp_path: Path) -> None:
    session = REPLAYS / "session.jsonl"
    page = tmp_path / "page.html"
    data = write_page(session, page)
    games = data["games"]
    assert [game["number"] for game in games] == [1, 2, 3, 4, 5]
    assert [game["name"]["en"] for game in games] == [f"Game {n} of 5" for n in range(1, 6)]
    assert [game["name"]["nn"] for game in games] == [f"Parti {n} av 5" for n in range(1, 6)]
    # Each game is told as replay tells it, the session's tally and verdict included.
    for lang in LANGUAGES:
        printed = run("replay", str(session), "--lang", lang).stdout.splitlines()
        told = [line for game in games for position in [game["start"], *game["rolls"]]
                for line in position["text"][lang]]
        assert told == printed
    text = page.read_text(encoding="utf-8")
    assert text.count('<section class="game"') == 5
    for number in range(1, 6):
        assert f'<li><a href="#game-{number}">Game {number} of 5</a></li>' in text
        assert f'id="game-{number}"' in text
    assert 'href="#game=2&amp;roll=3"' in text
    # One game of it, as before: the page of that game alone.
    data = write_page(session, page, "--game", "2")
    assert [game["number"] for game in data["games"]] == [2]
    assert "game 2" in data["games"][0]["start"]["text"]["en"][0]
    assert data["games"][0]["name"]["en"] == "Game 2 of 5"
    assert '<nav id="games-box"' not in page.read_text(encoding="utf-8")
    error = one_line_error(run("replay", str(session), "--html", str(page), "--game", "99"))
    assert "--game 99" in error


def test_a_page_holds_a_bounded_number_of_rolls(tmp_path: Path) -> None:
    """A log too long for one page is refused in one line that says what to
    do, and the page's memory stays bounded: past the limit nothing is kept."""
    from aces.page.replay import PageCollector
    from aces.walk import drive

    session = REPLAYS / "session.jsonl"
    records = read(session.read_bytes().splitlines(keepends=True), "log")
    collector = PageCollector(None, "session.jsonl", "en", most_rolls=40)
    with pytest.raises(Exception, match=r"more than 40 rolls.*one of its 5 games with --game N"):
        drive(records, "session.jsonl", collector)
    assert collector.games == 5
    assert collector._kept == []
    records = read(session.read_bytes().splitlines(keepends=True), "log")
    with pytest.raises(Exception, match=r"game 1 of the log has more than 10 rolls"):
        drive(records, "session.jsonl", PageCollector(1, "session.jsonl", "en", most_rolls=10))
    # Through the command, in the user's language, and no page is written.
    log, page = tmp_path / "long.jsonl", tmp_path / "page.html"
    played = run("play", "--players", "4", "--games", "100", "--seed", "3", "-o", str(log))
    assert played.exit_code == 0, played.output
    error = one_line_error(run("replay", str(log), "--html", str(page), "--lang", "nb"))
    assert error.endswith("loggen har mer enn 2\xa0000 kast, flere enn én side kan romme:"
                          " velg ett av de 100 partiene med --game N")
    assert not page.exists()
    assert run("replay", str(log), "--html", str(page), "--game", "100").exit_code == 0


def test_a_damaged_log_writes_no_page(tmp_path: Path) -> None:
    lines = (REPLAYS / "e1-last-chip.jsonl").read_bytes().splitlines(keepends=True)
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_bytes(b"".join(lines[:8]) + lines[8].replace(b'"dice":[', b'"dice":[6,') +
                        b"".join(lines[9:]))
    page = tmp_path / "page.html"
    write_page(REPLAYS / "three-players.jsonl", page)
    before = page.read_bytes()
    replayed = one_line_error(run("replay", str(damaged)))
    paged = one_line_error(run("replay", str(damaged), "--html", str(page)))
    assert paged == replayed
    assert page.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["damaged.jsonl", "page.html"]


def test_errors_in_norwegian(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    error = one_line_error(run("replay", str(REPLAYS / "session.jsonl"), "--html", str(page),
                               "--game", "9", "--lang", "nb"))
    assert "partier" in error
    error = one_line_error(run("replay", str(REPLAYS / "e1-last-chip.jsonl"), "--game", "1",
                               env={**NO_LOCALE, "LANG": "nb_NO.UTF-8"}))
    assert "--html" in error
    assert "velger" in error


def test_an_empty_log_and_a_missing_folder(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    assert "empty" in one_line_error(run("replay", str(empty), "--html",
                                         str(tmp_path / "p.html")))
    error = one_line_error(run("replay", str(REPLAYS / "e1-last-chip.jsonl"), "--html",
                               str(tmp_path / "nowhere" / "p.html")))
    assert "nowhere" in error


def test_the_page_asks_for_nothing_from_outside(tmp_path: Path) -> None:
    write_page(REPLAYS / "three-players.jsonl", tmp_path / "page.html")
    text = (tmp_path / "page.html").read_text(encoding="utf-8")
    assert "default-src 'none'" in text
    assert not re.search(r"(src|href)=\"(?!#)", text)
    assert "http" not in text.replace("http://www.w3.org/2000/svg", "").replace(
        "http-equiv", "")


def test_a_page_is_bounded_in_bytes_however_long_the_names(tmp_path: Path) -> None:
    """Thirteen players with names of 4,500 characters once made a page of 155 MB
    from a log of 25 MB: a page holds so many characters of narration, no more."""
    from aces.page.replay import MOST_TEXT

    names = ",".join(chr(ord("A") + seat) * 4_500 for seat in range(13))
    log, page = tmp_path / "long-names.jsonl", tmp_path / "page.html"
    played = run("play", "--players", names, "--seed", "1", "--games", "5", "-o", str(log))
    assert played.exit_code == 0, played.output
    error = one_line_error(run("replay", str(log), "--html", str(page)))
    assert error == (f"aces: told in full, the log runs to more than {MOST_TEXT:,} characters,"
                     " more than one page holds: choose one of its 5 games with --game N")
    assert not page.exists()
    assert run("replay", str(log), "--html", str(page), "--game", "1").exit_code == 0
    assert page.stat().st_size < 3 * MOST_TEXT
    error = one_line_error(run("replay", str(log), "--html", str(tmp_path / "nb.html"),
                               "--lang", "nb"))
    assert error == ("aces: fortellingen om partiene i loggen er lengre enn 4\xa0000\xa0000 tegn,"
                     " mer enn én side kan romme: velg ett av de 5 partiene med --game N")
