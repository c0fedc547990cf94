"""The routes of the class server, put together into one ASGI application.

The pages are plain forms: a post answers with a redirect (``303``) to the
page, or with the page again and the refusal at its top (status 200: the
JSON API is where a refusal's status says what it is). The teacher's
pages are under ``/teacher/SECRET``: the secret in the address is all the
teacher needs, on any device. The JSON API is :mod:`aces.server.api`.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import re
import typing as t
from importlib import resources

from aces.errors import AcesError, ClassError
from aces.escape import markup
from aces.i18n import languages
from aces.log import read
from aces.page.html import page_policy, render
from aces.page.replay import PageCollector
from aces.server import api
from aces.server.answers import caller_lang, refusal, reply, status_of
from aces.server.download import zipped
from aces.server.guard import BODY_LIMIT, BodyTooLargeError, Guard, too_large
from aces.server.pages import group_page, join_page, page, projector_page
from aces.server.stream import stream
from aces.walk import drive

if t.TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Iterable

    from starlette.applications import Starlette
    from starlette.datastructures import FormData
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.types import Scope

    from aces.classroom.school import Classes
    from aces.classroom.service import Classroom, Group

__all__ = ["ASSETS", "make_app"]

#: The files the pages load, all from this server.
ASSETS: t.Final = {"class.css": "text/css", "pupil.js": "text/javascript",
                   "projector.js": "text/javascript"}
#: How long a group's cookie lasts on its devices: a school day.
_COOKIE_AGE: t.Final = 12 * 3600
#: The most digits of ``?game=`` on a replay: more games than a log may hold.
_GAME_DIGITS: t.Final = 8


def _html(text: str, status: int = 200, csp: str | None = None) -> Response:
    from starlette.responses import HTMLResponse

    headers = {} if csp is None else {"content-security-policy": csp}
    return HTMLResponse(text, status_code=status, headers=headers)


def _see(url: str) -> Response:
    from starlette.responses import RedirectResponse

    return RedirectResponse(url, status_code=303)


def _classes(request: Request) -> Classes:
    return api.served(request).classes


async def _form(request: Request) -> FormData:
    try:
        return await request.form(max_files=0, max_fields=64, max_part_size=_api_limit())
    except BodyTooLargeError:
        raise too_large() from None


def _api_limit() -> int:
    return BODY_LIMIT


# -- Joining --------------------------------------------------------------------


def _page_lang(request: Request, room: Classroom | None) -> str:
    lang = _classes(request).lang if room is None else room.class_record.lang
    return caller_lang(request, None, lang)


async def _cookie_group(request: Request) -> tuple[Classroom, Group] | None:
    held, _, token = request.cookies.get(api.COOKIE, "").partition(".")
    if not held.isdigit() or len(held) > 9 or not token:
        return None
    try:
        return await _classes(request).by_group(int(held), token, api.device(request))
    except AcesError:
        return None


async def _home(request: Request) -> Response:

    if await _cookie_group(request) is not None:
        return _see("/group")
    classes = _classes(request)
    code = request.path_params.get("code", "")
    room = classes.only()
    error = None
    if room is None and code:
        # A school's server: the link names the class.
        try:
            room = await classes.by_code(code, api.device(request))
        except AcesError as refused:
            error = refused
    return _html(join_page(room, _page_lang(request, room), code=code, error=error,
                           settings=classes.settings))


async def _join_language(request: Request) -> Response:
    form = await _form(request)
    lang = str(form.get("lang", ""))
    # The code the page held (from the QR code's link) is kept in the page's address.
    code = str(form.get("code", ""))
    where = f"/join/{code}" if code.isascii() and code.isalnum() and len(code) <= 12 else "/"
    return _see(f"{where}?lang={lang}" if lang in languages() else where)


async def _join(request: Request) -> Response:

    classes = _classes(request)
    room = classes.only()
    lang = _page_lang(request, room)
    form = await _form(request)
    chosen = str(form.get("lang", ""))
    if chosen in languages():
        lang = chosen
    code = str(form.get("code", ""))
    label = str(form.get("label", ""))
    players = [str(name) for name in form.getlist("player")]
    try:
        room = await classes.by_code(code, api.device(request))
        group, token = await room.join(code, label, players, lang, api.device(request))
    except AcesError as error:
        return _html(join_page(room, lang, code, label, players, error,
                               settings=classes.settings))
    answer = _see("/group")
    answer.set_cookie(api.COOKIE, f"{group.record.id}.{token}", max_age=_COOKIE_AGE,
                      httponly=True, samesite="strict", path="/")
    return answer


def _status(error: AcesError) -> int:
    return status_of(error)


# -- A group's page ------------------------------------------------------------------


async def _group_page(request: Request) -> Response:

    held = await _cookie_group(request)
    if held is None:
        return _see("/")
    room, group = held
    told = []
    shown = request.query_params.get("told")
    if shown is not None and shown.isdigit():
        answer = _last_answer(group, int(shown))
        if answer is not None:
            told = answer.told[group.record.lang]
    return _html(group_page(room, group, group.record.lang, told=told))


def _last_answer(group: Group, seq: int) -> t.Any:
    for _, answer in reversed(group.answers.values()):
        if answer.last == seq:
            return answer
    return None


def _typed(form: FormData) -> tuple[str, list[str]]:
    """The dice a group's form sends: typed, one button, or a face for each die."""
    notation = str(form.get("notation", "")).strip()
    if notation:
        return notation, []
    if "dice" in form:
        return str(form.get("dice", "")), []
    faces = []
    number = 0
    while f"die-{number}" in form or number < 1:
        value = str(form.get(f"die-{number}", ""))
        if not value:
            break
        faces.append(value)
        number += 1
    if not faces or any(f"die-{k}" not in form for k in range(number)):
        # Translators: on a group's page, a roll sent without a face for every die.
        raise ClassError("choose a face for every die, or type the dice").coded("roll")
    threes = sum(face == "3" for face in faces)
    receivers = [str(name) for name in form.getlist("to") if str(name)][:threes]
    return " ".join(faces), receivers


