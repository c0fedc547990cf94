"""``aces class serve --store postgresql://…``: the school's class server.

The same pages and API as a teacher's laptop (:mod:`aces.server.app`),
over every class on the school's PostgreSQL
(:class:`aces.classroom.school.School`), plus what a school needs:

- a teacher's own page, at the address the operator gave them
  (``/teach/KEY``, made by ``aces class teacher add``): their classes and
  theirs alone, a form that creates a class (its code and secret), and a
  button that closes one; the same under ``/api/v1/classes`` for a
  school's own tools (``Authorization: Bearer KEY``);
- ``--public-url``: the address pupils open, through the school's reverse
  proxy (with TLS), shown on every projector and accepted as the ``Host``;
- ``--trusted-proxy``: the proxies whose ``X-Forwarded-For`` names the
  device, for the limit of wrong guesses (kept in memory only; the server
  writes no access log);
- the health endpoint answers 503 while the database cannot be reached,
  and the server goes on by itself once it is back.

Any number of these processes may serve one database, on one host or many.
"""

from __future__ import annotations

import asyncio
import datetime
import logging
import os
import sys
import typing as t
from urllib.parse import urlsplit

import msgspec
from babel.core import Locale
from babel.dates import format_datetime, get_timezone

from aces.classroom.database import Database, UnreachableError, place
from aces.classroom.school import School
from aces.errors import N_, AcesError
from aces.escape import markup
from aces.games import registered, registration
from aces.i18n import languages, translations
from aces.server.answers import caller_lang, refusal, reply, status_of
from aces.server.api import bearer, device, parsed
from aces.server.app import _form, make_app
from aces.server.pages import page
from aces.server.serve import addresses, bind, hosts, run, run_loop

if t.TYPE_CHECKING:
    import gettext
    from collections.abc import Awaitable, Callable, Sequence

    from starlette.requests import Request
    from starlette.responses import Response

    from aces.classroom.database import StoreSettings
    from aces.classroom.school import ClassSummary, SchoolSettings, Teacher
    from aces.classroom.service import Settings

__all__ = ["Listening", "routes", "serve_school"]

# Translators: the heading of a teacher's own page on the school's class server.
_YOUR_CLASSES: t.Final = N_("Your classes")
# Translators: on a teacher's page before they have made a class.
_NO_CLASS_YET: t.Final = N_("You have no class on this server yet.")
# Translators: the heading of the form that makes a new class, on a teacher's page.
_NEW_CLASS: t.Final = N_("A new class")
# Translators: the label of the choice of game for a new class.
_GAME: t.Final = N_("Game")
# Translators: the label of the projector's first language, for a new class.
_PROJECTOR_LANGUAGE: t.Final = N_("Language of the projector")
# Translators: the button that makes a new class on the school's server.
_MAKE_THE_CLASS: t.Final = N_("Make the class")
# Translators: the headings of the table of a teacher's classes: how many
# groups, when the class was made, whether it is open.
_GROUPS: t.Final = N_("Groups")
# Translators: a heading of the table of a teacher's classes: when it was made.
_BEGUN: t.Final = N_("Begun")
# Translators: a heading of the table of a teacher's classes: open or closed.
_STATE: t.Final = N_("State")
# Translators: a class in a teacher's table that is open (pupils may join).
_OPEN: t.Final = N_("Open")
# Translators: a closed class in a teacher's table. {date}: when it was closed.
_CLOSED_ON: t.Final = N_("Closed {date}")
# Translators: the link from a teacher's table of classes to the class's projector.
_PROJECTOR: t.Final = N_("Projector")
# Translators: the button that closes a class on the school's server.
_CLOSE_THE_CLASS: t.Final = N_("Close the class")
_CLASS_CODE: t.Final = N_("Class code")


class Listening(t.NamedTuple):
    """Where the server listens, and how it is reached."""

    host: str = "0.0.0.0"
    port: int = 8000
    #: The address pupils open (``https://klasse.skolen.no``), if behind a proxy.
    public: str | None = None
    #: Reverse proxies whose ``X-Forwarded-For`` is believed.
    proxies: tuple[str, ...] = ()


# -- Serving ------------------------------------------------------------------


