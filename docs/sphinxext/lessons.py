"""The mathematics of the probability lessons, computed from the package itself.

Every number the lessons print is one of these functions: exact chances
come from :mod:`aces.exact` and the rules' own ``settle``, estimates from
seeded simulations that play by the same rules (:mod:`aces.simulation`, or
for single rolls and turns, dice drawn here and judged by the rules). So
the documentation can never drift from the code: change a rule and every
lesson changes with it at the next build.

Nothing here formats or draws; :mod:`sphinxext.quantities` and
:mod:`sphinxext.plots` do. Results are cached, since both languages
of a build ask for the same numbers.

>>> NOTHING
Fraction(4, 9)
>>> fd_turn_rolls(2, threes=False)
Fraction(3, 2)
"""

from __future__ import annotations

import functools
import itertools
import math
import typing as t
from fractions import Fraction

import numpy as np

from aces.exact.finish import finish_by_seat, try_success
from aces.exact.outcomes import CHANCES, NO_SIX, OUTCOME_INDEX, OUTCOMES, ROLLS, Outcome, roll_cost
from aces.rules import fivedice, pot

if t.TYPE_CHECKING:
    from numpy.typing import NDArray

    from aces.exact.solve import Solution
    from aces.simulation.stats import Summary

__all__ = [
    "NOTHING",
    "SEED",
    "SIX",
    "TRY",
    "Games",
    "best_seat",
    "chance",
    "cost",
    "cost_per_outcome",
    "fd_leave",
    "fd_turn_length",
    "fd_turn_rolls",
    "finish_chances",
    "finish_rolls",
    "first_six",
    "game",
    "games_for_error",
    "games_for_power",
    "games_to_tell_apart",
    "length_cdf",
    "length_pmf",
    "outcome_codes",
    "power_at",
    "rolls_quantile",
    "rolls_with",
    "running_mean",
    "running_share",
    "sample_sizes",
    "seat_average",
    "seat_index",
    "seat_spread",
    "simulated_cost",
    "simulated_finish",
    "simulated_first_six",
    "simulated_games",
    "simulated_players",
    "simulated_starters",
    "simulated_summary",
    "simulated_turns",
    "uniform_rolls",
]

#: The seed of every simulation in the documentation: the pages are the
#: same at every build, and a reader can repeat each run.
SEED: t.Final = 2026

# -- One roll of two dice -------------------------------------------------------

#: The chance that a roll moves no chip: no 1 and no 6.
NOTHING: t.Final = CHANCES[Outcome(0, 0)]


def rolls_with(outcome: Outcome) -> int:
    """How many of the 36 rolls have this outcome."""
    return sum(1 for dice in ROLLS if (dice.count(pot.ACE), dice.count(pot.SIX)) == outcome)


def chance(test: t.Callable[[tuple[int, int]], bool]) -> Fraction:
    """The chance that a roll of two dice passes ``test``, counted over the 36 rolls.

    >>> chance(lambda dice: dice[0] == dice[1])
    Fraction(1, 6)
    """
    return Fraction(sum(1 for dice in ROLLS if test(dice)), len(ROLLS))


def uniform_rolls(count: int, seed: int = SEED) -> NDArray[np.int64]:
    """``count`` fair rolls of two dice, as numbers 0 to 35 (``6 * (a - 1) + (b - 1)``)."""
    return np.random.default_rng(seed).integers(0, len(ROLLS), size=count)


def outcome_codes(count: int, seed: int = SEED) -> NDArray[np.intp]:
    """The outcomes (indices into ``OUTCOMES``) of ``count`` simulated rolls."""
    return np.asarray(OUTCOME_INDEX, dtype=np.intp)[uniform_rolls(count, seed)]


def running_share(hits: NDArray[np.bool_]) -> NDArray[np.float64]:
    """The share of hits after each trial: the estimate as the trials go on.

    >>> running_share(np.array([True, False, True, True])).tolist()
    [1.0, 0.5, 0.6666666666666666, 0.75]
    """
    return np.cumsum(hits) / np.arange(1, len(hits) + 1)