async def _recorded(request: Request, undo: bool) -> Response:

    held = await _cookie_group(request)
    if held is None:
        return _see("/")
    room, group = held
    lang = group.record.lang
    try:
        form = await _form(request)
        submission = api.submission(str(form.get("id", "")))
        seq = _number(form, "seq")
        if undo:
            answer = await room.undo(group, submission, seq)
        else:
            dice, receivers = _typed(form)
            roll = api.entry(group, dice, receivers)
            if roll is None:
                answer = await room.undo(group, submission, seq)
            else:
                answer = await room.roll(group, submission, seq, _number(form, "game"), roll)
    except AcesError as error:
        # The page again, the refusal at its top: an answer like any other
        # (a browser reports an error status as a failure, to the console).
        return _html(group_page(room, group, lang, error))
    return _see(f"/group?told={answer.last}")


def _number(form: FormData, name: str) -> int:
    value = str(form.get(name, ""))
    if not value.isdigit() or len(value) > 12:
        raise ClassError("the request is not what the class takes: {detail}",
                         detail=name + " is not a whole number").coded("bad_request")
    return int(value)


async def _roll(request: Request) -> Response:
    return await _recorded(request, undo=False)


async def _undo(request: Request) -> Response:
    return await _recorded(request, undo=True)


async def _group_language(request: Request) -> Response:
    held = await _cookie_group(request)
    if held is None:
        return _see("/")
    room, group = held
    form = await _form(request)
    with contextlib.suppress(AcesError):
        await room.speak(str(form.get("lang", "")), group)
    return _see("/group")


# -- The teacher ----------------------------------------------------------------------


async def _teacher(request: Request) -> tuple[Classroom, str]:
    secret = request.path_params["secret"]
    room = await api.teacher_of(request, secret)
    return room, f"/teacher/{secret}"


def _join_url(request: Request, room: Classroom) -> str:
    served: str = request.app.state.join_base
    return f"{served}/join/{room.class_record.code}"


def _teaching(handler: Callable[[Request, Classroom, str], Awaitable[Response]]
             ) -> Callable[[Request], Awaitable[Response]]:
    """A teacher's route: refused as a page without the secret."""
    async def route(request: Request) -> Response:
        try:
            found, base = await _teacher(request)
            return await handler(request, found, base)
        except AcesError as error:
            from aces.server.pages import page

            lang = _page_lang(request, _classes(request).only())
            text = page(lang, error.spoken(lang),
                        f'<main id="main"><p class="refused" role="alert">'
                        f'{_escape(error.spoken(lang))}</p></main>')
            return _html(text, status=_status(error))

    return route


