"""Where dice come from: a seeded generator, or a typed-in dice file.

A dice source answers a :class:`~aces.rules.RollRequest` with a
:class:`~aces.rules.Roll`. The generator is reproducible from its seed; the
file reader checks every line against what the game asks for and names
the line when it cannot be played.

>>> source = DiceFile(["# opening", "2", "3", "5", "1 6", "3,5"], "table.txt")
>>> from aces.rules import RollRequest
>>> source.roll(RollRequest("Ada", 1, "opening"))
Roll(dice=(2,), to=())
"""

from __future__ import annotations

import random
import re
import typing as t

from aces.errors import AcesError, DiceFileError, Plural
from aces.rules import Roll

if t.TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from aces.rules import RollRequest

FACES: t.Final = range(1, 7)
_SEPARATOR: t.Final = re.compile(r"[\s,]+")
_BOM: t.Final = "\ufeff"
# Translators: an error of a dice file. {player}: who rolls; {expected}: the
# dice that player holds and must roll; {count}: the values on the line.
_WRONG_COUNT: t.Final = Plural("{player} rolls {expected} die here, but the line has {count}",
                               "{player} rolls {expected} dice here, but the line has {count}",
                               by="expected")


class DiceSource(t.Protocol):
    """Anything that rolls the dice a game asks for."""

    def roll(self, request: RollRequest) -> Roll: ...


class RandomDice:
    """Fair dice from a seeded generator: the same seed, the same game."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    @property
    def rng(self) -> random.Random:
        """The generator, which also makes a game's choices (see ``Game.choose``)."""
        return self._rng

    def roll(self, request: RollRequest) -> Roll:
        randint = self._rng.randint
        return Roll(tuple(randint(1, 6) for _ in range(request.dice)))


class DiceLine(t.NamedTuple):
    """One roll as typed: its line number and values."""

    line: int
    values: tuple[int, ...]
    #: Words after the values: receivers named in the roll (five-dice threes).
    names: tuple[str, ...]


def parse_lines(lines: Iterable[str | bytes], source: str) -> Iterator[DiceLine]:
    """The rolls of a dice file; blank lines and ``#`` comments are skipped.

    Values are separated by spaces or commas. Anything after ``>`` names
    the receivers of dice given by choice (see the five-dice game).

    Lines may come as bytes, straight from the file: each is decoded here,
    so that one that is not UTF-8 text is refused by its number. A
    byte-order mark, which some editors put before the first line, is
    skipped.

    >>> list(parse_lines(["1 6", "", "# a comment", "3,5  # Ada again"], "f"))
    [DiceLine(line=1, values=(1, 6), names=()), DiceLine(line=4, values=(3, 5), names=())]
    """
    for number, raw in enumerate(lines, start=1):
        if isinstance(raw, bytes):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                # Translators: an error of a dice file with bytes that are not UTF-8 text.
                raise DiceFileError(source, number, "the line is not UTF-8 text") from None
        else:
            text = raw
        if number == 1:
            text = text.removeprefix(_BOM)
        try:
            roll = parse_roll(text)
        except AcesError as exc:
            raise DiceFileError(source, number, exc.message, **exc.values) from None
        if roll is not None:
            yield DiceLine(number, roll.dice, roll.to)


def parse_roll(text: str) -> Roll | None:
    """One roll as typed, or ``None`` for a blank line or a comment.

    Raises :class:`~aces.errors.AcesError` for a line that is not a roll.

    >>> parse_roll("3 6 3 > Bo Cy  # two threes given away")
    Roll(dice=(3, 6, 3), to=('Bo', 'Cy'))
    """
    content = text.split("#", 1)[0].strip()
    if not content:
        return None
    dice_part, _, names_part = content.partition(">")
    values: list[int] = []
    for token in _SEPARATOR.split(dice_part.strip()):
        if not token:
            continue
        # isdecimal, not isdigit: "²" is a digit that int() refuses; and a
        # face is one digit, so a thousand-digit token costs nothing.
        if not token.isdecimal() or len(token) > 1 or int(token) not in FACES:
            raise AcesError("{token!r} is not a face of a die (1 to 6)", token=_cut(token))
        values.append(int(token))
    if not values:
        raise AcesError("the line names no dice")
    names = tuple(n for n in _SEPARATOR.split(names_part.strip()) if n)
    return Roll(tuple(values), names)


def check_count(roll: Roll, request: RollRequest) -> None:
    """Refuse a roll with more or fewer dice than the roller holds."""
    if len(roll.dice) != request.dice:
        raise AcesError(_WRONG_COUNT, player=request.player, expected=request.dice,
                        count=len(roll.dice))


def _cut(token: str) -> str:
    """A token short enough to quote in a one-line error."""
    return token if len(token) <= 20 else token[:20] + "..."


class DiceFile:
    """The dice of a real game, typed in one roll per line."""

    def __init__(self, lines: Iterable[str | bytes], source: str) -> None:
        self.source = source
        self._lines = parse_lines(lines, source)
        self.last_line = 0

    def roll(self, request: RollRequest) -> Roll:
        line = next(self._lines, None)
        if line is None:
            raise DiceFileError(
                self.source,
                # A file without a single roll has no last roll to point at.
                max(self.last_line, 1),
                "the dice run out here, but the game is not over: {player} rolls next",
                player=request.player,
            )
        self.last_line = line.line
        roll = Roll(line.values, line.names)
        try:
            check_count(roll, request)
        except AcesError as exc:
            raise self.locate(exc) from None
        return roll

    def locate(self, error: AcesError) -> DiceFileError:
        """``error``, refusing the last roll read, as an error at its line."""
        return DiceFileError(self.source, self.last_line, error.message, **error.values)

    def check_finished(self) -> None:
        """Refuse rolls left over once every game is over."""
        line = next(self._lines, None)
        if line is not None:
            raise DiceFileError(self.source, line.line,
                                "the game is over, but rolls are left from this line on")
