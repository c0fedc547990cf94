"""One language's words and number formats, looked up once and kept.

A :class:`Voice` is the package's one locale-bound formatter, as
``babel.support.Format`` is Babel's: the catalog of a language and every
way a number, a count or a list is written in it. The narration, the
reports of ``aces odds``, ``aces simulate`` and ``aces stats``, the
notebook views and the lessons' tables all write through one.

A replay tells the same few sentences hundreds of thousands of times, so
every translation and every Babel format is worked out on first use and
cached: the narration of a big log costs a dictionary lookup per event,
not a catalog search or a Babel call.

>>> from aces.i18n import translations
>>> voice = Voice(translations("nb"), "nb")
>>> voice.number(20000)
'20\\xa0000'
>>> voice.names(["Ada", "Bo", "Cy"])
'Ada, Bo og Cy'
>>> Voice(translations("en"), "en").names(["Ada", "Bo", "Cy"])
'Ada, Bo, and Cy'
>>> voice.dice((1, 6))
'1-6'
>>> voice.percent(0.1734), voice.decimal(1234.5), Voice.of("en").integer(10**20)
('17,3\xa0%', '1\xa0234,50', '1.0E20')
"""

from __future__ import annotations

import functools
import math
import typing as t

from babel.core import Locale
from babel.lists import format_list
from babel.numbers import NumberPattern, format_decimal, parse_pattern

from aces import numbers
from aces.i18n import babel_locale, translations
from aces.memo import OBJECT, Memo, weigh

if t.TYPE_CHECKING:
    import gettext
    from collections.abc import Sequence
    from fractions import Fraction

__all__ = ["Voice", "line_start", "parsed_locale"]


#: The bytes each of a voice's memos may hold.
_BUDGET: t.Final = 2 << 20
#: The percent patterns a voice keeps parsed, one for each number of decimals.
_PATTERNS: t.Final = 8
#: What stands for each item of a list while Babel makes its words: no
#: pattern of a language holds it.
_ITEM: t.Final = "\x00"


class Voice:
    """Translations and Babel formatting for one language, with caches."""

    def __init__(self, catalog: gettext.NullTranslations, lang: str) -> None:
        self.lang = lang
        self.catalog = catalog
        self.locale = babel_locale(lang)
        # Babel parses a number's pattern afresh on every call given it as
        # text, as it does a locale's name (see parsed_locale): parsed once
        # here and handed over parsed.
        self._babel = parsed_locale(self.locale)
        self._decimal = parse_pattern(self._babel.decimal_formats[None])
        # Bound methods under their gettext names, so that message
        # extraction finds ``voice.gettext("...")`` calls like any other.
        self.gettext = catalog.gettext
        self.ngettext = catalog.ngettext
        self.pgettext = catalog.pgettext
        self.npgettext = catalog.npgettext
        self._numbers: Memo[int, str] = Memo(_BUDGET)
        self._lists: Memo[tuple[str, ...], str] = Memo(_BUDGET)
        #: By a list's length, the words before, between and after its items.
        self._gaps: Memo[int, list[str]] = Memo(_BUDGET)
        #: Percentages and decimals written, by value and decimals (:func:`_key`).
        self._shares: Memo[tuple[float, int, float], str] = Memo(_BUDGET)
        self._decimals: Memo[tuple[float, int, float], str] = Memo(_BUDGET)
        self._words = _words(catalog.pgettext)
        #: By the decimals asked for, the percent pattern, parsed.
        self._percents: dict[int, NumberPattern] = {}

    @classmethod
    def of(cls, lang: str) -> Voice:
        """The voice of an offered language, with its catalog.

        :raises ~aces.errors.OptionError: for a language not offered.
        """
        return cls(translations(lang), lang)

    def number(self, value: int) -> str:
        """A whole number as the language writes it, every digit of it (``20,000``,
        ``20 000``): a count in the narration."""
        text = self._numbers.get(value)
        if text is None:
            text = self._numbers.keep(value, format_decimal(value, self._decimal,
                                                             locale=self._babel), 160)
        return text

    def count(self, value: int) -> str:
        """A count in running text: in words from 2 to 12 where the language
        writes small counts so (Norwegian: «to seksere»), else as :meth:`number`.

        One is left to the singular form of each message, which knows the
        gender of what is counted («én sjetong», «ett ess»).

        >>> from aces.i18n import translations
        >>> nb = Voice(translations("nb"), "nb")
        >>> nb.count(2), nb.count(12), nb.count(13), nb.count(20000)
        ('to', 'tolv', '13', '20\xa0000')
        >>> Voice(translations("en"), "en").count(2)
        '2'
        """
        word = self._words.get(value)
        return self.number(value) if word is None else word

    def names(self, items: Sequence[str], *, keep: bool = True) -> str:
        """A list as the language writes it (``Ada, Bo, and Cy``, ``Ada, Bo og Cy``):
        of names, or of any words. Not ``keep``: a list not said again (a
        session's tally, its counts growing game by game), made without
        taking a place in the memo from those that are."""
        key = tuple(items)
        text = self._lists.get(key) if keep else None
        if text is None:
            text = self._list(key)
            if keep:
                self._lists.keep(key, text, weigh(key) + weigh(text))
        return text

    def _list(self, items: tuple[str, ...]) -> str:
        """:meth:`names` afresh: Babel's list of as many items, made once for
        each length and filled in. Babel puts the items into the language's
        patterns as they are, in order, so a list of empty strings gives
        the words between them (a tally after each game lists new counts,
        and Babel's own call reads the patterns from the locale anew)."""
        between = self._gaps.get(len(items))
        if between is None:
            marked = format_list([_ITEM] * len(items), locale=self._babel)
            between = self._gaps.keep(len(items), marked.split(_ITEM),
                                      weigh(marked) + OBJECT * (len(items) + 1))
        if len(between) != len(items) + 1:  # a language's words that hold the mark
            return format_list(list(items), locale=self._babel)
        parts = [between[0]]
        for item, after in zip(items, between[1:], strict=True):
            parts += (item, after)
        return "".join(parts)

    def integer(self, value: int) -> str:
        """A whole number in a report: as :meth:`number`, and from
        :data:`aces.numbers.HUGE` on in scientific notation (``5.8E41`` states)."""
        if -numbers.HUGE < value < numbers.HUGE:
            return self.number(value)
        return numbers.integer(value, self.lang)

    def decimal(self, value: float, digits: int = 2) -> str:
        """A number with ``digits`` decimals (``1,234.50``, ``1 234,50``)."""
        return _kept(self._decimals, value, digits, self._write_decimal)

    def percent(self, value: float, digits: int = 1) -> str:
        """A share as a percentage with ``digits`` decimals (``17.3%``, ``17,3 %``):
        :func:`aces.numbers.percent`, with the pattern parsed once, and each
        value's text kept: a class's pool writes thousands of percentages
        twice a second, nearly all of them the same as the last time (the
        shares and intervals of groups that finished no game since)."""
        return _kept(self._shares, value, digits, self._write_percent)

    def _write_percent(self, value: float, digits: int) -> str:
        pattern = self._percents.get(digits)
        if pattern is None:
            pattern = parse_pattern(numbers.percent_pattern(self._babel, digits))
            if len(self._percents) < _PATTERNS:
                self._percents[digits] = pattern
        return str(pattern.apply(value, self._babel))

    def _write_decimal(self, value: float, digits: int) -> str:
        return numbers.decimal(value, self.lang, digits)

    def fraction(self, value: Fraction) -> str:
        """An exact fraction, ``15,625/46,656``; a whole number stands alone."""
        return numbers.fraction(value, self.lang)

    @staticmethod
    def dice(values: Sequence[int]) -> str:
        """Dice as players call them out, the same in every language: ``1-6``."""
        return "-".join(map(str, values))


