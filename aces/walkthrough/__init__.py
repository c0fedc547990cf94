"""A log told as a lesson: the replay's narration, with each rule explained once.

A walkthrough is what ``aces replay`` says, event by event, plus a short
aside the first time a rule comes into play (the first ace, the first six,
the first missed turn, the start of the finish...), and the standings as a
small table whenever they change. It is built as a list of parts, already
in the reader's language, and rendered as Markdown, reStructuredText or
plain text; the documentation's directive (:mod:`aces.sphinxext`) turns
the same parts into a page. Nothing here reads a file or prints.

Each job has a module of its own: what a walkthrough is made of
(:mod:`~aces.walkthrough.parts`), the asides' texts
(:mod:`~aces.walkthrough.texts`), when each game's rules come into play
(:mod:`~aces.walkthrough.pot`, :mod:`~aces.walkthrough.fivedice`: the
rulebooks the games register), the visitors that gather the parts
(:mod:`~aces.walkthrough.visitors`) and the renderers
(:mod:`~aces.walkthrough.render`). This package names what a caller uses.

Worked example E1 of the rulings, as a walkthrough:

>>> from aces.i18n import translations
>>> from aces.log import read
>>> with open("replays/e1-last-chip.jsonl", "rb") as log:
...     parts = walkthrough(read(log, "E1"), "E1", translations("en"), "en")
>>> text = render(parts, "text")
>>> print(text[text.index("Cy rolls 1-6."):].split(2 * chr(10))[0])
Cy rolls 1-6.
Cy puts 1 chip in the pot.
Cy passes 1 chip to Ada on the left.
>>> [part.rule for part in parts if isinstance(part, Aside)][:3]
['left', 'ace', 'six']
"""

from __future__ import annotations

from aces.walkthrough.parts import Aside, Part, Standings, Told
from aces.walkthrough.render import (
    FORMATS,
    Format,
    escape_markdown,
    escape_rst,
    render,
    render_stream,
)
from aces.walkthrough.texts import RULES, TURNING_POINTS, explain
from aces.walkthrough.visitors import (
    CHANCES_CHUNK,
    MOST_ESTIMATED,
    Corrected,
    Walkthrough,
    one_game,
    stream,
    walkthrough,
)

__all__ = ["CHANCES_CHUNK", "FORMATS", "MOST_ESTIMATED", "RULES", "TURNING_POINTS", "Aside",
           "Corrected", "Format", "Part", "Standings", "Told", "Walkthrough", "escape_markdown",
           "escape_rst", "explain", "one_game", "render", "render_stream", "stream",
           "walkthrough"]
