"""What the worst legal logs cost: memory flat in the log, bounded by one event.

The logs come from tests/worstcases.py: a table of many players, a game
of many rolls. Each command's peak memory (as ``tracemalloc`` counts it)
is compared for a log and one four times its size: what the commands
keep must not grow with the log, only with its largest event. Time is
measured in tests/benchmarks/worst.py, not here.
"""

from __future__ import annotations

import io
import tracemalloc
import typing as t

import pytest
from worstcases import long_game, many_players

from aces import walkthrough
from aces.i18n import translations
from aces.log import read
from aces.narrate import Narrator
from aces.walk import walk

if t.TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

MIB: t.Final = 1 << 20


def verify(path: Path) -> None:
    with path.open("rb") as handle:
        for _ in walk(read(handle, "log"), "log"):
            pass


def replay(path: Path) -> None:
    narrator = Narrator(translations("nb"), "nb")
    with path.open("rb") as handle, io.StringIO() as out:
        for step in walk(read(handle, "log"), "log"):
            narrator.visit(step)
            out.writelines(narrator.take())
            out.seek(0)
            out.truncate()


def guide(path: Path) -> None:
    with path.open("rb") as handle, io.StringIO() as out:
        parts = walkthrough.stream(read(handle, "log"), "log", translations("nb"), "nb")
        for text in walkthrough.render_stream(parts, "rst"):
            out.write(text)
            out.seek(0)
            out.truncate()


def peak(command: Callable[[Path], None], path: Path) -> int:
    tracemalloc.start()
    try:
        command(path)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


COMMANDS: t.Final = [verify, replay, guide]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.__name__)
def test_a_table_of_many_players_costs_memory_by_its_largest_event(
        tmp_path: Path, command: Callable[[Path], None]) -> None:
    small, large = tmp_path / "small.jsonl", tmp_path / "large.jsonl"
    many_players(small, 200)
    many_players(large, 800)
    low, high = peak(command, small), peak(command, large)
    header = len(large.read_bytes().split(b"\n", 1)[0])
    # The memos are bounded in bytes, and the undo keeps the states of a
    # bounded number of seats: what grows is the size of one state.
    assert high < low + 12 * MIB + 100 * header, (low, high)
    assert high < 48 * MIB, (low, high)


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.__name__)
def test_a_long_game_costs_flat_memory(tmp_path: Path,
                                       command: Callable[[Path], None]) -> None:
    small, large = tmp_path / "small.jsonl", tmp_path / "large.jsonl"
    long_game(small, 2_000)
    long_game(large, 8_000)
    low, high = peak(command, small), peak(command, large)
    assert high < low + 2 * MIB, (low, high)
