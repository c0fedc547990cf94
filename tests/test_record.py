"""The fold behind ``aces record``: what it appends is what the walk accepts."""

from __future__ import annotations

import dataclasses
import io
import random
import typing as t

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aces import engine
from aces.dice import DiceFile, RandomDice
from aces.errors import AcesError, RollError
from aces.events import GameOver, GameStarted, Rolled, RollUndone
from aces.games import game_named
from aces.log import LogWriter, read
from aces.record import Recording
from aces.rules import Roll, fivedice, pot
from aces.walk import walk

if t.TYPE_CHECKING:
    from collections.abc import Sequence

    from aces.events import Event
    from aces.walk import Step

E1: t.Final = "2/3/5/1 6/3 5/6 6/1 1/1 6/1 4/2 5/6 6/1 1/3 4/5 2"
PLAYERS: t.Final = ("Ada", "Bo", "Cy")


def e1_rolls() -> list[Roll]:
    return [Roll(tuple(int(d) for d in roll.split())) for roll in E1.split("/")]


def walked(events: Sequence[Event]) -> list[Step[t.Any]]:
    out = io.BytesIO()
    LogWriter(out).write_all(events)
    return list(walk(read(io.BytesIO(out.getvalue()), "log"), "log", allow_unfinished=True))


def assert_walks_the_same(steps: Sequence[Step[t.Any]]) -> None:
    """The steps a table returned are the steps the walk finds in their log."""
    found = walked([s.event for s in steps])
    assert [(s.line, s.event, s.state) for s in found] == [
        (s.line, s.event, s.state) for s in steps]


def new_table(players: Sequence[str] = PLAYERS, game: str = "pot",
              **options: t.Any) -> Recording:
    table = Recording()
    rules = game_named(game)
    table.begin(engine.header(rules, players, options))
    return table


def test_a_game_recorded_roll_by_roll_is_the_game_played_from_its_dice() -> None:
    table = new_table()
    steps: list[Step[t.Any]] = []
    for roll in e1_rolls():
        steps += table.play(roll)
    header = engine.header(pot.GAME, PLAYERS, {})
    assert [s.event for s in steps] == list(
        engine.play(pot.GAME, header, DiceFile(E1.split("/"), "e1")))
    assert table.request() is None
    assert_walks_the_same(steps)


@given(seed=st.integers(0, 2**32 - 1), players=st.integers(3, 5),
       game=st.sampled_from(["pot", "five-dice"]), undo_every=st.integers(2, 7))
def test_rolls_and_undos_in_any_order_are_what_the_walk_folds(
    seed: int, players: int, game: str, undo_every: int
) -> None:
    rng = random.Random(seed)
    dice = RandomDice(seed)
    table = new_table(["Ada", "Bo", "Cy", "Dag", "Eli"][:players], game)
    steps = table.start()
    for count in range(1, 400):
        request = table.request()
        if request is None:
            break
        if count % undo_every == 0 and table.rolls:
            steps += table.undo()
            continue
        roll = dice.roll(request)
        if game == "five-dice":
            roll = Roll(roll.dice, fivedice.choose(table.state, roll.dice, rng))
        steps += table.play(roll)
    assert_walks_the_same(steps)


def test_the_header_is_written_with_the_first_roll_unless_started() -> None:
    table = new_table()
    assert table.unwritten
    first = table.play(Roll((2,)))
    assert [type(s.event) for s in first] == [GameStarted, Rolled]
    assert [s.line for s in first] == [1, 2]
    started = new_table()
    assert [type(s.event) for s in started.start()] == [GameStarted]
    assert started.start() == []
    assert [s.line for s in started.play(Roll((2,)))] == [2]


def test_an_undo_takes_back_the_last_roll_with_all_it_settled() -> None:
    table = new_table()
    steps = table.start()
    for roll in e1_rolls()[:4]:
        steps += table.play(roll)
    before = table.request()
    steps += table.play(Roll((6, 6)))
    steps += table.undo()
    undo = steps[-1].event
    assert undo == RollUndone(undoes=9, player="Ada", dice=(6, 6))
    assert table.request() == before
    assert_walks_the_same(steps)


def test_an_undo_with_no_roll_standing_is_refused() -> None:
    table = new_table()
    with pytest.raises(AcesError, match="no roll of this game to take back"):
        table.undo()
    table.play(Roll((2,)))
    table.undo()
    with pytest.raises(AcesError, match="no roll of this game to take back"):
        table.undo()


