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

import enum
import random
import re
import typing as t

from aces.errors import N_, AcesError, DiceFileError, OneOf, Plural
from aces.log import LINE_LIMIT  # a line of rolls may be as long as a line of a log
from aces.rules import Roll

if t.TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping, Sequence

    from aces.rules import RollRequest

__all__ = ["COMMANDS", "FACES", "Command", "DiceFile", "DiceLine", "DiceSource", "RandomDice",
           "check_count", "command_words", "parse_entry", "parse_lines", "parse_roll", "receiver"]

FACES: t.Final = range(1, 7)
E = t.TypeVar("E", bound=AcesError)
#: What separates dice (and receivers): spaces, commas, and the dash of ``1-6``.
_SEPARATOR: t.Final = re.compile(r"[\s,\-]+")
#: What separates receivers: spaces and commas (a name may hold a dash).
_NAME_SEPARATOR: t.Final = re.compile(r"[\s,]+")
_FACE_DIGITS: t.Final = frozenset("123456")
_BOM: t.Final = "\ufeff"
# Translators: an error of a dice file, or of a line typed into "aces
# record". {limit}: the most bytes a line may hold.
TOO_LONG: t.Final = N_("the line is longer than {limit} bytes, the most a line of rolls may be")
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


class Command(enum.Enum):
    """A word typed at the table instead of a roll."""

    UNDO = "undo"
    HELP = "help"
    QUIT = "quit"


#: The words for the commands, understood whatever the language chosen: the
#: English ones and the Norwegian ones (the same in Bokmål and Nynorsk). A
#: catalog may add its own (see :func:`command_words`).
COMMANDS: t.Final[Mapping[str, Command]] = {
    "undo": Command.UNDO, "angre": Command.UNDO,
    "?": Command.HELP, "help": Command.HELP, "hjelp": Command.HELP,
    "quit": Command.QUIT, "avslutt": Command.QUIT,
}


def command_words(translated: Mapping[Command, str]) -> dict[str, Command]:
    """:data:`COMMANDS` with the words a language gives them besides.

    >>> command_words({Command.QUIT: "slutt"})["slutt"]
    <Command.QUIT: 'quit'>
    """
    words = dict(COMMANDS)
    for command, word in translated.items():
        words.setdefault(word.strip().lower(), command)
    return words


class DiceLine(t.NamedTuple):
    """One roll as typed: its line number and values."""

    line: int
    values: tuple[int, ...]
    #: Words after the values: receivers named in the roll (five-dice threes).
    names: tuple[str, ...]


def parse_lines(lines: Iterable[str | bytes], source: str,
                players: Sequence[str] = ()) -> Iterator[DiceLine]:
    """The rolls of a dice file; blank lines and ``#`` comments are skipped.

    Each line is read by :func:`parse_entry`, as ``aces record`` reads a
    line typed at the table; the commands of the table have no place in a
    file and are refused.

    Lines may come as bytes, straight from the file: each is decoded here,
    so that one that is not UTF-8 text is refused by its number. A
    byte-order mark, which some editors put before the first line, is
    skipped.

    >>> list(parse_lines(["1 6", "", "# a comment", "35  # Ada again"], "f"))
    [DiceLine(line=1, values=(1, 6), names=()), DiceLine(line=4, values=(3, 5), names=())]
    """
    readline = getattr(lines, "readline", None)
    if readline is not None:
        # A file: read a line at most one byte longer than a line may be,
        # so that a line of 20 MB costs no more than a line too long.
        lines = iter(lambda: readline(LINE_LIMIT + 1), b"")
    for number, raw in enumerate(lines, start=1):
        if len(raw) > LINE_LIMIT:
            raise DiceFileError(TOO_LONG, limit=LINE_LIMIT).at(source, number)
        if isinstance(raw, bytes):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                # Translators: an error of a dice file with bytes that are not UTF-8 text.
                raise DiceFileError("the line is not UTF-8 text").at(source, number) from None
        else:
            text = raw
        if number == 1:
            text = text.removeprefix(_BOM)
        try:
            roll = parse_roll(text, players)
        except AcesError as exc:
            raise exc.at(source, number) from None
        if roll is not None:
            yield DiceLine(number, roll.dice, roll.to)


def parse_roll(text: str, players: Sequence[str] = ()) -> Roll | None:
    """One roll of a dice file, or ``None`` for a blank line or a comment.

    As :func:`parse_entry`, but a command word is refused: a file holds rolls.

    :raises ~aces.errors.DiceFileError: as :func:`parse_entry`, and for a
        command word.

    >>> parse_roll("3 6 3 > Bo Cy  # two threes given away")
    Roll(dice=(3, 6, 3), to=('Bo', 'Cy'))
    """
    entry = parse_entry(text, players)
    if isinstance(entry, Command):
        # Translators: an error of a dice file holding a word such as "undo"
        # that only "aces record" understands. {word}: the word.
        raise DiceFileError("{word!r} is a word for the table (aces record); a dice file holds"
                        " only rolls", word=text.split("#", 1)[0].strip())
    return entry


