"""The log format: the stable contract, the digest chain, and every bad line named."""

from __future__ import annotations

import hashlib
import io
import json
import re
import typing as t

import pytest

from aces import engine, log
from aces.dice import RandomDice
from aces.errors import LogError, TruncatedLogError
from aces.events import SCHEMA, ChipsToPot, GameStarted
from aces.log import LINE_LIMIT, LogWriter, Record, digest, read
from aces.rules import pot

if t.TYPE_CHECKING:
    from collections.abc import Iterator, Sequence
    from pathlib import Path

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
    """The error reading ``data`` stops at (every line is read), from a file."""
    with pytest.raises(LogError) as caught:
        list(read(io.BytesIO(data), "game.jsonl"))
    # A list of lines is read the same way as a file.
    with pytest.raises(LogError) as again:
        list(read(lines_of(data), "game.jsonl"))
    assert (type(again.value), again.value.line, again.value.reason()) == (
        type(caught.value), caught.value.line, caught.value.reason())
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


# -- The digest chain ------------------------------------------------------------


def test_each_digest_covers_the_one_before_and_its_line_with_the_digest_left_empty() -> None:
    # Written out from the definition in docs/log-format.rst, not from the code.
    _, data = session([5])
    previous = b""
    for number, line in enumerate(lines_of(data), start=1):
        value = json.loads(line)["digest"].encode()
        head = b'{"seq":%d,"digest":"' % number
        assert line.startswith(head + value + b'","type":"')
        emptied = line.replace(b'"digest":"' + value + b'"', b'"digest":""', 1)
        assert value.decode() == hashlib.blake2b(previous + emptied, digest_size=16).hexdigest()
        previous = value


def test_digest_is_the_function_the_chain_uses() -> None:
    assert digest(b"ab", b'{"seq":1}') == hashlib.blake2b(
        b'ab{"seq":1}', digest_size=16).hexdigest().encode()


def test_a_writer_carries_on_a_chain_where_another_stopped() -> None:
    events, whole = session([5, 6])
    half = len(events) // 2
    first = io.BytesIO()
    writer = LogWriter(first)
    writer.write_all(events[:half])
    reader = read(io.BytesIO(first.getvalue()), "game.jsonl")
    list(reader)
    tail = reader.tail
    assert (tail.schema, tail.seq, tail.digest) == (SCHEMA, half, writer.digest)
    second = LogWriter(None, first_seq=tail.seq + 1, previous=tail.digest)
    assert first.getvalue() + second.encode(events[half:]) == whole


def test_encode_numbers_and_chains_without_writing() -> None:
    events, whole = session([5])
    writer = LogWriter(None)
    assert writer.encode(events) == whole
    assert writer.written == len(events)


# -- Round trips ---------------------------------------------------------------


def test_the_log_read_back_equals_the_events_written() -> None:
    events, data = session([5, 6])
    records = list(read(lines_of(data), "game.jsonl"))
    assert [r.event for r in records] == events
    assert [r.line for r in records] == list(range(1, len(events) + 1))
    assert all(type(r) is Record for r in records)


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
    assert [r.event for r in read(io.BytesIO(data.rstrip(b"\n")), "game.jsonl")] == events


def test_an_empty_log_holds_no_records() -> None:
    assert list(read([], "game.jsonl")) == []
    assert list(read(io.BytesIO(b""), "game.jsonl")) == []


def test_the_tail_says_where_reading_stopped() -> None:
    _, data = session([5])
    lines = lines_of(data)
    reader = read([*lines[:4], b"oops\n"], "game.jsonl")
    with pytest.raises(LogError):
        list(reader)
    assert reader.tail.seq == 4
    assert reader.tail.digest == json.loads(lines[3])["digest"].encode()


# -- Bad lines, each named ----------------------------------------------------

GOOD: t.Final = session([5])[1]


def edit(line: int, new: bytes) -> bytes:
    """The good log with one line (1-based) replaced."""
    lines = lines_of(GOOD)
    lines[line - 1] = new
    return b"".join(lines)


