"""The replay page as one HTML file: markup, style, script and data in one.

The file asks for nothing from anywhere (its Content-Security-Policy even
forbids it): no font, no image, no script from outside; and of what it
holds, only its own style and script apply, known by their hashes
(:func:`security_policy`). Everything the
script shows is in the JSON of ``<script type="application/json"
id="aces-data">``; the same narration is also in the markup as an ordered
list, so without a script the page is the whole narrated game, and the
chart of the chances is drawn here, as SVG, with a link on every roll.

Text from a log (players' names, and the narration that holds them) is
untrusted: in the markup it goes through :func:`aces.escape.markup`, in the JSON
through :func:`script_json`, and the script only sets ``textContent``.
A page is written to a temporary file beside the target and renamed onto
it, so a failure never leaves half a page; the command that writes it
replaces only a page of its own kind, known by :func:`mark`, unless it is
told to (:mod:`aces.files`).
"""

from __future__ import annotations

import base64
import hashlib
import json
import string
import typing as t
from importlib import resources

from babel.numbers import format_decimal

from aces.colours import PALETTE
from aces.escape import markup
from aces.files import Output
from aces.i18n import babel_locale
from aces.narrate.chances import percent_in

if t.TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["DASHES", "PALETTE", "SRCDOC_BASE", "chart", "mark", "page_policy", "render",
           "render_simulation", "roll_name", "script_json", "security_policy",
           "write_atomically"]

#: Each player's line's dash pattern, beside its colour (aces.colours.PALETTE).
DASHES: t.Final = ("", "12 6", "3 5", "14 4 3 4", "7 7", "2 9", "20 5", "10 3 2 3 2 3")
#: The chart's drawing box (the page scales it).
WIDTH: t.Final = 1000
HEIGHT: t.Final = 300


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


#: What a page shown inside ``<iframe srcdoc>`` adds to its head: a srcdoc
#: document resolves links against its parent's address, so the page's own
#: links (``#roll=3``) would leave it, and its script could not set them.
SRCDOC_BASE: t.Final = '<base href="about:srcdoc">'


def security_policy(style: str, script: str, *, srcdoc: bool = False) -> str:
    """The page's Content-Security-Policy: nothing from anywhere, and only the
    page's own ``style`` and ``script`` (the text of its ``<style>`` and
    ``<script>``) applied, known by their SHA-256. Markup that found its way
    into a page, should escaping ever slip, then runs nothing (no script, no
    handler), submits nothing (``form-action``) and cannot move the page's
    base (``base-uri``). A page inside ``<iframe srcdoc>`` sets its own base,
    :data:`SRCDOC_BASE`, and allows an ``about:`` base alone.

    >>> policy = security_policy("p{}", "go()")
    >>> policy.startswith("default-src 'none'; style-src 'sha256-"), policy.split("; ")[-2:]
    (True, ["form-action 'none'", "base-uri 'none'"])
    """
    base = "about:" if srcdoc else "'none'"
    return (f"default-src 'none'; style-src {_digest(style)}; script-src {_digest(script)};"
            f" form-action 'none'; base-uri {base}")


