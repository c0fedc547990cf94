"""The small games of Aces solved exactly, as an absorbing Markov chain made by the rules.

A state is what the rules need before the next roll, seen from the player
about to roll: the dice of every seat counted leftwards from the roller.
A roll is one of the ways its dice can fall, counted as how many show 1,
2, 5 (and 3, with ``threes``) and how many something else, with its
multinomial chance; with ``threes`` and the ``random`` policy, each way
the 3s can be shared among the other players is a branch of its own. Each
branch is decided by :func:`aces.rules.fivedice.decide` (receivers chosen
by :func:`aces.rules.fivedice.choose` for ``fewest`` and ``most``) and
folded by :func:`aces.rules.fivedice.evolve`: no second copy of the rules.

Settling every branch through the rules is what keeps the chain honest,
and what limits it: a full game of Aces, four players with five dice
each, has 8,855 states and 886,259 branches. So only small games are
solved (:data:`MAX_STATES`, :data:`MAX_BRANCHES`), such as the pub version
with one die each; bigger tables, up to five players with five dice each,
are carried roll by roll in :mod:`aces.exact.fivedice_lengths`.

>>> chain = build(3, 1, threes=False, threes_to="random")
>>> len(chain.states), chain.states[chain.start]
(10, (1, 1, 1))
>>> answer = solve(chain)
>>> round(sum(answer.win_by_seat), 12)
1.0
"""

from __future__ import annotations

import math
import random
import typing as t
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from aces.events import GameOver, RollAgain
from aces.exact import Exact
from aces.exact.solve import carry
from aces.rules import Roll, fivedice
from aces.rules.seats import Seats
from aces.rules.table import opening_seating

if t.TYPE_CHECKING:
    from collections.abc import Iterator

    from numpy.typing import NDArray

__all__ = ["MAX_BRANCHES", "MAX_STATES", "Branch", "Chain", "branch_count", "build",
           "length_cdf", "loss_values", "settled", "solvable", "solve", "state_count", "tail"]

#: The most states a chain may have: the solver holds a square matrix of
#: them for every seat (six players with one die each have 462 states).
MAX_STATES: t.Final = 500
#: The most branches (rolls settled by the rules) a chain may have: well
#: under a second of building (four players with two dice each need 6,270).
MAX_BRANCHES: t.Final = 25_000

#: A face for each kind of die a roll is counted by; 6 stands for every face
#: that stays in the hand (3 too, without ``threes``).
_KINDS: t.Final = {False: (1, 2, 5, 6), True: (1, 2, 5, 3, 6)}
_CHANCES: t.Final = {False: (Fraction(1, 6),) * 3 + (Fraction(1, 2),),
                     True: (Fraction(1, 6),) * 4 + (Fraction(1, 3),)}


class Branch(t.NamedTuple):
    """One way a roll in a state can go."""

    chance: Fraction
    #: The next state's index, or ``-1`` when the roll ends the game.
    state: int
    #: Seats to the left of the roller where the next roller sits.
    rotation: int
    #: Whether the roll ends the roller's turn (no roll again follows).
    ends_turn: bool


@dataclass(frozen=True, eq=False)
class Chain:
    """Every state of a small game of Aces and every branch out of each."""

    players: int
    dice: int
    #: Dice of each seat, seen from the roller.
    states: list[tuple[int, ...]]
    branches: list[list[Branch]]

    @property
    def start(self) -> int:
        """Everyone holds their dice, and seat 0 rolls (not in the chain of a
        game's tail: :func:`tail`)."""
        return self.states.index((self.dice,) * self.players)


