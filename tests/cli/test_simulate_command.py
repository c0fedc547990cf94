"""``aces simulate``: estimates with intervals, reproducible, and bad input as one line."""

from __future__ import annotations

import json
import typing as t

import pytest
from click.testing import CliRunner

from aces.cli import cli

if t.TYPE_CHECKING:
    from click.testing import Result

ENGLISH: t.Final[dict[str, str | None]] = {
    "LANGUAGE": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": "C"}


def run(*args: str) -> Result:
    return CliRunner(env=ENGLISH).invoke(cli, ["simulate", *args])


def one_line_error(result: Result) -> str:
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("aces: ")
    return lines[0]


def test_json_has_the_keys_of_odds_and_the_intervals() -> None:
    result = run("--players", "4", "--games", "20000", "--seed", "5", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 20000
    assert data["seed"] == 5
    assert len(data["win_by_seat"]) == 4
    assert sum(data["win_by_seat"]) == pytest.approx(1)
    for share, (low, high) in zip(data["win_by_seat"], data["win_by_seat_ci"], strict=True):
        assert low <= share <= high
    low, high = data["expected_rolls_ci"]
    assert low <= data["expected_rolls"] <= high
    assert data["exact"] is not None
    assert len(data["exact_inside"]["win_by_seat"]) == 4


def test_the_same_seed_gives_the_same_report() -> None:
    first = run("--players", "3", "--games", "5000", "--seed", "9")
    again = run("--players", "3", "--games", "5000", "--seed", "9")
    other = run("--players", "3", "--games", "5000", "--seed", "10")
    assert first.exit_code == 0, first.output
    assert first.stdout == again.stdout
    assert first.stdout != other.stdout


def test_no_exact_leaves_it_out() -> None:
    data = json.loads(run("--players", "3", "--games", "100", "--seed", "1", "--no-exact",
                          "--json").stdout)
    assert data["exact"] is None
    assert data["exact_inside"] is None


def test_the_readable_report() -> None:
    result = run("--players", "3", "--games", "3000", "--seed", "2", "--finish", "last-holder")
    assert result.exit_code == 0, result.output
    assert "3,000 simulated games" in result.stdout
    assert "finish last-holder" in result.stdout
    assert "seed 2" in result.stdout
    assert "95 % interval" in result.stdout
    # No progress bar when standard error is not a terminal.
    assert result.stderr == ""


def test_norwegian_numbers() -> None:
    result = run("--players", "3", "--games", "3000", "--seed", "2", "--lang", "nb")
    assert result.exit_code == 0, result.output
    assert "3\xa0000" in result.stdout
    assert "\xa0%" in result.stdout


@pytest.mark.parametrize("games", ["0", "-5"])
def test_games_must_be_positive(games: str) -> None:
    line = one_line_error(run("--players", "3", "--games", games))
    assert "--games must be at least 1" in line


def test_players_out_of_range() -> None:
    assert "--players must be at least 2" in one_line_error(run("--players", "1"))
    assert "at most 100 players, not 101" in one_line_error(run("--players", "101"))
    line = one_line_error(run("--players", "20", "--chips", "60"))
    assert "at most 1,000 chips in all, not 20 players with 60 each" in line


def test_many_players_without_an_exact_answer() -> None:
    result = run("--players", "12", "--games", "2000", "--seed", "4", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert len(data["win_by_seat"]) == 12
    assert data["exact"] is None


def test_a_negative_seed() -> None:
    assert "--seed" in one_line_error(run("--players", "3", "--seed", "-1"))
