"""Untrusted text made safe to show: the one way it reaches a terminal or markup.

Names, file names and values from a log or a dice file may hold anything.
Before a person reads them they pass through here: :func:`visible` for a
terminal (every control character becomes an escape, as ``repr`` writes
it), :func:`markup` for HTML and SVG (made visible, then every character
that could open markup escaped), :func:`shown` for a value a message
quotes.

>>> print(visible("Bo" + chr(27) + "[2J"), markup("<b>Bo</b>"))
Bo\\x1b[2J &lt;b&gt;Bo&lt;/b&gt;
"""

from __future__ import annotations

import html
import re
import typing as t
import unicodedata

from aces.memo import OBJECT, Memo

__all__ = ["INVISIBLE", "markup", "shown", "visible"]

#: Characters that show nothing, or nothing of their own: format controls
#: (soft hyphen, zero-width spaces and joiners, bidirectional marks, word
#: joiners, the byte-order mark), Hangul fillers, the combining grapheme
#: joiner, Mongolian and Unicode variation selectors, and tags.
INVISIBLE: t.Final = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f"
    "\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0"
    "\U000e0000-\U000e0fff]")


def visible(text: str) -> str:
    """Text from a file, a name or an option, safe to show a person: every
    character that a terminal would obey rather than show (controls, C1
    controls, bidirectional overrides, line separators, anything not
    printable) becomes an escape, as ``repr`` writes it.

    The one way text from input reaches a terminal: every value an error
    quotes goes through here (:meth:`aces.errors.AcesError.reason`, and
    :func:`shown` for a quoted one), as do the notices of ``aces record``.

    >>> print(visible("Bo" + chr(0x1B) + "]0;PWNED" + chr(7) + " " + chr(0x202E) + "oB"))
    Bo\\x1b]0;PWNED\\x07 \\u202eoB
    >>> visible("Åse 🎲")
    'Åse 🎲'
    """
    if text.isprintable() and not INVISIBLE.search(text):
        return text
    return "".join(c if _shows(c) else _escape(c) for c in text)


def markup(text: str) -> str:
    """Untrusted text as HTML or SVG text, in an element or an attribute: made
    :func:`visible` (no control character), then every character that could
    open markup escaped, quotation marks too.

    >>> markup('<img src=x onerror="alert(1)">')
    '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;'
    >>> markup('<b title="x">Bo' + chr(27) + "</b>")
    '&lt;b title=&quot;x&quot;&gt;Bo\\\\x1b&lt;/b&gt;'
    """
    if len(text) > _SHORT:
        return html.escape(visible(text), quote=True)
    found = _MARKED.get(text)
    if found is None:
        made = html.escape(visible(text), quote=True)
        found = _MARKED.keep(text, made, 2 * OBJECT + len(text) + len(made))
    return found


#: Texts :func:`markup` keeps made, up to this length: a class's pool, twice a
#: second, puts some five hundred short texts (numbers, percentages, the
#: logs' names) into its tables, nearly all of them the last pool's.
_SHORT: t.Final = 64
#: The short texts made markup, by the text (1 MB at most, see :mod:`aces.memo`).
_MARKED: t.Final[Memo[str, str]] = Memo(1 << 20)


def shown(value: object) -> str:
    """A value as a message may show it: control characters and line breaks
    escaped (as ``repr`` does), so that nothing a file holds can steer the
    terminal; without quotation marks, which the language chooses.

    >>> print(shown("Ada" + chr(27) + "[2J"), shown("Bo"), shown(7))
    Ada\\x1b[2J Bo 7
    """
    if isinstance(value, str):
        return visible(value)
    return repr(value)


def _shows(char: str) -> bool:
    """Whether a character shows as itself: printable, or a space of any width
    (Babel groups digits with one), and not one of the invisible ones."""
    return ((char.isprintable() or unicodedata.category(char) == "Zs")
            and not INVISIBLE.match(char))


def _escape(char: str) -> str:
    code = ord(char)
    if char in "\t\n\r":
        return repr(char)[1:-1]
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 \
        else f"\\U{code:08x}"
