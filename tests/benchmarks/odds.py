"""Benchmark: ``aces odds`` for six to ten players, beside the solver it replaced.

For each table of Aces in the Pot with two chips each (last chip), in one
process:

* the chain is built and solved as ``aces odds`` does
  (:func:`aces.exact.exact`: the chain, every state's answers, the length
  to 99 %): wall and CPU seconds, and the peak memory of the process so far
  (the kernel's count), beside :func:`aces.exact.memory_needed`, what the
  progress bar announces;
* the solve alone (:func:`aces.exact.solve.state_values`, its sweeps a
  chunk of :data:`~aces.exact.solve.CHUNK` rows at a time) beside the
  baseline, the solver before its chunks: the same sweeps over whole blocks
  of a layer (``chunk`` as large as the chain), in CPU seconds, and its
  answers for every state compared with the new ones (they must agree to
  1e-9; ``tests/exact`` holds both to plain Jacobi iteration). The baseline
  runs up to ``--baseline-most`` players (default 8: nine take it minutes).

Run it with ``python tests/benchmarks/odds.py [--most N] [--baseline-most N]``
(``--most`` defaults to 10; ten players take minutes and some GB). It is
a script, not a test: shared machines are too noisy for timed assertions.
"""

from __future__ import annotations

import resource
import sys
import time

import numpy as np

from aces.exact import exact, memory_needed
from aces.exact.chain import build
from aces.exact.solve import state_values


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _option(args: list[str], name: str, default: int) -> int:
    return int(args[args.index(name) + 1]) if name in args else default


def main(args: list[str]) -> int:
    most = _option(args, "--most", 10)
    baseline_most = _option(args, "--baseline-most", 8)
    print(f"{'players':>7} {'states':>11} {'odds wall':>10} {'cpu':>8} {'peak':>9}"
          f" {'announced':>10} {'solve cpu':>10} {'baseline':>9} {'speed-up':>9} {'max diff':>9}")
    worst = 0.0
    for players in range(6, most + 1):
        wall, cpu = time.perf_counter(), _cpu()
        odds = exact(players, 2, "last-chip", 0.99)
        wall, cpu = time.perf_counter() - wall, _cpu() - cpu
        peak = _peak_mib()
        announced = memory_needed(players, odds.states) / 2**20
        line = (f"{players:>7} {odds.states:>11,} {wall:>9.1f}s {cpu:>7.1f}s {peak:>6.0f}MiB"
                f" {announced:>7.0f}MiB")
        if players <= baseline_most:
            chain = build(players, 2, "last-chip")
            new_cpu = _cpu()
            new = state_values(chain)
            new_cpu = _cpu() - new_cpu
            old_cpu = _cpu()
            old = state_values(chain, chunk=chain.size)
            old_cpu = _cpu() - old_cpu
            diff = float(np.abs(new[:, :players] - old[:, :players]).max())
            worst = max(worst, diff)
            line += (f" {new_cpu:>9.1f}s {old_cpu:>8.1f}s {old_cpu / new_cpu:>8.1f}x"
                     f" {diff:>9.1e}")
        print(line, flush=True)
    print(f"largest difference from the baseline, any state, any seat: {worst:.1e}"
          f" ({'within' if worst <= 1e-9 else 'BEYOND'} 1e-9)")
    return 0 if worst <= 1e-9 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