def _compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every way to write ``total`` as ``parts`` counts, zero allowed, in order."""
    if parts == 1:
        yield (total,)
        return
    for first in range(total, -1, -1):
        for rest in _compositions(total - first, parts - 1):
            yield (first, *rest)


def _multinomial(counts: tuple[int, ...], chances: tuple[Fraction, ...]) -> Fraction:
    ways = math.factorial(sum(counts))
    chance = Fraction(1)
    for count, each in zip(counts, chances, strict=True):
        ways //= math.factorial(count)
        chance *= each**count
    return ways * chance


def _states(players: int, total: int) -> list[tuple[int, ...]]:
    """The roller holds a die; dice in play from 1 to ``total``, fewest first."""
    return [held for in_play in range(1, total + 1)
            for held in _compositions(in_play, players) if held[0]]


def state_count(players: int, dice: int) -> int:
    """The states of a game, known without listing them.

    >>> state_count(3, 1), state_count(4, 5)
    (10, 8855)
    """
    return math.comb(players * dice + players - 1, players)


def solvable(players: int, dice: int, threes: bool, threes_to: fivedice.Policy,
             most_states: int = MAX_STATES) -> bool:
    """Whether the game is small enough to solve here: few states, few branches."""
    if state_count(players, dice) > min(most_states, MAX_STATES):
        return False
    return branch_count(players, dice, threes, threes_to) <= MAX_BRANCHES


def tail(players: int, dice: int, threes: bool, threes_to: fivedice.Policy,
         most_states: int) -> int:
    """The most dice in play of a game's tail: the states of a game with that
    many dice in play or fewer, at most ``most_states`` of them and
    :data:`MAX_BRANCHES` branches, for :func:`build` with ``in_play``; 0 when
    not even one die in play fits.

    Every game of a big table ends in its tail, so what a chain of the tail
    answers exactly, simulated games need not play.

    >>> tail(12, 5, threes=False, threes_to="random", most_states=200)
    3
    >>> len(_states(12, 3)), len(_states(12, 4))
    (91, 455)
    """
    in_play = 0
    while (in_play < players * dice
           and math.comb(in_play + players, players) <= most_states
           and branch_count(players, dice, threes, threes_to, in_play + 1) <= MAX_BRANCHES):
        in_play += 1
    return in_play


def branch_count(players: int, dice: int, threes: bool, threes_to: fivedice.Policy,
                 in_play: int | None = None) -> int:
    """How many rolls the rules would settle to build the chain (of the states
    with at most ``in_play`` dice in play, when given), known in advance.

    >>> branch_count(3, 1, threes=False, threes_to="random")
    74
    """
    kinds = len(_KINDS[threes])
    shares = threes and threes_to == "random"
    count = 0
    for held in _states(players, players * dice if in_play is None else in_play):
        if shares:
            for counts in _compositions(held[0], kinds):
                count += math.comb(counts[3] + players - 2, players - 2)
        else:
            count += math.comb(held[0] + kinds - 1, kinds - 1)
    return count


def build(players: int, dice: int, threes: bool, threes_to: fivedice.Policy,
          in_play: int | None = None) -> Chain:
    """The chain of a game; the caller keeps it small (see :func:`branch_count`).

    With ``in_play``, only the states with at most that many dice in play,
    the end of a game too big for the whole chain (:func:`tail`): dice only
    ever leave play, so no roll from them leads out of them.
    """
    states = _states(players, players * dice if in_play is None else in_play)
    index = {held: number for number, held in enumerate(states)}
    branches = [[Branch(chance, -1 if after is None else index[after], rotation, ends_turn)
                 for chance, after, rotation, ends_turn
                 in settled(players, dice, threes, threes_to, held)]
                for held in states]
    return Chain(players, dice, states, branches)


def settled(players: int, dice: int, threes: bool, threes_to: fivedice.Policy,
            held: tuple[int, ...]) -> Iterator[tuple[Fraction, tuple[int, ...] | None, int, bool]]:
    """Every way a roll from ``held`` (the dice of each seat, from the roller) can go,
    settled by the rules: its chance, the dice of each seat from the next roller
    (``None`` when the game is over), that roller's seat from this one, and whether
    the turn ends.

    One die each, the roller's neighbour on the left holding none: a 1, a 2, a 5, and
    the rest.

    >>> for chance, after, seat, ends_turn in settled(3, 1, False, "random", (1, 0, 1)):
    ...     print(chance, after, seat, ends_turn)
    1/6 (1, 0, 0) 2 True
    1/6 (1, 1, 0) 1 True
    1/6 (2, 0, 0) 2 True
    1/2 (1, 1, 0) 2 True
    """
    names = tuple(f"P{seat}" for seat in range(players))
    state = fivedice.FiveDiceState(
        **opening_seating(names), dice_each=dice, threes=threes, threes_to=threes_to,
        held=Seats(held), phase="play", centre=players * dice - sum(held))
    kinds, chances = _KINDS[threes], _CHANCES[threes]
    unused = random.Random(0)  # fewest and most choose without chance
    for counts in _compositions(held[0], len(kinds)):
        roll = tuple(face for face, count in zip(kinds, counts, strict=True)
                     for _ in range(count))
        chance = _multinomial(counts, chances)
        for to, share in _receivers(state, roll, unused):
            yield _branch(state, Roll(roll, to), chance * share)


def _receivers(state: fivedice.FiveDiceState, roll: tuple[int, ...], rng: random.Random,
               ) -> Iterator[tuple[tuple[str, ...], Fraction]]:
    """Whom the roll's 3s go to, with the chance of each choice."""
    threes = roll.count(fivedice.THREE) if state.threes else 0
    if not threes or state.threes_to != "random":
        yield fivedice.choose(state, roll, rng), Fraction(1)
        return
    others = state.players[1:]
    each = (Fraction(1, len(others)),) * len(others)
    for counts in _compositions(threes, len(others)):
        to = tuple(name for name, count in zip(others, counts, strict=True)
                   for _ in range(count))
        yield to, _multinomial(counts, each)


