"""The checked fold: every roll re-decided, the first bad line named."""

from __future__ import annotations

import io
import typing as t

import msgspec
import pytest

import aces.log as log_module
import aces.walk as walk_module
from aces import engine
from aces.dice import DiceFile, RandomDice
from aces.errors import AcesError, LogError, OptionError, RollError
from aces.events import (
    SCHEMA,
    GameOver,
    GameStarted,
    OpeningWon,
    Rolled,
    RollUndone,
    TurnMissed,
)
from aces.i18n import translations
from aces.log import LogWriter, Record, read
from aces.rules import pot
from aces.rules.table import DECIDED
from aces.walk import Step, Visitor, drive, walk

if t.TYPE_CHECKING:
    from collections.abc import Sequence

    from aces.events import Event

PLAYERS: t.Final = ("Ada", "Bo", "Cy")
# Worked example E1 of the rulings: lines 6-8 are Cy's 1-6 and what it costs.
E1_SCRIPT: t.Final = "2/3/5/1 6/3 5/6 6/1 1/1 6/1 4/2 5/6 6/1 1/3 4/5 2"


def e1() -> list[Event]:
    header = engine.header(pot.GAME, PLAYERS, {})
    return list(engine.play(pot.GAME, header, DiceFile(E1_SCRIPT.split("/"), "e1")))


def steps_of(events: Sequence[Event], *, allow_unfinished: bool = False) -> list[Step[t.Any]]:
    """Write ``events`` as a log, numbered afresh, then read and walk it."""
    out = io.BytesIO()
    LogWriter(out).write_all(events)
    lines = out.getvalue().splitlines(keepends=True)
    return list(walk(read(lines, "game.jsonl"), "game.jsonl", allow_unfinished=allow_unfinished))


def refusal(events: Sequence[Event]) -> AcesError:
    """The error that stops the walk: of its own kind, placed at its line."""
    with pytest.raises(AcesError) as caught:
        steps_of(events)
    assert caught.value.source == "game.jsonl"
    assert caught.value.exit_code == 1
    return caught.value


def changed(events: Sequence[Event], line: int, **fields: t.Any) -> list[Event]:
    """The events with the one on ``line`` (1-based) given new field values."""
    result = list(events)
    result[line - 1] = msgspec.structs.replace(result[line - 1], **fields)
    return result


# -- Logs that follow the rules ------------------------------------------------


def test_every_event_of_a_sound_log_is_a_step_with_its_line() -> None:
    events = e1()
    steps = steps_of(events)
    assert [s.event for s in steps] == events
    assert [s.line for s in steps] == list(range(1, len(events) + 1))
    assert all(s.game is pot.GAME for s in steps)


def test_each_step_carries_the_state_its_event_leads_to() -> None:
    events = e1()
    steps = steps_of(events)
    header = events[0]
    assert isinstance(header, GameStarted)
    state = pot.start(header)
    assert steps[0].state == state
    for step in steps[1:]:
        state = pot.evolve(state, step.event)
        assert step.state == state


def test_a_session_walks_game_after_game() -> None:
    events: list[Event] = []
    for seed in (1, 2):
        header = engine.header(pot.GAME, PLAYERS, {"finish": "last-holder"}, seed)
        events += engine.play(pot.GAME, header, RandomDice(seed))
    steps = steps_of(events)
    assert sum(isinstance(s.event, GameOver) for s in steps) == 2


class Seen(Visitor[list[int]]):
    """Notes the line of every step it is shown."""

    def __init__(self, kinds: frozenset[type] | None) -> None:
        self.kinds = kinds  # type: ignore[misc]
        self.lines: list[int] = []

    def visit(self, step: Step[t.Any]) -> None:
        self.lines.append(step.line)

    def result(self) -> list[int]:
        return self.lines


