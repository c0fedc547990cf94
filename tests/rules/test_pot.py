"""Aces in the Pot, ruling by ruling (../shared/RULINGS.md), as a decider.

Each scenario reads: *given* these events, *when* the next player rolls
these dice, *then* exactly these events follow. Every history is also
walked by :func:`aces.walk.walk`, so the given events are ones the rules
could really have written, not a state made up by hand.
"""

from __future__ import annotations

import typing as t

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aces import engine
from aces.dice import DiceFile, RandomDice
from aces.errors import OptionError, RollError
from aces.events import (
    SCHEMA,
    AceIgnored,
    ChipsPassed,
    ChipsToPot,
    FinishStarted,
    GameOver,
    GameStarted,
    OpeningTied,
    OpeningWon,
    PlayResumed,
    Rolled,
    TryFailed,
    TryStarted,
    TryWon,
    TurnMissed,
    Unpaid,
)
from aces.log import Record
from aces.rules import Roll, RollRequest, keep_decisions, pot
from aces.walk import walk

if t.TYPE_CHECKING:
    from collections.abc import Sequence

    from aces.events import Event
    from aces.rules.pot import PotState

PLAYERS: t.Final = ("Ada", "Bo", "Cy")


# -- Building histories -------------------------------------------------------


def started(
    players: Sequence[str] = PLAYERS, *, finish: str = "last-chip", chips: int = 2
) -> GameStarted:
    return GameStarted(schema=SCHEMA, game="pot", players=tuple(players),
                       options={"finish": finish, "chips": chips})


def opening(player: str, value: int) -> Rolled:
    return Rolled(player=player, dice=(value,), stage="opening")


def turn(player: str, *dice: int) -> Rolled:
    return Rolled(player=player, dice=dice, stage="turn")


def trying(player: str, *dice: int) -> Rolled:
    return Rolled(player=player, dice=dice, stage="try")


def opened_by(starter: str, players: Sequence[str] = PLAYERS) -> list[Event]:
    """An opening round that ``starter`` wins with a 6, everyone else on 2."""
    rolls: list[Event] = [opening(p, 6 if p == starter else 2) for p in players]
    return [*rolls, OpeningWon(player=starter, value=6)]


def fold(events: Sequence[Event]) -> PotState:
    header = events[0]
    assert isinstance(header, GameStarted)
    state = pot.start(header)
    for event in events[1:]:
        state = pot.evolve(state, event)
    return state


def scenario(given: Sequence[Event], when: Sequence[int], then: Sequence[Event]) -> PotState:
    """Check one decision; return the state after it."""
    assert list(pot.decide(fold(given), Roll(tuple(when)))) == list(then)
    history = [*given, *then]
    records = (Record(line, event) for line, event in enumerate(history, start=1))
    assert len(list(walk(records, "scenario", allow_unfinished=True))) == len(history)
    return fold(history)


def chips(state: PotState) -> dict[str, int]:
    return dict(zip(state.players, state.chips, strict=True))


# -- Ruling 1: players and chips ----------------------------------------------


def test_ruling_1_everyone_starts_with_two_chips_and_the_pot_empty() -> None:
    state = fold([started()])
    assert chips(state) == {"Ada": 2, "Bo": 2, "Cy": 2}
    assert state.pot == 0
    assert pot.options({}) == {"finish": "last-chip", "chips": 2}


@pytest.mark.parametrize("count", [1, 3, 5])
def test_ruling_1_the_number_of_chips_is_an_option(count: int) -> None:
    state = fold([started(chips=count)])
    assert state.chips == (count,) * len(PLAYERS)


def test_ruling_1_two_players_are_allowed() -> None:
    pot.GAME.check_players(["Ada", "Bo"])
    state = fold([started(["Ada", "Bo"])])
    assert pot.next_roll(state) == RollRequest("Ada", 1, "opening")


def test_ruling_1_one_player_is_refused() -> None:
    with pytest.raises(OptionError, match="at least 2 players"):
        pot.GAME.check_players(["Ada"])


