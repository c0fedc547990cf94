"""The exceptions of the package, each able to show itself in one line.

Every error a user can cause is an :class:`AcesError`. It carries a message
template (an English gettext msgid) and its named values, not a finished
sentence, so the command line can show it in the user's language. The CLI
turns these into one line on standard error and a non-zero exit; nothing
else prints a traceback.

>>> err = LogError("game.jsonl", 7, "the sequence number {seq} should be {expected}",
...                seq=9, expected=7)
>>> str(err)
'game.jsonl, line 7: the sequence number 9 should be 7'

An error raised where nobody knows the file (the rules refusing a roll)
gains its place as it passes through code that does know, and keeps its
kind, so a caller can still catch a :class:`RollError`:

>>> try:
...     try:
...         raise RollError("{name} is not at the table", name="Dag")
...     except AcesError as error:
...         raise error.at("game.jsonl", 9)
... except RollError as error:
...     print(error)
game.jsonl, line 9: Dag is not at the table

A message whose words depend on a number is a :class:`Plural`, translated
with ``ngettext`` by the value it names:

>>> str(RollError(Plural("{count} die is left", "{count} dice are left", by="count"), count=1))
'1 die is left'

What an error is made of lives beside it, each in a module of its own and
named here too: the message model (:mod:`aces.messages`: ``N_``,
:class:`Plural`, :class:`Term`...), the escaping of untrusted text
(:mod:`aces.escape`), and why a file could not be used
(:func:`aces.files.os_reason`).
"""

from __future__ import annotations

import typing as t

from aces.catalogs import catalog
from aces.escape import INVISIBLE, shown, visible
from aces.messages import (
    N_,
    NP_,
    QUOTE,
    QUOTES,
    Gettext,
    Names,
    NGettext,
    OneOf,
    Plural,
    Show,
    Term,
    fill,
    shorten,
)
from aces.numbers import written

__all__ = [
    "INVISIBLE",
    "NP_",
    "N_",
    "QUOTE",
    "QUOTES",
    "AcesError",
    "ClassError",
    "DiceFileError",
    "EmptyLogError",
    "GameNumberError",
    "Gettext",
    "LocatedError",
    "LogError",
    "NGettext",
    "Names",
    "OneOf",
    "OptionError",
    "Plural",
    "RollError",
    "SaveError",
    "Show",
    "Term",
    "TruncatedLogError",
    "fill",
    "shorten",
    "shown",
    "visible",
]

# Translators: where an error is, before the error itself.
# {source}: a file name, or <stdin>; {line}: a line number.
_WHERE: t.Final = N_("{source}, line {line}")


def _identity(message: str) -> str:
    return message