@functools.lru_cache(maxsize=16)
def parsed_locale(locale: str) -> Locale:
    """The Babel ``locale``, parsed once for every voice and percentage of it:
    Babel parses a locale given by name afresh on every call, at twenty
    times the cost of the formatting itself.

    >>> parsed_locale("nb_NO") is parsed_locale("nb_NO")
    True
    """
    return Locale.parse(locale)


#: What a number's text kept by its value costs besides the text, roughly:
#: the entry, its key (a tuple of three) and the number.
_FIGURE: t.Final = 4 * OBJECT


def _kept(memo: Memo[tuple[float, int, float], str], value: float, digits: int,
          write: t.Callable[[float, int], str]) -> str:
    """The text of ``value`` with ``digits`` decimals, from ``memo`` where it is
    kept, else as ``write`` writes it, then kept (see :func:`_key`)."""
    key = _key(value, digits)
    text = None if key is None else memo.get(key)
    if text is None:
        text = write(value, digits)
        if key is not None:
            memo.keep(key, text, _FIGURE + len(text))
    return text


def _key(value: float, digits: int) -> tuple[float, int, float] | None:
    """What a number's text with ``digits`` decimals is kept by: its value and
    its sign (``-0.0`` equals ``0.0`` and is written ``-0.0``); ``None`` for
    NaN, which equals nothing, so is never found again.

    >>> _key(0.25, 1), _key(-0.0, 1) == _key(0.0, 1), _key(float("nan"), 1)
    ((0.25, 1, 1.0), False, None)
    """
    if value != value:
        return None
    return (value, digits, math.copysign(1.0, value))


def line_start(text: str) -> str:
    """``text`` as the start of a line: a capital first letter, for a line
    that opens with a count in words.

    >>> line_start("fire spelarar, to sjetongar kvar"), line_start("4 players")
    ('Fire spelarar, to sjetongar kvar', '4 players')
    """
    return text[:1].upper() + text[1:]


def _words(pgettext: t.Callable[[str, str], str]) -> dict[int, str]:
    """The small counts a language writes in words; a figure translated as
    itself (English, the source) stays a figure."""
    words = {
        # Translators: the number 2 as running text writes a small count, as
        # in "Bo passes two chips"; keep the figure if your language writes
        # figures there (English does). The same for 3 to 12 below.
        2: pgettext("count in words", "2"),
        # Translators: the number 3 in words (see 2).
        3: pgettext("count in words", "3"),
        # Translators: the number 4 in words (see 2).
        4: pgettext("count in words", "4"),
        # Translators: the number 5 in words (see 2).
        5: pgettext("count in words", "5"),
        # Translators: the number 6 in words (see 2).
        6: pgettext("count in words", "6"),
        # Translators: the number 7 in words (see 2).
        7: pgettext("count in words", "7"),
        # Translators: the number 8 in words (see 2).
        8: pgettext("count in words", "8"),
        # Translators: the number 9 in words (see 2).
        9: pgettext("count in words", "9"),
        # Translators: the number 10 in words (see 2).
        10: pgettext("count in words", "10"),
        # Translators: the number 11 in words (see 2).
        11: pgettext("count in words", "11"),
        # Translators: the number 12 in words (see 2).
        12: pgettext("count in words", "12"),
    }
    return {value: word for value, word in words.items() if word != str(value)}
