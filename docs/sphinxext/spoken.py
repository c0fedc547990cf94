r"""Formulas in words: what a screen reader says for a formula drawn as a picture.

A pupil sheet draws its formulas as pictures (:mod:`sphinxext.formulas`); a
picture's text is what a screen reader reads, and TeX read aloud
(«backslash frac, brace, one...») is noise. :func:`spoken` says a formula
in the sheet's language, with the words of the package's catalogs: a
fraction «1 over 6» («1 delt på 6»), a power «q to the power of n»
(«q opphøyd i n», «q opphøgd i n»), «times», «equals», a square root and a
sum by their names. What is more than one word is put in brackets where it
is a fraction's part, a power's base or exponent or a root's argument, so
that «(5 over 6) to the power of 3» cannot be heard as «5 over 6 to the
power of 3». Numbers stay as the language writes them (``33{,}5\,\%`` is
«33,5 %»), brackets as brackets, and letters one by one («q p», not «qp»).

The TeX read is that of the lessons: numbers, letters, ``+ - = / ( ) , .``,
braces, ``^`` and ``_``, and the commands below. Any other command stops the
sheet (and the build), naming the formula, as one that cannot be drawn does.

>>> spoken(r"\frac{5}{6} \cdot \frac{5}{6} = \frac{25}{36}", "en")
'5 over 6 times 5 over 6 equals 25 over 36'
>>> spoken(r"\left(\frac{5}{6}\right)^6", "nn")
'(5 delt på 6) opphøgd i 6'
>>> spoken(r"\sqrt{10} \approx 3{,}2", "nb")
'kvadratroten av 10 er tilnærmet lik 3,2'
"""

from __future__ import annotations

import re
import typing as t

from aces.i18n import translations

if t.TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["SpokenError", "spoken"]

#: A no-break space, between a number's groups and before its per cent sign.
_NBSP: t.Final = "\xa0"
#: Commands that only space the formula out.
_SPACES: t.Final = frozenset({",", ";", ":", "!", " ", "quad", "qquad"})


#: A space before a comma or a stop, which a sentence does not have.
_BEFORE_MARK: t.Final = re.compile(r" (?=[,.])")
_SPACED: t.Final = re.compile(r" {2,}")


class SpokenError(ValueError):
    """A formula that cannot be said in words; the message names it and says why."""


class _Words:
    """The words of one language for what a formula does."""

    def __init__(self, lang: str) -> None:
        _ = translations(lang).gettext
        self.gettext: Callable[[str], str] = _
        # Translators: a formula read aloud on a pupil sheet (the text of its picture,
        # for a screen reader): a fraction. {numerator} and {denominator} are numbers,
        # letters, or a part of a formula in brackets.
        self.fraction = _("{numerator} over {denominator}")
        # Translators: a formula read aloud: a power, as in "q to the power of n".
        self.power = _("{base} to the power of {exponent}")
        # Translators: a formula read aloud: a square root.
        self.root = _("the square root of {argument}")
        # Translators: a formula read aloud: a sum, as in "the sum for j from 1 to k
        # minus 1 of ..."; {index} is a letter, {start} and {end} where it runs.
        self.sum = _("the sum for {index} from {start} to {end} of {term}")
        self.operators = {
            # Translators: a formula read aloud: the sign +.
            "+": _("plus"),
            # Translators: a formula read aloud: the sign - (and a negative number's sign).
            "-": _("minus"),
            # Translators: a formula read aloud: the sign =.
            "=": _("equals"),
            # Translators: a formula read aloud: the sign /, a division.
            "/": _("divided by"),
            # Translators: a formula read aloud: multiplication (the dot and the cross).
            "cdot": _("times"),
            "times": _("times"),
            # Translators: a formula read aloud: the sign ≈.
            "approx": _("is approximately"),
            # Translators: a formula read aloud: the dots … at the end of a list.
            "ldots": _("and so on"),
        }
        self.operators["cdots"] = self.operators["dots"] = self.operators["ldots"]


class _Compound(str):
    """A fraction, a root or a sum in words: a product with one is said with «times»
    («1,96 times the square root of n»), which juxtaposition leaves unheard."""

    __slots__ = ()


def _bracketed(words: str) -> str:
    """A part of a formula as it goes inside a larger one: in brackets if it is more
    than one word and not in brackets already."""
    if " " not in words or _enclosed(words):
        return words
    return f"({words})"


def _enclosed(words: str) -> bool:
    """Whether the words are one bracket: its first ``(`` closes at the end."""
    if not words.startswith("("):
        return False
    depth = 0
    for at, char in enumerate(words):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0:
            return at == len(words) - 1
    return False


