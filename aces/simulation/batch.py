"""What every fast engine shares: where rolls come from, and what games add up to.

An :class:`Engine` plays a batch of numbered games together and yields
them as they finish, each with its winner (the seat counted from the
player who rolls first after the opening) and its length in rolls.
:func:`tally` adds up many batches; :func:`play_each` keeps every game,
for tests that compare engines game by game. An engine whose dice come
from elsewhere than :class:`Rolls` (the five-dice game rolls as many
dice as a player holds) is a :class:`Plays` of its own source, and uses
the same :func:`tally` and :func:`results`.
"""

from __future__ import annotations

import functools
import typing as t

import numpy as np

if t.TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from numpy.typing import NDArray

__all__ = ["BATCH", "TABLE_SEATS", "Engine", "Finished", "Plays", "RandomRolls", "Rolls",
           "ScriptedRolls", "Tally", "batches", "next_holder", "play_each", "results", "tally",
           "tally_each"]

#: Games stepped together; small enough for the working arrays to stay in cache.
BATCH: t.Final = 1 << 15
#: The largest table whose next holder is looked up in a table of every set
#: of seats that hold any (:func:`next_holder`): 4,096 sets of twelve seats.
TABLE_SEATS: t.Final = 12

R = t.TypeVar("R", contravariant=True)
S = t.TypeVar("S")


class Rolls(t.Protocol):
    """Where the rolls come from: ``rolls(games, k)`` is the ``k``-th roll
    (counted from 0) of each of the numbered games."""

    def __call__(self, games: NDArray[np.int64], k: int) -> NDArray[np.integer[t.Any]]: ...


class RandomRolls:
    """Fair rolls from a seeded NumPy generator: numbers below ``rolls``."""

    def __init__(self, rng: np.random.Generator, rolls: int) -> None:
        self.rng = rng
        self.rolls = rolls

    def __call__(self, games: NDArray[np.int64], k: int) -> NDArray[np.uint16]:
        return self.rng.integers(0, self.rolls, size=len(games), dtype=np.uint16)


class ScriptedRolls:
    """Given rolls: row ``g`` holds game ``g``'s rolls in order (tests)."""

    def __init__(self, rolls: NDArray[np.integer[t.Any]]) -> None:
        self.rolls = rolls

    def __call__(self, games: NDArray[np.int64], k: int) -> NDArray[np.integer[t.Any]]:
        if k >= self.rolls.shape[1]:
            # Past the script: games over by now ignore their rolls.
            return np.zeros(len(games), dtype=self.rolls.dtype)
        rolls: NDArray[np.integer[t.Any]] = self.rolls[games, k]
        return rolls


class Finished(t.NamedTuple):
    """Games that ended: their numbers, winners (seats) and lengths (rolls)."""

    games: NDArray[np.int64]
    winners: NDArray[np.int64]
    lengths: NDArray[np.int64]
    #: Turns each game lasted, for engines that count them: a turn is one
    #: player's rolls until play passes on (or the game ends).
    turns: NDArray[np.int64] | None = None


class Plays(t.Protocol[R]):
    """Plays batches of games of one game, with rolls from a source of type ``R``."""

    @property
    def seats(self) -> int: ...

    def play(self, games: NDArray[np.int64], rolls: R) -> Iterator[Finished]:
        """Play the numbered games to their ends, yielding them as they finish."""
        ...


class Engine(t.Protocol):
    """Plays batches of games of one game, its players and options fixed."""

    @property
    def seats(self) -> int: ...

    def play(self, games: NDArray[np.int64], rolls: Rolls) -> Iterator[Finished]:
        """Play the numbered games to their ends, yielding them as they finish."""
        ...


class Tally(t.NamedTuple):
    """What many games add up to."""

    #: Games won by each seat (lost, in a game that counts losers: five-dice).
    wins: NDArray[np.int64]
    #: ``lengths[k]``: games that lasted ``k`` rolls.
    lengths: NDArray[np.int64]
    #: Turns in all the games, when the engine counts them.
    turns: int | None = None

    @property
    def games(self) -> int:
        return int(self.wins.sum())


def tally(engine: Plays[S], games: int, rolls: S,
          progress: Callable[[int], None] | None = None) -> Tally:
    """Play ``games`` games and count wins by seat and games by length."""
    wins = np.zeros(engine.seats, dtype=np.int64)
    lengths = np.zeros(1, dtype=np.int64)
    turns: int | None = None
    for batch in batches(games):
        for done in engine.play(batch, rolls):
            wins += np.bincount(done.winners, minlength=engine.seats)
            counted = np.bincount(done.lengths)
            if len(counted) > len(lengths):
                lengths = np.pad(lengths, (0, len(counted) - len(lengths)))
            lengths[: len(counted)] += counted
            if done.turns is not None:
                turns = (turns or 0) + int(done.turns.sum())
        if progress is not None:
            progress(len(batch))
    return Tally(wins, lengths, turns)


