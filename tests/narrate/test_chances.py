"""Each player's chance in words: ``aces replay --odds`` and the walkthroughs'
turning points, held against the odds of every position."""

from __future__ import annotations

import re
import typing as t
from pathlib import Path

import pytest
from walktest import settled

import aces.chances as chances_module
from aces.chances import Chances, odds_for
from aces.chances import fivedice as fivedice_chances
from aces.events import GameStarted, Rolled
from aces.i18n import translations
from aces.log import read
from aces.narrate.chances import Moment, TurningPoints, percent, turning_points
from aces.voice import Voice
from aces.walkthrough import TURNING_POINTS, Aside, walkthrough

from clitest import run

REPLAYS = Path(__file__).resolve().parents[2] / "replays"


@pytest.mark.parametrize("lang", ["en", "nb", "nn"])
def test_replay_odds_says_every_chance_after_every_roll(lang: str) -> None:
    log = REPLAYS / "e1-last-chip.jsonl"
    header, states = settled(log)
    odds = odds_for(header)
    voice = Voice(translations(lang), lang)
    plain = run("replay", str(log), "--lang", lang).stdout.splitlines()
    told = run("replay", str(log), "--lang", lang, "--odds").stdout.splitlines()
    added = [line for line in told if line not in plain]
    # Every roll but the last, which ends the game, and nothing else.
    assert len(added) == len(states) - 1
    for line, state in zip(added, states, strict=False):
        for seat, name in enumerate(header.players):
            assert f"{name} {percent(voice, odds.chances(state).by_seat[seat])}" in line
    # The narration itself is untouched, and each chance follows its roll's standings.
    assert [line for line in told if line in plain] == plain
    standings = [i for i, line in enumerate(told) if line.startswith(plain[12][:6])]
    assert standings


def test_replay_odds_of_a_game_too_large_says_it_is_an_estimate() -> None:
    told = run("replay", str(REPLAYS / "five-dice-four-players.jsonl"), "--odds").stdout
    assert "The chances to lose, estimated to within ±" in told


def test_turning_points_are_the_rolls_that_moved_a_chance_most() -> None:
    log = REPLAYS / "three-players.jsonl"
    parts = walkthrough(read(log.read_bytes().splitlines(keepends=True), "log"), "log",
                        translations("en"), "en")
    asides = [part for part in parts if isinstance(part, Aside) and part.rule == TURNING_POINTS]
    assert len(asides) == 1
    named = [int(n) for n in re.findall(r"Roll (\d+),", asides[0].text)]
    assert len(named) == 3
    assert named == sorted(named)
    header, states = settled(log)
    odds = odds_for(header)
    before = odds.chances(pot_start(header))
    moves = []
    for number, state in enumerate(states, start=1):
        now = odds.chances(state)
        moves.append((max(abs(a - b) for a, b in zip(now.by_seat, before.by_seat,
                                                      strict=True)), number))
        before = now
    biggest = sorted(moves, reverse=True)[:3]
    assert sorted(number for _, number in biggest) == named
    assert len(turning_points([], before)) == 0


def pot_start(header: GameStarted) -> t.Any:
    from aces.rules import pot

    return pot.start(header)


@pytest.mark.parametrize(("lang", "label"), [("nb", "Vendepunkter"), ("nn", "Vendepunkt")])
def test_turning_points_in_norwegian(lang: str, label: str) -> None:
    told = run("walkthrough", str(REPLAYS / "e1-last-chip.jsonl"), "--format", "text",
               "--lang", lang).stdout
    assert f"{label}: Kast " in " ".join(told.split())


def _turning_asides(log: Path, lang: str) -> list[str]:
    parts = walkthrough(read(log.read_bytes().splitlines(keepends=True), "log"), "log",
                        translations(lang), lang)
    return [part.text for part in parts
            if isinstance(part, Aside) and part.rule == TURNING_POINTS]


@pytest.fixture
def whole_games(monkeypatch: pytest.MonkeyPatch) -> t.Iterator[None]:
    """Estimates from whole games, without the chain of a table's tail, whose
    moments are exact: the biggest moves of a game come at its end."""
    monkeypatch.setattr(fivedice_chances, "TAIL_STATES", 0)
    chances_module._odds.cache_clear()
    yield
    chances_module._odds.cache_clear()


def test_turning_points_at_the_end_of_a_table_too_large_to_solve_are_exact() -> None:
    asides = _turning_asides(REPLAYS / "five-dice-four-players.jsonl", "en")
    assert len(asides) == 1
    text = " ".join(asides[0].split())
    assert "Roll 31, Bo's 1: Bo's chance to lose went from 46.7% to 100.0%." in text
    assert "estimated" not in text


@pytest.mark.usefixtures("whole_games")
@pytest.mark.parametrize(("lang", "roll", "said"), [
    ("en", "Roll", "estimated by simulation, to within ±"),
    ("nb", "Kast", "anslått ved simulering, med en feilmargin på ±"),
    ("nn", "Kast", "rekna ut ved simulering, med ein feilmargin på ±"),
])
def test_turning_points_of_a_game_too_large_to_solve_are_said_as_estimates(
        lang: str, roll: str, said: str) -> None:
    asides = _turning_asides(REPLAYS / "five-dice-four-players.jsonl", lang)
    assert len(asides) == 1
    text = " ".join(asides[0].split())
    named = re.findall(rf"{roll} (\d+),", text)
    assert 1 <= len(named) <= 3
    assert text.count(said) == len(named)


def test_a_move_within_the_margins_of_estimates_is_no_turning_point() -> None:
    roll = Rolled(player="Ada", dice=(1, 2), stage="turn")
    points = TurningPoints(Chances((0.5, 0.5), False, 0.02))
    points.add(Moment(1, roll, Chances((0.53, 0.47), False, 0.02)))  # 3 points: chance alone
    points.add(Moment(2, roll, Chances((0.70, 0.30), False, 0.02)))
    points.add(Moment(3, roll, Chances((1.0, 0.0), True)))  # the end: exact
    assert [(turn.moment.number, turn.margin) for turn in points.points()] == [(2, 0.02),
                                                                               (3, 0.02)]
    exact = TurningPoints(Chances((0.5, 0.5), True))
    exact.add(Moment(1, roll, Chances((0.53, 0.47), True)))
    assert [(turn.moment.number, turn.margin) for turn in exact.points()] == [(1, None)]


@pytest.mark.usefixtures("whole_games")
def test_a_walkthrough_estimates_a_bounded_number_of_rolls(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Estimates cost a simulation a roll: past the budget the walkthrough
    says once that the turning points stop, and tells the rest without."""
    from aces.walkthrough import visitors as module

    log = tmp_path / "session.jsonl"
    result = run("play", "--game", "five-dice", "--players", "4", "--games", "3",
                 "--seed", "5", "--output", str(log))
    assert result.exit_code == 0, result.output
    first = _turning_asides(log, "en")
    assert len(first) == 3
    assert all("estimated by simulation" in text for text in first)
    monkeypatch.setattr(module, "MOST_ESTIMATED", 1)
    monkeypatch.setattr(module, "CHANCES_CHUNK", 4)
    asides = _turning_asides(log, "en")
    assert len(asides) == 1
    assert asides[0].startswith("From this game on, no turning points")
