"""Who starts: the opening shared by both games.

Every player rolls once, in seat order; the highest starts. Players who
share the highest number roll again, only they, until one is highest.
The state of an opening is the seats still contending and what each has
rolled so far in this round.

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
    """Contending seats, and the values rolled so far in the current round."""

    contenders: tuple[int, ...]
    values: tuple[int, ...] = ()

    @classmethod
    def everyone(cls, players: int) -> Opening:
        return cls(tuple(range(players)))

    def roller(self) -> int:
        """The seat that rolls next in this round."""
        return self.contenders[len(self.values)]

    def record(self, value: int) -> Opening:
        return Opening(self.contenders, (*self.values, value))

    def complete(self) -> bool:
        """Every contender has rolled in this round."""
        return len(self.values) == len(self.contenders)

    def top(self) -> int:
        return max(self.values)

    def leaders(self) -> tuple[int, ...]:
        """The seats that share the highest value of a complete round."""
        top = self.top()
        return tuple(s for s, v in zip(self.contenders, self.values, strict=True) if v == top)


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
