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

import itertools
import secrets
import typing as t

import msgspec

from aces import log
from aces.arguments import whole
from aces.dice import DiceFile, RandomDice
from aces.errors import OptionError, Plural, RollError, Term
from aces.events import SCHEMA, GameStarted, OpeningTied, Rolled
from aces.games import declared
from aces.log import ENVELOPE_WIDTH, LINE_LIMIT
from aces.rules import Roll, check_receivers

if t.TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping, Sequence

    from aces.dice import DiceSource
    from aces.events import Event
    from aces.rules import Decider, OptionValue

__all__ = ["DEFAULT_NAMES", "EVENTS_PER_PIECE", "SEEDS", "check_length", "check_session",
           "expected_events", "header", "play", "play_session", "players_from", "rolls",
           "seeded_and_typed", "session_rolls", "too_wide", "widest_line"]

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
    game: Decider[t.Any],
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


def expected_events(game: Decider[t.Any], start: GameStarted, games: int = 1) -> int:
    """About how many events ``games`` games with this header hold, generously
    (see :data:`EVENTS_PER_PIECE`).

    >>> from aces.games import game_named
    >>> pot = game_named("pot")
    >>> expected_events(pot, header(pot, ["Ada", "Bo"], {"chips": 3}), games=10)
    760
    """
    pieces = len(start.players) if game.pieces is None else game.pieces(start)
    return games * (2 * len(start.players) + EVENTS_PER_PIECE * pieces)


def check_length(game: Decider[t.Any], start: GameStarted, games: int = 1, *,
                 limit: int | None = None, message: Plural = _TOO_LONG) -> None:
    """Refuse to play ``games`` games that could hold more events than ``limit``
    (what a log may hold, :data:`aces.log.EVENT_LIMIT`): said at once, before a
    line is written, rather than once the disk is full or the log too long to read.

    :raises ~aces.errors.OptionError: ``message``, saying how many events.
    """
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


def play(game: Decider[t.Any], start: GameStarted, dice: DiceSource) -> Iterator[Event]:
    """Play one whole game, yielding its events from the header on.

    :raises ~aces.errors.DiceFileError: for dice of a dice file that cannot be
        played as written, or that run out before the game is over.
    :raises ~aces.errors.RollError: for a roll the rules refuse: from a dice
        file, placed at its line; a generated one would be a bug of a
        ``choose`` policy.
    """
    for settled in rolls(game, start, dice):
        yield from settled


def rolls(game: Decider[t.Any], start: GameStarted, dice: DiceSource,
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


#: Names for ``--players N``: short, distinct, and the same in every language.
DEFAULT_NAMES: t.Final = ("Ada", "Bo", "Cy", "Dag", "Eli", "Fia", "Gro", "Hal", "Ida", "Jon")


# -- A session: games in a row at one table ---------------------------------------------


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


def check_session(game: Decider[t.Any], players: Sequence[str],
                  options: Mapping[str, OptionValue], *, seed: int | None = None,
                  typed: bool = False, games: int = 1, limit: int | None = None,
                  message: Plural = _TOO_LONG) -> GameStarted:
    """Refuse a session that cannot be played, before anything is opened or written:
    a seed with ``typed`` dice, an option for drawn dice only with them (the
    five-dice ``threes_to``: a dice file names whom each 3 goes to), a
    header the game refuses (see :func:`header`) for the first game or the
    last (whose seed may be past :data:`SEEDS`), or ``games`` that could
    hold more events than ``limit`` (see :func:`check_length`): whatever a
    session writes, ``aces`` reads back.

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
    start = header(game, players, options, seed)
    check_length(game, start, games, limit=limit, message=message)
    if seed is not None:
        header(game, players, options, seed + games - 1)
    return start


def play_session(game: Decider[t.Any], players: Sequence[str],
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

    >>> from aces.games import game_named
    >>> pot = game_named("pot")
    >>> events = play_session(pot, ["Ada", "Bo"], {}, seed=1, games=2)
    >>> [event.seed for event in events if isinstance(event, GameStarted)]
    [1, 2]
    """
    return itertools.chain.from_iterable(session_rolls(
        game, players, options, seed=seed, dice=dice, source=source, games=games))


def session_rolls(game: Decider[t.Any], players: Sequence[str],
                  options: Mapping[str, OptionValue], *, seed: int | None = None,
                  dice: Iterable[str | bytes] | None = None, source: str = "<dice>",
                  games: int = 1) -> Iterator[tuple[Event, ...]]:
    """:func:`play_session` by steps: each game's header, then each roll with
    all it settles (see :func:`rolls`), for a writer that keeps a log sound
    wherever it stops."""
    check_session(game, players, options, seed=seed, typed=dice is not None, games=games)
    typed = None if dice is None else DiceFile(dice, source, players)
    if typed is None and seed is None:
        seed = secrets.randbelow(2**32)
    return _session(game, players, options, seed, typed, games)


def _session(game: Decider[t.Any], players: Sequence[str], options: Mapping[str, OptionValue],
             seed: int | None, typed: DiceFile | None, games: int,
             ) -> Iterator[tuple[Event, ...]]:
    for number in range(games):
        game_seed = None if seed is None else seed + number
        dice: DiceSource = typed if typed is not None else RandomDice(t.cast("int", game_seed))
        yield from rolls(game, header(game, players, options, game_seed), dice)
    if typed is not None:
        typed.check_finished()
