"""Aces, the five-dice game, simulated: many games at once, each held as dice by seat.

A turn of Aces rolls every die the roller holds, so a roll is not one of
a fixed set of outcomes, and the states of a game (every way to share the
dice among the seats) are too many for a table. Each game of a batch is
kept as the dice of every seat and whose turn it is, and every step rolls
once in all the games still going, as :func:`aces.rules.fivedice.decide`
would: 1s to the centre, 2s left, 5s right, 3s (``threes``) to receivers
chosen by the ``threes_to`` policy; the same player again while the roll
moved a die and they still hold one, else the next player to the left
who holds dice. The game ends when the last die goes to the centre, and
whoever rolled that 1 loses: the simulation counts *losers* where Aces
in the Pot counts winners.

Everyone starts with the same dice, so the opening only decides which
seat is seat 0; the engine starts with seat 0 rolling and counts seats
from there, as ``aces simulate`` does for every game. A game's length is
its rolls after the opening, rolls again included (a missed turn is not a
roll), and its turns are counted too: a turn is one player's rolls until
play passes on.

Where the dice come from is a :class:`Dice`: :class:`FairDice` from a
seeded generator, or :class:`ScriptedDice`, given faces in order, which
the tests also feed to :func:`aces.engine.play` to compare the two
engines game by game.

>>> from aces.simulation.batch import results
>>> # E3 of the rulings from the first turn roll on: 3, 4, 2, 5 1, 2, 3 1, 6, 1.
>>> dice = ScriptedDice(np.array([[3, 4, 2, 5, 1, 2, 3, 1, 6, 1]]))
>>> game = results(FiveDiceEngine(3, 1, threes=False, threes_to="random"), dice, 1)
>>> game.winners.tolist(), game.lengths.tolist(), game.turns.tolist()  # Cy loses
([2], [8], [7])
"""

from __future__ import annotations

import functools
import typing as t
from dataclasses import dataclass

import numpy as np

from aces.errors import OptionError, Term
from aces.exact import Exact, fivedice_chain, fivedice_lengths
from aces.exact import fivedice_chain as chain
from aces.rules import fivedice
from aces.simulation import EXACT, answers, check_seats, cores
from aces.simulation.batch import Finished, next_holder, tally

if t.TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping

    from numpy.typing import NDArray

    from aces.rules import OptionValue
    from aces.simulation.batch import Tally

__all__ = ["CHUNK", "FIELD", "MAX_DICE", "QUICK_ENTRIES", "Batch", "Dice", "FairDice",
           "FiveDiceEngine", "FiveDiceSimulation", "Reached", "ScriptedDice", "Starts", "pack",
           "table_odds", "unpack"]

#: Without ``--exact``, a table too big for the chain has its exact answers
#: carried roll by roll only when a roll reads at most this many entries
#: (:func:`aces.exact.fivedice_lengths.cost`): four players with five dice
#: each, each seat's chance to lose included, a second or two; five players
#: with five dice take several.
QUICK_ENTRIES: t.Final = 2_500_000

#: The most dice in all a simulation takes.
MAX_DICE: t.Final = 1000

#: A roll is counted as its 1s, 2s, 5s and 3s, packed into one integer with
#: this many bits for each (in that order, from the lowest bits up), so that
#: the counts of two parts of a roll add up as one number.
FIELD: t.Final = 16
_MASK: t.Final = (1 << FIELD) - 1
#: What one die showing each face (index 1 to 6) adds to a packed roll.
_UNIT: t.Final = np.array([0, 1, 1 << FIELD, 1 << 3 * FIELD, 0, 1 << 2 * FIELD, 0],
                          dtype=np.int64)
#: Fair dice are rolled this many at a time, from one number below 6**CHUNK.
CHUNK: t.Final = 6
_POWERS: t.Final = 6 ** np.arange(CHUNK + 1, dtype=np.int64)
#: The type of the dice a seat holds in a batch: at most :data:`MAX_DICE` in
#: all, so that two bytes hold them, and the batch's hands move a quarter of
#: the memory eight would.
_HELD: t.Final = np.int16