def serve_school(url: str, listening: Listening, settings: Settings, school: SchoolSettings,
                 store: StoreSettings, catalog: gettext.NullTranslations,
                 say: Callable[[str], None] = print) -> None:
    """Serve every class of the school's PostgreSQL at ``url`` until Ctrl-C."""
    run_loop(_serve(url, listening, settings, school, store, catalog, say))


async def _serve(url: str, listening: Listening, settings: Settings,
                 school_settings: SchoolSettings, store: StoreSettings,
                 catalog: gettext.NullTranslations, say: Callable[[str], None]) -> None:
    _ = catalog.gettext

    def notice(back: bool) -> None:
        # One line on the server's output, never the connection library's own
        # warnings (they would repeat every second, with a traceback).
        if back:
            # Translators: "aces class serve --store": the database answers
            # again. {store}: where it is.
            line = _("The class store {store} answers again.")
        else:
            # Translators: "aces class serve --store": the database has gone
            # away; the pages answer "try again in a moment" meanwhile.
            line = _("The class store {store} cannot be reached; every page answers 503 until"
                     " it is back.")
        print("aces class serve: " + line.format(store=place(url)), file=sys.stderr)

    logging.getLogger("psycopg").addHandler(logging.NullHandler())
    logging.getLogger("psycopg").propagate = False
    database = Database(url, store, notice)
    opening: asyncio.Task[None] | None = None
    try:
        await database.open()
    except UnreachableError as error:
        # Not there yet (the database starts after us): pages answer 503
        # until it is, and the server connects by itself.
        print(f"aces class serve: {error.spoken(school_settings.lang)}", file=sys.stderr)
        opening = asyncio.get_running_loop().create_task(_keep_opening(database))
    school = School(database, settings, school_settings)
    try:
        await school.start()
        sock = bind(listening.host, listening.port)
        bound = sock.getsockname()[1]
        base = (listening.public or f"http://{addresses(listening.host)[0]}:{bound}").rstrip("/")
        names = hosts(listening.host, bound)
        if listening.public:
            names.extend(_names(listening.public))
        app = make_app(school, names, base, os.urandom(32), extra=routes())
        app.state.school = school
        # Translators: "aces class serve --store": the school's server has
        # started. {store}: the database (never its password); {address}:
        # what pupils open.
        say(_("Serving the classes of {store}. Pupils open {address}; each teacher opens the"
              " address of their own that the operator gave them (aces class teacher"
              " add).").format(store=place(url), address=base))
        if listening.public:
            # Translators: "aces class serve --store --public-url": where this
            # process itself listens, for the operator's proxy. {address}: it.
            say(_("This process listens at {address}; the proxy in front of it passes the"
                  " requests on.").format(
                address=f"http://{addresses(listening.host)[0]}:{bound}"))
        # Translators: "aces class serve --store": how it stops.
        say(_("Ctrl-C stops this process; the classes are kept in the database."))
        sys.stdout.flush()
        await run(app, sock, listening.proxies)
    finally:
        await _finish(opening, school, database)


async def _finish(opening: asyncio.Task[None] | None, school: School, database: t.Any) -> None:
    """Let every class and connection go, all of it, even though Ctrl-C has
    cancelled this task meanwhile (uvicorn passes the signal on once it has
    stopped); then end as Ctrl-C ends aces, if it did."""
    async def steps() -> None:
        if opening is not None:
            opening.cancel()
            await asyncio.gather(opening, return_exceptions=True)
        await school.close()
        await database.close()

    job = asyncio.ensure_future(steps())
    interrupted = False
    while not job.done():
        try:
            await asyncio.shield(job)
        except asyncio.CancelledError:
            interrupted = True
    job.result()
    if interrupted:
        raise asyncio.CancelledError


async def _keep_opening(database: t.Any) -> None:
    while True:
        await asyncio.sleep(2.0)
        try:
            await database.open()
        except UnreachableError:
            continue
        except AcesError as error:
            print(f"aces class serve: {error.spoken('en')}", file=sys.stderr)
            continue
        return


def _names(address: str) -> list[str]:
    """The ``Host`` headers a proxy may send for ``address``: with its port, and
    without one where the port is the scheme's own.

    >>> _names("https://klasse.skolen.no"), _names("http://x.no:8080")
    (['klasse.skolen.no:443', 'klasse.skolen.no'], ['x.no:8080'])
    """
    parts = urlsplit(address)
    name = (parts.hostname or "").lower()
    default = 443 if parts.scheme == "https" else 80
    port = parts.port or default
    return [f"{name}:{port}"] + ([name] if port == default else [])