def tally_each(engine: Plays[S], places: int, each: int, rolls: S) -> NDArray[np.int64]:
    """Wins by seat of ``each`` games from each of ``places`` places to start
    from, a row a place: for an engine whose game ``g`` starts from place
    ``g // each``. One run for all of them, so they share its batches."""
    seats = engine.seats
    wins = np.zeros(places * seats, dtype=np.int64)
    for batch in batches(places * each):
        for done in engine.play(batch, rolls):
            wins += np.bincount(done.games // each * seats + done.winners,
                                minlength=places * seats)
    return wins.reshape(places, seats)


def results(engine: Plays[S], rolls: S, games: int) -> Finished:
    """Play ``games`` games and keep each one's result, in the games' order (tests)."""
    winners = np.full(games, -1, dtype=np.int64)
    lengths = np.full(games, -1, dtype=np.int64)
    turns = np.full(games, -1, dtype=np.int64)
    counted = False
    for batch in batches(games):
        for done in engine.play(batch, rolls):
            winners[done.games] = done.winners
            lengths[done.games] = done.lengths
            if done.turns is not None:
                counted = True
                turns[done.games] = done.turns
    return Finished(np.arange(games), winners, lengths, turns if counted else None)


def play_each(engine: Engine, rolls: ScriptedRolls) -> Finished:
    """Play one game per row of scripted rolls; the winner and length of each.

    :raises ValueError: for a game that outlasts its rolls.
    """
    finished = results(engine, rolls, len(rolls.rolls))
    if (finished.lengths > rolls.rolls.shape[1]).any():
        raise ValueError("a game outlasted its scripted rolls")
    return finished


def next_holder(hands: NDArray[np.integer[t.Any]], rows: NDArray[np.intp],
                seats: NDArray[np.int64]) -> NDArray[np.int64]:
    """Who rolls next in each of ``rows`` of ``hands`` (a row a game, a column a
    seat, holding chips or dice): in both games, the first seat from ``seats`` on,
    going left, that holds any. ``seats`` is moved on in place, and returned.

    >>> hands = np.array([[0, 0, 2], [1, 0, 0]])
    >>> next_holder(hands, np.array([0, 1]), np.array([0, 1])).tolist()
    [2, 0]
    """
    seat_count = hands.shape[1]
    # Flat indices: a little faster than indexing by row and column.
    flat = hands.reshape(-1)
    first = rows * seat_count
    empty = np.flatnonzero(flat[first + seats] == 0)
    if len(empty) and seat_count <= TABLE_SEATS:
        # At a small table, which seats hold any is one number a game, and
        # the next holder from each seat is looked up in a table of them all.
        holders = (hands[rows[empty]] > 0) @ _bits(seat_count)
        seats[empty] = _next_holders(seat_count)[holders * seat_count + seats[empty]]
    elif len(empty):
        # Where the next seat holds nothing, every seat after it is looked at
        # once, at once, and the first that holds any is taken: a table of many
        # empty-handed players costs one look, not one a seat.
        after = (seats[empty, None] + np.arange(1, seat_count)) % seat_count
        holds = flat[first[empty, None] + after] > 0
        seats[empty] = after[np.arange(len(empty)), holds.argmax(axis=1)]
    return seats


@functools.cache
def _bits(seats: int) -> NDArray[np.intp]:
    """The bit of each seat in a number that says which seats hold any."""
    return np.left_shift(1, np.arange(seats, dtype=np.intp))


@functools.cache
def _next_holders(seats: int) -> NDArray[np.intp]:
    """For every set of seats that hold any (a number, seat ``k`` its bit
    ``k``) and every seat to look from, the first seat from there on, going
    left, that holds any: entry ``holders * seats + seat``. A set that holds
    nothing is never looked up (a game in play has dice or chips in hand).

    >>> table = _next_holders(3)
    >>> [int(table[0b100 * 3 + seat]) for seat in range(3)]   # only seat 2 holds any
    [2, 2, 2]
    >>> [int(table[0b011 * 3 + seat]) for seat in range(3)]   # seats 0 and 1
    [0, 1, 0]
    """
    order = (np.arange(seats)[:, None] + np.arange(seats)) % seats
    holds = (np.arange(1 << seats, dtype=np.intp)[:, None, None] >> order) & 1
    table: NDArray[np.intp] = order[np.arange(seats), holds.argmax(axis=2)].ravel()
    return table


def batches(games: int) -> Iterator[NDArray[np.int64]]:
    """The numbers of ``games`` games, :data:`BATCH` at a time."""
    for first in range(0, games, BATCH):
        yield np.arange(first, min(first + BATCH, games), dtype=np.int64)
