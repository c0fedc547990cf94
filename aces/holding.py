"""What the standings of a moment show, in every game: who holds how much.

Each game's rules say what a player holds in one of its states (chips in
Aces in the Pot, dice in Aces) and what is out of every hand (the pot, the
centre), as a :class:`Holding`; the narration's standings, the walkthrough's
tables, the replay page and the class experiment read every game so,
without knowing which game it is.

>>> Holding(("Ada", "Bo"), (2, 1), 1)
Holding(players=('Ada', 'Bo'), held=(2, 1), out=1)
"""

from __future__ import annotations

import typing as t

if t.TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["Holding"]


class Holding(t.NamedTuple):
    """What the standings of a state show: each player's chips or dice, and
    what is out of their hands (the pot, the centre)."""

    players: tuple[str, ...]
    #: By seat: a plain tuple, or at a large table the state's own vector
    #: (:class:`~aces.rules.seats.Seats`), which says cheaply what changed.
    held: Sequence[int]
    out: int
