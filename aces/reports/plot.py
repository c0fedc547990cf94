"""``aces stats --plot``: observed against exact, drawn by matplotlib.

One row of two panels for each set of rules: the share of games each seat
won (lost, in the five-dice game) with its 95 % interval and the exact
chance, and how long the games lasted beside the exact distribution. At
most :data:`MOST_GROUPS` rows fit; the figure names the sets it leaves out. The
format is the file's: ``.svg`` or ``.png``. The file is written whole or
not at all, and never over another file unless asked (:mod:`aces.files`).
"""

from __future__ import annotations

import typing as t
from pathlib import Path

from aces.colours import BAR
from aces.errors import OptionError, Term
from aces.experiment.exact import exact
from aces.files import Output, file_name
from aces.games import registration
from aces.reports.stats import rules_name
from aces.voice import Voice

if t.TYPE_CHECKING:
    import gettext
    import os
    from collections.abc import Iterable

    from aces.experiment.pool import Pooled
    from aces.files import Read

__all__ = ["FORMATS", "MOST_GROUPS", "check_path", "plot"]

#: The most sets of rules drawn in one figure.
MOST_GROUPS: t.Final = 8
#: Plots are written in the format their file name says.
FORMATS: t.Final = (".svg", ".png")


def check_path(path: str | os.PathLike[str], *, force: bool = False,
               reads: Iterable[Read] = ()) -> Output:
    """Where a plot is drawn, checked before the logs are read: a file of one of
    :data:`FORMATS` that may be written (new, or with ``force`` any but a log
    and what the command ``reads``), and matplotlib to draw it.

    :raises ~aces.errors.OptionError: for what is missing.
    """

    plot = Term("--plot", "Stats.plot")
    if Path(file_name(path)).suffix.lower() not in FORMATS:
        # Translators: an error of "aces stats --plot". {option}: --plot on the command
        # line, Stats.plot in Python; {path}: the file name given.
        raise OptionError("{option} draws .svg or .png files, and {path} is neither",
                          option=plot, path=str(path))
    output = Output(path, force=force, reads=reads)
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        # Translators: {option}: --plot on the command line, Stats.plot in Python.
        raise OptionError("{option} needs matplotlib: pip install 'aces-dice[plot]'",
                          option=plot) from None
    return output


def plot(pooled: Pooled, output: Output, lang: str, catalog: gettext.NullTranslations) -> None:
    """Draw ``pooled`` into ``output`` (see :func:`check_path`)."""
    from matplotlib.figure import Figure

    w = Voice(catalog, lang)
    _ = w.gettext
    groups = pooled.groups[:MOST_GROUPS]
    rows = max(1, len(groups))
    figure = Figure(figsize=(10, 3.6 * rows), layout="constrained")
    axes = figure.subplots(rows, 2, squeeze=False)
    for (left, right), group in zip(axes, groups, strict=False):
        result = group.pooled
        shares = result.seats.shares
        seats = list(range(1, len(shares) + 1))
        observed = [s.observed or 0.0 for s in shares]
        low = [o - (s.interval.low if s.interval else o) for o, s in zip(observed, shares,
                                                                          strict=True)]
        high = [(s.interval.high if s.interval else o) - o for o, s in zip(observed, shares,
                                                                            strict=True)]
        left.bar(seats, observed, color=BAR, label=_("observed, with 95% interval"))
        left.errorbar(seats, observed, yerr=[low, high], fmt="none", ecolor="#333", capsize=4)
        if all(s.exact is not None for s in shares):
            left.scatter(seats, [s.exact for s in shares], marker="_", s=900, color="black",
                         linewidths=3, label=_("exact"), zorder=3)
        left.set_xticks(seats)
        left.set_xlabel(_("seat (1 rolls first)"))
        left.set_ylabel(_("share of losses") if registration(group.rules.game).losers
                        else _("share of wins"))
        left.yaxis.set_major_formatter(lambda value, _pos: w.percent(value, 0))
        left.set_title(rules_name(group.rules, w), fontsize=9, loc="left")
        left.legend(fontsize=8, loc="lower right")
        lengths = result.length
        if result.games:
            xs = [k for k, n in enumerate(lengths.counts) if n]
            right.bar(xs, [lengths.counts[k] / result.games for k in xs], color=BAR,
                      width=1.0, label=_("observed"))

        expected = exact(group.rules)
        if expected.length is not None:
            right.plot(range(1, len(expected.length) + 1), expected.length, color="black",
                       label=_("exact"))
        right.set_xlabel(_("rolls after the opening"))
        right.set_ylabel(_("share of games"))
        right.yaxis.set_major_formatter(lambda value, _pos: w.percent(value, 0))
        if lengths.mean is not None:
            right.set_title(_("Length of a game: {mean} rolls on average").format(
                mean=w.decimal(lengths.mean)), fontsize=9, loc="left")
        right.legend(fontsize=8, loc="upper right")
    suffix = Path(output.path).suffix.lower()
    hidden = pooled.groups[MOST_GROUPS:]
    if hidden:
        # Translators: under a plot of "aces stats", which draws at most eight sets of
        # rules. {rules}: the sets not drawn, each in words, split by semicolons.
        note = _("Not drawn, for want of room (the report gives them all): {rules}.").format(
            rules="; ".join(rules_name(group.rules, w) for group in hidden))
        figure.supxlabel(note, fontsize=8, ha="left", x=0.01, wrap=True)
    with output.open() as out:
        figure.savefig(out, format=suffix.lstrip("."),
                       metadata={"Date": None} if suffix == ".svg" else None)
