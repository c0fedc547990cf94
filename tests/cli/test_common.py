"""What every command shares: here, a failed write told in one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from aces.cli._common import writing
from aces.errors import AcesError

REPLAYS = Path(__file__).resolve().parents[2] / "replays"


def test_a_failed_write_names_where_it_went() -> None:
    with pytest.raises(AcesError) as caught, writing("game.jsonl"):
        raise OSError(28, "No space left on device")
    assert str(caught.value) == "cannot write game.jsonl: no space left on the disk"


def test_standard_output_is_named_as_such() -> None:
    with pytest.raises(AcesError, match="cannot write <stdout>: "), writing(None):
        raise OSError(5, "Input/output error")


def test_a_closed_pipe_is_left_to_the_entry_point() -> None:
    with pytest.raises(BrokenPipeError), writing(None):
        raise BrokenPipeError


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [
    ["play", "--players", "3", "--seed", "1"],
    ["verify", str(REPLAYS / "three-players.jsonl")],
    ["odds", "--players", "3"],
    ["odds", "--players", "3", "--json"],
    ["simulate", "--players", "3", "--games", "100", "--seed", "1"],
])
def test_a_full_disk_is_one_line_without_a_traceback(args: list[str]) -> None:
    with Path("/dev/full").open("w", encoding="utf-8") as full:
        done = subprocess.run([sys.executable, "-m", "aces", *args, "--lang", "en"],
                              stdout=full, stderr=subprocess.PIPE, text=True, check=False)
    assert done.returncode == 1
    assert done.stderr == "aces: cannot write <stdout>: no space left on the disk\n"


def test_the_systems_reason_is_said_in_the_users_language() -> None:
    from aces.i18n import translations

    with pytest.raises(AcesError) as caught, writing("game.jsonl"):
        raise OSError(13, "Permission denied")
    catalog = translations("nb")
    assert caught.value.render(catalog.gettext, catalog.ngettext) == (
        "kan ikke skrive game.jsonl: ingen tilgang")


@pytest.mark.parametrize("args", [
    ["play", "--players", "4", "--games", "300", "--seed", "1"],
    ["odds", "--players", "4"],
])
def test_a_reader_that_goes_away_ends_the_command_quietly(args: list[str]) -> None:
    """``aces play ... | head -1``: status 0 and nothing on standard error."""
    with subprocess.Popen([sys.executable, "-m", "aces", *args], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE) as process:
        assert process.stdout is not None
        assert process.stderr is not None
        process.stdout.readline()
        process.stdout.close()
        error = process.stderr.read()
        assert process.wait() == 0
    assert error == b""
