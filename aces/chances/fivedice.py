"""Aces, the five-dice game: each player's chance to lose from every moment,
from the chain's values where the table is small enough, else estimated.

A table too big for its chain still has the chain of its tail: the
states with the last few dice in play (:func:`aces.exact.fivedice_chain.tail`),
every game's end. Its moments there are exact; and an estimate plays its
games on only until they reach the tail, then takes the exact chances of
where each one got to instead of playing it out. Those vary far less than
who loses (at twelve players, some fifty times less from the start), so the
same margin takes a fraction of the games, each of them shorter.

>>> odds = odds_of_table(3, {"dice": 1, "threes": False, "threes_to": "random"})
>>> odds.exact
True
"""

from __future__ import annotations

import typing as t

import numpy as np

from aces.chances import FEWEST_GAMES, Chances, GameOdds, from_sums, random, turned
from aces.exact import fivedice_chain
from aces.simulation.batch import batches, tally_each
from aces.simulation.fivedice import FairDice, FiveDiceEngine, Starts

if t.TYPE_CHECKING:
    from collections.abc import Mapping

    from numpy.typing import NDArray

    from aces.rules.fivedice import FiveDiceState

__all__ = ["TAIL_STATES", "FiveDiceOdds", "Tail", "odds_of_table"]

#: The most states of the chain of a big table's tail, solved with the
#: table in a few hundredths of a second: the last 3 dice of twelve
#: players (91 states), the last 4 of eight (165).
TAIL_STATES: t.Final = 200


class Tail(t.NamedTuple):
    """The chain of a table's tail, solved: each seat's chance to lose from
    every state with at most ``in_play`` dice in play, looked up by code."""

    in_play: int
    #: The chain's states, each as the dice of every seat from the roller.
    at: dict[tuple[int, ...], int]
    #: Each state's code (:func:`_codes`), in increasing order, and the row of
    #: ``values`` that answers it.
    codes: NDArray[np.int64]
    rows: NDArray[np.int64]
    #: Each seat's chance to lose (counted from the roller), a row a state.
    values: NDArray[np.float64]

    @classmethod
    def of(cls, players: int, dice: int, threes: bool, threes_to: t.Any,
           most_states: int) -> Tail | None:
        """The tail of a table with at most ``most_states`` states; ``None`` when
        no tail fits, or its codes would not fit an integer."""
        in_play = fivedice_chain.tail(players, dice, threes, threes_to, most_states)
        if not in_play or (in_play + 1) ** players >= 1 << 62:
            return None
        chain = fivedice_chain.build(players, dice, threes, threes_to, in_play)
        codes = _codes(np.array(chain.states, dtype=np.int64), np.zeros(len(chain.states),
                                                                        dtype=np.int64), in_play)
        order = np.argsort(codes)
        return cls(in_play, {held: i for i, held in enumerate(chain.states)}, codes[order],
                   order.astype(np.int64), fivedice_chain.loss_values(chain))

    def chances(self, held: NDArray[np.integer[t.Any]], turn: NDArray[np.int64],
                ) -> NDArray[np.float64]:
        """Each seat's chance to lose, a row for each row of ``held`` (dice by
        seat, at most :attr:`in_play` in play) with seat ``turn`` to roll; a
        game over (no dice in play) is certain for its loser, ``turn``."""
        players = held.shape[1]
        chances = np.zeros((len(held), players))
        over = held.sum(axis=1) == 0
        chances[np.flatnonzero(over), turn[over]] = 1.0
        going = np.flatnonzero(~over)
        found = self.rows[np.searchsorted(self.codes, _codes(held[going], turn[going],
                                                             self.in_play))]
        # Seat s is s - turn seats from the roller.
        seats = (np.arange(players) - turn[going, None]) % players
        chances[going] = np.take_along_axis(self.values[found], seats, axis=1)
        return chances


def _codes(held: NDArray[np.integer[t.Any]], turn: NDArray[np.int64],
           in_play: int) -> NDArray[np.int64]:
    """One number for the dice of every seat counted from the roller (``turn``),
    a digit of base ``in_play + 1`` a seat, a row of ``held`` each."""
    players = held.shape[1]
    from_roller = (np.arange(players) - turn[:, None]) % players
    digits: NDArray[np.int64] = (in_play + 1) ** from_roller
    codes: NDArray[np.int64] = (held.astype(np.int64) * digits).sum(axis=1)
    return codes


