"""What tests of a walk's moments share: the table once each roll is settled,
read from a log through the package's own walk."""

from __future__ import annotations

import typing as t

from aces.events import GameStarted, Rolled
from aces.log import read
from aces.walk import walk

if t.TYPE_CHECKING:
    from pathlib import Path


def settled(log: Path) -> tuple[GameStarted, list[t.Any]]:
    """The log's header, and the state once each roll is settled (after the
    events the roll brought about), a state per roll."""
    steps = list(walk(read(log.read_bytes().splitlines(keepends=True), "log"), "log"))
    header = steps[0].event
    assert isinstance(header, GameStarted)
    states: list[t.Any] = []
    for step in steps:
        if isinstance(step.event, Rolled):
            states.append(step.state)
        elif states:
            states[-1] = step.state
    return header, states