def running_mean(values: NDArray[t.Any]) -> NDArray[np.float64]:
    """The mean after each trial."""
    return np.cumsum(values) / np.arange(1, len(values) + 1)


def cost_per_outcome(held: int) -> list[int]:
    """Chips a roll of each outcome costs a roller holding ``held``, by the rules' settle.

    >>> cost_per_outcome(1), cost_per_outcome(2)
    ([0, 1, 1, 1, 1, 1], [0, 1, 2, 1, 2, 2])
    """
    costs = []
    for outcome in OUTCOMES:
        paid = pot.settle(held, held + 2, outcome.aces, outcome.sixes, protect_last=False)
        costs.append(paid.to_pot + paid.to_left)
    return costs


def simulated_cost(held: int, count: int, seed: int = SEED) -> NDArray[np.int64]:
    """The chips each of ``count`` simulated rolls costs a roller holding ``held``."""
    return np.asarray(cost_per_outcome(held), dtype=np.int64)[outcome_codes(count, seed)]


def cost(held: int) -> Fraction:
    """The expected chips one roll costs a roller holding ``held`` (away from the finish)."""
    return roll_cost(held).total


# -- The finish ---------------------------------------------------------------------

TRY: t.Final = try_success()
#: The chance that one roll shows at least one six.
SIX: t.Final = 1 - NO_SIX


def first_six(roll: int) -> Fraction:
    """The chance that the first six comes on roll number ``roll`` (geometric)."""
    return NO_SIX ** (roll - 1) * SIX


def _shows_six() -> NDArray[np.bool_]:
    """By roll code (an index of :data:`~aces.exact.outcomes.ROLLS`): whether the
    roll shows a six, as the outcome table judges it."""
    return np.asarray([OUTCOMES[i].sixes > 0 for i in OUTCOME_INDEX])


def _until(count: int, seed: int,
           succeeds: t.Callable[[np.random.Generator, int], NDArray[np.bool_]],
           ) -> NDArray[np.int64]:
    """For ``count`` simulated players each repeating a trial until it succeeds,
    the number of the trial that did (from 1). ``succeeds(rng, n)`` draws one
    trial for each of ``n`` players still waiting."""
    rng = np.random.default_rng(seed)
    first = np.zeros(count, dtype=np.int64)
    waiting = np.arange(count)
    trial = 0
    while len(waiting):
        trial += 1
        hit = succeeds(rng, len(waiting))
        first[waiting[hit]] = trial
        waiting = waiting[~hit]
    return first


def simulated_first_six(count: int, seed: int = SEED) -> NDArray[np.int64]:
    """For ``count`` simulated players rolling until a six, the roll it came on.

    Each roll is drawn as a pair of dice and judged by the outcome table, so
    a six is whatever the rules count as one.
    """
    sixes = _shows_six()
    return _until(count, seed, lambda rng, n: sixes[rng.integers(0, len(ROLLS), size=n)])


def finish_chances(players: int) -> list[Fraction]:
    """Each seat's chance to win a one-chip finish, counted from the holder."""
    return finish_by_seat(players)


def simulated_finish(players: int, count: int, seed: int = SEED) -> NDArray[np.int64]:
    """The winning seat (from the holder) of ``count`` simulated one-chip finishes.

    Each try is three simulated rolls; a six in any of them passes the chip
    on, round the table, until a try has none.
    """
    sixes = _shows_six()

    def won(rng: np.random.Generator, n: int) -> NDArray[np.bool_]:
        rolls = rng.integers(0, len(ROLLS), size=(n, pot.TRY_ROLLS))
        no_six: NDArray[np.bool_] = ~np.any(sixes[rolls], axis=1)
        return no_six

    return (_until(count, seed, won) - 1) % players


# -- Whole games --------------------------------------------------------------------


