"""The pooled numbers for machines: a JSON document, and tidy CSV tables.

The JSON keys follow ``aces simulate --json``: ``win_by_seat`` (or
``loss_by_seat`` in the five-dice game, which counts losers) with
``..._ci``, ``expected_rolls`` with ``expected_rolls_ci``, an ``exact``
block and ``exact_inside``. The CSV tables have one row per game, one
per roll, or one per log and seat, and nothing but data below the
heading row, so a spreadsheet, GeoGebra or CODAP opens them as they are.

No one CSV file opens as it is everywhere. GeoGebra's spreadsheet splits
a file at commas (or tabs) only, and CODAP reads a number only with a
decimal point; Excel with Norwegian (or most European) settings splits a
file it opens at semicolons and reads numbers with a decimal comma, as
LibreOffice and Google Sheets do by default in a Norwegian locale. So a
table is written in one of two :class:`Style` s: :data:`POINT` (commas and
decimal points, the default) or :data:`COMMA` (semicolons and decimal
commas), chosen by the user; both are tidy data, only the punctuation
differs.
"""

from __future__ import annotations

import csv
import io
import re
import tempfile
import typing as t

from aces.errors import NP_, visible
from aces.games import registration

if t.TYPE_CHECKING:
    import gettext
    from collections.abc import Sequence

    from aces.experiment.analysis import Result, Share
    from aces.experiment.observe import GameRecord, Rules
    from aces.experiment.pool import LogResult, Pooled
    from aces.inference import Fit

__all__ = ["COMMA", "GAME_COLUMNS", "LOG_COLUMNS", "POINT", "ROLL_COLUMNS", "CsvTable", "Style",
           "as_dict", "cell", "headings", "log_dict", "log_table", "options_text", "result_dict",
           "text_of"]

#: Where a spreadsheet could read a formula: at the start of a cell, which
#: may begin at any delimiter a spreadsheet splits at (comma, semicolon,
#: tab), after blanks or quotes, with any sign a formula may begin with.
#: (Tabs and line breaks are never written raw: ``visible`` escapes them.)
_FORMULA: t.Final = re.compile(r"(^|[,;\t])(?=[\s\"']*[=+\-@])")
#: Bytes of a log's rows held in memory before they go to a temporary file.
_SPOOL: t.Final = 1 << 20

# The column headings of the tables, in English; :func:`headings` translates them.
# Translators: column headings of the table of rolls (aces stats --csv --rolls):
# one word or two each, as a spreadsheet shows them.
ROLL_COLUMNS: t.Final = (NP_("csv", "log"), NP_("csv", "game"), NP_("csv", "roll"),
                         NP_("csv", "player"), NP_("csv", "seat"), NP_("csv", "stage"),
                         NP_("csv", "dice"), NP_("csv", "held after"))
# Translators: column headings of the table of games (aces stats --csv).
GAME_COLUMNS: t.Final = (NP_("csv", "log"), NP_("csv", "game"), NP_("csv", "kind"),
                         NP_("csv", "players"), NP_("csv", "options"), NP_("csv", "starter"),
                         NP_("csv", "winner"), NP_("csv", "loser"),
                         NP_("csv", "seat from starter"), NP_("csv", "rolls"), NP_("csv", "pot"))
# Translators: column headings of the table of logs (aces stats --csv --by-log): one
# row per log and seat; "95% from" and "95% to" are the ends of the 95 % interval.
LOG_COLUMNS: t.Final = (NP_("csv", "log"), NP_("csv", "kind"), NP_("csv", "players"),
                        NP_("csv", "options"), NP_("csv", "seat from starter"),
                        NP_("csv", "games"), NP_("csv", "wins"), NP_("csv", "losses"),
                        NP_("csv", "share"), NP_("csv", "95% from"), NP_("csv", "95% to"),
                        NP_("csv", "exact"))


class Style(t.NamedTuple):
    """The punctuation of a CSV table: between its columns, and in its decimals."""

    delimiter: str
    decimal: str

    def writer(self, out: t.TextIO) -> t.Any:
        """A :func:`csv.writer` of rows in this style (a cell holding the
        delimiter is quoted), each row ended by CR LF as RFC 4180 has it."""
        return csv.writer(out, delimiter=self.delimiter, lineterminator="\r\n")

    def share(self, value: float) -> str:
        """A share with six decimals and no grouping: ``0.250000`` or ``0,250000``."""
        return f"{value:.6f}".replace(".", self.decimal)


#: Commas and decimal points: what GeoGebra, CODAP, Python and spreadsheets
#: with English settings read.
POINT: t.Final = Style(",", ".")
#: Semicolons and decimal commas: what Excel with Norwegian settings opens as it
#: is, and what LibreOffice and Google Sheets read in a Norwegian locale.
COMMA: t.Final = Style(";", ",")


