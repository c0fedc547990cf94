"""Named numbers for the lessons, and how each is written in a language.

A lesson writes ``:aces:`try``` where it wants the chance that a try
succeeds; the role asks :func:`quantity` for it and :func:`show` writes it
(``15625/46656``). A name may take whole-number arguments and a format:
``:aces:`win(4, 3):percent2``` is seat 3's chance to win a game of four
(seats counted from 1, as the pages count them),
as a percentage with two decimals, in the build's language (``25.77%``,
``25,77 %``).

>>> show(quantity("nothing"), "en")
'4/9'
>>> show(quantity("nothing:percent"), "nb")
'44,4\\xa0%'
>>> show(quantity("rolls(0, 0)"), "en")
'16'
"""

from __future__ import annotations

import re
import typing as t
from fractions import Fraction

from docutils import nodes

from aces.exact.outcomes import CHANCES, NO_SIX, ROLLS, Outcome, roll_cost
from aces.rules import pot
from aces.sphinxext.build import AcesDirective, registered
from sphinxext import lessons as les

if t.TYPE_CHECKING:
    import gettext
    from collections.abc import Callable, Mapping, Sequence

    from docutils.parsers.rst.states import Inliner
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

R = t.TypeVar("R")

__all__ = ["CALL", "LARGEST_SHOWN", "REGISTRY", "Kind", "Maker", "Offered", "Quantity",
           "SpecDirective", "SpecError", "called", "exact_fraction", "named", "number_nodes",
           "number_role", "quantity", "setup", "show"]

Kind = t.Literal["fraction", "percent", "decimal", "integer"]


class Quantity(t.NamedTuple):
    """A number and the way it is written by default."""

    value: Fraction | float | int
    kind: Kind
    #: Decimals, for percentages and decimals.
    digits: int = 1


class SpecError(ValueError):
    """A name, its arguments or its format that the lessons do not know."""


Maker = t.Callable[..., Quantity]
#: Every named number, by name.
REGISTRY: dict[str, Maker] = {}


def _named(name: str) -> t.Callable[[Maker], Maker]:
    def register(maker: Maker) -> Maker:
        REGISTRY[name] = maker
        return maker
    return register


def _fraction(value: Fraction) -> Quantity:
    return Quantity(value, "fraction")


_named("number")(lambda value: Quantity(value, "integer"))

# -- One roll -------------------------------------------------------------------------

_named("nothing")(lambda: _fraction(les.NOTHING))
_named("something")(lambda: _fraction(1 - les.NOTHING))
_named("nothing-power")(lambda rolls: _fraction(les.NOTHING**rolls))
_named("nothing-of")(lambda rolls: _fraction(rolls * les.NOTHING))
_named("rolls")(lambda aces, sixes: Quantity(les.rolls_with(Outcome(aces, sixes)), "integer"))
_named("outcome")(lambda aces, sixes: _fraction(CHANCES[Outcome(aces, sixes)]))
_named("some-ace")(lambda: _fraction(les.chance(lambda d: pot.ACE in d)))
_named("some-ace-rolls")(lambda: Quantity(
    les.chance(lambda d: pot.ACE in d) * len(ROLLS), "integer"))
_named("no-ace")(lambda: _fraction(les.chance(lambda d: pot.ACE not in d)))
_named("some-six")(lambda: _fraction(les.chance(lambda d: pot.SIX in d)))
_named("doubles")(lambda: _fraction(les.chance(lambda d: d[0] == d[1])))
_named("four-doubles")(lambda: _fraction(les.chance(
    lambda d: d[0] == d[1] and d[0] not in (pot.ACE, pot.SIX))))
_named("cost")(lambda held: _fraction(les.cost(held)))
_named("cost-pot")(lambda held: _fraction(roll_cost(held).to_pot))
_named("cost-pot-of")(lambda held, rolls: _fraction(rolls * roll_cost(held).to_pot))
_named("rough-rolls")(lambda players: _fraction(
    (2 * players - 1) / roll_cost(2).to_pot))
