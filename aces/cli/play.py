"""``aces play``: whole games from the generator or a dice file, as a log."""

from __future__ import annotations

import typing as t

import click

from aces.cli._common import lang_option, open_output, reported, source_name
from aces.errors import OptionError

if t.TYPE_CHECKING:
    from aces.rules import OptionValue

#: Names for ``--players N``: short, distinct, and the same in every language.
DEFAULT_NAMES: t.Final = ("Ada", "Bo", "Cy", "Dag", "Eli", "Fia", "Gro", "Hal", "Ida", "Jon")


def players_from(value: str) -> list[str]:
    """``Ada,Bo,Cy`` as given, or ``4`` as the first four default names.

    >>> players_from("3")
    ['Ada', 'Bo', 'Cy']
    >>> players_from("Kari, Ola")
    ['Kari', 'Ola']
    """
    value = value.strip()
    if value.isdigit():
        count = int(value)
        extra = (f"P{n}" for n in range(len(DEFAULT_NAMES) + 1, count + 1))
        return [*DEFAULT_NAMES, *extra][:count]
    return [name.strip() for name in value.split(",")]


@click.command()
@click.option("--players", required=True, metavar="NAMES|N",
              help="Players in seat order, comma-separated (Ada,Bo,Cy), or a number.")
@click.option("--game", "game_name", default="pot", show_default=True,
              help="Which game: pot (Aces in the Pot).")
@click.option("--finish", type=click.Choice(["last-chip", "last-holder"]), default=None,
              help="When the finish starts: one chip left (default) or one holder left.")
@click.option("--chips", type=click.IntRange(min=1), default=None,
              help="Chips each player starts with (default 2).")
@click.option("--seed", type=int, default=None,
              help="Seed for the dice; the same seed plays the same games.")
@click.option("--games", type=click.IntRange(min=1), default=1, show_default=True,
              help="Games to play one after another in one log.")
@click.option("--dice-file", type=click.File("r", encoding="utf-8"), default=None,
              help="Dice of a real game, one roll per line ('-' for standard input).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write the log to this new file (default: standard output).")
@lang_option
def play(
    players: str,
    game_name: str,
    finish: str | None,
    chips: int | None,
    seed: int | None,
    games: int,
    dice_file: t.TextIO | None,
    output: str | None,
    lang: str | None,
) -> None:
    """Play whole games and write their event log (JSON Lines).

    The dice come from a generator (reproducible with --seed) or from
    --dice-file, the rolls of a real game typed in, one per line.
    """
    from aces import engine
    from aces.dice import DiceFile, DiceSource, RandomDice
    from aces.log import LogWriter
    from aces.rules import game_named

    with reported(lang):
        game = game_named(game_name)
        options: dict[str, OptionValue] = {}
        if finish is not None:
            options["finish"] = finish
        if chips is not None:
            options["chips"] = chips
        seats = players_from(players)
        if dice_file is not None and seed is not None:
            raise OptionError("--seed and --dice-file cannot be used together")
        # Check everything before the first line is written.
        engine.header(game, seats, options)
        typed = DiceFile(dice_file, source_name(dice_file)) if dice_file is not None else None
        if typed is None and seed is None:
            import secrets

            seed = secrets.randbelow(2**32)
        with open_output(output) as stream:
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
