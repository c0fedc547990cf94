"""Playing games: the rules driven by a dice source, producing events.

The engine is the only loop that asks for dice. It is a fold like every
other reader: each event the rules decide is evolved into the state before
the next roll is asked for, and handed on at once, so a log is written as
the game is played and an error stops it after the last good event.

Generated dice make no choices, so a game that has them (the five-dice
``threes``) makes them with its ``choose`` policy and the dice's own
generator: the same seed still plays the same game.
"""

from __future__ import annotations

import typing as t

from aces.dice import DiceFile, RandomDice
from aces.errors import RollError
from aces.events import SCHEMA, GameStarted
from aces.rules import Roll

if t.TYPE_CHECKING:
    from collections.abc import Iterator, Mapping, Sequence

    from aces.dice import DiceSource
    from aces.events import Event
    from aces.rules import Game, OptionValue


def header(
    game: Game[t.Any],
    players: Sequence[str],
    options: Mapping[str, OptionValue],
    seed: int | None = None,
) -> GameStarted:
    """The checked ``game_started`` event for a new game."""
    game.check_players(players)
    return GameStarted(
        schema=SCHEMA,
        game=game.name,
        players=tuple(players),
        options=game.options(options),
        seed=seed,
    )


def play(game: Game[t.Any], start: GameStarted, dice: DiceSource) -> Iterator[Event]:
    """Play one whole game, yielding its events from the header on."""
    state = game.start(start)
    yield start
    while (request := game.next_roll(state)) is not None:
        roll = dice.roll(request)
        if game.choose is not None and isinstance(dice, RandomDice):
            roll = Roll(roll.dice, game.choose(state, roll.dice, dice.rng))
        try:
            events = game.decide(state, roll)
        except RollError as exc:
            # The rules cannot say where a refused roll came from; a dice file can.
            if isinstance(dice, DiceFile):
                raise dice.locate(exc) from None
            raise
        for event in events:
            state = game.evolve(state, event)
            yield event
