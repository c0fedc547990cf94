"""The replay page as one HTML file: markup, style, script and data in one.

The file asks for nothing from anywhere (its Content-Security-Policy even
forbids it): no font, no image, no script from outside. Everything the
script shows is in the JSON of ``<script type="application/json"
id="aces-data">``; the same narration is also in the markup as an ordered
list, so without a script the page is the whole narrated game, and the
chart of the chances is drawn here, as SVG, with a link on every roll.

Text from a log (players' names, and the narration that holds them) is
untrusted: in the markup it goes through :func:`markup_text`, in the JSON
through :func:`script_json`, and the script only sets ``textContent``.
A page is written to a temporary file beside the target and renamed onto
it, so a failure never leaves half a page.
"""

from __future__ import annotations

import html
import json
import os
import string
import tempfile
import typing as t
from importlib import resources
from pathlib import Path

from aces.errors import visible

if t.TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["DASHES", "PALETTE", "SRCDOC_BASE", "chart", "markup_text", "render",
           "render_simulation", "script_json", "write_atomically"]

#: The Okabe-Ito palette, which colour-blind readers can tell apart, darkest
#: first; each player's line also has its own dash pattern.
PALETTE: t.Final = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#000000", "#56B4E9",
                    "#E69F00", "#999933")
DASHES: t.Final = ("", "12 6", "3 5", "14 4 3 4", "7 7", "2 9", "20 5", "10 3 2 3 2 3")
#: The chart's drawing box (the page scales it).
WIDTH: t.Final = 1000
HEIGHT: t.Final = 300


def markup_text(text: str) -> str:
    """Untrusted text as HTML text: made visible as everywhere a person reads it
    (:func:`aces.errors.visible`), then every character that could open markup
    escaped.

    >>> markup_text('<img src=x onerror="alert(1)">')
    '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;'
    """
    return html.escape(visible(text), quote=True)


def script_json(data: t.Any) -> str:
    """JSON that cannot end the ``<script>`` element holding it.

    ``<``, ``>`` and ``&`` are written as ``\\u003c``, ``\\u003e`` and
    ``\\u0026`` (so neither ``</script>`` nor ``<!--`` can appear), and the
    line and paragraph separators as escapes too; ``JSON.parse`` reads
    them back as the same characters.

    >>> script_json({"name": "</script><b>"})
    '{"name":"\\\\u003c/script\\\\u003e\\\\u003cb\\\\u003e"}'
    """
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(char, escape)
    return text


def _asset(name: str) -> str:
    return resources.files("aces.page").joinpath("assets", name).read_text(encoding="utf-8")


def chart(positions: Sequence[dict[str, t.Any]], players: int, lang: str,
          labels: dict[str, str]) -> str:
    """The chances over the game as SVG: a line a player, a link a roll."""
    last = max(len(positions) - 1, 1)

    def x(k: int) -> str:
        return f"{k * WIDTH / last:.1f}"

    def y(p: float) -> str:
        return f"{(1 - p) * HEIGHT:.1f}"

    parts = [f'<svg id="chart" viewBox="-4 -4 {WIDTH + 8} {HEIGHT + 8}" role="group"'
             f' aria-labelledby="chart-title" preserveAspectRatio="none">',
             f'<title id="chart-title">{markup_text(labels["chart"])}</title>']
    for level in (0.0, 0.25, 0.5, 0.75, 1.0):
        parts.append(f'<line x1="0" x2="{WIDTH}" y1="{y(level)}" y2="{y(level)}"'
                     f' stroke="#bbb" stroke-width="1" vector-effect="non-scaling-stroke"/>')
    for seat in range(players if positions[0]["chances"] is not None else 0):
        points = " ".join(f"{x(k)},{y(position['chances'][seat]['chance'])}"
                          for k, position in enumerate(positions))
        dash = DASHES[seat % len(DASHES)]
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(f'<polyline class="player-{seat}" points="{points}" fill="none"'
                     f' stroke="{PALETTE[seat % len(PALETTE)]}" stroke-width="3"{dashed}'
                     f' vector-effect="non-scaling-stroke"/>')
    parts.append(f'<line id="marker" x1="0" x2="0" y1="0" y2="{HEIGHT}" stroke="#111"'
                 ' stroke-width="2" vector-effect="non-scaling-stroke"/>')
    step = WIDTH / last
    for k, position in enumerate(positions):
        left = max(0.0, k * step - step / 2)
        right = min(float(WIDTH), k * step + step / 2)
        parts.append(f'<a href="#roll={k}" aria-label="{markup_text(position["label"][lang])}">'
                     f'<rect class="col" x="{left:.1f}" y="0" width="{right - left:.1f}"'
                     f' height="{HEIGHT}"/></a>')
    parts.append("</svg>")
    return "\n".join(parts)


