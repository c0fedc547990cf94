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

import msgspec


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