class _Reader:
    """Reads TeX from left to right into words."""

    def __init__(self, latex: str, words: _Words) -> None:
        self.latex = latex
        self.at = 0
        self.words = words

    def error(self, why: str) -> SpokenError:
        return SpokenError(f"the formula {self.latex!r} cannot be said in words: {why}")

    def peek(self, ahead: int = 0) -> str:
        where = self.at + ahead
        return self.latex[where] if where < len(self.latex) else ""

    def command(self) -> str:
        """The name of the command at ``\\``, which is read."""
        self.at += 1
        start = self.at
        while self.peek().isalpha():
            self.at += 1
        if self.at == start:
            if not self.peek():
                raise self.error("a backslash at the end")
            self.at += 1
        return self.latex[start:self.at]

    def number(self) -> str:
        """Digits, with the language's decimal sign (``{,}`` or ``.``), its groups
        (``\\,`` between digits) and a per cent sign (``\\%``)."""
        out = []
        while True:
            char = self.peek()
            if char.isdigit():
                out.append(char)
                self.at += 1
            elif self.latex.startswith("{,}", self.at) and self.peek(3).isdigit():
                out.append(",")
                self.at += 3
            elif char == "." and self.peek(1).isdigit():
                out.append(".")
                self.at += 1
            elif self.latex.startswith("\\,", self.at) and self.peek(2).isdigit():
                out.append(_NBSP)
                self.at += 2
            elif self.latex.startswith("\\,\\%", self.at):
                out.append(_NBSP + "%")
                self.at += 4
            elif self.latex.startswith("\\%", self.at):
                out.append("%")
                self.at += 2
            else:
                return "".join(out)

    def argument(self) -> str:
        """One argument: a group in braces, a command, or a single character."""
        while self.peek() == " ":
            self.at += 1
        if self.peek() == "{":
            self.at += 1
            return " ".join(self.expression("}"))
        parts = self.expression("", one=True)
        if not parts:
            raise self.error("an argument is missing")
        return " ".join(parts)

    def expression(self, closing: str, one: bool = False,
                   term: bool = False) -> list[str]:
        """The words up to ``closing`` (read), or the end; ``one`` reads a single
        item; ``term`` stops before a sign that ends a sum's term (+, -, =, ≈)."""
        said: list[str] = []
        while True:
            if one and said:
                return said
            char = self.peek()
            if not char:
                if closing:
                    raise self.error(f"no closing {closing!r}")
                return said
            if closing and self.latex.startswith(closing, self.at):
                self.at += len(closing)
                return said
            if term and (char in "+-=," or self.latex.startswith("\\approx", self.at)):
                return said
            if char.isspace():
                self.at += 1
            elif char.isdigit():
                # A power's or an index's single digit (q^23 is q squared, then 3).
                self.add(said, char if one else self.number())
                self.at += 1 if one else 0
            elif char.isalpha():
                self.add(said, char)
                self.at += 1
            elif char == "{":
                self.at += 1
                inner = self.expression("}")
                said.append(" ".join(inner))
            elif char in "^_":
                self.at += 1
                if not said:
                    raise self.error(f"{char!r} with nothing before it")
                base, raised = said.pop(), self.argument()
                if char == "^":
                    said.append(self.words.power.format(base=_bracketed(base),
                                                        exponent=_bracketed(raised)))
                else:
                    said.append(f"{base} {_bracketed(raised)}")
            elif char in "+-=/":
                said.append(self.words.operators[char])
                self.at += 1
            elif char in "([":
                self.at += 1
                self.add(said, self.bracket(char, ")" if char == "(" else "]"))
            elif char in ",.":
                said.append(char)
                self.at += 1
            elif char == "\\":
                for part in self.control():
                    self.add(said, part)
            else:
                raise self.error(f"{char!r} is not read")

    def control(self) -> list[str]:
        """The words of the command at ``\\``."""
        if self.latex.startswith("\\%", self.at):
            self.at += 2
            return ["%"]
        name = self.command()
        if name in _SPACES:
            return []
        if name == "left":
            opening = self.peek()
            if opening not in "([":
                raise self.error("\\left takes ( or [ here")
            self.at += 1
            closing = "\\right" + (")" if opening == "(" else "]")
            return [self.bracket(opening, closing)]
        if name in self.words.operators:
            return [self.words.operators[name]]
        if name in ("frac", "dfrac", "tfrac"):
            numerator, denominator = self.argument(), self.argument()
            return [_Compound(self.words.fraction.format(
                numerator=_bracketed(numerator), denominator=_bracketed(denominator)))]
        if name == "sqrt":
            return [_Compound(self.words.root.format(argument=_bracketed(self.argument())))]
        if name == "sum":
            return [_Compound(self.summed())]
        raise self.error(f"\\{name} is not read")

    def add(self, said: list[str], part: str) -> None:
        """Say ``part`` after what is said, with «times» between two things multiplied
        where one is a fraction, a root or a sum."""
        signs = {*self.words.operators.values(), ",", "."}
        if (said and said[-1] not in signs and part not in signs
                and (isinstance(said[-1], _Compound) or isinstance(part, _Compound))):
            said.append(self.words.operators["times"])
        said.append(part)

    def bracket(self, opening: str, closing: str) -> str:
        """What stands in a bracket (its opening read), up to its ``closing``, as one
        part of the formula: a power of it raises all of it."""
        return opening + " ".join(self.expression(closing)) + closing[-1]

    def summed(self) -> str:
        """``\\sum_{j=1}^{n}`` and the term after it, up to the next +, -, = or ≈."""
        bounds: dict[str, str] = {}
        for _ in range(2):
            while self.peek() == " ":
                self.at += 1
            mark = self.peek()
            if mark not in "_^" or mark in bounds:
                raise self.error("a sum needs both its bounds, _{j=1}^{n}")
            self.at += 1
            bounds[mark] = self.argument()
        lower = bounds["_"].split(f" {self.words.operators['=']} ", 1)
        if len(lower) != 2:
            raise self.error("a sum's lower bound names its index, as in j=1")
        term = " ".join(self.expression("", term=True))
        return self.words.sum.format(index=lower[0], start=lower[1], end=bounds["^"],
                                     term=term)


def spoken(latex: str, lang: str) -> str:
    """A formula in words, in ``lang``, for a screen reader (see the module's text).

    :raises SpokenError: for TeX this does not read.
    """
    said = " ".join(_Reader(latex, _Words(lang)).expression(""))
    # A displayed formula may end the sentence around it: its stop is not read.
    return _SPACED.sub(" ", _BEFORE_MARK.sub("", said)).strip(" ,.")