def _english(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def _as_is(value: object) -> object:
    return value


def _spelled(value: object, python: bool) -> object:
    """Names that are terms (``--csv or --plot``), each named as the reader knows it."""
    if isinstance(value, Names) and any(isinstance(name, Term) for name in value):
        return type(value)(name.spelled(python) if isinstance(name, Term) else name
                           for name in value)
    return value


def _visible(value: object) -> object:
    return visible(value) if isinstance(value, str) else value


class AcesError(ValueError):
    """Base of every error caused by bad input: a log, a dice file, an option."""

    exit_code: int = 1
    #: The file the error was found in, and its line: filled in by whoever
    #: knows them (:meth:`at`); ``None`` until then.
    source: str | None = None
    line: int | None = None
    #: The language ``str()`` shows the error in: filled in by whoever knows
    #: it (:meth:`speaking`; the public API, for a call made in a language);
    #: ``None``, English as the message is written, until then.
    lang: str | None = None
    #: The stable word that names the error to a program (the live class's
    #: JSON API ``"code"``), whatever the language of the message; ``None``
    #: where its kind names it (:class:`ClassError` always has one).
    code: str | None = None

    def __init__(self, message: str | Plural, /, **values: object) -> None:
        super().__init__(message)
        self.message = message
        self.values = values

    def at(self, source: str, line: int) -> t.Self:
        """This error, placed at ``line`` of ``source`` unless it already has a place.

        The values it quotes are cut to a one-line length, since they may
        come from the file; and an error found in a file is the file's
        fault, not the command line's, so it exits as a file error does.
        Returns the error itself, to ``raise error.at(source, line)``.
        """
        if self.source is None:
            self.source, self.line = source, line
            self.exit_code = AcesError.exit_code
            self.values = {name: shorten(value) if isinstance(value, str) else value
                           for name, value in self.values.items()}
        return self

    def coded(self, code: str) -> t.Self:
        """This error, named ``code``; returns the error itself, to ``raise
        ClassError(...).coded("stale")``."""
        self.code = code
        return self

    def speaking(self, lang: str) -> t.Self:
        """This error, shown by ``str()`` in ``lang`` unless it already has a language.

        Returns the error itself, so it keeps its kind; its other fields are
        untouched.

        >>> error = OptionError("{option} must be at least 1, not {games}",
        ...                     option=Term("--games"), games=0)
        >>> str(error)
        'games= must be at least 1, not 0'
        >>> str(error.speaking("nn"))
        'games= må vere minst 1, ikkje 0'
        >>> str(error.speaking("nb"))  # the first language it was given stays
        'games= må vere minst 1, ikkje 0'
        """
        if self.lang is None:
            self.lang = lang
        return self

    def spoken(self, lang: str, *, python: bool = False) -> str:
        """The whole one-line message in ``lang``, as the command line shows it:
        through that language's catalog, its numbers and lists written the
        language's way; its terms named with ``python`` as Python does.

        >>> LogError("game.jsonl", 1234, "the log ends before the game is over:"
        ...          " {player} should roll next", player="Bo").spoken("nb")
        'game.jsonl, linje 1\xa0234: loggen slutter før partiet er over: Bo står for tur'
        """
        spoken = catalog(lang)
        return self.render(spoken.gettext, spoken.ngettext,
                           lambda value: written(value, lang), python=python)

    def reason(self, gettext: Gettext = _identity, ngettext: NGettext = _english,
               show: Show = _as_is, *, python: bool = False) -> str:
        """The reason alone, translated by ``gettext`` (``ngettext`` for a :class:`Plural`).

        ``show`` writes each value for the reader's language (numbers and
        lists the language's way, see :func:`aces.numbers.written`); the plural
        form is still chosen by the number itself. A value that is itself an
        :class:`AcesError` (an error wrapped in another, say an option error
        found in a log) is translated too. A :class:`Term` is named as the
        command line names it, or with ``python`` as Python does.
        """
        values = {name: value.reason(gettext, ngettext, show, python=python)
                  if isinstance(value, AcesError)
                  else value.spelled(python) if isinstance(value, Term)
                  else _visible(show(_spelled(value, python)))
                  for name, value in self.values.items()}
        message = self.message
        if isinstance(message, Plural):
            count = self.values[message.by]
            assert isinstance(count, int), f"{message.by} chooses a plural form"
            return fill(ngettext(message.singular, message.plural, count), gettext, **values)
        return fill(gettext(message), gettext, **values)

    def render(self, gettext: Gettext = _identity, ngettext: NGettext = _english,
               show: Show = _as_is, *, python: bool = False) -> str:
        """The whole one-line message, translated by ``gettext`` and ``ngettext``:
        where the error is, if known, then why; its terms as the command line
        names them, or with ``python`` as Python does."""
        reason = self.reason(gettext, ngettext, show, python=python)
        if self.source is None:
            return reason
        where = gettext(_WHERE).format(source=visible(self.source), line=show(self.line))
        return f"{where}: {reason}"

    def __str__(self) -> str:
        """The message as Python shows an exception, in a traceback or a notebook:
        raised to a program calling the package, so its terms are named as Python
        names them (the command line renders its errors itself, :meth:`render`).

        >>> print(OptionError("{option} must be at least 1", option=Term("--games")))
        games= must be at least 1

        With a :attr:`lang`, in that language, as the command line would show it.
        """
        if self.lang is None:
            return self.render(python=True)
        return self.spoken(self.lang, python=True)


class SaveError(AcesError):
    """A roll that cannot be saved in the log being recorded (a full disk, a
    log removed underneath): recording stops, at a terminal too."""


class OptionError(AcesError):
    """A command-line option or game option that the rules cannot accept."""

    exit_code = 2


class GameNumberError(OptionError, IndexError):
    """A game a log or a session does not hold, asked for by its index: an
    :class:`IndexError` too, as Python's sequences raise."""


class LocatedError(AcesError):
    """An error at a line of a named file, from the start."""

    source: str
    line: int

    def __init__(self, source: str, line: int, message: str | Plural, /,
                 **values: object) -> None:
        super().__init__(message, **values)
        self.source = source
        self.line = line


class LogError(LocatedError):
    """A game log that is malformed, or that contradicts the rules."""


class TruncatedLogError(LogError):
    """A log whose last line stops part-way: cut short, not corrupted."""


class DiceFileError(AcesError):
    """Typed dice that cannot be played as written: a line of a dice file, or
    of the rolls typed into ``aces record``.

    The reader of a line does not know where the line came from; the file
    or the session that does places it (:meth:`AcesError.at`), so the error
    keeps its kind all the way to the caller.
    """


class RollError(AcesError):
    """A roll the rules refuse, such as a die given to someone not at the table.

    The rules do not know where a roll came from; whoever does (the log
    walk, the dice file) places it at its line (:meth:`AcesError.at`).
    """


class EmptyLogError(AcesError):
    """A log with no events at all."""


class ClassError(AcesError):
    """A request the live class refuses (``aces class serve``): a wrong code or
    token, a roll for a moment that has passed, recording paused.

    :attr:`code` names the refusal in a stable word that a program reads
    (the JSON API's ``"code"``), whatever the language of the message.
    """

    code: str = "refused"
