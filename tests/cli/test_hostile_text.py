"""Text from input never reaches a terminal raw: escapes, not control codes.

A player named ``ESC ] 0 ; PWNED BEL`` in a log sets the window title of
whoever runs ``aces verify`` on it, ``ESC [ 2 J`` clears the screen, and a
right-to-left override turns the rest of the line around. Every message
that quotes input (a field of an event, a receiver, an unknown field's
name, an option, a schema-1 log, a dice file, a typed roll, a name given
on the command line, a file name) goes through ``aces.errors.visible``.
"""

from __future__ import annotations

import json
import typing as t

import msgspec
import pytest

from aces.log import digest

from clitest import one_line_error, run

if t.TYPE_CHECKING:
    from pathlib import Path

#: A window title, a bell, a cleared screen, a right-to-left override, a C1
#: control (NEL) and an isolate: each would act on a terminal.
HOSTILE: t.Final = "\x1b]0;PWNED\x07\x1b[2J\u202eevil\x85\u2066"
RAW: t.Final = frozenset("\x1b\x07\u202e\x85\u2066")


def chained(*events: dict[str, t.Any]) -> bytes:
    """Schema-2 lines for ``events``, numbered and chained as aces writes them."""
    out, previous = [], b""
    for seq, event in enumerate(events, start=1):
        body = msgspec.json.encode(event)
        line = b'{"seq":%d,"digest":"",%s\n' % (seq, body[1:])
        previous = digest(previous, line)
        out.append(line.replace(b'"digest":""', b'"digest":"%s"' % previous, 1))
    return b"".join(out)


HEADER: t.Final = {"type": "game_started", "schema": 2, "game": "pot",
                   "players": ["Ada", "Bo"], "options": {"finish": "last-chip", "chips": 2}}

LOGS: t.Final = {
    "a rolled player": chained(HEADER, {"type": "rolled", "player": HOSTILE, "dice": [3],
                                        "stage": "opening"}),
    "receivers in to": chained(HEADER, {"type": "rolled", "player": "Ada", "dice": [3],
                                        "stage": "opening", "to": [HOSTILE]}),
    "an unknown field": chained(HEADER, {"type": "rolled", "player": "Ada", "dice": [3],
                                         "stage": "opening", HOSTILE: 1}),
    "an unknown event type": chained(HEADER, {"type": HOSTILE}),
    "an option": chained({**HEADER, "options": {"finish": HOSTILE, "chips": 2}}),
    "a player at the table": chained({**HEADER, "players": ["Ada", HOSTILE]}),
    "a schema-1 log": (json.dumps({"seq": 1, "type": "game_started", "schema": 1, "game": "pot",
                                   "players": ["Ada", "Bo"], "options": {}}) + "\n"
                       + json.dumps({"seq": 2, "type": "rolled", "player": HOSTILE,
                                     "dice": [3], "stage": "opening"}) + "\n").encode(),
}


def assert_shown_safely(text: str) -> None:
    assert not RAW & set(text), repr(text)


@pytest.mark.parametrize("command", ["verify", "replay", "walkthrough"])
@pytest.mark.parametrize("where", list(LOGS))
def test_a_hostile_field_of_a_log_is_escaped(tmp_path: Path, command: str, where: str) -> None:
    log = tmp_path / "hostile.jsonl"
    log.write_bytes(LOGS[where])
    result = run(command, str(log))
    line = one_line_error(result)
    assert_shown_safely(result.stdout + result.stderr)
    assert "\\x1b" in line or "\\u202e" in line or "\\x85" in line, line


@pytest.mark.parametrize("dice", [f"2\n{HOSTILE}\n", f"2\n3\n1 1 > {HOSTILE}\n"])
def test_a_hostile_dice_file_is_escaped(tmp_path: Path, dice: str) -> None:
    path = tmp_path / "dice.txt"
    path.write_text(dice, encoding="utf-8")
    result = run("play", "--players", "Ada,Bo", "--dice-file", str(path))
    assert_shown_safely(result.stdout + one_line_error(result))


def test_a_hostile_roll_typed_into_record_is_escaped(tmp_path: Path) -> None:
    result = run("record", str(tmp_path / "game.jsonl"), "--players", "Ada,Bo",
                 input=f"2\n{HOSTILE}\n")
    assert_shown_safely(result.stdout + result.stderr)
    assert "\\x1b" in result.stderr


@pytest.mark.parametrize("args", [
    ["play", "--players", f"Ada,{HOSTILE}"],
    ["play", "--players", "Ada,Bo", "--game", HOSTILE],
    ["verify", f"missing-{HOSTILE}.jsonl"],
    ["replay", "--lang", HOSTILE, "x.jsonl"],
    ["verify", f"--{HOSTILE}"],
])
def test_hostile_arguments_are_escaped(args: list[str]) -> None:
    result = run(*args)
    assert_shown_safely(result.stdout + one_line_error(result))


def test_a_hostile_log_name_is_escaped_in_the_notices_of_record(tmp_path: Path) -> None:
    result = run("record", str(tmp_path / f"{HOSTILE}.jsonl"), "--players", "Ada,Bo",
                 input="2\n")
    assert_shown_safely(result.stdout + result.stderr)
    assert "Stopped" in result.stderr
