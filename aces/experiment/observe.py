"""What a class experiment counts, read from the steps of a walk.

:class:`GameObserver` is a :class:`~aces.walk.Visitor`, driven through a
log by :func:`aces.walk.drive`: it hands each game, as a
:class:`GameRecord`, to its ``on_game`` once the game is over for good (an
undo may still take back the roll that ended it, so a game is closed only
by the next game's header or the end of the log). :class:`Counts` adds
games of one set of rules up; counts of several logs add up the same way,
so a pooled count is the sum of the logs' counts and nothing else.

Seats in the counts are counted from the player who won the opening and
rolls first, as the exact odds count them: index 0 is that player, 1 the
player on their left, and so on.
"""

from __future__ import annotations

import array
import itertools
import typing as t

from aces.events import (
    GameOver,
    GameStarted,
    OpeningWon,
    RollAgain,
    Rolled,
    RollUndone,
    TryFailed,
    TryWon,
)
from aces.games import game_named, registration
from aces.walk import Visitor

if t.TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from aces.events import Event
    from aces.games import Holding
    from aces.rules import OptionValue
    from aces.walk import Step

__all__ = ["Counts", "GameObserver", "GameRecord", "RollRow", "Rules"]

#: The faces that move something in a normal roll of Aces in the Pot.
_POT_MOVERS: t.Final = frozenset((1, 6))


class Rules(t.NamedTuple):
    """What must be the same for games to be pooled: the game, the table
    size and every option. Players' names may differ."""

    game: str
    players: int
    options: tuple[tuple[str, OptionValue], ...]

    @classmethod
    def of(cls, header: GameStarted) -> Rules:
        """The rules of a game, its options completed with their defaults."""

        options = game_named(header.game).options(header.options)
        return cls(header.game, len(header.players), tuple(sorted(options.items())))

    def option(self, name: str) -> OptionValue:
        return dict(self.options)[name]


class RollRow(t.NamedTuple):
    """One roll of a game, for the table of rolls."""

    #: The roll's number in its game, opening rolls included, from 1.
    number: int
    player: str
    #: The player's seat at the table, in seating order, from 1.
    seat: int
    stage: str
    dice: tuple[int, ...]
    #: Chips (Aces in the Pot) or dice (the five-dice game) the roller holds
    #: once the roll is settled.
    held_after: int


class GameRecord(t.NamedTuple):
    """One finished game, reduced to what the experiment counts."""

    rules: Rules
    players: tuple[str, ...]
    #: The seat (in seating order, from 0) that won the opening.
    starter: int
    #: The seat (in seating order, from 0) that won the game (Aces in the
    #: Pot) or lost it (the five-dice game).
    result: int
    #: Rolls after the opening: the length of the game as the odds count it.
    rolls: int
    #: The pot won, in Aces in the Pot.
    pot: int | None
    #: Normal rolls (not opening, not a try) and those that showed no 1 and no 6.
    normal: int
    nothing: int
    #: Tries that ended by a six on the first, second and third roll, and tries won.
    tries: tuple[int, int, int, int]
    #: Five-dice: turn rolls by the number of dice rolled (index k: k dice),
    #: and of those the rolls followed by a roll again.
    by_dice: tuple[int, ...]
    agains: tuple[int, ...]
    rows: tuple[RollRow, ...]
    #: Whether the game is over: only the last game of a log may not be (one
    #: still being recorded), and then it has no result (``result`` is -1).
    over: bool = True

    @property
    def result_seat(self) -> int:
        """The result's seat counted from the starter (0: the starter)."""
        return (self.result - self.starter) % len(self.players)


