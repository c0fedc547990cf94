"""The worked examples E1 and E2 of the rulings, event by event.

The dice scripts are copied from ../shared/RULINGS.md as written there, one
roll per ``/``; the expected events are the rulings' own sentences, written
out as events.
"""

from __future__ import annotations

import typing as t

import pytest

from aces import engine
from aces.dice import DiceFile
from aces.events import (
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
from aces.rules import pot
from aces.walk import walk

if t.TYPE_CHECKING:
    from aces.events import Event

PLAYERS: t.Final = ("Ada", "Bo", "Cy")
E1_SCRIPT: t.Final = "2/3/5/1 6/3 5/6 6/1 1/1 6/1 4/2 5/6 6/1 1/3 4/5 2"
E2_SCRIPT: t.Final = "4/4/2/1/3/1 1/1 1/6 6/1 5/6 3/2 4/1 1/6 2/4 4/2 2/3 3"


def opening(player: str, value: int) -> Rolled:
    return Rolled(player=player, dice=(value,), stage="opening")


def turn(player: str, *dice: int) -> Rolled:
    return Rolled(player=player, dice=dice, stage="turn")


def trying(player: str, *dice: int) -> Rolled:
    return Rolled(player=player, dice=dice, stage="try")


E1: t.Final[list[Event]] = [
    # Cy opens (5).
    opening("Ada", 2), opening("Bo", 3), opening("Cy", 5), OpeningWon(player="Cy", value=5),
    # Cy 1-6: one to the pot, one to Ada.
    turn("Cy", 1, 6), ChipsToPot(player="Cy", count=1),
    ChipsPassed(player="Cy", to="Ada", count=1),
    # Ada 3-5: nothing.
    turn("Ada", 3, 5),
    # Bo 6-6: two to Cy.
    turn("Bo", 6, 6), ChipsPassed(player="Bo", to="Cy", count=2),
    # Cy 1-1: two to the pot.
    turn("Cy", 1, 1), ChipsToPot(player="Cy", count=2),
    # Ada 1-6: one to the pot, one to Bo.
    turn("Ada", 1, 6), ChipsToPot(player="Ada", count=1),
    ChipsPassed(player="Ada", to="Bo", count=1),
    # Bo 1-4: Bo's chip to the pot; Ada holds the last one.
    turn("Bo", 1, 4), ChipsToPot(player="Bo", count=1),
    FinishStarted(player="Ada", chips=1), TryStarted(player="Ada"),
    # Ada tries: 2-5, then 6-6 ends the try; the chip goes to Bo.
    trying("Ada", 2, 5), trying("Ada", 6, 6), TryFailed(player="Ada", roll=2),
    ChipsPassed(player="Ada", to="Bo", count=1), TryStarted(player="Bo"),
    # Bo tries: 1-1, 3-4, 5-2, no six: Bo wins a pot of 5.
    trying("Bo", 1, 1), trying("Bo", 3, 4), trying("Bo", 5, 2),
    TryWon(player="Bo"), GameOver(winner="Bo", pot=5),
]

E2: t.Final[list[Event]] = [
    # Ada and Bo tie on 4 and roll again (1 and 3): Bo opens.
    opening("Ada", 4), opening("Bo", 4), opening("Cy", 2),
    OpeningTied(players=("Ada", "Bo"), value=4),
    opening("Ada", 1), opening("Bo", 3), OpeningWon(player="Bo", value=3),
    # Bo 1-1 and Cy 1-1 put four chips in the pot; only Ada holds chips (two).
    turn("Bo", 1, 1), ChipsToPot(player="Bo", count=2),
    turn("Cy", 1, 1), ChipsToPot(player="Cy", count=2),
    FinishStarted(player="Ada", chips=2), TryStarted(player="Ada"),
    # Ada tries: 6-6 passes both to Bo, who now holds all and tries.
    trying("Ada", 6, 6), TryFailed(player="Ada", roll=1),
    ChipsPassed(player="Ada", to="Bo", count=2), TryStarted(player="Bo"),
    # Bo: 1-5 (the ace counts for nothing), then 6-3 passes one chip to Cy.
    trying("Bo", 1, 5), trying("Bo", 6, 3), TryFailed(player="Bo", roll=2),
    ChipsPassed(player="Bo", to="Cy", count=1),
    # Bo still has one, so play resumes with Cy: 2-4, nothing.
    PlayResumed(player="Cy"), turn("Cy", 2, 4),
    # Ada has no chips and misses her turn.
    TurnMissed(player="Ada"),
    # Bo 1-1: one chip to the pot, none left for the second ace.
    turn("Bo", 1, 1), ChipsToPot(player="Bo", count=1), Unpaid(player="Bo", aces=1),
    # Only Cy holds a chip: Cy tries, 6-2, and the chip goes to Ada.
    FinishStarted(player="Cy", chips=1), TryStarted(player="Cy"),
    trying("Cy", 6, 2), TryFailed(player="Cy", roll=1),
    ChipsPassed(player="Cy", to="Ada", count=1), TryStarted(player="Ada"),
    # Ada tries 4-4, 2-2, 3-3: Ada wins a pot of 5.
    trying("Ada", 4, 4), trying("Ada", 2, 2), trying("Ada", 3, 3),
    TryWon(player="Ada"), GameOver(winner="Ada", pot=5),
]

EXAMPLES: t.Final = [
    pytest.param(E1_SCRIPT, "last-chip", E1, id="E1-last-chip"),
    pytest.param(E2_SCRIPT, "last-holder", E2, id="E2-last-holder"),
]


def played(script: str, finish: str) -> list[Event]:
    header = engine.header(pot.GAME, PLAYERS, {"finish": finish})
    return list(engine.play(pot.GAME, header, DiceFile(script.split("/"), "script")))


@pytest.mark.parametrize(("script", "finish", "expected"), EXAMPLES)
def test_worked_example_event_by_event(script: str, finish: str, expected: list[Event]) -> None:
    header, *events = played(script, finish)
    assert isinstance(header, GameStarted)
    assert header.players == PLAYERS
    for number, (got, want) in enumerate(zip(events, expected, strict=False), start=1):
        assert got == want, f"event {number} after the header"
    assert len(events) == len(expected)


@pytest.mark.parametrize(("script", "finish", "expected"), EXAMPLES)
def test_worked_example_uses_every_roll_of_its_script(
    script: str, finish: str, expected: list[Event]
) -> None:
    rolls = [e.dice for e in expected if isinstance(e, Rolled)]
    assert rolls == [tuple(int(d) for d in roll.split()) for roll in script.split("/")]


@pytest.mark.parametrize(("script", "finish", "expected"), EXAMPLES)
def test_worked_example_walks_to_its_result(
    script: str, finish: str, expected: list[Event]
) -> None:
    events = played(script, finish)
    steps = list(walk((Record(n, e) for n, e in enumerate(events, start=1)), "script"))
    final = steps[-1].state
    assert final.phase == "over"
    assert final.pot == 5
    assert final.pot + final.in_play == 6
    assert expected[-1] == GameOver(winner=final.players[final.winner], pot=final.pot)
