"""The pooled report in words a pupil can read, in the catalog's language.

Every conclusion is worded as a test allows: "no evidence against the
exact odds" when p ≥ 0.05 (never "the dice are fair"), "evidence against"
when p < 0.05, each with what the p-value means. Categories merged for the
test are named.
"""

from __future__ import annotations

import typing as t

from aces.errors import N_, OptionError, Term, visible
from aces.experiment.analysis import QUANTILES
from aces.experiment.pool import pool
from aces.files import Output, forced_alone
from aces.games import registration
from aces.i18n import translations
from aces.inference import ALPHA, goodness_of_fit, wilson
from aces.narrate.names import table_words
from aces.numbers import table
from aces.reports.export import COMMA, POINT, CsvTable, log_table
from aces.voice import Voice

if t.TYPE_CHECKING:
    import gettext
    import os
    from collections.abc import Callable, Iterable

    from aces.experiment.analysis import Length, Result, Share
    from aces.experiment.observe import Rules
    from aces.experiment.pool import Group, Pooled, Source
    from aces.inference import Fit

__all__ = ["SEATS_COUNTED", "beside_rows", "chance", "chi_square", "conclusion", "interval",
           "interval_rows", "length_rows", "length_test", "logs_read", "narrowing", "p_value",
           "pool_logs", "report", "rules_name", "seat_rows", "seat_test", "share_sections",
           "taken_out"]

#: Under the heading of the results by seat, in the report and the notebook's view.
SEATS_COUNTED: t.Final = N_("Seats are counted from the player who won the opening: seat 1"
                            " rolls first, seat 2 sits on their left, and so on.")


def p_value(w: Voice, p: float) -> str:
    """A p-value: three decimals, or below 0.001."""
    if p < 0.001:
        # Translators: a p-value too small to write with three decimals.
        return w.gettext("below {value}").format(value=w.decimal(0.001, 3))
    return w.decimal(p, 3)


def chance(w: Voice, p: float) -> str:
    """A p-value as a share of experiments: 43.1 %, 0.12 %, below 0.01 %."""
    if p < 0.0001:
        return w.gettext("below {value}").format(value=w.percent(0.0001, 2))
    return w.percent(p, 1 if p >= 0.01 else 2)


def interval(w: Voice, low: float, high: float, percent: bool = True) -> str:
    """The two ends of a 95 % interval: percentages, or with ``percent`` false decimals."""
    # Translators: the two ends of a confidence interval, e.g. "25.9% to 26.3%".
    text = w.gettext("{low} to {high}")
    if percent:
        return text.format(low=w.percent(max(low, 0.0)), high=w.percent(high))
    return text.format(low=w.decimal(low), high=w.decimal(high))


def report(pooled: Pooled, lang: str, catalog: gettext.NullTranslations) -> str:
    """The whole report: the logs read, then each set of rules on its own."""
    w = Voice(catalog, lang)
    _ = w.gettext
    lines = [logs_read(pooled, w)]
    for log in pooled.left_out:
        assert log.error is not None
        # (A file's name may hold anything: the whole line is escaped for the terminal.)
        # Translators: {error}: why a log was left out, naming its file and line.
        lines.append("  " + _("Left out: {error}").format(
            error=visible(log.error.render(catalog.gettext, catalog.ngettext))))
    for log in pooled.repeated:
        # Translators: under the first line of "aces stats": a log given twice (or a copy
        # of one) is pooled once. {log}: the log given again; {other}: the log given
        # before it, which holds the same games.
        lines.append("  " + _("Pooled once: {log} holds the same games as {other}.").format(
            log=visible(log.source), other=visible(str(log.same_as))))
    for log in pooled.unfinished:
        if not log.games:
            # Translators: under the first line of "aces stats": the one game of a log
            # is still being played. {log}: the log.
            lines.append("  " + _("Not over: the only game of {log} is still being played,"
                                  " so none of it is pooled.").format(log=visible(log.source)))
            continue
        # Translators: under the first line of "aces stats": the last game of a log is
        # still being played, so only the games before it are pooled. {log}: the log;
        # {count}: its finished games.
        lines.append("  " + w.catalog.ngettext(
            "Not over: the last game of {log} is still being played; its one finished game"
            " is pooled.",
            "Not over: the last game of {log} is still being played; its {count} finished"
            " games are pooled.", log.games).format(log=visible(log.source),
                                                    count=w.count(log.games)))
    lines += ["  " + line for line in taken_out(pooled, w)]
    if len(pooled.groups) > 1:
        lines.append(_("The games follow {count} different sets of rules or table sizes;"
                       " each is pooled and tested on its own, never mixed with another.")
                     .format(count=w.count(len(pooled.groups))))
    for group in pooled.groups:
        lines += ["", *_group(group, w)]
    return "\n".join(lines)


