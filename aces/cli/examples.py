"""``aces examples``: the example logs and dice files that come with aces."""

from __future__ import annotations

import typing as t

import click

from aces.cli._common import lang_option, reported, translations, writing
from aces.errors import Plural

if t.TYPE_CHECKING:
    from pathlib import Path

    from aces.voice import Voice

__all__ = ["examples"]

# Translators: a line of "aces examples": what an example log holds.
# {game}: the game's name; {count}: its games; {players}: the players of
# its first game, as a list.
_HOLDS: t.Final = Plural("{game}, {count} game: {players}", "{game}, {count} games: {players}",
                         by="count")


@click.command()
@click.argument("chosen", nargs=-1, metavar="[NAME]...")
@lang_option
def examples(chosen: tuple[str, ...], lang: str | None) -> None:
    """List the example logs and dice files that come with aces.

    Each log is a recorded game (or several) to try the commands on: aces
    replay, verify, walkthrough and stats read one by its name with
    --example, as in aces replay --example three-players. Each dice file
    is the rolls of a game typed in, for aces play --dice-file.

    With NAME, print where each example named is instead, one a line, for
    a script: aces play --players Ada,Bo,Cy --dice-file "$(aces examples
    e1.dice)".
    """
    from aces.examples import DICE, example, folder, names

    with reported(lang):
        language, catalog = translations(lang)
        if chosen:
            paths = [str(example(name)) for name in chosen]
            with writing(None):
                click.echo("\n".join(paths))
            return
        from aces.voice import Voice

        voice = Voice(catalog, language)
        found = names()
        width = max(len(name) for name in found)
        # Translators: the first line of "aces examples". {folder}: where they are.
        lines = [voice.gettext("The examples that come with aces, in {folder}:").format(
            folder=folder())]
        for name in found:
            path = example(name)
            # Translators: a line of "aces examples": a dice file, for "aces play --dice-file".
            what = (voice.gettext("the rolls of a game typed in, for aces play --dice-file")
                    if name.endswith(DICE) else _holds(path, voice))
            lines.append(f"  {name:<{width}}  {what}")
        # Translators: the last line of "aces examples"; keep the commands as they are.
        lines.append(voice.gettext("Read one by its name with --example (aces replay, verify,"
                                   " walkthrough and stats): aces replay --example"
                                   " three-players"))
        with writing(None):
            click.echo("\n".join(lines))


def _holds(path: Path, voice: Voice) -> str:
    """What an example log holds: its game, how many, and who plays the first."""
    from aces.events import GameStarted
    from aces.games import registration
    from aces.log import read

    first: GameStarted | None = None
    games = 0
    with path.open("rb") as stream:
        for record in read(stream, path.name):
            if isinstance(record.event, GameStarted):
                first = first or record.event
                games += 1
    assert first is not None, "every example holds a game"
    return voice.ngettext(_HOLDS.singular, _HOLDS.plural, games).format(
        game=voice.gettext(registration(first.game).title), count=voice.count(games),
        players=voice.names(first.players))
