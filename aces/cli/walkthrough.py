"""``aces walkthrough``: a log as a lesson, every rule explained where it first applies."""

from __future__ import annotations

import typing as t

import click

from aces.cli._common import lang_option, open_log, reported, translations
from aces.errors import EmptyLogError


@click.command()
@click.argument("log", metavar="LOG")
@lang_option
# aces.walkthrough.FORMATS, not imported here so that --help starts at once.
@click.option("--format", "fmt", type=click.Choice(["markdown", "rst", "text"]),
              default="markdown", show_default=True,
              help="Markdown, reStructuredText (for Sphinx) or plain text.")
def walkthrough(log: str, lang: str | None, fmt: str) -> None:
    """Turn a log into a narrated walkthrough of the rules, for documentation.

    Every event is told as by aces replay; the first time a rule comes into
    play, a short aside explains it, and the standings are shown as a small
    table whenever they change. LOG may be '-' for standard input.
    """
    from aces import walkthrough as guide
    from aces.log import read

    with reported(lang):
        chosen, catalog = translations(lang)
        with open_log(log) as (stream, source):
            parts = guide.walkthrough(read(stream, source), source, catalog, chosen)
        if not parts:
            # Translators: an error. {source}: the log's file name, or <stdin>.
            raise EmptyLogError("{source} is empty: it holds no events", source=source)
        click.echo(guide.render(parts, t.cast("guide.Format", fmt)), nl=False)