@pytest.mark.parametrize(
    ("raw", "complaint"),
    [
        ({"chips": 0}, "at least 1 chip"),
        ({"chips": -2}, "at least 1 chip"),
        ({"chips": "two"}, "invalid option"),
        ({"finish": "sudden-death"}, "invalid option"),
        ({"dice": 3}, "invalid option"),
    ],
)
def test_ruling_1_options_outside_the_rules_are_refused(
    raw: dict[str, int | str | bool], complaint: str
) -> None:
    with pytest.raises(OptionError, match=complaint):
        pot.options(raw)


# -- Ruling 2: the opening ----------------------------------------------------


def test_ruling_2_every_player_rolls_one_die_in_seat_order() -> None:
    state = fold([started()])
    asked = []
    for value in (2, 3):
        request = pot.next_roll(state)
        assert request is not None
        asked.append(request)
        for event in pot.decide(state, Roll((value,))):
            state = pot.evolve(state, event)
    assert asked == [RollRequest("Ada", 1, "opening"), RollRequest("Bo", 1, "opening")]
    assert pot.next_roll(state) == RollRequest("Cy", 1, "opening")


def test_ruling_2_every_opening_roll_is_recorded() -> None:
    scenario(given=[started()], when=[4], then=[opening("Ada", 4)])
    scenario(given=[started(), opening("Ada", 4)], when=[1], then=[opening("Bo", 1)])


def test_ruling_2_the_highest_starts() -> None:
    state = scenario(
        given=[started(), opening("Ada", 2), opening("Bo", 3)],
        when=[5],
        then=[opening("Cy", 5), OpeningWon(player="Cy", value=5)],
    )
    assert pot.next_roll(state) == RollRequest("Cy", 2, "turn")


def test_ruling_2_players_sharing_the_highest_roll_again_in_seat_order() -> None:
    state = scenario(
        given=[started(), opening("Ada", 2), opening("Bo", 5)],
        when=[5],
        then=[opening("Cy", 5), OpeningTied(players=("Bo", "Cy"), value=5)],
    )
    assert pot.next_roll(state) == RollRequest("Bo", 1, "opening")
    state = scenario(
        given=[started(), opening("Ada", 2), opening("Bo", 5), opening("Cy", 5),
               OpeningTied(players=("Bo", "Cy"), value=5)],
        when=[1],
        then=[opening("Bo", 1)],
    )
    # Ada is out of the opening: Cy rolls next, and Cy's 2 beats Bo's 1.
    assert pot.next_roll(state) == RollRequest("Cy", 1, "opening")


def test_ruling_2_repeated_ties_only_among_the_tied_players() -> None:
    four = ("Ada", "Bo", "Cy", "Dag")
    given: list[Event] = [
        started(four),
        opening("Ada", 5), opening("Bo", 5), opening("Cy", 5), opening("Dag", 1),
        OpeningTied(players=("Ada", "Bo", "Cy"), value=5),
        opening("Ada", 3), opening("Bo", 6),
    ]
    state = scenario(given, when=[6],
                     then=[opening("Cy", 6), OpeningTied(players=("Bo", "Cy"), value=6)])
    assert pot.next_roll(state) == RollRequest("Bo", 1, "opening")
    given += [opening("Cy", 6), OpeningTied(players=("Bo", "Cy"), value=6), opening("Bo", 2)]
    # A lower number than the first round's 5 still wins among the tied.
    state = scenario(given, when=[4], then=[opening("Cy", 4), OpeningWon(player="Cy", value=4)])
    assert pot.next_roll(state) == RollRequest("Cy", 2, "turn")


# -- Ruling 3: a turn ---------------------------------------------------------


def test_ruling_3_with_one_chip_1_1_puts_it_in_the_pot() -> None:
    state = scenario(
        given=[started(chips=1), *opened_by("Ada")],
        when=[1, 1],
        then=[turn("Ada", 1, 1), ChipsToPot(player="Ada", count=1),
              Unpaid(player="Ada", aces=1)],
    )
    assert (chips(state), state.pot) == ({"Ada": 0, "Bo": 1, "Cy": 1}, 1)


def test_ruling_3_with_one_chip_6_6_passes_it_left() -> None:
    state = scenario(
        given=[started(chips=1), *opened_by("Ada")],
        when=[6, 6],
        then=[turn("Ada", 6, 6), ChipsPassed(player="Ada", to="Bo", count=1),
              Unpaid(player="Ada", sixes=1)],
    )
    assert (chips(state), state.pot) == ({"Ada": 0, "Bo": 2, "Cy": 1}, 0)


