"""Aces, the five-dice game, ruling by ruling (../shared/RULINGS.md), as a decider.

Each scenario reads: *given* these events, *when* the next player rolls
these dice, *then* exactly these events follow. Every history is also
walked by :func:`aces.walk.walk`, so the given events are ones the rules
could really have written, not a state made up by hand.
"""

from __future__ import annotations

import random
import typing as t

import msgspec
import pytest

from aces import engine
from aces.dice import DiceFile, RandomDice
from aces.errors import OptionError, RollError
from aces.events import (
    SCHEMA,
    DicePassed,
    DiceToCentre,
    GameOver,
    GameStarted,
    OpeningTied,
    OpeningWon,
    RollAgain,
    Rolled,
    TurnMissed,
)
from aces.games import game_named, games
from aces.log import Record
from aces.rules import Roll, RollRequest, fivedice
from aces.rules.seats import Seats
from aces.walk import walk

if t.TYPE_CHECKING:
    from collections.abc import Sequence

    from aces.events import Event
    from aces.rules.fivedice import FiveDiceState

PLAYERS: t.Final = ("Ada", "Bo", "Cy")
FOUR: t.Final = ("Ada", "Bo", "Cy", "Dag")
E3_SCRIPT: t.Final = "5/2/1/3/4/2/5 1/2/3 1/6/1"


# -- Building histories -------------------------------------------------------


def started(
    players: Sequence[str] = PLAYERS, *, dice: int = 5, threes: bool = False,
    threes_to: str = "random",
) -> GameStarted:
    return GameStarted(schema=SCHEMA, game="five-dice", players=tuple(players),
                       options={"dice": dice, "threes": threes, "threes_to": threes_to})


def opening(player: str, *dice: int) -> Rolled:
    return Rolled(player=player, dice=dice, stage="opening")


def turn(player: str, *dice: int, to: tuple[str, ...] = ()) -> Rolled:
    return Rolled(player=player, dice=dice, stage="turn", to=to)


def passed(player: str, to: str, count: int, face: t.Literal[2, 3, 5]) -> DicePassed:
    return DicePassed(player=player, to=to, count=count, face=face)


def opened_by(header: GameStarted, starter: str) -> list[Event]:
    """The header and an opening that ``starter`` wins: all 6s against all 2s."""
    each = header.options["dice"]
    assert isinstance(each, int)
    rolls: list[Event] = [
        opening(p, *([6 if p == starter else 2] * each)) for p in header.players
    ]
    return [header, *rolls, OpeningWon(player=starter, value=6 * each)]


def fold(events: Sequence[Event]) -> FiveDiceState:
    header = events[0]
    assert isinstance(header, GameStarted)
    state = fivedice.start(header)
    for event in events[1:]:
        state = fivedice.evolve(state, event)
    return state


def scenario(given: Sequence[Event], when: Sequence[int], then: Sequence[Event],
             to: tuple[str, ...] = ()) -> FiveDiceState:
    """Check one decision; return the state after it."""
    assert fivedice.decide(fold(given), Roll(tuple(when), to)) == tuple(then)
    history = [*given, *then]
    records = (Record(line, event) for line, event in enumerate(history, start=1))
    assert len(list(walk(records, "scenario", allow_unfinished=True))) == len(history)
    return fold(history)


def held(state: FiveDiceState) -> dict[str, int]:
    return dict(zip(state.players, state.held, strict=True))


# -- The game and its options -------------------------------------------------


def test_the_game_is_registered_as_five_dice() -> None:
    assert games()["five-dice"] is fivedice.GAME
    assert game_named("five-dice").name == "five-dice"
    assert fivedice.GAME.choose is fivedice.choose


# -- Ruling 1: players and dice -----------------------------------------------


def test_ruling_1_everyone_starts_with_five_dice_and_the_centre_empty() -> None:
    state = fold([started()])
    assert held(state) == {"Ada": 5, "Bo": 5, "Cy": 5}
    assert state.centre == 0
    assert fivedice.options({}) == {"dice": 5, "threes": False, "threes_to": "random"}


