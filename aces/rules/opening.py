"""Who starts: the opening shared by both games.

Every player rolls once, in seat order; the highest starts. Players who
share the highest number roll again, only they, until one is highest.
The state of an opening is the seats still contending, how many of them
have rolled in this round, and the highest value so far with the seats
that rolled it: all that decides the round, kept as it goes, so that a
roll never copies the values of the rolls before it (at a table of
thousands, the opening would cost the square of the table).

>>> o = Opening.everyone(3)
>>> for value in (4, 4, 2):
...     o = o.record(value)
>>> o.leaders()
(0, 1)
"""

from __future__ import annotations

import typing as t

import msgspec

from aces.events import OpeningTied, OpeningWon

if t.TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["Opening", "decided"]


class Opening(msgspec.Struct, frozen=True):
    """Contending seats, and the current round so far."""

    contenders: tuple[int, ...]
    #: How many contenders have rolled in this round.
    rolled: int = 0
    #: The highest value rolled so far in this round (0 before any).
    highest: int = 0
    #: The seats that rolled it, in seat order.
    leading: tuple[int, ...] = ()

    @classmethod
    def everyone(cls, players: int) -> Opening:
        return cls(tuple(range(players)))

    def roller(self) -> int:
        """The seat that rolls next in this round."""
        return self.contenders[self.rolled]

    def record(self, value: int) -> Opening:
        seat = self.contenders[self.rolled]
        if value > self.highest:
            return Opening(self.contenders, self.rolled + 1, value, (seat,))
        if value == self.highest:
            return Opening(self.contenders, self.rolled + 1, value, (*self.leading, seat))
        return Opening(self.contenders, self.rolled + 1, self.highest, self.leading)

    def complete(self) -> bool:
        """Every contender has rolled in this round."""
        return self.rolled == len(self.contenders)

    def top(self) -> int:
        """The highest value of the round so far."""
        return self.highest

    def leaders(self) -> tuple[int, ...]:
        """The seats that share the highest value of the round so far."""
        return self.leading


def decided(opening: Opening, players: Sequence[str]) -> OpeningWon | OpeningTied | None:
    """The event that ends a complete round: one winner, or a tie to roll off.

    ``None`` while contenders are still to roll. Each game decides what a
    player's opening value is (one die, or the total of all held).

    >>> decided(Opening.everyone(3).record(9).record(12).record(12), ("Ada", "Bo", "Cy"))
    OpeningTied(players=('Bo', 'Cy'), value=12)
    """
    if not opening.complete():
        return None
    leaders = opening.leaders()
    if len(leaders) == 1:
        return OpeningWon(player=players[leaders[0]], value=opening.top())
    return OpeningTied(players=tuple(players[s] for s in leaders), value=opening.top())