def taken_out(pooled: Pooled, w: Voice) -> list[str]:
    """A line for each log that takes games out of the pool (the live class's
    teacher did), naming them: the games counted are fewer than its games."""
    lines = []
    for log in pooled.logs:
        if not log.excluded:
            continue
        games = w.names([w.integer(game) for game in log.excluded])
        # Translators: under the first line of "aces stats": games a log takes out
        # of the class's results (the teacher took them out in the live class), so
        # they are not counted. {games}: their numbers in the log, as a list ("2
        # and 5"); {log}: the log.
        lines.append(w.catalog.ngettext(
            "Taken out of the results: game {games} of {log}, so it is not pooled.",
            "Taken out of the results: games {games} of {log}, so they are not pooled.",
            len(log.excluded)).format(games=games, log=visible(log.source)))
    return lines


def logs_read(pooled: Pooled, w: Voice) -> str:
    """The first line: the logs given, pooled and left out (not "read": a log
    left out may not have opened at all)."""
    left = len(pooled.left_out)
    given = len(pooled.logs)
    once = len(pooled.repeated)
    # Translators: the first line of "aces stats". {given}: the logs given (the
    # number that chooses the form; one log may be said in words, «én logg»);
    # {pooled}: the logs counted (a log given twice counts once); {left}: the
    # logs left out because they could not be read or are damaged.
    return w.catalog.ngettext(
        "The class experiment: {given} log, {pooled} pooled, {left} left out.",
        "The class experiment: {given} logs, {pooled} pooled, {left} left out.",
        given).format(given=w.integer(given), pooled=w.integer(given - left - once),
                      left=w.integer(left))


def rules_name(rules: Rules, w: Voice) -> str:
    """The game and its table in words: "Aces in the Pot: 4 players, 2 chips each, ..."."""

    details = table_words(rules.game, rules.players, dict(rules.options), w)
    # Translators: {game}: the game's name; {table}: players and options, as a list.
    return w.gettext("{game}: {table}").format(
        game=w.gettext(registration(rules.game).title), table=", ".join(details))


def _group(group: Group, w: Voice) -> list[str]:
    _ = w.gettext
    result = group.pooled
    rules = group.rules
    losers = registration(rules.game).losers
    lines = [rules_name(rules, w), "=" * len(rules_name(rules, w)),
             # Translators: {games}: games pooled; {rolls}: their rolls after the
             # opening; {logs}: how many logs they came from.
             _("Games: {games}; rolls after the opening: {rolls}; logs: {logs}.").format(
                 games=w.integer(result.games), rolls=w.integer(result.rolls),
                 logs=w.integer(len(group.logs))),
             ""]
    lines.append(_("Losses by seat") if losers else _("Wins by seat"))
    lines.append("  " + _(SEATS_COUNTED))
    lines += _seat_table(result, w)
    lines += _indented(seat_test(group, w))
    lines += ["", *_length(result.length, w)]
    for heading, said in share_sections(result, w):
        lines += ["", heading, *_indented(said)]
    lines += ["", *_beside(group, w)]
    return lines


def _indented(sentences: list[str]) -> list[str]:
    return ["  " + sentence for sentence in sentences]


def seat_test(group: Group, w: Voice) -> list[str]:
    """The chi-square test of the wins (or losses) by seat, in sentences."""
    result = group.pooled
    return chi_square(result.seats.fit, w,
                      [w.gettext("seat {seat}").format(seat=i + 1)
                       for i in range(group.rules.players)],
                      exact=result.seats.shares[0].exact is not None)