def _digest(text: str) -> str:
    """A CSP hash source for an element's text."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def mark(kind: str) -> bytes:
    """What the head of a page of ``kind`` (``replay`` or ``simulate``) holds, by
    which the command that wrote it knows it again: the page it may replace.

    >>> mark("replay")
    b'<meta name="generator" content="aces replay">'
    """
    return f'<meta name="generator" content="aces {kind}">'.encode()


def _page(kind: str, fields: dict[str, str], data: dict[str, t.Any], *,
          srcdoc: bool = False) -> str:
    """One page: the shared frame (head, security policy, base style) around
    the body of ``kind`` (``replay`` or ``simulate``), its style, script and
    data; with ``srcdoc``, the base a page inside ``<iframe srcdoc>`` needs."""
    body = string.Template(_asset(f"{kind}.html")).substitute(fields)
    frame = _asset("page.html")
    if srcdoc:
        frame = frame.replace("<head>\n", f"<head>\n{SRCDOC_BASE}\n", 1)
        assert SRCDOC_BASE in frame, "the page template has no <head> line"
    css, js = _style(kind), _asset(f"{kind}.js")
    # The template sets each on a line of its own: the element's text starts
    # with that line break, and so does what its hash is of.
    assert "<style>\n$css</style>" in frame
    assert "<script>\n$js</script>" in frame
    return string.Template(frame).substitute(
        lang=fields["lang"], title=fields["title"], body=body, generator=mark(kind).decode(),
        policy=page_policy(kind, srcdoc=srcdoc), css=css, js=js, data=script_json(data))


def _style(kind: str) -> str:
    return _asset("page.css") + _asset(f"{kind}.css")


def page_policy(kind: str, *, srcdoc: bool = False) -> str:
    """The policy every page of ``kind`` (``replay`` or ``simulate``) holds in its
    head (see :func:`security_policy`): the same whatever the page shows, so a
    server sends it as it is rather than reading it from the page, where
    planted markup would be read too."""
    return security_policy("\n" + _style(kind), "\n" + _asset(f"{kind}.js"), srcdoc=srcdoc)


def chart(positions: Sequence[dict[str, t.Any]], players: int, lang: str,
          labels: dict[str, str], index: int = 0, fragment: str = "") -> str:
    """The chances over a game as SVG: a line a player, a link a roll.

    ``index`` tells the charts of a page's games apart; ``fragment`` starts
    every roll's link (``game=2&`` on a page of several games).
    """
    last = max(len(positions) - 1, 1)

    def x(k: int) -> str:
        return f"{k * WIDTH / last:.1f}"

    def y(p: float) -> str:
        return f"{(1 - p) * HEIGHT:.1f}"

    parts = [f'<svg class="chart" id="chart-{index}" viewBox="-4 -4 {WIDTH + 8} {HEIGHT + 8}"'
             f' role="group" aria-labelledby="chart-title-{index}"'
             f' aria-describedby="chart-hint-{index}" preserveAspectRatio="none">',
             f'<title id="chart-title-{index}" data-label="chart">'
             f'{markup(labels["chart"])}</title>']
    for level in (0.0, 0.25, 0.5, 0.75, 1.0):
        parts.append(f'<line x1="0" x2="{WIDTH}" y1="{y(level)}" y2="{y(level)}"'
                     f' stroke="#bbb" stroke-width="1" vector-effect="non-scaling-stroke"/>')
    for seat in range(players if positions[0]["chances"] is not None else 0):
        # Where estimated chances stop (past their budget), the lines stop.
        points = " ".join(f"{x(k)},{y(position['chances'][seat]['chance'])}"
                          for k, position in enumerate(positions)
                          if position["chances"] is not None)
        dash = DASHES[seat % len(DASHES)]
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(f'<polyline class="player-{seat}" points="{points}" fill="none"'
                     f' stroke="{PALETTE[seat % len(PALETTE)]}" stroke-width="3"{dashed}'
                     f' vector-effect="non-scaling-stroke"/>')
    parts.append(f'<line class="marker" x1="0" x2="0" y1="0" y2="{HEIGHT}" stroke="#111"'
                 ' stroke-width="2" vector-effect="non-scaling-stroke"/>')
    step = WIDTH / last
    link = markup(fragment)
    for k, position in enumerate(positions):
        left = max(0.0, k * step - step / 2)
        right = min(float(WIDTH), k * step + step / 2)
        parts.append(f'<a href="#{link}roll={k}"'
                     f' aria-label="{markup(roll_name(position, labels, lang))}">'
                     f'<rect class="col" x="{left:.1f}" y="0" width="{right - left:.1f}"'
                     f' height="{HEIGHT}"/></a>')
    parts.append("</svg>")
    return "\n".join(parts)


def roll_name(position: dict[str, t.Any], labels: dict[str, str], lang: str) -> str:
    """What a screen reader says of a moment on the chart: "Roll 9 of 40: Kari
    rolls 1 and 6" (the page's script names them so again in another language)."""
    if "said" not in position:
        return str(position["label"][lang])
    return labels["chart_roll"].format(moment=position["label"][lang],
                                       roll=position["said"][lang])


