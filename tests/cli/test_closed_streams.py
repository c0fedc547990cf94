"""A standard stream the shell closed (``<&-``, ``>&-``, ``2>&-``): one line, or,
where nothing can be written, the exit status alone; never a traceback."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
LOG = str(REPLAYS / "three-players.jsonl")


def shell(args: list[str], redirect: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python -m aces ARGS`` with the shell's ``redirect`` (say ``>&-``)."""
    command = shlex.join([sys.executable, "-m", "aces", *args, "--lang", "en"])
    return subprocess.run(["sh", "-c", f"{command} {redirect}"], capture_output=True, text=True,
                          cwd=cwd, check=False)


@pytest.mark.parametrize("args", [
    ["verify", "-"],
    ["replay", "-"],
    ["walkthrough", "-"],
    ["stats", "-"],
    ["play", "--players", "2", "--dice-file", "-"],
    ["record", "new.jsonl", "--players", "Ada,Bo"],
    ["replay", LOG, "--step"],
])
def test_a_closed_standard_input_is_one_line(args: list[str], tmp_path: Path) -> None:
    done = shell(args, "<&-", tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr == "aces: standard input is closed, so there is nothing to read from it\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args", [
    ["--help"],
    ["replay", "--help"],
    ["--version"],
    ["play", "--players", "2", "--seed", "1"],
    ["verify", LOG],
    ["replay", LOG],
    ["walkthrough", LOG],
    ["odds", "--players", "2"],
    ["simulate", "--players", "2", "--games", "10", "--seed", "1"],
    ["stats", LOG],
])
def test_a_closed_standard_output_is_one_line(args: list[str], tmp_path: Path) -> None:
    """``aces --help >&-`` once failed: 'NoneType' object has no attribute 'flush'."""
    done = shell(args, ">&-", tmp_path)
    assert done.returncode == 1
    said = ("aces: cannot write the narration: it is closed\n" if args == ["replay", LOG]
            else "aces: cannot write <stdout>: it is closed\n")
    assert done.stderr == said


@pytest.mark.parametrize("args", [["--help"], ["replay", LOG], ["verify", "-"]])
def test_with_nowhere_to_say_anything_the_status_alone_tells(args: list[str],
                                                             tmp_path: Path) -> None:
    done = shell(args, "<&- >&- 2>&-", tmp_path)
    assert done.returncode in (1, 2)
    assert done.stdout == done.stderr == ""


def test_a_command_that_writes_only_files_needs_no_standard_output(tmp_path: Path) -> None:
    """And the log it opens is not taken for standard output, whose number it
    would otherwise be given."""
    done = shell(["play", "--players", "2", "--seed", "1", "-o", "game.jsonl"], ">&-", tmp_path)
    assert done.returncode == 0, done.stderr
    page = shell(["replay", "game.jsonl", "--html", "game.html"], "<&- >&-", tmp_path)
    assert page.returncode == 0, page.stderr
    verified = shell(["verify", "game.jsonl"], "", tmp_path)
    assert verified.stdout.startswith("game.jsonl follows the rules")
    assert (tmp_path / "game.html").read_bytes().startswith(b"<!DOCTYPE html>")
