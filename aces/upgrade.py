"""Older schemas of the log, read through explicit upgrade functions.

Each function takes one line of schema *n*, decoded as a plain JSON
object, and returns the same event as schema *n + 1* writes it. The reader
(:mod:`aces.log`) applies them in turn, so the rest of the package only
ever sees current events. Each schema is tested with a stored log
(tests/data/).

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

from aces.events import EVENT_TYPES, RollUndone

#: The event types of schema 1: every type of schema 2 but ``roll_undone``.
V1_TYPES: t.Final = frozenset(
    t.cast("str", cls.__struct_config__.tag) for cls in EVENT_TYPES if cls is not RollUndone
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
