"""The events of a game: immutable values, one per line of a log.

An event says what happened, never how to say it: it holds names and
numbers, no words of any language. Each type is tagged in JSON by its
``"type"`` field; :data:`Event` is the union the log reader decodes into,
so one call both parses a line and checks every field.

This module is the schema. Changing a field means a new :data:`SCHEMA`
version and an upgrade function in :mod:`aces.upgrade`. Unknown fields
are refused: an event has exactly one encoding, the one its digest in the
log covers (see :mod:`aces.log`).

>>> import msgspec
>>> msgspec.json.encode(Rolled(player="Ada", dice=(1, 6), stage="turn"))
b'{"type":"rolled","player":"Ada","dice":[1,6],"stage":"turn"}'
"""

from __future__ import annotations

import typing as t

import msgspec

__all__ = ["EVENT_TYPES", "SCHEMA", "AceIgnored", "BaseEvent", "ChipsPassed", "ChipsToPot",
           "DicePassed", "DiceToCentre", "Event", "FinishStarted", "GameOver", "GameStarted",
           "OpeningTied", "OpeningWon", "PlayResumed", "RollAgain", "RollUndone", "Rolled", "Stage",
           "TryFailed", "TryStarted", "TryWon", "TurnMissed", "Unpaid", "type_name"]

#: The schema version written into every ``game_started`` event. Schema 2
#: added the digest chain and ``roll_undone``; schema 1 logs are read
#: through :func:`aces.upgrade.upcast_v1_v2`.
SCHEMA: t.Final = 2

Stage = t.Literal["opening", "turn", "try"]


class BaseEvent(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", omit_defaults=True,
                forbid_unknown_fields=True):
    """Common base: frozen, keyword-only, tagged by ``"type"``, no unknown fields."""


# -- Every game ---------------------------------------------------------------


class GameStarted(BaseEvent, tag="game_started", frozen=True):
    """The header of one game: which game, its options and the seats."""

    schema: int
    game: str
    players: tuple[str, ...]
    options: dict[str, int | str | bool]
    #: The seed that reproduces this game's dice, when they were generated.
    seed: int | None = None


class Rolled(BaseEvent, tag="rolled", frozen=True):
    """A player rolled these dice; ``stage`` says which part of the game."""

    player: str
    dice: tuple[int, ...]
    stage: Stage
    #: Receivers of dice the roller gave away by choice, in order (five-dice
    #: ``threes``); empty, and left out of the log, everywhere else.
    to: tuple[str, ...] = ()


class OpeningTied(BaseEvent, tag="opening_tied", frozen=True):
    """Several players share the highest opening roll; only they roll again."""

    players: tuple[str, ...]
    value: int


class OpeningWon(BaseEvent, tag="opening_won", frozen=True):
    """One player rolled highest in the opening and starts the game."""

    player: str
    value: int


class TurnMissed(BaseEvent, tag="turn_missed", frozen=True):
    """A player with nothing to play with misses the turn (not a roll)."""

    player: str


class RollUndone(BaseEvent, tag="roll_undone", frozen=True):
    """The last roll still standing in this game is taken back, with all it settled.

    A correction at the table (a die typed wrong): the log is never
    rewritten, so the roll stays where it was and this event, appended
    later, cancels it. ``undoes`` is the ``seq`` of the roll's line;
    ``player``, ``dice`` and ``to`` repeat the roll, so that a reader sees
    what was taken back without looking it up.
    """

    undoes: int
    player: str
    dice: tuple[int, ...]
    to: tuple[str, ...] = ()


class GameOver(BaseEvent, tag="game_over", frozen=True):
    """The last event of a finished game: who won, or who lost, and the pot."""

    winner: str | None = None
    pot: int | None = None
    loser: str | None = None


# -- Aces in the Pot ----------------------------------------------------------


class ChipsToPot(BaseEvent, tag="chips_to_pot", frozen=True):
    """Aces sent ``count`` of the roller's chips to the pot."""

    player: str
    count: int


class AceIgnored(BaseEvent, tag="ace_ignored", frozen=True):
    """An ace that would have sent the last chip in play to the pot."""

    player: str


class ChipsPassed(BaseEvent, tag="chips_passed", frozen=True):
    """Sixes passed ``count`` of the player's chips to the player ``to``."""

    player: str
    to: str
    count: int


class Unpaid(BaseEvent, tag="unpaid", frozen=True):
    """The roller ran out of chips: these aces and sixes went unpaid."""

    player: str
    aces: int = 0
    sixes: int = 0


class FinishStarted(BaseEvent, tag="finish_started", frozen=True):
    """The finish begins; ``player`` holds the chips left in play."""

    player: str
    chips: int


class TryStarted(BaseEvent, tag="try_started", frozen=True):
    """``player`` makes a try: up to three rolls without a six."""

    player: str


class TryFailed(BaseEvent, tag="try_failed", frozen=True):
    """A six on roll number ``roll`` of the try ended it."""

    player: str
    roll: int


class TryWon(BaseEvent, tag="try_won", frozen=True):
    """Three rolls without a six: the try succeeded."""

    player: str


class PlayResumed(BaseEvent, tag="play_resumed", frozen=True):
    """(``last-holder``) the failed holder kept chips; ``player`` rolls next."""

    player: str


# -- Aces (the five-dice game) ------------------------------------------------


class DiceToCentre(BaseEvent, tag="dice_to_centre", frozen=True):
    """The roller's 1s: ``count`` dice to the centre, out of the game."""

    player: str
    count: int


class DicePassed(BaseEvent, tag="dice_passed", frozen=True):
    """``count`` of the roller's dice showing ``face`` went to the player ``to``.

    ``face`` says why: 2 to the left, 5 to the right, 3 to a player of the
    roller's choice (``threes``).
    """

    player: str
    to: str
    count: int
    face: t.Literal[2, 3, 5]


class RollAgain(BaseEvent, tag="roll_again", frozen=True):
    """The roll moved dice and the roller still holds some: the turn goes on."""

    player: str


Event = (
    GameStarted
    | Rolled
    | OpeningTied
    | OpeningWon
    | TurnMissed
    | GameOver
    | RollUndone
    | ChipsToPot
    | AceIgnored
    | ChipsPassed
    | Unpaid
    | FinishStarted
    | TryStarted
    | TryFailed
    | TryWon
    | PlayResumed
    | DiceToCentre
    | DicePassed
    | RollAgain
)
"""Any event of any game, as decoded from one log line."""

EVENT_TYPES: t.Final[tuple[type[BaseEvent], ...]] = t.get_args(Event)


def type_name(event: BaseEvent) -> str:
    """The ``"type"`` tag of an event, as written in the log."""
    tag = type(event).__struct_config__.tag
    assert isinstance(tag, str)
    return tag