@pytest.mark.parametrize("count", [1, 2, 6])
def test_ruling_1_the_number_of_dice_is_an_option(count: int) -> None:
    state = fold([started(dice=count)])
    assert state.held == (count,) * len(PLAYERS)
    assert fivedice.next_roll(state) == RollRequest("Ada", count, "opening")


@pytest.mark.parametrize("players", [["Ada"], ["Ada", "Bo"]])
def test_ruling_1_fewer_than_three_players_are_refused(players: list[str]) -> None:
    with pytest.raises(OptionError, match=f"at least 3 players, not {len(players)}"):
        fivedice.GAME.check_players(players)
    with pytest.raises(OptionError, match="at least 3 players"):
        engine.header(fivedice.GAME, players, {})


@pytest.mark.parametrize(
    ("raw", "complaint"),
    [
        ({"dice": 0}, "at least 1 die, not 0"),
        ({"dice": "five"}, "invalid option"),
        ({"dice": True}, "invalid option"),
        ({"threes": 1}, "invalid option"),
        ({"threes_to": "nearest"}, "invalid option"),
        ({"chips": 2}, "invalid option"),
        ({"finish": "last-chip"}, "invalid option"),
    ],
)
def test_ruling_1_options_outside_the_rules_are_refused(
    raw: dict[str, int | str | bool], complaint: str
) -> None:
    with pytest.raises(OptionError, match=complaint):
        fivedice.options(raw)


# -- Ruling 2: the opening ----------------------------------------------------


def test_ruling_2_every_player_rolls_all_their_dice_in_seat_order() -> None:
    state = fold([started()])
    asked = []
    for dice in ((1, 2, 3, 4, 5), (6, 6, 6, 6, 6)):
        request = fivedice.next_roll(state)
        assert request is not None
        asked.append(request)
        for event in fivedice.decide(state, Roll(dice)):
            state = fivedice.evolve(state, event)
    assert asked == [RollRequest("Ada", 5, "opening"), RollRequest("Bo", 5, "opening")]
    assert fivedice.next_roll(state) == RollRequest("Cy", 5, "opening")


def test_ruling_2_opening_dice_move_nothing() -> None:
    state = scenario(given=[started()], when=[1, 1, 2, 5, 3],
                     then=[opening("Ada", 1, 1, 2, 5, 3)])
    assert state.held == (5, 5, 5)
    assert state.centre == 0


def test_ruling_2_the_highest_total_starts_not_the_highest_die() -> None:
    state = scenario(
        given=[started(), opening("Ada", 6, 1, 1, 1, 1), opening("Bo", 3, 3, 3, 3, 3)],
        when=[4, 2, 2, 2, 2],
        then=[opening("Cy", 4, 2, 2, 2, 2), OpeningWon(player="Bo", value=15)],
    )
    assert fivedice.next_roll(state) == RollRequest("Bo", 5, "turn")


def test_ruling_2_players_sharing_the_highest_total_roll_again_only_they() -> None:
    given: list[Event] = [started(FOUR), opening("Ada", 6, 6, 1, 1, 1),
                          opening("Bo", 5, 5, 2, 2, 1), opening("Cy", 3, 3, 3, 3, 3)]
    state = scenario(given, when=[2, 2, 2, 2, 2],
                     then=[opening("Dag", 2, 2, 2, 2, 2),
                           OpeningTied(players=("Ada", "Bo", "Cy"), value=15)])
    assert fivedice.next_roll(state) == RollRequest("Ada", 5, "opening")
    given += [opening("Dag", 2, 2, 2, 2, 2), OpeningTied(players=("Ada", "Bo", "Cy"), value=15),
              opening("Ada", 1, 1, 1, 1, 1), opening("Bo", 4, 4, 4, 4, 4)]
    state = scenario(given, when=[4, 4, 4, 4, 4],
                     then=[opening("Cy", 4, 4, 4, 4, 4),
                           OpeningTied(players=("Bo", "Cy"), value=20)])
    # Ada and Dag are out of it: Bo and Cy roll off again.
    assert fivedice.next_roll(state) == RollRequest("Bo", 5, "opening")
    given += [opening("Cy", 4, 4, 4, 4, 4), OpeningTied(players=("Bo", "Cy"), value=20),
              opening("Bo", 6, 6, 6, 6, 5)]
    state = scenario(given, when=[6, 6, 6, 6, 6],
                     then=[opening("Cy", 6, 6, 6, 6, 6), OpeningWon(player="Cy", value=30)])
    assert fivedice.next_roll(state) == RollRequest("Cy", 5, "turn")


