"""What a walkthrough is made of, already in the reader's language: told
narration, the asides that explain a rule, and the standings as a table.
"""

from __future__ import annotations

import functools
import typing as t

__all__ = ["MEMO_BUDGET", "Aside", "Part", "Standings", "Told", "new_told"]

#: The bytes of parts, and of their rendered text, a walkthrough remembers
#: (its standings tables, and what rendering has written before).
MEMO_BUDGET: t.Final = 4 << 20


class Told(t.NamedTuple):
    """Lines of narration, as ``aces replay`` prints them."""

    lines: tuple[str, ...]
    #: The lines open a game (its header), so a new section may start here.
    opens_game: bool = False


class Aside(t.NamedTuple):
    """The rule that has just come into play, explained once."""

    #: Which rule, a stable key such as ``"ace"`` or ``"roll-again"``.
    rule: str
    #: The label of every aside ("Rule"), in the walkthrough's language.
    label: str
    text: str


class Standings(t.NamedTuple):
    """Who holds what, as a one-row table: a column per player, then the pot or centre."""

    header: tuple[str, ...]
    row: tuple[str, ...]


Part = Told | Aside | Standings

#: Told parts are made after every step: as plain tuples are, without the
#: named tuple's own constructor.
new_told: t.Final = functools.partial(tuple.__new__, Told)
