"""The lessons' plots, drawn at build time with matplotlib from the package's numbers.

``.. aces-plot:: nothing(20000)`` asks :func:`plot` for the plot named
``nothing``: a simulation's running estimate closing in on the exact
answer. Each plot comes back as SVG (drawn without pyplot's global state),
its words kept as text so that they stay sharp at any size and a browser
draws them in its own font, and a description for readers who cannot see
it, both in the language of the catalog it was given.
"""

from __future__ import annotations

import base64
import io
import math
import textwrap
import typing as t

import numpy as np
from docutils import nodes

from aces.colours import BAND, BAND_EDGE, EXACT, OTHER, SIMULATED
from aces.errors import N_
from aces.exact.outcomes import CHANCES, OUTCOMES
from aces.sphinxext.build import registered
from aces.voice import Voice
from sphinxext import lessons as les
from sphinxext.quantities import SpecDirective, SpecError, called

if t.TYPE_CHECKING:
    import gettext
    from collections.abc import Callable, Sequence

    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from numpy.typing import ArrayLike, NDArray
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

    from aces.simulation.stats import Interval

__all__ = ["BAND", "DPI", "EXACT", "HEIGHT", "OTHER", "PLOTS", "SIMULATED", "WIDTH", "Plot",
           "PlotDirective", "drawn", "plot", "setup", "svg"]

WIDTH: t.Final = 6.4
HEIGHT: t.Final = 3.6
DPI: t.Final = 110


class Plot(t.NamedTuple):
    """A drawn plot (an SVG document) and what it shows, in words."""

    svg: bytes
    alt: str


PLOTS: dict[str, Callable[..., tuple[Figure, str]]] = {}


def _named(name: str) -> Callable[[Callable[..., tuple[Figure, str]]],
                                   Callable[..., tuple[Figure, str]]]:
    def register(maker: Callable[..., tuple[Figure, str]]) -> Callable[..., tuple[Figure, str]]:
        PLOTS[name] = maker
        return maker
    return register


def _figure() -> tuple[Figure, Axes]:
    from matplotlib.figure import Figure

    figure = Figure(figsize=(WIDTH, HEIGHT), dpi=DPI, layout="constrained")
    axes = figure.add_subplot()
    axes.grid(True, color="#dddddd", linewidth=0.6)
    axes.set_axisbelow(True)
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)
    return figure, axes


def _faint(colour: str, alpha: float) -> tuple[float, float, float, float]:
    """A colour at an opacity, for a fill alone (an artist's ``alpha`` would fade its
    edges too)."""
    from matplotlib.colors import to_rgba

    return to_rgba(colour, alpha)


def _percent_axis(c: Voice, axes: Axes, digits: int = 0) -> None:
    from matplotlib.ticker import FuncFormatter

    axes.yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: c.percent(v, digits)))


def _decimal_axis(c: Voice, axes: Axes, digits: int = 1) -> None:
    from matplotlib.ticker import FuncFormatter

    axes.yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: c.decimal(v, digits)))


def _count_axis(c: Voice, axes: Axes) -> None:
    """A logarithmic axis of counts, labelled 10, 100, 1,000... the language's way."""
    from matplotlib.ticker import FuncFormatter, LogLocator

    axes.set_xscale("log")
    axes.xaxis.set_major_locator(LogLocator(base=10))
    axes.xaxis.set_major_formatter(
        FuncFormatter(lambda v, _pos: c.integer(round(v)) if v >= 1 else ""))


def _legend_above(axes: Axes, **options: t.Any) -> None:
    """The legend above the plot, not in it: where bars or intervals reach the top
    (and the Norwegian labels are long), no corner inside is free."""
    axes.legend(loc="lower left", bbox_to_anchor=(0, 1.02), frameon=False, borderaxespad=0,
                **options)


def _checkpoints(count: int) -> NDArray[np.int64]:
    """About 400 trial counts from 1 to ``count``, evenly spread on a log scale."""
    return np.unique(np.geomspace(1, count, 400).astype(np.int64))


