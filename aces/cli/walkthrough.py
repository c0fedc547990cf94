"""``aces walkthrough``: a log as a lesson, every rule explained where it first applies."""

from __future__ import annotations

import itertools
import sys
import typing as t

import click

from aces.cli._common import example_option, lang_option, open_log, reported, translations, writing
from aces.cli.logs import TALLY_EPILOG
from aces.errors import EmptyLogError

if t.TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["walkthrough"]


@click.command(epilog=TALLY_EPILOG)
@click.argument("log", metavar="LOG")
@lang_option
# aces.walkthrough.FORMATS, not imported here so that --help starts at once.
@click.option("--format", "fmt", type=click.Choice(["markdown", "rst", "text"]),
              default="markdown", show_default=True,
              help="Markdown, reStructuredText (for Sphinx) or plain text.")
@example_option()
def walkthrough(log: str, lang: str | None, fmt: str, example: bool) -> None:
    """Turn a log into a narrated walkthrough of the rules, for documentation.

    Every event is told as by aces replay; the first time a rule comes into
    play, a short aside explains it, and the standings are shown as a small
    table whenever they change. LOG may be '-' for standard input.

    At a table of more than twelve players, a standings table shows only the
    players whose chips (or dice) changed since the table before; the whole
    table is shown when the finish begins.
    """
    from aces import walkthrough as guide
    from aces.log import read

    with reported(lang):
        chosen, catalog = translations(lang)
        with open_log(log, example) as (handle, source):
            parts = guide.stream(read(handle, source), source, catalog, chosen)
            if not _write(guide.render_stream(parts, t.cast("guide.Format", fmt)), sys.stdout):
                # Translators: an error. {source}: the log's file name, or <stdin>.
                raise EmptyLogError("{source} is empty: it holds no events", source=source)


def _write(texts: Iterable[str], out: t.TextIO) -> bool:
    """Write the walkthrough as it is told, a batch of pieces at a time;
    ``False`` if there was nothing.

    Whatever was told before a bad line of the log is written out before
    the error goes on its way to standard error. A write that fails is one
    line naming standard output; a closed pipe ends quietly (aces.cli.main).
    """
    written = False
    pieces = iter(texts)
    batch: list[str] = []
    try:
        # A batch is gathered at C speed; should the log turn out bad part-way,
        # what was gathered before it stays in the batch, written below.
        while True:
            batch.extend(itertools.islice(pieces, _BATCH))
            if not batch:
                break
            written = True
            with writing(None):
                out.write("".join(batch))
            batch.clear()
    finally:
        with writing(None):
            out.write("".join(batch))
            out.flush()
    return written


#: Pieces of text gathered before each write: enough that writing costs little.
_BATCH: t.Final = 4096