def share_sections(result: Result, w: Voice) -> list[tuple[str, list[str]]]:
    """The shares the report tests beside the seats, each with its heading and
    its sentences: the normal rolls that moved nothing and the tries that
    succeeded (Aces in the Pot), the rolls followed by a roll again (Aces)."""
    _ = w.gettext
    sections = []
    if result.nothing is not None:
        sections.append((_("Normal rolls that moved nothing (no 1 and no 6)"),
                         [_share_line(result.nothing, "16/36", w),
                          *chi_square(_two_way(result.nothing), w, [])]))
    if result.tries is not None:
        sections.append((_("Tries that succeeded (three rolls without a six)"),
                         [_share_line(result.tries, "(25/36)³", w),
                          *chi_square(result.tries_fit, w, [])]))
    if result.agains is not None:
        said = [_share_line(result.agains, None, w),
                _("The exact share depends on how many dice each roll had: some"
                  " must leave the hand and some must stay."),
                *chi_square(result.agains_fit, w, [
                    w.catalog.ngettext("rolls of {count} die", "rolls of {count} dice",
                                       k).format(count=w.count(k))
                    for k in result.agains_dice])]
        if result.rolls_per_turn is not None:
            if result.exact_rolls_per_turn is not None:
                said.append(_("Rolls per turn: {observed} on average; exact {exact}.")
                            .format(observed=w.decimal(result.rolls_per_turn),
                                    exact=w.decimal(result.exact_rolls_per_turn)))
            else:
                said.append(_("Rolls per turn: {observed} on average.").format(
                    observed=w.decimal(result.rolls_per_turn)))
        sections.append((_("Rolls followed by a roll again"), said))
    return sections


def _seat_table(result: Result, w: Voice) -> list[str]:
    return [table(seat_rows(result, w), "  ")]


def seat_rows(result: Result, w: Voice) -> list[list[str]]:
    """The table of results by seat, its heading first."""
    _ = w.gettext
    losers = registration(result.rules.game).losers
    shares = result.seats.shares
    exact = shares[0].exact is not None
    # Translators: column headings of the table of results by seat.
    header = [_("seat"), _("losses") if losers else _("wins"), _("share"), _("95% interval")]
    if exact:
        # Translators: column headings: the exact chance, and whether it lies in the interval.
        header += [_("exact"), _("inside?")]
    rows = [header]
    for seat, share in enumerate(shares, 1):
        row = [str(seat), w.integer(share.hits)]
        if share.interval is not None and share.observed is not None:
            row += [w.percent(share.observed), interval(w, *share.interval)]
        else:
            row += ["", ""]
        if exact and share.exact is not None:
            row += [w.percent(share.exact), _("yes") if share.inside else _("no")]
        rows.append(row)
    return rows


def chi_square(fit: Fit | None, w: Voice, names: list[str], *,
               exact: bool = True) -> list[str]:
    """The chi-square test in sentences: its numbers (χ², its degrees of
    freedom and p), what was counted together, the conclusion."""
    _ = w.gettext
    if not exact:
        return [_("No exact odds for this table: it has too many states to solve"
                  " exactly (aces simulate estimates them).")]
    if fit is None:
        return [_("Too few for a chi-square test: it needs at least two parts that"
                  " each expect 5 or more.")]
    lines = [w.catalog.ngettext(
        "Chi-square test: χ² = {statistic} with {df} degree of freedom, p = {p}.",
        "Chi-square test: χ² = {statistic} with {df} degrees of freedom, p = {p}.",
        fit.df).format(statistic=w.decimal(fit.statistic), df=fit.df, p=p_value(w, fit.p))]
    runs = [group for group in fit.groups if len(group) > 1]
    if runs and names:
        parts = [" + ".join(names[i] for i in group if i < len(names)) for group in runs]
        # Translators: {parts}: the categories counted as one, e.g. "seat 3 + seat 4".
        lines.append(_("Counted together, so that each part of the test expects at"
                       " least 5: {parts}.").format(parts=w.names(parts)))
    lines.append(conclusion(fit, w.lang, w.catalog))
    return lines