def _band(c: Voice, axes: Axes, p: float, count: int) -> None:
    """The exact value, and the band where 95% of estimates from ``n`` trials fall."""
    n = _checkpoints(count).astype(np.float64)
    half = 1.96 * np.sqrt(p * (1 - p) / n)
    # A light fill, and edges in a colour that stands 3:1 against the paper (WCAG 1.4.11).
    axes.fill_between(n, np.clip(p - half, 0, 1), np.clip(p + half, 0, 1),
                      facecolor=_faint(BAND, 0.25), edgecolor=BAND_EDGE, linewidth=0.8,
                      # Translators: a legend entry of a plot in the documentation: the
                      # band within which 95% of simulated estimates fall.
                      label=c.gettext("where 95% of estimates fall"))
    # Translators: a legend entry of a plot in the documentation: the exact answer.
    axes.axhline(p, color=EXACT, linewidth=1.5, label=c.gettext("exact"))


def _running(c: Voice, axes: Axes, estimates: NDArray[np.float64], label: str,
             colour: str = SIMULATED) -> None:
    points = _checkpoints(len(estimates))
    axes.plot(points, estimates[points - 1], color=colour, linewidth=1.2, label=label)


def _side_by_side(c: Voice, axes: Axes, where: NDArray[np.int64], exact: ArrayLike,
                  found: ArrayLike, count: int) -> None:
    """The exact chances and the simulated shares as bars side by side, at ``where``."""
    axes.bar(where - 0.2, exact, 0.4, color=EXACT, label=c.gettext("exact"))
    # Translators: a legend entry. {count}: how many rolls, players or finishes
    # were simulated.
    axes.bar(where + 0.2, found, 0.4, color=SIMULATED,
             label=c.gettext("simulated ({count})").format(count=c.integer(count)))


def _with_intervals(c: Voice, axes: Axes, where: NDArray[np.int64],
                    shares: NDArray[np.float64], intervals: Sequence[Interval],
                    games: int) -> None:
    """Simulated shares as points, each with its 95% interval as an error bar."""
    low = shares - np.asarray([i.low for i in intervals])
    high = np.asarray([i.high for i in intervals]) - shares
    axes.errorbar(where, shares, yerr=[low, high], fmt="o", color=SIMULATED, capsize=4,
                  # Translators: a legend entry. {count}: how many games were simulated.
                  label=c.gettext("simulated ({count}), with 95% intervals").format(
                      count=c.integer(games)))


def _numbered(c: Voice, axes: Axes, where: NDArray[np.int64], shift: int = 0) -> None:
    """A tick at each of ``where``, labelled with its number (plus ``shift``) the
    language's way."""
    axes.set_xticks(where, [c.integer(int(k) + shift) for k in where])


@_named("nothing")
def _nothing(c: Voice, count: int) -> tuple[Figure, str]:
    _ = c.gettext
    figure, axes = _figure()
    p = float(les.NOTHING)
    _band(c, axes, p, count)
    # Translators: a legend entry: the share found by a simulation so far.
    _running(c, axes, les.running_share(les.outcome_codes(count) == 0), _("simulated"))
    _count_axis(c, axes)
    _percent_axis(c, axes)
    axes.set_ylim(0, 1)
    # Translators: an axis label of a plot in the documentation.
    axes.set_xlabel(_("rolls so far"))
    # Translators: an axis label of a plot in the documentation.
    axes.set_ylabel(_("share of rolls that did nothing"))
    axes.legend(loc="upper right", frameon=False)
    # Translators: the description of a plot, for readers who cannot see it.
    # {count}: rolls simulated; {exact}: the exact chance as a percentage.
    return figure, _("The share of simulated rolls that did nothing, after each of {count}"
                     " rolls: it swings widely at first and settles close to the exact"
                     " {exact}.").format(count=c.integer(count), exact=c.percent(p, 1))


#: The outcomes of a roll as a bar's label under the plot, short enough for two lines of
#: ten characters, in the order of aces.exact.outcomes.OUTCOMES. Their own messages, so that
#: no translation is cut to fit.
OUTCOME_LABELS: t.Final = (
    # Translators: a plot's label under a bar, at most about 20 characters: neither die
    # shows 1 or 6.
    N_("nothing happens"),
    # Translators: a plot's label under a bar: exactly one die shows 1, none shows 6.
    N_("one ace"),
    # Translators: a plot's label under a bar: both dice show 1.
    N_("two aces"),
    # Translators: a plot's label under a bar: exactly one die shows 6, none shows 1.
    N_("one six"),
    # Translators: a plot's label under a bar: both dice show 6.
    N_("two sixes"),
    # Translators: a plot's label under a bar: one die shows 1 and the other 6.
    N_("an ace and a six"),
)


