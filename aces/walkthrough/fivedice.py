"""Which rules of Aces, the five-dice game, a step puts into play: what a
walkthrough explains, and where (the game's rulebook).
"""

from __future__ import annotations

import typing as t

from aces import events
from aces.rules import fivedice

if t.TYPE_CHECKING:
    from aces.walk import Step

__all__ = ["rules"]


def rules(step: Step[t.Any], before: fivedice.FiveDiceState) -> list[str]:
    """The rules of Aces (five dice) that ``step`` puts into play, ``before`` it."""
    event = step.event
    after: fivedice.FiveDiceState = step.state
    if isinstance(event, events.Rolled):
        if event.stage == "turn" and not fivedice.settle(event.dice, threes=before.threes).leaving:
            return ["turn-over"]
        return []
    found: list[str] = []
    if isinstance(event, events.DiceToCentre):
        found.append("centre")
    elif isinstance(event, events.DicePassed):
        found.append({fivedice.TWO: "two", fivedice.FIVE: "five"}.get(event.face, "three"))
    if (isinstance(event, (events.DiceToCentre, events.DicePassed)) and after.phase == "play"
            and after.centre < after.total and after.held[after.seats[event.player]] == 0):
        found.append("empty-hand")
    rule = _ALWAYS.get(type(event))
    return found if rule is None else [*found, rule]


#: The rules of Aces (five dice) that an event of a kind always puts into play.
_ALWAYS: t.Final[dict[type, str]] = {
    events.OpeningTied: "fd-opening-tie",
    events.OpeningWon: "left",
    events.RollAgain: "roll-again",
    events.TurnMissed: "fd-missed-turn",
    events.GameOver: "fd-lost",
}
