"""How the API's objects show themselves in a notebook: plain HTML and SVG.

No scripts and no styles from elsewhere: an untrusted notebook, and
GitHub's view of one, drop scripts, and a school computer may be offline.
Every piece of text from a log (names, file names) goes through
:func:`escape` before it reaches the markup.

>>> print(table(["seat", "share"], [["1", "<b>"]]))
<table><thead><tr><th>seat</th><th>share</th></tr></thead><tbody><tr><td>1</td><td>&lt;b&gt;</td></tr></tbody></table>
"""

from __future__ import annotations

import html
import typing as t

if t.TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from aces.experiment.inference import Interval
    from aces.experiment.pool import Group, Pooled
    from aces.experiment.report import Writer

__all__ = ["bars", "escape", "folded", "frame", "heading", "paragraph", "section", "stats_html",
           "table"]

#: The size of a bar chart, in pixels.
_WIDTH: t.Final = 360
_BAR: t.Final = 22
#: The size of the frame a replay page is shown in, in pixels.
_FRAME_WIDTH: t.Final = 1100
_FRAME_HEIGHT: t.Final = 640
#: The most pixels, and characters, a log's name takes beside its bar.
_LABEL: t.Final = 200
_NAME: t.Final = 24


def escape(text: str) -> str:
    """Text safe inside HTML and SVG, in an element or an attribute: made
    :func:`~aces.errors.visible` (no control character), then its markup
    escaped.

    >>> escape('<b title="x">Bo' + chr(27) + "</b>")
    '&lt;b title=&quot;x&quot;&gt;Bo\\\\x1b&lt;/b&gt;'
    """
    from aces.errors import visible

    return html.escape(visible(text), quote=True)


def section(title: str, text: str, body: str) -> str:
    """A titled block: a heading, a line of text, then ``body`` (markup)."""
    parts = [f"<div><strong>{escape(title)}</strong>"]
    if text:
        parts.append(f"<p>{escape(text)}</p>")
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
            f' referrerpolicy="no-referrer" title="{escape(title)}"'
            f' style="width:100%;max-width:{_FRAME_WIDTH}px;height:{_FRAME_HEIGHT}px;'
            f'border:1px solid #ccc"></iframe>')


def folded(summary: str, body: str) -> str:
    """``body`` (markup) folded under a line of text that opens it."""
    return f"<details><summary>{escape(summary)}</summary>{body}</details>"


