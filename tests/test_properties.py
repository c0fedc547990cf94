"""Properties of whole games of Aces in the Pot, over random tables and seeds.

Every example plays a complete game with the engine, writes it as JSON
Lines and reads it back; then the rules' invariants are checked at every
step, and single changes to the log are made to see what ``verify``
(the checked walk) makes of them.

What the rules alone can detect: a log is checked by re-deciding every
roll, so a changed die is seen exactly when it changes what the roll
settles. A 3 that becomes a 4 in a normal turn settles the same (nothing),
and the log that results is a log of a game that could have happened. Such
*neutral* changes are accepted by the rules; the digest chain of the log
catches them (a written log with any die changed is refused at its line).
Every other change, and every changed consequence, is refused by the rules
at the first line where the log departs from what they give.
"""

from __future__ import annotations

import io
import itertools
import typing as t

import hypothesis
import msgspec
import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from aces import engine
from aces.dice import RandomDice
from aces.errors import LogError
from aces.events import (
    ChipsPassed,
    GameOver,
    GameStarted,
    OpeningTied,
    OpeningWon,
    Rolled,
    TurnMissed,
)
from aces.log import LogWriter, read
from aces.rules import Roll, pot
from aces.walk import Step, walk

if t.TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from aces.events import Event
    from aces.rules import RollRequest
    from aces.rules.pot import PotState

NAMES: t.Final = ("Ada", "Bo", "Cy", "Dag", "Eli", "Fia", "Gro", "Hal")
#: No game comes near this many events (the longest seen are a few hundred).
BOUND: t.Final = 50_000
SOURCE: t.Final = "game.jsonl"


class Played(t.NamedTuple):
    """One game as the engine played it, and as written to a log."""

    header: GameStarted
    events: list[Event]
    log: bytes

    @property
    def total(self) -> int:
        """Every chip at the table, in play or in the pot."""
        chips = self.header.options["chips"]
        assert isinstance(chips, int)
        return chips * len(self.header.players)


def play(players: int, chips: int, finish: str, seed: int) -> Played:
    header = engine.header(pot.GAME, NAMES[:players], {"finish": finish, "chips": chips}, seed)
    events = list(itertools.islice(engine.play(pot.GAME, header, RandomDice(seed)), BOUND + 1))
    return Played(header, events, write(events))


def write(events: Sequence[Event]) -> bytes:
    out = io.BytesIO()
    LogWriter(out).write_all(events)
    return out.getvalue()


def walked(log: bytes) -> list[Step[t.Any]]:
    return list(walk(read(log.splitlines(keepends=True), SOURCE), SOURCE))


games = st.builds(
    play,
    players=st.integers(2, 8),
    chips=st.integers(1, 4),
    finish=st.sampled_from(pot.FINISHES),
    seed=st.integers(0, 2**32 - 1),
)


# -- Invariants -----------------------------------------------------------------


@given(games)
def test_every_game_ends(game: Played) -> None:
    assert len(game.events) <= BOUND
    assert isinstance(game.events[-1], GameOver)
    assert sum(isinstance(e, GameOver) for e in game.events) == 1


@given(games)
def test_chips_are_conserved_at_every_step(game: Played) -> None:
    for step in walked(game.log):
        state: PotState = step.state
        assert state.pot + state.in_play == game.total
        assert min(state.chips) >= 0


@given(games)
def test_the_rules_hold_at_every_step(game: Played) -> None:
    steps = walked(game.log)
    for before, step in itertools.pairwise(steps):
        state: PotState = before.state
        after: PotState = step.state
        event = step.event
        assert after.pot >= state.pot
        if state.finish == "last-chip":
            # The last chip never goes to the pot.
            assert after.in_play >= 1
        if isinstance(event, Rolled) and event.stage != "opening":
            roller = state.seats[event.player]
            # Only a player holding chips rolls; a try is made by the one
            # holding the last chip, or (last-holder) every chip in play.
            assert state.chips[roller] >= 1
            if event.stage == "try":
                assert state.holders() == (roller,)
                if state.finish == "last-chip":
                    assert state.in_play == 1
        if isinstance(event, TurnMissed):
            assert state.chips[state.seats[event.player]] == 0
        if isinstance(event, ChipsPassed):
            assert state.seats[event.to] == state.left_of(state.seats[event.player])
        if isinstance(event, GameOver):
            assert event.pot == state.pot == after.pot
            assert event.winner == state.players[state.turn]


@given(games)
def test_the_log_read_back_equals_the_events_written(game: Played) -> None:
    records = list(read(game.log.splitlines(keepends=True), SOURCE))
    assert [r.event for r in records] == game.events
    assert [r.line for r in records] == list(range(1, len(game.events) + 1))


