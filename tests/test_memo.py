"""Remembered answers are the answers: every cache against the work it saves.

Two caches stand between the rules and a reader: Aces in the Pot remembers
its decisions by :class:`~aces.rules.pot.Situation`, and each phrasebook
remembers the words of an event. Over random games of every option (both
finishes, 1 to 3 chips, 2 to 6 players; five-dice with and without threes,
1 to 3 dice each), each answer from a cache, warmed by all the games before
it, must be exactly what working it out afresh gives.
"""

from __future__ import annotations

import functools
import typing as t

from hypothesis import given, settings
from hypothesis import strategies as st

from aces import engine
from aces.dice import RandomDice
from aces.events import Rolled
from aces.games import registration
from aces.i18n import translations
from aces.rules import Roll, fivedice, pot
from aces.voice import Voice
from aces.walk import Step

if t.TYPE_CHECKING:
    from aces.narrate.phrasebook import Phrasebook
    from aces.rules import Decider, OptionValue

NAMES: t.Final = ("Ada", "Bo", "Cy", "Dag", "Eli", "Fia")

pot_setups = st.tuples(st.integers(2, 6), st.sampled_from(pot.FINISHES), st.integers(1, 3))
fivedice_setups = st.tuples(st.integers(3, 6), st.booleans(), st.integers(1, 3))


def steps(game: Decider[t.Any], players: int, options: dict[str, OptionValue],
          seed: int) -> t.Iterator[tuple[t.Any, Roll, Step[t.Any]]]:
    """A random game: each state before a roll, the roll, then each step after it."""
    start = engine.header(game, NAMES[:players], options, seed)
    state = game.start(start)
    dice = RandomDice(seed)
    yield state, Roll(()), Step(1, start, state, game)
    line = 1
    while (request := game.next_roll(state)) is not None:
        roll = dice.roll(request)
        if game.choose is not None:
            roll = Roll(roll.dice, game.choose(state, roll.dice, dice.rng))
        before = state
        for event in game.decide(state, roll):
            state = game.evolve(state, event)
            line += 1
            yield before, roll, Step(line, event, state, game)


@settings(max_examples=60, deadline=None)
@given(pot_setups, st.integers(0, 2**32 - 1), st.integers(1, 6), st.integers(1, 6))
def test_every_pot_decision_from_the_memo_is_the_decision_made_afresh(
    setup: tuple[int, str, int], seed: int, first: int, second: int,
) -> None:
    players, finish, chips = setup
    options: dict[str, OptionValue] = {"finish": finish, "chips": chips}
    for state, made, step in steps(pot.GAME, players, options, seed):
        if not isinstance(step.event, Rolled):
            continue
        # The roll the game made, and another one from the same state.
        other = Roll((first, second)[:len(made.dice)])
        for roll in (made, other):
            assert pot.decide(state, roll) == pot.decide_afresh(pot.situation(state), roll)


def test_a_situation_holds_every_field_of_a_state_but_the_derived_seats() -> None:
    """A field added to the state is either in the situation or deliberately not."""
    assert set(pot.PotState.__struct_fields__) - set(pot.Situation._fields) == {
        "seats", "winner"}


@functools.cache
def book(game: str) -> Phrasebook:
    """One phrasebook a game for the whole run, so its cache is warmed by every game."""
    return registration(game).phrasebook(Voice(translations("nb"), "nb"))


@settings(max_examples=40, deadline=None)
@given(st.one_of(pot_setups.map(lambda s: ("pot", s)),
                 fivedice_setups.map(lambda s: ("five-dice", s))),
       st.integers(0, 2**32 - 1))
def test_every_event_told_from_the_cache_is_told_as_afresh(
    setup: tuple[str, tuple[int, t.Any, int]], seed: int,
) -> None:
    name, (players, variant, count) = setup
    options: dict[str, OptionValue]
    if name == "pot":
        game: Decider[t.Any] = pot.GAME
        options = {"finish": variant, "chips": count}
    else:
        game = fivedice.GAME
        options = {"threes": variant, "dice": count}
    phrasebook = book(name)
    # A phrasebook of this game alone, whose caches are never read: every
    # sentence from it is made afresh, from the event and its context.
    afresh = registration(name).phrasebook(Voice(translations("nb"), "nb"))
    for _, _, step in steps(game, players, options, seed):
        if step.line == 1:
            continue
        assert phrasebook.say(step) == afresh.say_afresh(step)
        holding = registration(name).holding(step.state)
        everyone = dict(zip(holding.players, holding.held, strict=True))
        assert phrasebook.standings(step.state, step.state, full=True) == \
            afresh.tell_standings(everyone, holding.out, every=True)


def test_a_struct_weighs_what_its_fields_hold() -> None:
    """A decoded line (a msgspec Struct) is weighed by its fields, as a tuple of
    them would be, though the module never imports msgspec."""
    import msgspec

    from aces.memo import OBJECT, REF, weigh

    class Line(msgspec.Struct):
        player: str
        dice: tuple[int, ...]

    line = Line("Ada" * 100, (1, 6))
    assert weigh(line) == OBJECT + REF + weigh("Ada" * 100) + REF + weigh((1, 6))
    assert weigh(line) > weigh(Line("A", (1, 6)))
