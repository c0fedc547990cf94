"""The log format: the stable contract, round trips, and every bad line named."""

from __future__ import annotations

import io
import json
import re
import typing as t

import pytest

from aces import engine
from aces.dice import RandomDice
from aces.errors import LogError, TruncatedLogError
from aces.events import SCHEMA, ChipsToPot, GameStarted
from aces.log import LogWriter, Record, read
from aces.rules import pot

if t.TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from aces.events import Event

PLAYERS: t.Final = ("Ada", "Bo", "Cy")


def session(seeds: Sequence[int], finish: str = "last-chip") -> tuple[list[Event], bytes]:
    """Games played one after another into one log: the events and the bytes."""
    out = io.BytesIO()
    writer = LogWriter(out)
    events: list[Event] = []
    for seed in seeds:
        header = engine.header(pot.GAME, PLAYERS, {"finish": finish}, seed)
        for event in engine.play(pot.GAME, header, RandomDice(seed)):
            writer.write(event)
            events.append(event)
    return events, out.getvalue()


def lines_of(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


def refusal(data: bytes) -> LogError:
    """The error reading ``data`` stops at (every line is read)."""
    with pytest.raises(LogError) as caught:
        list(read(lines_of(data), "game.jsonl"))
    return caught.value


# -- The stable contract -------------------------------------------------------


@pytest.mark.parametrize("finish", pot.FINISHES)
def test_the_stable_contract_holds_in_every_game(finish: str) -> None:
    _, data = session([1, 2, 3, 4], finish)
    objects = [json.loads(line) for line in data.decode("utf-8").splitlines()]
    assert [o["seq"] for o in objects] == list(range(1, len(objects) + 1))
    starts = [i for i, o in enumerate(objects) if o["type"] == "game_started"]
    assert starts[0] == 0
    assert len(starts) == 4
    for first, end in zip(starts, [*starts[1:], len(objects)], strict=True):
        assert objects[first]["players"] == list(PLAYERS)
        last = objects[end - 1]
        assert last["type"] == "game_over"
        assert last["winner"] in PLAYERS
        assert type(last["pot"]) is int
        for o in objects[first:end]:
            if o["type"] == "rolled":
                assert o["player"] in PLAYERS
                assert o["dice"]
                assert all(type(d) is int and 1 <= d <= 6 for d in o["dice"])


def test_every_line_is_one_utf8_json_object_ending_in_a_newline() -> None:
    out = io.BytesIO()
    LogWriter(out).write(GameStarted(schema=SCHEMA, game="pot", players=("Åse", "Bjørn"),
                                     options={"finish": "last-chip", "chips": 2}))
    line = out.getvalue()
    assert line.endswith(b"\n")
    assert line.count(b"\n") == 1
    assert json.loads(line.decode("utf-8"))["players"] == ["Åse", "Bjørn"]


def test_the_writer_numbers_lines_from_where_it_is_told() -> None:
    out = io.BytesIO()
    writer = LogWriter(out, first_seq=41)
    assert writer.written == 40
    writer.write_all([ChipsToPot(player="Ada", count=1), ChipsToPot(player="Bo", count=2)])
    assert writer.written == 42
    assert [json.loads(line)["seq"] for line in lines_of(out.getvalue())] == [41, 42]


# -- Round trips ---------------------------------------------------------------


def test_the_log_read_back_equals_the_events_written() -> None:
    events, data = session([5, 6])
    records = list(read(lines_of(data), "game.jsonl"))
    assert [r.event for r in records] == events
    assert [r.line for r in records] == list(range(1, len(events) + 1))


def test_reading_is_streamed_and_stops_at_the_first_bad_line() -> None:
    _, data = session([5])
    good = lines_of(data)[:3]
    pulled: list[int] = []

    def lines() -> Iterator[bytes]:
        for number, line in enumerate([*good, b"oops\n", *good], start=1):
            pulled.append(number)
            yield line

    records = read(lines(), "game.jsonl")
    assert [next(records).line for _ in good] == [1, 2, 3]
    assert pulled == [1, 2, 3]
    with pytest.raises(LogError):
        next(records)
    assert pulled == [1, 2, 3, 4]


def test_a_missing_final_newline_is_not_a_cut() -> None:
    events, data = session([5])
    assert [r.event for r in read(lines_of(data.rstrip(b"\n")), "game.jsonl")] == events


def test_fields_a_reader_does_not_know_are_ignored() -> None:
    events, data = session([5])
    lines = lines_of(data)
    lines[1] = lines[1].replace(b'{"seq":2,', b'{"seq":2,"note":"from the future",')
    assert b"future" in lines[1]
    assert [r.event for r in read(lines, "game.jsonl")] == events


def test_an_empty_log_holds_no_records() -> None:
    assert list(read([], "game.jsonl")) == []


# -- Bad lines, each named ----------------------------------------------------

GOOD: t.Final = session([5])[1]


def edit(line: int, new: bytes) -> bytes:
    """The good log with one line (1-based) replaced."""
    lines = lines_of(GOOD)
    lines[line - 1] = new
    return b"".join(lines)


def seq(line: int) -> bytes:
    return lines_of(GOOD)[line - 1]


@pytest.mark.parametrize(
    ("data", "line", "reason"),
    [
        pytest.param(edit(3, b"not json at all\n"), 3, "not a JSON object", id="not-json"),
        pytest.param(edit(3, b"[1, 2, 3]\n"), 3, "not a JSON object", id="json-array"),
        pytest.param(edit(3, b'"rolled"\n'), 3, "not a JSON object", id="json-string"),
        pytest.param(edit(3, b"\n"), 3, "the line is empty", id="empty-line"),
        pytest.param(edit(2, b'{"type":"rolled","player":"Ada","dice":[3],"stage":"opening"}\n'),
                     2, "seq", id="missing-seq"),
        pytest.param(edit(2, b'{"seq":"2","type":"rolled","player":"Ada","dice":[3],'
                             b'"stage":"opening"}\n'), 2, "seq", id="seq-not-a-number"),
        pytest.param(edit(3, seq(2)), 3, "sequence number is 2, but 3 comes next",
                     id="repeated-seq"),
        pytest.param(b"".join([seq(1), seq(3), seq(2)]), 2,
                     "sequence number is 3, but 2 comes next", id="out-of-order-seq"),
        pytest.param(edit(4, b'{"seq":4,"type":"dice_blessed","player":"Bo"}\n'), 4,
                     "unknown event type 'dice_blessed'", id="unknown-type"),
        pytest.param(edit(4, b'{"seq":4,"player":"Bo"}\n'), 4, "type", id="missing-type"),
        pytest.param(edit(2, b'{"seq":2,"type":"rolled","player":"Ada","dice":"six",'
                             b'"stage":"opening"}\n'), 2, r"invalid event.*\$\.dice",
                     id="dice-not-a-list"),
        pytest.param(edit(2, b'{"seq":2,"type":"rolled","player":7,"dice":[3],'
                             b'"stage":"opening"}\n'), 2, r"invalid event.*\$\.player",
                     id="player-not-a-name"),
        pytest.param(edit(2, b'{"seq":2,"type":"rolled","player":"Ada","dice":[3],'
                             b'"stage":"lunch"}\n'), 2, r"invalid event.*\$\.stage",
                     id="unknown-stage"),
        pytest.param(edit(2, b'{"seq":2,"type":"rolled","dice":[3],"stage":"opening"}\n'),
                     2, r"invalid event.*player", id="missing-field"),
        pytest.param(edit(1, seq(1).replace(b'"schema":1', b'"schema":2')), 1,
                     "schema 2, newer than this version of aces reads", id="newer-schema"),
        pytest.param(edit(1, seq(1).replace(b'"schema":1', b'"schema":0')), 1,
                     "unknown schema version 0", id="older-schema"),
        pytest.param(b"".join(lines_of(GOOD)[1:]).replace(b'"seq":2,', b'"seq":1,', 1), 1,
                     "must begin with a game_started", id="no-header"),
    ],
)
def test_a_bad_line_is_refused_with_its_number(data: bytes, line: int, reason: str) -> None:
    error = refusal(data)
    assert type(error) is LogError
    assert (error.source, error.line) == ("game.jsonl", line)
    assert error.render().startswith(f"game.jsonl, line {line}: ")
    assert re.search(reason, error.reason())


@pytest.mark.parametrize("keep", [1, 10, -2])
def test_a_line_cut_in_the_middle_is_a_truncated_log(keep: int) -> None:
    lines = lines_of(GOOD)
    cut = len(lines) // 2
    data = b"".join(lines[:cut]) + lines[cut][:keep]
    error = refusal(data)
    assert isinstance(error, TruncatedLogError)
    assert error.line == cut + 1
    assert "cut short" in error.reason()


def test_a_whole_but_invalid_last_line_is_not_called_cut_short() -> None:
    lines = lines_of(GOOD)
    last = b'{"seq":%d,"type":"game_over","winner":5,"pot":5}' % len(lines)
    error = refusal(b"".join(lines[:-1]) + last)
    assert type(error) is LogError
    assert error.line == len(lines)
    assert "invalid event" in error.reason()


def test_a_bad_line_after_a_cut_one_is_corruption_not_truncation() -> None:
    lines = lines_of(GOOD)
    data = b"".join([*lines[:3], lines[3][:10] + b"\n", *lines[4:]])
    error = refusal(data)
    assert type(error) is LogError
    assert error.line == 4


def test_records_carry_the_events_and_their_lines() -> None:
    record = next(read(lines_of(GOOD), "game.jsonl"))
    assert isinstance(record, Record)
    assert record.line == 1
    assert isinstance(record.event, GameStarted)
