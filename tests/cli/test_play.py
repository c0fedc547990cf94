"""``aces play``: options, sessions, dice files, and errors as one line."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import typing as t
from pathlib import Path

import pytest
from click.testing import CliRunner

from aces.cli import cli

from clitest import ENGLISH, one_line_error

if t.TYPE_CHECKING:
    from click.testing import Result

REPLAYS: t.Final = Path(__file__).resolve().parents[2] / "replays"
E1_DICE: t.Final = "2\n3\n5\n1 6\n3 5\n6 6\n1 1\n1 6\n1 4\n2 5\n6 6\n1 1\n3 4\n5 2\n"
#: English whatever the machine's locale.


def run(*args: str, stdin: str | None = None) -> Result:
    return CliRunner(env=ENGLISH).invoke(cli, ["play", *args], input=stdin)


def objects(result: Result) -> list[dict[str, t.Any]]:
    """The log written to standard output, one object per line."""
    assert result.stdout_bytes.endswith(b"\n")
    return [json.loads(line) for line in result.stdout_bytes.decode("utf-8").splitlines()]


def headers(result: Result) -> list[dict[str, t.Any]]:
    return [o for o in objects(result) if o["type"] == "game_started"]



# -- Options ------------------------------------------------------------------


def test_players_by_name_sit_in_the_order_given() -> None:
    result = run("--players", "Kari, Ola,Per", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert headers(result)[0]["players"] == ["Kari", "Ola", "Per"]


@pytest.mark.parametrize(("count", "last"), [("2", "Bo"), ("4", "Dag"), ("12", "P12")])
def test_players_by_number_get_default_names(count: str, last: str) -> None:
    players = headers(run("--players", count, "--seed", "1"))[0]["players"]
    assert len(players) == int(count)
    assert len(set(players)) == int(count)
    assert players[0] == "Ada"
    assert players[-1] == last


def test_the_default_options_are_written_in_full() -> None:
    header = headers(run("--players", "3", "--seed", "1"))[0]
    assert header["options"] == {"finish": "last-chip", "chips": 2}
    assert header["game"] == "pot"


def test_finish_and_chips_go_into_the_header_and_the_game() -> None:
    result = run("--players", "3", "--finish", "last-holder", "--chips", "4", "--seed", "5")
    header = headers(result)[0]
    assert header["options"] == {"finish": "last-holder", "chips": 4}
    assert objects(result)[-1]["pot"] <= 12


def test_the_same_seed_plays_the_same_game() -> None:
    first = run("--players", "4", "--seed", "31")
    assert first.stdout_bytes == run("--players", "4", "--seed", "31").stdout_bytes
    assert first.stdout_bytes != run("--players", "4", "--seed", "32").stdout_bytes
    assert headers(first)[0]["seed"] == 31


def test_without_a_seed_the_log_records_the_one_drawn() -> None:
    result = run("--players", "3")
    seed = headers(result)[0]["seed"]
    assert isinstance(seed, int)
    assert run("--players", "3", "--seed", str(seed)).stdout_bytes == result.stdout_bytes


def test_games_n_is_a_session_of_n_games_with_seeds_counting_up() -> None:
    result = run("--players", "3", "--games", "4", "--seed", "100")
    log = objects(result)
    assert [h["seed"] for h in headers(result)] == [100, 101, 102, 103]
    assert [o["seq"] for o in log] == list(range(1, len(log) + 1))
    assert sum(o["type"] == "game_over" for o in log) == 4
    # Each game is the one its own seed plays alone.
    starts = [i for i, o in enumerate(log) if o["type"] == "game_started"]
    for k, (start, end) in enumerate(zip(starts, [*starts[1:], len(log)], strict=True)):
        alone = objects(run("--players", "3", "--seed", str(100 + k)))
        # The digests chain the whole file, so they differ from a log alone.
        envelope = ("seq", "digest")
        strip = [{key: v for key, v in o.items() if key not in envelope} for o in log[start:end]]
        assert strip == [{key: v for key, v in o.items() if key not in envelope} for o in alone]


def test_output_goes_to_a_new_file(tmp_path: Path) -> None:
    target = tmp_path / "game.jsonl"
    result = run("--players", "3", "--seed", "2", "-o", str(target))
    assert result.exit_code == 0
    assert result.stdout_bytes == b""
    assert target.read_bytes() == run("--players", "3", "--seed", "2").stdout_bytes


def test_an_existing_file_is_never_overwritten(tmp_path: Path) -> None:
    target = tmp_path / "game.jsonl"
    target.write_bytes(b"precious\n")
    line = one_line_error(run("--players", "3", "--seed", "2", "-o", str(target)))
    assert "already exists" in line
    assert str(target) in line
    assert target.read_bytes() == b"precious\n"


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--players", "Ada"], "at least 2 players"),
        (["--players", "1"], "at least 2 players"),
        (["--players", "Ada,Ada"], "Ada"),
        (["--players", "Ada,,Bo"], "empty"),
        (["--players", "3", "--game", "chess"], "chess"),
        (["--players", "3", "--lang", "xx"], "xx"),
        (["--players", "3", "--seed", "1", "--dice-file", "-"], "--dice-file"),
    ],
)
def test_a_bad_option_is_one_line_naming_it(args: list[str], named: str) -> None:
    result = run(*args, stdin="2\n")
    assert named in one_line_error(result)
    assert result.stdout_bytes == b""


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--players", "3", "--seed", "1"], "--seed and --dice-file cannot be used together"),
        (["--players", "Ada"], "at least 2 players"),
        (["--players", "3", "--game", "five-dice", "--threes", "--threes-to", "most"],
         "--threes-to is for generated dice"),
    ],
)
def test_what_is_wrong_with_the_session_is_said_before_the_dice_file_is_opened(
        tmp_path: Path, args: list[str], named: str) -> None:
    missing = tmp_path / "missing.dice"
    output = tmp_path / "out.jsonl"
    result = run(*args, "--dice-file", str(missing), "-o", str(output))
    assert named in one_line_error(result)
    assert not output.exists()


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--players", "3", "--chips", "0"], "--chips"),
        (["--players", "3", "--finish", "never"], "--finish"),
        (["--players", "3", "--games", "0"], "--games"),
        (["--players", "3", "--seed", "many"], "--seed"),
        (["--seed", "1"], "--players"),
    ],
)
def test_a_value_click_refuses_names_the_option(args: list[str], named: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)
    assert named in result.stderr
    assert result.stdout_bytes == b""


# -- Dice files ----------------------------------------------------------------


def test_a_dice_file_plays_the_game_typed_in(tmp_path: Path) -> None:
    dice = tmp_path / "e1.dice"
    dice.write_text(E1_DICE, encoding="utf-8")
    result = run("--players", "Ada,Bo,Cy", "--dice-file", str(dice))
    assert result.exit_code == 0, result.output
    log = objects(result)
    assert "seed" not in log[0]
    assert log[-1] == {"seq": 30, "type": "game_over", "winner": "Bo", "pot": 5,
                       "digest": log[-1]["digest"]}


def test_dice_may_come_from_standard_input_with_commas_comments_and_blank_lines() -> None:
    typed = "# the opening\n2\n3\n5\n\n1,6  # Cy\n" + E1_DICE.split("\n", 4)[4].replace(" ", ", ")
    result = run("--players", "Ada,Bo,Cy", "--dice-file", "-", stdin=typed)
    assert result.exit_code == 0, result.output
    assert objects(result)[-1]["winner"] == "Bo"


def e1_with(line: int, text: str) -> str:
    """E1's dice with line ``line`` (1-based) replaced by ``text``."""
    lines = E1_DICE.splitlines()
    lines[line - 1] = text
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("typed", "line", "reason"),
    [
        (e1_with(5, "3 5 2"), 5, "Ada rolls 2 dice here, but the line has 3"),
        (e1_with(2, "3 5"), 2, "Bo rolls 1 die here, but the line has 2"),
        (e1_with(6, "6 7"), 6, "'7' is not a face of a die"),
        (e1_with(6, "0 6"), 6, "'0' is not a face of a die"),
        (e1_with(6, "six six"), 6, "not a face of a die"),
        ("\n".join(E1_DICE.splitlines()[:9]) + "\n# to be continued\n", 9,
         "the dice run out here, but the game is not over: Ada rolls next"),
        (E1_DICE + "# one more\n4 4\n", 16, "rolls are left"),
    ],
)
def test_a_dice_file_that_cannot_be_played_is_refused_at_its_line(
    tmp_path: Path, typed: str, line: int, reason: str
) -> None:
    dice = tmp_path / "table.txt"
    dice.write_text(typed, encoding="utf-8")
    error = one_line_error(run("--players", "Ada,Bo,Cy", "--dice-file", str(dice)))
    assert error.startswith(f"aces: {dice}, line {line}: ")
    assert reason in error


