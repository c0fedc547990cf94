"""Estimated chances cost a bounded amount: per roll, and per output, which
says once that the chances stop; and their 95 % intervals hold 95 % of the time."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from walktest import settled

import aces.chances as chances_module
from aces.chances import ESTIMATE_GAMES, FEWEST_GAMES, ROLL_WORK, _from_wins, budget, odds_for
from aces.chances import fivedice as fivedice_chances
from aces.chances import pot as pot_chances
from aces.chances.fivedice import FiveDiceOdds, Tail
from aces.chances.pot import PotOdds
from aces.events import SCHEMA, GameStarted
from aces.rules import fivedice

from clitest import run

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
STOP = "From here on, no chances are shown"


def _five_dice(players: int, dice: int = 5) -> FiveDiceOdds:
    header = GameStarted(schema=SCHEMA, game="five-dice",
                         players=tuple(f"P{i}" for i in range(players)),
                         options=fivedice.options({"dice": dice}))
    odds = odds_for(header)
    assert isinstance(odds, FiveDiceOdds)
    assert not odds.exact
    return odds


def test_a_position_with_many_rolls_to_come_is_played_on_fewer_times() -> None:
    # Whole games, as a table without the chain of its tail plays them.
    odds = FiveDiceOdds.of(12, 5, False, "random", tail_states=0)
    start = ((5,) * 12, 0)
    late = ((1, 0, 0, 1) + (0,) * 8, 0)
    assert odds._games(late) == ESTIMATE_GAMES
    assert FEWEST_GAMES <= odds._games(start) < ESTIMATE_GAMES
    rolls = odds._rolls_left(start)
    assert odds._games(start) * rolls <= max(ROLL_WORK, FEWEST_GAMES * rolls)
    # Fewer games, a wider margin, said with the chances.
    early, end = odds._estimates.lookup([start, late]).values()
    assert early.margin > end.margin


def test_games_played_to_the_tail_need_few_to_beat_whole_games_margins() -> None:
    whole = FiveDiceOdds.of(12, 5, False, "random", tail_states=0)
    odds = _five_dice(12)
    assert odds.tail is not None
    positions = [((5,) * 12, 0), ((3, 0, 0, 1, 2) + (0,) * 7, 3)]
    assert {odds._games(key) for key in positions} == {FEWEST_GAMES}
    assert odds._rolls_left(positions[0]) < whole._rolls_left(positions[0])
    ours, theirs = (list(o._estimates.lookup(positions).values()) for o in (odds, whole))
    for mine, before in zip(ours, theirs, strict=True):
        assert not mine.exact
        assert mine.margin < before.margin / 2
        for p, q in zip(mine.by_seat, before.by_seat, strict=True):
            assert abs(p - q) <= mine.margin + before.margin


def test_the_four_player_game_is_estimated_to_its_tail_and_exact_in_it() -> None:
    header, states = settled(REPLAYS / "five-dice-four-players.jsonl")
    odds = odds_for(header)
    assert isinstance(odds, FiveDiceOdds)
    assert not odds.exact
    assert odds.tail is not None
    in_play = odds.tail.in_play
    keys = [key for state in states for key in odds._positions(state)]
    assert {odds._games(key) for key in keys if sum(key[0]) > in_play} == {FEWEST_GAMES}
    found = odds.chances_of(states)
    assert [answer.exact for answer in found] == [sum(state.held) <= in_play for state in states]
    assert any(answer.exact for answer in found)


def test_replay_odds_past_the_budget_says_once_that_the_chances_stop(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(budget, "MOST_ESTIMATED", 5)
    log = REPLAYS / "five-dice-four-players.jsonl"
    told = run("replay", str(log), "--odds").stdout.splitlines()
    chances = [i for i, line in enumerate(told) if line.startswith("The chances to lose")]
    stops = [i for i, line in enumerate(told) if line.startswith(STOP)]
    assert len(chances) == 5
    assert len(stops) == 1
    assert stops[0] > chances[-1]
    assert "for at most 5 rolls" in told[stops[0]]
    # The narration goes on to the end all the same.
    assert told[-1] == run("replay", str(log)).stdout.splitlines()[-1]


@pytest.mark.parametrize("lang", ["nb", "nn"])
def test_the_stop_is_said_in_every_language(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(budget, "MOST_ESTIMATED", 2)
    told = run("replay", str(REPLAYS / "five-dice-four-players.jsonl"), "--odds",
               "--lang", lang).stdout
    assert ("Herfra vises ingen sjanser" if lang == "nb" else "Herfrå blir ingen sjansar viste") \
        in told


def test_exact_chances_cost_nothing_and_never_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(budget, "MOST_ESTIMATED", 1)
    told = run("replay", str(REPLAYS / "session.jsonl"), "--odds").stdout
    assert STOP not in told
    assert told.count("The chances to win the pot") > 100


def test_a_page_past_the_budget_shows_chances_from_the_start_then_says_why_they_stop(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(budget, "MOST_ESTIMATED", 4)
    page = tmp_path / "page.html"
    result = run("replay", str(REPLAYS / "five-dice-four-players.jsonl"), "--html", str(page))
    assert result.exit_code == 0, result.output
    text = page.read_text(encoding="utf-8")
    begin = text.index('{"format"')
    data = json.loads(text[begin:text.index("</script>", begin)])
    game = data["games"][0]
    moments = [game["start"], *game["rolls"]]
    shown = [m["chances"] is not None for m in moments if "held" in m]
    assert shown[:4] == [True] * 4
    assert not any(shown[4:])
    said = [m for m in moments if any(STOP in line for line in m["text"]["en"])]
    assert len(said) == 1
    assert said[0]["chances"] is None
    assert all(any(line.startswith(("Herfra", "Herfrå")) for line in said[0]["text"][code])
               for code in ("nb", "nn"))


def test_the_work_of_an_output_is_bounded_whatever_its_rolls() -> None:
    import aces

    game = aces.play(12, game="five-dice", seed=1)
    odds = _five_dice(12)
    states = [step.state for step in game.steps if step.state.phase == "play"]
    cost = odds.cost(states)
    assert cost > 0
    spending = budget.Budget(work=cost // 2)
    granted = spending.grant(odds, states)
    assert 0 < granted < len(states)
    assert odds.cost(states[:granted]) <= cost // 2 < odds.cost(states[:granted + 1])
    assert spending.spent
    assert spending.grant(odds, states) == 0
    # What is remembered costs nothing again.
    odds.chances_of(states[:3])
    assert odds.cost(states[:3]) == 0


@pytest.mark.parametrize(("players", "chips"), [(3, 2), (4, 1)])
def test_the_95_percent_intervals_hold_the_exact_chance_95_times_in_100(
        players: int, chips: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # The estimates of a table small enough to solve, over many seeds, against
    # its exact values: each seat's chance lies within the stated margin at
    # least as often as a 95 % interval promises (the margin is the widest
    # seat's), with the fewest games a position is ever played on.
    exact = PotOdds.of(players, chips, "last-chip")
    estimated = PotOdds(players, chips, "last-chip", None, None)
    key = ((chips,) * players, 0, "play", 0)
    truth = exact._look_up(key).by_seat
    seeds = 400
    monkeypatch.setattr(chances_module, "ESTIMATE_GAMES", FEWEST_GAMES)
    inside = 0
    for seed in range(seeds):
        monkeypatch.setattr(pot_chances, "random", lambda seed=seed: np.random.default_rng(seed))
        found = estimated._play_on([key], FEWEST_GAMES)[0]
        chances = _from_wins(found)
        inside += sum(abs(p - q) <= chances.margin for p, q in zip(chances.by_seat, truth,
                                                                   strict=True))
    # At 95 %, 400 seeds hold about 380 of each seat's chance; the seats of a
    # seed are not independent, so the bound leaves four times the spread.
    trials = seeds * players
    assert inside >= 0.95 * trials - 4 * (0.05 * 0.95 * trials) ** 0.5, inside / trials


@pytest.mark.parametrize(("threes", "threes_to"), [(False, "random"), (True, "fewest")])
def test_the_95_percent_intervals_of_games_played_to_the_tail_hold_95_times_in_100(
        threes: bool, threes_to: fivedice.Policy, monkeypatch: pytest.MonkeyPatch) -> None:
    # As above, for games stopped at the tail and given its exact chances,
    # whose margin comes from how much those varied: four players with two
    # dice each, small enough to solve, estimated with the tail of the last
    # three dice in play.
    exact = FiveDiceOdds.of(4, 2, threes, threes_to)
    assert exact.exact
    tail = Tail.of(4, 2, threes, threes_to, most_states=15)
    assert tail is not None
    assert tail.in_play == 3
    estimated = FiveDiceOdds(4, 2, threes, threes_to, None, None, tail)
    key = ((2, 2, 2, 2), 0)
    truth = exact._look_up(key).by_seat
    seeds = 400
    inside = 0
    for seed in range(seeds):
        monkeypatch.setattr(fivedice_chances, "random",
                            lambda seed=seed: np.random.default_rng(seed))
        chances = estimated._estimate(estimated._play_on([key], FEWEST_GAMES)[0])
        assert 0 < chances.margin < 0.05
        inside += sum(abs(p - q) <= chances.margin for p, q in zip(chances.by_seat, truth,
                                                                   strict=True))
    trials = seeds * 4
    assert inside >= 0.95 * trials - 4 * (0.05 * 0.95 * trials) ** 0.5, inside / trials
