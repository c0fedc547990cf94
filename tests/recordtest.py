"""What the tests of ``aces record`` share: the rolls typed in, the table, and
how a run is made, compared with ``aces play`` and judged.

Importable from every test module (pytest's ``pythonpath`` names this folder).
"""

from __future__ import annotations

import shutil
import sys
import time
import typing as t
from pathlib import Path

from click.testing import CliRunner

from aces.cli import cli

from clitest import ENGLISH

if t.TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from click.testing import Result

#: Worked example E1 of the rulings, one roll a line.
E1: t.Final = ["2", "3", "5", "1 6", "3 5", "6 6", "1 1", "6 1", "4 1", "2 5", "6 6", "1 1",
               "3 4", "5 2"]
TABLE: t.Final = ("--players", "Ada,Bo,Cy")


def run(*args: str, stdin: str | bytes = "") -> Result:
    """``aces ARGS`` in English, ``stdin`` typed in."""
    return CliRunner(env=ENGLISH).invoke(cli, list(args), input=stdin)


def typed(rolls: Sequence[str]) -> str:
    return "".join(f"{roll}\n" for roll in rolls)


def played(tmp_path: Path, rolls: Sequence[str], *args: str) -> bytes:
    """The log ``aces play`` writes for the same dice typed in a file."""
    dice = tmp_path / "played.dice"
    dice.write_text(typed(rolls), encoding="utf-8")
    result = run("play", *TABLE, *args, "--dice-file", str(dice))
    assert result.exit_code == 0, result.output
    return result.stdout_bytes


def refused(result: Result) -> str:
    """Why a run was refused: its one ``aces:`` line, whatever else the recorder
    said on standard error (what was saved, how to go on), and no traceback."""
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.startswith("aces: ")]
    assert len(lines) == 1, result.stderr
    return lines[0].removeprefix("aces: ")


def aces() -> str:
    """The installed ``aces`` command, for the tests that run it as a process."""
    found = shutil.which("aces", path=str(Path(sys.executable).parent))
    assert found is not None
    return found


def wait_for(condition: Callable[[], bool], timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)
