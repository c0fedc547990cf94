"""Each player's chance from any moment of a game, not only its start.

Every game brings its own odds of a table (its registration's
:attr:`~aces.games.Registration.chances`: :mod:`aces.chances.pot`,
:mod:`aces.chances.fivedice`), each a :class:`GameOdds`, which holds what
both games' odds share.

A game's chain is solved once for its table (the players, and the chips
and finish or the dice and variation): the solution holds every state's
answer, so every position of a log is a look-up in it, not a new solve.
:func:`odds_for` makes the right :class:`PositionOdds` for a header and
:meth:`PositionOdds.chances` answers for a state of the rules.

The opening is part of a game too: before it is decided, a player's chance
is the chance of each seat to start, from the values rolled so far, times
the solved chances with that seat rolling first.

Where the chain is too large to solve (many players, or a full game of
Aces with five dice each), the chances are estimated by playing games on
from that very state with the simulation's engines, and carry the margin
of a 95 % interval: ``exact`` says which. In Aces, the chain of the last
few dice in play still answers the end of the game exactly, and the games
played on stop there (:mod:`aces.chances.fivedice`).

>>> from aces.events import SCHEMA, GameStarted
>>> from aces.rules import pot
>>> header = GameStarted(schema=SCHEMA, game="pot", players=("Ada", "Bo", "Cy"),
...                      options=pot.options({}))
>>> odds = odds_for(header)
>>> state = pot.start(header)
>>> [round(p, 4) for p in odds.chances(state).by_seat]      # before the opening
[0.3333, 0.3333, 0.3333]
"""

from __future__ import annotations

import functools
import math
import typing as t
from fractions import Fraction

import numpy as np

from aces.dice import FACES
from aces.games import game_named, registration
from aces.inference import mean_interval
from aces.memo import OBJECT, REF, Memo
from aces.simulation.stats import wilson

if t.TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from numpy.typing import NDArray

    from aces.events import GameStarted
    from aces.rules.opening import Opening

__all__ = ["ESTIMATE_GAMES", "ESTIMATE_SEED", "FEWEST_GAMES", "ROLL_WORK", "Chances", "GameOdds",
           "PositionOdds", "from_sums", "odds_for", "odds_of", "random", "starters", "turned"]

#: Games played on from each position whose chances are estimated: a
#: margin of under 2 points at a chance of one half.
ESTIMATE_GAMES: t.Final = 3000
#: The per-roll budget: rolls simulated for the estimate of one position, at
#: most (a fiftieth of a second or so). A position whose games have many
#: rolls still to come is played on fewer times, down to
#: :data:`FEWEST_GAMES`, and its margin says so.
ROLL_WORK: t.Final = 200_000
#: The fewest games an estimate plays on: a margin of about 5 points at one half.
FEWEST_GAMES: t.Final = 375
#: Seed of the estimates, so that a page written twice is the same page.
ESTIMATE_SEED: t.Final = 20261201
#: Bytes the estimates of one table may hold before they are worked out afresh.
ESTIMATE_MEMO: t.Final = 4 << 20


class Chances(t.NamedTuple):
    """Each seat's chance from one moment: to win the pot, or in the
    five-dice game, to lose."""

    by_seat: tuple[float, ...]
    #: Solved exactly, or estimated by simulation.
    exact: bool
    #: Half the width of the 95 % interval of an estimate; 0 when exact.
    margin: float = 0.0


class PositionOdds(t.Protocol):
    """Answers for every state of one table's games."""

    #: ``True`` when the chances are the chain's exact solution.
    exact: bool

    def chances(self, state: t.Any) -> Chances:
        """Each seat's chance from ``state``, a state of the rules."""
        ...

    def chances_of(self, states: Sequence[t.Any]) -> list[Chances]:
        """Each seat's chance from each of ``states``: estimates of them all
        share one simulation, which costs far less than one each."""
        ...

    def cost(self, states: Sequence[t.Any]) -> int:
        """The rolls :meth:`chances_of` would simulate for ``states``: 0 when
        exact, or when their estimates are remembered."""
        ...


#: The largest tables whose chances are estimated: beyond, a game runs so
#: long that playing thousands of them on from every roll of a log would
#: cost minutes, and no chance is given at all.
MAX_ESTIMATE_PLAYERS: t.Final = 12
MAX_ESTIMATE_PIECES: t.Final = 60


def odds_of(header: GameStarted) -> PositionOdds | None:
    """:func:`odds_for` a game whose registration brings its odds, at a table
    small enough to solve or to estimate; ``None`` for any other (the replay
    and the page then say no chance at all)."""

    game = registration(header.game)
    if not game.has("chances"):
        return None
    options = game.rules.options(header.options)
    pieces = len(header.players) * int(options.get("chips", options.get("dice", 1)))
    odds = odds_for(header)
    if not odds.exact and (len(header.players) > MAX_ESTIMATE_PLAYERS
                           or pieces > MAX_ESTIMATE_PIECES):
        return None
    return odds


