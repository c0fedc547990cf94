"""Speed of the live class: many groups posting rolls while projectors listen.

    .venv/bin/python tests/benchmarks/class_load.py            # 200 groups, 60 s, 10 projectors
    .venv/bin/python tests/benchmarks/class_load.py --seconds 10 --groups 50 --no-ramp

A real ``aces class serve`` on loopback (tests/classload.py). Each group
posts a roll about every half second (far faster than a table rolls), over
the JSON API, and keeps what it was answered; ten projectors read the
class's stream. Reported: rolls a second, the time to an acknowledged roll
(p50, p99), the time from a roll to each projector (p50, p99) and from its
answer to the projector, the server's CPU time a roll, the server's memory
(at the start, through the run and at the end, to show it flat), and lost
or duplicated rolls (every acknowledged roll must be in its log once, and
every projector must have seen every block once). Then the rate is raised
step by step to find the highest one the server sustains with a p99 under
50 ms; beside it, the rate one core could give at the CPU time a roll
costs, which a machine busy with other work does not blur as it blurs the
wall clock (the load average is printed with each run).

The baselines, in the same run: one process appending the same blocks to
one log with an fsync each, as ``aces record`` does, one after another
(its rate and its CPU time a block); and one group rolling alone before a
single projector (its time to an answer and to the projector), the least
any roll can take on this machine now.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import typing as t
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from classload import measure


def _baseline(blocks: int) -> tuple[float, float]:
    """Blocks a second appended to one log with an fsync each, as aces record
    does, and the CPU time a block, in milliseconds."""
    from aces.engine import header
    from aces.events import Rolled
    from aces.log import LogWriter
    from aces.rules import game_named

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "baseline.jsonl"
        writer = LogWriter(None)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            os.write(fd, writer.encode([header(game_named("pot"), ["Ada", "Bo"], {})]))
            start, cpu = time.perf_counter(), time.process_time()
            for value in range(blocks):
                os.write(fd, writer.encode([Rolled(player="Ada", dice=(value % 6 + 1,),
                                                   stage="opening")]))
                os.fsync(fd)
            return (blocks / (time.perf_counter() - start),
                    1000 * (time.process_time() - cpu) / blocks)
        finally:
            os.close(fd)


def _line(result: dict[str, t.Any]) -> str:
    return (f"{result['rate']:,.0f} rolls/s, ack p50 {result['ack_p50_ms']:.1f} ms,"
            f" p99 {result['ack_p99_ms']:.1f} ms; projector p50"
            f" {result['projector_p50_ms']:.1f} ms, p99 {result['projector_p99_ms']:.1f} ms"
            f" (after the ack p99 {result['after_ack_p99_ms']:.1f} ms); server CPU"
            f" {result['cpu_ms_a_roll']:.2f} ms a roll ({result['cpu_share']:.0%} of a core,"
            f" the clients {result['client_cpu_share']:.0%}); load average"
            f" {result['load_average']:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--groups", type=int, default=200)
    parser.add_argument("--every", type=float, default=0.5)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--projectors", type=int, default=10)
    parser.add_argument("--no-ramp", action="store_true", help="skip the search for the most")
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    rate, cpu = _baseline(300)
    print(f"baseline: one log, an fsync a block, one after another: {rate:,.0f} blocks/s,"
          f" {cpu:.2f} ms of CPU a block")
    alone = measure(1, 0.1, 5.0, 1)
    print(f"baseline: one group alone, one projector: {_line(alone)}")
    result = measure(args.groups, args.every, args.seconds, args.projectors)
    print(json.dumps(result, indent=2))
    print(f"class: {args.groups} groups, {args.projectors} projectors: {_line(result)}")
    print(f"  rss {result['rss_start_mb']:.0f} -> {result['rss_end_mb']:.0f} MB; lost"
          f" {result['lost']}, twice {result['twice']}, missed by a projector"
          f" {result['missed']}, errors {result['errors']}; projectors reconnected"
          f" {result['reconnects']} times (dropped as readers too slow, resumed by Last-Event-ID)")
    print(f"  the projector: p99 {result['projector_p99_ms']:.0f} ms under load, beside"
          f" {alone['projector_p99_ms']:.0f} ms for a group alone")
    print(f"  CPU bound: one core gives {1000 / result['cpu_ms_a_roll']:,.0f} rolls/s at"
          f" {result['cpu_ms_a_roll']:.2f} ms a roll ({alone['cpu_ms_a_roll']:.2f} ms for a"
          f" group alone)")
    if args.no_ramp:
        return
    best = None
    for every in (0.25, 0.15, 0.1, 0.07, 0.05, 0.035, 0.025):
        step = measure(args.groups, every, 15.0, args.projectors)
        ok = step["ack_p99_ms"] < 50 and not (step["lost"] or step["twice"] or step["errors"])
        print(f"  {args.groups} groups every {every} s: {_line(step)}"
              f"{'' if ok else '  (over the target)'}")
        if not ok:
            break
        best = step
    if best is not None:
        print(f"highest rate sustained with p99 under 50 ms: {best['rate']:,.0f} rolls/s"
              f" ({best['rate'] / rate:.1f}x the baseline)")
    else:
        print("no step held p99 under 50 ms on this machine now")


if __name__ == "__main__":
    main()