@functools.cache
def game(players: int, finish: pot.Finish = "last-chip", chips: int = 2) -> Solution:
    """The exact answers for a whole game (``win_by_seat[0]`` is the seat that rolls
    first after the opening, seat 1 on the pages)."""
    from aces.exact.chain import build
    from aces.exact.solve import solve

    return solve(build(players, chips, finish))


@functools.cache
def length_cdf(players: int, finish: pot.Finish = "last-chip", chips: int = 2,
               quantile: float = 0.999) -> tuple[float, ...]:
    """The chance that a game is over within ``k`` rolls, ``k = 1, 2, ...``."""
    from aces.exact.chain import build
    from aces.exact.solve import length_cdf as cdf

    return tuple(cdf(build(players, chips, finish), quantile))


def length_pmf(players: int, finish: pot.Finish = "last-chip") -> NDArray[np.float64]:
    """The chance that a game lasts exactly ``k`` rolls, at index ``k - 1``."""
    return np.diff(np.asarray(length_cdf(players, finish)), prepend=0.0)


def rolls_quantile(players: int, share: float, finish: pot.Finish = "last-chip") -> int:
    """The fewest rolls within which at least ``share`` of games are over."""
    return next(k for k, p in enumerate(length_cdf(players, finish), start=1) if p >= share)


class Games(t.NamedTuple):
    """Simulated games in the order played: who won (seat) and how many rolls each took."""

    winners: NDArray[np.int64]
    lengths: NDArray[np.int64]


@functools.cache
def simulated_games(players: int, games: int, seed: int = SEED,
                    finish: pot.Finish = "last-chip") -> Games:
    """Play ``games`` games with :mod:`aces.simulation` and keep each one, in order.

    :meth:`~aces.simulation.Simulation.run` adds games up; a lesson on the law
    of large numbers needs them one by one, so this steps the simulation's
    own engine and puts the games back in the order they were dealt.
    """
    from aces.simulation.batch import RandomRolls
    from aces.simulation.pot import PotSimulation

    sim = PotSimulation.create(players, {"finish": finish})
    rolls = RandomRolls(np.random.default_rng(seed), len(OUTCOME_INDEX))
    winners = np.full(games, -1, dtype=np.int64)
    lengths = np.full(games, -1, dtype=np.int64)
    for done in sim.engine.play(np.arange(games, dtype=np.int64), rolls):
        winners[done.games] = done.winners
        lengths[done.games] = done.lengths
    return Games(winners, lengths)


@functools.cache
def simulated_summary(players: int, games: int, seed: int = SEED) -> Summary:
    """What ``aces simulate --players N --games G --seed S`` reports, as numbers."""
    from aces.simulation import simulation
    from aces.simulation.stats import summarize

    return summarize(simulation("pot", players, {}).run(games, seed))


def sample_sizes(largest: int) -> list[int]:
    """10, 100, 1,000... up to ``largest``: the checkpoints of a law of large numbers.

    >>> sample_sizes(10_000)
    [10, 100, 1000, 10000]
    """
    return [10**k for k in range(1, int(math.log10(largest)) + 1)]


def games_for_error(p: float, error: Fraction, z: float = 1.959963984540054) -> int:
    """Games needed for a 95 % interval of half-width ``error`` around a chance ``p``.

    >>> games_for_error(0.5, Fraction(1, 100))
    9604
    """
    return math.ceil(z * z * p * (1 - p) / float(error) ** 2)


def seat_index(seat: int, players: int) -> int:
    """Where seat ``seat`` is in a list by seat: the pages count seats as
    readers do, from 1 (seat 1 rolls first after the opening).

    :raises ValueError: for a seat not at the table.

    >>> seat_index(1, 4), seat_index(4, 4)
    (0, 3)
    """
    if not 1 <= seat <= players:
        raise ValueError(f"seats are counted from 1 to {players}, not {seat}")
    return seat - 1