# -- Ruling 3: a turn ---------------------------------------------------------


def test_ruling_3_1s_go_to_the_centre_2s_left_5s_right_in_that_order() -> None:
    given = opened_by(started(FOUR), "Bo")
    state = scenario(
        given, when=[5, 2, 1, 2, 4],
        then=[turn("Bo", 5, 2, 1, 2, 4), DiceToCentre(player="Bo", count=1),
              passed("Bo", "Cy", 2, 2), passed("Bo", "Ada", 1, 5), RollAgain(player="Bo")],
    )
    assert held(state) == {"Ada": 6, "Bo": 1, "Cy": 7, "Dag": 5}
    assert state.centre == 1


def test_ruling_3_left_and_right_wrap_round_the_table() -> None:
    given = opened_by(started(), "Ada")
    scenario(given, when=[5, 3, 3, 3, 3],
             then=[turn("Ada", 5, 3, 3, 3, 3), passed("Ada", "Cy", 1, 5),
                   RollAgain(player="Ada")])
    given = opened_by(started(), "Cy")
    scenario(given, when=[2, 4, 4, 4, 4],
             then=[turn("Cy", 2, 4, 4, 4, 4), passed("Cy", "Ada", 1, 2),
                   RollAgain(player="Cy")])


def test_ruling_3_a_roll_that_moved_dice_is_rolled_again_with_the_dice_still_held() -> None:
    given = opened_by(started(), "Ada")
    state = scenario(given, when=[1, 2, 6, 6, 4],
                     then=[turn("Ada", 1, 2, 6, 6, 4), DiceToCentre(player="Ada", count=1),
                           passed("Ada", "Bo", 1, 2), RollAgain(player="Ada")])
    assert fivedice.next_roll(state) == RollRequest("Ada", 3, "turn")


@pytest.mark.parametrize("face", [1, 2, 5])
def test_ruling_3_any_one_of_1_2_5_is_enough_to_roll_again(face: int) -> None:
    given = opened_by(started(), "Bo")
    events = fivedice.decide(fold(given), Roll((face, 3, 4, 6, 6)))
    assert events[-1] == RollAgain(player="Bo")


def test_ruling_3_the_turn_ends_when_a_roll_shows_no_1_2_or_5() -> None:
    given = opened_by(started(), "Bo")
    state = scenario(given, when=[3, 4, 6, 6, 3], then=[turn("Bo", 3, 4, 6, 6, 3)])
    assert held(state) == {"Ada": 5, "Bo": 5, "Cy": 5}
    assert fivedice.next_roll(state) == RollRequest("Cy", 5, "turn")


def test_ruling_3_the_turn_ends_when_the_roller_holds_no_dice() -> None:
    given = opened_by(started(dice=2), "Ada")
    state = scenario(given, when=[2, 5],
                     then=[turn("Ada", 2, 5), passed("Ada", "Bo", 1, 2),
                           passed("Ada", "Cy", 1, 5)])
    assert held(state) == {"Ada": 0, "Bo": 3, "Cy": 3}
    assert fivedice.next_roll(state) == RollRequest("Bo", 3, "turn")


