"""The arguments of the package's public functions, checked as they arrive.

Python lets a value of the wrong kind through to wherever it is first used,
where it fails with a ``TypeError`` that names nothing the caller wrote,
or worse gives a wrong answer without a word: ``aces.play("Ada,Bo")``
once seated six players named A, d, a, ",", B and o. Each check here
refuses such a value at the door with an :class:`~aces.errors.OptionError`
that names the parameter as Python spells it (``games=``) and shows the
value as Python writes it, so that a pupil sees what to change; the call's
language (``lang=``) is the message's, as for every error of the API.

>>> whole(2.5, "games")
Traceback (most recent call last):
aces.errors.OptionError: games= must be a whole number, not 2.5
>>> names("Ada,Bo", "players")
Traceback (most recent call last):
aces.errors.OptionError: players= takes a list, such as ['Ada', 'Bo'], not one text
"""

from __future__ import annotations

import io
import operator
import os
import typing as t

from aces.errors import OptionError, Term, shorten

if t.TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["flag", "function", "maybe_flag", "names", "parameter", "path", "sources", "text",
           "whole", "written"]


def parameter(name: str) -> Term:
    """A parameter as a message names it: ``games=`` in Python, ``--games`` on the
    command line, where the same check may refuse the same value."""
    return Term("--" + name.replace("_", "-"), f"{name}=")


def written(value: object) -> str:
    """A value as Python writes it, short enough for a one-line message; a whole
    number too long for Python to write out, by its size.

    >>> written("2"), written(2.5), written(10**5000)
    ("'2'", '2.5', '~10**5000')
    """
    if isinstance(value, int) and value.bit_length() > _LONGEST:
        return f"{'-' if value < 0 else ''}~10**{int(abs(value).bit_length() * _DIGITS)}"
    return shorten(repr(value))


def _number(value: int) -> int | str:
    """A bound or a value in a message: grouped in the reader's way while it is
    short, and every digit of a long one (a seed), which rounding would hide."""
    return value if abs(value) < _GROUPED else written(value)


#: Whole numbers from here on are written out as Python writes them.
_GROUPED: t.Final = 10**15
#: Bits of the longest whole number a message writes out (Python writes at
#: most 4,300 digits), and the digits of a bit.
_LONGEST: t.Final = 3_000
_DIGITS: t.Final = 0.30102999566398120


def whole(value: object, name: str | Term, *, least: int | None = None,
          most: int | None = None) -> int:
    """``value`` as a whole number (a ``bool`` is not one; NumPy's are), from
    ``least`` to ``most`` where they are given.

    :raises aces.errors.OptionError: naming ``name`` (a parameter, or a
        :class:`~aces.errors.Term` such as ``log[...]``).

    >>> whole(True, "seed")
    Traceback (most recent call last):
    aces.errors.OptionError: seed= must be a whole number, not True
    """
    option = parameter(name) if isinstance(name, str) else name
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        # Translators: an error of a Python call. {option}: the parameter, as
        # games=; {value}: what was given, as Python writes it (2.5, '2', None).
        raise OptionError("{option} must be a whole number, not {value}", option=option,
                          value=written(value))
    number = operator.index(t.cast("t.SupportsIndex", value))
    if least is not None and number < least:
        # Translators: an error of a Python call. {option}: the parameter, as games=.
        raise OptionError("{option} must be at least {least}, not {value}", option=option,
                          least=_number(least), value=_number(number))
    if most is not None and number > most:
        # Translators: an error of a Python call. {option}: the parameter, as games=.
        raise OptionError("{option} must be at most {most}, not {value}", option=option,
                          most=_number(most), value=_number(number))
    return number


def text(value: object, name: str) -> str:
    """``value`` as text.

    :raises aces.errors.OptionError: for anything else.
    """
    if not isinstance(value, str):
        # Translators: an error of a Python call. {option}: the parameter, as lang=;
        # {value}: what was given, as Python writes it.
        raise OptionError("{option} must be text, not {value}", option=parameter(name),
                          value=written(value))
    return value


def flag(value: object, name: str) -> bool:
    """``value`` as ``True`` or ``False``.

    :raises aces.errors.OptionError: for anything else (1, "yes", None).
    """
    if not isinstance(value, bool):
        # Translators: an error of a Python call. {option}: the parameter, as
        # by_log=; {value}: what was given, as Python writes it.
        raise OptionError("{option} must be True or False, not {value}",
                          option=parameter(name), value=written(value))
    return value