@given(games)
def test_walking_the_written_log_reproduces_the_engines_state(game: Played) -> None:
    state = pot.start(game.header)
    steps = walked(game.log)
    assert len(steps) == len(game.events)
    for event, step in zip(game.events[1:], steps[1:], strict=True):
        state = pot.evolve(state, event)
        assert step.state == state
    assert state.phase == "over"


# -- Tampering ------------------------------------------------------------------


class RanOutError(Exception):
    """The scripted dice ran out: the game went on longer than its log."""


class Scripted:
    """Replays a list of rolls, whoever asks for them."""

    def __init__(self, rolls: Sequence[tuple[int, ...]]) -> None:
        self._rolls = iter(rolls)

    def roll(self, request: RollRequest) -> Roll:
        dice = next(self._rolls, None)
        if dice is None:
            raise RanOutError
        return Roll(dice)


def departure(header: GameStarted, log: Sequence[Event]) -> int | None:
    """The first line where ``log`` is not what the rules give for its own dice.

    The rules are run by the engine on the log's dice, as a model of what
    a checker should compare; ``None`` when the whole log is what they give.
    """
    rolls = [e.dice for e in log if isinstance(e, Rolled)]
    ruled: Iterator[Event] = engine.play(pot.GAME, header, Scripted(rolls))
    for line, logged in enumerate(log, start=1):
        try:
            expected = next(ruled, None)
        except RanOutError:
            return line
        if expected != logged:
            return line
    return None if next(ruled, None) is None else len(log)


def settles_differently(state: PotState, steps: Sequence[Step[t.Any]], index: int,
                        new: tuple[int, ...]) -> bool:
    """Whether the rulings settle the roll at ``steps[index]`` differently
    with the dice ``new``: written from the rulings, not from the code."""
    old = t.cast("Rolled", steps[index].event)
    if old.stage == "turn":
        # Each ace and each six is paid, ignored or recorded as unpaid.
        return (old.dice.count(1), old.dice.count(6)) != (new.count(1), new.count(6))
    if old.stage == "try":
        if state.finish == "last-chip":
            return (6 in old.dice) != (6 in new)
        return old.dice.count(6) != new.count(6)
    # The opening: the round as logged, before and after this roll, decides the outcome.
    earlier: list[int] = []
    for step in reversed(steps[:index]):
        if not isinstance(step.event, Rolled) or step.event.stage != "opening":
            break
        earlier.insert(0, step.event.dice[0])
    later: list[int] = []
    for step in steps[index + 1:]:
        if isinstance(step.event, OpeningTied | OpeningWon):
            break
        later.append(t.cast("Rolled", step.event).dice[0])
    contenders = state.opening.contenders

    def outcome(value: int) -> tuple[int, tuple[int, ...]]:
        values = (*earlier, value, *later)
        top = max(values)
        return top, tuple(s for s, v in zip(contenders, values, strict=True) if v == top)

    return outcome(old.dice[0]) != outcome(new[0])


def refused_at(log: Sequence[Event]) -> int | None:
    """The line ``verify``'s walk refuses, or ``None`` if it accepts the log."""
    try:
        walked(write(log))
    except LogError as error:
        note(str(error))
        return error.line
    return None


@given(games, st.data())
def test_a_changed_die_is_refused_exactly_when_it_changes_the_settlement(
    game: Played, data: st.DataObject
) -> None:
    steps = walked(game.log)
    rolls = [i for i, s in enumerate(steps) if isinstance(s.event, Rolled)]
    index = data.draw(st.sampled_from(rolls), label="roll")
    rolled = t.cast("Rolled", steps[index].event)
    die = data.draw(st.integers(0, len(rolled.dice) - 1), label="die")
    face = data.draw(st.sampled_from([f for f in range(1, 7) if f != rolled.dice[die]]),
                     label="face")
    dice = (*rolled.dice[:die], face, *rolled.dice[die + 1:])
    log = list(game.events)
    log[index] = msgspec.structs.replace(rolled, dice=dice)

    line = departure(game.header, log)
    hypothesis.event(f"{rolled.stage} roll, {'neutral' if line is None else 'refused'}")
    state: PotState = steps[index - 1].state
    assert (line is not None) == settles_differently(state, steps, index, dice)
    assert refused_at(log) == line
    if line is not None:
        # Refused among the roll's own consequences (for an opening roll,
        # those of its round), before the next roll is reached.
        assert index + 1 < line <= next_roll_after(game.events, index) + 1


def next_roll_after(events: Sequence[Event], index: int) -> int:
    """The index of the first roll after the settlement of the roll at ``index``."""
    settled = index
    if t.cast("Rolled", events[index]).stage == "opening":
        settled = next(i for i in range(index, len(events))
                       if isinstance(events[i], OpeningTied | OpeningWon))
    return next((i for i in range(settled + 1, len(events)) if isinstance(events[i], Rolled)),
                len(events))


