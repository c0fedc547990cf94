"""Playing games: the rules driven by a dice source, producing events.

The engine is the only loop that asks for dice. It is a fold like every
other reader: each event the rules decide is evolved into the state before
the next roll is asked for, and handed on at once, so a log is written as
the game is played and an error stops it after the last good event.

Generated dice make no choices, so a game that has them (the five-dice
``threes``) makes them with its ``choose`` policy and the dice's own
generator: the same seed still plays the same game.

:func:`play_session` plays games in a row at one table, from a seed or a
dice file: the loop ``aces play`` and :func:`aces.play` share.
"""

from __future__ import annotations

import secrets
import typing as t

import msgspec

from aces.dice import DiceFile, RandomDice
from aces.errors import OptionError, RollError, Term
from aces.events import SCHEMA, GameStarted, OpeningTied, Rolled
from aces.games import declared
from aces.log import ENVELOPE_WIDTH, LINE_LIMIT
from aces.rules import Roll, check_receivers

if t.TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping, Sequence

    from aces.dice import DiceSource
    from aces.events import Event
    from aces.rules import Game, OptionValue

__all__ = ["check_session", "header", "play", "play_session", "seeded_and_typed", "too_wide",
           "widest_line"]


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


# -- A session: games in a row at one table ---------------------------------------------


def seeded_and_typed() -> OptionError:
    """The error of a seed given with typed dice: the dice would not follow it."""
    # Translators: {seed}: --seed on the command line, seed= in Python; {dice}:
    # --dice-file, or dice= in Python.
    return OptionError("{seed} and {dice} cannot be used together", seed=Term("--seed"),
                       dice=Term("--dice-file", "dice="))


def check_session(game: Game[t.Any], players: Sequence[str],
                  options: Mapping[str, OptionValue], *, seed: int | None = None,
                  typed: bool = False) -> GameStarted:
    """Refuse a session that cannot be played, before anything is opened or written:
    a seed with ``typed`` dice, an option for drawn dice only with them (the
    five-dice ``threes_to``: a dice file names whom each 3 goes to), or a
    header the game refuses (see :func:`header`).

    :func:`play_session` checks the same; a face calls this first when it
    has files to open, so that their errors come after these.

    :raises ~aces.errors.OptionError: for such a session.
    """
    if typed:
        if seed is not None:
            raise seeded_and_typed()
        for option in declared().get(game.name, ()):
            if option.drawn_only is not None and option.key in options:
                raise OptionError(option.drawn_only)
    return header(game, players, options)


def play_session(game: Game[t.Any], players: Sequence[str],
                 options: Mapping[str, OptionValue], *, seed: int | None = None,
                 dice: Iterable[str | bytes] | None = None, source: str = "<dice>",
                 games: int = 1) -> Iterator[Event]:
    """Play ``games`` whole games in a row at one table, yielding every event.

    The one loop of ``aces play``, :func:`aces.play` and every other face.
    The dice are the lines of a dice file (``dice``, named ``source`` in its
    errors), whose receivers after ``>`` name the players at this table by a
    unique beginning, in any case; or they are drawn from ``seed`` (a seed
    of its own when neither is given). Each game of a seeded session
    records the seed that replays it alone: ``seed``, ``seed + 1``...
    Rolls left in the dice file once the last game is over are refused.

    The session is checked before this returns (:func:`check_session`); the
    games are played as the events are asked for, so a log is written as
    they are played and an error stops it after the last good event.

    :raises ~aces.errors.OptionError: for a session that cannot be played.
    :raises ~aces.errors.DiceFileError: for dice that do not fit the game,
        or that run out or are left over; placed at their line.
    :raises ~aces.errors.RollError: for a roll the rules refuse, placed at its line.

    >>> from aces.rules import game_named
    >>> pot = game_named("pot")
    >>> events = play_session(pot, ["Ada", "Bo"], {}, seed=1, games=2)
    >>> [event.seed for event in events if isinstance(event, GameStarted)]
    [1, 2]
    """
    check_session(game, players, options, seed=seed, typed=dice is not None)
    typed = None if dice is None else DiceFile(dice, source, players)
    if typed is None and seed is None:
        seed = secrets.randbelow(2**32)
    return _session(game, players, options, seed, typed, games)


def _session(game: Game[t.Any], players: Sequence[str], options: Mapping[str, OptionValue],
             seed: int | None, typed: DiceFile | None, games: int) -> Iterator[Event]:
    for number in range(games):
        game_seed = None if seed is None else seed + number
        dice: DiceSource = typed if typed is not None else RandomDice(t.cast("int", game_seed))
        yield from play(game, header(game, players, options, game_seed), dice)
    if typed is not None:
        typed.check_finished()