def pack(faces: NDArray[np.integer[t.Any]]) -> NDArray[np.int64]:
    """Rolls (faces 1 to 6 along the last axis) as packed counts.

    >>> [int(count) for count in unpack(pack(np.array([1, 2, 2, 5, 3, 6])))]
    [1, 2, 1, 1]
    """
    packed: NDArray[np.int64] = _UNIT[faces].sum(axis=-1)
    return packed


def unpack(packed: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64],
                                              NDArray[np.int64], NDArray[np.int64]]:
    """The counts of 1s, 2s, 5s and 3s in packed rolls."""
    return (packed & _MASK, (packed >> FIELD) & _MASK, (packed >> 2 * FIELD) & _MASK,
            packed >> 3 * FIELD)


@functools.cache
def _chunks() -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Packed rolls of ``r`` dice for every number below ``6**r``, for ``r`` up
    to :data:`CHUNK`, end to end; and where each ``r`` starts.

    Its base-6 digits are the dice: the lowest ``r`` digits of a number below
    ``6**CHUNK`` are a fair roll of ``r`` dice.
    """
    tables = []
    for r in range(CHUNK + 1):
        numbers = np.arange(6**r, dtype=np.int64)
        faces = numbers[:, None] // _POWERS[:r] % 6 + 1
        tables.append(pack(faces))
    starts = np.cumsum([0] + [len(table) for table in tables[:-1]]).astype(np.int64)
    return np.concatenate(tables), starts


class Dice(t.Protocol):
    """Where the dice of a batch come from."""

    def faces(self, games: NDArray[np.int64], held: NDArray[np.int64]) -> NDArray[np.int64]:
        """The next roll of each of the numbered games, of ``held`` dice, packed."""
        ...

    def receivers(self, games: NDArray[np.int64], threes: NDArray[np.int64],
                  others: int) -> NDArray[np.int64]:
        """For the ``random`` policy: how many of each game's ``threes`` go to
        each of the ``others`` other seats, counted from the roller's left."""
        ...


class FairDice:
    """Fair dice and fair choices from a seeded NumPy generator."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def faces(self, games: NDArray[np.int64], held: NDArray[np.int64]) -> NDArray[np.int64]:
        table, starts = _chunks()
        part = np.minimum(held, CHUNK)
        numbers = self.rng.integers(0, _POWERS[CHUNK], size=len(held))
        packed = table[starts[part] + numbers % _POWERS[part]]
        rest = held - part
        rows = np.flatnonzero(rest)
        while len(rows):  # rollers holding more than a chunk of dice
            part = np.minimum(rest[rows], CHUNK)
            numbers = self.rng.integers(0, _POWERS[CHUNK], size=len(rows))
            packed[rows] += table[starts[part] + numbers % _POWERS[part]]
            rest[rows] -= part
            rows = rows[rest[rows] > 0]
        return packed

    def receivers(self, games: NDArray[np.int64], threes: NDArray[np.int64],
                  others: int) -> NDArray[np.int64]:
        counts: NDArray[np.int64] = self.rng.multinomial(threes, np.full(others, 1 / others))
        return counts


class ScriptedDice:
    """Given dice: row ``g`` of ``faces`` holds game ``g``'s dice in order, and
    row ``g`` of ``picks`` its random choices, each the number of seats past
    the roller's left neighbour. Used up as the games are played (tests)."""

    def __init__(self, faces: NDArray[np.integer[t.Any]],
                 picks: NDArray[np.integer[t.Any]] | None = None, others: int = 2) -> None:
        zero = np.zeros((len(faces), 1), dtype=np.int64)
        self._faces = np.concatenate([zero, np.cumsum(_UNIT[faces], axis=1)], axis=1)
        if picks is None:
            picks = np.zeros((len(faces), 0), dtype=np.int64)
        chosen = np.eye(others, dtype=np.int64)[picks]
        self._picks = np.concatenate([zero[:, :, None].repeat(others, axis=2),
                                      np.cumsum(chosen, axis=1)], axis=1)
        self._next_face = np.zeros(len(faces), dtype=np.int64)
        self._next_pick = np.zeros(len(faces), dtype=np.int64)

    def faces(self, games: NDArray[np.int64], held: NDArray[np.int64]) -> NDArray[np.int64]:
        """The next ``held`` scripted dice of each of ``games``, packed by face.

        :raises ValueError: for a game that outlasts them.
        """
        first = self._next_face[games]
        last = first + held
        if (last >= self._faces.shape[1]).any():
            raise ValueError("a game outlasted its scripted dice")
        self._next_face[games] = last
        packed: NDArray[np.int64] = self._faces[games, last] - self._faces[games, first]
        return packed

    def receivers(self, games: NDArray[np.int64], threes: NDArray[np.int64],
                  others: int) -> NDArray[np.int64]:
        """The next scripted choices of each of ``games``, counted by seat.

        :raises ValueError: for a game that outlasts them.
        """
        first = self._next_pick[games]
        last = first + threes
        if (last >= self._picks.shape[1]).any():
            raise ValueError("a game outlasted its scripted choices")
        assert others == self._picks.shape[2], "picks scripted for another table"
        self._next_pick[games] = last
        counts: NDArray[np.int64] = self._picks[games, last] - self._picks[games, first]
        return counts