@_named("outcomes")
def _outcomes(c: Voice, count: int) -> tuple[Figure, str]:
    _ = c.gettext
    figure, axes = _figure()
    found = np.bincount(les.outcome_codes(count), minlength=len(OUTCOMES)) / count
    exact = [float(CHANCES[o]) for o in OUTCOMES]
    where = np.arange(len(OUTCOMES))
    _side_by_side(c, axes, where, exact, found, count)
    # Two short lines under each bar rather than one long one that runs into the next.
    axes.set_xticks(where, [textwrap.fill(_(label), 10) for label in OUTCOME_LABELS],
                    fontsize="small")
    _percent_axis(c, axes)
    axes.set_ylabel(_("chance"))
    axes.legend(frameon=False)
    # Translators: the description of a plot, for readers who cannot see it.
    # {count}: rolls simulated.
    return figure, _("Bars for the six outcomes of a roll, the exact chance beside the share"
                     " in {count} simulated rolls; each pair of bars is almost the same"
                     " height.").format(count=c.integer(count))


@_named("cost")
def _cost(c: Voice, count: int) -> tuple[Figure, str]:
    _ = c.gettext
    figure, axes = _figure()
    for held, colour in ((2, SIMULATED), (1, OTHER)):
        exact = float(les.cost(held))
        # Translators: a legend entry: the exact average (a dashed line). {count}:
        # the chips the roller holds.
        axes.axhline(exact, color=colour, linewidth=0.8, linestyle="--",
                     label=c.catalog.ngettext("exact, holding {count} chip",
                                              "exact, holding {count} chips", held)
                     .format(count=c.count(held)))
        # Translators: a legend entry. {count}: the chips the roller holds.
        label = c.catalog.ngettext("simulated, holding {count} chip",
                                   "simulated, holding {count} chips",
                                   held).format(count=c.count(held))
        _running(c, axes, les.running_mean(les.simulated_cost(held, count, les.SEED + held)),
                 label, colour)
    _count_axis(c, axes)
    axes.set_ylim(0, 1.5)
    _decimal_axis(c, axes)
    axes.set_xlabel(_("rolls so far"))
    # Translators: an axis label: the average number of chips a roll has cost.
    axes.set_ylabel(_("chips lost per roll, on average"))
    axes.legend(frameon=False)
    # Translators: the description of a plot, for readers who cannot see it.
    # {two} and {one}: the exact expected costs, as fractions.
    return figure, _("The average cost of a roll as simulated rolls pile up, for a player"
                     " holding two chips and for one holding one: the lines settle on the"
                     " exact {two} and {one}, drawn dashed.").format(
        two=str(les.cost(2)), one=str(les.cost(1)))


@_named("first-six")
def _first_six(c: Voice, count: int) -> tuple[Figure, str]:
    _ = c.gettext
    figure, axes = _figure()
    longest = 12
    found = np.bincount(les.simulated_first_six(count), minlength=longest + 1)[1:longest + 1]
    rolls = np.arange(1, longest + 1)
    axes.axvspan(0.5, 3.5, facecolor=_faint(BAND, 0.2), edgecolor=BAND_EDGE, linewidth=0.8,
                 # Translators: a legend entry: the rolls of a try (three rolls).
                 label=_("the three rolls of a try"))
    _side_by_side(c, axes, rolls, [float(les.first_six(int(k))) for k in rolls], found / count,
                  count)
    _numbered(c, axes, rolls)
    _percent_axis(c, axes)
    # Translators: an axis label: the roll on which the first six came.
    axes.set_xlabel(_("roll of the first six"))
    axes.set_ylabel(_("chance"))
    axes.legend(frameon=False)
    # Translators: the description of a plot, for readers who cannot see it.
    return figure, _("Bars for the roll on which the first six comes: each bar is 25/36 of"
                     " the one before, exact and simulated alike, and the first three make"
                     " up the chance that a try fails.")


