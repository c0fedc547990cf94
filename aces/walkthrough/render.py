"""A walkthrough written out: as Markdown, reStructuredText or plain text,
every piece of text from a log escaped for the markup it goes into.
"""

from __future__ import annotations

import re
import string
import textwrap
import typing as t

from aces.memo import Memo, weigh
from aces.walkthrough.parts import MEMO_BUDGET, Aside, Part, Told

if t.TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator


__all__ = ["FORMATS", "Format", "escape_markdown", "escape_rst", "render", "render_stream"]


#: The output formats of ``aces walkthrough``.
FORMATS: t.Final = ("markdown", "rst", "text")
Format = t.Literal["markdown", "rst", "text"]


def render(parts: Iterable[Part], fmt: Format) -> str:
    """The walkthrough as Markdown, reStructuredText or plain text."""
    return "".join(render_stream(parts, fmt))


def render_stream(parts: Iterable[Part], fmt: Format) -> Iterator[str]:
    """The text of each part in turn, ready to write out as it comes.

    A :class:`Told` part that follows another and opens no game continues
    its block, so a walkthrough streamed piece by piece reads the same as
    one rendered whole.
    """
    renderer = _RENDERERS[fmt]
    # A long log tells the same few parts over and over (a roll that moves
    # nothing, the same standings): each is rendered, and escaped, once. A
    # game's heading (its number) and an aside (each rule is explained once,
    # the turning points are a game's own) never come again: they are
    # rendered as they come, and kept out of the memo, which they would
    # only fill.
    rendered: Memo[Part, str] = Memo(MEMO_BUDGET)
    started = told = False
    for part in parts:
        is_told = type(part) is Told
        opens = is_told and part.opens_game  # type: ignore[union-attr]
        if opens or type(part) is Aside:
            text = "\n".join(renderer(part, opens and started))
        else:
            text = rendered.get(part)  # type: ignore[assignment]
            if text is None:
                text = "\n".join(renderer(part, False))
                rendered.keep(part, text, weigh(part) + weigh(text))
        if started:
            # A told part that follows another and opens no game continues its block.
            yield ("\n" if is_told and told and not opens else "\n\n") + text
        else:
            yield text
        started, told = True, is_told
    if started:
        yield "\n"


#: Every ASCII punctuation character. reStructuredText takes any of them
#: after a backslash as itself, so with all of them escaped no name
#: (``.. include:: /etc/passwd``, ``|subst|``, ``:role:`x```, ``1.``,
#: ``- x``) can become a directive, a role, a substitution or a list.
_RST_SPECIAL: t.Final = re.compile("([" + re.escape(string.punctuation) + "])")
#: What starts CommonMark's inline markup anywhere in a line: emphasis,
#: code, links and images (whose brackets these are), raw HTML and
#: autolinks, entities, strike-through and table cells.
_MARKDOWN_INLINE: t.Final = re.compile(r"([\\`*_\[\]<>&|~])")
#: What opens a block at the start of a line: a heading, a list item (also
#: numbered), a quote, a thematic break or a setext underline.
_MARKDOWN_BLOCK: t.Final = re.compile(r"^(\s*\d*)([#+\-=>]|(?<=\d)[.)])", re.MULTILINE)
#: What GitHub's Markdown turns into a link without any markup (its
#: "autolinks" extension, and linkify's in other readers): ``https://``,
#: ``www.``, a domain's dots before a letter (``evil.example``: a domain
#: ends in letters, so every one has such a dot) and an e-mail's ``@``. A
#: number's point (``59.1%``) is no domain, and stays as it reads.
_MARKDOWN_LINK: t.Final = re.compile(
    r"(:)(?=//)|(?<=\w)(\.)(?=[^\W\d_])|(?<=www)(\.)|(@)", re.IGNORECASE)
#: Whatever the three above would escape.
_MARKDOWN_ANY: t.Final = re.compile(
    f"{_MARKDOWN_INLINE.pattern}|{_MARKDOWN_BLOCK.pattern}|{_MARKDOWN_LINK.pattern}",
    re.MULTILINE | re.IGNORECASE)


