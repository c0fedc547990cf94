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
  chances, as a process (CPU time), beside ``aces replay --odds``,
  ``aces replay --html`` (the page) and the notebook view of
  ``aces.play(N, game="five-dice", seed=1)``, which the issue wants under 2 s
  at 12 players;
* the chances of every moment of the game, worked out together as a replay,
  a page or a notebook view asks for them, the estimates forgotten first:
  as aces gives them now (games played on to the table's tail, whose chain
  answers the rest exactly: :mod:`aces.chances.fivedice`); and, as the
  issue measured them, whole games, as aces gave them before
  (:data:`aces.chances.ROLL_WORK` plays fewer games on from a position with
  many rolls still to come) and at the issue's margin (every position
  played on 3,000 times);
* for each: the positions estimated, seconds per estimated moment, and the
  margin (half the 95 % interval, the widest seat's) over the moments,
  its mean and its largest;
* the verdicts of the two ways the issue's point may be met: a moment at
  most 10 ms at a margin no wider than the issue's (its largest), or half
  the issue's margin at no more than its cost (as measured in the same run,
  and as the issue measured it).

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
import aces.chances.fivedice as fivedice_chances  # noqa: E402
from aces.log import read  # noqa: E402
from aces.walk import walk  # noqa: E402

#: The games a position was played on when the issue was written: its "today's margin".
ISSUE_GAMES: t.Final = 3000
#: What ``aces replay --odds`` and ``aces replay`` cost in the issue, by players.
ISSUE_SECONDS: t.Final = {8: (4.8, 0.23), 12: (20.0, 0.34)}
#: The target of an estimated moment at the issue's margin, in seconds.
TARGET: t.Final = 0.010
#: What the page and the notebook view of the 12-player game may take, in seconds.
PAGE_TARGET: t.Final = 2.0


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


def estimate(header: t.Any, states: list[t.Any], *, work: int, games: int,
             tail: bool) -> Run:
    """The chances of ``states`` worked out together, the estimates forgotten
    first, with ``games`` games a position at most and ``work`` rolls a
    position; to the table's tail, or whole games."""
    saved = chances.ROLL_WORK, chances.ESTIMATE_GAMES, fivedice_chances.TAIL_STATES
    chances.ROLL_WORK, chances.ESTIMATE_GAMES = work, games  # type: ignore[misc]
    if not tail:
        fivedice_chances.TAIL_STATES = 0  # type: ignore[misc]
    try:
        chances._odds.cache_clear()
        start = time.process_time()
        odds = chances.odds_for(header)  # the tail's chain is solved here
        keys = [key for state in states for key in odds._positions(state)  # type: ignore[attr-defined]
                if not odds._known(key)]  # type: ignore[attr-defined]
        positions = len(odds._estimates.missing(keys))  # type: ignore[attr-defined]
        found = odds.chances_of(states)
        seconds = time.process_time() - start
    finally:
        chances.ROLL_WORK, chances.ESTIMATE_GAMES, fivedice_chances.TAIL_STATES = saved  # type: ignore[misc]
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
            notebook = (f"import aces; aces.play({players}, game='five-dice', seed=1)"
                        "._repr_html_()")
            figure = measure([sys.executable, "-c", notebook])
            assert figure is not None
            used["notebook view"] = figure.seconds
            print(f"    {'the notebook view':<19} {figure.seconds:6.2f} s")
            baseline = used["replay"]
            fast = max(used["replay --html"], used["notebook view"]) < PAGE_TARGET
            print(f"  baseline: aces replay, {baseline:.2f} s; the page "
                  f"{used['replay --html']:.2f} s and the notebook view "
                  f"{used['notebook view']:.2f} s, target {PAGE_TARGET:.0f} s at 12 players: "
                  f"{'met' if fast else 'NOT met'}")
            print(f"  {'chances of every moment (' + load() + ')':<38} {'moves':>5} {'CPU':>10} "
                  f"{'a moment':>11} {'/ base':>8} {'margin: mean, largest':>22}")
            now = estimate(header, states, work=chances.ROLL_WORK, games=chances.ESTIMATE_GAMES,
                           tail=True)
            show("to the tail, as aces gives them now", now, baseline)
            before = estimate(header, states, work=chances.ROLL_WORK,
                              games=chances.ESTIMATE_GAMES, tail=False)
            show("whole games, as aces gave them", before, baseline)
            issue = estimate(header, states, work=sys.maxsize, games=ISSUE_GAMES, tail=False)
            show(f"whole games, the issue's ({ISSUE_GAMES:,})", issue, baseline)
            odds_then, plain_then = ISSUE_SECONDS[players]
            then = (odds_then - plain_then) / issue.positions
            print(f"  the issue's cost: ({odds_then} s - {plain_then} s) over {issue.positions} "
                  f"moments = {then * 1e3:.1f} ms a moment; all of them "
                  f"{(odds_then - plain_then) / plain_then:.0f} x its replay, now "
                  f"{now.seconds / baseline:.1f} x")
            each = now.seconds / now.positions
            today = issue.seconds / issue.positions
            narrower = now.most_margin <= issue.most_margin
            print(f"  at the issue's margin ({issue.most_margin * 100:.2f} points at most): "
                  f"{each * 1e3:.1f} ms a moment at {now.most_margin * 100:.2f}, target "
                  f"{TARGET * 1e3:.0f} ms: {'met' if each <= TARGET and narrower else 'NOT met'}")
            halved = now.most_margin <= issue.most_margin / 2
            cheaper = each <= min(today, then)
            print(f"  at half its margin ({issue.most_margin * 50:.2f} points): "
                  f"{now.most_margin * 100:.2f} points at {each * 1e3:.1f} ms a moment, against "
                  f"{today * 1e3:.1f} ms whole games today and the issue's {then * 1e3:.1f} ms: "
                  f"{'met' if halved and cheaper else 'NOT met'}\n")


if __name__ == "__main__":
    main()