def _branch(state: fivedice.FiveDiceState, roll: Roll, chance: Fraction,
            ) -> tuple[Fraction, tuple[int, ...] | None, int, bool]:
    events = fivedice.decide(state, roll)
    ends_turn = not any(isinstance(event, RollAgain) for event in events)
    if any(isinstance(event, GameOver) for event in events):
        return chance, None, 0, ends_turn
    for event in events:
        state = fivedice.evolve(state, event)
    turn = state.turn
    held = state.held.as_tuple()
    return chance, held[turn:] + held[:turn], turn, ends_turn


def solve(chain: Chain) -> Exact:
    """Each seat's chance to lose, the game's length in rolls, and rolls per turn."""
    steps, ending, turns_end = _system(chain)
    loses = _losses(steps, ending, chain.players)[chain.start]
    step = steps[0].real
    rolls = np.linalg.solve(step, np.ones(len(chain.states)))
    squares = np.linalg.solve(step, 2 * rolls - 1)
    turns = np.linalg.solve(step, turns_end)
    mean = float(rolls[chain.start])
    return Exact(
        win_by_seat=[float(x) for x in loses],
        expected_rolls=mean,
        sd_rolls=math.sqrt(max(float(squares[chain.start]) - mean * mean, 0.0)),
        rolls_per_turn=mean / float(turns[chain.start]),
    )


def length_cdf(chain: Chain, quantile: float) -> list[float]:
    """The chance that the game is over within ``k`` rolls, for ``k = 1, 2, ...``,
    rolls again included, as a game's length is counted.

    The chance of every state is carried forward one roll at a time along
    the branches; what reaches the end is the game over. The list ends at
    the first ``k`` where that chance reaches ``quantile`` (or where what is
    left in play is below ``1 - quantile``, which rounding cannot hide).

    >>> chain = build(3, 1, threes=False, threes_to="random")
    >>> cdf = length_cdf(chain, 0.9999)
    >>> cdf[:2]  # three dice must reach the centre: no game is over in two rolls
    [0.0, 0.0]
    >>> chances = [b - a for a, b in zip([0.0, *cdf], cdf)]
    >>> mean = sum(k * chance for k, chance in enumerate(chances, 1))
    >>> round(mean, 1), round(solve(chain).expected_rolls, 1)
    (15.2, 15.2)
    """
    size = len(chain.states)
    sources = np.array([s for s, out in enumerate(chain.branches) for _ in out], dtype=np.int64)
    targets = np.array([size if branch.state < 0 else branch.state
                        for out in chain.branches for branch in out], dtype=np.int64)
    chances = np.array([float(branch.chance) for out in chain.branches for branch in out])
    return carry(lambda mass: mass[sources] * chances, targets, chain.start, size, quantile)


def loss_values(chain: Chain) -> NDArray[np.float64]:
    """For every state, the chance that each seat (counted from the roller) loses.

    One solve answers every state at once: the odds of any moment of a
    game are a row of this table, turned round to the roller's seat.
    """
    steps, ending, _ = _system(chain)
    return _losses(steps, ending, chain.players)


def _system(chain: Chain) -> tuple[NDArray[np.complex128], NDArray[np.float64],
                                   NDArray[np.float64]]:
    """The chain's equations, one system per frequency over the seats.

    The chances that each seat (counted from the roller) loses from a state
    are the roller's own on the rolls that end the game, plus those of the
    next state turned round by the next roller's seat. Turning round is a
    cyclic shift, which the discrete Fourier transform over the seats makes
    a product: one system of the chain's size for each seat, instead of one
    as many times bigger. Also the chance, from each state, that a roll
    ends the turn.
    """
    n, size = chain.players, len(chain.states)
    turned = np.exp(-2j * np.pi * np.arange(n) / n)  # a shift by one seat, by frequency
    steps = np.zeros((n, size, size), dtype=np.complex128)
    ending = np.zeros(size)
    turns_end = np.zeros(size)
    for s, out in enumerate(chain.branches):
        for branch in out:
            p = float(branch.chance)
            turns_end[s] += p * branch.ends_turn
            if branch.state < 0:
                ending[s] += p
            else:
                steps[:, s, branch.state] -= p * turned**branch.rotation
    steps += np.eye(size)
    return steps, ending, turns_end


def _losses(steps: NDArray[np.complex128], ending: NDArray[np.float64],
            n: int) -> NDArray[np.float64]:
    by_frequency = np.linalg.solve(steps, np.broadcast_to(ending, (n, len(ending)))[..., None])
    loses: NDArray[np.float64] = np.fft.ifft(by_frequency[:, :, 0], axis=0).real.T
    return loses
