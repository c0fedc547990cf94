"""``aces class serve DIR``: the live class, on the teacher's machine.

Only the options are read here; the server is :mod:`aces.server`, imported
when the command runs, so that ``aces --help`` never loads the web stack.
"""

from __future__ import annotations

import typing as t

import click

from aces.cli._common import lang_option, reported, translations
from aces.cli._games import GAME_HELP, GameChoice, GameCommand

if t.TYPE_CHECKING:
    from aces.cli._games import Given

__all__ = ["classroom"]


@click.group("class")
@lang_option
@click.pass_context
def classroom(ctx: click.Context, lang: str | None) -> None:
    """The live class: groups record their games in a browser, and the projector
    pools the class against the exact odds as the dice fall."""
    if lang is not None:
        # ``aces class --lang nb serve DIR``: the command speaks that language.
        ctx.default_map = {name: {"lang": lang} for name in classroom.commands}


@classroom.command("serve", cls=GameCommand, typed=True,
                   short_help="Serve a class in a browser.")
@click.argument("folder", metavar="DIR")
@click.option("--host", default="0.0.0.0", show_default=True,
              help="The address to serve at; the default serves every network of this"
                   " machine, 127.0.0.1 this machine alone.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="The port to serve at (0: any free one).")
@click.option("--game", "game_name", type=GameChoice(), default=None, help=GAME_HELP)
@click.option("--max-groups", type=click.IntRange(1, 1000), default=100, show_default=True,
              help="The most groups that may join the class.")
@click.option("--max-projectors", type=click.IntRange(1, 1000), default=32, show_default=True,
              help="The most projectors (streams of the class) open at once.")
@lang_option
def serve(folder: str, host: str, port: int, game_name: str | None, max_groups: int,
          max_projectors: int, lang: str | None, game_options: Given) -> None:
    """Serve a class whose groups record their games in a browser.

    Prints the address pupils open with the class's code and a QR code,
    and the teacher's private address of the projector. Every table of the
    class plays one set of rules: --game and the game's options, as aces
    play takes them. Each group's games go into its own log in DIR, an
    ordinary log for aces verify, replay and stats. --lang is the
    projector's first language. Ctrl-C stops the server; the same command
    on the same DIR serves the class again, where it stopped.
    """
    with reported(lang):
        chosen, catalog = translations(lang)
        from aces.classroom.service import Settings
        from aces.cli._games import header_options
        from aces.rules import game_named
        from aces.server.serve import serve as serving

        options = None
        if game_name is not None or game_options:
            options = header_options(game_named(game_name or "pot"), game_options, typed=True)
        serving(folder, host, port, game_name, options, chosen,
                Settings(groups=max_groups, streams=max_projectors), catalog, say=click.echo)
