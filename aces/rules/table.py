"""What every game's state has, and the rules every game shares about it.

Every game seats its players in order, knows each one's seat by name and
whose roll it is, and passes play to the left: a game's state is a
:class:`Table` with its own fields added, made with what :func:`seating`
gives. A game that begins with the opening (both games of the package,
:mod:`aces.rules.opening`) is an :class:`OpeningTable`, made with
:func:`opening_seating`, and files the handlers here in its ``evolve``
beside its own (:func:`shared_handlers`), so that the events every game
has evolve the same way in each.

>>> class Race(Table, frozen=True, kw_only=True):
...     target: int
>>> race = Race(**seating(("Ada", "Bo", "Cy")), target=10)
>>> race.seats, race.left_of(2), turn_missed(race, TurnMissed(player="Bo")).turn
({'Ada': 0, 'Bo': 1, 'Cy': 2}, 0, 2)
"""

from __future__ import annotations

import typing as t

import msgspec

from aces.events import OpeningTied, OpeningWon, TurnMissed
from aces.rules import on
from aces.rules.opening import Opening

if t.TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["DECIDED", "OpeningSeating", "OpeningTable", "Seating", "Table", "opening_seating",
           "opening_tied", "opening_won", "seating", "shared_handlers", "turn_missed"]


class Table(msgspec.Struct, frozen=True, kw_only=True):
    """The players in seat order, and the seat to roll next.

    A subclass adds the game's own fields; every field is named when a
    state is made (the players' with :func:`seating`), so the fields of a
    game and of its base may come in any order.
    """

    players: tuple[str, ...]
    #: Each player's seat, by name.
    seats: dict[str, int]
    #: The seat to roll next.
    turn: int = 0

    def left_of(self, seat: int) -> int:
        """The seat on the left of ``seat``: the next to play."""
        return (seat + 1) % len(self.players)


class OpeningTable(Table, frozen=True, kw_only=True):
    """A table that begins with the opening: whoever rolls highest starts."""

    opening: Opening
    #: The part of the game: ``opening``, then the game's own phases.
    phase: str = "opening"


class Seating(t.TypedDict):
    """The fields of a :class:`Table` that its players make, to unpack into
    a new state beside the game's own: ``Race(**seating(players), target=10)``.
    A typed dictionary, so that the type checker still checks every field."""

    players: tuple[str, ...]
    seats: dict[str, int]


class OpeningSeating(Seating):
    """The fields of an :class:`OpeningTable` that its players make."""

    opening: Opening


def seating(players: Sequence[str]) -> Seating:
    """``players`` in seat order, seat 0 first, and each one's seat by name."""
    return {"players": tuple(players), "seats": {name: seat for seat, name in enumerate(players)}}


def opening_seating(players: Sequence[str]) -> OpeningSeating:
    """:func:`seating`, and the opening about to begin, in which everyone rolls."""
    return {**seating(players), "opening": Opening.everyone(len(players))}


#: The opening once it is decided: nobody contends any more. Play never
#: reads it, so every game's play begins from the same state whatever the
#: opening's rolls were, and the places of play a log's walk meets come
#: back game after game (:mod:`aces.walk` remembers its moves by them).
DECIDED: t.Final = Opening(())

T = t.TypeVar("T", bound=Table)
OT = t.TypeVar("OT", bound=OpeningTable)


def opening_tied(state: OT, event: OpeningTied) -> OT:
    """Only the players who share the highest roll roll again."""
    seats = tuple(state.seats[name] for name in event.players)
    return msgspec.structs.replace(state, opening=Opening(seats))


def opening_won(state: OT, event: OpeningWon) -> OT:
    """The player who rolled highest starts the play; the opening is over."""
    return msgspec.structs.replace(state, phase="play", turn=state.seats[event.player],
                                   opening=DECIDED)


def turn_missed(state: T, event: TurnMissed) -> T:
    """A player with nothing to play with is passed over: the turn goes left."""
    return msgspec.structs.replace(state, turn=state.left_of(state.seats[event.player]))


def shared_handlers(state: type[OT]) -> tuple[tuple[type, t.Callable[[OT, t.Any], OT]], ...]:
    """The handlers above, filed (:func:`aces.rules.on`) for the ``evolve``
    of a game whose states are ``state``: the opening, and a turn missed."""
    return (on(OpeningTied, opening_tied), on(OpeningWon, opening_won),
            on(TurnMissed, turn_missed))