@pytest.mark.parametrize("dice", [(1, 6), (6, 1)])
def test_ruling_3_with_one_chip_1_6_puts_it_in_the_pot_aces_first(dice: tuple[int, int]) -> None:
    state = scenario(
        given=[started(chips=1), *opened_by("Ada")],
        when=dice,
        then=[turn("Ada", *dice), ChipsToPot(player="Ada", count=1),
              Unpaid(player="Ada", sixes=1)],
    )
    assert (chips(state), state.pot) == ({"Ada": 0, "Bo": 1, "Cy": 1}, 1)


@pytest.mark.parametrize("held", [2, 3])
def test_ruling_3_with_two_chips_or_more_1_6_costs_two(held: int) -> None:
    state = scenario(
        given=[started(chips=held), *opened_by("Ada")],
        when=[1, 6],
        then=[turn("Ada", 1, 6), ChipsToPot(player="Ada", count=1),
              ChipsPassed(player="Ada", to="Bo", count=1)],
    )
    assert (chips(state), state.pot) == ({"Ada": held - 2, "Bo": held + 1, "Cy": held}, 1)


def test_ruling_3_with_two_chips_1_1_and_6_6_are_paid_in_full() -> None:
    scenario(given=[started(), *opened_by("Ada")], when=[1, 1],
             then=[turn("Ada", 1, 1), ChipsToPot(player="Ada", count=2)])
    scenario(given=[started(), *opened_by("Ada")], when=[6, 6],
             then=[turn("Ada", 6, 6), ChipsPassed(player="Ada", to="Bo", count=2)])


@pytest.mark.parametrize("dice", [(3, 5), (2, 4), (5, 5)])
def test_ruling_3_other_numbers_cost_nothing(dice: tuple[int, int]) -> None:
    state = scenario(given=[started(), *opened_by("Bo")], when=dice, then=[turn("Bo", *dice)])
    assert (chips(state), state.pot) == ({"Ada": 2, "Bo": 2, "Cy": 2}, 0)
    assert pot.next_roll(state) == RollRequest("Cy", 2, "turn")


def test_ruling_3_the_left_of_the_last_seat_is_the_first() -> None:
    state = scenario(given=[started(), *opened_by("Cy")], when=[6, 2],
                     then=[turn("Cy", 6, 2), ChipsPassed(player="Cy", to="Ada", count=1)])
    assert pot.next_roll(state) == RollRequest("Ada", 2, "turn")


def test_ruling_3_a_player_with_no_chips_misses_the_turn() -> None:
    # Ada passes both her chips to Bo; when her turn comes round, she misses it.
    given = [started(), *opened_by("Ada"), turn("Ada", 6, 6),
             ChipsPassed(player="Ada", to="Bo", count=2), turn("Bo", 3, 5)]
    state = scenario(given, when=[4, 2], then=[turn("Cy", 4, 2), TurnMissed(player="Ada")])
    assert pot.next_roll(state) == RollRequest("Bo", 2, "turn")


def test_ruling_3_several_players_in_a_row_can_miss_their_turns() -> None:
    four = ("Ada", "Bo", "Cy", "Dag")
    given = [started(four, chips=1), *opened_by("Ada", four),
             turn("Ada", 6, 2), ChipsPassed(player="Ada", to="Bo", count=1),
             turn("Bo", 6, 6),
             ChipsPassed(player="Bo", to="Cy", count=2),
             turn("Cy", 3, 5)]
    state = scenario(given, when=[2, 2], then=[turn("Dag", 2, 2), TurnMissed(player="Ada"),
                                               TurnMissed(player="Bo")])
    assert pot.next_roll(state) == RollRequest("Cy", 2, "turn")


# -- Ruling 4: empty hands ----------------------------------------------------


def test_ruling_4_a_neighbours_six_brings_an_empty_player_back_into_play() -> None:
    given = [started(), *opened_by("Ada"), turn("Ada", 6, 6),
             ChipsPassed(player="Ada", to="Bo", count=2), turn("Bo", 3, 5)]
    state = scenario(given, when=[6, 3],
                     then=[turn("Cy", 6, 3), ChipsPassed(player="Cy", to="Ada", count=1)])
    assert chips(state) == {"Ada": 1, "Bo": 4, "Cy": 1}
    assert pot.next_roll(state) == RollRequest("Ada", 2, "turn")


