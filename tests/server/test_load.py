"""The live class under load, short: groups posting rolls side by side while
projectors listen, every acknowledged roll in its log once and every block
on every projector once, in the feed's order.

Bounded (a dozen groups for a few seconds, on loopback) and timed by no
assertion: the long run, with its figures, is tests/benchmarks/class_load.py.
"""

from __future__ import annotations

from classload import measure


def test_groups_side_by_side_lose_nothing_and_projectors_miss_nothing() -> None:
    result = measure(groups=12, every=0.1, seconds=3.0, projectors=3)
    assert result["rolls"] >= 12
    assert (result["errors"], result["lost"], result["twice"], result["missed"]) == (0, 0, 0, 0)
