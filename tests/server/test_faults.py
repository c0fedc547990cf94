"""kill -9 of a class server while groups post rolls, twice: after each
restart every acknowledged roll is in its log, a retried submission is not
written twice, every log verifies, and each page carries on at the right roll.

The long run, fifty trials and more, is tests/benchmarks/class_faults.py.
"""

from __future__ import annotations

import typing as t

from faults import run

if t.TYPE_CHECKING:
    from pathlib import Path


def test_nothing_acknowledged_is_lost_and_nothing_written_twice(tmp_path: Path) -> None:
    stats = run(tmp_path / "class", trials=2, groups=3, seed=11)
    assert stats.trials == 2
    assert stats.acknowledged > 0
    assert stats.resumed_right == 6
