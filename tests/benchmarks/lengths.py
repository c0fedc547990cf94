"""Benchmark: the exact length of a five-dice game, carried roll by roll.

Reports for each table, in its own process so that its peak memory is its
own: the states and the entries of a roll's splits
(:mod:`aces.exact.fivedice_lengths`), the rolls carried until less than
1e-12 of the chance is not over, the CPU time to build the splits and to
carry them, the CPU time to carry each seat's chance to lose as well
(where :func:`aces.exact.fivedice_lengths.solvable` allows it), and
the peak resident memory. Beside it, as a baseline in the
same run, the CPU time of the simulation playing 100,000 games of the same
table (the estimate ``aces stats`` would otherwise have had), and for one
small table the chain made by the rules (:mod:`aces.exact.fivedice_chain`),
the way the exact length is found where it can be.

Run it with ``python tests/benchmarks/lengths.py``. It is a script, not a
test: shared machines are too noisy for timed assertions. NumPy is held to
one thread, so the times are for one core.
"""

from __future__ import annotations

import os

for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import json  # noqa: E402 - after the thread settings, before NumPy loads
import resource  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import typing as t  # noqa: E402

if t.TYPE_CHECKING:
    from aces.rules.fivedice import Policy

#: Players, dice each, threes and the policy of each table measured.
TABLES: tuple[tuple[int, int, bool, str], ...] = (
    (4, 5, False, "random"),
    (4, 5, True, "random"),
    (5, 5, False, "random"),
    (5, 5, True, "random"),
    (5, 5, True, "fewest"),
)
#: A table the chain made by the rules also solves, for the baseline.
SMALL: tuple[int, int, bool, str] = (3, 3, True, "random")
SIMULATED = 100_000


def measure(players: int, dice: int, threes: bool, policy: str) -> dict[str, float]:
    """One table, in this process: the figures of one row."""
    from aces.exact import fivedice_lengths
    from aces.simulation import simulation

    chosen = t.cast("Policy", policy)
    start = time.process_time()
    table = fivedice_lengths.flow(players, dice, threes, chosen)
    built = time.process_time() - start
    start = time.process_time()
    lengths = table.lengths()
    carried = time.process_time() - start
    seats = -1.0  # not worked out: more than fivedice_lengths.MAX_ENTRIES
    if fivedice_lengths.solvable(players, dice, threes, chosen, by_seat=True):
        start = time.process_time()
        table.lengths(by_seat=True)
        seats = time.process_time() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    start = time.process_time()
    simulation("five-dice", players, {"dice": dice, "threes": threes,
                                      "threes_to": policy}).run(SIMULATED, seed=1)
    simulated = time.process_time() - start
    return {"states": len(table.states), "entries": table.entries, "rolls": len(lengths.cdf),
            "mean": lengths.mean, "build": built, "carry": carried, "seats": seats,
            "peak": peak, "simulated": simulated}


def chain_seconds(players: int, dice: int, threes: bool, policy: str) -> dict[str, float]:
    """The small table both ways: the chain made by the rules, and the splits."""
    from aces.exact import fivedice_chain, fivedice_lengths

    start = time.process_time()
    chain = fivedice_chain.build(players, dice, threes, t.cast("Policy", policy))
    fivedice_chain.length_cdf(chain, 1 - 1e-12)
    ruled = time.process_time() - start
    start = time.process_time()
    fivedice_lengths.length_cdf(players, dice, threes, t.cast("Policy", policy))
    return {"chain": ruled, "splits": time.process_time() - start}


def child(arguments: list[str], what: str) -> dict[str, float]:
    done = subprocess.run([sys.executable, __file__, what, *arguments], check=True,
                          capture_output=True, text=True)
    result: dict[str, float] = json.loads(done.stdout)
    return result


def main() -> None:
    print("Exact length of a five-dice game: carried until less than 1e-12 is not over")
    print(f"{'table':<22}{'states':>9}{'entries':>11}{'rolls':>7}{'mean':>8}"
          f"{'build s':>9}{'carry s':>9}{'by seat s':>11}{'peak MiB':>10}"
          f"{'simulate 100,000 s':>20}")
    for players, dice, threes, policy in TABLES:
        row = child([str(players), str(dice), str(int(threes)), policy], "--one")
        name = f"{players} x {dice}" + (f", threes {policy}" if threes else "")
        print(f"{name:<22}{row['states']:>9,.0f}{row['entries']:>11,.0f}{row['rolls']:>7.0f}"
              f"{row['mean']:>8.2f}{row['build']:>9.2f}{row['carry']:>9.2f}"
              f"{'-' if row['seats'] < 0 else format(row['seats'], '.2f'):>11}"
              f"{row['peak']:>10.0f}{row['simulated']:>20.2f}", flush=True)
    players, dice, threes, policy = SMALL
    small = child([str(players), str(dice), str(int(threes)), policy], "--small")
    print(f"Baseline, {players} x {dice} with threes: the chain made by the rules"
          f" {small['chain']:.2f} s, the splits {small['splits']:.2f} s")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] in ("--one", "--small"):
        what, players, dice, threes, policy = sys.argv[1:6]
        run = measure if what == "--one" else chain_seconds
        print(json.dumps(run(int(players), int(dice), threes == "1", policy)))
    else:
        main()
