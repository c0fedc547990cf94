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
What a stream sends of the class is made and encoded once for every stream
that sends it (a group's row until the group changes, the pool and the
class until anything does, the blocks of a tick for every stream at the
same place), so ten projectors cost little more than one.

A busy class appends hundreds of blocks a second. A stream does not wake
for each: it sends what has come at most once every :data:`TICK` seconds,
every event of that moment in one write (each block still an event of its
own, with its id, so ``Last-Event-ID`` resumes exactly as before), so a
projector is a tick behind at most, and its cost follows the ticks rather
than the rolls. The ticks are the clock's (every multiple of :data:`TICK`),
the same for every stream, so that streams keeping up read the same blocks
at the same moment.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import json
import logging
import re
import time
import typing as t
import weakref

import msgspec

from aces.classroom.service import pool_of
from aces.classroom.views import class_view, group_view
from aces.errors import ClassError, Plural
from aces.reports.export import as_dict
from aces.server.answers import caller_lang, refusal
from aces.server.pages import pool_html, row_html
from aces.server.pooling import broken, pooler

if t.TYPE_CHECKING:
    from collections.abc import AsyncGenerator

    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.types import Receive, Scope, Send

    from aces.classroom.service import Classroom, Group, LogTally, Tallied
    from aces.experiment.pool import Pooled

__all__ = ["BATCH", "POOL_EVERY", "SEND_TIMEOUT", "TICK", "DroppedQuietly", "encoded", "stream"]

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
#: The least time between two writes of one stream, in seconds: what comes
#: meanwhile goes in one write.
TICK: t.Final = 0.1
#: Between the lines of an event, as sse-starlette writes them.
_SEP: t.Final = "\r\n"
_LINES: t.Final = re.compile(r"\r\n|\r|\n")
_ENCODER: t.Final = msgspec.json.Encoder()


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
    return t.cast("Response", _Dropping(EventSourceResponse(
        _events(room, cursor, base), ping=15, send_timeout=SEND_TIMEOUT,
        headers={"cache-control": "no-store"})))


#: Whether the request being answered is a stream dropped for a client that
#: stopped reading (set in the request's own context, so no other sees it).
_DROPPED: t.Final[contextvars.ContextVar[bool]] = contextvars.ContextVar("aces_dropped",
                                                                          default=False)


class _Dropping:
    """A stream's response that ends without a word when its client stops
    reading: sse-starlette raises ``SendTimeoutError`` for it, which reached
    the server's output as a traceback (``Exception in ASGI application``)
    every time a projector's laptop went to sleep."""

    def __init__(self, response: Response) -> None:
        self.response = response

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        from sse_starlette.sse import SendTimeoutError

        try:
            await self.response(scope, receive, send)
        except SendTimeoutError:
            # The stream's generator is closed already (its place freed);
            # the server closes the connection, the client catches up later.
            _DROPPED.set(True)


