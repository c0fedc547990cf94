"""Games scored per player over a session, remembered within a bound.

A session's tally (pots won, games lost, wins in ``aces verify``) names
every player it remembers. A log of thousands of games, each with new
names, would make it keep, and list after every game, every name the log
ever held; so a tally remembers everyone at the table, and besides them
the :data:`SESSION_PLAYERS` players seated most recently. A player away
for longer is forgotten, and comes back with nothing scored.

>>> scores = Scores(budget=2)
>>> scores.seat(["Ada", "Bo"], 1); scores.add("Ada")
>>> scores.seat(["Cy", "Dag"], 2); scores.seat(["Eli", "Fay"], 3)
>>> scores.counts
{'Cy': 0, 'Dag': 0, 'Eli': 0, 'Fay': 0}
>>> scores.seat(["Ada", "Bo"], 4); scores.counts["Ada"]
0
"""

from __future__ import annotations

import typing as t

if t.TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["SESSION_PLAYERS", "Scores"]

#: Players a tally remembers besides those at the table: the ones seated most recently.
SESSION_PLAYERS: t.Final = 1000


class Scores:
    """Each remembered player's score, in the order first seated."""

    __slots__ = ("_seated", "budget", "counts")

    def __init__(self, budget: int | None = None) -> None:
        #: Players remembered besides those at the table.
        self.budget = SESSION_PLAYERS if budget is None else budget
        self.counts: dict[str, int] = {}
        #: The game each player last sat at.
        self._seated: dict[str, int] = {}

    def seat(self, players: Sequence[str], game: int) -> None:
        """The players of game ``game`` sit down: remembered, with what they scored."""
        counts, seated = self.counts, self._seated
        for name in players:
            counts.setdefault(name, 0)
            seated[name] = game
        excess = len(counts) - self.budget - len(players)
        if excess > 0:
            # Forget the players away longest, and a tenth of the budget
            # more: sorting once in a while keeps the cost of each game of
            # new names bounded.
            room = excess + self.budget // 10
            away = sorted((when, name) for name, when in seated.items() if when != game)
            for _, name in away[:room]:
                del counts[name], seated[name]

    def kept(self) -> tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]:
        """All that the scores hold, in order: each remembered player's score,
        and the game each last sat at. Two scores that keep the same go on alike."""
        return tuple(self.counts.items()), tuple(self._seated.items())

    def add(self, name: str, by: int = 1) -> None:
        """Score ``by`` for ``name`` (taken back with ``-1``), if remembered:
        a player scores only at the table, where everyone is remembered."""
        if name in self.counts:
            self.counts[name] += by