def odds_for(header: GameStarted) -> PositionOdds:
    """The odds of a game's every state: solved once for its table.

    Solutions are kept for the few tables most recently asked for, so the
    games of a session (the same table over and over) share one solve.
    """

    game = game_named(header.game)
    opts = game.options(header.options)
    key = (header.game, len(header.players), tuple(sorted(opts.items())))
    return _odds(key)


@functools.lru_cache(maxsize=4)
def _odds(key: tuple[str, int, tuple[tuple[str, t.Any], ...]]) -> PositionOdds:
    game, players, items = key
    odds = registration(game).chances
    assert odds is not None, "only a game with odds is asked for them"
    return odds(players, dict(items))


# -- The opening ----------------------------------------------------------------


def starters(opening: Opening, values: dict[int, Fraction]) -> dict[int, Fraction]:
    """The chance of each seat to win the opening, from the round so far.

    ``values`` is the chance of each value a contender can roll. A round
    that ends in a tie is rolled again by those seats alone, all alike, so
    each of them starts with the same chance: a seat's chance is its
    expected share of the round's leaders, one over their number when it is
    among them (:func:`_share`). The seats leading now are alike, and so
    are the contenders still to roll, who roll the same dice: one of each
    is worked out, with the waiting one rolling first (the order of rolls
    changes nothing). The work grows with the contenders, never with the
    ways they can tie.

    >>> from aces.rules.opening import Opening
    >>> die = {face: Fraction(1, 6) for face in range(1, 7)}
    >>> starters(Opening((0, 1, 2)).record(4).record(6), die)  # Bo has 6, Cy still to roll
    {1: Fraction(11, 12), 2: Fraction(1, 12)}
    """
    leaders = opening.leaders()
    waiting = opening.contenders[opening.rolled:]
    chances: dict[int, Fraction] = {}
    if leaders:
        share = _share(opening.top(), len(leaders), len(waiting), values)
        chances.update(dict.fromkeys(leaders, share))
    if waiting:
        top, count = opening.top(), len(leaders)
        share = Fraction(0)
        for value, p in values.items():
            if value > top:
                share += p * _share(value, 1, len(waiting) - 1, values)
            elif value == top:
                share += p * _share(top, count + 1, len(waiting) - 1, values)
        chances.update(dict.fromkeys(waiting, share))
    return dict(sorted(chances.items()))


def _share(top: int, count: int, waiting: int, values: dict[int, Fraction]) -> Fraction:
    """A seat's expected share of a round's leaders, the seat now one of
    ``count`` on ``top``, with ``waiting`` others still to roll: each of them
    beats the top (and the seat is out), ties it (one more to share with)
    or falls short, so with ``j`` ties of ``waiting`` the share is
    ``1 / (count + j)``, a binomial sum.

    >>> half = {1: Fraction(1, 2), 2: Fraction(1, 2)}
    >>> _share(2, 1, 1, half), _share(1, 1, 1, half)   # a tie at the top, or beaten
    (Fraction(3, 4), Fraction(1, 4))
    """
    ties = values.get(top, Fraction(0))
    below = sum((p for value, p in values.items() if value < top), Fraction(0))
    return sum((math.comb(waiting, j) * ties**j * below**(waiting - j) / (count + j)
                for j in range(waiting + 1)), Fraction(0))


@functools.lru_cache(maxsize=256)
def _starting(opening: Opening, dice: int) -> dict[int, Fraction]:
    """:func:`starters` with ``dice`` dice rolled for the opening, remembered:
    every roll of an opening asks for it again, and for each of its estimates."""
    return starters(opening, _totals(dice))


@functools.cache
def _totals(dice: int) -> dict[int, Fraction]:
    """The chance of each total of ``dice`` dice."""
    totals = {0: Fraction(1)}
    for _ in range(dice):
        after: dict[int, Fraction] = {}
        for total, chance in totals.items():
            for face in FACES:
                after[total + face] = after.get(total + face, Fraction(0)) + chance / 6
        totals = after
    return totals


def _through_opening(opening: Opening, dice: int,
                     from_seat: Callable[[int], Chances]) -> Chances:
    """Chances before play: each starter's chances, weighed by its chance to
    start, the opening rolled with ``dice`` dice."""
    total: NDArray[np.float64] | None = None
    margins = 0.0
    exact = True
    for seat, chance in _starting(opening, dice).items():
        answer = from_seat(seat)
        row = float(chance) * np.array(answer.by_seat)
        total = row if total is None else total + row
        margins += float(chance) * answer.margin
        exact = exact and answer.exact
    assert total is not None
    return Chances(tuple(float(p) for p in total), exact, margins)