class FiveDiceOdds(GameOdds):
    """Aces: each seat's chance to lose, from the chain when it is small."""

    chain: fivedice_chain.Chain | None

    def __init__(self, players: int, dice: int, threes: bool, threes_to: t.Any,
                 chain: fivedice_chain.Chain | None,
                 values: NDArray[np.float64] | None, tail: Tail | None = None) -> None:
        super().__init__(players, dice, chain, values)
        self.dice = dice
        self.threes = threes
        self.threes_to = threes_to
        self._index = {held: i for i, held in enumerate(chain.states)} if chain else {}
        #: The solved tail of a table estimated, when it has one.
        self.tail = tail

    @classmethod
    def of(cls, players: int, dice: int, threes: bool, threes_to: t.Any,
           tail_states: int | None = None) -> FiveDiceOdds:
        """The table solved, or else estimated with the chain of its tail of at
        most ``tail_states`` states (default :data:`TAIL_STATES`; 0: none)."""
        shape = (players, dice, threes, threes_to)
        if not fivedice_chain.solvable(*shape):
            most = TAIL_STATES if tail_states is None else tail_states
            return cls(*shape, None, None, Tail.of(*shape, most) if most else None)
        chain = fivedice_chain.build(*shape)
        return cls(*shape, chain, fivedice_chain.loss_values(chain))

    def _holdings(self, state: FiveDiceState) -> tuple[int, ...]:
        return state.held.as_tuple()

    def _position(self, state: FiveDiceState, seat: int | None = None) -> tuple[t.Any, ...]:
        return (self._holdings(state), state.turn if seat is None else seat)

    def _ended(self, state: FiveDiceState) -> int:
        assert state.loser is not None
        return state.loser

    def _look_up(self, key: tuple[t.Any, ...]) -> Chances:
        held, turn = key
        if not sum(held):
            # The last die has just gone, before the game's end is told: the
            # turn has passed on from its roller, who loses.
            roller = (turn - 1) % self.players
            return Chances(tuple(float(seat == roller) for seat in range(self.players)), True)
        # Between rolls, the turn may sit with a seat out of dice: it is missed,
        # and the chances are those of the next seat that holds any. Neither
        # chain holds such a position, as nobody rolls from it.
        while not held[turn]:
            turn = (turn + 1) % self.players
        if self.values is None:
            assert self.tail is not None
            values, index = self.tail.values, self.tail.at
        else:
            values, index = self.values, self._index
        return Chances(turned(values[index[held[turn:] + held[:turn]]], turn), True)

    def _known(self, key: tuple[t.Any, ...]) -> bool:
        return self.tail is not None and sum(key[0]) <= self.tail.in_play

    def _games(self, key: tuple[t.Any, ...]) -> int:
        """With a tail, :data:`~aces.chances.FEWEST_GAMES` a position: games
        stopped at the tail vary so much less than who loses that so few give
        a margin of half a point or less, under half of what
        :data:`~aces.chances.ESTIMATE_GAMES` whole games gave (measured on the
        seeded games of 8 and 12 players)."""
        if self.tail is None:
            return super()._games(key)
        return FEWEST_GAMES

    def _rolls_left(self, key: tuple[t.Any, ...]) -> float:
        # A die leaves for the centre after some rolls: about 2.5 with five
        # dice each, 3.8 with two, 5 with one (simulated, for 3 to 12 players).
        # A game played on to the tail stops with its last dice still in play.
        def rolls(dice: int) -> float:
            each = min(max(dice / self.players, 1.0), 5.0)
            return dice * (2.0 + 3.0 / each)
        dice = int(sum(key[0]))
        if self.tail is None:
            return rolls(dice)
        return max(rolls(dice) - rolls(self.tail.in_play), 1.0)

    def _play_on(self, keys: list[tuple[t.Any, ...]], games: int) -> NDArray[t.Any]:
        """Each position's losses by seat; with a tail, a row ``[sums, squares]``
        of the exact chances where each game reached the tail, and of their squares."""
        starts = Starts(held=np.array([key[0] for key in keys], dtype=np.int64),
                        turn=np.array([key[1] for key in keys], dtype=np.int64),
                        each=games)
        engine = FiveDiceEngine(self.players, self.dice, self.threes, self.threes_to, starts)
        dice = FairDice(random())
        if self.tail is None:
            return tally_each(engine, len(keys), games, dice)
        n, places = self.players, len(keys)
        sums = np.zeros(places * n)
        squares = np.zeros(places * n)
        for batch in batches(places * games):
            for reached in engine.play_to(batch, dice, self.tail.in_play):
                chances = self.tail.chances(reached.held, reached.turn)
                cells = ((reached.games // games)[:, None] * n + np.arange(n)).ravel()
                sums += np.bincount(cells, chances.ravel(), minlength=places * n)
                squares += np.bincount(cells, (chances * chances).ravel(), minlength=places * n)
        return np.stack([sums.reshape(places, n), squares.reshape(places, n)], axis=1)

    def _estimate(self, row: NDArray[t.Any]) -> Chances:
        if self.tail is None:
            return super()._estimate(row)
        sums, squares = row
        # Each game's chances add up to one: so do the games.
        return from_sums(sums, squares, round(float(sums.sum())))


def odds_of_table(players: int, options: Mapping[str, t.Any]) -> FiveDiceOdds:
    """The odds of a table of Aces, its options complete."""
    return FiveDiceOdds.of(players, int(options["dice"]), bool(options["threes"]),
                           options["threes_to"])
