"""What a class experiment counts, read from the steps of a walk.

:class:`GameObserver` is a visitor of :func:`aces.walk.walk`: it takes the
steps one at a time and hands back a :class:`GameRecord` for each game
once the game is over for good (an undo may still take back the roll that
ended it, so a game is closed only by the next game's header or the end of
the log). :class:`Counts` adds games of one set of rules up; counts of
several logs add up the same way, so a pooled count is the sum of the
logs' counts and nothing else.

Seats in the counts are counted from the player who won the opening and
rolls first, as the exact odds count them: index 0 is that player, 1 the
player on their left, and so on.
"""

from __future__ import annotations

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
from aces.games import registration

if t.TYPE_CHECKING:
    from collections.abc import Callable

    from aces.events import Event
    from aces.games import Holding
    from aces.rules import OptionValue
    from aces.walk import Step

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
        from aces.rules import game_named

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

    @property
    def result_seat(self) -> int:
        """The result's seat counted from the starter (0: the starter)."""
        return (self.result - self.starter) % len(self.players)


class _Roll:
    """A roll still standing in the current game, and what it set off."""

    __slots__ = ("again", "dice", "held", "player", "stage", "try_end", "winner")

    def __init__(self, roll: Rolled) -> None:
        self.player = roll.player
        self.dice = roll.dice
        self.stage = roll.stage
        self.held = -1
        self.again = False
        #: 1, 2, 3 for a try ended by a six on that roll, 4 for a try won.
        self.try_end = 0
        #: The opening's winner or the game's result, by name.
        self.winner: str | None = None


class GameObserver:
    """Turns the steps of a walk into :class:`GameRecord` values.

    ``keep_rows`` keeps each roll for the table of rolls; without it a game
    costs a few numbers a roll while it is being played, and nothing after.
    """

    def __init__(self, keep_rows: bool = False) -> None:
        self.keep_rows = keep_rows
        self._header: GameStarted | None = None
        self._seats: dict[str, int] = {}
        self._rolls: list[_Roll] = []
        self._holding: Callable[[t.Any], Holding] | None = None
        self._pot: int | None = None
        handlers: dict[type[Event], Callable[[Step[t.Any]], GameRecord | None]] = {
            GameStarted: self._started,
            Rolled: self._rolled,
            RollUndone: self._undone,
            OpeningWon: self._opening_won,
            GameOver: self._over,
            TryFailed: self._try_failed,
            TryWon: self._try_won,
            RollAgain: self._again,
        }
        self._handlers = handlers

    def visit(self, step: Step[t.Any]) -> GameRecord | None:
        """Take one step; the game just closed, when this step begins another."""
        handler = self._handlers.get(type(step.event))
        closed = handler(step) if handler is not None else None
        if self.keep_rows and self._rolls:
            last = self._rolls[-1]
            assert self._holding is not None
            last.held = self._holding(step.state).held[self._seats[last.player]]
        return closed

    def end(self) -> GameRecord | None:
        """The last game, once the walk is over."""
        return self._close()

    def _started(self, step: Step[t.Any]) -> GameRecord | None:
        closed = self._close()
        header = t.cast("GameStarted", step.event)
        self._header = header
        self._seats = {name: seat for seat, name in enumerate(header.players)}
        self._holding = registration(header.game).holding
        return closed

    def _rolled(self, step: Step[t.Any]) -> None:
        self._rolls.append(_Roll(t.cast("Rolled", step.event)))

    def _undone(self, step: Step[t.Any]) -> None:
        self._rolls.pop()

    def _opening_won(self, step: Step[t.Any]) -> None:
        self._rolls[-1].winner = t.cast("OpeningWon", step.event).player

    def _over(self, step: Step[t.Any]) -> None:
        over = t.cast("GameOver", step.event)
        self._rolls[-1].winner = over.winner if over.winner is not None else over.loser
        self._pot = over.pot

    def _try_failed(self, step: Step[t.Any]) -> None:
        self._rolls[-1].try_end = t.cast("TryFailed", step.event).roll

    def _try_won(self, step: Step[t.Any]) -> None:
        self._rolls[-1].try_end = 4

    def _again(self, step: Step[t.Any]) -> None:
        self._rolls[-1].again = True

    def _close(self) -> GameRecord | None:
        header, rolls = self._header, self._rolls
        if header is None:
            return None
        self._header, self._rolls = None, []
        if not rolls:
            return None
        seats = self._seats
        starter = result = -1
        played = normal = nothing = 0
        tries = [0, 0, 0, 0, 0]
        width = max(len(roll.dice) for roll in rolls) + 1
        by_dice = [0] * width
        agains = [0] * width
        pot = header.game == "pot"
        for roll in rolls:
            stage = roll.stage
            if stage == "opening":
                if roll.winner is not None:
                    starter = seats[roll.winner]
                continue
            played += 1
            if roll.winner is not None:
                result = seats[roll.winner]
            if stage == "try":
                tries[roll.try_end] += 1
            elif pot:
                normal += 1
                if _POT_MOVERS.isdisjoint(roll.dice):
                    nothing += 1
            else:
                by_dice[len(roll.dice)] += 1
                agains[len(roll.dice)] += roll.again
        rows: tuple[RollRow, ...] = ()
        if self.keep_rows:
            rows = tuple(RollRow(number, roll.player, seats[roll.player] + 1, roll.stage,
                                 roll.dice, roll.held)
                         for number, roll in enumerate(rolls, 1))
        return GameRecord(Rules.of(header), header.players, starter, result, played,
                          self._pot if pot else None, normal, nothing,
                          (tries[1], tries[2], tries[3], tries[4]),
                          tuple(by_dice), tuple(agains), rows)


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

    def add(self, game: GameRecord) -> None:
        """Count one game."""
        self.games += 1
        self.rolls += game.rolls
        self.wins[game.result_seat] += 1
        _bump(self.lengths, game.rolls, 1)
        self.normal += game.normal
        self.nothing += game.nothing
        for i, count in enumerate(game.tries):
            self.tries[i] += count
        for k, count in enumerate(game.by_dice):
            if count:
                _bump(self.by_dice, k, count)
                _bump(self.agains, k, game.agains[k])

    def __add__(self, other: Counts) -> Counts:
        total = Counts(len(self.wins))
        total += self
        total += other
        return total

    def __iadd__(self, other: Counts) -> Counts:
        self.games += other.games
        self.rolls += other.rolls
        self.wins = [a + b for a, b in zip(self.wins, other.wins, strict=True)]
        for k, count in enumerate(other.lengths):
            if count:
                _bump(self.lengths, k, count)
        self.normal += other.normal
        self.nothing += other.nothing
        self.tries = [a + b for a, b in zip(self.tries, other.tries, strict=True)]
        for k, count in enumerate(other.by_dice):
            if count:
                _bump(self.by_dice, k, count)
                _bump(self.agains, k, other.agains[k])
        return self

    @property
    def turns(self) -> int:
        """Five-dice turns: every turn roll not followed by a roll again ends one."""
        return sum(self.by_dice) - sum(self.agains)


def _bump(counts: list[int], index: int, by: int) -> None:
    if index >= len(counts):
        counts.extend([0] * (index + 1 - len(counts)))
    counts[index] += by