def best_seat(players: int) -> int:
    """The seat (counted from 1, who rolls first after the opening) with the best chance."""
    chances = game(players).win_by_seat
    return chances.index(max(chances)) + 1


def games_to_tell_apart(players: int, z: float = 1.959963984540054) -> int:
    """Games needed before the best seat's 95 % interval no longer reaches the fair share.

    The interval's half-width is ``z * sqrt(p (1 - p) / n)``; it must be
    smaller than the distance from the best seat's exact chance to ``1 / players``.
    """
    p = game(players).win_by_seat[best_seat(players) - 1]
    gap = abs(p - 1 / players)
    return math.ceil(z * z * p * (1 - p) / (gap * gap))


def _fair_and_best(players: int) -> tuple[float, float]:
    return 1 / players, float(game(players).win_by_seat[best_seat(players) - 1])


def power_at(players: int, games: int, level: float = 0.95) -> float:
    """The chance that ``games`` games show the best seat beating a fair share.

    A two-sided test at ``level`` finds the effect when the best seat's share
    lies beyond ``z * sqrt(p0 (1 - p0) / n)`` from the fair share ``p0``; the
    share itself scatters with ``sqrt(p (1 - p) / n)`` round the true ``p``
    (normal approximation).

    >>> round(power_at(4, games_to_tell_apart(4)), 2)
    0.51
    """
    from statistics import NormalDist

    fair, p = _fair_and_best(players)
    z = NormalDist().inv_cdf(1 - (1 - level) / 2)
    reach = abs(p - fair) * math.sqrt(games) - z * math.sqrt(fair * (1 - fair))
    return NormalDist().cdf(reach / math.sqrt(p * (1 - p)))


def games_for_power(players: int, power: float, level: float = 0.95) -> int:
    """Games for a test at ``level`` to show the best seat's edge with chance ``power``,
    rounded up to two significant figures (a plan, not a measurement).

    >>> games_for_power(4, 0.8)
    25000
    """
    from statistics import NormalDist

    fair, p = _fair_and_best(players)
    z, zp = NormalDist().inv_cdf(1 - (1 - level) / 2), NormalDist().inv_cdf(power)
    exact = ((z * math.sqrt(fair * (1 - fair)) + zp * math.sqrt(p * (1 - p)))
             / (p - fair)) ** 2
    step: int = 10 ** max(0, len(str(math.ceil(exact))) - 2)
    return math.ceil(exact / step) * step


def simulated_starters(players: int, games: int, seed: int = SEED) -> NDArray[np.int64]:
    """Who starts each of ``games`` games: the opening played out by the rules'
    :class:`~aces.rules.opening.Opening`, one fair die a roll, ties rolled off."""
    from aces.rules.opening import Opening

    rng = np.random.default_rng(seed)
    starters = np.empty(games, dtype=np.int64)
    for number in range(games):
        opening = Opening.everyone(players)
        while True:
            while not opening.complete():
                opening = opening.record(int(rng.integers(1, 7)))
            leaders = opening.leaders()
            if len(leaders) == 1:
                starters[number] = leaders[0]
                break
            opening = Opening(leaders)
    return starters


def simulated_players(players: int, games: int, seed: int = SEED) -> NDArray[np.int64]:
    """The winning player (by the order they sat down) of ``games`` whole games,
    opening included: the starter from :func:`simulated_starters`, the winning
    seat from :func:`simulated_games`, counted round the table from the starter."""
    starters = simulated_starters(players, games, seed + 1)
    return (starters + simulated_games(players, games, seed).winners) % players


def seat_spread(players: int, finish: pot.Finish = "last-chip", chips: int = 2) -> float:
    """How far apart the seats are: the best seat's chance to win less the worst's."""
    chances = [float(p) for p in game(players, finish, chips).win_by_seat]
    return max(chances) - min(chances)


def seat_average(players: int, finish: pot.Finish = "last-chip", chips: int = 2) -> float:
    """A player's chance before the opening: the opening makes every seat equally
    likely to roll first, so it is the mean of the seats' chances."""
    return sum(float(p) for p in game(players, finish, chips).win_by_seat) / players