def table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A plain HTML table; every cell escaped."""
    header = "".join(f"<th>{escape(cell)}</th>" for cell in head)
    body = "".join("<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>"
                   for row in rows)
    return f"<table><thead><tr>{header}</tr></thead><tbody>{body}</tbody></table>"


def bars(labels: Sequence[str], values: Sequence[float],
         exact: Sequence[float] | None = None,
         intervals: Sequence[tuple[float, float]] | None = None, *, label: int = 50,
         shown: Callable[[float], str] = "{:.1%}".format,
         exact_shown: Callable[[float], str] = "exact {:.1%}".format) -> str:
    """Horizontal bars of shares (0 to 1), with the exact value as a black
    mark and the 95 % interval as a line, in inline SVG; ``label`` pixels
    are kept for the labels on the left. ``shown`` and ``exact_shown`` write
    a bar's value and the exact value where a pointer rests on them.

    >>> svg = bars(["1", "2"], [0.4, 0.6], [0.5, 0.5], [(0.3, 0.5), (0.5, 0.7)])
    >>> svg.startswith("<svg") and "<script" not in svg
    True
    """
    top = max([*values, *(exact or []), *(high for _, high in intervals or [])], default=1.0)
    width = _WIDTH + label - 50
    scale = (width - label - 10) / max(top, 1e-9)
    height = _BAR * len(values) + 10
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}"'
             f' role="img">']
    for i, (name, value) in enumerate(zip(labels, values, strict=True)):
        y = 5 + i * _BAR
        parts.append(f'<text x="0" y="{y + 15}" font-size="12">{escape(name)}</text>')
        parts.append(f'<rect x="{label}" y="{y + 3}" width="{value * scale:.1f}"'
                     f' height="{_BAR - 8}" fill="#7aa6c2">'
                     f'<title>{escape(shown(value))}</title></rect>')
        if intervals is not None:
            low, high = intervals[i]
            parts.append(f'<line x1="{label + low * scale:.1f}" x2="{label + high * scale:.1f}"'
                         f' y1="{y + _BAR / 2}" y2="{y + _BAR / 2}" stroke="#333"'
                         f' stroke-width="2"/>')
        if exact is not None:
            x = label + exact[i] * scale
            parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{y}" y2="{y + _BAR - 2}"'
                         f' stroke="#000" stroke-width="3">'
                         f'<title>{escape(exact_shown(exact[i]))}</title></line>')
    parts.append("</svg>")
    return "".join(parts)


def stats_html(pooled: Pooled, lang: str = "en") -> str:
    """The pooled results in ``lang``, as ``aces stats`` words and formats them:
    for each set of rules the seats against the exact odds with the test's
    conclusion, the length of a game, and each log beside the pool with its
    95 % intervals (and a picture of seat 1's: small logs scatter)."""
    from aces.experiment.report import (
        Writer,
        beside_rows,
        conclusion,
        interval_rows,
        length_rows,
        logs_read,
        narrowing,
        rules_name,
        seat_rows,
    )
    from aces.i18n import translations

    catalog = translations(lang)
    w = Writer(lang, catalog)
    _ = catalog.gettext
    blocks = [paragraph(logs_read(pooled, w))]
    if pooled.left_out:
        blocks.append("<ul>" + "".join(
            "<li>" + escape(_("Left out: {error}").format(
                error=log.error.render(catalog.gettext, catalog.ngettext))) + "</li>"
            for log in pooled.left_out if log.error is not None) + "</ul>")
    for group in pooled.groups:
        result = group.pooled
        shares = result.seats.shares
        exact = [s.exact for s in shares]
        known = all(value is not None for value in exact)
        fit = result.seats.fit
        parts = [paragraph(_("Games: {games}; rolls after the opening: {rolls}; logs: {logs}.")
                           .format(games=w.integer(result.games), rolls=w.integer(result.rolls),
                                   logs=w.integer(len(group.logs)))),
                 heading(_("Losses by seat") if group.rules.game == "five-dice"
                         else _("Wins by seat")),
                 table(*_split(seat_rows(result, w))),
                 bars([str(seat) for seat in range(1, len(shares) + 1)],
                      [s.observed or 0.0 for s in shares],
                      t.cast("list[float]", exact) if known else None,
                      [(s.interval.low, s.interval.high) if s.interval else (0.0, 0.0)
                       for s in shares], shown=w.percent, exact_shown=_exact_shown(w))]
        if fit is not None:
            parts.append(paragraph(conclusion(fit, lang, catalog)))
        if result.length.mean is not None:
            parts += [heading(_("Length of a game (rolls after the opening)")),
                      table(*_split(length_rows(result.length, w)))]
        title, intervals = interval_rows(group, w)
        parts += [heading(_("Each log beside the pooled result")),
                  table(*_split(beside_rows(group, w))),
                  heading(title), table(*_split(intervals)),
                  _scatter(group, w)]
        sentence = narrowing(group, w)
        if sentence is not None:
            parts.append(paragraph(sentence))
        blocks.append(section(rules_name(group.rules, w), "", "".join(parts)))
    return "".join(blocks)


def paragraph(text: str) -> str:
    return f"<p>{escape(text)}</p>"


def heading(text: str) -> str:
    return f"<p><em>{escape(text)}</em></p>"


def _split(rows: list[list[str]]) -> tuple[list[str], list[list[str]]]:
    return rows[0], rows[1:]


def _scatter(group: Group, w: Writer) -> str:
    """Seat 1's share in each log with its 95 % interval, then the pooled one,
    against the exact chance."""
    logs = [log for log in group.logs if log.games]
    first = group.pooled.seats.shares[0]
    if not logs or first.interval is None:
        return ""
    labels = [_short(log.source) for log in logs]
    labels.append(w._("pooled"))
    values = [t.cast("float", log.shares[0]) for log in logs] + [t.cast("float", first.observed)]
    ends = [(t.cast("Interval", log.intervals[0]).low, t.cast("Interval", log.intervals[0]).high)
            for log in logs] + [(first.interval.low, first.interval.high)]
    exact = None if first.exact is None else [first.exact] * len(values)
    return (heading(w._("seat {seat}").format(seat=1))
            + bars(labels, values, exact, ends, label=min(_LABEL, 7 * max(map(len, labels)) + 10),
                   shown=w.percent, exact_shown=_exact_shown(w)))


def _exact_shown(w: Writer) -> Callable[[float], str]:
    """The exact value of a chart, as the report writes it."""
    def exact(value: float) -> str:
        # Translators: where a pointer rests on the exact value in a chart of the
        # notebook. {chance}: a percentage.
        return w._("exact: {chance}").format(chance=w.percent(value))

    return exact


def _short(source: str) -> str:
    """A log's file name without its folder, cut to fit beside a bar."""
    name = source.replace("\\", "/").rsplit("/", 1)[-1]
    return name if len(name) <= _NAME else name[: _NAME - 1] + "…"