@_named("finish")
def _finish(c: Voice, players: int, count: int) -> tuple[Figure, str]:
    _ = c.gettext
    figure, axes = _figure()
    found = np.bincount(les.simulated_finish(players, count), minlength=players) / count
    seats = np.arange(players)
    _side_by_side(c, axes, seats, [float(p) for p in les.finish_chances(players)], found, count)
    _numbered(c, axes, seats)
    # Translators: an axis label: seats counted to the left of the player who
    # holds the last chip when the finish begins (0 is that player).
    axes.set_xlabel(_("seats to the left of the first holder"))
    # Translators: an axis label.
    axes.set_ylabel(_("chance to win the pot"))
    _percent_axis(c, axes)
    axes.legend(frameon=False)
    # Translators: the description of a plot, for readers who cannot see it.
    # {players}: the players at the table.
    return figure, _("Bars for each seat's chance to win a finish with {players} players,"
                     " exact and simulated: the first holder has the best chance, and each"
                     " seat further left has less.").format(players=c.count(players))


@_named("seats")
def _seats(c: Voice, players: int, games: int) -> tuple[Figure, str]:
    _ = c.gettext
    figure, axes = _figure()
    found = les.simulated_summary(players, games)
    exact = les.game(players).win_by_seat
    seats = np.arange(players)
    _with_intervals(c, axes, seats, np.asarray(found.win_by_seat), found.win_intervals, games)
    axes.plot(seats, exact, "D", color=EXACT, label=_("exact"))
    # Translators: a legend entry: the chance every seat would have if the game
    # were perfectly fair (one in the number of players).
    axes.axhline(1 / players, color="#888888", linewidth=0.8, linestyle="--",
                 label=_("a fair share"))
    # Seats as a reader counts them: seat 1 rolls first after the opening.
    _numbered(c, axes, seats, 1)
    # Translators: an axis label: seat 1 rolls first after the opening.
    axes.set_xlabel(_("seat (1 rolls first)"))
    axes.set_ylabel(_("chance to win the pot"))
    _percent_axis(c, axes, 1)
    _legend_above(axes, fontsize="small")
    # Translators: the description of a plot, for readers who cannot see it.
    # {players}: the players at the table; {count}: the games simulated.
    return figure, _("Each seat's chance to win a game of {players} players: the simulated"
                     " share of {count} games with its 95% interval, the exact chance, and"
                     " the fair share. The differences are small beside the intervals.").format(
        players=c.count(players), count=c.integer(games))


@_named("fairness")
def _fairness(c: Voice, players: int, games: int) -> tuple[Figure, str]:
    from aces.engine import DEFAULT_NAMES
    from aces.simulation.stats import wilson

    _ = c.gettext
    figure, axes = _figure()
    winners = les.simulated_players(players, games)
    wins = np.bincount(winners, minlength=players)
    spots = np.arange(players)
    _with_intervals(c, axes, spots, wins / games, [wilson(int(w), games) for w in wins], games)
    axes.axhline(1 / players, color=EXACT, linewidth=1.2, linestyle="--",
                 # Translators: a legend entry: every player's exact chance before the
                 # opening, one in the number of players.
                 label=_("exact: a fair share"))
    axes.set_xticks(spots, list(DEFAULT_NAMES[:players]))
    # Translators: an axis label: the players, in the order they sat down.
    axes.set_xlabel(_("player, opening included"))
    axes.set_ylabel(_("chance to win the pot"))
    axes.set_ylim(0, 2 / players)
    _percent_axis(c, axes, 0)
    axes.legend(loc="lower right", frameon=False, fontsize="small")
    # Translators: the description of a plot, for readers who cannot see it.
    # {players}: the players at the table; {count}: the games simulated.
    return figure, _("Each player's share of {count} simulated games of {players} players,"
                     " the opening rolled for every game, with 95% intervals: every share"
                     " lies close to the fair share, on an axis that starts at zero.").format(
        players=c.count(players), count=c.integer(games))


