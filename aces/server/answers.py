"""Answers and refusals, in the caller's language.

Every refusal is one sentence from the package's catalogs, the very one
``aces record`` or the class would print, with a stable ``code`` a
program reads whatever the language. The caller's language is the one it
asks for (``?lang=``, a ``lang`` field), else its group's, else its
browser's (``Accept-Language``), else the class's.
"""

from __future__ import annotations

import typing as t

import msgspec

from aces.errors import AcesError, DiceFileError, OptionError, RollError, SaveError
from aces.i18n import languages, negotiate

if t.TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response

__all__ = ["STATUS", "caller_lang", "code_of", "message_of", "negotiated", "refusal", "reply",
           "status_of"]

#: The HTTP status of each refusal, by its code.
STATUS: t.Final = {
    "unknown_code": 403, "not_your_group": 403, "teacher_only": 403, "cross_site": 403,
    "too_many_guesses": 429, "stale": 409, "reused_id": 422, "paused": 423, "closed": 409,
    "class_full": 409, "label_taken": 409, "label": 422, "players": 422, "roll": 422,
    "names": 422, "bad_request": 400, "too_large": 413, "wrong_host": 421, "no_group": 404,
    "not_found": 404, "no_game": 422,
    "too_many_streams": 503, "unknown_language": 422, "saving": 503, "log_full": 409,
    "server": 500,
    # A school's server (aces class serve --store).
    "unavailable": 503, "class_closed": 409, "not_a_teacher": 403, "no_class": 404,
    "too_many_classes": 409, "code_taken": 409,
}


_ENCODER: t.Final = msgspec.json.Encoder()


def negotiated(tags: str | None) -> str | None:
    """The language offered that an ``Accept-Language`` header prefers, if any.

    >>> negotiated("nn-NO,nn;q=0.9,en;q=0.5"), negotiated("de"), negotiated(None)
    ('nn', None, None)
    """
    if not tags:
        return None

    wanted = []
    for part in tags.split(",")[:20]:
        tag, _, quality = part.strip().partition(";")
        weight = 1.0
        if quality.strip().startswith("q="):
            try:
                weight = float(quality.strip()[2:])
            except ValueError:
                weight = 0.0
        if tag and weight > 0:
            wanted.append((weight, tag.strip()))
    wanted.sort(key=lambda pair: -pair[0])
    for _, tag in wanted:
        chosen = negotiate(None, {"LANGUAGE": tag})
        if chosen != "en" or tag.lower().startswith("en"):
            return chosen
    return None


def caller_lang(request: Request, group_lang: str | None, class_lang: str) -> str:
    """The language to answer ``request`` in (see the module)."""

    asked = request.query_params.get("lang")
    if asked in languages():
        return asked
    if group_lang is not None:
        return group_lang
    return negotiated(request.headers.get("accept-language")) or class_lang


def code_of(error: AcesError) -> str:
    """The stable word naming ``error`` in an answer: its own, else its kind's."""
    if error.code is not None:
        return error.code
    if isinstance(error, SaveError):
        return "saving"
    if isinstance(error, OptionError):
        return "names"
    if isinstance(error, (RollError, DiceFileError)):
        return "roll"
    return "roll"


def status_of(error: AcesError) -> int:
    return STATUS.get(code_of(error), 422)


def message_of(error: AcesError, lang: str) -> str:
    """The one-line message of ``error`` in ``lang``, as the command line shows it."""
    return error.spoken(lang)


def reply(data: t.Any, status: int = 200) -> Response:
    from starlette.responses import Response

    # msgspec writes the same compact UTF-8 JSON as json.dumps(ensure_ascii=False,
    # separators=(",", ":")), several times faster: an answer is made at every roll.
    return Response(_ENCODER.encode(data), status_code=status, media_type="application/json")


def refusal(error: AcesError, lang: str, **extra: t.Any) -> Response:
    """A refusal as the JSON API answers it: ``{"error": {"code", "message"}}``."""
    status = status_of(error)
    return reply({"error": {"code": code_of(error), "message": message_of(error, lang),
                            "status": status}, **extra}, status)