# -- Ruling 5: the last chip never goes to the pot -----------------------------

# Three players, one chip each: Ada's chip goes to Bo, Cy's to the pot, and
# Bo (after Ada misses her turn) holds the last two chips in play.
LAST_TWO: t.Final[list[Event]] = [
    started(chips=1), *opened_by("Ada"),
    turn("Ada", 6, 2), ChipsPassed(player="Ada", to="Bo", count=1),
    turn("Bo", 3, 4),
    turn("Cy", 1, 2), ChipsToPot(player="Cy", count=1), TurnMissed(player="Ada"),
]


def test_ruling_5_the_last_two_chips_and_1_1_one_to_the_pot_the_roller_keeps_the_last() -> None:
    assert chips(fold(LAST_TWO)) == {"Ada": 0, "Bo": 2, "Cy": 0}
    state = scenario(
        LAST_TWO,
        when=[1, 1],
        then=[turn("Bo", 1, 1), ChipsToPot(player="Bo", count=1), AceIgnored(player="Bo"),
              FinishStarted(player="Bo", chips=1), TryStarted(player="Bo")],
    )
    assert (chips(state), state.pot) == ({"Ada": 0, "Bo": 1, "Cy": 0}, 2)


def test_ruling_5_the_last_two_chips_and_1_6_the_left_player_holds_the_last() -> None:
    state = scenario(
        LAST_TWO,
        when=[1, 6],
        then=[turn("Bo", 1, 6), ChipsToPot(player="Bo", count=1),
              ChipsPassed(player="Bo", to="Cy", count=1),
              FinishStarted(player="Cy", chips=1), TryStarted(player="Cy")],
    )
    assert (chips(state), state.pot) == ({"Ada": 0, "Bo": 0, "Cy": 1}, 2)
    assert pot.next_roll(state) == RollRequest("Cy", 2, "try")


def test_ruling_5_an_ignored_ace_still_lets_the_sixes_be_paid() -> None:
    # Two dice cannot show it (the first ace is always paid), so settle directly.
    assert pot.settle(2, 2, 2, 1, protect_last=True) == pot.Settlement(
        to_pot=1, ignored_aces=1, to_left=1, unpaid_aces=0, unpaid_sixes=0)


def test_ruling_5_only_under_the_last_chip_finish() -> None:
    assert pot.settle(2, 2, 2, 0, protect_last=False).to_pot == 2


@given(held=st.integers(1, 12), others=st.integers(0, 12), aces=st.integers(0, 3),
       sixes=st.integers(0, 3), protect_last=st.booleans())
def test_rulings_3_and_5_settle_accounts_for_every_ace_and_six(
    held: int, others: int, aces: int, sixes: int, protect_last: bool
) -> None:
    paid = pot.settle(held, held + others, aces, sixes, protect_last=protect_last)
    assert paid.to_pot + paid.ignored_aces + paid.unpaid_aces == aces
    assert paid.to_left + paid.unpaid_sixes == sixes
    # Aces first: the sixes get what the aces left, as far as it goes.
    assert paid.to_left == min(sixes, held - paid.to_pot)
    # Only an empty hand leaves anything unpaid.
    if paid.unpaid_aces or paid.unpaid_sixes:
        assert paid.to_pot + paid.to_left == held
    if protect_last:
        assert held + others - paid.to_pot >= 1
    else:
        assert paid.ignored_aces == 0


def test_ruling_5_an_ace_the_roller_cannot_pay_is_unpaid_not_ignored() -> None:
    # Bo and Cy hold one chip each; Bo's second ace finds his hand empty.
    given = [started(chips=1), *opened_by("Ada"),
             turn("Ada", 1, 2), ChipsToPot(player="Ada", count=1)]
    scenario(given, when=[1, 1],
             then=[turn("Bo", 1, 1), ChipsToPot(player="Bo", count=1),
                   Unpaid(player="Bo", aces=1),
                   FinishStarted(player="Cy", chips=1), TryStarted(player="Cy")])