def seq(line: int) -> bytes:
    return lines_of(GOOD)[line - 1]


def sealed(previous: bytes, content: bytes) -> bytes:
    """A line from its content (no digest, no newline), with the digest that
    fits after ``previous``, whatever the content says."""
    head, _, rest = content.partition(b",")
    emptied = head + b',"digest":"",' + rest + b"\n"
    return emptied.replace(b'"digest":""', b'"digest":"%s"' % digest(previous, emptied), 1)


def resealed(line: int, new: bytes) -> bytes:
    """The good log with line ``line`` replaced by ``new`` (its content, without a
    digest) and given the digest that fits: a line wrong in itself."""
    previous = json.loads(seq(line - 1))["digest"].encode() if line > 1 else b""
    return edit(line, sealed(previous, new.rstrip(b"\n")))


@pytest.mark.parametrize(
    ("data", "line", "reason"),
    [
        pytest.param(edit(3, b"not json at all\n"), 3, "not a JSON object", id="not-json"),
        pytest.param(edit(3, b"[1, 2, 3]\n"), 3, "not a JSON object", id="json-array"),
        pytest.param(edit(3, b'"rolled"\n'), 3, "not a JSON object", id="json-string"),
        pytest.param(edit(3, b"12\n"), 3, "not a JSON object", id="json-number"),
        pytest.param(edit(3, b"\n"), 3, "the line is empty", id="empty-line"),
        pytest.param(edit(2, b'{"type":"rolled","player":"Ada","dice":[3],"stage":"opening"}\n'),
                     2, "seq", id="missing-seq"),
        pytest.param(edit(2, b'{"seq":"2","type":"rolled","player":"Ada","dice":[3],'
                             b'"stage":"opening"}\n'), 2, "seq", id="seq-not-a-number"),
        pytest.param(edit(2, b'{"seq":true,"type":"rolled"}\n'), 2, "seq", id="seq-a-boolean"),
        pytest.param(edit(3, seq(2)), 3, "sequence number is 2, but 3 comes next",
                     id="repeated-seq"),
        pytest.param(b"".join([seq(1), seq(3), seq(2)]), 2,
                     "sequence number is 3, but 2 comes next", id="out-of-order-seq"),
        pytest.param(edit(4, b'{"seq":4,"type":"dice_blessed","player":"Bo"}\n'), 4,
                     "unknown event type 'dice_blessed'", id="unknown-type"),
        pytest.param(resealed(4, b'{"seq":4,"type":"dice_blessed","player":"Bo"}'), 4,
                     "unknown event type 'dice_blessed'", id="unknown-type-sealed"),
        pytest.param(edit(4, b'{"seq":4,"type":"' + b"x" * 5000 + b'"}\n'), 4,
                     r"unknown event type 'x{60}\.\.\.'$", id="long-unknown-type"),
        pytest.param(edit(4, b'{"seq":4,"player":"Bo"}\n'), 4, "type", id="missing-type"),
        pytest.param(edit(2, b'{"seq":2,"type":"rolled","player":"Ada","dice":"six",'
                             b'"stage":"opening"}\n'), 2, r"invalid event.*\$\.dice",
                     id="dice-not-a-list"),
        pytest.param(resealed(2, b'{"seq":2,"type":"rolled","player":"Ada","dice":"six",'
                                 b'"stage":"opening"}'), 2, r"invalid event.*\$\.dice",
                     id="dice-not-a-list-sealed"),
        pytest.param(edit(2, b'{"seq":2,"type":"rolled","player":7,"dice":[3],'
                             b'"stage":"opening"}\n'), 2, r"invalid event.*\$\.player",
                     id="player-not-a-name"),
        pytest.param(edit(2, b'{"seq":2,"type":"rolled","player":"Ada","dice":[3],'
                             b'"stage":"lunch"}\n'), 2, r"invalid event.*\$\.stage",
                     id="unknown-stage"),
        pytest.param(edit(2, b'{"seq":2,"type":"rolled","dice":[3],"stage":"opening"}\n'),
                     2, r"invalid event.*player", id="missing-field"),
        pytest.param(edit(2, b'{"seq":2,"type":"rolled","player":"Ada","dice":[3.5],'
                             b'"stage":"opening"}\n'), 2, r"invalid event.*\$\.dice",
                     id="dice-a-fraction"),
        pytest.param(resealed(2, b'{"seq":2,"type":"rolled","player":"Ada","dice":[3],'
                                 b'"stage":"opening","note":"hi"}'), 2,
                     "unknown field `note`", id="unknown-field-sealed"),
        pytest.param(edit(1, seq(1).replace(b'"schema":2', b'"schema":3')), 1,
                     "schema 3, newer than this version of aces reads", id="newer-schema"),
        pytest.param(edit(1, seq(1).replace(b'"schema":2', b'"schema":0')), 1,
                     "unknown schema version 0", id="older-schema"),
        pytest.param(edit(1, seq(1).replace(b'"schema":2', b'"schema":"2"')), 1,
                     "unknown schema version '2'", id="schema-a-string"),
        pytest.param(b"".join(lines_of(GOOD)[1:]).replace(b'"seq":2,', b'"seq":1,', 1), 1,
                     "must begin with a game_started", id="no-header"),
        pytest.param(edit(2, re.sub(rb',"digest":"\w+"', b"", seq(2))), 2,
                     'no "digest"', id="no-digest"),
        pytest.param(edit(2, re.sub(rb'"digest":"\w+"', b'"digest":"' + b"X" * 32 + b'"', seq(2))),
                     2, "32 lowercase hexadecimal digits", id="digest-not-hex"),
        pytest.param(edit(2, re.sub(rb'"digest":"\w+"', b'"digest":"abc"', seq(2))),
                     2, "32 lowercase hexadecimal digits", id="digest-too-short"),
        pytest.param(edit(2, seq(2).upper().replace(b'"SEQ"', b'"seq"')), 2, "",
                     id="shouting"),
    ],
)
def test_a_bad_line_is_refused_with_its_number(data: bytes, line: int, reason: str) -> None:
    error = refusal(data)
    assert type(error) is LogError
    assert (error.source, error.line) == ("game.jsonl", line)
    assert error.render().startswith(f"game.jsonl, line {line}: ")
    assert re.search(reason, error.reason())
    assert "\n" not in error.render()


