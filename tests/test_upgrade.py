"""Older schemas: each read through its upgrade function, tested with a stored log.

tests/data/ holds logs exactly as older versions of aces wrote them; they
must keep verifying and replaying, as the same games, for as long as aces
reads their schema.
"""

from __future__ import annotations

import io
import json
import typing as t
from pathlib import Path

import pytest
from click.testing import CliRunner

from aces.cli import cli
from aces.errors import LogError
from aces.events import SCHEMA, Event, GameStarted
from aces.i18n import translations
from aces.log import LogWriter, read
from aces.narrate import tell
from aces.upgrade import V1_TYPES, upcast_v1_v2
from aces.walk import walk

from clitest import ENGLISH

if t.TYPE_CHECKING:
    from click.testing import Result

DATA: t.Final = Path(__file__).resolve().parent / "data"
REPLAYS: t.Final = Path(__file__).resolve().parent.parent / "replays"
#: Each stored schema 1 log, and the example log of today that holds the same game.
SCHEMA_1: t.Final = {
    "schema1-three-players.jsonl": "three-players.jsonl",
    "schema1-five-dice-threes.jsonl": "five-dice-threes.jsonl",
}


def run(*args: str, stdin: bytes | None = None) -> Result:
    return CliRunner(env=ENGLISH).invoke(cli, list(args), input=stdin)


def events(path: Path) -> list[Event]:
    with path.open("rb") as handle:
        return [step.event for step in walk(read(handle, path.name), path.name)]


# -- The upgrade function --------------------------------------------------------


def test_a_v1_header_becomes_a_v2_header() -> None:
    line = {"seq": 1, "type": "game_started", "schema": 1, "game": "pot",
            "players": ["Ada", "Bo"], "options": {"finish": "last-chip", "chips": 2},
            "seed": 3}
    assert upcast_v1_v2(line) == {"type": "game_started", "schema": 2, "game": "pot",
                                  "players": ["Ada", "Bo"],
                                  "options": {"finish": "last-chip", "chips": 2}, "seed": 3}


def test_fields_schema_1_readers_ignored_are_dropped() -> None:
    line = {"seq": 9, "type": "chips_to_pot", "player": "Ada", "count": 1, "note": "hi"}
    assert upcast_v1_v2(line) == {"type": "chips_to_pot", "player": "Ada", "count": 1}


def test_schema_1_knows_every_event_but_the_undo() -> None:
    assert "roll_undone" not in V1_TYPES
    assert {"game_started", "rolled", "game_over", "dice_passed"} <= V1_TYPES


# -- Stored logs -------------------------------------------------------------------


@pytest.mark.parametrize(("stored", "today"), SCHEMA_1.items())
def test_a_stored_schema_1_log_reads_as_the_same_game_today(stored: str, today: str) -> None:
    old = events(DATA / stored)
    assert old == events(REPLAYS / today)
    header = old[0]
    assert isinstance(header, GameStarted)
    assert header.schema == SCHEMA
    reader = read((DATA / stored).read_bytes().splitlines(keepends=True), stored)
    list(reader)
    assert reader.tail.schema == 1


@pytest.mark.parametrize("stored", SCHEMA_1)
def test_a_stored_schema_1_log_verifies(stored: str) -> None:
    result = run("verify", str(DATA / stored))
    assert result.exit_code == 0, result.output
    assert "follows the rules" in result.stdout


@pytest.mark.parametrize(("stored", "today"), SCHEMA_1.items())
@pytest.mark.parametrize("lang", ["en", "nb"])
def test_a_stored_schema_1_log_replays_as_today(stored: str, today: str, lang: str) -> None:
    result = run("replay", str(DATA / stored), "--lang", lang)
    assert result.exit_code == 0, result.output
    assert result.stdout == run("replay", str(REPLAYS / today), "--lang", lang).stdout


def test_written_again_a_schema_1_log_is_todays_log() -> None:
    # What an upgrade of the file would write: the very bytes aces writes today.
    out = io.BytesIO()
    LogWriter(out).write_all(events(DATA / "schema1-three-players.jsonl"))
    assert out.getvalue() == (REPLAYS / "three-players.jsonl").read_bytes()