class DroppedQuietly(logging.Filter):
    """For uvicorn's log: holds back its word on a response left unfinished
    ("ASGI callable returned without completing response") where it is a
    stream dropped on purpose; every other word it lets through."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not _DROPPED.get()


async def _events(room: Classroom, cursor: int, base: str) -> AsyncGenerator[bytes, None]:
    try:
        seen = room.version
        seen_class = room.class_version
        yield _once(room, "class", _class(room, base))
        pooled_at = 0.0
        pooled = -1
        while True:
            written = time.monotonic()
            out: list[bytes] = []
            while True:
                cursor, made, full = await _tick(room, cursor, base)
                out.append(made)
                if not full:
                    break
                # A stream far behind (resumed from long ago) is sent a
                # batch at a time, not gathered whole.
                yield b"".join(out)
                out = []
            if room.class_version != seen_class:
                seen_class = room.class_version
                out.append(_once(room, "class", _class(room, base)))
            now = time.monotonic()
            wait = 15.0
            making: asyncio.Future[tuple[Pooled, str]] | None = None
            if pooled != room.version:
                if now - pooled_at >= POOL_EVERY:
                    kept, making = _pool(room, now)
                    if kept is not None and kept[0] != pooled:
                        out.append(_once(room, "pool", kept[1]))
                        pooled, pooled_at = kept[0], now
                        # Sent the last made: the one being made comes a pool's time on
                        # (not at the class's next change: a quiet class has none).
                        making = None
                        if pooled != room.version:
                            wait = POOL_EVERY
                else:
                    wait = POOL_EVERY - (now - pooled_at)
            if any(out):
                yield b"".join(out)
            if room.position <= cursor:
                seen = await _wait(room, seen, wait, making)
            # What comes within a tick of the last write waits for the next,
            # at the same moment for every stream (a multiple of the tick on
            # the clock), so that those at the same place share one.
            rest = (written // TICK + 1) * TICK - time.monotonic()
            if rest > 0:
                await asyncio.sleep(rest)
    finally:
        room.streams -= 1


def encoded(kind: str, data: str, position: str | None = None) -> str:
    """One event as the stream writes it: ``id:`` (for a block), ``event:``
    and ``data:`` lines, each line of ``data`` a ``data:`` line of its own."""
    head = "" if position is None else f"id: {position}{_SEP}"
    if "\n" in data or "\r" in data:
        data = _SEP.join(f"data: {line}" for line in _LINES.split(data))
    else:
        data = f"data: {data}"
    return f"{head}event: {kind}{_SEP}{data}{_SEP}{_SEP}"


class _Ticks:
    """The blocks of a class's streams at one tick (the tick's number on the
    clock), each with the tables they changed, encoded once for every
    stream at the same place: by the stream's cursor and address, the
    cursor after them, their bytes, and whether there were more than a
    batch."""

    __slots__ = ("made", "tick")

    def __init__(self) -> None:
        self.tick = -1
        self.made: dict[tuple[int, str, str], asyncio.Task[tuple[int, bytes, bool]]] = {}


#: Each class's blocks of its last tick, made and being made.
_TICKS: weakref.WeakKeyDictionary[Classroom, _Ticks] = weakref.WeakKeyDictionary()
#: The most batches a class keeps within one tick (streams far behind read many).
_KEPT_A_TICK: t.Final = 64


async def _tick(room: Classroom, cursor: int, base: str) -> tuple[int, bytes, bool]:
    """The events of the blocks after ``cursor`` (a batch at most) and the
    ``tables`` they changed, encoded; the cursor after them; whether a
    batch was full (there are more).

    Ten projectors read the same blocks at the same moment (their ticks are
    the clock's, see :func:`_events`): the first makes their bytes, and the
    others at the same cursor within the same tick are given them, so the
    class's rolls are encoded once a tick, not once a stream. A stream
    given them a moment after they were made gets the newer blocks at its
    next tick, as if it had read a moment sooner."""
    ticks = _TICKS.get(room)
    if ticks is None:
        ticks = _TICKS[room] = _Ticks()
    tick = round(time.monotonic() / TICK)
    if tick != ticks.tick:
        ticks.tick = tick
        ticks.made = {}
    key = (cursor, base, room.class_record.lang)
    making = ticks.made.get(key)
    if making is None:
        if len(ticks.made) >= _KEPT_A_TICK:
            del ticks.made[next(iter(ticks.made))]
        # A task of its own: a stream that goes away while it is made
        # leaves it to the others.
        making = ticks.made[key] = asyncio.ensure_future(_blocks(room, cursor, base))
    return await asyncio.shield(making)


async def _blocks(room: Classroom, cursor: int, base: str) -> tuple[int, bytes, bool]:
    entries = await room.entries(cursor, BATCH)
    out: list[str] = []
    touched: dict[int, None] = {}
    for entry in entries:
        out.append(encoded("block", await room.block(entry), str(entry.position)))
        touched[entry.stream] = None
        cursor = entry.position
    if touched:
        out.append(encoded("tables", _tables(room, list(touched), base)))
    return cursor, "".join(out).encode(), len(entries) >= BATCH


#: The last ``class`` and ``pool`` event of each class, encoded, with their data.
_ONCE: weakref.WeakKeyDictionary[Classroom, dict[str, tuple[str, bytes]]] = (
    weakref.WeakKeyDictionary())


def _once(room: Classroom, kind: str, data: str) -> bytes:
    """The event ``kind`` with ``data`` (made once for every stream, see
    :func:`_whole`, :func:`_pool`), encoded once for every stream too."""
    kept = _ONCE.setdefault(room, {})
    found = kept.get(kind)
    if found is None or found[0] is not data:
        found = kept[kind] = (data, encoded(kind, data).encode())
    return found[1]


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
#: The class's own events, by what they were made at.
_WHOLE: weakref.WeakKeyDictionary[Classroom, dict[tuple[str, int, str, str], str]] = (
    weakref.WeakKeyDictionary())


class _Pools:
    """The class pooled for its streams: the last pool made (when its counts
    were taken, their version, its language and its event's data), and the
    one being made, in the pooling process, if any."""

    __slots__ = ("counted", "executor", "made", "making", "pooled")

    def __init__(self) -> None:
        self.made: tuple[float, int, str, str] | None = None
        #: The counts the last pool was made of, and the class pooled from them.
        self.counted: tuple[LogTally, ...] = ()
        self.pooled: Pooled | None = None
        self.making: tuple[float, Tallied, str, asyncio.Future[tuple[Pooled, str]]] | None = (
            None)
        #: Where the one being made is made.
        self.executor: concurrent.futures.Executor | None = None


#: The class's pools, made and being made.
_POOLS: weakref.WeakKeyDictionary[Classroom, _Pools] = weakref.WeakKeyDictionary()

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
    view = group_view(room, group, lang)
    # msgspec writes what json.dumps(ensure_ascii=False) does, faster: a row is
    # made again at every roll of its group. The story, half the view and
    # growing through a game, the projector does not show: a stream sends
    # the view without it, in every tick of ten projectors.
    shown = {key: value for key, value in view.items() if key != "story"}
    made = (number, _ENCODER.encode(shown).decode(),
            _ENCODER.encode(row_html(room, group, base, lang, view)).decode())
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


def _pool(room: Classroom, now: float) -> tuple[tuple[int, str] | None,
                                                asyncio.Future[tuple[Pooled, str]] | None]:
    """The class's last pool made (its version and its event's data; ``None``
    before the first), and the pool being made, if any.

    A pool is made again once :data:`POOL_EVERY` seconds have passed since
    the last was begun for any stream, so that the class is pooled twice a
    second however many projectors there are (a stream given a pool older
    than the class asks again, and is sent the newer one). Pooling a big
    class and writing it out takes tens of milliseconds, so only the counts
    are taken here, on the loop (a copy of each group's, see
    :meth:`~aces.classroom.service.Classroom.tallied`), and the pool is
    made from them in the pooling process (:mod:`aces.server.pooling`),
    while rolls go on being answered. A pool whose process died is not
    made: the next is, in another. A class whose counts are those the last
    pool was made of (no game has ended, begun or been taken out since: a
    game under way is not pooled, so most rolls change nothing pooled) is
    given that pool at once, at its version now, and is not pooled again."""
    lang = room.class_record.lang
    pools = _POOLS.get(room)
    if pools is None:
        pools = _POOLS[room] = _Pools()
    if pools.making is not None and pools.making[3].done():
        begun, counted, made_in, making = pools.making
        version = counted.version
        pools.making = None
        try:
            pooled, text = making.result()
        except concurrent.futures.BrokenExecutor:
            # The pooling process died (killed): another is started for the next pool.
            assert pools.executor is not None, "a pool is made by an executor"
            broken(pools.executor)
        else:
            pools.made = (begun, version, made_in, text)
            pools.counted, pools.pooled = counted.logs, pooled
            room.keep_pooled(version, pooled)
    made = pools.made
    if made is not None and made[2] == lang and (made[1] == room.version
                                                 or now - made[0] < POOL_EVERY):
        return (made[1], made[3]), None
    if pools.making is None:
        tallied = room.tallied()
        if made is not None and made[2] == lang and pools.pooled is not None \
                and tallied.logs == pools.counted:
            # The counts the last pool was made of: no game has ended or begun
            # since, nor been taken out (a game under way is not pooled, so
            # most rolls change nothing here). That pool is the class's now.
            pools.made = (now, tallied.version, lang, made[3])
            room.keep_pooled(tallied.version, pools.pooled)
            return (tallied.version, made[3]), None
        pools.executor = pooler()
        future = asyncio.get_running_loop().run_in_executor(pools.executor, _made, tallied, lang)
        pools.making = (now, tallied, lang, future)
    kept = None if made is None or made[2] != lang else (made[1], made[3])
    return kept, pools.making[3]


def _made(tallied: Tallied, lang: str) -> tuple[Pooled, str]:
    """The class pooled from its counts, and its ``pool`` event's data: JSON,
    with the numbers of ``aces stats --json`` and the same as HTML in ``lang``."""
    pooled = pool_of(tallied)
    return pooled, json.dumps({"stats": as_dict(pooled), "html": pool_html(pooled, lang)},
                              ensure_ascii=False, allow_nan=False)


async def _wait(room: Classroom, seen: int, timeout: float,
                making: asyncio.Future[tuple[Pooled, str]] | None) -> int:
    """Wait until the class changed after version ``seen``, ``timeout``
    seconds passed, or the pool ``making`` is made; the version now."""
    if making is None:
        return await room.wait(seen, timeout)
    if making.done():
        return room.version
    waiting = asyncio.ensure_future(room.wait(seen, timeout))
    try:
        await asyncio.wait((waiting, making), return_when=asyncio.FIRST_COMPLETED)
    finally:
        waiting.cancel()
    return room.version
