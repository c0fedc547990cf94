"""How the API's objects show themselves in a notebook: plain HTML and SVG.

No scripts and no styles from elsewhere: an untrusted notebook, and
GitHub's view of one, drop scripts, and a school computer may be offline.
Every piece of text from a log (names, file names) goes through
:func:`aces.escape.markup` before it reaches the markup.

Each view speaks its object's ``lang``: every sentence and heading comes
from the package's catalogs, most of them the very ones the command line
and the narration use (a game's opening and end are told as ``aces
replay`` tells them), and numbers are formatted by Babel.

>>> print(table(["seat", "share"], [["1", "<b>"]]))
<table><thead><tr><th>seat</th><th>share</th></tr></thead><tbody><tr><td>1</td><td>&lt;b&gt;</td></tr></tbody></table>
"""

from __future__ import annotations

import html
import typing as t

from aces.colours import BAR
from aces.escape import markup
from aces.events import GameOver, OpeningWon
from aces.games import registration
from aces.i18n import translations
from aces.narrate import UNFINISHED
from aces.reports import stats
from aces.reports.export import ROLL_COLUMNS, headings
from aces.reports.simulation import parts
from aces.voice import Voice
from aces.walk import STAGES

if t.TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from aces.experiment.pool import Group, Pooled
    from aces.inference import Interval
    from aces.narrate.phrasebook import Phrasebook
    from aces.results import Game, Odds, Simulated

__all__ = ["HTML_GAMES", "PAGE_STEPS", "bars", "folded", "frame", "game_html", "heading",
           "log_html", "odds_html", "paragraph", "section", "session_html", "simulated_html",
           "stats_html", "table"]

#: The most games a log shows as a table in a notebook.
HTML_GAMES: t.Final = 200
#: The most events of a game whose replay page a notebook shows: the page
#: grows with the game (about a kilobyte an event) and is kept in the notebook.
PAGE_STEPS: t.Final = 1_000
#: The size of a bar chart, in pixels.
_WIDTH: t.Final = 360
_BAR: t.Final = 22
#: The size of the frame a replay page is shown in, in pixels.
_FRAME_WIDTH: t.Final = 1100
_FRAME_HEIGHT: t.Final = 640
#: The most pixels, and characters, a log's name takes beside its bar.
_LABEL: t.Final = 200
_NAME: t.Final = 24


def section(title: str, text: str, body: str) -> str:
    """A titled block: a heading, a line of text, then ``body`` (markup)."""
    parts = [f"<div><strong>{markup(title)}</strong>"]
    if text:
        parts.append(f"<p>{markup(text)}</p>")
    parts.append(body)
    parts.append("</div>")
    return "".join(parts)


def frame(page: str, title: str) -> str:
    """A whole HTML page inside an ``<iframe srcdoc>``.

    The page is escaped for the attribute (``&``, ``<``, ``>`` and both
    quotes), which the browser undoes before it reads the page, so nothing
    in it, names from a log included, can end the attribute or the frame.
    The frame is sandboxed with scripts only: the page's script runs, at an
    origin of its own, and can reach neither the notebook nor its cookies,
    open windows or navigate the notebook away.

    >>> frame('<p title="a">Bo & Cy</p>', "Bo")  # doctest: +NORMALIZE_WHITESPACE
    '<iframe srcdoc="&lt;p title=&quot;a&quot;&gt;Bo &amp; Cy&lt;/p&gt;"
    sandbox="allow-scripts" referrerpolicy="no-referrer" title="Bo"
    style="width:100%;max-width:1100px;height:640px;border:1px solid #ccc"></iframe>'
    """
    return (f'<iframe srcdoc="{html.escape(page, quote=True)}" sandbox="allow-scripts"'
            f' referrerpolicy="no-referrer" title="{markup(title)}"'
            f' style="width:100%;max-width:{_FRAME_WIDTH}px;height:{_FRAME_HEIGHT}px;'
            f'border:1px solid #ccc"></iframe>')