def test_a_visitor_that_names_its_kinds_sees_those_and_the_last_step() -> None:
    events = e1()
    out = io.BytesIO()
    LogWriter(out).write_all(events)
    lines = out.getvalue().splitlines(keepends=True)
    every = drive(read(lines, "e1"), "e1", Seen(None))
    assert every == list(range(1, len(events) + 1))
    starts = [line for line, event in enumerate(events, 1) if isinstance(event, GameStarted)]
    # The game's end is the last step: seen once, as one of the kinds.
    assert drive(read(lines, "e1"), "e1", Seen(frozenset({GameStarted, GameOver}))) == \
        [*starts, len(events)]
    # The last step is seen whatever its kind, so that a visitor knows where the log ends.
    assert drive(read(lines[:-1], "e1"), "e1", Seen(frozenset({GameStarted})),
                 allow_unfinished=True) == [*starts, len(events) - 1]


def test_a_game_still_being_recorded_may_stop_anywhere_when_allowed() -> None:
    events = e1()
    for end in range(1, len(events)):
        assert len(steps_of(events[:end], allow_unfinished=True)) == end


# -- Logs that do not -----------------------------------------------------------


def test_a_consequence_that_contradicts_its_dice_is_refused() -> None:
    error = refusal(changed(e1(), 7, count=2))
    assert error.line == 7
    assert "the rules give" in error.reason()
    assert '"count":1' in error.reason()


def test_dice_that_contradict_their_consequences_are_refused() -> None:
    # Cy's 1-6 becomes 3-6: the chip to the pot on line 7 no longer follows.
    error = refusal(changed(e1(), 6, dice=(3, 6)))
    assert error.line == 7
    assert "chips_passed" in error.reason()


def test_a_consequence_given_to_the_wrong_player_is_refused() -> None:
    error = refusal(changed(e1(), 8, to="Bo"))
    assert error.line == 8


def test_a_roll_by_the_wrong_player_is_refused() -> None:
    error = refusal(changed(e1(), 9, player="Bo"))
    assert error.line == 9
    assert "Ada should roll here (turn), not Bo (turn)" in error.reason()


def test_a_roll_in_the_wrong_stage_is_refused() -> None:
    error = refusal(changed(e1(), 9, stage="try"))
    assert error.line == 9
    assert "(try)" in error.reason()


@pytest.mark.parametrize(("dice", "reason"), [((3, 5, 2), "Ada rolls 2 dice here, not 3"),
                                              ((3,), "Ada rolls 2 dice here, not 1"),
                                              ((3, 7), "7 is not a face of a die"),
                                              ((0, 5), "0 is not a face of a die")])
def test_impossible_dice_are_refused(dice: tuple[int, ...], reason: str) -> None:
    error = refusal(changed(e1(), 9, dice=dice))
    assert error.line == 9
    assert reason in error.reason()


def test_a_roll_naming_receivers_in_a_game_without_choices_is_refused() -> None:
    error = refusal(changed(e1(), 9, to=("Bo",)))
    assert type(error) is RollError, "the rules' own kind of error, not a wrapper"
    assert error.line == 9
    assert "a roll names no receivers, but this one names Bo" in error.reason()


def test_a_missing_consequence_is_refused() -> None:
    events = e1()
    error = refusal([*events[:6], *events[7:]])
    assert error.line == 7


def test_an_extra_consequence_is_refused_where_a_roll_is_due() -> None:
    events = e1()
    error = refusal([*events[:8], TurnMissed(player="Ada"), *events[8:]])
    assert error.line == 9
    assert "Ada should roll here, but the log has a turn_missed event" in error.reason()


def test_a_new_game_in_the_middle_of_a_game_is_refused() -> None:
    events = e1()
    error = refusal([*events[:9], events[0], *events[9:]])
    assert error.line == 10
    assert "game_started" in error.reason()


@pytest.mark.parametrize("fields", [{"winner": "Ada"}, {"pot": 6}, {"pot": None}])
def test_a_wrong_result_is_refused(fields: dict[str, t.Any]) -> None:
    events = e1()
    error = refusal(changed(events, len(events), **fields))
    assert error.line == len(events)


def test_an_event_after_game_over_that_is_not_game_started_is_refused() -> None:
    events = e1()
    error = refusal([*events, Rolled(player="Ada", dice=(3, 5), stage="turn")])
    assert error.line == len(events) + 1
    assert "cannot follow a finished game" in error.reason()


def test_a_log_that_ends_where_a_roll_is_due_is_refused_at_its_last_line() -> None:
    error = refusal(e1()[:9])
    assert error.line == 9
    assert "ends before the game is over: Bo should roll next" in error.reason()


