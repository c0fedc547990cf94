"""``aces play``: whole games from the generator or a dice file, as a log."""

from __future__ import annotations

import typing as t

import click

from aces.cli._common import (
    game_setup_options,
    lang_option,
    open_log,
    open_output,
    reported,
    writing,
)
from aces.errors import OptionError

if t.TYPE_CHECKING:
    from collections.abc import Iterable

    from aces.rules import Game, OptionValue

__all__ = ["DEFAULT_NAMES", "game_options", "play", "players_from"]

#: Names for ``--players N``: short, distinct, and the same in every language.
DEFAULT_NAMES: t.Final = ("Ada", "Bo", "Cy", "Dag", "Eli", "Fia", "Gro", "Hal", "Ida", "Jon")


def players_from(value: str) -> list[str]:
    """``Ada,Bo,Cy`` as given, or ``4`` as the first four default names.

    >>> players_from("3")
    ['Ada', 'Bo', 'Cy']
    >>> players_from("Kari, Ola")
    ['Kari', 'Ola']

    A number of players too big for one line of a log is refused before a
    single name is made: every name takes at least four bytes of it.
    """
    value = value.strip()
    if value.isdecimal():
        from aces.log import LINE_LIMIT

        most = LINE_LIMIT // 4
        count = int(value) if len(value) <= len(str(most)) else most + 1
        if count > most:
            from aces.engine import too_wide

            raise too_wide()
        extra = (f"P{n}" for n in range(len(DEFAULT_NAMES) + 1, count + 1))
        return [*DEFAULT_NAMES, *extra][:count]
    return [name.strip() for name in value.split(",")]


def game_options(
    game: Game[t.Any], given: Iterable[tuple[str, str, OptionValue | None]]
) -> dict[str, OptionValue]:
    """The header options from ``(flag, option, value)``; ``None`` means not given.

    An option the game does not have (``--chips`` for five-dice) is refused
    by name, rather than silently ignored.
    """
    accepted = game.options({})
    options: dict[str, OptionValue] = {}
    for flag, name, value in given:
        if value is None:
            continue
        if name not in accepted:
            raise OptionError("{option} is not an option of the game {game}",
                              option=flag, game=game.name)
        options[name] = value
    return options


@click.command()
@click.option("--players", required=True, metavar="NAMES|N",
              help="Players in seat order, comma-separated (Ada,Bo,Cy), or a number.")
@click.option("--game", "game_name", default="pot", show_default=True,
              help="Which game: pot (Aces in the Pot) or five-dice (Aces).")
@game_setup_options
@click.option("--threes-to", type=click.Choice(["random", "fewest", "most"]), default=None,
              help="five-dice --threes with generated dice: each 3 goes to a random other"
                   " player (default), or the one holding the fewest or the most dice; a tie"
                   " goes to the first from the roller's left.")
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
    finish: str | None,
    chips: int | None,
    dice_each: int | None,
    threes: bool,
    threes_to: str | None,
    seed: int | None,
    games: int,
    dice_file: str | None,
    output: str | None,
    lang: str | None,
) -> None:
    """Play whole games and write their event log (JSON Lines).

    The dice come from a generator (reproducible with --seed) or from
    --dice-file, the rolls of a real game typed in, one per line.
    """
    import contextlib
    import os

    from aces import engine
    from aces.dice import DiceFile, DiceSource, RandomDice
    from aces.i18n import negotiate
    from aces.log import LogWriter
    from aces.rules import game_named

    with reported(lang):
        # The log has no language, but an unknown --lang is still a mistake.
        negotiate(lang, os.environ)
        game = game_named(game_name)
        options = game_options(game, [
            ("--finish", "finish", finish),
            ("--chips", "chips", chips),
            ("--dice-each", "dice", dice_each),
            ("--threes", "threes", threes or None),
            ("--threes-to", "threes_to", threes_to),
        ])
        seats = players_from(players)
        if dice_file is not None and seed is not None:
            raise OptionError("--seed and --dice-file cannot be used together")
        if threes_to is not None and not threes:
            raise OptionError("--threes-to says whom the 3s go to, so it needs --threes")
        if threes_to is not None and dice_file is not None:
            raise OptionError("--threes-to is for generated dice; a dice file names whom"
                              " each 3 goes to after '>'")
        # Check everything before the first line is written.
        engine.header(game, seats, options)
        files = contextlib.ExitStack()
        typed = None
        if dice_file is not None:
            rolls, source_file = files.enter_context(open_log(dice_file))
            typed = DiceFile(rolls, source_file, seats)
        if typed is None and seed is None:
            import secrets

            seed = secrets.randbelow(2**32)
        with files, writing(output), open_output(output) as stream:
            writer = LogWriter(stream)
            for number in range(games):
                # Each game records the seed that replays it alone.
                game_seed = None if seed is None else seed + number
                source: DiceSource = (
                    typed if typed is not None else RandomDice(t.cast("int", game_seed))
                )
                start = engine.header(game, seats, options, game_seed)
                writer.write_all(engine.play(game, start, source))
            if typed is not None:
                typed.check_finished()