def other_die(line: bytes) -> bytes:
    """A roll's line with its first die changed to another face."""
    dice = json.loads(line)["dice"]
    changed = [1 + dice[0] % 6, *dice[1:]]
    return line.replace(json.dumps(dice, separators=(",", ":")).encode(),
                        json.dumps(changed, separators=(",", ":")).encode())


@pytest.mark.parametrize(
    ("change", "line"),
    [
        pytest.param(lambda lines: lines[:5] + lines[6:], 6, id="line-removed"),
        pytest.param(lambda lines: [*lines[:5], lines[6], lines[5], *lines[7:]], 6,
                     id="lines-swapped"),
        pytest.param(lambda lines: [*lines[:6], lines[5], *lines[6:]], 7, id="line-repeated"),
        pytest.param(lambda lines: [*lines[:5], other_die(lines[5]), *lines[6:]], 6,
                     id="a-die-changed"),
    ],
)
def test_a_line_that_does_not_follow_its_neighbour_is_named_by_its_digest(
    change: t.Callable[[list[bytes]], list[bytes]], line: int
) -> None:
    # Renumber, so that the sequence numbers cannot tell: only the digests can.
    lines = change(lines_of(GOOD))
    renumbered = [re.sub(rb'^\{"seq":\d+,', b'{"seq":%d,' % number, text)
                  for number, text in enumerate(lines, start=1)]
    data = b"".join(renumbered)
    assert data != GOOD
    error = refusal(data)
    assert error.line == line
    assert error.reason().startswith("the digest does not match")


