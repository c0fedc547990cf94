"""Speed of the school's class server: many classes on several processes and one PostgreSQL.

    .venv/bin/python tests/benchmarks/school_load.py             # 1,000 groups, 50 classes, 60 s
    .venv/bin/python tests/benchmarks/school_load.py --groups 200 --classes 10 --seconds 15

A real PostgreSQL (Debian's, ``initdb`` in a temporary folder, as the tests
start it) and two, then four, ``aces class serve --store`` processes on
loopback, under the load of tests/classload.py: the groups join their
classes and each posts a roll about every ``--every`` seconds (2 by
default, a brisk table), its rolls going to the processes in turn, as a
group's tablets behind a proxy would (or each group's to one process,
``--sticky``); each class has a projector, on one process or another.
The groups are played from several client processes, the projectors read
in processes of their own. Reported for each number of server processes:
rolls a second, the time to an acknowledged roll (p50, p99), the time from
a roll to its class's projector (p50, p99, whichever process took the
roll), the CPU time a roll of the server's processes and of PostgreSQL,
the server's memory at the start, the middle and the end, and what was lost:
every acknowledged roll must be in its class's log once (as the class's
download holds it), where its answer placed it, and every projector must
have seen every block of its class once. Then the rate is raised step by
step to find the highest one the processes sustain with a p99 under 100 ms
and nothing lost.

The baseline, in the same run: the same groups and rate on the file store,
one class on one process (tests/benchmarks/class_load.py's load).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
import typing as t
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.class_load import arguments, line, ramp, verdict

from classload import measure, measure_school
from pgtest import start, teacher_key

#: The target of the issue for an acknowledged roll's p99.
ACK_P99_MS: t.Final = 100.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--groups", type=int, default=1000)
    parser.add_argument("--classes", type=int, default=50)
    parser.add_argument("--every", type=float, default=2.0)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--servers", type=int, nargs="+", default=[2, 4],
                        help="the numbers of server processes to run it on, one after another")
    parser.add_argument("--sticky", action="store_true",
                        help="send each group's rolls to one process, not to each in turn")
    args = arguments(parser)
    print(f"{os.cpu_count()} cores, shared by PostgreSQL, the server's processes and the"
          f" client processes (and whatever else runs); load average"
          f" {os.getloadavg()[0]:.2f} at the start")
    cluster_run = start()
    cluster = next(cluster_run)
    try:
        data = cluster.folder / "data"

        def school(servers: int, every: float, seconds: float) -> dict[str, t.Any]:
            url = cluster.database("bench")
            return measure_school(url, teacher_key(url, "Benchmark"), args.classes,
                                  args.groups, every, seconds, servers=servers,
                                  sticky=args.sticky, data=data, clients=args.clients,
                                  readers=args.readers)

        # One projector, as each class of the school has.
        files = measure(args.groups, args.every, args.seconds, 1, clients=args.clients,
                        readers=args.readers)
        print(line("baseline: the file store, one class on one process", files))
        for servers in args.servers:
            result = school(servers, args.every, args.seconds)
            print(json.dumps(result, indent=2))
            print(line(f"school, {args.classes} classes on {servers} processes", result))
            print(f"targets: {verdict(result, ACK_P99_MS)}")
            if not args.no_ramp:
                ramp(functools.partial(school, servers, seconds=15.0),
                     (1.0, 0.5, 0.3, 0.2, 0.15, 0.1), result, ACK_P99_MS,
                     f"{args.groups} groups on {servers} processes")
    finally:
        cluster_run.close()


if __name__ == "__main__":
    main()
