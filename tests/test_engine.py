"""The engine: the one loop that asks for dice, yielding events as it goes."""

from __future__ import annotations

import io
import typing as t
from pathlib import Path

import pytest

import aces.log
from aces import engine
from aces.dice import DiceFile, RandomDice
from aces.errors import DiceFileError, OptionError
from aces.events import SCHEMA, ChipsPassed, GameOver, GameStarted, Rolled
from aces.games import game_named
from aces.log import LINE_LIMIT, LogWriter
from aces.rules import Roll, fivedice, pot

if t.TYPE_CHECKING:
    from aces.events import Event
    from aces.rules import Decider, OptionValue, RollRequest

PLAYERS: t.Final = ("Ada", "Bo", "Cy")
REPLAYS: t.Final = Path(__file__).resolve().parent.parent / "replays"


class Recording:
    """Generated dice that remember every request, and how many events had
    been handed on when each was made."""

    def __init__(self, seed: int, seen: list[Event]) -> None:
        self._dice = RandomDice(seed)
        self._seen = seen
        self.requests: list[tuple[RollRequest, int]] = []

    def roll(self, request: RollRequest) -> Roll:
        self.requests.append((request, len(self._seen)))
        return self._dice.roll(request)


def test_the_header_is_checked_and_completed() -> None:
    header = engine.header(pot.GAME, PLAYERS, {"chips": 3}, seed=9)
    assert header == GameStarted(schema=SCHEMA, game="pot", players=PLAYERS,
                                 options={"finish": "last-chip", "chips": 3}, seed=9)


@pytest.mark.parametrize(
    ("players", "options"),
    [(["Ada"], {}), (["Ada", "Ada"], {}), (PLAYERS, {"chips": 0}), (PLAYERS, {"colour": "red"})],
)
def test_a_header_outside_the_rules_is_refused(
    players: t.Sequence[str], options: dict[str, int | str | bool]
) -> None:
    with pytest.raises(OptionError):
        engine.header(pot.GAME, players, options)


@pytest.mark.parametrize("finish", pot.FINISHES)
def test_a_game_runs_from_its_header_to_game_over(finish: str) -> None:
    header = engine.header(pot.GAME, PLAYERS, {"finish": finish}, 4)
    events = list(engine.play(pot.GAME, header, RandomDice(4)))
    assert events[0] is header
    assert isinstance(events[-1], GameOver)
    assert sum(isinstance(e, GameOver) for e in events) == 1


def test_each_roll_is_asked_of_the_player_who_rolls_it_once_the_last_is_handed_on() -> None:
    seen: list[Event] = []
    header = engine.header(pot.GAME, PLAYERS, {}, 8)
    dice = Recording(8, seen)
    for event in engine.play(pot.GAME, header, dice):
        seen.append(event)
    rolls = [(i, e) for i, e in enumerate(seen) if isinstance(e, Rolled)]
    assert len(rolls) == len(dice.requests)
    for (index, rolled), (request, handed_on) in zip(rolls, dice.requests, strict=True):
        assert (rolled.player, len(rolled.dice), rolled.stage) == tuple(request)
        # Everything before this roll was out of the engine before it asked.
        assert handed_on == index


def test_the_same_seed_plays_the_same_game() -> None:
    header = engine.header(pot.GAME, PLAYERS, {}, 21)
    first = list(engine.play(pot.GAME, header, RandomDice(21)))
    assert first == list(engine.play(pot.GAME, header, RandomDice(21)))
    assert first != list(engine.play(pot.GAME, header, RandomDice(22)))


def test_events_before_a_bad_roll_are_all_handed_on() -> None:
    # E1's first six rolls, then a line of three dice.
    dice = DiceFile(["2", "3", "5", "1 6", "3 5", "6 6", "1 1 1"], "table.txt")
    header = engine.header(pot.GAME, PLAYERS, {})
    handed_on: list[Event] = []

    def consume() -> None:
        for event in engine.play(pot.GAME, header, dice):
            handed_on.append(event)

    with pytest.raises(DiceFileError) as caught:
        consume()
    assert caught.value.line == 7
    assert [e.dice for e in handed_on if isinstance(e, Rolled)] == [
        (2,), (3,), (5,), (1, 6), (3, 5), (6, 6)]
    assert handed_on[-1] == ChipsPassed(player="Bo", to="Cy", count=2)


# -- Every line of a log can be read back -----------------------------------------