def _game(data: dict[str, t.Any], index: int, words: dict[str, str], several: bool) -> str:
    """One game's part of the page: its chart and every roll as a list, which
    is the whole narrated game without a script. On a page of several games
    each has a heading, and an ``id`` the page's list of games links to."""
    lang = data["lang"]
    game = data["games"][index]
    positions = [game["start"], *game["rolls"]]
    fragment = f"game={game['number']}&" if several else ""
    level = "h3" if several else "h2"
    items = []
    for k, position in enumerate(positions):
        text = "".join(f"<p>{markup(line)}</p>" for line in position["text"][lang])
        items.append(f'<li id="roll-{index}-{k}"><a href="#{markup(fragment)}roll={k}">'
                     f'{markup(position["label"][lang])}</a>'
                     f'<div class="text">{text}</div></li>')
    heading = ""
    if several:
        heading = f'<h2 class="game-title">{markup(_title(game, lang))}</h2>\n'
    return (f'<section class="game" id="game-{game["number"]}" data-index="{index}">\n'
            f'{heading}'
            f'<div class="chart-box">\n<{level} data-label="chart">'
            f'{markup(words["chart"])}</{level}>\n'
            f'{chart(positions, len(game["players"]), lang, words, index, fragment)}\n'
            f'<p class="note" id="chart-hint-{index}" data-label="chart_hint">'
            f'{markup(words["chart_hint"])}</p>\n'
            f'</div>\n<div class="list-box">\n<{level} data-label="rolls">'
            f'{markup(words["rolls"])}</{level}>\n'
            f'<ol class="rolls" start="0">\n' + "\n".join(items) + "\n</ol>\n</div>\n"
            "</section>")


def _title(game: dict[str, t.Any], lang: str) -> str:
    """A game's heading: the first line of its narration, which names it."""
    lines = game["start"]["text"][lang]
    return str(lines[0]) if lines else str(game["name"][lang])


def render(data: dict[str, t.Any], *, srcdoc: bool = False) -> str:
    """The whole page for the data of :func:`aces.page.replay.collect`; with
    ``srcdoc``, made to be shown inside an ``<iframe srcdoc>`` (a notebook).

    A page of several games lists them (links to each, without a script;
    a picker, with one) and shows each game's chart and rolls in turn.
    """
    lang = data["lang"]
    words = data["labels"][lang]
    games = data["games"]
    several = len(games) > 1
    contents = ""
    if several:
        entries = "".join(f'<li><a href="#game-{game["number"]}">'
                          f'{markup(game["name"][lang])}</a></li>' for game in games)
        contents = (f'<nav id="games-box" aria-labelledby="games-head">\n'
                    f'<h2 id="games-head" data-label="games">{markup(words["games"])}</h2>\n'
                    f'<ol>{entries}</ol>\n</nav>')
    heading = _title(games[0], lang)
    fields = {name: markup(value) for name, value in words.items()}
    fields.update(
        lang=markup(lang),
        title=markup(heading),
        heading=markup(heading),
        contents=contents,
        games="\n".join(_game(data, index, words, several) for index in range(len(games))),
    )
    return _page("replay", fields, data, srcdoc=srcdoc)


def write_atomically(path: str, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all, over whatever is there but
    a log (:class:`aces.files.Output`): the pages of a documentation build."""

    Output(path, force=True).write(text)


def render_simulation(data: dict[str, t.Any]) -> str:
    """The whole simulation page for the data of :func:`aces.page.simulation.collect`;
    without a script it shows the exact values of the game asked for."""

    lang = data["lang"]
    words = data["labels"][lang]
    table = next(entry for entry in data["tables"] if entry["players"] == data["players"]
                 and entry["finish"] == data["finish"])
    seats = data["seats"][lang][:table["players"]]
    locale = babel_locale(lang)
    fields = {name.replace("-", "_"): markup(value) for name, value in words.items()}
    fields.update(
        lang=markup(lang),
        caption=markup(words["share"]),
        seat_heads="".join(f'<th scope="col">{markup(seat)}</th>' for seat in seats),
        exact_cells="".join(
            f"<td>{markup(percent_in(p, locale))}</td>" for p in table["exact"]["by_seat"])
        + f'<td>{markup(format_decimal(table["exact"]["rolls"], "0.00", locale=locale))}</td>',
    )
    return _page("simulate", fields, data)