_named("cost-left")(lambda held: _fraction(roll_cost(held).to_left))
_named("sim-cost")(lambda held, count: Quantity(
    float(les.simulated_cost(held, count).mean()), "decimal", 3))

# -- The finish -----------------------------------------------------------------------

_named("no-six")(lambda: _fraction(NO_SIX))
_named("try")(lambda: _fraction(les.TRY))
_named("try-fail")(lambda: _fraction(1 - les.TRY))
_named("first-six")(lambda roll: _fraction(les.first_six(roll)))
_named("first-six-times")(lambda times: _fraction(times * les.first_six(1)))
_named("survive")(lambda rolls: _fraction(NO_SIX**rolls))
_named("mean-first-six")(lambda: _fraction(1 / les.SIX))
_named("finish")(lambda players, seat: _fraction(les.finish_chances(players)[seat]))
_named("round-fails")(lambda players: _fraction((1 - les.TRY) ** players))
_named("sim-try")(lambda count: Quantity(
    float((les.simulated_first_six(count) > pot.TRY_ROLLS).mean()), "percent"))

# -- Whole games ----------------------------------------------------------------------

_named("win")(lambda players, seat: Quantity(
    les.game(players).win_by_seat[les.seat_index(seat, players)], "percent", 1))
_named("fair")(lambda players: Quantity(Fraction(1, players), "percent", 1))
_named("best-of")(lambda players, games: Quantity(
    games * max(les.game(players).win_by_seat), "decimal", 1))
_named("fair-of")(lambda players, games: Quantity(Fraction(games, players), "decimal", 1))
_named("edge-points")(lambda players: Quantity(
    100 * (max(les.game(players).win_by_seat) - Fraction(1, players)), "decimal", 2))
_named("best-seat")(lambda players: Quantity(les.best_seat(players), "integer"))
_named("best")(lambda players: Quantity(max(les.game(players).win_by_seat), "percent", 1))
_named("rolls-mean")(lambda players: Quantity(les.game(players).expected_rolls, "decimal", 1))
_named("rolls-more")(lambda more, fewer: Quantity(
    les.game(more).expected_rolls - les.game(fewer).expected_rolls, "decimal", 1))
_named("rolls-sd")(lambda players: Quantity(les.game(players).sd_rolls, "decimal", 1))
_named("rolls-median")(lambda players: Quantity(les.rolls_quantile(players, 0.5), "integer"))
_named("rolls-quantile")(lambda players, percent: Quantity(
    les.rolls_quantile(players, percent / 100), "integer"))
_named("rolls-within")(lambda players, rolls: Quantity(
    les.length_cdf(players)[rolls - 1], "percent"))
_named("rolls-shortest")(lambda players: Quantity(
    next(k for k, p in enumerate(les.length_cdf(players), start=1) if p > 0), "integer"))
_named("games-for")(lambda players, seat, per_unit: Quantity(
    les.games_for_error(les.game(players).win_by_seat[les.seat_index(seat, players)],
                        Fraction(1, per_unit)), "integer"))
_named("power-at")(lambda players, games: Quantity(les.power_at(players, games), "percent", 0))
_named("games-for-power")(lambda players, percent: Quantity(
    les.games_for_power(players, percent / 100), "integer"))
_named("finish-rolls")(lambda: Quantity(les.finish_rolls(), "decimal", 1))
_named("finish-share")(lambda players: Quantity(
    float(les.finish_rolls()) / les.game(players).expected_rolls, "percent", 0))
_named("spread-points")(lambda players, chips, holder: Quantity(
    100 * les.seat_spread(players, "last-holder" if holder else "last-chip", chips),
    "decimal", 1))
_named("seat-average")(lambda players: Quantity(les.seat_average(players), "percent", 2))
_named("tell-apart")(lambda players: Quantity(les.games_to_tell_apart(players), "integer"))
_named("sim-rolls")(lambda players, games: Quantity(
    les.simulated_summary(players, games).expected_rolls, "decimal", 1))

