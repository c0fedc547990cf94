"""The message model: sentences kept as templates and values until shown.

A message of the package is an English gettext msgid with named
placeholders, and the values that fill them; it is translated only when
someone reads it, in their language. This module holds what every message
is made of: the marks that put a msgid in the catalog (:func:`N_`,
:func:`NP_`), a msgid with a plural (:class:`Plural`), the values that
show themselves in the reader's terms (:class:`Term`, :class:`Names`), and
the one way a template is filled (:func:`fill`), quoting a value in the
language's quotation marks.

>>> fill("unknown game {name!r}", name="dice")
"unknown game 'dice'"
"""

from __future__ import annotations

import string
import typing as t

from babel.lists import format_list

from aces.escape import shown

__all__ = ["NP_", "N_", "QUOTE", "QUOTES", "Gettext", "NGettext", "Names", "OneOf", "Plural",
           "Show", "Term", "fill", "shorten"]

Gettext = t.Callable[[str], str]
NGettext = t.Callable[[str, str, int], str]
#: Writes a value of a message for the reader's language (a number, a list).
Show = t.Callable[[object], object]


def N_(message: str) -> str:  # noqa: N802 - the gettext convention
    """Mark a message for extraction without translating it yet."""
    return message


def NP_(context: str, message: str) -> str:  # noqa: N802 - the gettext convention
    """Mark a message and its context (as ``pgettext`` takes them) for extraction
    without translating it yet; translate it later with ``pgettext(context, message)``."""
    return message


# Translators: how a message quotes what a user typed or a file holds, where
# the message has {name!r}: the language's quotation marks around {text}.
QUOTES: t.Final = N_("'{text}'")


def _identity(message: str) -> str:
    return message


class _Quoting(string.Formatter):
    """``str.format`` whose ``!r`` quotes a value in the language's quotation marks."""

    def __init__(self, quotes: str) -> None:
        self.quotes = quotes

    def convert_field(self, value: t.Any, conversion: str | None) -> t.Any:
        if conversion == "r":
            return self.quotes.format(text=shown(value))
        return super().convert_field(value, conversion)


def fill(template: str, gettext: Gettext = _identity, /, **values: object) -> str:
    """``template.format(**values)``, with every ``{name!r}`` in the quotation
    marks of ``gettext``'s language: the one way a message quotes a value.

    >>> fill("unknown game {name!r}", lambda m: "«{text}»" if m == QUOTES else m, name="x")
    'unknown game «x»'
    """
    if "!r}" not in template:
        return template.format(**values)
    return _Quoting(gettext(QUOTES)).format(template, **values)


class Plural(t.NamedTuple):
    """A message with a singular and a plural msgid, for ``ngettext``: an
    error's, or one a phrasebook names (:mod:`aces.narrate.phrasebook`).

    ``by`` names the value whose number chooses the form, so "1 die" and
    "2 dice" (and a language's own forms) come out right. Extraction
    knows ``Plural`` as a keyword (see scripts/catalogs.py); a translator
    comment goes on the line just above the ``Plural(`` call.
    """

    singular: str
    plural: str
    by: str


class Names(tuple[str, ...]):
    """Names in a message, shown as a list in the reader's language (see
    :func:`aces.numbers.written`); as a format value, in English.

    >>> f"{Names(['Bo', 'Cy'])}"
    'Bo and Cy'
    """

    __slots__ = ()
    #: Babel's style of list: every name ("and").
    style: t.ClassVar[t.Literal["standard", "or"]] = "standard"

    def __format__(self, spec: str) -> str:
        return format(str(format_list(list(self), style=self.style, locale="en")), spec)


class OneOf(Names):
    """Names of which one is meant: a list joined by "or".

    >>> f"{OneOf(['Bo', 'Bob', 'Bodil'])}"
    'Bo, Bob, or Bodil'
    """

    __slots__ = ()
    style = "or"


class Term(str):
    """A word of the command line in a message, an option or a command
    (``--games``, ``aces simulate``), which a program calling the package
    from Python knows by another name, its :attr:`python` (``games=``,
    ``aces.simulate``).

    The command line shows the term as it is; an error shown as Python shows
    an exception (``str(error)``, in a traceback or a notebook) shows the
    other name, so that a pupil in a notebook is never told of an option
    they cannot type there.

    >>> Term("--by-log").python, Term("--rolls", "rolls=True").python
    ('by_log=', 'rolls=True')
    >>> Term("aces simulate").python, f"{Term('--games')} must be at least 1"
    ('aces.simulate', '--games must be at least 1')
    """

    python: str

    def __new__(cls, cli: str, python: str | None = None) -> Term:
        term = super().__new__(cls, cli)
        if python is None:
            python = (cli.removeprefix("--").replace("-", "_") + "=" if cli.startswith("--")
                      else cli.replace(" ", "."))
        term.python = python
        return term

    def spelled(self, python: bool) -> str:
        """The term as the command line names it, or with ``python`` as Python does."""
        return self.python if python else str(self)


#: The longest value from a file quoted in a one-line error.
QUOTE: t.Final = 60


def shorten(value: object, limit: int = QUOTE) -> str:
    """A value from a bad line, short enough to quote in a one-line error.

    >>> shorten("x" * 100, 10)
    'xxxxxxxxxx...'
    """
    text = value if isinstance(value, str) else str(value)
    return text if len(text) <= limit else text[:limit] + "..."
