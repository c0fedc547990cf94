"""Memos bounded in bytes: a remembered answer must never cost more than it saves.

The rules, the reader and the narration remember what they have worked out
(a decision, a decoded line, a sentence), because a long log repeats the
same few situations. A count of entries is no bound on memory when one
entry may hold a name of 60 KB or the chips of 4,000 players, so each
:class:`Memo` counts the bytes of what it holds, roughly, and starts
afresh when they pass its budget. An entry heavier than a tenth of the
budget is not kept at all: it is too big to be worth remembering.

>>> memo: Memo[int, str] = Memo(100)
>>> for n in range(10):
...     _ = memo.keep(n, str(n), 10)
>>> len(memo), memo.get(3)
(10, '3')
>>> memo.keep(10, "10", 10), len(memo)      # past the budget: afresh
('10', 1)
>>> memo.keep(11, "huge", 11), memo.get(11)  # over a tenth: not kept
('huge', None)
"""

from __future__ import annotations

import typing as t

__all__ = ["OBJECT", "REF", "Memo", "weigh"]

K = t.TypeVar("K")
V = t.TypeVar("V")

#: What a reference to an object costs where it is held (a slot, a tuple item).
REF: t.Final = 8
#: The rough size of an object's header: its type, reference count and size.
OBJECT: t.Final = 56


class Memo(t.Generic[K, V]):
    """A dict that forgets everything once what it holds weighs more than ``budget`` bytes."""

    __slots__ = ("_entries", "budget", "get", "weight")

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.weight = 0
        self._entries: dict[K, V] = {}
        #: The entry for a key, or ``None``: the dict's own ``get``, for speed.
        self.get = self._entries.get

    def __len__(self) -> int:
        return len(self._entries)

    def keep(self, key: K, value: V, weight: int) -> V:
        """Remember ``value`` for ``key`` (``weight`` bytes, roughly) and return it."""
        if weight * 10 > self.budget:
            return value
        if self.weight + weight > self.budget:
            self._entries.clear()
            self.weight = 0
        self._entries[key] = value
        self.weight += weight
        return value

    def clear(self) -> None:
        self._entries.clear()
        self.weight = 0


def weigh(value: object) -> int:
    """The bytes ``value`` holds, roughly, counting what it refers to.

    Shared objects are counted each time they are met, so the figure errs
    on the heavy side, which is the safe side for a budget.

    >>> weigh(("Ada", "Bo")) > weigh(("A", "B"))
    True
    """
    if isinstance(value, (str, bytes)):
        return OBJECT + len(value)
    if isinstance(value, (tuple, list, frozenset, set)):
        return OBJECT + sum(REF + weigh(item) for item in value)
    if isinstance(value, dict):
        return OBJECT + sum(2 * REF + weigh(k) + weigh(v) for k, v in value.items())
    # A msgspec Struct, known by its fields, so that this module (which the
    # escaping of text uses) imports nothing that ``aces --help`` must not load.
    fields = getattr(type(value), "__struct_fields__", None)
    if fields is not None:
        return OBJECT + sum(REF + weigh(getattr(value, name)) for name in fields)
    return OBJECT