# -- The log ------------------------------------------------------------------------------


def _constant(module: str, name: str) -> Quantity:
    """A whole number the package defines, such as the longest line a log may have."""
    import importlib

    value = getattr(importlib.import_module(module), name)
    return Quantity(int(value[0] if isinstance(value, tuple) else value), "integer")


_named("schema")(lambda: _constant("aces.events", "SCHEMA"))
_named("oldest-schema")(lambda: _constant("aces.log", "SCHEMAS"))
_named("line-limit")(lambda: _constant("aces.log", "LINE_LIMIT"))
_named("event-limit")(lambda: _constant("aces.log", "EVENT_LIMIT"))
_named("undo-depth")(lambda: _constant("aces.walk", "UNDO_DEPTH"))
_named("undo-seats")(lambda: _constant("aces.walk", "UNDO_SEATS"))

# -- Aces, the five-dice game ---------------------------------------------------------

_named("fd-leave")(lambda threes: _fraction(les.fd_leave(bool(threes))))
_named("fd-leaving")(lambda dice, threes: _fraction(dice * les.fd_leave(bool(threes))))
_named("fd-turn")(lambda dice, threes: _fraction(les.fd_turn_rolls(dice, bool(threes))))
_named("fd-one-roll")(lambda dice, threes: _fraction(les.fd_turn_length(dice, bool(threes))[0]))
_named("fd-sim-turn")(lambda dice, threes, count: Quantity(
    float(les.simulated_turns(dice, bool(threes), count).mean()), "decimal", 3))


# -- Reading a name, writing a number --------------------------------------------------

#: ``name`` or ``name(1, 2)``: how a lesson names a number, a table or a plot.
CALL: t.Final = r"\s*(?P<name>[a-z][a-z0-9-]*)\s*(?:\((?P<args>[^)]*)\))?\s*"
_SPEC: t.Final = re.compile(
    rf"^{CALL}(?::\s*(?P<kind>fraction|percent|decimal|integer)(?P<digits>\d)?)?\s*$")

M = t.TypeVar("M")


def named(match: re.Match[str], registry: Mapping[str, M], noun: str,
          spec: str) -> tuple[M, list[int]]:
    """The maker a matched :data:`CALL` names in ``registry``, and its arguments.

    :raises SpecError: for a name it does not hold, or arguments that are
        not whole numbers.
    """
    maker = registry.get(match["name"])
    if maker is None:
        raise SpecError(f"unknown {noun} {match['name']!r}; the lessons have:"
                        f" {', '.join(sorted(registry))}")
    try:
        args = [int(arg) for arg in match["args"].split(",")] if match["args"] else []
    except ValueError:
        raise SpecError(f"{spec.strip()}: the arguments must be whole numbers") from None
    return maker, args


_CALL_ALONE: t.Final = re.compile(f"^{CALL}$")


def called(spec: str, registry: Mapping[str, M], noun: str) -> tuple[M, list[int]]:
    """The maker a spec ``name(args)`` names in ``registry`` (a table's, a
    plot's), and its arguments.

    :raises SpecError: for a spec of another form, or as :func:`named`.
    """
    match = _CALL_ALONE.match(spec)
    if match is None:
        raise SpecError(f"{spec!r} is not a {noun} name with its arguments")
    return named(match, registry, noun, spec)


def quantity(spec: str) -> Quantity:
    """The number a spec names, with the format it asks for.

    :raises SpecError: for a spec that names no number, or one that cannot
        be computed.

    >>> quantity("finish(2, 0):decimal3")
    Quantity(value=Fraction(46656, 77687), kind='decimal', digits=3)
    >>> quantity("finish(2)")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    sphinxext.quantities.SpecError: finish(2): cannot be computed: ...
    """
    match = _SPEC.match(spec)
    if match is None:
        raise SpecError(f"{spec!r} is not a name(arguments):format")
    maker, args = named(match, REGISTRY, "number", spec)
    try:
        found = maker(*args)
    except (TypeError, IndexError, ValueError, ZeroDivisionError, KeyError, StopIteration) as exc:
        raise SpecError(f"{spec.strip()}: cannot be computed: {exc}") from None
    if match["kind"]:
        digits = int(match["digits"]) if match["digits"] else found.digits
        found = Quantity(found.value, t.cast("Kind", match["kind"]), digits)
    return found