def _escape(text: str) -> str:
    return markup(text)


@_teaching
async def _projector(request: Request, room: Classroom, base: str) -> Response:
    return _html(projector_page(room, base, _join_url(request, room), room.class_record.lang))


@_teaching
async def _events(request: Request, room: Classroom, base: str) -> Response:
    return await stream(request, room, base)


@_teaching
async def _pause(request: Request, room: Classroom, base: str) -> Response:
    form = await _form(request)
    await room.pause(str(form.get("paused", "1")) == "1")
    return _see(base)


@_teaching
async def _projector_language(request: Request, room: Classroom, base: str) -> Response:
    form = await _form(request)
    await room.speak(str(form.get("lang", "")))
    return _see(base)


@_teaching
async def _close(request: Request, room: Classroom, base: str) -> Response:
    form = await _form(request)
    await room.close_group(int(request.path_params["group"]),
                           str(form.get("closed", "1")) == "1")
    return _see(base)


@_teaching
async def _exclude(request: Request, room: Classroom, base: str) -> Response:
    form = await _form(request)
    await room.exclude(int(request.path_params["group"]), _number(form, "game"))
    return _see(base)


@_teaching
async def _download(request: Request, room: Classroom, base: str) -> Response:
    return await zipped(room)


@_teaching
async def _replay(request: Request, room: Classroom, base: str) -> Response:
    """A group's log as the replay page of ``aces replay --html``, held by the
    page's own policy (its style and script alone, by their hashes)."""
    group = room.group_by_id(int(request.path_params["group"]))
    number = _game_asked(request.query_params.get("game"))
    lang = room.class_record.lang

    async with group.lock, room.store.reading(group.record.id) as lines:
        data = b"".join(lines)

    def made() -> str:
        collected = drive(read(io.BytesIO(data), group.record.log),
                          group.record.log, PageCollector(number, group.record.log, lang),
                          allow_unfinished=True, allow_unsettled=False)
        return render(collected)

    text = await asyncio.to_thread(made)
    # Sent as the page states it, never read from the page: whatever found its
    # way into the page would be read (and allowed) too.
    return _html(text, csp=f"{page_policy('replay')}; frame-ancestors 'none'")


def _game_asked(game: str | None) -> int | None:
    """``?game=N`` of a replay: a game's number from 1, or the whole log without it.

    :raises ~aces.errors.ClassError: (``not_found``) for anything else.
    """
    if game is None:
        return None
    if not (game.isascii() and game.isdigit() and 0 < len(game) <= _GAME_DIGITS
            and int(game) > 0):
        raise _no_page()
    return int(game)


# -- Everything else --------------------------------------------------------------------


async def _asset(request: Request) -> Response:
    from starlette.responses import Response

    name = request.path_params["name"]
    kind = ASSETS.get(name)
    if kind is None:
        return await _missing(request)
    text = resources.files("aces.server").joinpath("assets", name).read_bytes()
    if name == "class.css":
        base = resources.files("aces.page").joinpath("assets", "page.css").read_bytes()
        text = base + b"\n" + text
    return Response(text, media_type=kind, headers={"cache-control": "no-cache"})


async def _health(request: Request) -> Response:
    """Whether the server can record rolls now: ``200 {"status": "ok"}``, or
    ``503`` with the reason (the school's database cannot be reached)."""

    try:
        await _classes(request).health()
    except AcesError as error:
        return refusal(error, _page_lang(request, None), status="unavailable")
    return reply({"status": "ok"})


def _no_page() -> ClassError:
    # Translators: the live class answers an address it does not have.
    return ClassError("there is no such page in the class").coded("not_found")


async def _missing(request: Request, exc: Exception | None = None) -> Response:
    error = _no_page()
    lang = _page_lang(request, _classes(request).only())
    if request.url.path.startswith("/api/"):
        return refusal(error, lang)

    text = page(lang, error.spoken(lang), f'<main id="main"><p class="refused" role="alert">'
                f'{_escape(error.spoken(lang))}</p><p><a href="/">/</a></p></main>')
    return _html(text, status=404)