# -- Ruling 6: finish last-chip ------------------------------------------------

# Bo holds the last chip and makes a try (ruling 5's first example).
BO_TRIES: t.Final[list[Event]] = [
    *LAST_TWO, turn("Bo", 1, 1), ChipsToPot(player="Bo", count=1), AceIgnored(player="Bo"),
    FinishStarted(player="Bo", chips=1), TryStarted(player="Bo"),
]


def test_ruling_6_one_chip_left_in_play_starts_the_holders_try() -> None:
    state = fold(BO_TRIES)
    assert state.in_play == 1
    assert pot.next_roll(state) == RollRequest("Bo", 2, "try")


@pytest.mark.parametrize("dice", [(1, 1), (1, 3)])
def test_ruling_6_aces_count_for_nothing_during_a_try(dice: tuple[int, int]) -> None:
    state = scenario(BO_TRIES, when=dice, then=[trying("Bo", *dice)])
    assert (state.in_play, state.pot) == (1, 2)


def test_ruling_6_three_rolls_without_a_six_win_the_pot() -> None:
    given = [*BO_TRIES, trying("Bo", 2, 5), trying("Bo", 1, 1)]
    state = scenario(given, when=[3, 4],
                     then=[trying("Bo", 3, 4), TryWon(player="Bo"), GameOver(winner="Bo", pot=2)])
    assert pot.next_roll(state) is None


@pytest.mark.parametrize("dice", [(6, 2), (6, 6), (1, 6)])
def test_ruling_6_a_six_ends_the_try_and_the_chip_passes_left(dice: tuple[int, int]) -> None:
    state = scenario(BO_TRIES, when=dice,
                     then=[trying("Bo", *dice), TryFailed(player="Bo", roll=1),
                           ChipsPassed(player="Bo", to="Cy", count=1), TryStarted(player="Cy")])
    assert chips(state) == {"Ada": 0, "Bo": 0, "Cy": 1}
    assert pot.next_roll(state) == RollRequest("Cy", 2, "try")


def test_ruling_6_the_left_player_makes_a_fresh_try_of_three_rolls() -> None:
    # Bo fails on his second roll; Cy still gets three rolls of her own.
    given = [*BO_TRIES, trying("Bo", 2, 2), trying("Bo", 6, 3), TryFailed(player="Bo", roll=2),
             ChipsPassed(player="Bo", to="Cy", count=1), TryStarted(player="Cy"),
             trying("Cy", 1, 2)]
    state = scenario(given, when=[4, 4], then=[trying("Cy", 4, 4)])
    assert pot.next_roll(state) == RollRequest("Cy", 2, "try")
    scenario([*given, trying("Cy", 4, 4)], when=[5, 5],
             then=[trying("Cy", 5, 5), TryWon(player="Cy"), GameOver(winner="Cy", pot=2)])


def test_ruling_6_the_try_goes_round_the_table() -> None:
    given = [*BO_TRIES, trying("Bo", 6, 3), TryFailed(player="Bo", roll=1),
             ChipsPassed(player="Bo", to="Cy", count=1), TryStarted(player="Cy")]
    # From the last seat to the first: Ada had no chips and tries all the same.
    state = scenario(given, when=[2, 6],
                     then=[trying("Cy", 2, 6), TryFailed(player="Cy", roll=1),
                           ChipsPassed(player="Cy", to="Ada", count=1), TryStarted(player="Ada")])
    assert pot.next_roll(state) == RollRequest("Ada", 2, "try")


def test_ruling_6_example_4_2_5_3_then_6_1_fails_on_the_third_roll() -> None:
    given = [*BO_TRIES, trying("Bo", 4, 2), trying("Bo", 5, 3)]
    scenario(given, when=[6, 1],
             then=[trying("Bo", 6, 1), TryFailed(player="Bo", roll=3),
                   ChipsPassed(player="Bo", to="Cy", count=1), TryStarted(player="Cy")])


# -- Ruling 7: finish last-holder ----------------------------------------------

# Ada and Bo roll 1-1 and 1-2: only Cy holds chips (two of them).
CY_HOLDS_ALL: t.Final[list[Event]] = [
    started(finish="last-holder"), *opened_by("Ada"),
    turn("Ada", 1, 1), ChipsToPot(player="Ada", count=2),
    turn("Bo", 1, 1), ChipsToPot(player="Bo", count=2),
    FinishStarted(player="Cy", chips=2), TryStarted(player="Cy"),
]