def test_a_run_of_lines_as_aces_writes_them_is_checked_in_one_go() -> None:
    """The reader's fast check of a batch (:func:`aces.log._chain_fits`) takes
    the lines the writer chains, from the chain's start or mid-way, and no
    others: else every batch would be read line by line, slowly but the same."""
    def parts(lines: list[bytes], first: int) -> tuple[list[bytes], list[bytes], list[bytes]]:
        prefixes = [log._HEAD % number for number in range(first, first + len(lines))]
        width = log.DIGEST_WIDTH
        return (prefixes, [raw[len(p) + width:] for p, raw in zip(prefixes, lines, strict=True)],
                [raw[len(p):len(p) + width] for p, raw in zip(prefixes, lines, strict=True)])

    lines = lines_of(GOOD)
    assert log._chain_fits(b"", *parts(lines, 1))
    middle = parts(lines[5:], 6)
    assert log._chain_fits(parts(lines, 1)[2][4], *middle)
    assert not log._chain_fits(b"", *parts(lines[1:], 1))
    changed = [*lines[:5], other_die(lines[5]), *lines[6:]]
    assert not log._chain_fits(b"", *parts(changed, 1))


def test_a_die_changed_to_a_face_that_settles_the_same_is_seen() -> None:
    # Ada's opening 3 (or whatever she rolled) as a different face: the rules
    # could not always tell; the digest always does.
    lines = lines_of(GOOD)
    roll = json.loads(lines[1])
    other = 1 + roll["dice"][0] % 6
    lines[1] = lines[1].replace(b'"dice":[%d]' % roll["dice"][0], b'"dice":[%d]' % other)
    assert refusal(b"".join(lines)).line == 2


@pytest.mark.parametrize(
    ("new", "reason"),
    [
        pytest.param(lambda line: line.replace(b'","', b'", "', 1), "the one way aces writes",
                     id="a-space"),
        pytest.param(lambda line: line.replace(b'"player":"Ada"', b'"player":"\\u0041da"'),
                     "the one way aces writes", id="an-escape"),
        pytest.param(lambda line: line.replace(b'"player":"Ada"',
                                               b'"player":"Bo","player":"Ada"'),
                     "the key 'player' appears twice", id="a-repeated-key"),
        pytest.param(lambda line: line.replace(b'"stage":"opening"',
                                               b'"stage":"opening","stage":"opening"'),
                     "the key 'stage' appears twice", id="a-repeated-key-same-value"),
        pytest.param(lambda line: line.replace(b'"player":"Ada",', b"").replace(
            b'"stage":', b'"player":"Ada","stage":'), "the one way aces writes",
                     id="fields-reordered"),
    ],
)
def test_a_line_not_written_the_one_way_is_refused_even_with_a_fitting_digest(
    new: t.Callable[[bytes], bytes], reason: str
) -> None:
    lines = lines_of(GOOD)
    assert b'"player":"Ada"' in lines[1]
    content = new(re.sub(rb',"digest":"\w+"', b"", lines[1]).rstrip(b"\n"))
    previous = json.loads(lines[0])["digest"].encode()
    error = refusal(edit(2, sealed(previous, content)))
    assert error.line == 2
    assert reason in error.reason()


# -- Cut short ---------------------------------------------------------------------


@pytest.mark.parametrize("keep", [1, 10, -2, -40])
def test_a_line_cut_in_the_middle_is_a_truncated_log(keep: int) -> None:
    lines = lines_of(GOOD)
    cut = len(lines) // 2
    data = b"".join(lines[:cut]) + lines[cut][:keep]
    error = refusal(data)
    assert isinstance(error, TruncatedLogError)
    assert error.line == cut + 1
    assert "cut short" in error.reason()


def test_a_log_cut_in_its_first_line_is_truncated_too() -> None:
    error = refusal(GOOD[:30])
    assert isinstance(error, TruncatedLogError)
    assert error.line == 1


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


