"""Names that look alike: Unicode's confusable skeleton (UTS #39, section 4).

Two strings are confusable when their *skeletons* are equal: each is
decomposed (NFD), every character is replaced by the prototype Unicode
gives for its look-alikes (Cyrillic «\u0412» and «\u043e» by Latin «B» and «o»,
«ø» by «o» and a slash, «m» by «rn»), and the result decomposed again.
Latin «Bo» and Cyrillic «\u0412\u043e» at one table are then one name to the eye,
and refused (:func:`aces.rules.check_names`).

The look-alikes are Unicode's own list, confusables.txt, as the package
``confusable_homoglyphs`` ships it (kept in step with Unicode, and in
Debian): a table of pairs, each character beside its prototype. Every
group of look-alikes there is a star, one prototype with its
look-alikes around it (the module's tests check this), so each
character's prototype is the centre of its star. The table is read once,
when a name first needs a skeleton.

>>> skeleton("Bo") == skeleton("\u0412\u043e"), skeleton("Bo") == skeleton("Bu")
(True, False)
"""

from __future__ import annotations

import functools
import json
import typing as t
import unicodedata

__all__ = ["first_difference", "prototypes", "skeleton"]

#: The package whose data holds Unicode's look-alikes, and its file.
_SOURCE: t.Final = ("confusable_homoglyphs", "confusables.json")
#: A mark the table's source puts around right-to-left characters: no part of them.
_LRM: t.Final = "\u200e"


def skeleton(text: str) -> str:
    """The skeleton of ``text``: equal for two strings exactly when they look alike.

    >>> skeleton("Tom") == skeleton("Torn"), skeleton("Bjørn") == skeleton("Bjo\u0338rn")
    (True, True)
    """
    if text.isascii():
        # Names typed on an English keyboard need not load Unicode's table:
        # its few ASCII look-alikes are these (a test checks them against it).
        return text.translate(_ASCII)
    table = prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join([table.get(c, c) for c in decomposed]))


#: The prototypes of the ASCII characters that have one in Unicode's table
#: (:func:`prototypes` restricted to ASCII): reading the table costs a tenth
#: of a second, and most tables of players never need more than these.
_ASCII: t.Final = str.maketrans({'"': "''", "%": "\u00ba/\u2080", "0": "O", "1": "l", "I": "l",
                                 "`": "'", "m": "rn", "|": "l"})


@functools.cache
def prototypes() -> dict[str, str]:
    """Each character that has a prototype, and the prototype (one or more characters)."""
    # importlib.resources costs a start-up that a log of plain names never needs.
    from importlib import resources

    data = json.loads(resources.files(_SOURCE[0]).joinpath(_SOURCE[1]).read_bytes())
    alike: dict[str, set[str]] = {}
    for char, entries in data.items():
        one = char.replace(_LRM, "")
        for entry in entries:
            other = entry["c"].replace(_LRM, "")
            if other != one:
                alike.setdefault(one, set()).add(other)
                alike.setdefault(other, set()).add(one)
    table: dict[str, str] = {}
    for char, others in alike.items():
        if len(char) != 1 or len(others) != 1:
            # A prototype of several look-alikes stands for itself, and
            # only single characters are ever replaced.
            continue
        (other,) = others
        if len(alike[other]) > 1 or len(other) > 1:
            table[char] = other
        elif other < char:
            # A pair alone: either may stand for both.
            table[char] = other
    # A prototype is written with characters that may stand for others (a
    # slash over an «o», chosen above as the prototype of its pair): the
    # same characters everywhere, so that replacing is done once for all.
    for char, prototype in table.items():
        table[char] = "".join([table.get(c, c) for c in prototype])
    return table


def first_difference(first: str, second: str) -> tuple[str, str] | None:
    """The first characters in which two names differ, in NFC; ``None`` if
    one only goes on where the other stops.

    >>> first_difference("Bo", "B\u043e")
    ('o', '\u043e')
    """
    for one, other in zip(unicodedata.normalize("NFC", first),
                          unicodedata.normalize("NFC", second), strict=False):
        if one != other:
            return one, other
    return None
