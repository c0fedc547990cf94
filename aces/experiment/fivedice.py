"""What the class experiment expects of Aces, the five-dice game, exactly.

>>> from aces.experiment.observe import Rules
>>> expected(Rules("five-dice", 3, (("dice", 1), ("threes", False),
...                                 ("threes_to", "random")))).stays
Fraction(1, 2)
"""

from __future__ import annotations

import typing as t
from fractions import Fraction

from aces.errors import OptionError
from aces.exact import fivedice_lengths
from aces.exact.fivedice_chain import length_cdf, solve
from aces.experiment.exact import LENGTH_MASS, Expected, spread
from aces.simulation.fivedice import FiveDiceSimulation

if t.TYPE_CHECKING:
    from aces.experiment.observe import Rules
    from aces.rules.fivedice import Policy

__all__ = ["expected"]


def expected(rules: Rules) -> Expected:
    """The exact values of a table of Aces: from the chain where it is small
    enough, else the length of a game and the rolls of a turn (and each
    seat's chance to lose where that costs little enough), and always the
    chance that a face stays in the hand."""

    threes = bool(rules.option("threes"))
    stays = Fraction(2, 6) if threes else Fraction(3, 6)
    try:
        chain = FiveDiceSimulation.create(rules.players, dict(rules.options)).chain()
    except OptionError:
        chain = None
    if chain is None:
        return _five_dice_length(rules, stays)

    answer = solve(chain)
    length, rest = spread(length_cdf(chain, LENGTH_MASS))
    return Expected(answer.win_by_seat, answer.expected_rolls, answer.sd_rolls, length, rest,
                    None, None, stays, answer.rolls_per_turn)


def _five_dice_length(rules: Rules, stays: Fraction) -> Expected:
    """A table too big for the chain: the length of a game and the rolls of a
    turn, carried state by state to within
    :data:`aces.exact.fivedice_lengths.TOLERANCE`, threes or not, and each
    seat's chance to lose where that costs little enough (four players with
    five dice each, not five); a table too big for that too has neither."""

    dice = t.cast("int", rules.option("dice"))
    threes = bool(rules.option("threes"))
    policy = t.cast("Policy", rules.option("threes_to"))
    lengths = fivedice_lengths.solved(rules.players, dice, threes, policy)
    if lengths is None:
        return Expected(None, None, None, None, 0.0, None, None, stays, None)
    return Expected(lengths.losses, lengths.mean, lengths.sd, lengths.chances, lengths.rest,
                    None, None, stays, lengths.mean / lengths.turns)