def test_a_log_that_ends_before_a_roll_is_settled_is_refused_at_its_last_line() -> None:
    error = refusal(e1()[:7])
    assert error.line == 7
    assert "ends before the roll is settled" in error.reason()
    assert "chips_passed" in error.reason()


def test_a_header_alone_is_an_unfinished_game() -> None:
    error = refusal(e1()[:1])
    assert error.line == 1
    assert "Ada should roll next" in error.reason()


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"options": {"chips": 0}}, "at least 1 chip"),
        ({"options": {"finish": "never"}}, "invalid option"),
        ({"players": ("Ada",)}, "at least 2 players"),
        ({"players": ("Ada", "Bo", "Ada")}, "share the name Ada"),
        ({"players": ("Ada", "Bo\x1b[2J")}, "cannot be shown on a line: 'Bo\\x1b[2J'"),
        ({"players": ("Ada", "B\no")}, "cannot be shown on a line: 'B\\no'"),
    ],
)
def test_a_header_the_rules_cannot_start_is_refused(fields: dict[str, t.Any], reason: str) -> None:
    error = refusal(changed(e1(), 1, **fields))
    assert error.line == 1
    assert reason in error.reason()


def test_a_header_of_a_second_game_is_checked_too() -> None:
    events = e1()
    second = GameStarted(schema=SCHEMA, game="pot", players=("Ada",), options={})
    error = refusal([*events, second])
    assert error.line == len(events) + 1


def test_nothing_after_a_bad_line_is_walked() -> None:
    events = changed(e1(), 7, count=2)
    out = io.BytesIO()
    LogWriter(out).write_all(events)
    walked: list[int] = []

    def consume() -> None:
        for step in walk(read(out.getvalue().splitlines(keepends=True), "g"), "g"):
            walked.append(step.line)

    with pytest.raises(LogError):
        consume()
    assert walked == list(range(1, 7))



def test_one_die_is_said_in_the_singular_in_every_language() -> None:
    # Line 2 is Ada's opening roll, of one die.
    error = refusal(changed(e1(), 2, dice=(2, 3)))
    assert error.line == 2
    assert error.reason() == "Ada rolls 1 die here, not 2"
    nb = translations("nb")
    assert error.reason(nb.gettext, nb.ngettext) == "Ada skal kaste én terning her, ikke 2"


def test_a_header_refused_by_its_game_is_told_in_the_chosen_language() -> None:
    error = refusal(changed(e1(), 1, options={"chips": 0}))
    assert type(error) is OptionError
    nb = translations("nb")
    assert error.render(nb.gettext, nb.ngettext) == \
        "game.jsonl, linje 1: hver spiller må ha minst én sjetong, ikke 0"


# -- Rolls taken back ------------------------------------------------------------


def undo_of(events: Sequence[Event], line: int) -> RollUndone:
    """The undo of the roll on ``line`` (1-based) of ``events``."""
    roll = events[line - 1]
    assert isinstance(roll, Rolled)
    return RollUndone(undoes=line, player=roll.player, dice=roll.dice, to=roll.to)


def test_an_undo_goes_back_to_the_state_before_the_roll() -> None:
    events = e1()
    # Line 9 is Ada's 3-5; line 10 Bo's 6-6, with its chips on line 11.
    taken_back = [*events[:11], undo_of(events, 10)]
    steps = steps_of(taken_back, allow_unfinished=True)
    assert steps[-1].event == undo_of(events, 10)
    assert steps[-1].state == steps[8].state


def test_play_goes_on_after_an_undo_as_if_the_roll_never_was() -> None:
    events = e1()
    corrected = [*events[:11], undo_of(events, 10), *events[9:]]
    steps = steps_of(corrected)
    assert [s.event for s in steps[12:]] == events[9:]
    assert steps[-1].state == steps_of(events)[-1].state


def test_undos_take_back_one_roll_after_another() -> None:
    events = e1()
    # Line 8 is the last consequence of Cy's 1-6 on line 6.
    taken_back = [*events[:11], undo_of(events, 10), undo_of(events, 9), undo_of(events, 6)]
    steps = steps_of(taken_back, allow_unfinished=True)
    assert steps[-1].state == steps[4].state
    error = refusal([*taken_back, undo_of(events, 6)])
    assert error.line == len(taken_back) + 1
    assert "the rules give" in error.reason()