# -- Hostile and broken files ------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "line", "reason"),
    [
        pytest.param(b"\xef\xbb\xbf" + GOOD, 1, "byte-order mark", id="bom"),
        pytest.param(GOOD.replace(b"\n", b"\r\n"), 1, "CR LF", id="crlf"),
        pytest.param(edit(3, seq(3).replace(b"\n", b"\r\n")), 3, "CR LF", id="one-crlf"),
        pytest.param(edit(3, seq(3).replace(b'"player":"', b'"player":"\xff')), 3, "UTF-8",
                     id="not-utf8"),
        pytest.param(edit(3, seq(3).replace(b'"player":"', b'"player":"\xc3')), 3, "UTF-8",
                     id="half-a-character"),
        pytest.param(edit(3, b"\x00" * 100 + b"\n"), 3, "not a JSON object", id="nul-bytes"),
        pytest.param(edit(3, b'{"seq":3,"type":"rolled","player":"Bo","dice":[' + b"9" * 5000
                          + b'],"stage":"opening"}\n'), 3, "invalid event", id="huge-number"),
        pytest.param(edit(3, b'{"seq":' + b"9" * 5000 + b"}\n"), 3, "invalid event",
                     id="huge-seq"),
        pytest.param(edit(3, b'{"seq":1e999}\n'), 3, "out of range", id="infinite-seq"),
        pytest.param(edit(3, b"[" * 30000 + b"]" * 30000 + b"\n"), 3, "nests values too deeply",
                     id="deep-list"),
        pytest.param(edit(3, b'{"a":' * 10000 + b"1" + b"}" * 10000 + b"\n"), 3,
                     "nests values too deeply", id="deep-object"),
        pytest.param(edit(3, b'{"seq":3,"type":"rolled","player":"Bo","dice":'
                          + b"[" * 20000 + b"]" * 20000 + b',"stage":"opening"}\n'), 3,
                     "nests values too deeply", id="deep-field"),
        pytest.param(edit(3, b'{"seq":3,"type":"rolled","player":"'
                          + b"x" * LINE_LIMIT + b'"}\n'), 3, "longer than 65536 bytes",
                     id="long-line"),
        pytest.param(edit(3, b"x" * (3 * LINE_LIMIT)), 3, "longer than 65536 bytes",
                     id="long-last-line-without-newline"),
    ],
)
def test_a_hostile_line_gets_a_one_line_error_with_its_number(
    data: bytes, line: int, reason: str
) -> None:
    error = refusal(data)
    assert error.line == line
    assert reason in error.reason()
    rendered = error.render()
    assert "\n" not in rendered
    assert len(rendered) < 300


def test_a_long_line_is_read_no_further_than_the_budget() -> None:
    class Endless(io.RawIOBase):
        """A file of one line that never ends."""

        given = 0

        def readable(self) -> bool:
            return True

        def readinto(self, buffer: t.Any) -> int:
            buffer[:] = b"x" * len(buffer)
            self.given += len(buffer)
            return len(buffer)

    endless = Endless()
    with pytest.raises(LogError, match="longer than"):
        list(read(io.BufferedReader(endless), "endless.jsonl"))
    assert endless.given <= 4 * LINE_LIMIT