class Starts(t.NamedTuple):
    """Many places to play games on from, ``each`` games from each: game ``g``
    starts from row ``g // each`` of ``held`` (dice by seat), with seat
    ``turn[g // each]`` to roll. Estimating the chances of every moment of a
    game at once shares the batches' cost among them."""

    held: NDArray[np.int64]
    turn: NDArray[np.int64]
    each: int


@dataclass(frozen=True, eq=False)
class FiveDiceEngine:
    """Aces for any number of players, a row of dice by seat for each game."""

    seats: int
    dice: int
    threes: bool
    threes_to: fivedice.Policy
    #: Where every game starts: dice by seat and the roller, or many such
    #: places (:class:`Starts`); ``None``: everyone holds ``dice`` and seat 0 rolls.
    start: tuple[tuple[int, ...], int] | Starts | None = None

    def play(self, games: NDArray[np.int64], rolls: Dice) -> Iterator[Finished]:
        """Play a batch of games to their ends, yielding them as they finish."""
        batch = Batch(self, len(games), games)
        k = 0
        while len(games):
            batch.roll(games, rolls)
            k += 1
            over = batch.in_play == 0
            if over.any():
                yield Finished(games[over], batch.turn[over],
                               np.full(int(over.sum()), k, dtype=np.int64), batch.turns[over])
                games = games[~over]
                batch.keep(~over)

    def play_to(self, games: NDArray[np.int64], rolls: Dice, in_play: int) -> Iterator[Reached]:
        """Play a batch of games until at most ``in_play`` dice are left in
        play, yielding each game as it gets there: what every seat holds then
        and who rolls next (or, for a game over, its loser). The games are
        those :meth:`play` plays, roll for roll, only stopped sooner."""
        batch = Batch(self, len(games), games)
        while len(games):
            batch.roll(games, rolls)
            there = batch.in_play <= in_play
            if there.any():
                yield Reached(games[there], batch.hands()[there], batch.turn[there])
                games = games[~there]
                batch.keep(~there)


class Reached(t.NamedTuple):
    """Games played as far as :meth:`FiveDiceEngine.play_to` asks: their numbers,
    the dice of every seat (a row a game, none in play when the game is over)
    and the seat to roll next, or the loser."""

    games: NDArray[np.int64]
    held: NDArray[np.int16]
    turn: NDArray[np.int64]