#: Positions whose chances a table keeps: the games of a session go through
#: the same few again and again, and an opening's chances are a sum over
#: every way its round can end.
_POSITIONS: t.Final = 4096


def _remembered(kept: dict[tuple[t.Any, ...], Chances], key: tuple[t.Any, ...],
                work_out: Callable[[], Chances]) -> Chances:
    """The chances of a position, worked out once a table (a bounded memo:
    it starts afresh past :data:`_POSITIONS` positions)."""
    found = kept.get(key)
    if found is None:
        if len(kept) >= _POSITIONS:
            kept.clear()
        found = kept[key] = work_out()
    return found


def turned(row: NDArray[np.float64], rotation: int) -> tuple[float, ...]:
    """A row by seat counted from the roller, as seats of the table."""
    n = len(row)
    return tuple(float(row[(seat - rotation) % n]) for seat in range(n))


def _certain(seat: int, players: int) -> Chances:
    return Chances(tuple(1.0 if s == seat else 0.0 for s in range(players)), True)


# -- Estimates ---------------------------------------------------------------------


class _Estimates:
    """The estimated chances of one table's positions, each from
    :data:`ESTIMATE_GAMES` games played on from it, remembered within a budget.

    ``play`` plays on from many positions at once and gives a row for each,
    which ``estimate`` makes its chances (the wins by seat, for
    :func:`_from_wins`); the positions asked for together share its batches.
    """

    def __init__(self, play: Callable[[list[t.Any], int], NDArray[t.Any]],
                 games: Callable[[t.Any], int],
                 estimate: Callable[[NDArray[t.Any]], Chances]) -> None:
        self._play = play
        self._games = games
        self._estimate = estimate
        self._memo: Memo[t.Any, Chances] = Memo(ESTIMATE_MEMO)

    def missing(self, keys: Sequence[t.Any]) -> list[t.Any]:
        """The positions of ``keys`` not remembered, each once."""
        seen: set[t.Any] = set()
        missing = []
        for key in keys:
            if key not in seen:
                seen.add(key)
                if self._memo.get(key) is None:
                    missing.append(key)
        return missing

    def lookup(self, keys: Sequence[t.Any]) -> dict[t.Any, Chances]:
        """The estimate of every position of ``keys``: remembered, or played now,
        those with as many games to play together (:meth:`GameOdds._games`)."""

        found: dict[t.Any, Chances] = {}
        by_games: dict[int, list[t.Any]] = {}
        for key in keys:
            if key in found:
                continue
            known = self._memo.get(key)
            if known is None:
                by_games.setdefault(self._games(key), []).append(key)
                found[key] = Chances((), False)  # a place held until played
            else:
                found[key] = known
        for games, missing in sorted(by_games.items(), reverse=True):
            for key, row in zip(missing, self._play(missing, games), strict=True):
                chances = self._estimate(row)
                found[key] = chances
                self._memo.keep(key, chances, 2 * OBJECT + 4 * REF * len(chances.by_seat))
        return found


def _from_wins(wins: NDArray[np.int64]) -> Chances:
    """Chances from the wins by seat of games played on, with the margin of a
    95 % interval: the widest of the seats', so one margin serves them all."""

    games = int(wins.sum())
    margin = max((wilson(int(w), games).high - wilson(int(w), games).low) / 2 for w in wins)
    return Chances(tuple(int(w) / games for w in wins), False, margin)


def from_sums(sums: NDArray[np.float64], squares: NDArray[np.float64], games: int) -> Chances:
    """Chances from games played on that end in a chance by seat rather than
    a winner (the exact chances of the position a game was stopped at): their
    ``sums`` and the ``sums`` of their ``squares`` by seat, with the margin of
    the normal 95 % interval of each seat's mean, the widest seat's.

    A stopped game's chances vary far less than a winner does (they are
    the winner's chances given where the game got to), so the margin is
    worked out from how much they varied, not from the share's.

    >>> chances = from_sums(np.array([150.0, 250.0]), np.array([100.0, 200.0]), 400)
    >>> chances.by_seat, round(chances.margin, 4)
    ((0.375, 0.625), 0.0325)
    """
    means = sums / games
    spread = np.maximum(squares - sums * means, 0.0) / (games - 1)
    margin = max(mean_interval(0.0, math.sqrt(float(s)), games).high for s in spread)
    return Chances(tuple(float(m) for m in means), False, margin)


def random() -> np.random.Generator:
    """The generator of the estimates: seeded, so that a page written twice is the same."""
    return np.random.default_rng(ESTIMATE_SEED)


# -- Both games -----------------------------------------------------------------