@_named("length")
def _length(c: Voice, players: int, games: int) -> tuple[Figure, str]:
    _ = c.gettext
    figure, axes = _figure()
    pmf = les.length_pmf(players)
    lengths = les.simulated_games(players, games).lengths
    longest = les.rolls_quantile(players, 0.995)
    counted = np.bincount(lengths, minlength=longest + 1)[1:longest + 1] / games
    rolls = np.arange(1, longest + 1)
    axes.bar(rolls, counted, 1.0, color=SIMULATED, edgecolor="white", linewidth=0.6,
             label=_("simulated ({count})").format(count=c.integer(games)))
    axes.plot(rolls, pmf[:longest], color=EXACT, linewidth=1.5, label=_("exact"))
    mean = les.game(players).expected_rolls
    # Translators: a legend entry: the mean (expected) number of rolls in a game.
    axes.axvline(mean, color="#444444", linewidth=0.8, linestyle="--", label=_("mean"))
    # Translators: an axis label: how many rolls a game took (after the opening).
    axes.set_xlabel(_("rolls in the game"))
    # Translators: an axis label: the share of games that took that many rolls.
    axes.set_ylabel(_("share of games"))
    _percent_axis(c, axes, 1)
    axes.legend(frameon=False)
    # Translators: the description of a plot, for readers who cannot see it.
    # {players}: the players at the table; {mean}: the mean number of rolls.
    return figure, _("How many rolls a game of {players} players takes: a histogram of"
                     " simulated games under the exact distribution. It rises steeply,"
                     " peaks a little before the mean of {mean} rolls, and has a long tail to"
                     " the right.").format(players=c.count(players),
                                           mean=c.decimal(mean, 1))


@_named("lln")
def _lln(c: Voice, players: int, seat: int, games: int) -> tuple[Figure, str]:
    _ = c.gettext
    figure, axes = _figure()
    seat = les.seat_index(seat, players)
    p = les.game(players).win_by_seat[seat]
    _band(c, axes, p, games)
    won = les.simulated_games(players, games).winners == seat
    # Translators: a legend entry: the share of games a seat has won so far.
    _running(c, axes, les.running_share(won), _("share won so far"))
    _count_axis(c, axes)
    _percent_axis(c, axes)
    axes.set_ylim(0, min(1.0, 4 * p))
    # Translators: an axis label: games simulated so far.
    axes.set_xlabel(_("games so far"))
    # Translators: an axis label. {seat}: the seat's number.
    axes.set_ylabel(_("share won by seat {seat}").format(seat=seat))
    axes.legend(loc="upper right", frameon=False)
    # Translators: the description of a plot, for readers who cannot see it.
    # {seat}: a seat's number; {count}: games simulated; {exact}: the exact chance.
    return figure, _("The share of games won by seat {seat} as {count} simulated games pile"
                     " up: far off at first, then ever closer to the exact {exact}, inside a"
                     " band that narrows like one over the square root of the games.").format(
        seat=seat, count=c.integer(games), exact=c.percent(p, 1))


@_named("fd-turns")
def _fd_turns(c: Voice, dice: int, count: int) -> tuple[Figure, str]:
    _ = c.gettext
    figure, axes = _figure()
    # Every roll that goes on takes a die away, so no turn is longer than the dice held.
    longest = dice
    rolls = np.arange(1, longest + 1)
    for offset, threes, colour in ((-0.2, False, SIMULATED), (0.2, True, OTHER)):
        exact = les.fd_turn_length(dice, threes)[:longest]
        found = np.bincount(les.simulated_turns(dice, threes, count),
                            minlength=longest + 1)[1:longest + 1] / count
        # Translators: a legend entry: the five-dice game as usual, or with the
        # threes variation (each 3 leaves the hand too).
        label = _("with the threes") if threes else _("1s, 2s and 5s only")
        axes.bar(rolls + offset, found, 0.4, color=colour,
                 label=_("simulated, {variant}").format(variant=label))
        # A white edge parts each diamond from the bar it sits on.
        axes.plot(rolls + offset, [float(p) for p in exact], "D", color=EXACT,
                  markersize=4, markeredgecolor="white", markeredgewidth=0.6,
                  label=_("exact") if threes else None)
    _numbered(c, axes, rolls)
    # Translators: an axis label: how many rolls one turn of the five-dice game took.
    axes.set_xlabel(_("rolls in the turn"))
    # Translators: an axis label: the share of turns that took that many rolls.
    axes.set_ylabel(_("share of turns"))
    _percent_axis(c, axes)
    _legend_above(axes)
    # Translators: the description of a plot, for readers who cannot see it.
    # {dice}: the dice held at the start of the turn; {count}: turns simulated.
    return figure, _("How many rolls a turn of the five-dice game takes, starting with"
                     " {dice} dice, in {count} simulated turns of each kind beside the exact"
                     " chances: most turns take two or three rolls, and the threes make them"
                     " shorter.").format(dice=c.count(dice),
                                          count=c.integer(count))