class GameObserver(Visitor[int]):
    """Turns the steps of a walk into :class:`GameRecord` values, handed to
    ``on_game`` as each game closes; its result is the number of steps seen.

    A roll costs one entry while its game is played: the few rolls whose
    consequences matter (an opening won, a try ended, a roll again, the
    end) are marked by their line. What an undo takes back is what the
    walk's :class:`~aces.walk.Standing`, the one keeper of the rolls
    standing, says it takes back (:attr:`~aces.walk.Step.undone`): that
    roll goes, by its line, with its marks. ``keep_rows`` also keeps what
    each roller holds after the roll, for the table of rolls.

    Only games that are over are handed on; a last game the log leaves
    unfinished is kept as :attr:`unfinished` once the walk ends, so that a
    reader can count it apart, or show it.
    """

    def __init__(self, on_game: Callable[[GameRecord], None], keep_rows: bool = False) -> None:
        self.on_game = on_game
        self.keep_rows = keep_rows
        self.steps = 0
        self._header: GameStarted | None = None
        self._seats: dict[str, int] = {}
        #: The rolls of the game still standing, by their line, in order.
        self._rolls: dict[int, Rolled] = {}
        #: The line of the last of them, which the steps after it settle
        #: (0 before the first).
        self._line = 0
        #: By the line of a roll: the player it made win the opening or the
        #: game (or lose it), how it ended a try (1-3 a six on that roll, 4
        #: won), whether a roll again followed it, and what its roller holds
        #: once it is settled.
        self._named: dict[int, str] = {}
        self._try_end: dict[int, int] = {}
        self._again: set[int] = set()
        self._held: dict[int, int] = {}
        self._holding: Callable[[t.Any], Holding] | None = None
        self._pot: int | None = None
        #: The line of the roll that ended the game (0 while it goes on).
        self._ended = 0
        #: The last game of the log, if it is not over (once the walk ends).
        self.unfinished: GameRecord | None = None
        #: The number of the game being walked (or just closed), from 1.
        self.number = 0
        handlers: dict[type[Event], Callable[[Step[t.Any]], None]] = {
            GameStarted: self._started,
            RollUndone: self._undone,
            OpeningWon: self._opening_won,
            GameOver: self._over,
            TryFailed: self._try_failed,
            TryWon: self._try_won,
            RollAgain: self._again_rolled,
        }
        self._handlers = handlers

    def visit(self, step: Step[t.Any]) -> None:
        """Take one step; a new header closes the game before it."""
        self.steps += 1
        event = step.event
        if type(event) is Rolled:
            self._line = step.line
            self._rolls[step.line] = event
        else:
            handler = self._handlers.get(type(event))
            if handler is not None:
                handler(step)
        if self.keep_rows and self._line:
            self._keep_row(step)

    def _keep_row(self, step: Step[t.Any]) -> None:
        """What the roller of the last roll standing holds after ``step``."""
        assert self._holding is not None
        line = self._line
        self._held[line] = self._holding(step.state).held[self._seats[self._rolls[line].player]]

    def end(self) -> None:
        """The log is over: so is its last game."""
        self._close()

    def result(self) -> int:
        return self.steps

    def _started(self, step: Step[t.Any]) -> None:
        self._close()
        self.number += 1
        header = t.cast("GameStarted", step.event)
        self._header = header
        self._seats = {name: seat for seat, name in enumerate(header.players)}
        self._holding = registration(header.game).holding

    def _undone(self, step: Step[t.Any]) -> None:
        assert step.undone is not None, "the walk says which roll an undo takes back"
        line = step.undone.line
        if line == self._ended:
            self._ended = 0
        del self._rolls[line]
        self._named.pop(line, None)
        self._try_end.pop(line, None)
        self._again.discard(line)
        self._held.pop(line, None)
        self._line = next(reversed(self._rolls), 0)

    def _opening_won(self, step: Step[t.Any]) -> None:
        self._named[self._line] = t.cast("OpeningWon", step.event).player

    def _over(self, step: Step[t.Any]) -> None:
        over = t.cast("GameOver", step.event)
        who = over.winner if over.winner is not None else over.loser
        if who is not None:
            self._named[self._line] = who
        self._pot = over.pot
        self._ended = self._line

    def _try_failed(self, step: Step[t.Any]) -> None:
        self._try_end[self._line] = t.cast("TryFailed", step.event).roll

    def _try_won(self, step: Step[t.Any]) -> None:
        self._try_end[self._line] = 4

    def _again_rolled(self, step: Step[t.Any]) -> None:
        self._again.add(self._line)

    @property
    def ended(self) -> bool:
        """Whether the game being walked is over (:meth:`current` gives it)."""
        return self._ended != 0

    def current(self) -> GameRecord | None:
        """The game being walked, if it is over; it is not closed, since an undo
        may still take back the roll that ended it (the live class shows it)."""
        return self._record() if self._ended else None

    def _close(self) -> None:
        record = self._record()
        self._header, self._rolls, self._held, self._line = None, {}, {}, 0
        self._named, self._try_end, self._again = {}, {}, set()
        self._ended = 0
        if record is not None and record.over:
            self.on_game(record)
        elif record is not None:
            # Only the last game may be left going on: the walk refuses a new
            # game before the one under way is over.
            self.unfinished = record

    def _record(self) -> GameRecord | None:
        """The record of the game walked so far; a game still being played (a
        log read as it is recorded) is not :attr:`~GameRecord.over`, and has no
        result."""
        over = self._ended != 0
        header, rolls = self._header, self._rolls
        named, try_end, again, held = self._named, self._try_end, self._again, self._held
        if header is None:
            return None
        seats = self._seats
        starter = result = -1
        played = normal = nothing = 0
        tries = [0, 0, 0, 0, 0]
        width = max((len(roll.dice) for roll in rolls.values()), default=0) + 1
        by_dice = [0] * width
        agains = [0] * width
        pot = "nothing" in registration(header.game).measures
        movers = _POT_MOVERS
        for line, roll in rolls.items():
            stage = roll.stage
            if stage == "opening":
                if line in named:
                    starter = seats[named[line]]
                continue
            played += 1
            if stage == "try":
                tries[try_end.get(line, 0)] += 1
            elif pot:
                normal += 1
                if movers.isdisjoint(roll.dice):
                    nothing += 1
            else:
                by_dice[len(roll.dice)] += 1
                agains[len(roll.dice)] += line in again
        last = next(reversed(rolls), 0)
        if over and last in named:
            result = seats[named[last]]
        rows: tuple[RollRow, ...] = ()
        if self.keep_rows:
            rows = tuple(RollRow(number, roll.player, seats[roll.player] + 1, roll.stage,
                                 roll.dice, held[line])
                         for number, (line, roll) in enumerate(rolls.items(), 1))
        return GameRecord(Rules.of(header), header.players, starter, result, played,
                          self._pot if pot and over else None, normal, nothing,
                          (tries[1], tries[2], tries[3], tries[4]),
                          tuple(by_dice), tuple(agains), rows, over)