def test_ruling_3_players_holding_no_dice_miss_their_turns_and_may_receive_dice_later() -> None:
    header = started(FOUR, dice=1)
    given = [*opened_by(header, "Ada"),
             turn("Ada", 1), DiceToCentre(player="Ada", count=1),
             turn("Bo", 1), DiceToCentre(player="Bo", count=1)]
    # Cy passes the die left to Dag; Ada and Bo hold nothing and miss their turns.
    state = scenario(given, when=[2],
                     then=[turn("Cy", 2), passed("Cy", "Dag", 1, 2)])
    assert fivedice.next_roll(state) == RollRequest("Dag", 2, "turn")
    given += [turn("Cy", 2), passed("Cy", "Dag", 1, 2)]
    state = scenario(given, when=[6, 2],
                     then=[turn("Dag", 6, 2), passed("Dag", "Ada", 1, 2), RollAgain(player="Dag")])
    given += [turn("Dag", 6, 2), passed("Dag", "Ada", 1, 2), RollAgain(player="Dag")]
    state = scenario(given, when=[4], then=[turn("Dag", 4)])
    # Ada, empty-handed until now, was given a die and rolls it.
    assert fivedice.next_roll(state) == RollRequest("Ada", 1, "turn")
    given += [turn("Dag", 4)]
    state = scenario(given, when=[3],
                     then=[turn("Ada", 3), TurnMissed(player="Bo"), TurnMissed(player="Cy")])
    assert fivedice.next_roll(state) == RollRequest("Dag", 1, "turn")



def test_ruling_3_a_missed_turn_is_not_a_roll_and_moves_nothing() -> None:
    given = [*opened_by(started(dice=1), "Ada"), turn("Ada", 2), passed("Ada", "Bo", 1, 2),
             turn("Bo", 4, 4)]
    state = scenario(given, when=[4], then=[turn("Cy", 4), TurnMissed(player="Ada")])
    assert held(state) == {"Ada": 0, "Bo": 2, "Cy": 1}
    assert fivedice.next_roll(state) == RollRequest("Bo", 2, "turn")


def test_ruling_3_without_threes_a_3_does_nothing() -> None:
    given = opened_by(started(), "Ada")
    state = scenario(given, when=[3, 3, 3, 4, 6], then=[turn("Ada", 3, 3, 3, 4, 6)])
    assert state.held == (5, 5, 5)


# -- Ruling 4: the end --------------------------------------------------------


def test_ruling_4_the_roller_of_the_final_1_loses_and_the_game_is_over() -> None:
    given = [*opened_by(started(dice=1), "Ada"), turn("Ada", 1),
             DiceToCentre(player="Ada", count=1), turn("Bo", 1),
             DiceToCentre(player="Bo", count=1)]
    state = scenario(given, when=[1],
                     then=[turn("Cy", 1), DiceToCentre(player="Cy", count=1),
                           GameOver(loser="Cy")])
    assert fivedice.next_roll(state) is None
    assert (state.centre, state.loser, state.phase) == (3, 2, "over")


def test_ruling_4_several_1s_on_the_last_dice_in_play_end_it_too() -> None:
    given = [*opened_by(started(dice=1), "Ada"), turn("Ada", 5), passed("Ada", "Cy", 1, 5),
             turn("Bo", 2), passed("Bo", "Cy", 1, 2)]
    assert held(fold(given)) == {"Ada": 0, "Bo": 0, "Cy": 3}
    state = scenario(given, when=[1, 1, 1],
                     then=[turn("Cy", 1, 1, 1), DiceToCentre(player="Cy", count=3),
                           GameOver(loser="Cy")])
    assert fivedice.next_roll(state) is None


def test_ruling_4_a_1_is_not_the_end_while_other_dice_are_in_play() -> None:
    given = [*opened_by(started(dice=1), "Ada"), turn("Ada", 5), passed("Ada", "Cy", 1, 5),
             turn("Bo", 2), passed("Bo", "Cy", 1, 2)]
    state = scenario(given, when=[1, 1, 4],
                     then=[turn("Cy", 1, 1, 4), DiceToCentre(player="Cy", count=2),
                           RollAgain(player="Cy")])
    assert fivedice.next_roll(state) == RollRequest("Cy", 1, "turn")
    assert state.loser is None