def parse_entry(text: str, players: Sequence[str] = (),
                words: Mapping[str, Command] = COMMANDS) -> Roll | Command | None:
    """One line as people type it: a roll, a command, or ``None`` (blank or a comment).

    The one reader of typed dice, for ``aces record`` and dice files alike.
    Dice are written as they are printed (``1-6``) or as people write them
    (``16``, ``1 6``, ``1,6``; ``31425``, ``3-1-4-2-5``): a face is one
    digit, so every digit is a die, and spaces, commas and dashes only
    separate them. After ``>`` come the receivers of dice given by choice,
    matched to ``players`` (see :func:`receiver`). A command word
    (``words``) is recognised whatever its case.

    :raises ~aces.errors.DiceFileError: not yet placed, for a line that is
        none of these, or names a receiver ambiguously.

    >>> {parse_entry(line) for line in ("1-6", "16", "1 6", "1,6", "1, 6")}
    {Roll(dice=(1, 6), to=())}
    >>> parse_entry("3-1-3 > bo, C", ["Ada", "Bo", "Cy"])
    Roll(dice=(3, 1, 3), to=('Bo', 'Cy'))
    >>> parse_entry("  Hjelp ")
    <Command.HELP: 'help'>
    """
    content = text.split("#", 1)[0].strip()
    if not content:
        return None
    command = words.get(content.lower())
    if command is not None:
        return command
    dice_part, _, names_part = content.partition(">")
    values: list[int] = []
    for token in _SEPARATOR.split(dice_part.strip()):
        if not token:
            continue
        # Digits 1 to 6 and nothing else: "²" and a full-width 7 are digits to
        # Python, but no face of a die.
        if not set(token) <= _FACE_DIGITS:
            raise DiceFileError("{token!r} is not a face of a die (1 to 6)", token=_cut(token))
        values.extend(map(int, token))
    if not values:
        raise DiceFileError("the line names no dice")
    if ">" in names_part:
        # Translators: an error of a typed roll with '>' twice, as in
        # "3 3 > Bo > Cy". Keep '>' as it is.
        raise DiceFileError("a roll has one '>', before all its receivers: 3 3 > Bo Cy")
    names = tuple(receiver(n, players) for n in _NAME_SEPARATOR.split(names_part.strip()) if n)
    return Roll(tuple(values), names)


def receiver(name: str, players: Sequence[str]) -> str:
    """The player ``name`` stands for: the same name in any case, or a unique beginning.

    A name that matches no player is kept as typed, for the rules to refuse
    as not at the table; one that begins several names is refused here,
    naming them.

    :raises ~aces.errors.DiceFileError: for a beginning of several names.

    >>> receiver("ka", ["Kari", "Ola"]), receiver("OLA", ["Kari", "Ola"])
    ('Kari', 'Ola')
    >>> receiver("Bo", ["Bo", "Bob"])
    'Bo'
    >>> receiver("b", ["Bo", "Bob"])
    Traceback (most recent call last):
    aces.errors.DiceFileError: 'b' could be Bo or Bob; type more of the name
    """
    if name in players:
        return name
    folded = name.casefold()
    same = [player for player in players if player.casefold() == folded]
    if len(same) == 1:
        return same[0]
    begun = same or [player for player in players if player.casefold().startswith(folded)]
    if len(begun) == 1:
        return begun[0]
    if begun:
        # Translators: an error of a roll naming a receiver by the beginning
        # of a name that several players' names begin with. {name}: what was
        # typed; {candidates}: those players, as a list.
        raise DiceFileError("{name!r} could be {candidates}; type more of the name",
                        name=_cut(name), candidates=OneOf(begun))
    return name


def check_count(roll: Roll, request: RollRequest) -> None:
    """Refuse a roll with more or fewer dice than the roller holds.

    :raises ~aces.errors.DiceFileError: for such a roll, not yet placed.
    """
    if len(roll.dice) != request.dice:
        raise DiceFileError(_WRONG_COUNT, player=request.player, expected=request.dice,
                        count=len(roll.dice))


def _cut(token: str) -> str:
    """A token short enough to quote in a one-line error."""
    return token if len(token) <= 20 else token[:20] + "..."


class DiceFile:
    """The dice of a real game, typed in one roll per line."""

    def __init__(self, lines: Iterable[str | bytes], source: str,
                 players: Sequence[str] = ()) -> None:
        """``players``, in seat order, are whom a receiver after ``>`` may name."""
        self.source = source
        self._lines = parse_lines(lines, source, players)
        self.last_line = 0

    def roll(self, request: RollRequest) -> Roll:
        line = next(self._lines, None)
        if line is None:
            # A file without a single roll has no last roll to point at.
            raise DiceFileError(
                "the dice run out here, but the game is not over: {player} rolls next",
                player=request.player).at(self.source, max(self.last_line, 1))
        self.last_line = line.line
        roll = Roll(line.values, line.names)
        try:
            check_count(roll, request)
        except AcesError as exc:
            raise self.locate(exc) from None
        return roll

    def locate(self, error: E) -> E:
        """``error``, refusing the last roll read, placed at its line; of its own kind still."""
        return error.at(self.source, self.last_line)

    def check_finished(self) -> None:
        """Refuse rolls left over once every game is over."""
        line = next(self._lines, None)
        if line is not None:
            raise DiceFileError("the game is over, but rolls are left from this line on"
                                ).at(self.source, line.line)