def test_ruling_7_one_holder_left_makes_a_try_whatever_they_hold() -> None:
    state = scenario(
        [started(finish="last-holder"), *opened_by("Ada"),
         turn("Ada", 1, 1), ChipsToPot(player="Ada", count=2)],
        when=[1, 1],
        then=[turn("Bo", 1, 1), ChipsToPot(player="Bo", count=2),
              FinishStarted(player="Cy", chips=2), TryStarted(player="Cy")],
    )
    assert pot.next_roll(state) == RollRequest("Cy", 2, "try")


def test_ruling_7_aces_count_for_nothing_during_a_try() -> None:
    state = scenario(CY_HOLDS_ALL, when=[1, 1], then=[trying("Cy", 1, 1)])
    assert chips(state) == {"Ada": 0, "Bo": 0, "Cy": 2}


def test_ruling_7_6_6_passes_two_chips_if_held() -> None:
    state = scenario(CY_HOLDS_ALL, when=[6, 6],
                     then=[trying("Cy", 6, 6), TryFailed(player="Cy", roll=1),
                           ChipsPassed(player="Cy", to="Ada", count=2),
                           TryStarted(player="Ada")])
    assert chips(state) == {"Ada": 2, "Bo": 0, "Cy": 0}


def test_ruling_7_6_6_with_one_chip_passes_one() -> None:
    given = [started(finish="last-holder", chips=1), *opened_by("Ada"),
             turn("Ada", 1, 2), ChipsToPot(player="Ada", count=1)]
    given += [turn("Bo", 1, 3), ChipsToPot(player="Bo", count=1),
              FinishStarted(player="Cy", chips=1), TryStarted(player="Cy")]
    state = scenario(given, when=[6, 6],
                     then=[trying("Cy", 6, 6), TryFailed(player="Cy", roll=1),
                           ChipsPassed(player="Cy", to="Ada", count=1),
                           Unpaid(player="Cy", sixes=1), TryStarted(player="Ada")])
    assert pot.next_roll(state) == RollRequest("Ada", 2, "try")


def test_ruling_7_a_holder_keeping_chips_resumes_play_with_the_left_player() -> None:
    state = scenario([*CY_HOLDS_ALL, trying("Cy", 2, 2)], when=[6, 3],
                     then=[trying("Cy", 6, 3), TryFailed(player="Cy", roll=2),
                           ChipsPassed(player="Cy", to="Ada", count=1),
                           PlayResumed(player="Ada")])
    assert chips(state) == {"Ada": 1, "Bo": 0, "Cy": 1}
    assert pot.next_roll(state) == RollRequest("Ada", 2, "turn")
    # Normal play indeed: Bo, still empty-handed, misses his turn.
    scenario([*CY_HOLDS_ALL, trying("Cy", 2, 2), trying("Cy", 6, 3),
              TryFailed(player="Cy", roll=2), ChipsPassed(player="Cy", to="Ada", count=1),
              PlayResumed(player="Ada")],
             when=[3, 5], then=[turn("Ada", 3, 5), TurnMissed(player="Bo")])


def test_ruling_7_otherwise_the_left_player_makes_a_fresh_try() -> None:
    given = [*CY_HOLDS_ALL, trying("Cy", 6, 6), TryFailed(player="Cy", roll=1),
             ChipsPassed(player="Cy", to="Ada", count=2), TryStarted(player="Ada"),
             trying("Ada", 2, 3), trying("Ada", 4, 5)]
    state = scenario(given, when=[1, 2],
                     then=[trying("Ada", 1, 2), TryWon(player="Ada"),
                           GameOver(winner="Ada", pot=4)])
    assert state.winner == 0


# -- Ruling 8: the end ---------------------------------------------------------


