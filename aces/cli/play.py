"""``aces play``: whole games from the generator or a dice file, as a log."""

from __future__ import annotations

import contextlib
import os
import typing as t

import click

from aces.cli._common import (
    lang_option,
    open_log,
    open_output,
    reported,
    writing,
)
from aces.cli._games import GAME_HELP, GameChoice, GameCommand, header_options
from aces.games import game_named
from aces.i18n import negotiate

if t.TYPE_CHECKING:
    from aces.cli._games import Given

__all__ = ["play"]


@click.command(cls=GameCommand)
@click.option("--players", required=True, metavar="NAMES|N",
              help="Players in seat order, comma-separated (Ada,Bo,Cy), or a number.")
@click.option("--game", "game_name", type=GameChoice(), default="pot", show_default=True,
              help=GAME_HELP)
@click.option("--seed", type=int, default=None,
              help="Seed for the dice; the same seed plays the same games.")
@click.option("--games", type=click.IntRange(min=1), default=1, show_default=True,
              help="Games to play one after another in one log.")
# Paths click does not check (readable=False): open_log and open_output open
# them and say what is wrong with a file in the user's language, as verify
# does; click's own checks speak English.
@click.option("--dice-file", type=click.Path(readable=False), default=None,
              help="Dice of a real game, one roll per line ('-' for standard input), with"
                   " as many values as the roller holds dice. five-dice --threes: name whom"
                   " each 3 goes to after '>', in the order of the 3s: '3 6 3 > Bo Cy'.")
@click.option("-o", "--output", type=click.Path(readable=False), default=None,
              help="Write the log to this new file (default: standard output).")
@lang_option
def play(
    players: str,
    game_name: str,
    seed: int | None,
    games: int,
    dice_file: str | None,
    output: str | None,
    lang: str | None,
    game_options: Given,
) -> None:
    """Play whole games and write their event log (JSON Lines).

    The dice come from a generator (reproducible with --seed) or from
    --dice-file, the rolls of a real game typed in, one per line.
    """
    from aces import engine
    from aces.log import LogWriter

    with reported(lang):
        # The log has no language, but an unknown --lang is still a mistake.
        negotiate(lang, os.environ)
        game = game_named(game_name)
        options = header_options(game, game_options)
        seats = engine.players_from(players)
        # Check everything before a file is opened or a line is written: a log that aces
        # reads back, each game's seed too.
        engine.check_session(game, seats, options, seed=seed, typed=dice_file is not None,
                             games=games)
        with contextlib.ExitStack() as files:
            rolls, source = (None, "<dice>") if dice_file is None else files.enter_context(
                open_log(dice_file))
            steps = engine.session_rolls(game, seats, options, seed=seed, dice=rolls,
                                         source=source, games=games)
            with writing(output), open_output(output) as stream:
                writer = LogWriter(stream)
                # A roll and all it settles in one write: a log stopped between two
                # (at the most events a log holds) is one that aces reads.
                for settled in steps:
                    stream.write(writer.encode(settled))
