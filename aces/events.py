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
           "DicePassed", "DiceToCentre", "Event", "FinishStarted", "GameExcluded", "GameOver",
           "GameStarted",
           "OpeningTied", "OpeningWon", "PlayResumed", "PlayerEvent", "RollAgain", "RollUndone",
           "Rolled", "Stage", "TryFailed", "TryStarted", "TryWon", "TurnMissed", "Unpaid",
           "type_name"]

#: The schema version written into every ``game_started`` event. Schema 2
#: added the digest chain and ``roll_undone``; schema 1 logs are read
#: through :func:`aces.upgrade.upcast_v1_v2`.
SCHEMA: t.Final = 2

Stage = t.Literal["opening", "turn", "try"]


class BaseEvent(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", omit_defaults=True,
                forbid_unknown_fields=True, cache_hash=True):
    """Common base: frozen, keyword-only, tagged by ``"type"``, no unknown fields.

    An event's hash is worked out once and kept (``cache_hash``): the
    narration looks its sentences up by the event, and a long log hands on
    the same few events over and over.
    """


class PlayerEvent(BaseEvent, frozen=True):
    """An event about one player, named first: the roller, or the player
    whose turn is missed, who starts, or who makes a try."""

    player: str


# -- Every game ---------------------------------------------------------------


class GameStarted(BaseEvent, tag="game_started", frozen=True):
    """The header of one game: which game, its options and the seats."""

    schema: int
    game: str
    players: tuple[str, ...]
    options: dict[str, int | str | bool]
    #: The seed that reproduces this game's dice, when they were generated.
    seed: int | None = None


class Rolled(PlayerEvent, tag="rolled", frozen=True):
    """A player rolled these dice; ``stage`` says which part of the game."""

    dice: tuple[int, ...]
    stage: Stage
    #: Receivers of dice the roller gave away by choice, in order (five-dice
    #: ``threes``); empty, and left out of the log, everywhere else.
    to: tuple[str, ...] = ()


class OpeningTied(BaseEvent, tag="opening_tied", frozen=True):
    """Several players share the highest opening roll; only they roll again."""

    players: tuple[str, ...]
    value: int


class OpeningWon(PlayerEvent, tag="opening_won", frozen=True):
    """One player rolled highest in the opening and starts the game."""

    value: int


class TurnMissed(PlayerEvent, tag="turn_missed", frozen=True):
    """A player with nothing to play with misses the turn (not a roll)."""


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


class GameExcluded(BaseEvent, tag="game_excluded", frozen=True):
    """Game number ``game`` of this log is taken out of the class's pool.

    The teacher's decision in the live class (a group that played by other
    rules, say): the game stays in the log as it was played, and this
    event, appended later, tells ``aces stats`` and the class's projector to
    leave it out. It changes no game's state, and stands wherever a roll
    could: between rolls, or after a game is over.
    """

    game: int


class GameOver(BaseEvent, tag="game_over", frozen=True):
    """The last event of a finished game: who won, or who lost, and the pot."""

    winner: str | None = None
    pot: int | None = None
    loser: str | None = None


# -- Aces in the Pot ----------------------------------------------------------


class ChipsToPot(PlayerEvent, tag="chips_to_pot", frozen=True):
    """Aces sent ``count`` of the roller's chips to the pot."""

    count: int


class AceIgnored(PlayerEvent, tag="ace_ignored", frozen=True):
    """An ace that would have sent the last chip in play to the pot."""


class ChipsPassed(PlayerEvent, tag="chips_passed", frozen=True):
    """Sixes passed ``count`` of the player's chips to the player ``to``."""

    to: str
    count: int


class Unpaid(PlayerEvent, tag="unpaid", frozen=True):
    """The roller ran out of chips: these aces and sixes went unpaid."""

    aces: int = 0
    sixes: int = 0


class FinishStarted(PlayerEvent, tag="finish_started", frozen=True):
    """The finish begins; ``player`` holds the chips left in play."""

    chips: int


class TryStarted(PlayerEvent, tag="try_started", frozen=True):
    """``player`` makes a try: up to three rolls without a six."""


class TryFailed(PlayerEvent, tag="try_failed", frozen=True):
    """A six on roll number ``roll`` of the try ended it."""

    roll: int


class TryWon(PlayerEvent, tag="try_won", frozen=True):
    """Three rolls without a six: the try succeeded."""


class PlayResumed(PlayerEvent, tag="play_resumed", frozen=True):
    """(``last-holder``) the failed holder kept chips; ``player`` rolls next."""


# -- Aces (the five-dice game) ------------------------------------------------


class DiceToCentre(PlayerEvent, tag="dice_to_centre", frozen=True):
    """The roller's 1s: ``count`` dice to the centre, out of the game."""

    count: int


class DicePassed(PlayerEvent, tag="dice_passed", frozen=True):
    """``count`` of the roller's dice showing ``face`` went to the player ``to``.

    ``face`` says why: 2 to the left, 5 to the right, 3 to a player of the
    roller's choice (``threes``).
    """

    to: str
    count: int
    face: t.Literal[2, 3, 5]


class RollAgain(PlayerEvent, tag="roll_again", frozen=True):
    """The roll moved dice and the roller still holds some: the turn goes on."""


Event = (
    GameStarted
    | Rolled
    | OpeningTied
    | OpeningWon
    | TurnMissed
    | GameOver
    | RollUndone
    | GameExcluded
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
