"""Numbers and tables as a reader of the language expects them.

The one implementation of the package's number formats: bound to a
language by :class:`aces.voice.Voice` for every writer of a report, and
used by every error and notice (:func:`written`). Percentages, decimals
and whole numbers are formatted with Babel for the language (Norwegian
writes ``17,3 %`` and ``12 345``, English ``17.3%`` and ``12,345``),
fractions are written ``4/9``, and rows are lined up in columns.

>>> percent(0.1734, "nb")
'17,3\\xa0%'
>>> decimal(1234.5, "en", 2)
'1,234.50'
>>> print(table([["seat", "chance"], ["0", "26.1%"], ["1", "3.0%"]]))
seat  chance
0      26.1%
1       3.0%
"""

from __future__ import annotations

import typing as t
from decimal import Decimal

from babel import Locale
from babel.lists import format_list
from babel.numbers import format_decimal, format_percent, format_scientific

from aces.catalogs import babel_locale
from aces.messages import Names

if t.TYPE_CHECKING:
    from collections.abc import Sequence
    from fractions import Fraction

__all__ = ["HUGE", "decimal", "fraction", "integer", "percent", "percent_pattern", "table",
           "written"]

#: Whole numbers from here on are written like ``5.8E41``: the count of
#: states of a game far too big to solve, say.
HUGE: t.Final = 10**18


def percent(value: float, lang: str, digits: int = 1) -> str:
    """A chance as a percentage with ``digits`` decimals, in the language's way."""
    locale = babel_locale(lang)
    return str(format_percent(value, percent_pattern(Locale.parse(locale), digits),
                              locale=locale))


def percent_pattern(locale: Locale, digits: int) -> str:
    """The Babel ``locale``'s percent pattern with ``digits`` decimals (``#,##0.0%``)."""
    pattern = str(locale.percent_formats[None].pattern)
    if digits:
        head, _, tail = pattern.rpartition("0")
        pattern = f"{head}0.{'0' * digits}{tail}"
    return pattern


def decimal(value: float, lang: str, digits: int = 2) -> str:
    """A number with ``digits`` decimals."""
    pattern = f"#,##0.{'0' * digits}" if digits else "#,##0"
    return str(format_decimal(value, pattern, locale=babel_locale(lang)))


def integer(value: int, lang: str) -> str:
    """A whole number, grouped by thousands as the language does; from
    :data:`HUGE` on, in scientific notation, whose digits say enough.

    >>> integer(1234567, "nb"), integer(58 * 10**40, "en")
    ('1\xa0234\xa0567', '5.8E41')
    """
    locale = babel_locale(lang)
    if abs(value) >= HUGE:
        # Babel rounds through a decimal context of 28 digits, decimals
        # included, and fails on whole numbers of 25 digits or more.
        return str(format_scientific(Decimal(value), "0.0E0", locale=locale))
    return str(format_decimal(value, locale=locale))


def fraction(value: Fraction, lang: str | None = None) -> str:
    """``4/9``; a whole number stands alone. With ``lang``, the numerator and
    the denominator are grouped by thousands as the language does.

    >>> from fractions import Fraction
    >>> fraction(Fraction(2, 36)), fraction(Fraction(1)), fraction(Fraction(15625, 46656), "nb")
    ('1/18', '1', '15\xa0625/46\xa0656')
    """
    if lang is None:
        return str(value)
    if value.denominator == 1:
        return integer(value.numerator, lang)
    return f"{integer(value.numerator, lang)}/{integer(value.denominator, lang)}"


def table(rows: Sequence[Sequence[str]], indent: str = "") -> str:
    """Rows in columns: the first column to the left, the others to the right."""
    widths = [max(len(row[col]) for row in rows) for col in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [row[0].ljust(widths[0])]
        cells += [cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)]
        lines.append(indent + "  ".join(cells).rstrip())
    return "\n".join(lines)


def written(value: object, lang: str) -> object:
    """A value of a message as a reader of ``lang`` expects it: whole numbers
    grouped by thousands (a count, a line number, a limit) and decimals with
    the language's decimal mark, names as the language lists them; anything
    else as it is. The one way a number reaches an error or a notice.

    >>> written(2.0, "nb"), written(0.125, "en"), written(12345, "nb"), written("Bo", "nb")
    ('2,0', '0.125', '12\xa0345', 'Bo')
    >>> written(12345, "en"), written(10**20, "en"), written(True, "en")
    ('12,345', '1.0E20', True)
    >>> written(Names(["Bo", "Cy"]), "nb")
    'Bo og Cy'
    """
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return integer(value, lang)
    if isinstance(value, float):
        return str(format_decimal(value, "#,##0.0##", locale=babel_locale(lang)))
    if isinstance(value, Names):
        return str(format_list(list(value), style=value.style, locale=babel_locale(lang)))
    return value