@pytest.mark.parametrize("to_file", [False, True], ids=["stdout", "file"])
@pytest.mark.parametrize(("bad", "line"), [("1 9", 8), ("1 1 1", 8), ("1", 8),
                                           # The dice run out after line 7.
                                           ("# the pen ran dry", 7)])
def test_nothing_recorded_before_a_bad_dice_line_is_lost(
    tmp_path: Path, to_file: bool, bad: str, line: int
) -> None:
    target = tmp_path / "game.jsonl"
    output = ["-o", str(target)] if to_file else []
    typed = "\n".join([*E1_DICE.splitlines()[:7], bad]) + "\n"
    result = run("--players", "Ada,Bo,Cy", "--dice-file", "-", *output, stdin=typed)
    assert one_line_error(result).startswith(f"aces: <stdin>, line {line}: ")
    written = target.read_bytes() if to_file else result.stdout_bytes
    log = [json.loads(line) for line in written.decode("utf-8").splitlines()]
    # Everything up to Cy's 1-1 on line 7 of the dice, and its settlement.
    assert [o["dice"] for o in log if o["type"] == "rolled"] == [
        [2], [3], [5], [1, 6], [3, 5], [6, 6], [1, 1]]
    assert log[-1] == {"seq": 13, "type": "chips_to_pot", "player": "Cy", "count": 2,
                       "digest": log[-1]["digest"]}