def maybe_flag(value: object, name: str) -> bool | None:
    """``value`` as ``True``, ``False`` or ``None`` (which leaves the choice to the call).

    :raises aces.errors.OptionError: for anything else.
    """
    if value is not None and not isinstance(value, bool):
        # Translators: an error of a Python call. {option}: the parameter, as exact=;
        # {value}: what was given, as Python writes it.
        raise OptionError("{option} must be True, False or None, not {value}",
                          option=parameter(name), value=written(value))
    return value


def names(value: object, name: str) -> list[str]:
    """``value`` as a list of names: a sequence of texts, never one text (which
    Python would take letter by letter).

    :raises aces.errors.OptionError: for one text, or a list holding something else.
    """
    if isinstance(value, str):
        raise _one_text(name, [part.strip() for part in value.split(",")])
    if not isinstance(value, (list, tuple)):
        # Translators: an error of a Python call. {option}: the parameter, as
        # players=; {value}: what was given, as Python writes it.
        raise OptionError("{option} must be a list of names, not {value}",
                          option=parameter(name), value=written(value))
    for item in value:
        if not isinstance(item, str):
            # Translators: an error of a Python call. {option}: the parameter, as
            # players=; {value}: the item that is not text, as Python writes it.
            raise OptionError("every item of {option} must be text, not {value}",
                              option=parameter(name), value=written(item))
    return list(value)


def _one_text(name: str, example: object) -> OptionError:
    # Translators: an error of a Python call given one text where a list goes.
    # {option}: the parameter, as players=; {example}: the list it may have
    # meant, as Python writes it.
    return OptionError("{option} takes a list, such as {example}, not one text",
                       option=parameter(name), example=written(example))


def path(value: object, name: str) -> str | os.PathLike[str]:
    """``value`` as a file's name or path.

    :raises aces.errors.OptionError: for anything else.
    """
    if not _name(value):
        # Translators: an error of a Python call. {option}: the parameter, as csv=;
        # {value}: what was given, as Python writes it.
        raise OptionError("{option} must be a file name or a path, not {value}",
                          option=parameter(name), value=written(value))
    return t.cast("str | os.PathLike[str]", value)


def sources(value: object, name: str) -> list[t.Any]:
    """``value`` as logs to read: a list of file names, paths, or pairs of an
    open binary file and the name to call it by.

    :raises aces.errors.OptionError: for one name alone (which Python would
        take letter by letter), a file open as text, or anything else.
    """
    if isinstance(value, (str, os.PathLike)):
        raise _one_text(name, [os.fspath(value)])
    if isinstance(value, (bytes, dict)) or not hasattr(value, "__iter__"):
        raise OptionError("{option} must be a list of names, not {value}",
                          option=parameter(name), value=written(value))
    given = list(t.cast("t.Iterable[object]", value))
    for source in given:
        if isinstance(source, tuple) and len(source) == 2 and isinstance(source[1], str):
            stream = source[0]
            if isinstance(stream, io.TextIOBase):
                # Translators: an error of aces.stats given a log opened as text.
                # {name}: the name it was given; 'rb' stays as it is.
                raise OptionError("{name} is open as text, and a log is read as bytes: open"
                                  " it with 'rb'", name=source[1])
            if callable(getattr(stream, "readline", None)):
                continue
        elif _name(source):
            continue
        # Translators: an error of aces.stats. {option}: the parameter, logs=;
        # {value}: the item, as Python writes it.
        raise OptionError("every log of {option} must be a file name, a path, or an open file"
                          " and its name, not {value}", option=parameter(name),
                          value=written(source))
    return given


def _name(value: object) -> bool:
    """Whether ``value`` can name a file: text or a path, without the NUL
    character that no file name holds."""
    if not isinstance(value, (str, os.PathLike)):
        return False
    name = os.fspath(value)
    return isinstance(name, str) and "\x00" not in name


def function(value: object, name: str) -> Callable[..., t.Any] | None:
    """``value`` as something to call, or ``None``.

    :raises aces.errors.OptionError: for anything else.
    """
    if value is not None and not callable(value):
        # Translators: an error of a Python call. {option}: the parameter, as
        # progress=; {value}: what was given, as Python writes it.
        raise OptionError("{option} must be a function or None, not {value}",
                          option=parameter(name), value=written(value))
    return t.cast("Callable[..., t.Any] | None", value)