# -- Ruling 5: the threes variation -------------------------------------------


def test_ruling_5_each_3_goes_to_the_named_player_after_the_2s_and_5s() -> None:
    given = opened_by(started(FOUR, threes=True), "Bo")
    state = scenario(
        given, when=[3, 5, 3, 2, 3], to=("Dag", "Ada", "Dag"),
        then=[turn("Bo", 3, 5, 3, 2, 3, to=("Dag", "Ada", "Dag")),
              passed("Bo", "Cy", 1, 2), passed("Bo", "Ada", 1, 5),
              # One event for each receiver, in the order they are first named.
              passed("Bo", "Dag", 2, 3), passed("Bo", "Ada", 1, 3)],
    )
    assert held(state) == {"Ada": 7, "Bo": 0, "Cy": 6, "Dag": 7}
    assert fivedice.next_roll(state) == RollRequest("Cy", 6, "turn")


def test_ruling_5_a_3_counts_like_a_2_or_a_5_for_rolling_again() -> None:
    given = opened_by(started(threes=True), "Ada")
    state = scenario(given, when=[3, 4, 4, 6, 6], to=("Cy",),
                     then=[turn("Ada", 3, 4, 4, 6, 6, to=("Cy",)), passed("Ada", "Cy", 1, 3),
                           RollAgain(player="Ada")])
    assert fivedice.next_roll(state) == RollRequest("Ada", 4, "turn")


def test_ruling_5_a_3_may_go_to_a_player_holding_no_dice() -> None:
    given = [*opened_by(started(dice=1, threes=True), "Ada"), turn("Ada", 2),
             passed("Ada", "Bo", 1, 2)]
    state = scenario(given, when=[3, 6], to=("Ada",),
                     then=[turn("Bo", 3, 6, to=("Ada",)), passed("Bo", "Ada", 1, 3),
                           RollAgain(player="Bo")])
    assert held(state) == {"Ada": 1, "Bo": 1, "Cy": 1}


def test_ruling_5_3s_in_the_opening_are_only_numbers() -> None:
    state = scenario(given=[started(threes=True)], when=[3, 3, 3, 3, 3],
                     then=[opening("Ada", 3, 3, 3, 3, 3)])
    assert state.held == (5, 5, 5)


@pytest.mark.parametrize(
    ("threes", "stage", "dice", "to", "complaint"),
    [
        (True, "turn", (3, 3, 4, 4, 4), ("Bo",), r"3s rolled: 2, receivers named: 1"),
        (True, "turn", (3, 4, 4, 4, 4), (), r"3s rolled: 1, receivers named: 0"),
        (True, "turn", (3, 4, 4, 4, 4), ("Bo", "Cy"), r"3s rolled: 1, receivers named: 2"),
        (True, "turn", (3, 4, 4, 4, 4), ("Ada",), "Ada cannot give a 3 to themselves"),
        (True, "turn", (3, 4, 4, 4, 4), ("Zed",), "Zed is not at the table"),
        (True, "turn", (4, 4, 4, 4, 4), ("Bo",), "names no receivers, but it names Bo"),
        (False, "turn", (3, 4, 4, 4, 4), ("Bo",), "names no receivers, but it names Bo"),
        (True, "opening", (3, 4, 4, 4, 4), ("Bo",), "names no receivers, but it names Bo"),
    ],
)
def test_ruling_5_receivers_are_checked(
    threes: bool, stage: str, dice: tuple[int, ...], to: tuple[str, ...], complaint: str
) -> None:
    header = started(threes=threes)
    state = fold(opened_by(header, "Ada") if stage == "turn" else [header])
    with pytest.raises(RollError, match=complaint):
        fivedice.decide(state, Roll(dice, to))