@pytest.mark.parametrize(("game", "players", "options"), [
    (pot.GAME, ("Ada", "Bo", "Cy"), {}),
    (pot.GAME, ("Kari", "Ola", "P" * 300), {"finish": "last-holder", "chips": 4}),
    (fivedice.GAME, ("Ada", "Bo", "Cy"), {"dice": 1}),
    (fivedice.GAME, ("Ada", "Bo", "Cy", "D" * 40), {"dice": 3, "threes": True}),
])
@pytest.mark.parametrize("seed", range(5))
def test_no_line_is_wider_than_the_widest_line(
    game: Decider[t.Any], players: tuple[str, ...], options: dict[str, OptionValue], seed: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Lines numbered in ten digits, the widest an envelope is counted for (a
    # writer stops at the reader's limit, far below).
    monkeypatch.setattr(aces.log, "EVENT_LIMIT", 10**10)
    start = engine.header(game, players, options, seed)
    out = io.BytesIO()
    LogWriter(out, first_seq=10**9).write_all(engine.play(game, start, RandomDice(seed)))
    widest = max(map(len, out.getvalue().splitlines(keepends=True)))
    assert widest <= engine.widest_line(game, start)


def test_the_widest_roll_is_counted_to_the_byte(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(aces.log, "EVENT_LIMIT", 10**10)
    longest = "D" * 40
    start = engine.header(fivedice.GAME, ("Ada", "Bo", longest), {"dice": 4, "threes": True})
    roll = Rolled(player=longest, dice=(6,) * 12, stage="opening", to=(longest,) * 12)
    [line] = LogWriter(None, first_seq=10**9).encode([roll]).splitlines(keepends=True)
    assert len(line) == engine.widest_line(fivedice.GAME, start)


def test_a_header_whose_game_could_outgrow_a_log_line_is_refused() -> None:
    names = ("Ada", "Bo", "C" * 250)
    fits = engine.header(fivedice.GAME, names, {"dice": 100})
    assert engine.widest_line(fivedice.GAME, fits) <= LINE_LIMIT
    with pytest.raises(OptionError, match="could be longer than"):
        engine.header(fivedice.GAME, names, {"dice": 100, "threes": True})


@pytest.mark.parametrize("name", ["Ada Lovelace", "Bo#2", "Cy>", "Dag,Eva"])
def test_a_name_a_typed_roll_cannot_give_a_3_to_is_refused_when_threes_are_played(
        name: str) -> None:
    five = game_named("five-dice")
    with pytest.raises(OptionError, match="cannot be named as the receiver of a 3"):
        engine.header(five, ["Ada", "Bo", name], {"threes": True})
    engine.header(five, ["Ada", "Bo", name], {})
    engine.header(game_named("pot"), ["Ada", "Bo", name], {})


def test_names_that_differ_only_in_capitals_are_refused_when_threes_are_played() -> None:
    with pytest.raises(OptionError, match="differ only in capitals"):
        engine.header(game_named("five-dice"), ["Ada", "Bo", "bo"], {"threes": True})


# -- A session: games in a row at one table ---------------------------------------------


def test_a_seeded_session_plays_each_game_from_its_own_seed() -> None:
    events = list(engine.play_session(pot.GAME, PLAYERS, {}, seed=5, games=3))
    headers = [event for event in events if isinstance(event, GameStarted)]
    assert [header.seed for header in headers] == [5, 6, 7]
    # Each game replays alone from the seed it records.
    alone = list(engine.play(pot.GAME, engine.header(pot.GAME, PLAYERS, {}, 6), RandomDice(6)))
    start = events.index(headers[1])
    assert events[start:start + len(alone)] == alone


def test_a_session_without_a_seed_or_dice_draws_a_seed_of_its_own() -> None:
    [header] = [event for event in engine.play_session(pot.GAME, PLAYERS, {})
                if isinstance(event, GameStarted)]
    assert header.seed is not None


def test_a_typed_session_names_receivers_by_a_beginning_in_any_case() -> None:
    five = game_named("five-dice")
    options = {"dice": 2, "threes": True}
    named = (REPLAYS / "threes.dice").read_text(encoding="utf-8")
    typed = (named.replace("> Ada Bo", "> ad BO").replace("> Ada", "> a")
             .replace("> Cy Cy", "> c CY").replace("> Bo", "> b"))
    assert "> ad BO" in typed
    assert "> b " in typed
    assert (list(engine.play_session(five, PLAYERS, options, dice=typed.splitlines()))
            == list(engine.play_session(five, PLAYERS, options, dice=named.splitlines())))


def test_a_session_checks_everything_before_its_first_event() -> None:
    with pytest.raises(OptionError, match="cannot be used together"):
        engine.play_session(pot.GAME, PLAYERS, {}, seed=1, dice=["2"])
    with pytest.raises(OptionError, match="is for generated dice"):
        engine.play_session(game_named("five-dice"), PLAYERS,
                            {"threes": True, "threes_to": "most"}, dice=["2"])
    with pytest.raises(OptionError):
        engine.play_session(pot.GAME, ["Ada"], {}, seed=1)
    # Generated dice may have the option the typed ones may not.
    assert list(engine.play_session(game_named("five-dice"), PLAYERS,
                                    {"threes": True, "threes_to": "most"}, seed=1))


def test_rolls_left_once_the_session_is_over_are_refused_after_its_last_event() -> None:
    seen: list[Event] = []
    with pytest.raises(DiceFileError) as refused:
        seen.extend(engine.play_session(pot.GAME, PLAYERS, {}, dice=[*E1_ROLLS, "4 4"],
                                        source="e1.dice"))
    assert str(refused.value) == ("e1.dice, line 15: the game is over, but rolls are left"
                                  " from this line on")
    assert isinstance(seen[-1], GameOver)


#: Worked example E1, one roll a line.
E1_ROLLS: t.Final = ["2", "3", "5", "1 6", "3 5", "6 6", "1 1", "6 1", "4 1", "2 5", "6 6",
                     "1 1", "3 4", "5 2"]
