"""One language's words and number formats, looked up once and kept.

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
"""

from __future__ import annotations

import typing as t

from babel.lists import format_list
from babel.numbers import format_decimal

from aces.i18n import babel_locale
from aces.memo import Memo, weigh

if t.TYPE_CHECKING:
    import gettext
    from collections.abc import Sequence


#: The bytes each of a voice's memos may hold.
_BUDGET: t.Final = 2 << 20


class Voice:
    """Translations and Babel formatting for one language, with caches."""

    def __init__(self, catalog: gettext.NullTranslations, lang: str) -> None:
        self.lang = lang
        self.locale = babel_locale(lang)
        # Bound methods under their gettext names, so that message
        # extraction finds ``voice.gettext("...")`` calls like any other.
        self.gettext = catalog.gettext
        self.ngettext = catalog.ngettext
        self.pgettext = catalog.pgettext
        self.npgettext = catalog.npgettext
        self._numbers: Memo[int, str] = Memo(_BUDGET)
        self._lists: Memo[tuple[str, ...], str] = Memo(_BUDGET)

    def number(self, value: int) -> str:
        """A whole number as the language writes it (``20,000``, ``20 000``)."""
        text = self._numbers.get(value)
        if text is None:
            text = self._numbers.keep(value, format_decimal(value, locale=self.locale), 160)
        return text

    def names(self, items: Sequence[str]) -> str:
        """A list as the language writes it (``Ada, Bo, and Cy``, ``Ada, Bo og Cy``)."""
        key = tuple(items)
        text = self._lists.get(key)
        if text is None:
            text = format_list(list(key), locale=self.locale)
            self._lists.keep(key, text, weigh(key) + weigh(text))
        return text

    @staticmethod
    def dice(values: Sequence[int]) -> str:
        """Dice as players call them out, the same in every language: ``1-6``."""
        return "-".join(map(str, values))
