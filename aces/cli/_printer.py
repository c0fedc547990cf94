"""The narration of ``aces replay``, written out as the walk goes."""

from __future__ import annotations

import typing as t

from aces.walk import Visitor

if t.TYPE_CHECKING:
    from collections.abc import Callable

    from aces.events import Event
    from aces.narrate import Narrator
    from aces.walk import Step

__all__ = ["Printer"]

#: Lines gathered before each write: big enough that writing costs little.
_BATCH: t.Final = 4096


class Printer(Visitor[bool]):
    """Tells a walk on ``out`` as it goes, a batch of lines at a time.

    With ``pause``, everything told is written out before each roll and
    ``pause`` is called (it waits for Enter), until it says that there is
    nothing more to wait for. Without it, every step goes straight to the
    narrator, which hands on its lines a batch at a time
    (:meth:`~aces.narrate.Narrator.hand_on`): the replay of a whole log, a
    million steps maybe, each as cheap as it can be. Its result: whether
    the log held any event.
    """

    def __init__(self, narrator: Narrator, out: t.TextIO,
                 pause: Callable[[], bool] | None = None) -> None:
        self.narrator = narrator
        self.out = out
        self.pause = pause
        narrator.hand_on(self._write, _BATCH)
        if pause is None:
            self.visit = narrator.visit  # type: ignore[method-assign]

    def visit(self, step: Step[t.Any]) -> None:
        narrator = self.narrator
        if self.pause is not None and narrator.is_roll(step):
            narrator.settle()
            self.flush()
            if not self.pause():
                self.pause = None
        narrator.visit(step)

    def end(self) -> None:
        if self.result():
            self.narrator.end()

    def carried(self) -> t.Hashable | None:
        # A replay that waits for Enter is told in one go.
        return self.narrator.carried() if self.pause is None else None

    def passed(self, event: Event) -> None:
        self.narrator.passed(event)

    def result(self) -> bool:
        # Every walk begins with a game's start, which the narrator counts.
        return self.narrator.games > 0

    def flush(self) -> None:
        """Write whatever is told and not yet written."""
        self._write(self.narrator.take())
        self.out.flush()

    def _write(self, lines: list[str]) -> None:
        if lines:
            lines.append("")
            self.out.write("\n".join(lines))
