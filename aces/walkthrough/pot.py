"""Which rules of Aces in the Pot a step puts into play: what a walkthrough
explains, and where (the game's rulebook, :attr:`aces.games.Registration.rulebook`).
"""

from __future__ import annotations

import typing as t

from aces import events
from aces.rules import pot

if t.TYPE_CHECKING:
    from aces.walk import Step

__all__ = ["rules"]


def rules(step: Step[t.Any], before: pot.PotState) -> list[str]:
    """The rules of Aces in the Pot that ``step`` puts into play, ``before`` it."""
    event = step.event
    if isinstance(event, events.Rolled):
        if event.stage != "turn":
            return []
        held = before.chips[before.turn]
        aces, sixes = event.dice.count(pot.ACE), event.dice.count(pot.SIX)
        # What the roll really moves: each note stands at the first roll that shows
        # its rule at work, not merely at the first roll that could.
        paid = pot.settle(held, before.in_play, aces, sixes,
                          protect_last=before.finish == "last-chip")
        found = []
        if not aces and not sixes:
            found.append("nothing")
        if aces and sixes and paid.to_pot == aces and paid.to_left == sixes:
            found.append("ace-and-six")
        if (aces == 2 and paid.to_pot == 2) or (sixes == 2 and paid.to_left == 2):
            found.append("doubles")
        return found
    if isinstance(event, events.ChipsPassed):
        if before.phase != "play":
            return []
        found = ["six"]
        if before.chips[before.seats[event.to]] == 0:
            found.append("comeback")
        return found
    kind = type(event)
    if kind is events.FinishStarted:
        return [f"finish-{before.finish}"]
    if kind is events.TryFailed:
        return [f"failed-try-{before.finish}"]
    rule = _ALWAYS.get(kind)
    return [] if rule is None else [rule]


#: The rules of Aces in the Pot that an event of a kind always puts into
#: play (asked after every event of a log: made once).
_ALWAYS: t.Final[dict[type, str]] = {
    events.OpeningTied: "opening-tie",
    events.OpeningWon: "left",
    events.ChipsToPot: "ace",
    events.Unpaid: "one-chip",
    events.TurnMissed: "missed-turn",
    events.AceIgnored: "ignored-ace",
    events.TryStarted: "try",
    events.PlayResumed: "failed-try-last-holder",
    events.GameOver: "won",
}