def test_a_dice_file_that_is_not_utf_8_is_refused_at_its_line(tmp_path: Path) -> None:
    dice = tmp_path / "table.txt"
    dice.write_bytes(b"2\n3\n5\n1 6 # \xe6sj\n")
    result = run("--players", "Ada,Bo,Cy", "--dice-file", str(dice))
    assert one_line_error(result) == f"aces: {dice}, line 4: the line is not UTF-8 text"
    assert objects(result)[-1]["type"] == "opening_won"


def test_a_dice_file_saved_with_a_byte_order_mark_plays(tmp_path: Path) -> None:
    dice = tmp_path / "e1.dice"
    dice.write_text("\ufeff" + E1_DICE.replace("\n", "\r\n"), encoding="utf-8")
    result = run("--players", "Ada,Bo,Cy", "--dice-file", str(dice))
    assert result.exit_code == 0, result.output
    assert objects(result)[-1]["winner"] == "Bo"


@pytest.mark.parametrize("args", [
    ["--players", "100000000"],
    ["--players", "9" * 5000],
    ["--players", "9000"],
    ["--players", "Ada," + "B" * 70_000],
    ["--game", "five-dice", "--players", "3", "--dice-each", "20000"],
    ["--game", "five-dice", "--players", "Ada,Bo," + "C" * 300, "--dice-each", "100",
     "--threes"],
])
def test_a_game_whose_log_lines_could_not_be_read_back_is_refused(args: list[str]) -> None:
    result = run(*args, "--seed", "1")
    assert "could be longer than the 65,536 bytes a log line may hold" in one_line_error(result)
    assert result.stdout_bytes == b""


def test_the_widest_game_that_fits_is_played_and_read_back() -> None:
    from aces.log import LINE_LIMIT, read

    name = "B" * (LINE_LIMIT - 200)
    result = run("--players", f"Ada,{name}", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert max(map(len, result.stdout_bytes.splitlines(keepends=True))) <= LINE_LIMIT
    assert list(read(result.stdout_bytes.splitlines(keepends=True), "wide"))


def test_rolls_left_over_are_refused_after_the_game_is_written() -> None:
    result = run("--players", "Ada,Bo,Cy", "--dice-file", "-", stdin=E1_DICE + "3 3\n")
    assert "line 15" in one_line_error(result)
    assert objects(result)[-1]["type"] == "game_over"


# -- The example logs ----------------------------------------------------------


def replay_commands() -> list[list[str]]:
    """The commands of replays/make-replays.sh, both games, without ``aces play``."""
    commands = []
    for text in (REPLAYS / "make-replays.sh").read_text(encoding="utf-8").splitlines():
        if text.startswith("$aces play "):
            commands.append(shlex.split(text, comments=True)[2:])
    return commands


def test_the_replays_script_plays_both_games() -> None:
    games = [args[args.index("--game") + 1] if "--game" in args else "pot"
             for args in replay_commands()]
    assert games.count("pot") >= 5
    assert games.count("five-dice") >= 2


def _copy_of_the_replays(tmp_path: Path) -> Path:
    """replays/ copied under ``tmp_path``, which stands for the repository's top."""
    shutil.copytree(REPLAYS, tmp_path / "replays")
    return tmp_path / "replays"


def test_the_replays_script_runs_as_the_readme_says(tmp_path: Path) -> None:
    # README: PATH=.venv/bin:$PATH replays/make-replays.sh, a relative PATH.
    copy = _copy_of_the_replays(tmp_path)
    shim = tmp_path / "venv-bin" / "aces"
    shim.parent.mkdir()
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m aces "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    env = {**os.environ, "PATH": f"venv-bin{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(["bash", "replays/make-replays.sh"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    logs = sorted(path.name for path in REPLAYS.glob("*.jsonl"))
    assert sorted(path.name for path in copy.glob("*.jsonl")) == logs
    for name in logs:
        assert (copy / name).read_bytes() == (REPLAYS / name).read_bytes(), name


def test_the_replays_script_without_its_command_keeps_the_logs(tmp_path: Path) -> None:
    copy = _copy_of_the_replays(tmp_path)
    done = subprocess.run(["bash", "replays/make-replays.sh", "no-such-aces"], cwd=tmp_path,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 127
    assert done.stderr == "make-replays.sh: no-such-aces: command not found\n"
    for path in REPLAYS.glob("*.jsonl"):
        assert (copy / path.name).read_bytes() == path.read_bytes(), path.name


@pytest.mark.parametrize("args", replay_commands(), ids=lambda args: args[-1])
def test_every_example_log_comes_out_byte_for_byte_the_same(
    args: list[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    output = args.index("-o") + 1
    target = tmp_path / args[output]
    monkeypatch.chdir(REPLAYS)
    result = run(*args[:output], str(target), *args[output + 1:])
    assert result.exit_code == 0, result.output
    assert target.read_bytes() == (REPLAYS / args[output]).read_bytes()
