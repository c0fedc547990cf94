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

import msgspec

from aces.dice import DiceFile, RandomDice
from aces.errors import OptionError, RollError, Term
from aces.events import SCHEMA, GameStarted, OpeningTied, Rolled
from aces.log import ENVELOPE_WIDTH, LINE_LIMIT
from aces.rules import Roll, check_receivers

if t.TYPE_CHECKING:
    from collections.abc import Iterator, Mapping, Sequence

    from aces.dice import DiceSource
    from aces.events import Event
    from aces.rules import Decider, OptionValue

__all__ = ["DEFAULT_NAMES", "header", "play", "players_from", "seeded_and_typed", "too_wide",
           "widest_line"]


def header(
    game: Decider[t.Any],
    players: Sequence[str],
    options: Mapping[str, OptionValue],
    seed: int | None = None,
) -> GameStarted:
    """The checked ``game_started`` event for a new game.

    Besides the players and the options, the game must fit its log: no
    line of it may be longer than a reader accepts (see :func:`widest_line`).

    :raises ~aces.errors.OptionError: for players or options the game
        refuses, or a game whose log could hold a line too long to read.
    """
    game.check_players(players)
    start = GameStarted(
        schema=SCHEMA,
        game=game.name,
        players=tuple(players),
        options=game.options(options),
        seed=seed,
    )
    if widest_line(game, start) > LINE_LIMIT:
        raise too_wide()
    if game.widest_roll(start)[1]:
        # Dice are given by choice: every player must be nameable after '>'.
        check_receivers(start.players)
    return start


def widest_line(game: Decider[t.Any], start: GameStarted) -> int:
    """The bytes of the longest line a game with this header can write.

    The longest line is the header itself, a tied opening of every player,
    or the widest roll: every die the game allows in one hand, thrown by
    the player with the longest name, and every receiver that longest name.

    >>> from aces.games import game_named
    >>> pot = game_named("pot")
    >>> widest_line(pot, header(pot, ["Ada", "Bo"], {}))
    175
    """
    encode = msgspec.json.encode
    longest = max(start.players, key=lambda name: len(encode(name)))
    dice, named = game.widest_roll(start)
    roll = len(encode(Rolled(player=longest, dice=(6,), stage="opening",
                             to=(longest,) if named else ())))
    roll += 2 * (dice - 1) + max(named - 1, 0) * (len(encode(longest)) + 1)
    tie = len(encode(OpeningTied(players=start.players, value=6 * dice)))
    return ENVELOPE_WIDTH + max(len(encode(start)), tie, roll)


def too_wide() -> OptionError:
    """The error for a game whose log could hold a line too long to read back."""
    # Translators: an error of "aces play" and "aces record". {limit}: the most
    # bytes one line of a log may have.
    return OptionError("a line of this game's log could be longer than the {limit} bytes a"
                       " log line may hold; choose fewer players, shorter names or fewer dice",
                       limit=LINE_LIMIT)


def play(game: Decider[t.Any], start: GameStarted, dice: DiceSource) -> Iterator[Event]:
    """Play one whole game, yielding its events from the header on.

    :raises ~aces.errors.DiceFileError: for dice of a dice file that cannot be
        played as written, or that run out before the game is over.
    :raises ~aces.errors.RollError: for a roll the rules refuse: from a dice
        file, placed at its line; a generated one would be a bug of a
        ``choose`` policy.
    """
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


#: Names for ``--players N``: short, distinct, and the same in every language.
DEFAULT_NAMES: t.Final = ("Ada", "Bo", "Cy", "Dag", "Eli", "Fia", "Gro", "Hal", "Ida", "Jon")


def seeded_and_typed() -> OptionError:
    """The error of a seed given with typed dice: the dice would not follow it."""
    # Translators: {seed}: --seed on the command line, seed= in Python; {dice}:
    # --dice-file, or dice= in Python.
    return OptionError("{seed} and {dice} cannot be used together", seed=Term("--seed"),
                       dice=Term("--dice-file", "dice="))


def players_from(value: str) -> list[str]:
    """``Ada,Bo,Cy`` as given, or ``4`` as the first four default names.

    >>> players_from("3")
    ['Ada', 'Bo', 'Cy']
    >>> players_from("Kari, Ola")
    ['Kari', 'Ola']

    A number of players too big for one line of a log is refused before a
    single name is made: every name takes at least four bytes of it.

    :raises ~aces.errors.OptionError: for so many players.
    """
    value = value.strip()
    if value.isdecimal():
        most = LINE_LIMIT // 4
        count = int(value) if len(value) <= len(str(most)) else most + 1
        if count > most:
            raise too_wide()
        extra = (f"P{n}" for n in range(len(DEFAULT_NAMES) + 1, count + 1))
        return [*DEFAULT_NAMES, *extra][:count]
    return [name.strip() for name in value.split(",")]