class GameOdds:
    """What both games' odds share: a state's chances are made of positions
    of play (:meth:`_positions`), from the chain's values or, without them,
    from estimates worked out together for every state asked at once.

    A game says only what its players hold (:meth:`_holdings`), what a
    position of play is (:meth:`_position`), which seat a game over names
    (:meth:`_ended`), how a position is looked up in its chain
    (:meth:`_look_up`) and how games are played on from positions
    (:meth:`_play_on`).
    """

    def __init__(self, players: int, opening_dice: int, chain: t.Any,
                 values: NDArray[np.float64] | None) -> None:
        self.players = players
        #: The dice each contender rolls in the opening.
        self.opening_dice = opening_dice
        self.chain = chain
        self.values = values
        self.exact = chain is not None
        self._estimates = _Estimates(self._play_on, self._games, self._estimate)
        #: Exact chances already worked out: of openings, and of positions of play.
        self._openings: dict[tuple[t.Any, ...], Chances] = {}
        self._looked_up: dict[tuple[t.Any, ...], Chances] = {}

    def _holdings(self, state: t.Any) -> tuple[int, ...]:
        """What each seat holds in ``state``: chips, or dice."""
        raise NotImplementedError

    def _position(self, state: t.Any, seat: int | None = None) -> tuple[t.Any, ...]:
        """The position of play of ``state``; in its opening, the one after
        it with ``seat`` to roll first."""
        raise NotImplementedError

    def _ended(self, state: t.Any) -> int:
        """The seat a game over ended on: its winner, or in five-dice its loser."""
        raise NotImplementedError

    def _look_up(self, key: tuple[t.Any, ...]) -> Chances:
        raise NotImplementedError

    def _play_on(self, keys: list[tuple[t.Any, ...]], games: int) -> NDArray[t.Any]:
        raise NotImplementedError

    def _estimate(self, row: NDArray[t.Any]) -> Chances:
        """The chances of a position from its row of :meth:`_play_on`: its wins by seat."""
        return _from_wins(row)

    def _known(self, key: tuple[t.Any, ...]) -> bool:
        """Whether a position of a table whose chances are estimated is answered
        exactly all the same (:meth:`_look_up`): near the end of a game."""
        return False

    def _rolls_left(self, key: tuple[t.Any, ...]) -> float:
        """About how many rolls a game played on from ``key`` still has
        (measured by simulation: see the games' own methods)."""
        raise NotImplementedError

    def _games(self, key: tuple[t.Any, ...]) -> int:
        """Games played on from a position: :data:`ESTIMATE_GAMES`, halved
        until their rolls fit :data:`ROLL_WORK`, but never below
        :data:`FEWEST_GAMES`."""
        games = ESTIMATE_GAMES
        rolls = self._rolls_left(key)
        while games > FEWEST_GAMES and games * rolls > ROLL_WORK:
            games //= 2
        return games

    def cost(self, states: Sequence[t.Any]) -> int:
        """The rolls :meth:`chances_of` would simulate for ``states``."""
        if self.values is not None:
            return 0
        keys = self._estimates.missing([key for state in states for key in self._positions(state)
                                        if not self._known(key)])
        return int(sum(self._games(key) * self._rolls_left(key) for key in keys))

    def chances(self, state: t.Any) -> Chances:
        """Each seat's chance from ``state``, a state of the rules."""
        return self.chances_of([state])[0]

    def chances_of(self, states: Sequence[t.Any]) -> list[Chances]:
        """Each seat's chance from each of ``states``; their estimates share
        one simulation."""
        estimates: dict[t.Any, Chances] = {}
        if self.values is None:
            estimates = self._estimates.lookup(
                [key for state in states for key in self._positions(state)
                 if not self._known(key)])
        return [self._answer(state, estimates) for state in states]

    def _positions(self, state: t.Any) -> list[tuple[t.Any, ...]]:
        """The positions of play the chances from ``state`` are made of."""
        if state.phase == "over":
            return []
        if state.phase == "opening":
            return [self._position(state, seat)
                    for seat in _starting(state.opening, self.opening_dice)]
        return [self._position(state)]

    def _answer(self, state: t.Any, estimates: dict[t.Any, Chances]) -> Chances:
        if state.phase == "over":
            return _certain(self._ended(state), self.players)
        if state.phase == "opening":
            def opening() -> Chances:
                return _through_opening(state.opening, self.opening_dice,
                                        lambda seat: self._play(self._position(state, seat),
                                                                estimates))
            if self.values is None:
                return opening()
            return _remembered(self._openings, (state.opening, self._holdings(state)), opening)
        return self._play(self._position(state), estimates)

    def _play(self, key: tuple[t.Any, ...], estimates: dict[t.Any, Chances]) -> Chances:
        if self.values is None and not self._known(key):
            return estimates[key]
        # Asked after every settled roll of a walkthrough: a position met
        # before costs a look-up, not a call.
        found = self._looked_up.get(key)
        if found is None:
            found = _remembered(self._looked_up, key, lambda: self._look_up(key))
        return found