class Batch:
    """The games of a batch: dice by seat, the roller, dice in play, turns played.

    The dice are one flat array, game after game, so that a seat of every
    game is one index each. Once a game is over, ``turn`` is its loser.
    """

    def __init__(self, engine: FiveDiceEngine, games: int,
                 numbers: NDArray[np.int64] | None = None) -> None:
        self.engine = engine
        n = engine.seats
        start = engine.start
        if isinstance(start, Starts):
            rows = (np.arange(games) if numbers is None else numbers) // start.each
            self.held = start.held[rows].astype(_HELD).ravel()
            self.turn = start.turn[rows].astype(np.int64)
            self.in_play = start.held[rows].sum(axis=1).astype(np.int64)
        else:
            hands, roller = start or ((engine.dice,) * n, 0)
            self.held = np.tile(np.array(hands, dtype=_HELD), games)
            self.turn = np.full(games, roller, dtype=np.int64)
            self.in_play = np.full(games, sum(hands), dtype=np.int64)
        self.turns = np.zeros(games, dtype=np.int64)
        #: The seat to the left, and to the right, of each seat.
        self._left = np.roll(np.arange(n), -1)
        self._right = np.roll(np.arange(n), 1)

    def hands(self) -> NDArray[np.int16]:
        """The dice of every seat, a row per game."""
        return self.held.reshape(-1, self.engine.seats)

    def keep(self, rows: NDArray[np.bool_]) -> None:
        self.held = self.hands()[rows].ravel()
        for name in ("turn", "in_play", "turns"):
            setattr(self, name, getattr(self, name)[rows])

    def roll(self, games: NDArray[np.int64], dice: Dice) -> None:
        """One roll in every game of the batch, all of them still going."""
        n = self.engine.seats
        held, roller = self.held, self.turn
        first = np.arange(0, len(held), n)
        at = first + roller
        left = self._left[roller]
        # The roller's dice, taken out once: what is left of them is put back,
        # and neither the dice moved nor the 3s given reach the roller's seat.
        hand = held[at]
        aces, twos, fives, threes = unpack(dice.faces(games, hand))
        leaving = aces + twos + fives
        if self.engine.threes:
            leaving += threes
        hand -= leaving
        held[at] = hand
        held[first + left] += twos
        held[first + self._right[roller]] += fives
        self.in_play -= aces
        if self.engine.threes:
            self._give(games, threes, dice)
        again = (leaving > 0) & (hand > 0)
        self.turns += ~again
        passing = np.flatnonzero(~again & (self.in_play > 0))
        self.turn[passing] = next_holder(self.hands(), passing, left[passing])

    def _give(self, games: NDArray[np.int64], threes: NDArray[np.int64], dice: Dice) -> None:
        """The 3s to the players the policy chooses, as :func:`aces.rules.fivedice.choose`.

        The candidates are the other seats from the roller's left; ``fewest``
        and ``most`` count holdings after the roll's other dice have moved,
        and each 3 counts those given before it; a tie goes to the first.
        """
        n = self.engine.seats
        rows = np.flatnonzero(threes)
        if not len(rows):
            return
        # The flat index of each candidate, from the roller's left.
        others = rows[:, None] * n + (self.turn[rows, None] + 1 + np.arange(n - 1)) % n
        if self.engine.threes_to == "random":
            self.held[others] += dice.receivers(games[rows], threes[rows], n - 1)
            return
        pick = np.argmin if self.engine.threes_to == "fewest" else np.argmax
        left = threes[rows]
        while len(others):
            chosen = others[np.arange(len(others)), pick(self.held[others], axis=1)]
            self.held[chosen] += 1
            left -= 1
            still = left > 0
            others, left = others[still], left[still]


