"""The live class under load, short: groups posting rolls side by side from
two client processes while projectors listen in a third, every acknowledged
roll in its log once and every block on every projector once, in the
feed's order.

Bounded (a dozen groups for a few seconds, on loopback) and timed by no
assertion: the long run, with its figures, is tests/benchmarks/class_load.py.
"""

from __future__ import annotations

import subprocess
import sys

from classload import measure


def test_groups_side_by_side_lose_nothing_and_projectors_miss_nothing() -> None:
    result = measure(groups=12, every=0.1, seconds=3.0, projectors=3, clients=2, readers=1)
    assert (result["clients"], result["readers"], result["projectors"]) == (2, 1, 3)
    assert result["rolls"] >= 12
    assert (result["errors"], result["lost"], result["twice"], result["missed"]) == (0, 0, 0, 0)
    # Every projector saw every roll, and its delay is measured across processes.
    assert result["projector_p99_ms"] > 0
    assert result["rss_start_mb"] > 0
    assert result["cpu_ms_a_roll"] > 0


def test_the_server_freezes_what_start_up_made_and_lets_the_young_die_young() -> None:
    """Once serving, a full collection scans none of what start-up made (it is
    frozen), and the young generation holds :data:`~aces.collector.SELDOM`
    objects, so a roll's short-lived objects are not moved to the oldest."""
    code = ("import gc; from aces.collector import SELDOM; from aces.server.serve import steady;"
            " steady();"
            " print(gc.get_freeze_count(), gc.get_threshold() == SELDOM,"
            " len(gc.get_objects(2)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    frozen, young, oldest = done.stdout.split()
    assert int(frozen) > 10_000
    assert young == "True"
    assert int(oldest) < 100


def test_the_server_keeps_the_rules_decisions_within_what_a_class_fills_early() -> None:
    """Once serving, every game's memo of decisions is bounded by
    :data:`~aces.server.serve.DECISIONS`, not by its default (20 MB for Aces
    in the Pot), which a class filled for the whole of a lesson, its memory
    growing with it."""
    code = ("import aces.games, aces.rules as rules; from aces.rules import pot;"
            " from aces.server.serve import DECISIONS, steady;"
            " before = pot._DECIDED.budget; steady();"
            " print(before > DECISIONS, pot._DECIDED in rules._DECISIONS,"
            " all(memo.budget == DECISIONS for memo in rules._DECISIONS))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == ["True", "True", "True"]