def plot(spec: str, catalog: gettext.NullTranslations, lang: str) -> Plot:
    """The plot a spec names (``lln(4, 3, 100000)``), drawn, in the catalog's language.

    :raises ~sphinxext.quantities.SpecError: for a spec that names no plot.
    """
    figure, alt = drawn(spec, catalog, lang)
    return Plot(svg(figure), alt)


def drawn(spec: str, catalog: gettext.NullTranslations, lang: str) -> tuple[Figure, str]:
    """The figure of the plot a spec names, and its description, before it is written.

    :raises ~sphinxext.quantities.SpecError: for a spec that names no plot.
    """
    maker, args = called(spec, PLOTS, "plot")
    import matplotlib

    try:
        with matplotlib.rc_context(_TEXT):
            figure, alt = maker(Voice(catalog, lang), *args)
    except (TypeError, ValueError, IndexError) as exc:
        raise SpecError(f"{spec.strip()}: cannot be drawn: {exc}") from None
    return figure, alt


#: Type large enough to read on a phone, where a plot is shrunk to half its width.
_TEXT: t.Final[dict[t.Any, t.Any]] = {"font.size": 13.0}
#: How a plot is written: text as text (it scales and reads at phone width), and no
#: date or random ids, so that the same plot is the same bytes at every build.
_SVG: t.Final[dict[t.Any, t.Any]] = {"svg.fonttype": "none", "svg.hashsalt": "aces",
                                     "svg.id": "aces"}


def svg(figure: Figure) -> bytes:
    """A figure as an SVG document whose words are text a browser draws."""
    import matplotlib

    out = io.BytesIO()
    with matplotlib.rc_context(_SVG):
        figure.savefig(out, format="svg", metadata={"Date": None, "Creator": None},
                       bbox_inches="tight", pad_inches=0.05)
    return out.getvalue()



# -- Diagrams of the rules -------------------------------------------------------------------


def _blank(width: float = WIDTH, height: float = HEIGHT) -> tuple[Figure, Axes]:
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    axes = figure.add_subplot()
    axes.set_axis_off()
    axes.set_aspect("equal")
    return figure, axes


def _arrow(axes: Axes, start: tuple[float, float], end: tuple[float, float], colour: str,
           style: str = "-|>", bend: float = 0.0, dashed: bool = False,
           shrink: float = 16) -> None:
    from matplotlib.patches import FancyArrowPatch

    axes.add_patch(FancyArrowPatch(start, end, arrowstyle=style, mutation_scale=14,
                                   color=colour, linewidth=1.4, shrinkA=shrink, shrinkB=shrink,
                                   connectionstyle=f"arc3,rad={bend}",
                                   linestyle="--" if dashed else "-"))


@_named("table")
def _table(c: Voice, players: int, five_dice: int) -> tuple[Figure, str]:
    from aces.engine import DEFAULT_NAMES

    _ = c.gettext
    figure, axes = _blank(5.2, 4.4)
    names = DEFAULT_NAMES[:players]
    # Seats go round clockwise seen from above, the first at the top: the
    # player on your left at a real table is the next one clockwise.
    angles = [math.pi / 2 - 2 * math.pi * seat / players for seat in range(players)]
    where = [(math.cos(a), math.sin(a)) for a in angles]
    for name, (x, y) in zip(names, where, strict=True):
        axes.text(x, y, name, ha="center", va="center", fontsize="large",
                  bbox={"boxstyle": "circle,pad=0.5", "facecolor": "#f3f3f3",
                        "edgecolor": "#888888"})
    for seat in range(players):
        _arrow(axes, where[seat], where[(seat + 1) % players], SIMULATED, bend=-0.25)
        if five_dice:
            _arrow(axes, where[(seat + 1) % players], where[seat], OTHER, bend=-0.25,
                   dashed=True)
    # Translators: the middle of a diagram of the table: the pot (Aces in the
    # Pot) or the centre (the five-dice game), where chips or dice leave the game.
    middle = _("the centre") if five_dice else _("the pot")
    axes.text(0, 0, middle, ha="center", va="center", fontsize="medium", color=EXACT,
              bbox={"boxstyle": "round,pad=0.6", "facecolor": "white", "edgecolor": EXACT})
    _arrow(axes, where[0], (0, 0), EXACT)
    axes.set_xlim(-1.5, 1.5)
    axes.set_ylim(-1.35, 1.35)
    from matplotlib.lines import Line2D

    if five_dice:
        handles = [
            # Translators: a legend entry of the diagram of the five-dice game.
            Line2D([], [], color=SIMULATED, label=_("a 2 goes to the left")),
            # Translators: a legend entry of the diagram of the five-dice game.
            Line2D([], [], color=OTHER, linestyle="--", label=_("a 5 goes to the right")),
            # Translators: a legend entry of the diagram of the five-dice game.
            Line2D([], [], color=EXACT, label=_("a 1 goes to the centre")),
        ]
        # Translators: the description of a diagram, for readers who cannot see it.
        # {players}: the players, as a list.
        alt = _("A table seen from above with {players} round it. Arrows going clockwise"
                " show where a 2 goes, to the player on the left; dashed arrows going the"
                " other way show where a 5 goes, to the right; an arrow into the middle"
                " shows a 1 leaving the game.")
    else:
        handles = [
            # Translators: a legend entry of the diagram of Aces in the Pot.
            Line2D([], [], color=SIMULATED, label=_("play and sixes go to the left")),
            # Translators: a legend entry of the diagram of Aces in the Pot.
            Line2D([], [], color=EXACT, label=_("aces go to the pot")),
        ]
        # Translators: the description of a diagram, for readers who cannot see it.
        # {players}: the players, as a list.
        alt = _("A table seen from above with {players} round it. Arrows going clockwise"
                " from each player to the next show the way play and sixes go, to the"
                " left; an arrow into the pot in the middle shows where aces send chips.")
    axes.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, -0.12),
                frameon=False, fontsize="small")
    return figure, alt.format(players=c.names(names))