#: What a page shown inside ``<iframe srcdoc>`` adds to its head: a srcdoc
#: document resolves links against its parent's address, so the page's own
#: links (``#roll=3``) would leave it, and its script could not set them.
SRCDOC_BASE: t.Final = '<base href="about:srcdoc">'


def render(data: dict[str, t.Any], *, srcdoc: bool = False) -> str:
    """The whole page for the data of :func:`aces.page.replay.collect`; with
    ``srcdoc``, made to be shown inside an ``<iframe srcdoc>`` (a notebook)."""
    lang = data["lang"]
    words = data["labels"][lang]
    positions = [data["start"], *data["rolls"]]
    items = []
    for k, position in enumerate(positions):
        text = "".join(f"<p>{markup_text(line)}</p>" for line in position["text"][lang])
        items.append(f'<li id="roll-{k}"><a href="#roll={k}">'
                     f'{markup_text(position["label"][lang])}</a>'
                     f'<div class="text">{text}</div></li>')
    heading = data["start"]["text"][lang][0] if data["start"]["text"][lang] else ""
    fields = {name: markup_text(value) for name, value in words.items()}
    fields.update(
        lang=markup_text(lang),
        title=markup_text(heading),
        heading=markup_text(heading),
        css=_asset("replay.css"),
        js=_asset("replay.js"),
        svg=chart(positions, len(data["players"]), lang, words),
        items="\n".join(items),
        data=script_json(data),
    )
    template = _asset("replay.html")
    if srcdoc:
        template = template.replace("<head>\n", f"<head>\n{SRCDOC_BASE}\n", 1)
        assert SRCDOC_BASE in template, "the page template has no <head> line"
    return string.Template(template).substitute(fields)


def write_atomically(path: str, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: a temporary file beside
    it, flushed to disk, then renamed onto it."""
    target = Path(path)
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                         dir=target.parent if str(target.parent) else ".")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        # mkstemp makes the file private; a page is as readable as any new file.
        mask = os.umask(0)
        os.umask(mask)
        Path(temporary).chmod(0o666 & ~mask)
        Path(temporary).replace(target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def render_simulation(data: dict[str, t.Any]) -> str:
    """The whole simulation page for the data of :func:`aces.page.simulation.collect`;
    without a script it shows the exact values of the game asked for."""
    from babel.numbers import format_decimal

    from aces.i18n import babel_locale
    from aces.narrate.chances import percent_in

    lang = data["lang"]
    words = data["labels"][lang]
    table = next(entry for entry in data["tables"] if entry["players"] == data["players"]
                 and entry["finish"] == data["finish"])
    seats = data["seats"][lang][:table["players"]]
    locale = babel_locale(lang)
    fields = {name.replace("-", "_"): markup_text(value) for name, value in words.items()}
    fields.update(
        lang=markup_text(lang),
        caption=markup_text(words["share"]),
        seat_heads="".join(f'<th scope="col">{markup_text(seat)}</th>' for seat in seats),
        exact_cells="".join(
            f"<td>{markup_text(percent_in(p, locale))}</td>" for p in table["exact"]["by_seat"])
        + f'<td>{markup_text(format_decimal(table["exact"]["rolls"], "0.00", locale=locale))}</td>',
        css=_asset("simulate.css"),
        js=_asset("simulate.js"),
        data=script_json(data),
    )
    return string.Template(_asset("simulate.html")).substitute(fields)
