"""What the tests of a game's narration share: a log told in a language,
and the lines a story must tell, in order."""

from __future__ import annotations

import io
import typing as t

from aces.i18n import translations
from aces.log import read
from aces.narrate import tell

if t.TYPE_CHECKING:
    from collections.abc import Sequence


def story(log: bytes, lang: str) -> list[str]:
    """Every line ``aces replay --lang LANG`` prints for ``log``."""
    return tell(read(io.BytesIO(log), "test.jsonl"), "test.jsonl", translations(lang), lang)


def assert_in_order(lines: Sequence[str], expected: Sequence[str]) -> None:
    """Every expected line is told, in this order (other lines may come between)."""
    position = 0
    for line in expected:
        assert line in lines[position:], f"{line!r} missing after line {position}:\n" + \
            "\n".join(lines)
        position = lines.index(line, position) + 1
