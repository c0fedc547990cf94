"""The lessons' tables: rows of numbers from the package, written in a language.

``.. aces-table:: outcomes`` asks :func:`table` for the table named
``outcomes``; it comes back as a header and rows of finished strings, in
the language of the catalog it was given, for the directive to lay out.

>>> from aces.i18n import translations
>>> grid = table("outcomes", translations("en"), "en")
>>> grid.header
('outcome', 'rolls of 36', 'chance', 'as a percentage')
>>> grid.rows[0]
('nothing happens (no 1 and no 6)', '16', '4/9', '44.4%')
"""

from __future__ import annotations

import typing as t

from aces.exact.outcomes import CHANCES, NO_SIX, OUTCOMES, outcome_of, roll_cost
from aces.numbers import fraction
from aces.rules import pot
from aces.sphinxext.build import registered, table_node
from aces.voice import Voice
from sphinxext import lessons as les
from sphinxext.quantities import SpecDirective, SpecError, called, number_nodes

if t.TYPE_CHECKING:
    import gettext
    from collections.abc import Callable
    from fractions import Fraction

    from docutils import nodes
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

__all__ = ["TABLES", "Maker", "Table", "TableDirective", "setup", "table"]


class Table(t.NamedTuple):
    """A header row and the rows under it, every cell a finished string."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    #: Columns of labels at the left (the rest are numbers, set to the right).
    stub: int = 1


Maker = t.Callable[..., Table]


def _pct(c: Voice, value: float | Fraction, digits: int = 1) -> str:
    """A percentage; a chance too small to show with ``digits`` decimals is "<0.1%",
    never a "0.0%" that reads as impossible."""
    smallest = 10.0 ** -(digits + 2)
    if 0 < float(value) < smallest / 2:
        return "<" + c.percent(smallest, digits)
    return c.percent(float(value), digits)


def _exact(c: Voice, value: Fraction) -> str:
    """A fraction beside its decimal, or a decimal offering it, if it is large."""
    from sphinxext.quantities import Offered, exact_fraction

    shown = exact_fraction(value, c.lang, 2)
    if isinstance(shown, Offered):
        return Offered(f"\u2248 {shown}", shown.exact)
    return f"{shown} \u2248 {c.decimal(float(value), 2)}"


TABLES: dict[str, Callable[..., Table]] = {}


def _named(name: str) -> Callable[[Callable[..., Table]], Callable[..., Table]]:
    def register(maker: Callable[..., Table]) -> Callable[..., Table]:
        TABLES[name] = maker
        return maker
    return register


def _outcome_names(c: Voice) -> list[str]:
    from aces.narrate.names import OUTCOME_NAMES

    return [c.gettext(name) for name in OUTCOME_NAMES]


@_named("rolls-grid")
def _rolls_grid(c: Voice) -> Table:
    _ = c.gettext
    labels = {
        # Translators: a cell of the table of all 36 rolls in the documentation:
        # the roll moves no chip.
        (0, 0): _("nothing"),
        # Translators: a cell of the table of 36 rolls: one chip to the pot.
        (1, 0): _("pot"),
        # Translators: a cell of the table of 36 rolls: two chips to the pot.
        (2, 0): _("2 to the pot"),
        # Translators: a cell of the table of 36 rolls: one chip to the left.
        (0, 1): _("left"),
        # Translators: a cell of the table of 36 rolls: two chips to the left.
        (0, 2): _("2 to the left"),
        # Translators: a cell of the table of 36 rolls: one chip to the pot and one
        # to the left.
        (1, 1): _("pot and left"),
    }
    # Translators: the corner of the table of 36 rolls: the first die's number
    # down the side, the second die's across the top.
    header = (_("first die \\ second"), *(str(face) for face in range(1, 7)))
    rows = []
    for first in range(1, 7):
        row = [str(first)]
        for second in range(1, 7):
            outcome = outcome_of((first, second))
            row.append(labels[(outcome.aces, outcome.sixes)])
        rows.append(tuple(row))
    return Table(header, tuple(rows))


@_named("outcomes")
def _outcomes(c: Voice) -> Table:
    _ = c.gettext
    # Translators: column headings of a table in the documentation: what a roll
    # does, how many of the 36 rolls do it, its chance as a fraction and as a
    # percentage.
    header = (_("outcome"), _("rolls of 36"), _("chance"), _("as a percentage"))
    rows = []
    for name, outcome in zip(_outcome_names(c), OUTCOMES, strict=True):
        chance = CHANCES[outcome]
        rows.append((name, c.integer(les.rolls_with(outcome)), fraction(chance), _pct(c, chance)))
    return Table(header, tuple(rows))


@_named("roll-cost")
def _roll_cost(c: Voice) -> Table:
    _ = c.gettext
    # Translators: column headings of a table in the documentation: each
    # outcome of a roll, its chance, and the chips it costs a player holding
    # one chip, and two chips or more.
    header = (_("outcome"), _("chance"), _("cost with 1 chip"), _("cost with 2 chips or more"))
    one, two = les.cost_per_outcome(1), les.cost_per_outcome(2)
    rows = [(name, fraction(CHANCES[outcome]), c.integer(a), c.integer(b))
            for name, outcome, a, b in zip(_outcome_names(c), OUTCOMES, one, two, strict=True)]
    # Translators: the last row of the table of what a roll costs: the
    # expected cost, the average over all rolls.
    rows.append((_("expected cost"), "1", fraction(roll_cost(1).total),
                 fraction(roll_cost(2).total)))
    return Table(header, tuple(rows))


@_named("try-rolls")
def _try_rolls(c: Voice) -> Table:
    _ = c.gettext
    # Translators: column headings of a table in the documentation: the rolls
    # of a try, the chance that the first six comes on that roll, and the
    # chance that no six has come so far.
    header = (_("roll"), _("first six on this roll"), _("no six so far"))
    rows = [(c.integer(k), fraction(les.first_six(k)), fraction(NO_SIX**k))
            for k in range(1, pot.TRY_ROLLS + 1)]
    return Table(header, tuple(rows))


def _seat_label(c: Voice, seat: int, holder: bool) -> str:
    if holder:
        if seat == 0:
            return c.gettext("the holder")
        return c.catalog.ngettext("{count} seat to the left", "{count} seats to the left",
                                  seat).format(count=c.count(seat))
    # Translators: a column heading of a table in the documentation: a seat
    # at the table, counted from the player who rolls first (seat 1).
    return c.gettext("seat {seat}").format(seat=c.integer(seat + 1))


def _players_label(c: Voice) -> str:
    # Translators: a column heading of a table in the documentation: the
    # number of players at the table.
    return c.gettext("players")


@_named("finish-seats")
def _finish_seats(c: Voice, low: int, high: int) -> Table:
    header = (_players_label(c), *(_seat_label(c, seat, True) for seat in range(high)))
    rows = []
    for players in range(low, high + 1):
        chances = les.finish_chances(players)
        rows.append((c.integer(players), *(_pct(c, p) for p in chances),
                     *("",) * (high - players)))
    return Table(header, tuple(rows))


@_named("finish-sim")
def _finish_sim(c: Voice, players: int, count: int) -> Table:
    _ = c.gettext
    import numpy as np

    won = np.bincount(les.simulated_finish(players, count), minlength=players) / count
    # Translators: column headings of a table in the documentation comparing
    # exact chances with the shares found by a simulation. {count}: how many
    # games (or rolls, or finishes) were simulated.
    header = ("", _("exact"), _("simulated ({count})").format(count=c.integer(count)))
    rows = [(_seat_label(c, seat, True), _pct(c, exact), _pct(c, float(won[seat])))
            for seat, exact in enumerate(les.finish_chances(players))]
    return Table(header, tuple(rows))


@_named("seats")
def _seats(c: Voice, low: int, high: int) -> Table:
    header = (_players_label(c), *(_seat_label(c, seat, False) for seat in range(high)))
    rows = []
    for players in range(low, high + 1):
        chances = les.game(players).win_by_seat
        rows.append((c.integer(players), *(_pct(c, p, 2) for p in chances),
                     *("",) * (high - players)))
    return Table(header, tuple(rows))


@_named("fairness")
def _fairness(c: Voice, low: int, high: int) -> Table:
    from aces.narrate.names import finish_name

    _ = c.gettext
    # Translators: the corner of a table in the documentation: its rows are rule
    # variants, its columns numbers of players, its cells how far apart the seats are.
    header = (_("rules"), *(c.catalog.ngettext("{count} player", "{count} players", n)
                            .format(count=c.count(n)) for n in range(low, high + 1)))
    rows = []
    for finish in pot.FINISHES:
        for chips in range(1, 4):
            # Translators: a row of the table of rule variants: the finish, in words,
            # and the chips each player starts with.
            label = c.catalog.ngettext("{finish}, {count} chip each",
                                       "{finish}, {count} chips each", chips).format(
                finish=finish_name(finish, _), count=c.count(chips))
            rows.append((label, *(c.decimal(100 * les.seat_spread(n, finish, chips), 1)
                                  for n in range(low, high + 1))))
    return Table(header, tuple(rows))


@_named("lengths")
def _lengths(c: Voice, low: int, high: int) -> Table:
    _ = c.gettext
    # Translators: column headings of a table in the documentation about how
    # many rolls a game takes: the mean, the standard deviation, the median,
    # the number of rolls within which nine games in ten are over, and (for
    # comparison) the mean with the other finish, last-holder.
    header = (_players_label(c), _("mean"), _("standard deviation"), _("median"),
              _("9 games in 10 within"), _("mean, last-holder"))
    rows = []
    for players in range(low, high + 1):
        exact = les.game(players)
        rows.append((c.integer(players), c.decimal(exact.expected_rolls, 1),
                     c.decimal(exact.sd_rolls, 1),
                     c.integer(les.rolls_quantile(players, 0.5)),
                     c.integer(les.rolls_quantile(players, 0.9)),
                     c.decimal(les.game(players, "last-holder").expected_rolls, 1)))
    return Table(header, tuple(rows))


@_named("length")
def _length(c: Voice, players: int, step: int) -> Table:
    _ = c.gettext
    cdf = les.length_cdf(players)
    shortest = next(k for k, p in enumerate(cdf, start=1) if p > 0)
    # Translators: column headings of a table in the documentation: a number
    # of rolls, and the chance that a game is over within that many.
    header = (_("rolls"), _("chance the game is over by then"))
    last = les.rolls_quantile(players, 0.99)
    shown = [shortest, *range(step * (shortest // step + 1), last, step), last]
    return Table(header, tuple((c.integer(k), _pct(c, cdf[k - 1])) for k in shown))


@_named("lln")
def _lln(c: Voice, players: int, seat: int, largest: int) -> Table:
    _ = c.gettext
    seat = les.seat_index(seat, players)
    exact = les.game(players).win_by_seat[seat]
    # Translators: column headings of a table in the documentation: how many
    # games were simulated, the share a seat won, its 95% confidence
    # interval, and how far the share is from the exact chance.
    header = (_("games"), _("share won"), _("95% interval"), _("off by"),
              # Translators: a column heading: whether the 95% interval holds the exact
              # chance ("yes" or "no" below it).
              _("holds the exact value"))
    rows = []
    for games in les.sample_sizes(largest):
        found = les.simulated_summary(players, games)
        low, high = found.win_intervals[seat]
        share = found.win_by_seat[seat]
        # Translators: the answers in the column "holds the exact value".
        holds = _("yes") if low <= exact <= high else _("no")
        rows.append((c.integer(games), _pct(c, share, 2),
                     f"{_pct(c, low, 2)}\u2013{_pct(c, high, 2)}",
                     _pct(c, abs(share - exact), 2), holds))
    return Table(header, tuple(rows))


@_named("nothing-sim")
def _nothing_sim(c: Voice, largest: int) -> Table:
    _ = c.gettext
    shares = les.running_share(les.outcome_codes(largest) == 0)
    # Translators: column headings of a table in the documentation: how many
    # rolls were simulated, the share of them that did nothing, and how far
    # that share is from the exact chance.
    header = (_("rolls"), _("share that did nothing"), _("off by"))
    rows = [(c.integer(n), _pct(c, float(shares[n - 1]), 2),
             _pct(c, abs(float(shares[n - 1]) - float(les.NOTHING)), 2))
            for n in les.sample_sizes(largest)]
    return Table(header, tuple(rows))


@_named("fd-turns")
def _fd_turns(c: Voice, threes: int) -> Table:
    _ = c.gettext
    # Translators: column headings of a table in the documentation about the
    # five-dice game: the dice a player holds at the start of a turn, how many
    # of them leave the hand on the first roll on average, the chance that the
    # turn is over after that one roll, and the expected rolls in the turn.
    header = (_("dice held"), _("dice leaving, on average"), _("turn over after one roll"),
              _("rolls in the turn, on average"))
    rows = []
    for dice in range(1, 6):
        rows.append((c.integer(dice), fraction(dice * les.fd_leave(bool(threes))),
                     fraction(les.fd_turn_length(dice, bool(threes))[0]),
                     _exact(c, les.fd_turn_rolls(dice, bool(threes)))))
    return Table(header, tuple(rows))


@_named("fd-turn-length")
def _fd_turn_length(c: Voice, dice: int, threes: int, count: int) -> Table:
    _ = c.gettext
    import numpy as np

    exact = les.fd_turn_length(dice, bool(threes))
    found = np.bincount(les.simulated_turns(dice, bool(threes), count),
                        minlength=len(exact) + 1) / count
    longest = max(k for k, p in enumerate(exact, start=1) if p)
    header = (_("rolls"), _("exact"), _("simulated ({count})").format(count=c.integer(count)))
    rows = [(c.integer(k), _pct(c, exact[k - 1], 2), _pct(c, float(found[k]), 2))
            for k in range(1, longest + 1)]
    return Table(header, tuple(rows))


def table(spec: str, catalog: gettext.NullTranslations, lang: str) -> Table:
    """The table a spec names (``seats(2, 6)``), in the catalog's language.

    :raises ~sphinxext.quantities.SpecError: for a spec that names no table.
    """
    maker, args = called(spec, TABLES, "table")
    try:
        return maker(Voice(catalog, lang), *args)
    except (TypeError, ValueError, IndexError) as exc:
        raise SpecError(f"{spec.strip()}: cannot be made: {exc}") from None


class TableDirective(SpecDirective):
    """``.. aces-table:: name(args)``: a table of the lessons."""

    def drawn(self) -> list[nodes.Node]:
        made = self.spec(table)
        return [table_node(made.header, made.rows, made.stub, cell=number_nodes)]


def setup(app: Sphinx) -> ExtensionMetadata:
    """Register ``.. aces-table::``."""
    return registered(app, {"aces-table": TableDirective})