def test_ruling_5_a_log_with_a_bad_receiver_is_refused_at_its_line() -> None:
    history = [*opened_by(started(threes=True), "Ada"),
               turn("Ada", 3, 4, 4, 4, 4, to=("Ada",)), passed("Ada", "Ada", 1, 3)]
    records = [Record(line, event) for line, event in enumerate(history, start=1)]
    with pytest.raises(RollError, match="line 6: Ada cannot give a 3 to themselves"):
        list(walk(records, "game.jsonl"))


def test_ruling_5_a_dice_file_with_a_bad_receiver_is_refused_at_its_line() -> None:
    lines = ["6 6", "2 2", "1 1", "# Ada starts", "3 4 > Cy", "6", "3 3 > Ada Bo"]
    header = engine.header(fivedice.GAME, PLAYERS, {"dice": 2, "threes": True})
    written: list[Event] = []
    with pytest.raises(RollError, match=r"table\.txt, line 7: Bo cannot give a 3"):
        written.extend(engine.play(fivedice.GAME, header, DiceFile(lines, "table.txt")))
    # Everything before the bad roll was handed on, nothing after it.
    assert written[-4:] == [turn("Ada", 3, 4, to=("Cy",)), passed("Ada", "Cy", 1, 3),
                            RollAgain(player="Ada"), turn("Ada", 6)]


# -- Choosing receivers for generated dice ------------------------------------


def chooser(policy: str, holdings: tuple[int, ...], turn_of: int = 0) -> FiveDiceState:
    state = fold([started(FOUR, threes=True, threes_to=policy)])
    return msgspec.structs.replace(state, phase="play", held=Seats(holdings), turn=turn_of)


def test_choose_counts_holdings_after_the_2s_and_5s_have_moved() -> None:
    # Ada's 5 goes to Dag and her 2 to Bo before the 3 is given: Bo 2, Cy 2, Dag 2,
    # so the tie goes to Bo, first on Ada's left. Counted before the roll, Bo and
    # Dag would have tied on 1, and Cy would never be a candidate.
    state = chooser("fewest", (3, 1, 2, 1))
    assert fivedice.choose(state, (5, 2, 3), random.Random(0)) == ("Bo",)
    state = chooser("fewest", (3, 2, 1, 1))
    assert fivedice.choose(state, (5, 4, 3), random.Random(0)) == ("Cy",)


def test_choose_counts_each_3_given_before_the_next() -> None:
    state = chooser("fewest", (4, 0, 1, 2))
    assert fivedice.choose(state, (3, 3, 3, 4), random.Random(0)) == ("Bo", "Bo", "Cy")


def test_choose_gives_most_to_the_highest_holder_and_piles_on() -> None:
    state = chooser("most", (3, 1, 4, 1))
    assert fivedice.choose(state, (3, 3, 6), random.Random(0)) == ("Cy", "Cy")


@pytest.mark.parametrize(("policy", "turn_of", "expected"),
                         [("fewest", 0, "Bo"), ("fewest", 2, "Dag"), ("fewest", 3, "Ada"),
                          ("most", 1, "Cy"), ("most", 3, "Ada")])
def test_choose_breaks_ties_in_seat_order_from_the_roller_s_left(
    policy: str, turn_of: int, expected: str
) -> None:
    state = chooser(policy, (2, 2, 2, 2), turn_of)
    assert fivedice.choose(state, (3, 4), random.Random(0)) == (expected,)


def test_choose_at_random_picks_any_other_player_and_follows_the_generator() -> None:
    state = chooser("random", (5, 5, 5, 5), turn_of=1)
    picks = [fivedice.choose(state, (3, 3, 3, 3, 3), random.Random(seed)) for seed in range(40)]
    assert {name for pick in picks for name in pick} == {"Ada", "Cy", "Dag"}
    assert picks[7] == fivedice.choose(state, (3, 3, 3, 3, 3), random.Random(7))