# -- The teachers' pages and API ------------------------------------------------------


class _NewClass(msgspec.Struct, forbid_unknown_fields=True):
    game: str = "pot"
    options: dict[str, int | str | bool] = {}
    lang: str = "nb"


def _school(request: Request) -> School:
    found: School = request.app.state.school
    return found


async def _teacher(request: Request, key: str | None = None) -> Teacher:
    given = key if key is not None else bearer(request)
    return await _school(request).teacher(given or "", device(request))


def _view(summary: ClassSummary) -> dict[str, t.Any]:
    return {"number": summary.number, "code": summary.code, "game": summary.game,
            "options": summary.options, "lang": summary.lang, "groups": summary.groups,
            "created": summary.created, "closed": summary.closed,
            "projector": f"/teacher/{summary.secret}", "secret": summary.secret,
            "join": f"/join/{summary.code}"}


def _json(handler: Callable[[Request, Teacher], Awaitable[t.Any]]
          ) -> Callable[[Request], Awaitable[Response]]:
    """An API route for the holder of a teacher's key, answered as JSON."""
    async def route(request: Request) -> Response:
        lang = caller_lang(request, None, _school(request).lang)
        try:
            teacher = await _teacher(request)
            answer = await handler(request, teacher)
        except AcesError as error:
            return refusal(error, lang)
        status = 201 if request.method == "POST" and "close" not in request.url.path else 200
        return reply(answer, status)

    return route


@_json
async def _api_classes(request: Request, teacher: Teacher) -> t.Any:
    return [_view(summary) for summary in await _school(request).classes(teacher)]


@_json
async def _api_create(request: Request, teacher: Teacher) -> t.Any:
    body = await parsed(request, _NewClass)
    return _view(await _school(request).create(teacher, body.game, body.options, body.lang))


@_json
async def _api_close(request: Request, teacher: Teacher) -> t.Any:
    school = _school(request)
    number = int(request.path_params["number"])
    await school.close_class(teacher, number)
    return next(_view(summary) for summary in await school.classes(teacher)
                if summary.number == number)


def _page_route(handler: Callable[[Request, Teacher, str], Awaitable[Response]]
                ) -> Callable[[Request], Awaitable[Response]]:
    """A teacher's page: refused as a page without their key."""
    async def route(request: Request) -> Response:
        lang = caller_lang(request, None, _school(request).lang)
        key = request.path_params["key"]
        base = f"/teach/{key}"
        try:
            teacher = await _teacher(request, key)
        except AcesError as error:
            return _html(_refusal_page(lang, error), status_of(error))
        try:
            return await handler(request, teacher, base)
        except AcesError as error:
            if request.method != "POST":
                return _html(_refusal_page(lang, error), status_of(error))
            # A form refused: the page again, the refusal at its top.
            try:
                summaries = await _school(request).classes(teacher)
            except AcesError as again:
                return _html(_refusal_page(lang, again), status_of(again))
            return _html(_teacher_page(summaries, base, lang,
                                      _school(request).school.retention_days, error))

    return route


@_page_route
async def _page(request: Request, teacher: Teacher, base: str) -> Response:
    lang = caller_lang(request, None, _school(request).lang)
    summaries = await _school(request).classes(teacher)
    return _html(_teacher_page(summaries, base, lang, _school(request).school.retention_days))


@_page_route
async def _create(request: Request, teacher: Teacher, base: str) -> Response:
    form = await _form(request)
    lang = str(form.get("lang", "")) or caller_lang(request, None, _school(request).lang)
    game = str(form.get("game", "pot"))
    if game not in registered():
        game = "pot"
    made = await _school(request).create(teacher, game, None, lang)
    return _see(f"/teacher/{made.secret}")


@_page_route
async def _close(request: Request, teacher: Teacher, base: str) -> Response:
    await _school(request).close_class(teacher, int(request.path_params["number"]))
    return _see(base)