def as_dict(pooled: Pooled) -> dict[str, t.Any]:
    """Every log read and every group, for ``aces stats --json``."""
    return {
        "confidence": 0.95,
        "logs": [{"log": log.source, "games": log.games, "rolls": log.rolls,
                  "left_out": None if log.error is None else str(log.error),
                  "same_as": log.same_as, "unfinished": log.unfinished,
                  "excluded": list(log.excluded)}
                 for log in pooled.logs],
        "groups": [{**result_dict(group.pooled),
                    "logs": [log_dict(log, group.rules) for log in group.logs]}
                   for group in pooled.groups],
    }


def log_dict(log: LogResult, rules: Rules) -> dict[str, t.Any]:
    """One log's own numbers, beside the pooled ones."""
    by_seat = "loss_by_seat" if registration(rules.game).losers else "win_by_seat"
    data: dict[str, t.Any] = {
        "log": log.source, "games": log.games, "rolls": log.rolls,
        f"{by_seat}_counts": list(log.wins), by_seat: log.shares,
        f"{by_seat}_ci": [None if ends is None else list(ends) for ends in log.intervals],
        "expected_rolls": log.mean_length,
        "expected_rolls_ci": None if log.length_interval is None else list(log.length_interval),
        f"{by_seat}_p": log.p_seats}
    for key, pair in (("moved_nothing", log.nothing), ("tries_won", log.tries),
                      ("roll_again", log.agains)):
        if pair is not None:
            ends = log.interval_of(pair)
            data[key] = {"count": pair[0], "of": pair[1],
                         "share": pair[0] / pair[1] if pair[1] else None,
                         "ci": None if ends is None else list(ends)}
    return data


def result_dict(result: Result) -> dict[str, t.Any]:
    """One result: the counts, the shares and intervals, the exact values, the tests."""
    rules = result.rules
    by_seat = "loss_by_seat" if registration(rules.game).losers else "win_by_seat"
    seats = result.seats.shares
    length = result.length
    exact: dict[str, t.Any] = {
        by_seat: [s.exact for s in seats] if seats and seats[0].exact is not None else None,
        "expected_rolls": length.exact_mean,
        "sd_rolls": length.exact_sd,
        "rolls_quantiles": length.exact_quantiles,
    }
    inside: dict[str, t.Any] = {by_seat: [s.inside for s in seats],
                                "expected_rolls": length.inside}
    data: dict[str, t.Any] = {
        "game": rules.game,
        "players": rules.players,
        "options": dict(rules.options),
        "games": result.games,
        "rolls": result.rolls,
        f"{by_seat}_counts": [s.hits for s in seats],
        by_seat: [s.observed for s in seats],
        f"{by_seat}_ci": [_pair(s) for s in seats],
        "expected_rolls": length.mean,
        "expected_rolls_ci": None if length.interval is None else list(length.interval),
        "sd_rolls": length.sd,
        "quantiles": [0.25, 0.5, 0.75, 0.9],
        "rolls_quantiles": length.quantiles,
        "exact": exact,
        "exact_inside": inside,
        "tests": {by_seat: _fit(result.seats.fit), "length": _fit(length.fit)},
    }
    if result.nothing is not None:
        data["moved_nothing"] = _share(result.nothing)
        inside["moved_nothing"] = result.nothing.inside
    if result.tries is not None:
        data["tries_won"] = _share(result.tries)
        inside["tries_won"] = result.tries.inside
        data["tests"]["tries"] = _fit(result.tries_fit)
    if result.agains is not None:
        data["roll_again"] = _share(result.agains)
        inside["roll_again"] = result.agains.inside
        data["tests"]["roll_again"] = _fit(result.agains_fit)
        data["rolls_per_turn"] = result.rolls_per_turn
        exact["rolls_per_turn"] = result.exact_rolls_per_turn
    return data


def _pair(share: Share) -> list[float] | None:
    return None if share.interval is None else list(share.interval)


def _share(share: Share) -> dict[str, t.Any]:
    return {"count": share.hits, "of": share.trials, "share": share.observed,
            "ci": _pair(share), "exact": share.exact, "inside": share.inside}


def _fit(fit: Fit | None) -> dict[str, t.Any] | None:
    if fit is None:
        return None
    return {"chi_square": fit.statistic, "df": fit.df, "p": fit.p,
            "categories": [list(group) for group in fit.groups],
            "observed": list(fit.observed), "expected": list(fit.expected)}