def escape_rst(text: str) -> str:
    r"""Text for reStructuredText: every ASCII punctuation mark escaped.

    >>> print(escape_rst(".. include:: /etc/passwd"))
    \.\. include\:\: \/etc\/passwd
    """
    return _RST_SPECIAL.sub(r"\\\1", text)


def escape_markdown(text: str) -> str:
    r"""Text for CommonMark, word for word: the one escaping of the Markdown
    walkthrough.

    Only what would start markup is escaped: the characters of inline markup
    anywhere, what opens a block at the start of a line, and what GitHub
    would make a link of by itself (an address, ``www.``, a domain, an
    e-mail). Full stops between words, brackets and exclamation marks are
    left alone, so the source reads as well as the page.

    >>> print(escape_markdown("<script>x</script> [a](b) 1-6."), escape_markdown("1. x"))
    \<script\>x\</script\> \[a\](b) 1-6. 1\. x
    >>> print(escape_markdown("Bo klarte det! (kast 1 av 3)"), escape_markdown("# Bo & *Cy_*"))
    Bo klarte det! (kast 1 av 3) \# Bo \& \*Cy\_\*
    >>> print(escape_markdown("https://evil.example/p www.evil.example bo@evil.no"))
    https\://evil\.example/p www\.evil\.example bo\@evil\.no
    >>> print(escape_markdown("from 59.1% to 21.0%, www.123.no"))
    from 59.1% to 21.0%, www\.123\.no
    """
    if _MARKDOWN_ANY.search(text) is None:
        # Most lines hold nothing to escape: one search, not three substitutions.
        return text
    text = _MARKDOWN_LINK.sub(lambda found: "\\" + found.group(0),
                              _MARKDOWN_INLINE.sub(r"\\\1", text))
    return _MARKDOWN_BLOCK.sub(r"\1\\\2", text)


def _markdown(part: Part, new_game: bool) -> list[str]:
    """A game opens with a heading (its first line); narration is a paragraph,
    a rule a quoted note, the standings a table."""
    escape = escape_markdown
    if isinstance(part, Told):
        lines = [escape(line) for line in part.lines]
        if part.opens_game and lines:
            heading, lines = f"## {lines[0]}", lines[1:]
            return [heading, "", *lines] if lines else [heading]
        return lines
    if isinstance(part, Aside):
        return [f"> **{escape(part.label)}:** {escape(part.text)}"]
    return ["| " + " | ".join(escape(cell) for cell in part.header) + " |",
            "|" + "---:|" * len(part.header),
            "| " + " | ".join(escape(cell) for cell in part.row) + " |"]


def _rst(part: Part, new_game: bool) -> list[str]:
    escape = escape_rst
    if isinstance(part, Told):
        lines = ["----", ""] if new_game else []
        return lines + [f"| {escape(line)}" for line in part.lines]
    if isinstance(part, Aside):
        return [f".. admonition:: {escape(part.label)}", "",
                *textwrap.wrap(escape(part.text), 76, initial_indent="   ",
                               subsequent_indent="   ", break_on_hyphens=False)]
    out = [".. list-table::", "   :header-rows: 1", ""]
    for row in (part.header, part.row):
        out.append(f"   * - {escape(row[0])}")
        out.extend(f"     - {escape(cell)}" for cell in row[1:])
    return out


def _text(part: Part, new_game: bool) -> list[str]:
    if isinstance(part, Told):
        return ([""] if new_game else []) + list(part.lines)
    if isinstance(part, Aside):
        return textwrap.wrap(f"{part.label}: {part.text}", 76, initial_indent="    ",
                             subsequent_indent="    ")
    widths = [max(len(a), len(b)) for a, b in zip(part.header, part.row, strict=True)]
    return ["    " + "  ".join(cell.rjust(width) for cell, width in zip(row, widths, strict=True))
            for row in (part.header, part.row)]


_RENDERERS: t.Final[dict[str, Callable[[Part, bool], list[str]]]] = {
    "markdown": _markdown, "rst": _rst, "text": _text}