@given(games, st.data())
def test_a_die_that_is_no_face_is_refused_at_its_line(game: Played, data: st.DataObject) -> None:
    rolls = [i for i, e in enumerate(game.events) if isinstance(e, Rolled)]
    index = data.draw(st.sampled_from(rolls), label="roll")
    rolled = t.cast("Rolled", game.events[index])
    face = data.draw(st.sampled_from([0, 7, 66, -1]), label="face")
    log = list(game.events)
    log[index] = msgspec.structs.replace(rolled, dice=(face, *rolled.dice[1:]))
    assert refused_at(log) == index + 1


def changes(event: Event, players: Sequence[str]) -> list[Event]:
    """Every single-field change of ``event`` worth trying."""
    names = [*players, "Zed"]
    found: list[Event] = []
    for field in msgspec.structs.fields(event):
        value = getattr(event, field.name)
        candidates: list[t.Any]
        if field.name == "stage":
            candidates = ["opening", "turn", "try"]
        elif isinstance(value, str) or (value is None and field.name in ("winner", "loser")):
            candidates = [n for n in names if n != value]
        elif isinstance(value, bool):
            candidates = [not value]
        elif isinstance(value, int):
            candidates = [value + 1, value - 1, value + 2, 0]
        elif isinstance(value, tuple) and value and isinstance(value[0], str):
            candidates = [value[:-1], (*value, *[n for n in names if n not in value][:1]),
                          value[::-1]]
        else:
            candidates = []
        found += [msgspec.structs.replace(event, **{field.name: c})
                  for c in candidates if c != value]
    return [c for c in found if c != event]


@given(games, st.data())
def test_a_changed_consequence_is_refused_at_its_line(game: Played, data: st.DataObject) -> None:
    consequences = [i for i, e in enumerate(game.events)
                    if not isinstance(e, Rolled | GameStarted)]
    index = data.draw(st.sampled_from(consequences), label="consequence")
    change = data.draw(st.sampled_from(changes(game.events[index], game.header.players)),
                       label="change")
    log = list(game.events)
    log[index] = change
    assert refused_at(log) == index + 1


@given(games, st.data())
def test_a_roll_by_another_player_or_in_another_stage_is_refused_at_its_line(
    game: Played, data: st.DataObject
) -> None:
    rolls = [i for i, e in enumerate(game.events) if isinstance(e, Rolled)]
    index = data.draw(st.sampled_from(rolls), label="roll")
    rolled = t.cast("Rolled", game.events[index])
    others = [c for c in changes(rolled, game.header.players)
              if isinstance(c, Rolled) and c.dice == rolled.dice]
    change = data.draw(st.sampled_from(others), label="change")
    log = list(game.events)
    log[index] = change
    assert refused_at(log) == index + 1


def test_verify_refuses_any_single_changed_die() -> None:
    # A neutral face (E1: Ada's 3-5 as 4-5) settles the same, so the rules
    # cannot see it; the digest of its line can.
    e1 = play_script("2/3/5/1 6/3 5/6 6/1 1/1 6/1 4/2 5/6 6/1 1/3 4/5 2")
    index = e1.index(Rolled(player="Ada", dice=(3, 5), stage="turn"))
    log = list(e1)
    log[index] = Rolled(player="Ada", dice=(4, 5), stage="turn")
    assert departure(t.cast("GameStarted", e1[0]), log) is None
    written = write(e1).splitlines(keepends=True)
    written[index] = written[index].replace(b'"dice":[3,5]', b'"dice":[4,5]')
    with pytest.raises(LogError, match="digest does not match") as caught:
        list(walk(read(written, SOURCE), SOURCE))
    assert caught.value.line == index + 1


@given(games, st.data())
def test_any_single_changed_die_in_a_written_log_is_refused_at_its_line(
    game: Played, data: st.DataObject
) -> None:
    rolls = [i for i, e in enumerate(game.events) if isinstance(e, Rolled)]
    index = data.draw(st.sampled_from(rolls), label="roll")
    rolled = t.cast("Rolled", game.events[index])
    die = data.draw(st.integers(0, len(rolled.dice) - 1), label="die")
    face = data.draw(st.sampled_from([f for f in range(1, 7) if f != rolled.dice[die]]),
                     label="face")
    dice = (*rolled.dice[:die], face, *rolled.dice[die + 1:])
    lines = game.log.splitlines(keepends=True)
    old = msgspec.json.encode(rolled)[1:-1]
    new = msgspec.json.encode(msgspec.structs.replace(rolled, dice=dice))[1:-1]
    assert old in lines[index]
    lines[index] = lines[index].replace(old, new)
    with pytest.raises(LogError) as caught:
        list(walk(read(lines, SOURCE), SOURCE))
    assert caught.value.line == index + 1


def play_script(script: str) -> list[Event]:
    from aces.dice import DiceFile

    header = engine.header(pot.GAME, NAMES[:3], {})
    return list(engine.play(pot.GAME, header, DiceFile(script.split("/"), "script")))