#: A fraction whose denominator is larger than this is written as a decimal, the
#: exact fraction offered beside it (:class:`Offered`): 3471733/1594323 is in a
#: pupil's way, 2.178 is not.
LARGEST_SHOWN: t.Final = 100_000


class Offered(str):
    """A number as shown, with the exact value offered to a reader who asks for it.

    The pages write it as ``<abbr title="3471733/1594323">2.178</abbr>``.
    """

    exact: str

    def __new__(cls, shown: str, exact: str) -> Offered:
        made = super().__new__(cls, shown)
        made.exact = exact
        return made


def exact_fraction(value: Fraction, lang: str, digits: int = 3) -> str:
    """A fraction as itself when it reads easily, else as an :class:`Offered` decimal.

    >>> exact_fraction(Fraction(4, 9), "en")
    '4/9'
    >>> shown = exact_fraction(Fraction(3471733, 1594323), "nb")
    >>> shown, shown.exact
    ('2,178', '3471733/1594323')
    """
    from aces.numbers import decimal, fraction

    if value.denominator <= LARGEST_SHOWN:
        return fraction(value)
    return Offered(decimal(float(value), lang, digits), fraction(value))


def show(found: Quantity, lang: str) -> str:
    """A quantity written the way the language writes numbers."""
    from aces.numbers import decimal, integer, percent

    value = found.value
    if found.kind == "fraction":
        return exact_fraction(value if isinstance(value, Fraction) else Fraction(value), lang)
    if found.kind == "integer":
        return integer(int(value), lang)
    if found.kind == "percent":
        return percent(float(value), lang, found.digits)
    return decimal(float(value), lang, found.digits)


# -- On the pages ----------------------------------------------------------------------


def number_nodes(shown: str, rawtext: str = "") -> list[nodes.Node]:
    """A number as text, or, if it offers an exact value, as an abbreviation whose
    title holds it: the exact fraction is there for a reader who asks, out of the way."""
    if isinstance(shown, Offered):
        return [nodes.abbreviation(rawtext, str(shown), explanation=shown.exact)]
    return [nodes.Text(shown)]


def number_role(name: str, rawtext: str, text: str, lineno: int, inliner: Inliner,
                options: dict[str, t.Any] | None = None,
                content: Sequence[str] = ()) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    """``:aces:`name(args):format```: a lesson's number, in the build's language."""
    from aces.sphinxext.build import language, role_failed

    try:
        shown = show(quantity(text), language(inliner.document.settings.env.config.language))
    except SpecError as exc:
        return role_failed(inliner, rawtext, lineno, f":{name}: {exc}")
    return [nodes.inline(rawtext, "", *number_nodes(shown, rawtext),
                         classes=["aces-number"])], []


class SpecDirective(AcesDirective):
    """What the directives that draw a lesson's spec (``name(args)``) share: the
    spec as their argument, drawn in the build's language, and nothing drawn
    in a text-only build."""

    required_arguments = 1
    final_argument_whitespace = True

    def run(self) -> list[nodes.Node]:
        return [] if self.text_only else self.drawn()

    def drawn(self) -> list[nodes.Node]:
        raise NotImplementedError

    def spec(self, make: Callable[[str, gettext.NullTranslations, str], R]) -> R:
        """What ``make`` draws of this directive's spec in the build's language;
        a bad spec fails the build here."""
        from aces.i18n import translations

        lang = self.lang
        try:
            return make(self.arguments[0], translations(lang), lang)
        except SpecError as exc:
            self.fail(str(exc))


def setup(app: Sphinx) -> ExtensionMetadata:
    """Register ``:aces:``, the lessons' numbers."""
    return registered(app, roles={"aces": number_role})
