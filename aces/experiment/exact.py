"""The exact values a class's games are held against, from the package's own odds.

Nothing here is typed in: the chances of a roll come from
:mod:`aces.odds.outcomes`, who wins and how long a game lasts from the
Markov chains of :mod:`aces.odds` (Aces in the Pot) and
:mod:`aces.simulate.fivedice_chain` (the five-dice game), the length of a
game too: its whole distribution, carried roll by roll through the chain.
A five-dice table too big for the chain, a full game among them and
tables with threes, still has the length of a game and the rolls of a
turn, from :mod:`aces.simulate.fivedice_lengths`, and up to four players
with five dice each the chance of each seat to lose too.
A table too big for either still has the chances of single rolls; its
whole-game values are ``None``.

>>> from aces.experiment.observe import Rules
>>> expected = exact(Rules("pot", 3, (("chips", 1), ("finish", "last-chip"))))
>>> [round(p, 3) for p in expected.seats]
[0.325, 0.32, 0.355]
>>> expected.nothing
Fraction(4, 9)
"""

from __future__ import annotations

import functools
import typing as t
from fractions import Fraction

from aces.errors import OptionError

if t.TYPE_CHECKING:
    from aces.experiment.observe import Rules
    from aces.rules.fivedice import Policy

__all__ = ["Expected", "exact"]

#: The length distribution is carried until this much of it is known; the
#: rest is one last category, "longer".
_LENGTH_MASS: t.Final = 0.9999
#: Distinct tables whose exact values are remembered.
_CACHE: t.Final = 32


class Expected(t.NamedTuple):
    """Exact values for one set of rules; ``None`` where there is none."""

    #: Chance of each seat (from the starter) to win, or to lose in five-dice.
    seats: list[float] | None
    mean_rolls: float | None
    sd_rolls: float | None
    #: ``length[k - 1]``: the chance of a game of exactly ``k`` rolls, up to
    #: where the rest is tiny; ``length_rest`` is the chance of a longer one.
    length: list[float] | None
    length_rest: float
    #: Aces in the Pot: a normal roll shows no 1 and no 6 (16/36).
    nothing: Fraction | None
    #: Aces in the Pot: a try ends by a six on roll 1, 2, 3, or is won.
    tries: tuple[Fraction, Fraction, Fraction, Fraction] | None
    #: Five-dice: the chance a face stays in the roller's hand.
    stays: Fraction | None
    rolls_per_turn: float | None

    def again(self, dice: int) -> float:
        """Five-dice: the chance that a roll of ``dice`` dice is followed by a
        roll again: some die leaves the hand and some die stays."""
        assert self.stays is not None
        stay = self.stays
        return float(1 - stay**dice - (1 - stay) ** dice)

    def quantile(self, q: float) -> int | None:
        """The smallest length whose chance of a game at most that long reaches ``q``."""
        if self.length is None:
            return None
        running = 0.0
        for k, chance in enumerate(self.length, 1):
            running += chance
            if running >= q - 1e-12:
                return k
        return None


@functools.lru_cache(maxsize=_CACHE)
def exact(rules: Rules) -> Expected:
    """The exact values for ``rules``, solved once per set of rules."""
    if rules.game == "pot":
        return _pot(rules)
    return _five_dice(rules)


def _pot(rules: Rules) -> Expected:
    from aces.odds import QUICK_STATES, check_size
    from aces.odds.outcomes import CHANCES, NO_SIX, Outcome

    six = 1 - NO_SIX
    tries = (six, NO_SIX * six, NO_SIX**2 * six, NO_SIX**3)
    nothing = CHANCES[Outcome(0, 0)]
    chips = t.cast("int", rules.option("chips"))
    finish = t.cast("t.Literal['last-chip', 'last-holder']", rules.option("finish"))
    try:
        check_size(rules.players, chips, QUICK_STATES)
    except OptionError:
        return Expected(None, None, None, None, 0.0, nothing, tries, None, None)
    from aces.odds.chain import build
    from aces.odds.solve import length_cdf, solve

    chain = build(rules.players, chips, finish)
    solution = solve(chain)
    length, rest = _spread(length_cdf(chain, _LENGTH_MASS))
    return Expected(solution.win_by_seat, solution.expected_rolls, solution.sd_rolls, length,
                    rest, nothing, tries, None, None)


def _five_dice(rules: Rules) -> Expected:
    from aces.simulate.fivedice import FiveDiceSimulation

    threes = bool(rules.option("threes"))
    stays = Fraction(2, 6) if threes else Fraction(3, 6)
    try:
        chain = FiveDiceSimulation.create(rules.players, dict(rules.options)).chain()
    except OptionError:
        chain = None
    if chain is None:
        return _five_dice_length(rules, stays)
    from aces.simulate.fivedice_chain import length_cdf, solve

    answer = solve(chain)
    length, rest = _spread(length_cdf(chain, _LENGTH_MASS))
    return Expected(answer.win_by_seat, answer.expected_rolls, answer.sd_rolls, length, rest,
                    None, None, stays, answer.rolls_per_turn)


def _five_dice_length(rules: Rules, stays: Fraction) -> Expected:
    """A table too big for the chain: the length of a game and the rolls of a
    turn, carried state by state to within
    :data:`aces.simulate.fivedice_lengths.TOLERANCE`, threes or not, and each
    seat's chance to lose where that costs little enough (four players with
    five dice each, not five); a table too big for that too has neither."""
    from aces.simulate import fivedice_lengths

    dice = t.cast("int", rules.option("dice"))
    threes = bool(rules.option("threes"))
    policy = t.cast("Policy", rules.option("threes_to"))
    lengths = fivedice_lengths.solved(rules.players, dice, threes, policy)
    if lengths is None:
        return Expected(None, None, None, None, 0.0, None, None, stays, None)
    return Expected(lengths.losses, lengths.mean, lengths.sd, lengths.chances, lengths.rest,
                    None, None, stays, lengths.mean / lengths.turns)


def _spread(cdf: list[float]) -> tuple[list[float], float]:
    """The chance of each length, and of a longer game, from the chance of
    a game over within each length."""
    return ([b - a for a, b in zip([0.0, *cdf], cdf, strict=False)],
            max(0.0, 1.0 - cdf[-1]))
