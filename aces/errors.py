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
"""

from __future__ import annotations

import errno
import re
import string
import typing as t
import unicodedata

__all__ = [
    "INVISIBLE",
    "NP_",
    "N_",
    "QUOTE",
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
    "os_reason",
    "shorten",
    "shown",
    "visible",
]

Gettext = t.Callable[[str], str]
NGettext = t.Callable[[str, str, int], str]


def _identity(message: str) -> str:
    return message


Show = t.Callable[[object], object]


def _english(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def _as_is(value: object) -> object:
    return value


class Names(tuple[str, ...]):
    """Names in a message, shown as a list in the reader's language.

    >>> f"{Names(['Bo', 'Cy'])}", Names(['Bo', 'Cy']).shown("nb")
    ('Bo and Cy', 'Bo og Cy')
    """

    __slots__ = ()
    #: Babel's style of list: every name ("and").
    style: t.ClassVar[t.Literal["standard", "or"]] = "standard"

    def shown(self, lang: str) -> str:
        """The names as a list in ``lang``."""
        from babel.lists import format_list

        from aces.i18n import babel_locale

        return str(format_list(list(self), style=self.style, locale=babel_locale(lang)))

    def __format__(self, spec: str) -> str:
        return format(self.shown("en"), spec)


class OneOf(Names):
    """Names of which one is meant: a list joined by "or".

    >>> f"{OneOf(['Bo', 'Bob', 'Bodil'])}", OneOf(['Bo', 'Bob']).shown("nb")
    ('Bo, Bob, or Bodil', 'Bo eller Bob')
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


def N_(message: str) -> str:  # noqa: N802 - the gettext convention
    """Mark a message for extraction without translating it yet."""
    return message


def NP_(context: str, message: str) -> str:  # noqa: N802 - the gettext convention
    """Mark a message and its context (as ``pgettext`` takes them) for extraction
    without translating it yet; translate it later with ``pgettext(context, message)``."""
    return message


# Translators: where an error is, before the error itself.
# {source}: a file name, or <stdin>; {line}: a line number.
_WHERE: t.Final = N_("{source}, line {line}")

# Translators: how a message quotes what a user typed or a file holds, where
# the message has {name!r}: the language's quotation marks around {text}.
QUOTES: t.Final = N_("'{text}'")


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

    >>> fill("unknown game {name!r}", name="dice")
    "unknown game 'dice'"
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


#: The longest value from a file quoted in a one-line error.
QUOTE: t.Final = 60


def shorten(value: object, limit: int = QUOTE) -> str:
    """A value from a bad line, short enough to quote in a one-line error.

    >>> shorten("x" * 100, 10)
    'xxxxxxxxxx...'
    """
    text = value if isinstance(value, str) else str(value)
    return text if len(text) <= limit else text[:limit] + "..."


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
    quotes goes through here (:meth:`AcesError.reason`, and :func:`shown`
    for a quoted one), as do the notices of ``aces record``.

    >>> print(visible("Bo" + chr(0x1B) + "]0;PWNED" + chr(7) + " " + chr(0x202E) + "oB"))
    Bo\\x1b]0;PWNED\\x07 \\u202eoB
    >>> visible("Åse 🎲")
    'Åse 🎲'
    """
    if text.isprintable() and not INVISIBLE.search(text):
        return text
    return "".join(c if _shows(c) else _escape(c) for c in text)


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
        from aces.cli._numbers import shown as written
        from aces.i18n import translations

        catalog = translations(lang)
        return self.render(catalog.gettext, catalog.ngettext,
                           lambda value: written(value, lang), python=python)

    def reason(self, gettext: Gettext = _identity, ngettext: NGettext = _english,
               show: Show = _as_is, *, python: bool = False) -> str:
        """The reason alone, translated by ``gettext`` (``ngettext`` for a :class:`Plural`).

        ``show`` writes each value for the reader's language (numbers and
        lists the language's way, see :mod:`aces.cli._numbers`); the plural
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

    def coded(self, code: str) -> t.Self:
        """This error, named ``code``; returns the error itself, to ``raise
        ClassError(...).coded("stale")``."""
        self.code = code
        return self


def os_reason(error: OSError) -> AcesError | str:
    """Why a file could not be used, in words that can be translated.

    The operating system words its reasons in English whatever the user's
    language; the common ones get a message of ours, the rare ones keep the
    system's words.

    >>> import errno
    >>> str(os_reason(FileNotFoundError(errno.ENOENT, "No such file or directory")))
    'no such file or folder'
    """
    message = _OS_REASONS.get(error.errno) if error.errno is not None else None
    if message is None:
        return error.strerror or str(error)
    return AcesError(message)


_OS_REASONS: t.Final = {
    errno.ENOENT: N_("no such file or folder"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("permission denied"),
    errno.EISDIR: N_("it is a folder, not a file"),
    errno.ENOTDIR: N_("a part of the path is not a folder"),
    errno.ENOSPC: N_("no space left on the disk"),
    errno.EROFS: N_("the disk is read-only"),
    errno.EEXIST: N_("the file already exists"),
    # Translators: why a file cannot be written: the file system allows no file
    # this big (a memory stick's FAT, say).
    errno.EFBIG: N_("the file is too big for this disk"),
    # Translators: why a file cannot be written: the user's share of the disk (a
    # disk quota, as school networks set) is used up.
    errno.EDQUOT: N_("your share of the disk is used up"),
    errno.ENAMETOOLONG: N_("the name is too long"),
    # Translators: why standard output cannot be written: the shell closed it (">&-").
    errno.EBADF: N_("it is closed"),
}
