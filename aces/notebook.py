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
    from collections.abc import Sequence

    from aces.experiment.pool import Pooled

__all__ = ["bars", "escape", "section", "stats_html", "table"]

#: The size of a bar chart, in pixels.
_WIDTH: t.Final = 360
_BAR: t.Final = 22


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


def table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A plain HTML table; every cell escaped."""
    header = "".join(f"<th>{escape(cell)}</th>" for cell in head)
    body = "".join("<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>"
                   for row in rows)
    return f"<table><thead><tr>{header}</tr></thead><tbody>{body}</tbody></table>"


def bars(labels: Sequence[str], values: Sequence[float],
         exact: Sequence[float] | None = None,
         intervals: Sequence[tuple[float, float]] | None = None) -> str:
    """Horizontal bars of shares (0 to 1), with the exact value as a black
    mark and the 95 % interval as a line, in inline SVG.

    >>> svg = bars(["1", "2"], [0.4, 0.6], [0.5, 0.5], [(0.3, 0.5), (0.5, 0.7)])
    >>> svg.startswith("<svg") and "<script" not in svg
    True
    """
    top = max([*values, *(exact or []), *(high for _, high in intervals or [])], default=1.0)
    scale = (_WIDTH - 60) / max(top, 1e-9)
    height = _BAR * len(values) + 10
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_WIDTH}" height="{height}"'
             f' role="img">']
    for i, (label, value) in enumerate(zip(labels, values, strict=True)):
        y = 5 + i * _BAR
        parts.append(f'<text x="0" y="{y + 15}" font-size="12">{escape(label)}</text>')
        parts.append(f'<rect x="50" y="{y + 3}" width="{value * scale:.1f}" height="{_BAR - 8}"'
                     f' fill="#7aa6c2"><title>{value:.1%}</title></rect>')
        if intervals is not None:
            low, high = intervals[i]
            parts.append(f'<line x1="{50 + low * scale:.1f}" x2="{50 + high * scale:.1f}"'
                         f' y1="{y + _BAR / 2}" y2="{y + _BAR / 2}" stroke="#333"'
                         f' stroke-width="2"/>')
        if exact is not None:
            x = 50 + exact[i] * scale
            parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{y}" y2="{y + _BAR - 2}"'
                         f' stroke="#000" stroke-width="3"><title>exact {exact[i]:.1%}</title>'
                         f'</line>')
    parts.append("</svg>")
    return "".join(parts)


def stats_html(pooled: Pooled) -> str:
    """The pooled results: for each set of rules, the seats against the exact odds."""
    from aces.experiment.report import conclusion
    from aces.i18n import translations

    catalog = translations("en")
    blocks = []
    left = pooled.left_out
    if left:
        blocks.append(section(f"{len(left)} left out", "",
                              "<ul>" + "".join(f"<li>{escape(str(log.error))}</li>"
                                               for log in left) + "</ul>"))
    for group in pooled.groups:
        result = group.pooled
        shares = result.seats.shares
        exact = [s.exact for s in shares]
        known = all(value is not None for value in exact)
        verb = "losses" if group.rules.game == "five-dice" else "wins"
        rows = [[str(seat), str(s.hits), "" if s.observed is None else f"{s.observed:.1%}",
                 "" if s.interval is None else f"{s.interval.low:.1%} to {s.interval.high:.1%}",
                 "" if s.exact is None else f"{s.exact:.1%}"]
                for seat, s in enumerate(shares, 1)]
        fit = result.seats.fit
        text = conclusion(fit, "en", catalog) if fit is not None else ""
        title = (f"{group.rules.game}, {group.rules.players} players: {result.games} games"
                 f" from {len(group.logs)} logs")
        chart = bars([str(seat) for seat in range(1, len(shares) + 1)],
                     [s.observed or 0.0 for s in shares],
                     t.cast("list[float]", exact) if known else None,
                     [(s.interval.low, s.interval.high) if s.interval else (0.0, 0.0)
                      for s in shares])
        blocks.append(section(title, text, table(
            ["seat", verb, "share", "95% interval", "exact"], rows) + chart))
    return "".join(blocks)
