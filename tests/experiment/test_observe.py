"""What a class experiment counts of a corrected game is what it counts of
the game as it should have been typed: an undo takes a roll back with all
it settled, whatever that was (the opening won, a try ended, a roll again,
the end of the game), by the walk's own keeper of the rolls standing."""

from __future__ import annotations

import io
import random
import typing as t

from hypothesis import given, settings
from hypothesis import strategies as st

from aces import engine
from aces.dice import RandomDice
from aces.events import Rolled, RollUndone
from aces.experiment.observe import Counts
from aces.experiment.pool import records
from aces.games import game_named
from aces.log import LogWriter
from aces.record import Recording
from aces.rules import Roll

if t.TYPE_CHECKING:
    from aces.events import Event
    from aces.experiment.observe import GameRecord
    from aces.rules import OptionValue

NAMES: t.Final = ("Ada", "Bo", "Cy", "Dag", "Eli")

setups = st.one_of(
    st.tuples(st.just("pot"), st.integers(2, 5),
              st.fixed_dictionaries({"finish": st.sampled_from(["last-chip", "last-holder"]),
                                     "chips": st.integers(1, 3)})),
    st.tuples(st.just("five-dice"), st.integers(3, 5),
              st.fixed_dictionaries({"dice": st.integers(1, 2), "threes": st.booleans()})),
)


def counted(events: list[Event]) -> list[GameRecord]:
    log = io.BytesIO()
    LogWriter(log).write_all(events)
    return list(records(io.BytesIO(log.getvalue()), "<log>", keep_rows=True))


@settings(max_examples=40, deadline=None)
@given(setups, st.integers(0, 2**32 - 1), st.integers(1, 2**32 - 1),
       st.floats(0.05, 0.5))
def test_a_roll_taken_back_is_counted_as_if_never_typed(
    setup: tuple[str, int, dict[str, OptionValue]], seed: int, mistakes: int, often: float,
) -> None:
    name, players, options = setup
    game = game_named(name)
    header = engine.header(game, NAMES[:players], options, seed)
    typed = list(engine.play(game, header, RandomDice(seed)))
    rolls = [event for event in typed if isinstance(event, Rolled)]

    # The same game typed at a table: before some of its rolls, a wrong roll
    # (with all it settles, maybe the end of the game) is typed and taken back.
    wrong = random.Random(mistakes)
    table = Recording()
    table.begin(header)
    corrected: list[Event] = []
    undone = 0
    for roll in rolls:
        request = table.request()
        assert request is not None
        if wrong.random() < often:
            dice = tuple(wrong.randint(1, 6) for _ in range(request.dice))
            to = () if game.choose is None else game.choose(table.state, dice, wrong)
            corrected += [step.event for step in table.play(Roll(dice, to))]
            corrected += [step.event for step in table.undo()]
            undone += 1
        corrected += [step.event for step in table.play(Roll(roll.dice, roll.to))]
    assert table.request() is None, "the game is over"

    assert sum(isinstance(event, RollUndone) for event in corrected) == undone
    assert counted(corrected) == counted(typed)


@settings(max_examples=40, deadline=None)
@given(setups, st.integers(0, 2**32 - 1))
def test_a_games_count_packed_comes_back_as_it_was_counted(
    setup: tuple[str, int, dict[str, OptionValue]], seed: int,
) -> None:
    """The live class keeps every finished game packed, to take one out of
    the pool later: unpacked, it is the count that game makes."""
    name, players, options = setup
    game = game_named(name)
    header = engine.header(game, NAMES[:players], options, seed)
    (record,) = counted(list(engine.play(game, header, RandomDice(seed))))
    made = Counts.of(record)
    back = Counts.unpacked(Counts.packed(record), players)
    assert vars(back) == vars(made)
    assert len(Counts.packed(record)) < 200