def test_an_undo_after_the_game_is_over_takes_the_last_roll_back() -> None:
    events = e1()
    last = max(i for i, e in enumerate(events, start=1) if isinstance(e, Rolled))
    steps = steps_of([*events, undo_of(events, last), *events[last - 1:]])
    assert isinstance(steps[-1].event, GameOver)
    assert steps[len(events)].state == steps[last - 2].state
    # Left there, the game is not over.
    assert "ends before the game is over" in refusal([*events, undo_of(events, last)]).reason()


@pytest.mark.parametrize(
    ("undo", "reason"),
    [
        pytest.param(RollUndone(undoes=9, player="Ada", dice=(3, 5)), "the rules give",
                     id="not-the-last-roll"),
        pytest.param(RollUndone(undoes=10, player="Bo", dice=(6, 5)), "the rules give",
                     id="other-dice"),
        pytest.param(RollUndone(undoes=10, player="Ada", dice=(6, 6)), "the rules give",
                     id="other-player"),
        pytest.param(RollUndone(undoes=11, player="Bo", dice=(6, 6)), "the rules give",
                     id="a-consequence"),
    ],
)
def test_an_undo_must_name_the_last_roll_standing(undo: RollUndone, reason: str) -> None:
    events = e1()
    error = refusal([*events[:11], undo, *events[11:]])
    assert error.line == 12
    assert reason in error.reason()
    assert '"type":"roll_undone","undoes":10,"player":"Bo","dice":[6,6]' in error.reason()


def test_an_undo_cannot_reach_into_the_game_before() -> None:
    events = e1()
    last = max(i for i, e in enumerate(events, start=1) if isinstance(e, Rolled))
    error = refusal([*events, events[0], undo_of(events, last)])
    assert error.line == len(events) + 2
    assert "no roll of this game is left to take back" in error.reason()


def test_an_undo_cannot_come_between_a_roll_and_its_consequences() -> None:
    events = e1()
    error = refusal([*events[:6], undo_of(events, 6), *events[6:]])
    assert error.line == 7
    assert "the rules give" in error.reason()


def test_an_undo_reaches_back_no_further_than_its_depth(monkeypatch: pytest.MonkeyPatch) -> None:
    from aces import walk as walk_module

    monkeypatch.setattr(walk_module, "UNDO_DEPTH", 2)
    events = e1()
    undos = [undo_of(events, 10), undo_of(events, 9), undo_of(events, 6)]
    error = refusal([*events[:11], *undos])
    assert error.line == 14
    assert "at most 2 rolls" in error.reason()


def session_events(games: int, players: Sequence[str] = PLAYERS) -> list[Event]:
    """``games`` random games in a row at one table, as a session's log holds them."""
    events: list[Event] = []
    for seed in range(1, games + 1):
        header = engine.header(pot.GAME, players, {}, seed)
        events += engine.play(pot.GAME, header, RandomDice(seed))
    return events


def assert_folded(events: Sequence[Event], steps: Sequence[Step[t.Any]]) -> None:
    """Every step is its event, on its line, with the state the fold of the
    log's events gives there (each game folded from its header)."""
    assert [s.event for s in steps] == list(events)
    assert [s.line for s in steps] == list(range(1, len(events) + 1))
    state: t.Any = None
    for step in steps:
        event = step.event
        state = pot.start(event) if isinstance(event, GameStarted) else pot.evolve(state, event)
        assert step.state == state, step.line


def test_a_session_that_comes_back_to_the_same_places_folds_every_event() -> None:
    # Game after game reaches the same chips with the same player to roll:
    # the walk takes the moves it has seen there before from what it
    # remembers, and every state is still the fold of the events.
    events = session_events(40)
    assert_folded(events, steps_of(events))


def test_a_walk_that_forgets_its_places_folds_every_event(monkeypatch: pytest.MonkeyPatch) -> None:
    # A log meeting more places than a walk remembers (a table of hundreds,
    # here a limit of a few): forgotten, then no longer remembered at all.
    monkeypatch.setattr(walk_module, "POINTS", 5)
    events = session_events(6)
    assert_folded(events, steps_of(events))