def test_a_roll_the_rules_refuse_changes_nothing() -> None:
    table = new_table()
    table.play(Roll((2,)))
    seq, state = table.seq, table.state
    with pytest.raises(RollError):
        table.play(Roll((3,), ("Bo",)))
    assert (table.seq, table.state) == (seq, state)


def recorded(rolls: Sequence[Roll]) -> list[Step[t.Any]]:
    table = new_table()
    steps = table.start()
    for roll in rolls:
        steps += table.play(roll)
    return steps


def resumed(events: Sequence[Event]) -> Recording:
    """A table that followed a log of ``events`` (with what the walk yields of it)."""
    table = Recording()
    for step in walked(events):
        table.visit(step)
    return table


def test_a_table_resumed_from_a_log_carries_on_as_the_one_that_wrote_it() -> None:
    rolls = e1_rolls()
    for cut in range(len(rolls)):
        steps = recorded(rolls[:cut])
        table = resumed([s.event for s in steps])
        assert table.seq == len(steps)
        assert table.games == 1
        more: list[Step[t.Any]] = []
        for roll in rolls[cut:]:
            more += table.play(roll)
        assert [s.event for s in steps + more] == [s.event for s in recorded(rolls)]


def test_a_table_resumed_goes_on_with_the_walks_own_rolls_standing() -> None:
    steps = recorded(e1_rolls()[:6])
    walk_steps = walked([s.event for s in steps])
    # Resuming follows what the walk decided: the rules decide nothing twice.
    decided: list[object] = []

    def decide(*args: t.Any) -> tuple[Event, ...]:
        decided.append(args)
        return pot.GAME.decide(*args)

    spied = dataclasses.replace(pot.GAME, decide=decide)
    table = Recording()
    for step in walk_steps:
        table.visit(step._replace(game=spied))
    assert decided == []
    standing = walk_steps[0].standing
    assert standing is not None
    assert len(standing) == table.rolls == 6
    # An undo at the table takes back the walk's last roll standing.
    undo = table.undo()
    assert undo[0].undone is not None
    assert undo[0].undone.line == steps[-1].line - 1
    assert len(standing) == table.rolls == 5


def test_a_table_resumed_where_undos_were_made_can_undo_further() -> None:
    steps = recorded(e1_rolls()[:6])
    table = resumed([s.event for s in steps])
    steps += table.undo()
    table = resumed([s.event for s in steps])
    steps += table.undo()
    assert_walks_the_same(steps)
    assert table.rolls == 4


def test_a_log_that_stops_part_way_through_a_settlement_is_settled_on_resume() -> None:
    steps = recorded(e1_rolls()[:4])
    # Cy's 1-6 settles a chip to the pot and one to Ada: the log has only the first.
    assert [type(s.event).__name__ for s in steps[-3:]] == ["Rolled", "ChipsToPot",
                                                            "ChipsPassed"]
    table = resumed([s.event for s in steps[:-1]])
    assert table.unsettled
    assert table.request() is None
    settled = table.settle()
    assert [s.event for s in settled] == [steps[-1].event]
    assert not table.unsettled
    assert table.request() == pot.next_roll(steps[-1].state)


def test_an_undo_before_a_new_game_is_written_reaches_the_game_before() -> None:
    steps = recorded(e1_rolls())
    table = resumed([s.event for s in steps])
    assert table.request() is None
    table.begin(engine.header(pot.GAME, PLAYERS, {}))
    assert table.games == 2
    undone = table.undo()
    assert table.games == 1
    last = max(s.line for s in steps if isinstance(s.event, Rolled))
    assert undone[0].event.undoes == last  # type: ignore[union-attr]
    assert undone[0].line == len(steps) + 1
    steps += undone
    steps += table.play(Roll((5, 2)))
    assert isinstance(steps[-1].event, GameOver)
    assert_walks_the_same(steps)


def test_a_new_game_once_written_cannot_undo_into_the_game_before() -> None:
    steps = recorded(e1_rolls())
    table = resumed([s.event for s in steps])
    table.begin(engine.header(pot.GAME, PLAYERS, {}))
    steps += table.play(Roll((4,)))
    steps += table.undo()
    with pytest.raises(AcesError):
        table.undo()
    assert_walks_the_same(steps)