def conclusion(fit: Fit, lang: str, catalog: gettext.NullTranslations) -> str:
    """What a test says, in words that are right: never "the dice are fair".

    >>> from aces.inference import goodness_of_fit
    >>> from aces.i18n import translations
    >>> fit = goodness_of_fit([18, 22, 20], [1/3, 1/3, 1/3])
    >>> print(conclusion(fit, "en", translations("en")))  # doctest: +NORMALIZE_WHITESPACE
    No evidence against the exact odds: if they hold, differences at least this big come
    up in 81.9% of experiments of this size.
    """
    w = Voice(catalog, lang)
    if fit.p < ALPHA:
        # Translators: the conclusion of a test with p < 0.05. {chance}: the p-value as a
        # share, e.g. "1.2 %". Say "evidence against", never "proof".
        return w.gettext("Evidence against the exact odds: if they held, differences at least"
                   " this big would come up in only {chance} of experiments of this size.").format(
            chance=chance(w, fit.p))
    # Translators: the conclusion of a test with p ≥ 0.05. {chance}: the p-value as a share.
    # Never "the dice are fair": the test cannot show that.
    return w.gettext("No evidence against the exact odds: if they hold, differences at least this"
               " big come up in {chance} of experiments of this size.").format(
        chance=chance(w, fit.p))


def _two_way(share: Share) -> Fit | None:
    if share.exact is None or not share.trials:
        return None
    return goodness_of_fit([share.hits, share.trials - share.hits],
                           [share.exact, 1 - share.exact])


def _share_line(share: Share, exact_text: str | None, w: Voice) -> str:
    _ = w.gettext
    if not share.trials or share.interval is None or share.observed is None:
        return _("None in these games.")
    # Translators: {hits} of {trials}: a count out of a number; {share}: as a percentage;
    # {interval}: its 95 % interval, "40.1% to 47.9%".
    text = _("{hits} of {trials} = {share} (95% interval {interval})").format(
        hits=w.integer(share.hits), trials=w.integer(share.trials),
        share=w.percent(share.observed), interval=interval(w, *share.interval))
    if share.exact is None:
        return text + "."
    value = w.percent(share.exact)
    where = _("inside the interval") if share.inside else _("outside the interval")
    if exact_text is None:
        # Translators: {exact}: the exact share for the dice rolled; {where}: "inside the
        # interval" or "outside the interval".
        return text + _("; exact, for the dice rolled, {exact}, {where}.").format(
            exact=value, where=where)
    # Translators: {fraction}: how the exact chance is worked out, e.g. "16/36".
    return text + _("; exact {fraction} = {exact}, {where}.").format(
        fraction=exact_text, exact=value, where=where)


def _length(length: Length, w: Voice) -> list[str]:
    lines = [w.gettext("Length of a game (rolls after the opening)")]
    if length.mean is None:
        return lines
    return [*lines, table(length_rows(length, w), "  "), *_indented(length_test(length, w))]


def length_test(length: Length, w: Voice) -> list[str]:
    """What the report says of a game's length below its table, in sentences:
    whether the exact mean lies inside the interval, and the chi-square test
    of the lengths."""
    _ = w.gettext
    lines = []
    if length.exact_mean is not None and length.interval is not None:
        lines.append(_("The exact mean lies inside the interval.") if length.inside
                     else _("The exact mean lies outside the interval."))
    if length.exact_mean is None:
        return [*lines, *chi_square(None, w, [], exact=False)]
    if length.fit is not None:
        parts = []
        for first, last in length.bins:
            if first <= 1 and last is not None:
                parts.append(_("at most {last}").format(last=w.integer(last)))
            elif last is None:
                parts.append(_("{first} or more").format(first=w.integer(first)))
            elif first == last:
                parts.append(w.integer(first))
            else:
                parts.append(_("{first} to {last}").format(first=w.integer(first),
                                                           last=w.integer(last)))
        # Translators: {count}: how many groups of lengths the test compares; {parts}: the
        # groups, as numbers of rolls.
        lines.append(_("The test compares {count} groups of game lengths, in rolls,"
                       " each expecting at least 5 games: {parts}.").format(
            count=w.count(len(parts)), parts=w.names(parts)))
    return lines + chi_square(length.fit, w, [])


