"""The class's stream of server-sent events: one for a whole class, resumed exactly.

Each block appended to a group's log is one event, ``id:`` its position
in the class's feed (:mod:`aces.classroom.store`) and its data the lines
as the log holds them. A projector that loses its connection reconnects
by itself with ``Last-Event-ID``, and the stream goes on with the block
after it, read from the store: no roll missed, none sent twice. Between
blocks come events without an id (so they move no cursor) with the
tables now (``tables``), the class pooled (``pool``, at most twice a
second) and the class itself (``class``: paused, a group joined); each
holds JSON, and, for the projector's script, the same rendered as HTML
in the projector's language.

Streams are bounded (``--max-projectors`` at once); a client that stops
reading is dropped (its send times out) and catches up when it comes back.
What a stream sends of the class is made once for every stream that sends
it (a group's row until the group changes, the pool and the class until
anything does), so ten projectors cost little more than one.
"""

from __future__ import annotations

import json
import time
import typing as t
import weakref

from aces.classroom.views import class_view, group_view
from aces.errors import ClassError, Plural
from aces.reports.export import as_dict
from aces.server.answers import caller_lang, refusal
from aces.server.pages import pool_html, row_html

if t.TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from starlette.requests import Request
    from starlette.responses import Response

    from aces.classroom.service import Classroom, Group

__all__ = ["BATCH", "POOL_EVERY", "stream"]

# Translators: the live class refuses another projector's stream. {limit}:
# the most streams at once.
_TOO_MANY: t.Final = Plural("{limit} projector is open already, as many as the class serves",
                            "{limit} projectors are open already, as many as the class serves",
                            by="limit")
#: Blocks read from the store at a time.
BATCH: t.Final = 256
#: The least time between two ``pool`` events of one stream, in seconds.
POOL_EVERY: t.Final = 0.5
#: A client that has not taken an event in this many seconds is dropped.
SEND_TIMEOUT: t.Final = 10.0


def _cursor(request: Request, position: int) -> int:
    raw = request.headers.get("last-event-id") or request.query_params.get("after") or "0"
    value = int(raw) if raw.isdigit() and len(raw) < 19 else 0
    # An id beyond the feed is another class's (a folder served anew): from the start.
    return value if value <= position else 0


async def stream(request: Request, room: Classroom, base: str = "") -> Response:
    """The stream of the class, from the position after ``Last-Event-ID``."""
    from sse_starlette.sse import EventSourceResponse

    if room.streams >= room.settings.streams:
        error = ClassError(_TOO_MANY, limit=room.settings.streams).coded("too_many_streams")
        return refusal(error, caller_lang(request, None, room.class_record.lang))
    # A Last-Event-ID may come from another process of the school's server:
    # this one first folds in all that the store holds.
    await room.catch_up()
    cursor = _cursor(request, room.position)
    room.streams += 1
    return EventSourceResponse(_events(room, cursor, base), ping=15,
                               send_timeout=SEND_TIMEOUT, headers={"cache-control": "no-store"})


async def _events(room: Classroom, cursor: int, base: str) -> AsyncIterator[dict[str, str]]:
    try:
        seen = room.version
        seen_class = room.class_version
        yield {"event": "class", "data": _class(room, base)}
        pooled_at = 0.0
        pooled = -1
        while True:
            entries = await room.entries(cursor, BATCH)
            touched: dict[int, None] = {}
            for entry in entries:
                yield {"id": str(entry.position), "event": "block",
                       "data": await room.block(entry)}
                touched[entry.stream] = None
                cursor = entry.position
            if touched:
                yield {"event": "tables", "data": _tables(room, list(touched), base)}
            if room.class_version != seen_class:
                seen_class = room.class_version
                yield {"event": "class", "data": _class(room, base)}
            now = time.monotonic()
            wait = 15.0
            if pooled != room.version:
                if now - pooled_at >= POOL_EVERY:
                    pooled, pooled_at = room.version, now
                    yield {"event": "pool", "data": _pool(room)}
                else:
                    wait = POOL_EVERY - (now - pooled_at)
            if entries and len(entries) == BATCH:
                continue
            if room.position > cursor:
                continue
            seen = await room.wait(seen, wait)
    finally:
        room.streams -= 1


def _tables(room: Classroom, groups: list[int], base: str) -> str:
    lang = room.class_record.lang
    shown = [_row(room, room.groups[number], base, lang) for number in groups]
    views = ", ".join(view for _, view, _ in shown)
    rows = ", ".join(f'"{number}": {row}' for number, _, row in shown)
    return f'{{"groups": [{views}], "html": {{{rows}}}}}'


#: Each group's view and row as a stream sends them, by language and address,
#: with what they were made from (see :func:`_row`).
_ROWS: weakref.WeakKeyDictionary[Group, dict[tuple[str, str], tuple[tuple[object, ...], int,
                                                                     str, str]]] = (
    weakref.WeakKeyDictionary())
#: The class's own events and its pool, by what they were made at.
_WHOLE: weakref.WeakKeyDictionary[Classroom, dict[tuple[str, int, str, str], str]] = (
    weakref.WeakKeyDictionary())


def _row(room: Classroom, group: Group, base: str, lang: str) -> tuple[int, str, str]:
    """A group's number, view and row (JSON), made again only once the group
    has changed: a roll or an undo (its ``seq``), its table read again, its
    record or the class's replaced (closed, its language, paused)."""
    table, record = group.table, group.record
    made_of = (table, table.seq, record, room.class_record, record.lang, record.closed,
               room.paused)
    kept = _ROWS.setdefault(group, {})
    found = kept.get((lang, base))
    if found is not None and _same(found[0], made_of):
        return found[1:]
    number = record.id
    made = (number, json.dumps(group_view(room, group, lang), ensure_ascii=False),
            json.dumps(row_html(room, group, base, lang), ensure_ascii=False))
    kept[(lang, base)] = (made_of, *made)
    return made


def _same(before: tuple[object, ...], now: tuple[object, ...]) -> bool:
    return all(old is new or old == new for old, new in zip(before, now, strict=True))


def _whole(room: Classroom, kind: str, base: str, make: t.Callable[[], str]) -> str:
    """The class's event ``kind`` as made at the class's version now, once."""
    lang = room.class_record.lang
    kept = _WHOLE.setdefault(room, {})
    key = (kind, room.version, lang, base)
    found = kept.get(key)
    if found is None:
        for old in [old for old in kept if old[0] == kind]:
            del kept[old]
        found = kept[key] = make()
    return found


def _class(room: Classroom, base: str) -> str:
    return _whole(room, "class", base, lambda: json.dumps(
        class_view(room, room.class_record.lang), ensure_ascii=False))


def _pool(room: Classroom) -> str:
    lang = room.class_record.lang
    return _whole(room, "pool", "", lambda: json.dumps(
        {"stats": as_dict(room.pooled()), "html": pool_html(room, lang)},
        ensure_ascii=False, allow_nan=False))