def v1_log(**changes: bytes) -> list[bytes]:
    lines = (DATA / "schema1-three-players.jsonl").read_bytes().splitlines(keepends=True)
    for number, line in changes.items():
        lines[int(number.removeprefix("line")) - 1] = line
    return lines


def test_a_schema_1_log_ignores_fields_it_does_not_know() -> None:
    lines = v1_log()
    lines[2] = lines[2].replace(b'{"seq":3,', b'{"seq":3,"note":"kept by hand",')
    assert [r.event for r in read(lines, "old")] == [r.event for r in read(v1_log(), "old")]


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b'{"seq":3,"type":"roll_undone","undoes":2,"player":"Ada","dice":[4]}\n',
         "unknown event type 'roll_undone'"),
        (b'{"seq":3,"type":"rolled","player":"Bo","dice":"four","stage":"opening"}\n',
         "invalid event"),
        (b'{"seq":4,"type":"rolled","player":"Bo","dice":[4],"stage":"opening"}\n',
         "sequence number is 4, but 3 comes next"),
        (b'{"seq":3,"type":"game_started","schema":2,"game":"pot","players":["A","B"],'
         b'"options":{}}\n', "schema 2, but the log began in schema 1"),
        (b'{"seq":3,"type":"game_started","schema":7,"game":"pot","players":["A","B"],'
         b'"options":{}}\n', "schema 7, newer than this version"),
        (b"\xff\n", "UTF-8"),
        (b'{"seq":3,\n', "not a JSON object"),
    ],
)
def test_a_bad_line_of_a_schema_1_log_is_named(line: bytes, reason: str) -> None:
    with pytest.raises(LogError) as caught:
        list(read(v1_log(line3=line), "old.jsonl"))
    assert caught.value.line == 3
    assert reason in caught.value.reason()


def test_a_schema_1_log_cut_short_is_truncated() -> None:
    data = (DATA / "schema1-three-players.jsonl").read_bytes()
    result = run("verify", "-", stdin=data[:-20])
    assert result.exit_code == 1
    assert "cut short" in result.stderr


def test_a_schema_1_log_is_checked_by_the_rules() -> None:
    lines = v1_log()
    # Claim another chip count for the first chips moved: no digest to tell.
    objects = [json.loads(line) for line in lines]
    target = next(o for o in objects[5:] if "count" in o)
    target["count"] += 1
    edited = [json.dumps(o, separators=(",", ":")).encode() + b"\n" for o in objects]
    with pytest.raises(LogError, match="the rules give"):
        list(walk(read(edited, "old"), "old"))


def test_a_log_of_a_newer_schema_is_refused_with_a_clear_message() -> None:
    data = (REPLAYS / "three-players.jsonl").read_bytes().replace(
        b'"schema":2', b'"schema":3', 1)
    result = run("verify", "-", stdin=data)
    assert result.exit_code == 1
    assert result.stderr == ("aces: <stdin>, line 1: this log uses schema 3, newer than this"
                             " version of aces reads (2); upgrade aces to read it\n")


def test_the_story_of_a_schema_1_log_has_no_word_of_its_schema() -> None:
    path = DATA / "schema1-three-players.jsonl"
    with path.open("rb") as handle:
        story = tell(read(handle, "old"), "old", translations("en"), "en")
    assert not any("schema" in line for line in story)


def test_every_older_schema_has_one_step_up_and_the_chain_reaches_the_current_one() -> None:
    from aces.events import SCHEMA
    from aces.log import SCHEMAS
    from aces.upgrade import TYPES, UPCASTS, upcast

    assert sorted(UPCASTS) == list(range(1, SCHEMA)) == sorted(TYPES)
    assert (*range(1, SCHEMA), SCHEMA) == SCHEMAS
    line = {"seq": 1, "type": "game_started", "schema": 1, "game": "pot",
            "players": ["Ada", "Bo"], "options": {}}
    assert upcast(dict(line), 1)["schema"] == SCHEMA
    assert upcast({"type": "try_won", "player": "Bo"}, SCHEMA) == {"type": "try_won",
                                                                  "player": "Bo"}
