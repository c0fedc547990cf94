"""The help as click lays it out, but never broken at a hyphen.

Click wraps the help with :mod:`textwrap`, which may end a line at a
hyphen inside a word: an option's value (``five-dice``, ``last-holder``)
or an option (``--threes-to``) would then be split in two, and a reader
would type half of it. Click offers no setting for this (its
``wrap_text`` builds the wrapper itself, pallets/click#3362), so
:class:`HelpFormatter` hands click the text with every hyphen
replaced by a character textwrap does not break at, one column wide like
the hyphen, and puts the hyphens back in what it returns. Every command
of ``aces`` uses it through its :class:`Context`.

>>> formatter = HelpFormatter(width=46)
>>> formatter.write_dl([("--game", "Which game: Aces in the Pot (pot) or Aces, the"
...                                " five-dice game (five-dice).")])
>>> print(formatter.getvalue(), end="")
--game  Which game: Aces in the Pot (pot) or
        Aces, the five-dice game
        (five-dice).
"""

from __future__ import annotations

import typing as t

import click

if t.TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["Context", "HelpFormatter"]

#: Stands for a hyphen while click wraps: a character of Unicode's private
#: use area, which no help text contains.
_HYPHEN: t.Final = "\ue000"


#: The least room the help of an option has beside it, in columns.
TEXT_WIDTH: t.Final = 30


def _held(text: str) -> str:
    return text.replace("-", _HYPHEN)


class HelpFormatter(click.HelpFormatter):
    """Click's formatter, whose lines end only where there is a space."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        super().write_usage(_held(prog), _held(args), prefix)

    def write_text(self, text: str) -> None:
        super().write_text(_held(text))

    def write_dl(self, rows: Iterable[tuple[str, str]], col_max: int = 30,
                 col_spacing: int = 2) -> None:
        # On a narrow terminal the options' column gives way, so that the
        # help beside it keeps room for a long word («(femterningspillet).»),
        # which click would otherwise cut anywhere to fit.
        col_max = max(min(col_max, self.width - TEXT_WIDTH - col_spacing - 2), 10)
        super().write_dl([(_held(term), _held(text)) for term, text in rows], col_max,
                         col_spacing)

    def getvalue(self) -> str:
        return super().getvalue().replace(_HYPHEN, "-")


class Context(click.Context):
    """A command's context, laying its help out with :class:`HelpFormatter`."""

    formatter_class = HelpFormatter
