"""Fuzzing the reader: real logs mutated, cut, repeated, reordered and spliced.

Whatever the bytes, reading a log ends in one of two ways: the log is
sound, or it is refused with a one-line :class:`~aces.errors.AcesError`.
Nothing else escapes, and no step of the log at or after the first line
that differs from the log as written is ever narrated: the digest chain
names that very line (or, when whole lines were cut from the end, the last
line left, where the game stops short).
"""

from __future__ import annotations

import io
import typing as t
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given, note
from hypothesis import strategies as st

from aces.cli import cli
from aces.errors import AcesError
from aces.i18n import translations
from aces.log import read
from aces.narrate import Narrator
from aces.walk import walk

HERE: t.Final = Path(__file__).resolve().parent
LOGS: t.Final = {path.name: path.read_bytes()
                 for path in sorted((HERE.parent / "replays").glob("*.jsonl"))}
#: Logs of schema 1, which have no digests: only the rules and the shape check them.
OLD_LOGS: t.Final = {path.name: path.read_bytes()
                     for path in sorted((HERE / "data").glob("schema1-*.jsonl"))}
#: Bytes a broken or hostile file might hold.
SNIPPETS: t.Final = [
    b"\n", b"\r\n", b"\r", b"\x00", b"\xef\xbb\xbf", b"\xff\xfe", b"\xc3", b" ", b"{", b"}",
    b"[", b"]", b'"', b",", b":", b"\\", b"\\u0000", b"null", b"true", b"1e999", b"-0",
    b"9" * 400, b"[" * 3000, b'{"a":' * 2000, b'"seq":1,', b'"type":"rolled",',
    b'"digest":"00000000000000000000000000000000"', b'"dice":[7]', b'"player":"Zed"',
    b'{"seq":1,"type":"game_started","schema":3,"game":"pot","players":["A","B"],"options":{}}\n',
]


def lines(data: bytes) -> list[bytes]:
    """Lines as the reader sees them, without their newlines."""
    pieces = data.split(b"\n")
    if pieces[-1] == b"":
        pieces.pop()
    return pieces


@st.composite
def mutations(draw: st.DrawFn, logs: dict[str, bytes] = LOGS) -> tuple[str, bytes]:
    name = draw(st.sampled_from(sorted(logs)), label="log")
    data = logs[name]
    for _ in range(draw(st.integers(1, 3), label="changes")):
        rows = data.splitlines(keepends=True) or [b""]
        kind = draw(st.sampled_from(["byte", "insert", "delete", "truncate", "repeat",
                                     "reorder", "splice", "drop"]), label="kind")
        at = draw(st.integers(0, max(0, len(data) - 1)), label="at")
        row = draw(st.integers(0, len(rows) - 1), label="row")
        other = draw(st.integers(0, len(rows) - 1), label="other")
        if kind == "byte":
            data = data[:at] + bytes([draw(st.integers(0, 255))]) + data[at + 1:]
        elif kind == "insert":
            data = data[:at] + draw(st.sampled_from(SNIPPETS) | st.binary(max_size=8)) + data[at:]
        elif kind == "delete":
            data = data[:at] + data[at + draw(st.integers(1, 50)):]
        elif kind == "truncate":
            data = data[:at]
        elif kind == "repeat":
            rows.insert(other, rows[row])
            data = b"".join(rows)
        elif kind == "reorder":
            rows[row], rows[other] = rows[other], rows[row]
            data = b"".join(rows)
        elif kind == "drop":
            del rows[row]
            data = b"".join(rows)
        else:
            donor = logs[draw(st.sampled_from(sorted(logs)), label="donor")]
            donated = donor.splitlines(keepends=True)
            start = draw(st.integers(0, len(donated) - 1))
            taken = donated[start:start + draw(st.integers(1, 40))]
            rows[row:row + draw(st.integers(0, 5))] = taken
            data = b"".join(rows)
    return name, data


def first_difference(changed: bytes) -> int | None:
    """The first line (1-based) of ``changed`` that no log as written has there.

    ``None`` if ``changed`` is a whole log as written, or the start of one cut
    at a line's end: the lines before that first one are sound, as lines of a
    sound log.
    """
    after = lines(changed)
    common = 0
    for written in LOGS.values():
        before = lines(written)
        same = 0
        for mine, theirs in zip(after, before, strict=False):
            if mine != theirs:
                break
            same += 1
        common = max(common, same)
    return None if common == len(after) else common + 1


@given(mutations())
def test_a_mangled_log_is_verified_or_refused_in_one_line_never_told_past_its_damage(
    mutated: tuple[str, bytes],
) -> None:
    name, data = mutated
    first = first_difference(data)
    note(f"{name}, first changed line {first}")
    narrator = Narrator(translations("en"), "en")
    told: list[int] = []
    try:
        for step in walk(read(io.BytesIO(data), "fuzz.jsonl"), "fuzz.jsonl"):
            narrator.visit(step)
            told.append(step.line)
        narrator.end()
    except AcesError as error:
        rendered = error.render()
        note(rendered)
        assert "\n" not in rendered
        assert len(rendered) < 400
        line = getattr(error, "line", None)
        if first is None:
            # Whole lines cut from the end: the game stops short at the last.
            assert line == len(lines(data))
            assert "ends before" in rendered
        else:
            assert line == first
    else:
        # Sound: the log as written, or cut at the end of a game.
        assert first is None
    if first is not None:
        assert all(number < first for number in told)


@given(mutations())
def test_aces_verify_says_one_line_whatever_the_log(mutated: tuple[str, bytes]) -> None:
    _, data = mutated
    result = CliRunner(env={"LANG": "C", "LANGUAGE": None, "LC_ALL": None}).invoke(
        cli, ["verify", "-"], input=data)
    assert result.exit_code in (0, 1), result.output
    assert "Traceback" not in result.output
    assert len(result.output.splitlines()) == 1
    if result.exit_code:
        assert result.stderr.startswith("aces: <stdin>")


@given(mutations(OLD_LOGS))
def test_a_mangled_schema_1_log_is_read_or_refused_in_one_line(
    mutated: tuple[str, bytes],
) -> None:
    _, data = mutated
    narrator = Narrator(translations("nb"), "nb")
    try:
        for step in walk(read(io.BytesIO(data), "old.jsonl"), "old.jsonl"):
            narrator.visit(step)
    except AcesError as error:
        rendered = error.render()
        assert "\n" not in rendered
        assert len(rendered) < 400