@pytest.mark.parametrize("finish", pot.FINISHES)
@pytest.mark.parametrize("seed", range(6))
def test_ruling_8_the_winner_takes_every_chip_in_the_pot(finish: str, seed: int) -> None:
    header = engine.header(pot.GAME, PLAYERS, {"finish": finish}, seed)
    events = list(engine.play(pot.GAME, header, RandomDice(seed)))
    before = fold(events[:-1])
    over = events[-1]
    assert isinstance(over, GameOver)
    assert over.winner == before.players[before.turn]
    assert over.pot == before.pot == 6 - before.in_play
    if finish == "last-chip":
        assert over.pot == 5
    after = fold(events)
    assert after.phase == "over"
    assert pot.next_roll(after) is None


# -- Ruling 9: several games -----------------------------------------------------


def test_ruling_9_each_game_starts_level_with_a_fresh_opening() -> None:
    log: list[Event] = []
    for seed in (11, 12, 13):
        header = engine.header(pot.GAME, PLAYERS, {"chips": 3}, seed)
        log += engine.play(pot.GAME, header, RandomDice(seed))
    steps = list(walk((Record(n, e) for n, e in enumerate(log, start=1)), "session"))
    starts = [i for i, step in enumerate(steps) if isinstance(step.event, GameStarted)]
    assert len(starts) == 3
    for i in starts:
        state = steps[i].state
        assert (state.chips, state.pot, state.phase) == ((3, 3, 3), 0, "opening")
        first = steps[i + 1].event
        assert isinstance(first, Rolled)
        assert (first.player, first.stage) == ("Ada", "opening")
        if i:
            assert steps[i - 1].state.phase == "over"


# -- Rolls name no receivers ----------------------------------------------------


@pytest.mark.parametrize("stage", ["opening", "turn"])
def test_a_roll_naming_receivers_is_refused(stage: str) -> None:
    # No chip and no die is ever given by choice here, so a name after the
    # dice is a mistake to point out, not a detail to drop.
    given = [started()] if stage == "opening" else [started(), *opened_by("Ada")]
    dice = (4,) if stage == "opening" else (1, 6)
    with pytest.raises(RollError, match="in Aces in the Pot nothing is ever given by choice"):
        pot.decide(fold(given), Roll(dice, ("Bo",)))


def test_a_dice_file_line_naming_a_receiver_is_refused_at_its_line() -> None:
    dice = DiceFile(["2", "3", "5", "# Cy's turn", "1 6 > Bo"], "table.txt")
    header = engine.header(pot.GAME, PLAYERS, {})
    with pytest.raises(RollError) as caught:
        list(engine.play(pot.GAME, header, dice))
    assert str(caught.value) == ("table.txt, line 5: in Aces in the Pot nothing is ever given"
                                 " by choice, so a roll names no receivers, but this one"
                                 " names Bo")


def test_the_memo_of_decisions_holds_megabytes_not_every_name_ever_seen() -> None:
    import tracemalloc

    tracemalloc.start()
    try:
        for game in range(1000):
            # Eight long names, new in every game: each remembered decision
            # would keep 40 KB alive.
            names = [f"{seat}{game}-" + "x" * 5000 for seat in range(8)]
            state = pot.start(engine.header(pot.GAME, names, {}))
            pot.decide(state, Roll((3,)))
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert held < 24 << 20


def test_a_smaller_budget_of_decisions_holds_and_decides_the_same() -> None:
    """A class server keeps fewer decisions (:func:`aces.rules.keep_decisions`):
    the memo stays within the new budget, and decides as the rules do."""
    budget = pot._DECIDED.budget
    try:
        keep_decisions(20_000)
        assert pot._DECIDED.weight <= 20_000
        for game in range(200):
            state = pot.start(engine.header(pot.GAME, [f"A{game}", f"B{game}", "C"], {}))
            for dice in ((3,), (5,), (1,)):
                decided = pot.decide(state, Roll(dice))
                assert decided == pot.decide_afresh(pot.situation(state), Roll(dice))
                assert pot._DECIDED.weight <= 20_000
    finally:
        keep_decisions(budget)
    assert pot._DECIDED.budget == budget


def test_a_table_of_many_players_is_decided_afresh_every_time() -> None:
    names = [f"P{n}" for n in range(1, 41)]
    state = pot.start(engine.header(pot.GAME, names, {}))
    before = len(pot._DECIDED)
    assert pot.decide(state, Roll((3,))) == (Rolled(player="P1", dice=(3,), stage="opening"),)
    assert len(pot._DECIDED) == before
