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
from aces.errors import OptionError, Plural, RollError
from aces.events import SCHEMA, GameStarted, OpeningTied, Rolled
from aces.log import ENVELOPE_WIDTH, LINE_LIMIT
from aces.rules import Roll, check_receivers

if t.TYPE_CHECKING:
    from collections.abc import Iterator, Mapping, Sequence

    from aces.dice import DiceSource
    from aces.events import Event
    from aces.rules import Game, OptionValue

__all__ = ["EVENTS_PER_PIECE", "SEEDS", "check_length", "expected_events", "header", "play",
           "rolls", "too_wide", "widest_line"]

#: The seeds a header may record: whole numbers of 64 bits, signed or not,
#: which every JSON reader of a log (and Python's ``str``) takes whole.
SEEDS: t.Final = range(-(2**63), 2**64)
#: A generous estimate of a game's events, for each chip (Aces in the Pot)
#: or die (Aces) at the table: played games hold 5 to 10 a chip and 3 to 9 a
#: die on average, and a few more for the opening.
EVENTS_PER_PIECE: t.Final = 12

# Translators: an error of "aces play" (and of aces.play) asked for more games than a
# log holds. {games}: the games asked for; {events}: the events they would hold, about;
# {limit}: the most events a log may hold.
_TOO_LONG: t.Final = Plural(
    "a game of this table could hold some {events} events, more than the {limit} a log"
    " may hold; choose fewer players, chips or dice",
    "{games} games of this table could hold some {events} events, more than the {limit} a"
    " log may hold; play fewer games", by="games")


def header(
    game: Game[t.Any],
    players: Sequence[str],
    options: Mapping[str, OptionValue],
    seed: int | None = None,
) -> GameStarted:
    """The checked ``game_started`` event for a new game.

    Besides the players and the options, the game must fit its log: no
    line of it may be longer than a reader accepts (see :func:`widest_line`).

    :raises ~aces.errors.OptionError: for players or options the game
        refuses, a seed that is not a whole number of 64 bits (:data:`SEEDS`),
        or a game whose log could hold a line too long to read.
    """
    if seed is not None:
        from aces.arguments import whole

        seed = whole(seed, "seed", least=SEEDS.start, most=SEEDS.stop - 1)
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


def widest_line(game: Game[t.Any], start: GameStarted) -> int:
    """The bytes of the longest line a game with this header can write.

    The longest line is the header itself, a tied opening of every player,
    or the widest roll: every die the game allows in one hand, thrown by
    the player with the longest name, and every receiver that longest name.

    >>> from aces.rules import game_named
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


def expected_events(game: Game[t.Any], start: GameStarted, games: int = 1) -> int:
    """About how many events ``games`` games with this header hold, generously
    (see :data:`EVENTS_PER_PIECE`).

    >>> from aces.rules import game_named
    >>> pot = game_named("pot")
    >>> expected_events(pot, header(pot, ["Ada", "Bo"], {"chips": 3}), games=10)
    760
    """
    pieces = len(start.players) if game.pieces is None else game.pieces(start)
    return games * (2 * len(start.players) + EVENTS_PER_PIECE * pieces)


def check_length(game: Game[t.Any], start: GameStarted, games: int = 1, *,
                 limit: int | None = None, message: Plural = _TOO_LONG) -> None:
    """Refuse to play ``games`` games that could hold more events than ``limit``
    (what a log may hold, :data:`aces.log.EVENT_LIMIT`): said at once, before a
    line is written, rather than once the disk is full or the log too long to read.

    :raises ~aces.errors.OptionError: ``message``, saying how many events.
    """
    from aces import log

    most = log.EVENT_LIMIT if limit is None else limit
    events = expected_events(game, start, games)
    if events > most:
        raise OptionError(message, games=games, events=events, limit=most)


def too_wide() -> OptionError:
    """The error for a game whose log could hold a line too long to read back."""
    # Translators: an error of "aces play" and "aces record". {limit}: the most
    # bytes one line of a log may have.
    return OptionError("a line of this game's log could be longer than the {limit} bytes a"
                       " log line may hold; choose fewer players, shorter names or fewer dice",
                       limit=LINE_LIMIT)


def play(game: Game[t.Any], start: GameStarted, dice: DiceSource) -> Iterator[Event]:
    """Play one whole game, yielding its events from the header on.

    :raises ~aces.errors.DiceFileError: for dice of a dice file that cannot be
        played as written, or that run out before the game is over.
    :raises ~aces.errors.RollError: for a roll the rules refuse: from a dice
        file, placed at its line; a generated one would be a bug of a
        ``choose`` policy.
    """
    for settled in rolls(game, start, dice):
        yield from settled


def rolls(game: Game[t.Any], start: GameStarted, dice: DiceSource,
          ) -> Iterator[tuple[Event, ...]]:
    """Play one whole game, yielding its header, then each roll with all it
    settles: after each of these the game waits for a roll, so a log cut
    between two of them is sound (see :func:`play` for the errors).
    """
    state = game.start(start)
    yield (start,)
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
        yield events