def finish_rolls() -> Fraction:
    """The expected rolls of a ``last-chip`` finish, from its first try to the win.

    Each try rolls once, a second time with no six in the first (chance
    ``q``), a third with none in two; tries go on until one has no six in
    three rolls (chance ``q**3``). By Wald's identity the expected rolls are
    ``(1 + q + q**2) / q**3``, whoever holds the chip.

    >>> round(float(finish_rolls()), 2)
    6.5
    """
    return (1 + NO_SIX + NO_SIX**2) / NO_SIX**3


# -- Aces, the five-dice game ----------------------------------------------------------


def fd_leave(threes: bool) -> Fraction:
    """The chance that one die leaves the roller's hand, by the rules' settle of each face."""
    return Fraction(sum(fivedice.settle((face,), threes=threes).leaving
                        for face in range(1, 7)), 6)


@functools.cache
def _leaving(dice: int, threes: bool) -> tuple[Fraction, ...]:
    """The chance that exactly ``j`` of ``dice`` rolled dice leave the hand, for each ``j``.

    Counted over all ``6 ** dice`` rolls with :func:`aces.rules.fivedice.settle`.
    """
    counts = [0] * (dice + 1)
    for roll in itertools.product(range(1, 7), repeat=dice):
        counts[fivedice.settle(roll, threes=threes).leaving] += 1
    return tuple(Fraction(c, 6**dice) for c in counts)


@functools.cache
def fd_turn_rolls(dice: int, threes: bool) -> Fraction:
    """The expected rolls in a turn that starts with ``dice`` dice.

    A roll that moves no die ends the turn, and so does a roll that moves
    them all; otherwise the roller goes again with what is left:
    ``E(k) = 1 + sum over 0 < j < k of P(j leave) E(k - j)``.
    """
    leaving = _leaving(dice, threes)
    return 1 + sum((leaving[j] * fd_turn_rolls(dice - j, threes) for j in range(1, dice)),
                   Fraction(0))


@functools.cache
def fd_turn_length(dice: int, threes: bool, longest: int = 12) -> tuple[Fraction, ...]:
    """The chance that a turn starting with ``dice`` dice takes exactly ``r`` rolls.

    Index ``r - 1``, for ``r`` up to ``longest``.
    """
    # chances[k]: the chance of still rolling, holding k dice, before the next roll.
    chances = [Fraction(0)] * (dice + 1)
    chances[dice] = Fraction(1)
    lengths = []
    for _ in range(longest):
        ended = Fraction(0)
        going = [Fraction(0)] * (dice + 1)
        for held, p in enumerate(chances):
            if not p:
                continue
            for j, q in enumerate(_leaving(held, threes)):
                if j in (0, held):
                    ended += p * q
                else:
                    going[held - j] += p * q
        lengths.append(ended)
        chances = going
    return tuple(lengths)


def simulated_turns(dice: int, threes: bool, count: int, seed: int = SEED) -> NDArray[np.int64]:
    """The rolls each of ``count`` simulated turns takes, starting with ``dice`` dice.

    Each die is drawn and judged by the rules' settle of its face.
    """
    leaves = np.asarray([fivedice.settle((face,), threes=threes).leaving > 0
                         for face in range(1, 7)])
    rng = np.random.default_rng(seed)
    held = np.full(count, dice, dtype=np.int64)
    rolls = np.zeros(count, dtype=np.int64)
    going = np.ones(count, dtype=bool)
    while going.any():
        rows = np.flatnonzero(going)
        faces = rng.integers(0, 6, size=(len(rows), dice))
        alive = np.arange(dice)[None, :] < held[rows, None]
        left = (leaves[faces] & alive).sum(axis=1)
        rolls[rows] += 1
        held[rows] -= left
        going[rows] = (left > 0) & (held[rows] > 0)
    return rolls
