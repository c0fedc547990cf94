"""The school's server under load, short: groups of three classes posting
rolls to two server processes in turn, from two client processes, while
each class's projector listens on one process or the other; every
acknowledged roll is in its class's log once (as the class's download holds
it) and every block reaches its class's projector once, in the feed's order.

Bounded (a dozen groups for a few seconds, on loopback and one PostgreSQL
started by the tests) and timed by no assertion: the long run, with its
figures, is tests/benchmarks/school_load.py.
"""

from __future__ import annotations

import typing as t

from classload import measure_school
from pgtest import teacher_key

if t.TYPE_CHECKING:
    from pgtest import Cluster


def test_groups_on_two_processes_lose_nothing_and_projectors_miss_nothing(
        postgresql: Cluster) -> None:
    url = postgresql.database("load")
    result = measure_school(url, teacher_key(url, "Load"), classes=3, groups=12, every=0.2,
                            seconds=3.0, servers=2, data=postgresql.folder / "data",
                            clients=2, readers=1)
    assert (result["servers"], result["classes"], result["projectors"]) == (2, 3, 3)
    assert result["rolls"] >= 12
    assert (result["errors"], result["lost"], result["twice"], result["missed"]) == (0, 0, 0, 0)
    assert result["projector_p99_ms"] > 0
    assert result["database_cpu_ms_a_roll"] > 0