def length_rows(length: Length, w: Voice) -> list[list[str]]:
    """The table of the game's length, observed beside exact, its heading first."""

    _ = w.gettext
    # Translators: column headings of the table of the game's length.
    rows = [["", _("observed"), _("95% interval"), _("exact")]]
    if length.mean is None:
        return rows
    rows.append([_("mean"), w.decimal(length.mean),
                 "" if length.interval is None else interval(w, *length.interval, percent=False),
                 "" if length.exact_mean is None else w.decimal(length.exact_mean)])
    if length.sd is not None:
        rows.append([_("standard deviation"), w.decimal(length.sd), "",
                     "" if length.exact_sd is None else w.decimal(length.exact_sd)])
    for q, seen, exact in zip(QUANTILES, length.quantiles, length.exact_quantiles, strict=True):
        # Translators: a row of the length table: "{percent} of games last at most" (this
        # many rolls).
        rows.append([_("{percent} of games last at most").format(percent=w.percent(q, 0)),
                     w.integer(seen), "", "" if exact is None else w.integer(exact)])
    return rows


def _beside(group: Group, w: Voice) -> list[str]:
    _ = w.gettext
    heading, rows = interval_rows(group, w)
    lines = [_("Each log beside the pooled result"), table(beside_rows(group, w), "  "), "",
             heading, table(rows, "  ")]
    sentence = narrowing(group, w)
    if sentence is not None:
        lines.append("  " + sentence)
    return lines


def beside_rows(group: Group, w: Voice) -> list[list[str]]:
    """Each log's shares beside the pooled ones, a row a log, its heading first."""
    _ = w.gettext
    rules = group.rules
    pot = "nothing" in registration(rules.game).measures
    # Translators: column headings of the table of logs: games, and rolls after the opening.
    header = [_("log"), _("games"), _("rolls")]
    header += [_("seat {seat}").format(seat=seat) for seat in range(1, rules.players + 1)]
    header.append(_("mean length"))
    header += [_("moved nothing"), _("tries won")] if pot else [_("roll again")]
    # Translators: a column heading: the p-value of the test of the seats.
    header.append(_("p (seats)"))
    rows = [header]

    def percent(pair: tuple[int, int] | None) -> str:
        return "" if pair is None or not pair[1] else w.percent(pair[0] / pair[1])

    for log in group.logs:
        cells = [visible(log.source), w.integer(log.games), w.integer(log.rolls)]
        cells += ["" if share is None else w.percent(share) for share in log.shares]
        cells.append("" if log.mean_length is None else w.decimal(log.mean_length, 1))
        cells += [percent(log.nothing), percent(log.tries)] if pot else [percent(log.agains)]
        cells.append("" if log.p_seats is None else p_value(w, log.p_seats))
        rows.append(cells)
    result = group.pooled
    # Translators: the last row of the table of logs: all of them together.
    cells = [_("pooled"), w.integer(result.games), w.integer(result.rolls)]
    cells += [w.percent(s.observed) if s.observed is not None else ""
              for s in result.seats.shares]
    cells.append("" if result.length.mean is None else w.decimal(result.length.mean, 1))
    shares = [result.nothing, result.tries] if pot else [result.agains]
    cells += ["" if s is None or s.observed is None else w.percent(s.observed) for s in shares]
    fit = result.seats.fit
    cells.append("" if fit is None else p_value(w, fit.p))
    rows.append(cells)
    return rows


def interval_rows(group: Group, w: Voice) -> tuple[str, list[list[str]]]:
    """Each log's 95 % interval for each seat, then the pooled one's and the
    exact chance: small logs scatter, the pooled interval is narrow. The
    table's title, and its rows, heading first."""
    _ = w.gettext
    rules = group.rules
    rows = [[_("log"), *[_("seat {seat}").format(seat=seat)
                         for seat in range(1, rules.players + 1)]]]
    for log in group.logs:
        rows.append([visible(log.source), *["" if ends is None else interval(w, *ends)
                                            for ends in log.intervals]])
    shares = group.pooled.seats.shares
    rows.append([_("pooled"), *["" if s.interval is None else interval(w, *s.interval)
                                for s in shares]])
    if shares and shares[0].exact is not None:
        rows.append([_("exact"), *[w.percent(t.cast("float", s.exact)) for s in shares]])
    # Translators: the title of a table: for each log, the 95 % interval of the share of
    # games each seat won (lost, in the five-dice game).
    title = (_("Each log's 95% interval for the share of losses by seat")
             if registration(rules.game).losers
             else _("Each log's 95% interval for the share of wins by seat"))
    return title, rows


