"""Benchmark: what an estimated moment costs, and at what margin.

Issue 26 asks that "an estimated moment cost at most 10 ms at today's
margin, or the margin halve at today's cost, on the 8- and 12-player
five-dice games". Its "today" is the issue's own measure: every position
played on :data:`ISSUE_GAMES` times (3,000 games, a margin of under 2
points at a chance of one half), which cost ``aces replay --odds`` 20 s of
the 12-player game (397 lines) against 0.34 s without ``--odds``, and 4.8 s
of the 8-player game against 0.23 s: :data:`ISSUE_SECONDS`.

For the seeded five-dice games of 8 and 12 players (``aces play --game
five-dice --players N --seed 1``), in one process, NumPy on one thread,
CPU time (which a loaded machine inflates less than the clock):

* the baseline, in the same run: ``aces replay`` of the same log without
  chances, as a process (CPU time), beside ``aces replay --odds`` and
  ``aces replay --html``, as the issue timed them (20 s against 0.34 s:
  the chances cost 58 times the replay);
* the chances of every moment of the game, worked out together as a replay,
  a page or a notebook view asks for them, the estimates forgotten first:
  as aces gives them now (:data:`aces.chances.ROLL_WORK` plays fewer games
  on from a position with many rolls still to come, its margin saying so),
  at the issue's margin (every position played on 3,000 times), and at half
  the issue's margin (four times the games: 12,000), for one moment in
  :data:`SAMPLE` of the game, so that the run stays short;
* for each: the positions estimated, seconds per estimated moment, and the
  margin (half the 95 % interval, the widest seat's) over the moments,
  its mean and its largest;
* the verdicts of the two ways the issue's point may be met, beside the
  issue's own cost per moment (its seconds over the same moments).

Run it with ``python tests/benchmarks/moments.py``. It is a script, not a
test: shared machines are too noisy for timed assertions; it prints the
machine's load beside its figures.
"""

from __future__ import annotations

import os

for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import io  # noqa: E402 - after the thread settings, before NumPy loads
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import typing as t  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.logs import measure  # noqa: E402

import aces.chances as chances  # noqa: E402
from aces.log import read  # noqa: E402
from aces.walk import walk  # noqa: E402

#: The games a position was played on when the issue was written: its "today's margin".
ISSUE_GAMES: t.Final = 3000
#: What ``aces replay --odds`` and ``aces replay`` cost in the issue, by players.
ISSUE_SECONDS: t.Final = {8: (4.8, 0.23), 12: (20.0, 0.34)}
#: The target of an estimated moment at the issue's margin, in seconds.
TARGET: t.Final = 0.010
#: One moment in this many is estimated at half the issue's margin.
SAMPLE: t.Final = 8


def five_dice_game(path: Path, players: int) -> bytes:
    """The seeded five-dice game for ``players``, as ``aces play`` writes it."""
    subprocess.run([sys.executable, "-m", "aces", "play", "--game", "five-dice", "--players",
                    str(players), "--seed", "1", "-o", str(path)], check=True,
                   stdout=subprocess.DEVNULL)
    return path.read_bytes()


def load() -> str:
    return "load " + " ".join(f"{figure:.2f}" for figure in os.getloadavg())


class Run(t.NamedTuple):
    positions: int
    seconds: float
    mean_margin: float
    most_margin: float


def estimate(header: t.Any, states: list[t.Any], *, work: int, games: int) -> Run:
    """The chances of ``states`` worked out together, the estimates forgotten
    first, with ``games`` games a position at most and ``work`` rolls a position."""
    saved = chances.ROLL_WORK, chances.ESTIMATE_GAMES
    chances.ROLL_WORK, chances.ESTIMATE_GAMES = work, games  # type: ignore[misc]
    try:
        chances._odds.cache_clear()
        odds = chances.odds_for(header)
        positions = len(odds._estimates.missing(  # type: ignore[attr-defined]
            [key for state in states for key in odds._positions(state)]))  # type: ignore[attr-defined]
        start = time.process_time()
        found = odds.chances_of(states)
        seconds = time.process_time() - start
    finally:
        chances.ROLL_WORK, chances.ESTIMATE_GAMES = saved  # type: ignore[misc]
        chances._odds.cache_clear()
    margins = [answer.margin for answer in found if not answer.exact and answer.margin > 0]
    return Run(positions, seconds, sum(margins) / len(margins), max(margins))


def show(label: str, run: Run, baseline: float) -> None:
    print(f"  {label:<38} {run.positions:>5} {run.seconds:8.2f} s "
          f"{run.seconds / run.positions * 1e3:8.2f} ms {run.seconds / baseline:6.1f} x "
          f"{run.mean_margin * 100:7.2f} {run.most_margin * 100:7.2f} points")


def main() -> None:
    aces = [sys.executable, "-m", "aces"]
    print(f"the machine: {load()}\n")
    with tempfile.TemporaryDirectory() as folder:
        for players in (8, 12):
            path = Path(folder) / f"five-dice-{players}.jsonl"
            log = five_dice_game(path, players)
            steps = list(walk(read(io.BytesIO(log), "log"), "log"))
            header, states = steps[0].event, [step.state for step in steps]
            print(f"five-dice, {players} players, seed 1: {len(log.splitlines())} lines")
            print(f"  the commands as processes, CPU time ({load()}):")
            used = {}
            for name, extra in (("replay", []), ("replay --odds", ["--odds"]),
                                ("replay --html", ["--html", str(Path(folder) / "page.html"),
                                                   "--force"])):
                figure = measure([*aces, "replay", str(path), *extra])
                assert figure is not None
                used[name] = figure.seconds
                print(f"    aces {name:<14} {figure.seconds:6.2f} s")
            baseline = used["replay"]
            print(f"  baseline: aces replay, {baseline:.2f} s")
            print(f"  {'chances of every moment (' + load() + ')':<38} {'moves':>5} {'CPU':>10} "
                  f"{'a moment':>11} {'/ base':>8} {'margin: mean, largest':>22}")
            now = estimate(header, states, work=chances.ROLL_WORK, games=chances.ESTIMATE_GAMES)
            show("as aces gives them now", now, baseline)
            issue = estimate(header, states, work=sys.maxsize, games=ISSUE_GAMES)
            show(f"the issue's margin ({ISSUE_GAMES:,} games)", issue, baseline)
            half = estimate(header, states[::SAMPLE], work=sys.maxsize, games=4 * ISSUE_GAMES)
            show(f"half its margin ({4 * ISSUE_GAMES:,}), 1 in {SAMPLE}", half, baseline)
            odds_then, plain_then = ISSUE_SECONDS[players]
            then = (odds_then - plain_then) / issue.positions
            print(f"  the issue's cost: ({odds_then} s - {plain_then} s) over {issue.positions} "
                  f"moments = {then * 1e3:.1f} ms a moment; all of them "
                  f"{(odds_then - plain_then) / plain_then:.0f} x its replay, now "
                  f"{issue.seconds / baseline:.0f} x")
            each = issue.seconds / issue.positions
            halved = half.seconds / half.positions
            print(f"  at the issue's margin: {each * 1e3:.1f} ms a moment, target "
                  f"{TARGET * 1e3:.0f} ms: {'met' if each <= TARGET else 'NOT met'}")
            print(f"  at half its margin: {halved * 1e3:.1f} ms a moment, against the issue's "
                  f"{then * 1e3:.1f} ms: {'met' if halved <= then else 'NOT met'}\n")


if __name__ == "__main__":
    main()