def test_a_log_of_too_many_events_is_refused_at_the_first_one_too_many(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(log, "EVENT_LIMIT", 10)
    error = refusal(GOOD)
    assert error.line == 11
    assert "more than 10 events" in error.reason()
    assert len(list(read(lines_of(GOOD)[:10], "game.jsonl"))) == 10


def test_games_of_two_schemas_in_one_log_are_refused() -> None:
    header = b'{"seq":%d,"type":"game_started","schema":1,"game":"pot","players":["A","B"],' \
             b'"options":{}}'
    after = len(lines_of(GOOD)) + 1
    previous = json.loads(lines_of(GOOD)[-1])["digest"].encode()
    error = refusal(GOOD + sealed(previous, header % after))
    assert error.line == after
    assert "schema 1, but the log began in schema 2" in error.reason()
    error = refusal(header % 1 + b"\n" + GOOD.replace(b'"seq":1,', b'"seq":2,', 1))
    assert error.line == 2


def test_records_carry_the_events_and_their_lines() -> None:
    record = next(read(lines_of(GOOD), "game.jsonl"))
    assert isinstance(record, Record)
    assert record.line == 1
    assert isinstance(record.event, GameStarted)


def test_whole_length_leaves_out_a_torn_last_line_and_nothing_else(tmp_path: Path) -> None:
    import os

    from aces.log import whole_length

    whole = b"".join(lines_of(session([1])[1])[:3])
    path = tmp_path / "game.jsonl"
    for data, expected in [(whole, len(whole)), (whole + b'{"seq":4,"dig', len(whole)),
                           (b'{"seq":1,', 0), (b"", 0)]:
        path.write_bytes(data)
        fd = os.open(path, os.O_RDONLY)
        try:
            assert whole_length(fd) == expected
        finally:
            os.close(fd)


# -- Batches -------------------------------------------------------------------


def batched(data: bytes, size: int) -> tuple[list[tuple[int, list[Event]]], LogError | None]:
    """The batches a reader hands on, each with the events of its lines, and
    the error that stops it, if any."""
    got: list[tuple[int, list[Event]]] = []
    try:
        for first, keys, event in read(lines_of(data), "game.jsonl").batches(size):
            got.append((first, [event(index) for index in range(len(keys))]))
    except LogError as exc:
        return got, exc
    return got, None


@pytest.mark.parametrize("size", [1, 3, 512])
def test_batches_hold_every_line_in_order(size: int) -> None:
    events, data = session([5, 6])
    got, error = batched(data, size)
    assert error is None
    assert [first for first, _ in got] == list(range(1, len(events) + 1, size))
    assert [event for _, batch in got for event in batch] == events


def test_a_bad_line_ends_its_batch_and_raises_after_the_lines_before_it() -> None:
    # Line 6 is a stranger's: the five before it go first, in a batch of
    # their own, and only then the error.
    lines = lines_of(GOOD)
    got, error = batched(b"".join([*lines[:5], lines[7], *lines[6:]]), 512)
    assert [(first, len(batch)) for first, batch in got] == [(1, 5)]
    assert error is not None
    assert error.line == 6


def test_a_sealed_line_not_written_the_one_way_raises_when_its_event_is_asked_for() -> None:
    # Its digest fits, so the batch holds it (and stops after it, where the
    # next line's digest follows the line as it was); its event cannot be had.
    lines = lines_of(GOOD)
    content = re.sub(rb',"digest":"\w+"', b"", lines[2]).rstrip(b"\n").replace(b",", b", ")
    data = edit(3, sealed(json.loads(lines[1])["digest"].encode(), content))
    reader = read(lines_of(data), "game.jsonl")
    first, keys, event = next(reader.batches())
    assert (first, len(keys)) == (1, 3)
    event(1)
    with pytest.raises(LogError) as caught:
        event(2)
    assert caught.value.line == 3
    assert "the one way aces writes" in caught.value.reason()


def test_equal_lines_have_equal_keys_and_events() -> None:
    # A session repeats the same few lines; each distinct one is decoded once.
    _, data = session([5, 5, 5])
    (_, keys, event), = read(lines_of(data), "game.jsonl").batches()
    first: dict[t.Hashable, Event] = {}
    for index, key in enumerate(keys):
        found = event(index)
        assert first.setdefault(key, found) == found
    assert len(first) < len(keys)


def test_a_reader_reads_its_lines_once() -> None:
    reader = read(lines_of(GOOD), "game.jsonl")
    next(reader)
    assert reader.started
    with pytest.raises(RuntimeError):
        reader.batches()