def narrowing(group: Group, w: Voice) -> str | None:
    """How much narrower the pooled interval is than the smallest log's."""
    smallest = min(group.logs, key=lambda log: log.games)
    pooled_first = group.pooled.seats.shares[0]
    if len(group.logs) < 2 or not smallest.games or pooled_first.interval is None:
        return None

    first = wilson(smallest.wins[0], smallest.games)
    # Translators: {small} and {big}: the width of a 95 % interval, in percentage
    # points; {count}: the games of the smallest log; {total}: all games pooled.
    return w.catalog.ngettext(
        "The fewer the games, the wider the interval: seat 1's 95% interval is {small}"
        " percentage points wide for a log of {count} game, and {big} for all {total}"
        " pooled.",
        "The fewer the games, the wider the interval: seat 1's 95% interval is {small}"
        " percentage points wide for a log of {count} games, and {big} for all {total}"
        " pooled.",
        smallest.games).format(
            small=w.decimal(100 * (first.high - first.low), 1),
            count=w.count(smallest.games),
            big=w.decimal(100 * (pooled_first.interval.high - pooled_first.interval.low), 1),
            total=w.count(group.pooled.games))


def pool_logs(logs: Iterable[Source], *, csv: str | os.PathLike[str] | None = None,
              rolls: bool = False, by_log: bool = False, decimal_comma: bool = False,
              force: bool = False, lang: str = "en",
              progress: Callable[[int], None] | None = None) -> Pooled:
    """Pool logs as ``aces stats`` and ``aces.stats`` do, writing the table of
    ``csv`` (a row per game; per roll with ``rolls``; per log and seat with
    ``by_log``) headed in ``lang``, whole or not at all, and never over an
    existing file unless ``force`` (never, even then, over a log or one of
    ``logs``); with ``decimal_comma``, as Excel with Norwegian settings reads it.

    :raises ~aces.errors.OptionError: for options that need ``csv`` without it,
        ``rolls`` with ``by_log``, or a table that cannot be written.
    """
    sources = list(logs)
    table = Term("--csv", "csv=")
    rows = Term("--rolls", "rolls=True")
    per_log = Term("--by-log", "by_log=True")
    if csv is None:
        for given, option in ((rolls, rows), (by_log, per_log)):
            if given:
                # Translators: an error of "aces stats". {option}: --rolls or --by-log
                # on the command line, rolls=True or by_log=True in Python; {csv}:
                # --csv, or csv= in Python.
                raise OptionError("{option} says what the table of {csv} holds, so it needs"
                                  " {csv}", option=option, csv=table)
        if decimal_comma:
            # Translators: an error of "aces stats". {option}: --decimal-comma on the
            # command line, decimal_comma=True in Python; {csv}: --csv, or csv= in Python.
            raise OptionError("{option} says how the table of {csv} is written, so it needs"
                              " {csv}", option=Term("--decimal-comma", "decimal_comma=True"),
                              csv=table)
        if force:
            raise forced_alone(table)
        return pool(sources, progress=progress)
    if rolls and by_log:
        # Translators: an error of "aces stats". {rolls}: --rolls on the command line,
        # rolls=True in Python; {by_log}: --by-log, or by_log=True in Python.
        raise OptionError("{rolls} and {by_log} cannot be used together: a table has one"
                          " row per roll or one per log", rolls=rows, by_log=per_log)

    style = COMMA if decimal_comma else POINT
    output = Output(csv, force=force, reads=sources)
    with output.open(text=True) as out:
        if by_log:
            pooled = pool(sources, progress=progress)
            log_table(out, translations(lang), pooled, style)
            return pooled
        sink = CsvTable(out, translations(lang), rolls, style)
        try:
            return pool(sources, sink=sink, keep_rows=rolls, progress=progress)
        finally:
            sink.close()