def routes() -> list[t.Any]:
    from starlette.routing import Route

    return [
        Route("/teach/{key}", _page, methods=["GET"]),
        Route("/teach/{key}/classes", _create, methods=["POST"]),
        Route("/teach/{key}/classes/{number:int}/close", _close, methods=["POST"]),
        Route("/api/v1/classes", _api_classes, methods=["GET"]),
        Route("/api/v1/classes", _api_create, methods=["POST"]),
        Route("/api/v1/classes/{number:int}/close", _api_close, methods=["POST"]),
    ]


def _html(text: str, status: int = 200) -> Response:
    from starlette.responses import HTMLResponse

    return HTMLResponse(text, status_code=status)


def _see(url: str) -> Response:
    from starlette.responses import RedirectResponse

    return RedirectResponse(url, status_code=303)


# -- The teacher's page -------------------------------------------------------------------


def _refusal_page(lang: str, error: AcesError) -> str:
    text = error.spoken(lang)
    return page(lang, text, f'<main id="main"><p class="refused" role="alert">{markup(text)}'
                '</p></main>')


def _teacher_page(summaries: Sequence[ClassSummary], base: str, lang: str, retention: int,
                 error: AcesError | None = None) -> str:
    """A teacher's page: their classes, newest first, and a form for a new one."""
    catalog = translations(lang)
    _ = catalog.gettext

    def when(stamp: str) -> str:
        return format_datetime(datetime.datetime.fromisoformat(stamp), "short",
                               tzinfo=get_timezone(), locale=lang)

    rows = []
    for summary in summaries:
        if summary.closed is None:
            state = _(_OPEN)
            action = (f'<form method="post" action="{markup(base)}/classes/{summary.number}/close">'
                      f'<button type="submit">{markup(_(_CLOSE_THE_CLASS))}</button></form>')
        else:
            state = _(_CLOSED_ON).format(date=when(summary.closed))
            action = ""
        rows.append(
            f'<tr><th scope="row"><span class="code">{markup(summary.code)}</span></th>'
            f'<td>{markup(_(registration(summary.game).title))}</td>'
            f'<td>{summary.groups}</td><td>{markup(when(summary.created))}</td>'
            f'<td>{markup(state)}</td><td><a href="/teacher/{markup(summary.secret)}">'
            f'{markup(_(_PROJECTOR))}</a> {action}</td></tr>')
    heads = "".join(f'<th scope="col">{markup(head)}</th>' for head in (
        _(_CLASS_CODE), _(_GAME), _(_GROUPS), _(_BEGUN), _(_STATE), ""))
    table = (f'<table class="classes"><thead><tr>{heads}</tr></thead>'
             f'<tbody>{"".join(rows)}</tbody></table>' if rows
             else f'<p>{markup(_(_NO_CLASS_YET))}</p>')
    # Translators: on a teacher's page: how long a closed class is kept.
    # {count}: the operator's retention, in days.
    kept = catalog.ngettext("A closed class is kept for {count} day, then deleted with every"
                            " log in it; download its logs from its projector first.",
                            "A closed class is kept for {count} days, then deleted with every"
                            " log in it; download its logs from its projector first.",
                            retention).format(count=retention)
    games = "".join(f'<option value="{markup(name)}">{markup(_(title))}</option>'
                    for name, title in ((name, one.title) for name, one in registered().items()))
    langs = "".join(f'<option value="{markup(code)}"{" selected" if code == lang else ""}>'
                    f'{markup(Locale.parse(code).display_name or code)}</option>'
                    for code in languages())
    refused = ("" if error is None else
               f'<p class="refused" role="alert">{markup(error.spoken(lang))}</p>')
    title = _(_YOUR_CLASSES)
    body = (f'<header><h1>{markup(title)}</h1></header>\n<main id="main">\n{refused}\n{table}\n'
            f'<p>{markup(kept)}</p>\n'
            f'<form method="post" action="{markup(base)}/classes" class="new-class">'
            f'<fieldset><legend>{markup(_(_NEW_CLASS))}</legend>'
            f'<p><label for="game">{markup(_(_GAME))}</label> <select id="game" name="game">'
            f'{games}</select></p>'
            f'<p><label for="lang">{markup(_(_PROJECTOR_LANGUAGE))}</label> '
            f'<select id="lang" name="lang">{langs}</select></p>'
            f'<p><button type="submit" class="primary">{markup(_(_MAKE_THE_CLASS))}</button></p>'
            '</fieldset></form>\n</main>')
    return page(lang, title, body, kind="teacher")
