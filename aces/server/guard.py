"""What every request passes before it reaches a route, and what every answer carries.

A pure ASGI middleware (it sees the stream of a request's body, so it can
stop one that grows too large, and lets the class's stream through
unbuffered):

- the ``Host`` header must name this server (an address it prints, or
  ``localhost``), so a page on another site cannot reach it by renaming
  itself in the DNS (rebinding);
- a request that changes anything (``POST``) must come from this server's
  own pages: its ``Origin`` (or ``Sec-Fetch-Site``) says so, or it is a
  program's, which sends neither, and no cookie (its token goes in an
  ``Authorization`` header, which no other site can make a browser send);
  cookies are ``SameSite=Strict`` too;
- a body is at most :data:`BODY_LIMIT` bytes;
- every answer has a strict Content-Security-Policy (nothing from any
  other host, no inline script), and is neither framed nor cached nor
  sent with a referrer;
- an error of the server's own, which no route turned into an answer,
  is one line on the server's standard error, never a traceback, and a
  plain ``500`` to the caller (Starlette's outermost layer would print a
  traceback, and a traceback is no message for the person reading it).

Nothing here writes down who asked: the server keeps no access log.
"""

from __future__ import annotations

import contextlib
import sys
import typing as t

from aces.errors import ClassError, visible

if t.TYPE_CHECKING:
    from collections.abc import Awaitable, Iterable

    from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["BODY_LIMIT", "CSP", "BodyTooLargeError", "Guard", "headers", "too_large"]

#: The most bytes a request's body may hold: a join with ten long names is
#: under 2 KB.
BODY_LIMIT: t.Final = 16 * 1024
#: The Content-Security-Policy of every page the server writes itself.
CSP: t.Final = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
                " connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
_UNSAFE: t.Final = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def headers(csp: str = CSP) -> list[tuple[bytes, bytes]]:
    """The headers every answer carries."""
    return [
        (b"content-security-policy", csp.encode()),
        (b"x-content-type-options", b"nosniff"),
        # Not no-referrer: with it a browser sends a form's post with
        # ``Origin: null``, which the origin check must refuse.
        (b"referrer-policy", b"same-origin"),
        (b"x-frame-options", b"DENY"),
        (b"cross-origin-opener-policy", b"same-origin"),
        (b"cross-origin-resource-policy", b"same-origin"),
        (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
    ]


#: What writes a refusal of the guard: its status, headers and body.
Refuse = t.Callable[["Scope", ClassError, int],
                    "Awaitable[tuple[int, list[tuple[bytes, bytes]], bytes]]"]


class Guard:
    """The middleware; ``hosts`` are the names (with their port) it answers to,
    and ``refuse`` writes a refusal for the caller (JSON or a page)."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str], refuse: Refuse) -> None:
        self.app = app
        self.hosts = frozenset(host.lower() for host in hosts)
        self.refuse = refuse

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        fields = dict(scope["headers"])
        host = fields.get(b"host", b"").decode("latin-1").lower()
        if host not in self.hosts:
            # Translators: the live class refuses a request sent to a name that
            # is not the server's own (a page elsewhere pointing at it).
            await self._refused(scope, send, ClassError(
                "this server answers only at its own address").coded("wrong_host"), 421)
            return
        if scope["method"] in _UNSAFE and not _own(fields, host):
            # Translators: the live class refuses a form or a request sent from
            # a page of another site.
            await self._refused(scope, send, ClassError(
                "a request from a page of another site is refused").coded("cross_site"), 403)
            return
        length = fields.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > BODY_LIMIT):
            await self._refused(scope, send, too_large(), 413)
            return
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, _bounded(receive), _headed(sending))
        except Exception as exc:
            # The server's last word on any error; what it says may quote a request.
            print(f"aces class serve: {type(exc).__name__}: {visible(str(exc))}",
                  file=sys.stderr)
            if started:
                # A stream, cut short: ended where it stands (a projector resumes).
                with contextlib.suppress(Exception):
                    await send({"type": "http.response.body", "body": b""})
                return
            body = b'{"error":{"code":"server","message":"internal error","status":500}}'
            await send({"type": "http.response.start", "status": 500,
                        "headers": [(b"content-type", b"application/json"), *headers(),
                                    (b"cache-control", b"no-store"),
                                    (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})

    async def _refused(self, scope: Scope, send: Send, error: ClassError, status: int) -> None:
        status, extra, body = await self.refuse(scope, error, status)
        await send({"type": "http.response.start", "status": status,
                    "headers": [*extra, *headers(), (b"cache-control", b"no-store"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


def _own(fields: dict[bytes, bytes], host: str) -> bool:
    """Whether a request that changes something comes from this server's pages,
    or from a program holding a token (which it sends in a header)."""
    origin = fields.get(b"origin")
    if origin is not None:
        return origin.decode("latin-1").lower() in (f"http://{host}", f"https://{host}")
    site = fields.get(b"sec-fetch-site")
    if site is not None:
        return site in (b"same-origin", b"none")
    # Neither: not a browser (every browser sends one of them with a post),
    # so no cookie of a page can be riding along.
    return b"cookie" not in fields


def too_large() -> ClassError:
    # Translators: the live class refuses a request whose body is too large.
    # {limit}: the most bytes it may hold.
    return ClassError("the request is larger than {limit} bytes, more than the class takes",
                      limit=BODY_LIMIT).coded("too_large")


class BodyTooLargeError(Exception):
    """A body that grew past :data:`BODY_LIMIT` while it was read."""


def _bounded(receive: Receive) -> Receive:
    read = 0

    async def bounded() -> Message:
        nonlocal read
        message = await receive()
        if message["type"] == "http.request":
            read += len(message.get("body", b""))
            if read > BODY_LIMIT:
                raise BodyTooLargeError
        return message

    return bounded


#: The headers every answer carries, made once.
_HEADERS: t.Final = headers()


def _headed(send: Send) -> Send:
    async def headed(message: Message) -> None:
        if message["type"] == "http.response.start":
            present = {name for name, _ in message.get("headers", [])}
            extra = [(name, value) for name, value in _HEADERS if name not in present]
            if b"cache-control" not in present:
                extra.append((b"cache-control", b"no-store"))
            message = {**message, "headers": [*message.get("headers", []), *extra]}
        await send(message)

    return headed

