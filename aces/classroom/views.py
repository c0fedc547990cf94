"""What the class shows of itself: plain data, in a language, for any face.

A group's view is what its page needs to ask for the next roll (whose
roll, how many dice, the question in words), what the table holds, and
the story so far; the class's view is every group's, for the projector.
The JSON API sends these as they are (docs/class/api.rst describes them).
"""

from __future__ import annotations

import typing as t

import msgspec

from aces.games import game_named, registration
from aces.record import prompt

if t.TYPE_CHECKING:
    from aces.classroom.service import Answer, Classroom, Group
    from aces.rules import RollRequest

__all__ = ["answer_view", "asked", "class_view", "group_view", "request_view"]


def asked(group: Group, request: RollRequest, state: t.Any, lang: str) -> str:
    """The question for ``request``, as ``aces record`` asks it, without the
    prompt's colon: «Kari kaster én terning (åpningskast)»."""

    voice = group.table.narrators[lang].voice
    return prompt(request, state, voice).rstrip().removesuffix(":")


def request_view(group: Group, request: RollRequest, state: t.Any, lang: str) -> dict[str, t.Any]:
    return {"player": request.player, "dice": request.dice, "stage": request.stage,
            "prompt": asked(group, request, state, lang)}


def group_view(room: Classroom, group: Group, lang: str) -> dict[str, t.Any]:
    """One group's table now, in ``lang``."""

    table = group.table
    header = table.header
    request = table.request()
    state = table.recording.state
    holding = registration(header.game).holding(state)
    following = None
    if request is None:
        # The next game begins with its first roll (its header is written with it).
        header_next, first = table.following()

        rules = game_named(header_next.game)
        following = {"game": table.game + 1,
                     "request": request_view(group, first, rules.start(header_next), lang)}
    record = group.record
    return {
        "id": record.id,
        "label": record.label,
        "log": record.log,
        "players": list(header.players),
        "lang": record.lang,
        "closed": record.closed,
        "paused": room.paused,
        "seq": table.seq,
        "game": table.game,
        "games_finished": table.tally.finished_count(),
        "excluded": sorted(table.tally.excluded),
        "request": None if request is None else request_view(group, request, state, lang),
        "next_game": following,
        "threes": bool(header.options.get("threes")),
        "holding": {"kind": registration(header.game).holds[0],
                    "held": list(holding.held), "out": holding.out},
        "can_undo": table.can_undo(),
        "story": list(table.story[lang]),
    }


def class_view(room: Classroom, lang: str) -> dict[str, t.Any]:
    """The whole class, for the projector, in ``lang``."""
    record = room.class_record
    return {
        "code": record.code,
        "game": record.game,
        "options": dict(record.options),
        "lang": record.lang,
        "paused": record.paused,
        "position": room.store.position,
        "groups": [group_view(room, group, lang) for group in room.groups.values()],
    }


def answer_view(room: Classroom, group: Group, answer: Answer, lang: str) -> dict[str, t.Any]:
    """A submission's answer: what it appended, told in ``lang``, and the table now."""

    return {
        "first": answer.first,
        "seq": answer.last,
        "events": msgspec.to_builtins(list(answer.events)),
        "narration": answer.told[lang],
        "group": group_view(room, group, lang),
    }