@dataclass(frozen=True, eq=False)
class FiveDiceSimulation:
    """Aces for a number of players and a set of options."""

    seats: int
    options: dict[str, OptionValue]
    game: str = fivedice.NAME

    @classmethod
    def create(cls, players: int, raw: Mapping[str, OptionValue]) -> FiveDiceSimulation:
        """Check the players and options against what the simulation can play.

        :raises ~aces.errors.OptionError: for what it cannot.
        """
        check_seats(players, fivedice.MIN_PLAYERS)
        options = fivedice.options(raw)
        dice = options["dice"]
        assert isinstance(dice, int)
        if players * dice > MAX_DICE:
            raise OptionError(
                "the simulation takes at most {limit} dice in all, not {players} players"
                " with {dice} each", limit=MAX_DICE, players=players, dice=dice)
        return cls(players, options)

    @functools.cached_property
    def engine(self) -> FiveDiceEngine:
        dice = self.options["dice"]
        assert isinstance(dice, int)
        return FiveDiceEngine(self.seats, dice, threes=bool(self.options["threes"]),
                              threes_to=t.cast("fivedice.Policy", self.options["threes_to"]))

    def run(self, games: int, seed: int, progress: Callable[[int], None] | None = None,
            jobs: int | None = None) -> Tally:
        """Play ``games`` games with dice from ``seed``, on ``jobs`` cores
        (default: all); ``wins`` counts losers. The answers are the same on
        any number of cores (:mod:`aces.simulation.cores`)."""
        return cores.run(self, games, seed, progress, jobs)

    def play(self, games: int, rng: np.random.Generator,
             progress: Callable[[int], None] | None = None) -> Tally:
        """Play ``games`` games with dice from ``rng``, here."""

        return tally(self.engine, games, FairDice(rng), progress)

    def solvable(self, by_seat: bool = False) -> bool:
        """Whether the game has exact answers: from the chain for small games, else
        from :mod:`aces.exact.fivedice_lengths` (five players with five dice each,
        not six); ``by_seat``, each seat's chance to lose among them (four players
        with five dice each, not five)."""

        return chain.solvable(*self._shape) or fivedice_lengths.solvable(*self._shape,
                                                                         by_seat=by_seat)

    def exact(self, most_states: int | None = None) -> Exact | None:
        """The exact answers: from the chain for the small games it can solve, else
        carried roll by roll (:func:`aces.exact.fivedice_lengths.solved`), each
        seat's chance to lose only where that costs little enough (``win_by_seat``
        is ``None`` for the others); ``None`` for a game too big for either.

        With ``most_states``, only what comes quickly: the carried answers of a
        table of at most that many states and :data:`QUICK_ENTRIES` entries.
        """

        built = self.chain(most_states)
        if built is not None:
            return fivedice_chain.solve(built)
        shape = self._shape
        if not fivedice_lengths.solvable(*shape):
            return None
        if most_states is not None and (
                fivedice_lengths.state_count(self.seats, self.engine.dice) > most_states
                or fivedice_lengths.cost(*shape) > QUICK_ENTRIES):
            return None
        lengths = fivedice_lengths.solved(*shape)
        assert lengths is not None
        return Exact(lengths.losses, lengths.mean, lengths.sd, lengths.mean / lengths.turns)

    def chain(self, most_states: int | None = None) -> fivedice_chain.Chain | None:
        """The game's Markov chain, for the small games it can be built for; ``None``
        for the others."""

        if not fivedice_chain.solvable(*self._shape,
                                       most_states=most_states or fivedice_chain.MAX_STATES):
            return None
        return fivedice_chain.build(*self._shape)

    @property
    def _shape(self) -> tuple[int, int, bool, fivedice.Policy]:
        """Players, dice each, the threes and their policy: what the chain is built from."""
        engine = self.engine
        return (self.seats, engine.dice, engine.threes, engine.threes_to)


def table_odds(players: int, options: Mapping[str, OptionValue], wait: bool = False) -> Exact:
    """The exact odds of a table of Aces for ``aces.odds``: each seat's chance
    to lose and the game's length, up to four players with five dice each;
    a table whose answers take seconds only with ``wait``.

    :raises ~aces.errors.OptionError: for a table the game cannot be played
        at, one that takes a while without ``wait``, or one too big.

    >>> [round(p, 3) for p in table_odds(3, {"dice": 1}).win_by_seat]
    [0.329, 0.331, 0.34]
    """
    sim = FiveDiceSimulation.create(players, options)
    answer, unsolved = (answers(sim, wait or None) if sim.solvable(by_seat=True)
                        else (None, "none"))
    if unsolved == "slow":
        # Translators: an error of aces.odds for the five-dice game, whose exact
        # chances for this table take seconds. {option}: exact=True in Python,
        # which the reader adds to what they typed.
        raise OptionError("the exact chances of this table of Aces take a while to work"
                          " out; add {option} to wait for them", option=EXACT)
    if answer is None or answer.win_by_seat is None:
        # Translators: an error of aces.odds for the five-dice game: each seat's
        # chance to lose is worked out up to four players with five dice each.
        # {simulate}: aces.simulate in Python, aces simulate on the command line.
        raise OptionError("this table of Aces is too big for exact chances by seat;"
                          " try {simulate}", simulate=Term("aces simulate"))
    return answer