def folded(summary: str, body: str) -> str:
    """``body`` (markup) folded under a line of text that opens it."""
    return f"<details><summary>{markup(summary)}</summary>{body}</details>"


def table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A plain HTML table; every cell escaped."""
    header = "".join(f"<th>{markup(cell)}</th>" for cell in head)
    body = "".join("<tr>" + "".join(f"<td>{markup(cell)}</td>" for cell in row) + "</tr>"
                   for row in rows)
    return f"<table><thead><tr>{header}</tr></thead><tbody>{body}</tbody></table>"


def bars(labels: Sequence[str], values: Sequence[float],
         exact: Sequence[float] | None = None,
         intervals: Sequence[tuple[float, float]] | None = None, *, label: int = 50,
         shown: Callable[[float], str], exact_shown: Callable[[float], str] | None = None,
         name: str) -> str:
    """Horizontal bars of shares (0 to 1), with the exact value as a black
    mark and the 95 % interval as a line, in inline SVG; ``label`` pixels
    are kept for the labels on the left. ``shown`` and ``exact_shown`` write
    a bar's value and the exact value, in the reader's language, where a
    pointer rests on them. ``name`` is what a screen reader calls the picture:
    its numbers are in the table it stands under, its text alternative.

    >>> svg = bars(["1", "2"], [0.4, 0.6], [0.5, 0.5], [(0.3, 0.5), (0.5, 0.7)], shown=str,
    ...            name="Wins by seat")
    >>> svg.startswith("<svg") and 'aria-label="Wins by seat"' in svg and "<script" not in svg
    True
    """
    top = max([*values, *(exact or []), *(high for _, high in intervals or [])], default=1.0)
    width = _WIDTH + label - 50
    scale = (width - label - 10) / max(top, 1e-9)
    height = _BAR * len(values) + 10
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}"'
             f' role="img" aria-label="{markup(name)}">']
    for i, (name, value) in enumerate(zip(labels, values, strict=True)):
        y = 5 + i * _BAR
        parts.append(f'<text x="0" y="{y + 15}" font-size="12">{markup(name)}</text>')
        parts.append(f'<rect x="{label}" y="{y + 3}" width="{value * scale:.1f}"'
                     f' height="{_BAR - 8}" fill="{BAR}">'
                     f'<title>{markup(shown(value))}</title></rect>')
        if intervals is not None:
            low, high = intervals[i]
            parts.append(f'<line x1="{label + low * scale:.1f}" x2="{label + high * scale:.1f}"'
                         f' y1="{y + _BAR / 2}" y2="{y + _BAR / 2}" stroke="#333"'
                         f' stroke-width="2"/>')
        if exact is not None:
            x = label + exact[i] * scale
            parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{y}" y2="{y + _BAR - 2}"'
                         f' stroke="#000" stroke-width="3">'
                         f'<title>{markup((exact_shown or shown)(exact[i]))}</title></line>')
    parts.append("</svg>")
    return "".join(parts)


def stats_html(pooled: Pooled, lang: str = "en", *, voice: Voice | None = None) -> str:
    """The pooled results in ``lang``, as ``aces stats`` words and formats them:
    for each set of rules the seats against the exact odds with the chi-square
    test (χ², its degrees of freedom, p and the conclusion), the length of a
    game with its test, the other shares the report tests (the rolls that
    moved nothing, the tries that succeeded, the rolls again), and each log
    beside the pool with its 95 % intervals (and a picture of seat 1's: small
    logs scatter).

    ``voice``: a voice of ``lang`` to write the numbers with, kept by a caller
    that writes pool after pool (the live class's projector), so that its
    memos outlive one call: a fresh voice each time wrote every percentage
    anew through Babel, though nearly all were the last pool's."""

    catalog = translations(lang)
    w = Voice(catalog, lang) if voice is None else voice
    _ = catalog.gettext
    blocks = [paragraph(stats.logs_read(pooled, w))]
    if pooled.left_out:
        blocks.append("<ul>" + "".join(
            "<li>" + markup(_("Left out: {error}").format(
                error=log.error.render(catalog.gettext, catalog.ngettext))) + "</li>"
            for log in pooled.left_out if log.error is not None) + "</ul>")
    if excluded := stats.taken_out(pooled, w):
        blocks.append("<ul>" + "".join(f"<li>{markup(line)}</li>" for line in excluded)
                      + "</ul>")
    for group in pooled.groups:
        result = group.pooled
        shares = result.seats.shares
        exact = [s.exact for s in shares]
        known = all(value is not None for value in exact)
        by_seat = (_("Losses by seat") if registration(group.rules.game).losers
                   else _("Wins by seat"))
        parts = [paragraph(_("Games: {games}; rolls after the opening: {rolls}; logs: {logs}.")
                           .format(games=w.integer(result.games), rolls=w.integer(result.rolls),
                                   logs=w.integer(len(group.logs)))),
                 heading(by_seat),
                 paragraph(_(stats.SEATS_COUNTED)),
                 table(*_split(stats.seat_rows(result, w))),
                 bars([str(seat) for seat in range(1, len(shares) + 1)],
                      [s.observed or 0.0 for s in shares],
                      t.cast("list[float]", exact) if known else None,
                      [(s.interval.low, s.interval.high) if s.interval else (0.0, 0.0)
                       for s in shares], shown=w.percent, exact_shown=_exact_shown(w),
                      name=by_seat)]
        # The tests as aces stats words them: χ², its degrees of freedom, p, the conclusion.
        parts += [paragraph(said) for said in stats.seat_test(group, w)]
        if result.length.mean is not None:
            parts += [heading(_("Length of a game (rolls after the opening)")),
                      table(*_split(stats.length_rows(result.length, w))),
                      *(paragraph(said) for said in stats.length_test(result.length, w))]
        for title, said in stats.share_sections(result, w):
            parts += [heading(title), *(paragraph(sentence) for sentence in said)]
        title, intervals = stats.interval_rows(group, w)
        parts += [heading(_("Each log beside the pooled result")),
                  table(*_split(stats.beside_rows(group, w))),
                  heading(title), table(*_split(intervals)),
                  _scatter(group, w)]
        sentence = stats.narrowing(group, w)
        if sentence is not None:
            parts.append(paragraph(sentence))
        blocks.append(section(stats.rules_name(group.rules, w), "", "".join(parts)))
    return "".join(blocks)


def paragraph(text: str) -> str:
    return f"<p>{markup(text)}</p>"


def heading(text: str) -> str:
    return f"<p><em>{markup(text)}</em></p>"


def _split(rows: list[list[str]]) -> tuple[list[str], list[list[str]]]:
    return rows[0], rows[1:]


def _scatter(group: Group, w: Voice) -> str:
    """Seat 1's share in each log with its 95 % interval, then the pooled one,
    against the exact chance."""
    logs = [log for log in group.logs if log.games]
    first = group.pooled.seats.shares[0]
    if not logs or first.interval is None:
        return ""
    labels = [_short(log.source) for log in logs]
    labels.append(w.gettext("pooled"))
    values = [t.cast("float", log.shares[0]) for log in logs] + [t.cast("float", first.observed)]
    ends = [(t.cast("Interval", log.intervals[0]).low, t.cast("Interval", log.intervals[0]).high)
            for log in logs] + [(first.interval.low, first.interval.high)]
    exact = None if first.exact is None else [first.exact] * len(values)
    seat = w.gettext("seat {seat}").format(seat=1)
    return (heading(seat)
            + bars(labels, values, exact, ends, label=min(_LABEL, 7 * max(map(len, labels)) + 10),
                   shown=w.percent, exact_shown=_exact_shown(w), name=seat))


def _exact_shown(w: Voice) -> Callable[[float], str]:
    """The exact value of a chart, as the report writes it."""
    def exact(value: float) -> str:
        # Translators: where a pointer rests on the exact value in a chart of the
        # notebook. {chance}: a percentage.
        return w.gettext("exact: {chance}").format(chance=w.percent(value))

    return exact


def _short(source: str) -> str:
    """A log's file name without its folder, cut to fit beside a bar."""
    name = source.replace("\\", "/").rsplit("/", 1)[-1]
    return name if len(name) <= _NAME else name[: _NAME - 1] + "…"


# -- The other objects of the API --------------------------------------------------------


def game_html(game: Game, page: str | None) -> str:
    """A game in its language: how it began and ended, told as ``aces replay``
    tells it, its replay page (``page``, made for a frame; ``None`` when the
    game is too long for a notebook), and every roll folded below, in the
    columns of ``aces stats --csv --rolls``."""

    w, book = _speaking(game.lang, game.game)
    _ = w.gettext
    title = book.header(game._number, game.header)[0]
    said = [line for step in game.steps if isinstance(step.event, OpeningWon | GameOver)
            for line in book.say(step)]
    if game.over is not None:
        # Translators: after how a game ended, in a notebook. {count}: the rolls after the
        # opening rolls, as the odds count a game's length.
        said.append(w.catalog.ngettext("The game took {count} roll after the opening.",
                                       "The game took {count} rolls after the opening.",
                                       game.length).format(count=w.count(game.length)))
    elif game.waiting is not None:
        # As aces verify and aces replay end a log whose last game goes on.
        said.append(_(UNFINISHED).format(player=game.waiting))
    if page is None:
        # Translators: in a notebook, instead of a game's replay page. {count}: the
        # game's events; {limit}: the most a notebook shows; game.page() stays as it is.
        shown = paragraph(w.catalog.ngettext(
            "The replay page is left out here: the game has {count} event, more than the"
            " {limit} a notebook shows. game.page() gives it, to save as a file.",
            "The replay page is left out here: the game has {count} events, more than the"
            " {limit} a notebook shows. game.page() gives it, to save as a file.",
            len(game.steps)).format(count=w.integer(len(game.steps)),
                                    limit=w.integer(PAGE_STEPS)))
    else:
        shown = frame(page, title)
    # The columns of aces stats --csv --rolls but its log and game, for the same rows.
    head = headings(w.catalog, ROLL_COLUMNS[2:])
    rows = [[w.integer(r.number), r.player, w.integer(r.seat), _(STAGES[r.stage]),
             Voice.dice(r.dice), w.integer(r.held_after)] for r in game.rolls]
    return section(title, " ".join(said), shown + folded(_("Every roll"), table(head, rows)))


def session_html(games: Sequence[Game], lang: str) -> str:
    """Games in a row: the session's tally and its last word, as ``aces
    replay`` ends a session, and a row for each game."""
    w = Voice.of(lang)
    _, csv = w.gettext, w.catalog.pgettext
    # Translators: the heading of a session of games in a notebook. {count}: the games.
    title = w.catalog.ngettext("A session of {count} game", "A session of {count} games",
                               len(games)).format(count=w.count(len(games)))
    said: list[str] = []
    for kind in dict.fromkeys(game.game for game in games):
        book = _phrasebook(kind, w)
        played = [game for game in games if game.game == kind]
        scores = dict.fromkeys((name for game in played for name in game.players), 0)
        over = [book.score(game.over) for game in played if game.over is not None]
        for name in over:
            if name is not None:
                scores[name] += 1
        # As aces replay: one game has no tally and no «most» to tell.
        if len(over) > 1:
            said += [book.tally(scores, len(over)), book.verdict(scores, len(over))]
    if games and games[-1].waiting is not None:
        # As aces verify and aces replay end a log whose last game goes on.
        said.append(_(UNFINISHED).format(player=games[-1].waiting))
    losers = bool(games) and registration(games[0].game).losers
    head = [csv("csv", "game"), csv("csv", "starter"),
            csv("csv", "loser") if losers else csv("csv", "winner"), csv("csv", "rolls")]
    rows = [[w.integer(number), game.starter or "", (game.loser if losers else game.winner) or "",
             w.integer(game.length)] for number, game in enumerate(games, 1)]
    return section(title, " ".join(said), table(head, rows))


def log_html(name: str, games: int, lang: str) -> str:
    """A log of more games than a notebook lists: its name and its count."""

    w = Voice.of(lang)
    # Translators: a log too long to list in a notebook. {log}: its file name;
    # {count}: its games; {limit}: the most games a notebook lists.
    return section(w.catalog.ngettext(
        "{log} holds {count} game, more than the {limit} a notebook lists; walk them with"
        " a loop.",
        "{log} holds {count} games, more than the {limit} a notebook lists; walk them with"
        " a loop.", games).format(log=name, count=w.integer(games),
                                  limit=w.integer(HTML_GAMES)), "", "")


def odds_html(odds: Odds) -> str:
    """The exact chances of a table, by seat, or of a moment of a game, by player."""
    w = Voice.of(odds.lang)
    _ = w.gettext
    # Translators: the heading of a table's exact odds in a notebook. {game}: the game's
    # name; {players}: how many play, two or more, in words where the language writes so.
    title = _("{game}: exact odds for {players} players").format(
        game=_(registration(odds.game).title), players=w.count(odds.players))
    chance = _("chance to lose") if registration(odds.game).losers else _("chance to win")
    if odds.by_player is not None:
        labels, values = list(odds.by_player), list(odds.by_player.values())
        head = [_("player"), chance]
        # Translators: under the odds of a moment of a game, in a notebook.
        said = [_("Each player's chance from this moment of the game on, from the solution"
                  " of the game's Markov chain."),
                # Translators: {mean}: the rolls a game still takes, on average.
                _("Rolls still to come: {mean} on average.").format(
                    mean=w.decimal(odds.expected_rolls))]
    else:
        labels = [w.integer(seat) for seat in range(1, odds.players + 1)]
        values = odds.win_by_seat
        head = [_("seat"), chance]
        said = [_("Exact chances, from the solution of the game's Markov chain."),
                _("Seat 1 rolls first after the opening; the others follow to the left.")]
        if odds.sd_rolls is not None:
            said.append(_("Rolls in a game: {mean} on average, standard deviation {sd}.")
                        .format(mean=w.decimal(odds.expected_rolls), sd=w.decimal(odds.sd_rolls)))
    rows = [[label, w.percent(value, 2)] for label, value in zip(labels, values, strict=True)]
    return section(title, " ".join(said),
                   table(head, rows) + bars(labels, values, shown=w.percent, name=title))


def simulated_html(simulated: Simulated) -> str:
    """Simulated games as ``aces simulate`` reports them, the table as HTML and
    the shares drawn against the exact chances."""

    w = Voice.of(simulated.lang)
    summary, exact = simulated.summary, simulated.exact
    # Why the exact answers are missing, if they are, and how Python asks for them.
    above, rows, below = parts(simulated.game, simulated.players, simulated.options,
                               simulated.seed, summary, exact, w.lang, w.catalog,
                               unsolved=simulated.unsolved, python=True)
    title, details, *rest = above
    labels = [row[0] for row in rows[1:]]
    picture = bars(labels, summary.win_by_seat,
                   exact.win_by_seat if exact is not None else None,
                   list(summary.win_intervals), shown=w.percent, exact_shown=_exact_shown(w),
                   name=title)
    return section(title, details, "".join(paragraph(line) for line in rest if line)
                   + table(rows[0], rows[1:]) + picture
                   + "".join(paragraph(line) for line in below if line))


def _phrasebook(game: str, w: Voice) -> Phrasebook:
    return registration(game).phrasebook(w)


def _speaking(lang: str, game: str) -> tuple[Voice, Phrasebook]:
    w = Voice.of(lang)
    return w, _phrasebook(game, w)