async def _not_allowed(request: Request, exc: Exception) -> Response:
    return await _missing(request, exc)


async def _refused(request: Request, exc: Exception) -> Response:
    """A refusal that a route let go (a form too large while it was read, say):
    the API's JSON, or a page saying it, in the caller's language."""
    error = exc if isinstance(exc, AcesError) else too_large()
    lang = await _refusal_lang(request)
    if request.url.path.startswith("/api/"):
        return refusal(error, lang)
    text = page(lang, error.spoken(lang), f'<main id="main"><p class="refused" role="alert">'
                f'{_escape(error.spoken(lang))}</p><p><a href="/">/</a></p></main>')
    return _html(text, status=_status(error))


#: A group's address in the API, whose token a refusal may carry.
_GROUP_PATH: t.Final = re.compile(r"/api/v1/groups/([0-9]{1,9})(?:/|$)")


async def _refusal_lang(request: Request) -> str:
    """The language to refuse ``request`` in, as every answer chooses it
    (:mod:`aces.server.answers`): the one it asks for, else that of the group
    whose token or cookie it carries, else its browser's, else the class's."""
    held = None
    found = _GROUP_PATH.match(request.url.path)
    token = api.bearer(request)
    if found is not None and token is not None:
        with contextlib.suppress(AcesError):
            held = await _classes(request).by_group(int(found[1]), token, api.device(request))
    else:
        held = await _cookie_group(request)
    if held is None:
        return _page_lang(request, _classes(request).only())
    room, group = held
    return caller_lang(request, group.record.lang, room.class_record.lang)


async def _refuse(scope: Scope, error: ClassError, status: int
                  ) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    """A refusal of the guard, as JSON (for the API) or as a line of text."""
    from starlette.requests import Request

    text = error.spoken(await _refusal_lang(Request(scope)))
    if str(scope.get("path", "")).startswith("/api/"):
        body = json.dumps({"error": {"code": error.code, "message": text, "status": status}},
                          ensure_ascii=False).encode()
        return status, [(b"content-type", b"application/json")], body
    return status, [(b"content-type", b"text/plain; charset=utf-8")], text.encode() + b"\n"


def make_app(classes: Classes, hosts: Iterable[str], join_base: str, key: bytes,
             extra: Iterable[t.Any] = ()) -> Starlette:
    """The class server's application for ``classes`` (one, or a school's),
    answering at ``hosts`` (``name:port``); ``extra`` routes come first (a
    school's teachers' pages)."""
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.routing import Route

    routes = [
        *extra,
        # The API first: a roll's post is matched against the routes in order.
        *api.routes(),
        Route("/", _home, methods=["GET"]),
        Route("/join/{code}", _home, methods=["GET"]),
        Route("/join", _join, methods=["POST"]),
        Route("/lang", _join_language, methods=["POST"]),
        Route("/group", _group_page, methods=["GET"]),
        Route("/group/roll", _roll, methods=["POST"]),
        Route("/group/undo", _undo, methods=["POST"]),
        Route("/group/lang", _group_language, methods=["POST"]),
        Route("/teacher/{secret}", _projector, methods=["GET"]),
        Route("/teacher/{secret}/events", _events, methods=["GET"]),
        Route("/teacher/{secret}/pause", _pause, methods=["POST"]),
        Route("/teacher/{secret}/lang", _projector_language, methods=["POST"]),
        Route("/teacher/{secret}/groups/{group:int}/close", _close, methods=["POST"]),
        Route("/teacher/{secret}/groups/{group:int}/replay", _replay, methods=["GET"]),
        Route("/teacher/{secret}/groups/{group:int}/exclude", _exclude, methods=["POST"]),
        Route("/teacher/{secret}/download", _download, methods=["GET"]),
        Route("/static/{name}", _asset, methods=["GET"]),
        Route("/health", _health, methods=["GET"]),
    ]
    app = Starlette(routes=routes, middleware=[Middleware(Guard, hosts=hosts, refuse=_refuse)],
                    exception_handlers={404: _missing, 405: _not_allowed, AcesError: _refused,
                                        BodyTooLargeError: _refused})
    app.state.served = api.Served(classes, key)
    app.state.join_base = join_base
    return app
