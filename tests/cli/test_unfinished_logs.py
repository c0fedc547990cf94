"""A log whose last game is still being played: told, walked through and verified
as far as it goes, ending with whose roll it is; a damaged one is still refused."""

from __future__ import annotations

import json
import typing as t
from pathlib import Path

import pytest

from clitest import ENGLISH, one_line_error, run

REPLAYS: t.Final = Path(__file__).resolve().parent.parent.parent / "replays"


def cut(tmp_path: Path, name: str, keep: int) -> Path:
    """The first ``keep`` lines of an example log, as a new file."""
    lines = (REPLAYS / name).read_bytes().splitlines(keepends=True)
    path = tmp_path / f"cut-{keep}-{name}"
    path.write_bytes(b"".join(lines[:keep]))
    return path


def settled_cuts(name: str) -> list[tuple[int, str]]:
    """Where a log can be cut with every roll settled and its game not over, and
    who rolls next there: just before each roll but the first of the log."""
    events = [json.loads(line) for line in (REPLAYS / name).read_bytes().splitlines()]
    return [(number, event["player"]) for number, event in enumerate(events)
            if event["type"] == "rolled" and events[number - 1]["type"] != "game_over"
            and number > 1]


@pytest.mark.parametrize("name", ["three-players.jsonl", "five-dice-threes.jsonl",
                                  "e2-last-holder.jsonl"])
def test_replay_tells_everything_there_and_says_whose_roll_it_is(
    tmp_path: Path, name: str,
) -> None:
    for keep, player in settled_cuts(name)[::7]:
        log = cut(tmp_path, name, keep)
        whole = run("replay", str(REPLAYS / name), env=ENGLISH).stdout.splitlines()
        result = run("replay", str(log), env=ENGLISH)
        assert result.exit_code == 0, result.output
        told = result.stdout.splitlines()
        assert told[-1] == f"The game is not finished yet: {player} rolls next."
        # Everything before is the whole game's story as far as the log goes.
        assert told[:-1] == whole[:len(told) - 1]
        assert result.stderr == ""


def test_a_new_game_begun_in_a_session_waits_for_its_opening(tmp_path: Path) -> None:
    events = (REPLAYS / "session.jsonl").read_bytes().splitlines()
    second = next(n for n, line in enumerate(events)
                  if json.loads(line)["type"] == "game_started" and n > 0)
    log = cut(tmp_path, "session.jsonl", second + 1)
    first = json.loads(events[second])["players"][0]
    result = run("replay", str(log), env=ENGLISH)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == (
        f"The game is not finished yet: {first} rolls next.")


@pytest.mark.parametrize(("lang", "line"), [
    ("nb", "Partiet er ikke ferdig ennå: Bo står for tur til å kaste."),
    ("nn", "Partiet er ikkje ferdig enno: Bo står for tur til å kaste."),
])
def test_the_line_in_norwegian(tmp_path: Path, lang: str, line: str) -> None:
    keep, player = settled_cuts("three-players.jsonl")[0]
    assert player == "Bo"
    log = cut(tmp_path, "three-players.jsonl", keep)
    assert run("replay", str(log), "--lang", lang).stdout.splitlines()[-1] == line
    verdict = run("verify", str(log), "--lang", lang)
    assert verdict.exit_code == 0
    assert verdict.stdout.rstrip("\n").endswith(f" {line}")
    walked = run("walkthrough", str(log), "--format", "text", "--lang", lang)
    assert walked.stdout.splitlines()[-1] == line


@pytest.mark.parametrize("fmt", ["markdown", "rst", "text"])
def test_a_walkthrough_ends_with_whose_roll_it_is(tmp_path: Path, fmt: str) -> None:
    keep, player = settled_cuts("three-players.jsonl")[3]
    log = cut(tmp_path, "three-players.jsonl", keep)
    result = run("walkthrough", str(log), "--format", fmt, env=ENGLISH)
    assert result.exit_code == 0, result.output
    # reStructuredText escapes every punctuation mark of the narration.
    text = result.stdout.replace("\\", "") if fmt == "rst" else result.stdout
    assert text.rstrip("\n").endswith(f"The game is not finished yet: {player} rolls next.")


def test_verify_says_so_in_its_summary_and_succeeds(tmp_path: Path) -> None:
    keep, player = settled_cuts("five-dice-threes.jsonl")[2]
    log = cut(tmp_path, "five-dice-threes.jsonl", keep)
    result = run("verify", str(log), env=ENGLISH)
    assert result.exit_code == 0, result.output
    assert result.stdout == (f"{log} follows the rules: 1 game and {keep} events."
                             f" The game is not finished yet: {player} rolls next.\n")


def test_a_finished_log_says_nothing_of_the_kind() -> None:
    for command in ("replay", "verify", "walkthrough"):
        out = run(command, str(REPLAYS / "three-players.jsonl"), env=ENGLISH).stdout
        assert "not finished" not in out


@pytest.mark.parametrize("command", ["replay", "verify", "walkthrough"])
def test_a_log_cut_between_a_roll_and_what_it_settles_is_damaged(
    tmp_path: Path, command: str,
) -> None:
    events = [json.loads(line) for line in
              (REPLAYS / "three-players.jsonl").read_bytes().splitlines()]
    # Just after a roll that settles something.
    keep = next(n for n, event in enumerate(events, start=1)
                if event["type"] == "rolled" and event["stage"] == "turn"
                and events[n]["type"] in ("chips_to_pot", "chips_passed"))
    log = cut(tmp_path, "three-players.jsonl", keep)
    result = run(command, str(log), env=ENGLISH)
    assert result.exit_code == 1
    error = one_line_error(result) if command == "verify" else result.stderr.strip()
    assert f"line {keep}: the log ends before the roll is settled" in error


def test_a_log_recorded_and_stopped_is_told_as_far_as_it_goes(tmp_path: Path) -> None:
    log = tmp_path / "evening.jsonl"
    stopped = run("record", str(log), "--players", "Kari,Ola,Per", input="2\n3\n5\n16\nquit\n",
                  env=ENGLISH)
    assert stopped.exit_code == 0, stopped.output
    result = run("replay", str(log), env=ENGLISH)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[-1] == "The game is not finished yet: Kari rolls next."
