"""Benchmark: ``aces stats`` over a class's worth of logs, beside ``aces verify``.

Writes LOGS logs of GAMES games each (default: 1,000 logs of 20 games, four players of
Aces in the Pot), then reports, side by side:

* the baseline: what ``aces verify`` does for each log (the checked walk
  and its tally), over every log in turn, in one process;
* ``aces stats``: the same logs read once and pooled (:func:`aces.stats`,
  which the command runs), and with ``--csv --rolls`` as well;
* the ratio of the two, against the target of 1.5;
* the peak memory of ``aces stats`` as a separate process, for a tenth of
  the logs and for all of them, beside that of the verify loop over the
  same logs: what grows in both is the rules' bounded cache of decisions
  filling up, not the logs read.

Run it with ``python tests/benchmarks/stats.py [LOGS] [GAMES]``. It is a
script, not a test: shared machines are too noisy for timed assertions.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

import aces
from aces import engine
from aces.dice import RandomDice
from aces.games import game_named
from aces.log import LogWriter, read
from aces.summary import Tally
from aces.walk import drive

# The verify benchmark's way of measuring a command's memory, so both report alike.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.logs import peak_memory_kib

#: ``aces stats`` may take at most this many times what ``aces verify`` takes.
TARGET_RATIO = 1.5
#: What ``aces verify`` does, for every log named on the command line.
VERIFY_LOOP = """
import sys
from aces.log import read
from aces.summary import Tally
from aces.walk import drive
for name in sys.argv[1:]:
    with open(name, "rb") as handle:
        drive(read(handle, name), name, Tally())
"""


def write_logs(folder: Path, logs: int, games: int) -> tuple[list[Path], int]:
    game = game_named("pot")
    players = ["Ada", "Bo", "Cy", "Dag"]
    paths = []
    events = 0
    for log in range(logs):
        path = folder / f"group-{log + 1:04}.jsonl"
        with path.open("wb") as out:
            writer = LogWriter(out)
            for number in range(games):
                seed = log * games + number + 1
                start = engine.header(game, players, {}, seed=seed)
                writer.write_all(engine.play(game, start, RandomDice(seed)))
        events += writer.written
        paths.append(path)
    return paths, events


def time_verify(paths: list[Path]) -> float:
    start = time.perf_counter()
    for path in paths:
        with path.open("rb") as handle:
            drive(read(handle, str(path)), str(path), Tally())
    return time.perf_counter() - start


def time_stats(paths: list[Path], table: Path | None = None) -> float:
    start = time.perf_counter()
    result = aces.stats(paths, csv=table, rolls=table is not None)
    result.as_dict()
    return time.perf_counter() - start


def main() -> None:
    logs = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        started = time.perf_counter()
        paths, events = write_logs(folder, logs, games)
        size = sum(path.stat().st_size for path in paths)
        print(f"wrote {logs:,} logs of {games} games, {events:,} events, {size / 2**20:.0f} MiB"
              f" in {time.perf_counter() - started:.1f} s\n")
        verify = time_verify(paths)
        print(f"{'baseline: verify, log by log':<34} {verify:6.2f} s"
              f"  {events / verify:>12,.0f} events/s")
        pooled = time_stats(paths)
        print(f"{'aces stats':<34} {pooled:6.2f} s  {events / pooled:>12,.0f} events/s"
              f"  ({pooled / verify:.2f} x verify)")
        rolls = time_stats(paths, folder / "rolls.csv")
        print(f"{'aces stats --csv --rolls':<34} {rolls:6.2f} s  {events / rolls:>12,.0f}"
              f" events/s  ({rolls / verify:.2f} x verify)")
        ratio = pooled / verify
        print(f"\ntarget: at most {TARGET_RATIO} x verify"
              f" ({'met' if ratio <= TARGET_RATIO else 'NOT met'}: {ratio:.2f} x)\n")

        tenth = paths[: max(1, logs // 10)]
        for label, command in (
                ("aces stats --json", [sys.executable, "-m", "aces", "stats", "--json"]),
                ("verify, log by log", [sys.executable, "-c", VERIFY_LOOP])):
            low = peak_memory_kib([*command, *map(str, tenth)])
            high = peak_memory_kib([*command, *map(str, paths)])
            print(f"peak memory of {label}: {low / 1024:.1f} MiB for {len(tenth):,} logs,"
                  f" {high / 1024:.1f} MiB for {logs:,} logs ({high / low:.2f} x for"
                  f" {logs / len(tenth):.0f} x the logs)")
        os.sync()


if __name__ == "__main__":
    main()
