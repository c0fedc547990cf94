"""The engine: the one loop that asks for dice, yielding events as it goes."""

from __future__ import annotations

import io
import typing as t

import pytest

import aces.log
from aces import engine
from aces.dice import DiceFile, RandomDice
from aces.errors import DiceFileError, OptionError
from aces.events import SCHEMA, ChipsPassed, GameOver, GameStarted, Rolled
from aces.log import LINE_LIMIT, LogWriter
from aces.rules import Roll, fivedice, game_named, pot

if t.TYPE_CHECKING:
    from aces.events import Event
    from aces.rules import Game, OptionValue, RollRequest

PLAYERS: t.Final = ("Ada", "Bo", "Cy")


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
    game: Game[t.Any], players: tuple[str, ...], options: dict[str, OptionValue], seed: int,
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
