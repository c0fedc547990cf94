"""The JSON API under ``/api/v1/``: what the pupils' pages and the projector are built on.

A group is admitted by its token (``Authorization: Bearer TOKEN``, or the
cookie its page was given), the teacher by the class's secret (``Bearer
SECRET``). Every answer is JSON; every refusal is ``{"error": {"code",
"message", "status"}}`` with the message in the caller's language
(docs/class/api.rst lists the codes).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import typing as t

import msgspec

from aces.classroom.views import answer_view, class_view, group_view
from aces.dice import Command, command_words, parse_entry
from aces.errors import AcesError, ClassError, DiceFileError
from aces.reports.export import as_dict
from aces.server.answers import caller_lang, refusal, reply
from aces.server.download import zipped
from aces.server.guard import BodyTooLargeError, too_large
from aces.server.stream import stream

if t.TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from starlette.requests import Request
    from starlette.responses import Response

    from aces.classroom.school import Classes
    from aces.classroom.service import Classroom, Group
    from aces.rules import Roll

__all__ = ["COOKIE", "Served", "bearer", "device", "entry", "group_of", "parsed", "routes",
           "served", "submission", "teacher_of"]

#: The cookie that holds a group's id and token on its devices.
COOKIE: t.Final = "aces_group"
_SUBMISSION: t.Final = re.compile(r"[A-Za-z0-9_.:-]{1,64}")


class Served:
    """What the routes share: the classes served (one, or a school's many),
    and the key that names devices."""

    def __init__(self, classes: Classes, key: bytes) -> None:
        self.classes = classes
        self.key = key


class _JoinBody(msgspec.Struct, forbid_unknown_fields=True):
    code: str
    label: str
    players: list[str]
    lang: str | None = None


class _RollBody(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    seq: int
    game: int
    dice: str | list[int]
    to: list[str] = []


class _UndoBody(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    seq: int


class _LangBody(msgspec.Struct, forbid_unknown_fields=True):
    lang: str


class _PauseBody(msgspec.Struct, forbid_unknown_fields=True):
    paused: bool


class _CloseBody(msgspec.Struct, forbid_unknown_fields=True):
    closed: bool = True


class _ExcludeBody(msgspec.Struct, forbid_unknown_fields=True):
    game: int


B = t.TypeVar("B", bound=msgspec.Struct)


def served(request: Request) -> Served:
    found: Served = request.app.state.served
    return found


def device(request: Request) -> str:
    """A device, as the limit of wrong guesses counts it: a keyed digest of
    its address, kept in memory only, never the address itself."""
    host = request.client.host if request.client is not None else ""
    return hmac.new(served(request).key, host.encode(), hashlib.sha256).hexdigest()


async def parsed(request: Request, kind: type[B]) -> B:
    """The request's JSON body as ``kind``.

    :raises ~aces.errors.ClassError: (``bad_request``, ``too_large``) saying
        what is wrong with it.
    """
    try:
        body = await request.body()
    except BodyTooLargeError:
        raise too_large() from None
    try:
        return msgspec.json.decode(body, type=kind)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise _bad(str(exc)) from None


def _bad(detail: str) -> ClassError:
    # Translators: the JSON API of the live class refuses a request that is
    # not what it takes. {detail}: what is wrong, in English, from the parser.
    return ClassError("the request is not what the class takes: {detail}",
                      detail=detail[:200]).coded("bad_request")


def bearer(request: Request) -> str | None:
    """The token of an ``Authorization: Bearer`` header, if the request carries one."""
    value = request.headers.get("authorization", "")
    scheme, _, token = value.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


async def group_of(request: Request) -> tuple[Classroom, Group]:
    """The group the path names and its class, for the holder of its token alone."""
    try:
        number = int(request.path_params["group"])
    except (KeyError, ValueError):
        number = 0
    token = bearer(request)
    if token is None:
        held, _, token = request.cookies.get(COOKIE, "").partition(".")
        if held != str(number):
            token = ""
    return await served(request).classes.by_group(number, token, device(request))


async def teacher_of(request: Request, secret: str | None = None) -> Classroom:
    """The class, for the holder of the teacher's secret alone."""
    given = secret if secret is not None else bearer(request)
    return await served(request).classes.by_secret(given or "", device(request))


def entry(group: Group, dice: str | list[int], to: list[str]) -> Roll | None:
    """A roll as ``aces record`` reads it from what was typed or chosen; ``None``
    for the word for undo (in the group's language or any other).

    :raises ~aces.errors.DiceFileError: for what is not a roll, with the
        message of ``aces record``.
    """

    text = dice if isinstance(dice, str) else " ".join(str(value) for value in dice)
    if to:
        text = f"{text} > {' '.join(to)}"
    catalog = group.table.narrators[group.record.lang].voice
    words = command_words({Command.UNDO: catalog.pgettext("command", "undo")})
    found = parse_entry(text, group.table.header.players, words)
    if found is Command.UNDO:
        return None
    if found is None or isinstance(found, Command):
        raise DiceFileError("the line names no dice")
    return found


def submission(identifier: str) -> str:
    """A submission's id as a page or a program chose it, checked.

    :raises ~aces.errors.ClassError: (``bad_request``) for an id that is not
        1 to 64 letters, digits, ``_``, ``.``, ``:`` or ``-``.
    """
    if not _SUBMISSION.fullmatch(identifier):
        raise _bad("the submission's id is 1 to 64 letters, digits, '_', '.', ':' or '-'")
    return identifier


Handler = t.Callable[["Request"], "Awaitable[Response]"]


def _answering(handler: Callable[[Request, Served], Awaitable[Response]]) -> Handler:
    """A route whose refusals are answered as JSON in the caller's language."""
    async def route(request: Request) -> Response:
        here = served(request)
        try:
            return await handler(request, here)
        except AcesError as error:
            return refusal(error, caller_lang(request, None, here.classes.lang))

    return route


# -- Pupils ---------------------------------------------------------------------


@_answering
async def _join(request: Request, here: Served) -> Response:
    body = await parsed(request, _JoinBody)
    room = await here.classes.by_code(body.code, device(request))
    lang = body.lang or caller_lang(request, None, room.class_record.lang)
    group, token = await room.join(body.code, body.label, body.players, lang, device(request))
    return reply({"group": group.record.id, "token": token,
                  "state": group_view(room, group, lang)}, 201)


@_answering
async def _read_group(request: Request, here: Served) -> Response:
    room, group = await group_of(request)
    await room.settled(group)
    lang = caller_lang(request, group.record.lang, room.class_record.lang)
    return reply(group_view(room, group, lang))


async def _recorded(request: Request, here: Served, undo: bool) -> Response:
    room, group = await group_of(request)
    lang = caller_lang(request, group.record.lang, room.class_record.lang)
    try:
        if undo:
            body: _RollBody | _UndoBody = await parsed(request, _UndoBody)
            answer = await room.undo(group, submission(body.id), body.seq)
        else:
            rolled = await parsed(request, _RollBody)
            roll = entry(group, rolled.dice, rolled.to)
            if roll is None:
                answer = await room.undo(group, submission(rolled.id), rolled.seq)
            else:
                answer = await room.roll(group, submission(rolled.id), rolled.seq,
                                         rolled.game, roll)
    except AcesError as error:
        return refusal(error, lang, group=group_view(room, group, lang))
    return reply(answer_view(room, group, answer, lang))


@_answering
async def _rolls(request: Request, here: Served) -> Response:
    return await _recorded(request, here, undo=False)


@_answering
async def _undo(request: Request, here: Served) -> Response:
    return await _recorded(request, here, undo=True)


@_answering
async def _group_lang(request: Request, here: Served) -> Response:
    room, group = await group_of(request)
    body = await parsed(request, _LangBody)
    await room.speak(body.lang, group)
    return reply(group_view(room, group, body.lang))


# -- The teacher ------------------------------------------------------------------


@_answering
async def _read_class(request: Request, here: Served) -> Response:
    room = await teacher_of(request)
    return reply(class_view(room, caller_lang(request, None, room.class_record.lang)))


@_answering
async def _stats(request: Request, here: Served) -> Response:
    room = await teacher_of(request)
    return reply(as_dict(room.pooled()))


def _class_change(kind: type[B], change: Callable[[Classroom, B], Awaitable[None]]) -> Handler:
    """A teacher's change to the whole class, read from a body of ``kind``;
    the answer is the class as it stands after it."""
    async def handler(request: Request, here: Served) -> Response:
        room = await teacher_of(request)
        await change(room, await parsed(request, kind))
        return reply(class_view(room, room.class_record.lang))

    return _answering(handler)


_pause: t.Final = _class_change(_PauseBody, lambda room, body: room.pause(body.paused))
_class_lang: t.Final = _class_change(_LangBody, lambda room, body: room.speak(body.lang))


@_answering
async def _close(request: Request, here: Served) -> Response:
    room = await teacher_of(request)
    body = await parsed(request, _CloseBody)
    group = room.group_by_id(int(request.path_params["group"]))
    await room.close_group(group.record.id, body.closed)
    return reply(group_view(room, group, room.class_record.lang))


@_answering
async def _exclude(request: Request, here: Served) -> Response:
    room = await teacher_of(request)
    body = await parsed(request, _ExcludeBody)
    number = int(request.path_params["group"])
    await room.exclude(number, body.game)
    return reply(group_view(room, room.group_by_id(number), room.class_record.lang))


@_answering
async def _download(request: Request, here: Served) -> Response:
    return await zipped(await teacher_of(request))


async def _events(request: Request) -> Response:
    here = served(request)
    try:
        room = await teacher_of(request)
    except AcesError as error:
        return refusal(error, caller_lang(request, None, here.classes.lang))
    return await stream(request, room)


def routes() -> list[t.Any]:
    from starlette.routing import Route

    return [
        Route("/api/v1/join", _join, methods=["POST"]),
        Route("/api/v1/groups/{group:int}", _read_group, methods=["GET"]),
        Route("/api/v1/groups/{group:int}/rolls", _rolls, methods=["POST"]),
        Route("/api/v1/groups/{group:int}/undo", _undo, methods=["POST"]),
        Route("/api/v1/groups/{group:int}/lang", _group_lang, methods=["POST"]),
        Route("/api/v1/class", _read_class, methods=["GET"]),
        Route("/api/v1/class/stats", _stats, methods=["GET"]),
        Route("/api/v1/class/events", _events, methods=["GET"]),
        Route("/api/v1/class/pause", _pause, methods=["POST"]),
        Route("/api/v1/class/lang", _class_lang, methods=["POST"]),
        Route("/api/v1/class/groups/{group:int}/close", _close, methods=["POST"]),
        Route("/api/v1/class/groups/{group:int}/exclude", _exclude, methods=["POST"]),
        Route("/api/v1/class/download", _download, methods=["GET"]),
    ]