@pytest.mark.parametrize(
    ("threes", "phase", "dice"),
    [(False, "play", (3, 3)), (True, "opening", (3, 3)), (True, "play", (1, 2))],
)
def test_choose_names_nobody_when_no_3_is_given(
    threes: bool, phase: str, dice: tuple[int, ...]
) -> None:
    state = msgspec.structs.replace(
        fold([started(threes=threes, threes_to="fewest")]), phase=phase)
    assert fivedice.choose(state, dice, random.Random(0)) == ()


@pytest.mark.parametrize("policy", fivedice.POLICIES)
def test_generated_threes_games_name_a_receiver_for_every_3(policy: str) -> None:
    header = engine.header(fivedice.GAME, FOUR, {"threes": True, "threes_to": policy}, seed=5)
    events = list(engine.play(fivedice.GAME, header, RandomDice(5)))
    rolls = [e for e in events if isinstance(e, Rolled) and e.stage == "turn"]
    assert any(r.to for r in rolls)
    for roll in rolls:
        assert len(roll.to) == roll.dice.count(3)
        assert roll.player not in roll.to
    assert events == list(engine.play(fivedice.GAME, header, RandomDice(5)))


@pytest.mark.parametrize("policy", ["fewest", "most"])
def test_the_engine_follows_the_policy(policy: str) -> None:
    header = engine.header(fivedice.GAME, FOUR, {"threes": True, "threes_to": policy}, seed=9)
    events = list(engine.play(fivedice.GAME, header, RandomDice(9)))
    state = fivedice.start(header)
    checked = 0
    for event in events[1:]:
        if isinstance(event, Rolled) and event.to:
            # These two policies draw nothing from the generator.
            assert fivedice.choose(state, event.dice, random.Random()) == event.to
            checked += 1
        state = fivedice.evolve(state, event)
    assert checked


def test_without_threes_generated_games_name_no_receivers() -> None:
    header = engine.header(fivedice.GAME, FOUR, {}, seed=3)
    events = list(engine.play(fivedice.GAME, header, RandomDice(3)))
    assert any(isinstance(e, Rolled) and 3 in e.dice and e.stage == "turn" for e in events)
    assert not any(isinstance(e, Rolled) and e.to for e in events)


# -- Worked example E3 --------------------------------------------------------


E3: t.Final[list[Event]] = [
    # Ada opens (5).
    opening("Ada", 5), opening("Bo", 2), opening("Cy", 1), OpeningWon(player="Ada", value=5),
    # Ada 3 and Bo 4 do nothing.
    turn("Ada", 3), turn("Bo", 4),
    # Cy 2: the die goes to Ada.
    turn("Cy", 2), passed("Cy", "Ada", 1, 2),
    # Ada rolls two: 5-1, the 5 to Cy, the 1 to the centre.
    turn("Ada", 5, 1), DiceToCentre(player="Ada", count=1), passed("Ada", "Cy", 1, 5),
    # Bo 2: to Cy.
    turn("Bo", 2), passed("Bo", "Cy", 1, 2),
    # Cy rolls two: 3-1, the 1 to the centre; Cy rolls again, 6: turn over.
    turn("Cy", 3, 1), DiceToCentre(player="Cy", count=1), RollAgain(player="Cy"),
    turn("Cy", 6),
    # Ada and Bo hold nothing and miss their turns.
    TurnMissed(player="Ada"), TurnMissed(player="Bo"),
    # Cy rolls 1, the last die in play: Cy loses.
    turn("Cy", 1), DiceToCentre(player="Cy", count=1), GameOver(loser="Cy"),
]


def test_worked_example_e3_event_by_event() -> None:
    header = engine.header(fivedice.GAME, PLAYERS, {"dice": 1})
    events = list(engine.play(fivedice.GAME, header, DiceFile(E3_SCRIPT.split("/"), "E3")))
    assert events == [header, *E3]
    records = [Record(line, event) for line, event in enumerate(events, start=1)]
    steps = list(walk(records, "E3"))
    assert [step.event for step in steps] == events
    final = steps[-1].state
    assert (final.centre, final.held, final.players[final.loser]) == (3, (0, 0, 0), "Cy")