def headings(catalog: gettext.NullTranslations, columns: Sequence[str]) -> list[str]:
    """A table's column headings in the catalog's language (context ``csv``).

    >>> import gettext
    >>> headings(gettext.NullTranslations(), ROLL_COLUMNS[-2:])
    ['dice', 'held after']
    """
    return [catalog.pgettext("csv", column) for column in columns]


def cell(text: str) -> str:
    """A cell a spreadsheet will not run as a formula, whichever delimiter it
    splits the file at: a ``'`` (as spreadsheets themselves write it) before
    every part that begins like a formula, the start of the text or after
    any comma, semicolon or tab, since a file written with one delimiter may
    be opened with another (``Ada;=1+1`` is two cells to Excel with Norwegian
    settings); and no control character (:func:`~aces.errors.visible`).

    >>> cell("=SUM(A1:A9)"), cell("Ada"), cell("Ada;=1+1;x"), cell("x, -2")
    ("'=SUM(A1:A9)", 'Ada', "Ada;'=1+1;x", "x,' -2")
    """
    return _FORMULA.sub(r"\1'", visible(text))


def options_text(rules: Rules) -> str:
    """The options in one cell: ``chips=2 finish=last-chip``."""
    return " ".join(f"{name}={str(value).lower() if isinstance(value, bool) else value}"
                    for name, value in rules.options)


class CsvTable:
    """The rows of ``aces stats --csv``, a log's rows kept until the log is
    known to be sound (in memory, then in a temporary file if many)."""

    def __init__(self, out: t.TextIO, catalog: gettext.NullTranslations, rolls: bool,
                 style: Style = POINT) -> None:
        self.out = out
        self.rolls = rolls
        self.style = style
        self._spool = self._new_spool()
        self._rows = style.writer(self._spool)
        style.writer(out).writerow(headings(catalog, ROLL_COLUMNS if rolls else GAME_COLUMNS))

    @staticmethod
    def _new_spool() -> t.TextIO:
        return t.cast("t.TextIO", tempfile.SpooledTemporaryFile(
            max_size=_SPOOL, mode="w+", encoding="utf-8", newline=""))

    def game(self, source: str, number: int, record: GameRecord) -> None:
        log = cell(source)
        if self.rolls:
            for row in record.rows:
                self._rows.writerow([log, number, row.number, cell(row.player), row.seat,
                                     row.stage, " ".join(map(str, row.dice)), row.held_after])
            return
        loses = registration(record.rules.game).losers
        result = cell(record.players[record.result])
        self._rows.writerow([
            log, number, record.rules.game, record.rules.players, options_text(record.rules),
            cell(record.players[record.starter]), "" if loses else result,
            result if loses else "", record.result_seat + 1, record.rolls,
            "" if record.pot is None else record.pot])

    def commit(self) -> None:
        self._spool.seek(0)
        while chunk := self._spool.read(1 << 16):
            self.out.write(chunk)
        self.discard()

    def discard(self) -> None:
        self._spool.close()
        self._spool = self._new_spool()
        self._rows = self.style.writer(self._spool)

    def close(self) -> None:
        self._spool.close()


def log_table(out: t.TextIO, catalog: gettext.NullTranslations, pooled: Pooled,
              style: Style = POINT) -> None:
    """``aces stats --csv FILE --by-log``: one row per log, set of rules and seat,
    with the seat's share of that log's games, its 95 % interval and the exact
    chance, so that a spreadsheet can draw each group's interval beside the others'.

    Shares have six decimals, with the decimal sign of ``style``.
    """
    rows = style.writer(out)
    rows.writerow(headings(catalog, LOG_COLUMNS))
    for group in pooled.groups:
        rules = group.rules
        loses = registration(rules.game).losers
        exact = [share.exact for share in group.pooled.seats.shares]
        for log in group.logs:
            for seat, (count, ends) in enumerate(zip(log.wins, log.intervals, strict=True)):
                chance = exact[seat]
                rows.writerow([
                    cell(log.source), rules.game, rules.players, options_text(rules), seat + 1,
                    log.games, "" if loses else count, count if loses else "",
                    style.share(count / log.games) if log.games else "",
                    "" if ends is None else style.share(ends.low),
                    "" if ends is None else style.share(ends.high),
                    "" if chance is None else style.share(chance)])


def text_of(rows: t.Iterable[t.Sequence[object]], style: Style = POINT) -> str:
    """Rows as CSV text (tests and doctests).

    >>> text_of([["seat", "share"], [1, COMMA.share(0.25)]], COMMA)
    'seat;share\\r\\n1;0,250000\\r\\n'
    """
    out = io.StringIO()
    style.writer(out).writerows(rows)
    return out.getvalue()