def test_the_opening_once_decided_is_the_same_in_every_game() -> None:
    # Play never reads the opening's rolls, so that games whose openings
    # differ reach equal states of play.
    ends = [s.state for s in steps_of(session_events(5)) if isinstance(s.event, OpeningWon)]
    assert len(ends) == 5
    assert all(state.opening == DECIDED for state in ends)
    assert all(state == ends[0] for state in ends if state.turn == ends[0].turn)


def test_undos_in_a_session_go_back_to_states_seen_before() -> None:
    events = session_events(3)
    rolls = [i for i, event in enumerate(events) if isinstance(event, Rolled)]
    # Take back a roll in the middle of the second game, and play it again.
    at = rolls[len(rolls) // 2]
    settled = next(i for i in range(at + 1, len(events))
                   if isinstance(events[i], Rolled | GameStarted))
    roll = events[at]
    assert isinstance(roll, Rolled)
    undo = RollUndone(undoes=at + 1, player=roll.player, dice=roll.dice, to=roll.to)
    undone = [*events[:settled], undo, *events[at:]]
    steps = steps_of(undone)
    assert steps[settled].undone is not None
    assert steps[settled].state == steps[at - 1].state
    # The roll played again leads through the very states it led through before.
    again = steps[settled + 1:settled + 1 + settled - at]
    assert [s.state for s in again] == [s.state for s in steps[at:settled]]
    assert isinstance(steps[-1].event, GameOver)


@pytest.mark.parametrize("size", [1, 7, 512])
def test_a_log_read_in_batches_of_any_size_folds_every_event(
        monkeypatch: pytest.MonkeyPatch, size: int) -> None:
    # The reader hands its lines on a batch at a time; records given one by
    # one (as the API gives a game's) are walked the same way.
    monkeypatch.setattr(log_module, "BATCH", size)
    events = session_events(8)
    assert_folded(events, steps_of(events))
    given = list(walk([Record(line, event) for line, event in enumerate(events, 1)], "given"))
    assert_folded(events, given)
    assert all(a.event is b for a, b in zip(given, events, strict=True))


def test_nothing_is_seen_past_a_bad_line_whatever_the_lines_read_after_it() -> None:
    # A roll the rules refuse on line 20, in the middle of a batch whose
    # later lines are sound, then a line that is not: the walk's error is
    # the first, and the visitor has seen every line before it.
    events = session_events(2)
    bad = next(i for i, event in enumerate(events) if isinstance(event, Rolled) and i >= 19)
    roll = events[bad]
    assert isinstance(roll, Rolled)
    wrong = changed(events, bad + 1, player="Nobody")
    out = io.BytesIO()
    LogWriter(out).write_all(wrong)
    lines = [*out.getvalue().splitlines(keepends=True), b"not json\n"]
    seen = Seen(None)
    with pytest.raises(LogError) as caught:
        drive(read(lines, "game.jsonl"), "game.jsonl", seen)
    assert caught.value.line == bad + 1
    assert seen.lines == list(range(1, bad + 1))


def test_an_undo_takes_back_a_roll_the_walk_remembered() -> None:
    # The second game replays the first's moves from memory; an undo there
    # still finds the roll it takes back, with the state before it.
    events = session_events(1)
    again = session_events(1)
    rolls = [i for i, event in enumerate(again) if isinstance(event, Rolled)]
    at = rolls[5]
    settled = next(i for i in range(at + 1, len(again))
                   if isinstance(again[i], Rolled | GameStarted))
    roll = again[at]
    assert isinstance(roll, Rolled)
    first = len(events)
    undo = RollUndone(undoes=first + at + 1, player=roll.player, dice=roll.dice, to=roll.to)
    log = [*events, *again[:settled], undo, *again[at:]]
    steps = steps_of(log)
    undone = steps[first + settled].undone
    assert undone is not None
    assert (undone.line, undone.roll) == (first + at + 1, roll)
    assert steps[first + settled].state == steps[first + at - 1].state
    assert_folded(log[:first], steps[:first])