class Counts:
    """Games of one set of rules, added up; counts of several logs add up too.

    >>> a, b = Counts(3), Counts(3)
    >>> a.wins[0] += 2; b.wins[1] += 1; a.games, b.games = 2, 1
    >>> (a + b).wins, (a + b).games
    ([2, 1, 0], 3)
    """

    def __init__(self, seats: int) -> None:
        self.games = 0
        #: Rolls after the opening, in all the games.
        self.rolls = 0
        #: Results (wins, or losses in five-dice) by seat from the starter.
        self.wins = [0] * seats
        #: ``lengths[k]``: games of ``k`` rolls after the opening.
        self.lengths: list[int] = []
        self.normal = 0
        self.nothing = 0
        self.tries = [0, 0, 0, 0]
        self.by_dice: list[int] = []
        self.agains: list[int] = []

    @classmethod
    def of(cls, game: GameRecord) -> Counts:
        """The count of one game."""
        one = cls(len(game.players))
        one.games, one.rolls, one.normal, one.nothing = 1, game.rolls, game.normal, game.nothing
        one.wins[game.result_seat] = 1
        one.lengths = [0] * game.rolls + [1]
        one.tries = list(game.tries)
        one.by_dice, one.agains = list(game.by_dice), list(game.agains)
        return one

    def add(self, game: GameRecord) -> None:
        """Count one game."""
        self.__iadd__(Counts.of(game))

    @staticmethod
    def packed(game: GameRecord) -> bytes:
        """The count of one game in a few dozen bytes (:meth:`unpacked` gives
        it back), for keeping every game of a long session: its count as
        :meth:`of` makes it is some kilobyte of lists and numbers.

        >>> from aces.experiment.observe import GameRecord, Rules
        >>> game = GameRecord(Rules("pot", 3, ()), ("Ada", "Bo", "Cy"), 1, 0, 4, 2, 3, 1,
        ...                   (0, 1, 0, 0), (), (), ())
        >>> one = Counts.unpacked(Counts.packed(game), 3)
        >>> one.wins, one.lengths, one.tries
        ([0, 0, 1], [0, 0, 0, 0, 1], [0, 1, 0, 0])
        """
        numbers = array.array("I", (game.rolls, game.result_seat, game.normal, game.nothing,
                                    *game.tries, len(game.by_dice), *game.by_dice,
                                    *game.agains))
        return numbers.tobytes()

    @classmethod
    def unpacked(cls, data: bytes, seats: int) -> Counts:
        """The count of a game of ``seats`` players that :meth:`packed` packed:
        the same as :meth:`of` gives."""
        numbers = array.array("I")
        numbers.frombytes(data)
        one = cls(seats)
        one.games, one.rolls, one.normal, one.nothing = 1, numbers[0], numbers[2], numbers[3]
        one.wins[numbers[1]] = 1
        one.lengths = [0] * one.rolls + [1]
        one.tries = numbers[4:8].tolist()
        by_dice = numbers[8]
        one.by_dice = numbers[9:9 + by_dice].tolist()
        one.agains = numbers[9 + by_dice:].tolist()
        return one

    def __eq__(self, other: object) -> bool:
        """Whether two counts hold the same numbers (the live class pools a
        class anew only once its counts have changed).

        >>> a, b = Counts(3), Counts(3)
        >>> a == b, a == Counts(4)
        (True, False)
        >>> b.lengths = [0, 1]; a == b
        False
        """
        if not isinstance(other, Counts):
            return NotImplemented
        return vars(self) == vars(other)

    __hash__ = None  # type: ignore[assignment]

    def __add__(self, other: Counts) -> Counts:
        total = Counts(len(self.wins))
        total += self
        total += other
        return total

    def __iadd__(self, other: Counts) -> Counts:
        self.games += other.games
        self.rolls += other.rolls
        self.wins = [a + b for a, b in zip(self.wins, other.wins, strict=True)]
        self.lengths = _summed(self.lengths, other.lengths)
        self.normal += other.normal
        self.nothing += other.nothing
        self.tries = [a + b for a, b in zip(self.tries, other.tries, strict=True)]
        self.by_dice = _summed(self.by_dice, other.by_dice)
        self.agains = _summed(self.agains, other.agains)
        return self

    @property
    def turns(self) -> int:
        """Five-dice turns: every turn roll not followed by a roll again ends one."""
        return sum(self.by_dice) - sum(self.agains)


def _summed(counts: Sequence[int], other: Sequence[int]) -> list[int]:
    """Two counts by index added up, the shorter counting none past its end."""
    return [a + b for a, b in itertools.zip_longest(counts, other, fillvalue=0)]