@_named("try")
def _try(c: Voice) -> tuple[Figure, str]:
    _ = c.gettext
    figure, axes = _blank(WIDTH, 2.6)
    box = {"boxstyle": "round,pad=0.5", "facecolor": "#f3f3f3", "edgecolor": "#888888"}
    steps = [
        # Translators: a box of the diagram of a try: the first of its three rolls.
        _("roll 1"),
        # Translators: a box of the diagram of a try.
        _("roll 2"),
        # Translators: a box of the diagram of a try.
        _("roll 3"),
        # Translators: the last box of the diagram of a try: three rolls without a six.
        _("wins the pot"),
    ]
    for number, text in enumerate(steps):
        axes.text(number * 2.0, 1.0, text, ha="center", va="center", fontsize="medium",
                  bbox={**box, "facecolor": "#e6f4ea"} if number == 3 else box)
        if number:
            _arrow(axes, ((number - 1) * 2.0, 1.0), (number * 2.0, 1.0), OTHER,
                   shrink=36 if number == 3 else 24)
            # Translators: the label of an arrow of the diagram of a try.
            axes.text(number * 2.0 - 1.0, 1.18, _("no six"), ha="center", fontsize="small",
                      color=OTHER)
    # Translators: the box of the diagram of a try that a six leads to.
    axes.text(2.0, -0.4, _("a six: the chip passes to the left, and that player tries"),
              ha="center", va="center", fontsize="small", bbox={**box, "facecolor": "#fbe9e7"})
    for number in range(3):
        _arrow(axes, (number * 2.0, 1.0), (2.0 + (number - 1) * 0.9, -0.4), EXACT)
    axes.set_xlim(-0.8, 6.8)
    axes.set_ylim(-0.9, 1.5)
    # Translators: the description of a diagram, for readers who cannot see it.
    return figure, _("A try drawn as a path: roll 1, roll 2 and roll 3 lead one to the next"
                     " when they show no six, and the third leads to winning the pot. From"
                     " each roll, a six leads down to the chip passing to the left.")


class PlotDirective(SpecDirective):
    """``.. aces-plot:: name(args)``: a plot of the lessons, drawn now, embedded in the page."""

    def drawn(self) -> list[nodes.Node]:
        drawn = self.spec(plot)
        uri = "data:image/svg+xml;base64," + base64.b64encode(drawn.svg).decode("ascii")
        image = nodes.image(uri=uri, alt=drawn.alt, classes=["aces-plot"])
        return [nodes.figure("", image, classes=["aces-plot"])]


def setup(app: Sphinx) -> ExtensionMetadata:
    """Register ``.. aces-plot::``; plots are drawn to files, never to a screen."""
    import matplotlib

    matplotlib.use("Agg")
    return registered(app, {"aces-plot": PlotDirective})
