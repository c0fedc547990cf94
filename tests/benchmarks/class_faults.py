"""kill -9 of a class server at random moments while groups post rolls, many times.

    .venv/bin/python tests/benchmarks/class_faults.py             # 60 trials
    .venv/bin/python tests/benchmarks/class_faults.py --trials 200

After each kill the server is started again on the same folder; every
acknowledged roll must be in its log where its answer said, no line may be
written twice (the answers tile each log exactly), every log must verify,
and every group's page must carry on at the right roll (tests/faults.py).
Reported: the trials, the rolls acknowledged, the posts that died with the
server and were answered on their retry, and the time a restart takes.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from faults import run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=60)
    parser.add_argument("--groups", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        start = time.monotonic()
        stats = run(Path(folder) / "class", args.trials, groups=args.groups, seed=args.seed)
        took = time.monotonic() - start
    print(f"{stats.trials} kill -9 trials, {args.groups} groups: {stats.acknowledged} rolls"
          f" acknowledged, {stats.retried} posts cut off by a kill and answered on their retry,"
          f" {stats.resumed_right} pages resumed at the right roll; nothing lost, nothing"
          f" written twice, every log verified ({took:.0f} s, {took / max(stats.trials, 1):.1f}"
          " s a trial with its restart and checks)")


if __name__ == "__main__":
    main()
