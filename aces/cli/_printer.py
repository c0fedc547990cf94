"""The narration of ``aces replay``, written out as the walk goes."""

from __future__ import annotations

import typing as t

from aces.walk import Visitor

if t.TYPE_CHECKING:
    from collections.abc import Callable

    from aces.narrate import Narrator
    from aces.walk import Step

__all__ = ["Printer"]

#: Lines gathered before each write: big enough that writing costs little.
_BATCH: t.Final = 4096


class Printer(Visitor[bool]):
    """Tells a walk on ``out`` as it goes, a batch of lines at a time.

    With ``pause``, everything told is written out before each roll and
    ``pause`` is called (it waits for Enter), until it says that there is
    nothing more to wait for. Its result: whether the log held any event.
    """

    def __init__(self, narrator: Narrator, out: t.TextIO,
                 pause: Callable[[], bool] | None = None) -> None:
        self.narrator = narrator
        self.out = out
        self.pause = pause
        self.seen = False
        if pause is None:
            self.visit = self._visit_straight  # type: ignore[method-assign]

    def visit(self, step: Step[t.Any]) -> None:
        narrator = self.narrator
        self.seen = True
        if self.pause is not None and narrator.is_roll(step):
            narrator.settle()
            self.flush()
            if not self.pause():
                self.pause = None
        narrator.visit(step)
        if len(narrator.lines) >= _BATCH:
            self._write()

    def _visit_straight(self, step: Step[t.Any]) -> None:
        """:meth:`visit` without pauses: the replay of a whole log, a million
        steps maybe, each as cheap as it can be."""
        narrator = self.narrator
        narrator.visit(step)
        if len(narrator.lines) >= _BATCH:
            self._write()
        self.seen = True

    def end(self) -> None:
        if self.seen:
            self.narrator.end()

    def result(self) -> bool:
        return self.seen

    def flush(self) -> None:
        """Write whatever is told and not yet written."""
        self._write()
        self.out.flush()

    def _write(self) -> None:
        lines = self.narrator.take()
        if lines:
            lines.append("")
            self.out.write("\n".join(lines))
