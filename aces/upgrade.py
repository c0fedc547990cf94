"""Older schemas of the log, read through explicit upgrade functions.

Each function takes one line of schema *n*, decoded as a plain JSON
object, and returns the same event as schema *n + 1* writes it.
:data:`UPCASTS` chains them by the schema they read, and :func:`upcast`
applies them in turn until the line is current, so a schema 3 is one new
function (``upcast_v2_v3``) and one entry; the reader (:mod:`aces.log`)
calls :func:`upcast`, and the rest of the package only ever sees current
events. Each schema is tested with a stored log (tests/data/).

Schema 1 (aces 0.1) had no digests, no ``roll_undone``, and asked readers
to ignore fields they did not know. Schema 2 refuses unknown fields, since
a digest must cover the whole line; so the upgrade drops them.

>>> upcast_v1_v2({"seq": 1, "type": "game_started", "schema": 1, "game": "pot",
...               "players": ["Ada", "Bo"], "options": {}, "note": "kept by hand"})
{'type': 'game_started', 'schema': 2, 'game': 'pot', 'players': ['Ada', 'Bo'], 'options': {}}
"""

from __future__ import annotations

import typing as t

import msgspec

from aces.events import EVENT_TYPES, SCHEMA, GameExcluded, RollUndone

if t.TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["TYPES", "UPCASTS", "V1_TYPES", "upcast", "upcast_v1_v2"]

#: The event types of schema 1: every type of schema 2 but ``roll_undone``
#: and ``game_excluded``.
V1_TYPES: t.Final = frozenset(
    t.cast("str", cls.__struct_config__.tag) for cls in EVENT_TYPES
    if cls is not RollUndone and cls is not GameExcluded
)
#: The fields of each type in schema 2, by its ``"type"``.
_FIELDS: t.Final = {
    t.cast("str", cls.__struct_config__.tag): frozenset(
        field.encode_name for field in msgspec.structs.fields(cls))
    for cls in EVENT_TYPES
}


def upcast_v1_v2(line: dict[str, t.Any]) -> dict[str, t.Any]:
    """A schema 1 line as a schema 2 event: its fields, without ``seq`` or
    any field schema 2 does not know, and ``game_started`` says schema 2.

    The caller has checked that ``type`` is one of :data:`V1_TYPES`.
    """
    kind = line["type"]
    known = _FIELDS[kind]
    event = {"type": kind, **{name: value for name, value in line.items() if name in known}}
    if kind == "game_started":
        event["schema"] = 2
    return event


#: Each older schema's upgrade to the schema after it, by the schema it reads.
UPCASTS: t.Final[dict[int, Callable[[dict[str, t.Any]], dict[str, t.Any]]]] = {
    1: upcast_v1_v2,
}
#: The event types each older schema knows, by schema.
TYPES: t.Final = {1: V1_TYPES}


def upcast(line: dict[str, t.Any], schema: int) -> dict[str, t.Any]:
    """A line of ``schema``, upgraded step by step to the current schema.

    >>> upcast({"seq": 4, "type": "try_won", "player": "Bo"}, 1)
    {'type': 'try_won', 'player': 'Bo'}
    """
    while schema != SCHEMA:
        line = UPCASTS[schema](line)
        schema += 1
    return line
