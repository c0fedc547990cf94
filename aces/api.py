"""The package's public functions, for notebooks and pupils' programs.

Five functions: :func:`load` a log, :func:`play` games, :func:`odds` of a
table or of a moment of a game, :func:`simulate` many games, :func:`stats`
of a class's logs. They are also ``aces.load``, ``aces.play`` and so on,
found when first asked for, so that ``import aces`` stays cheap. This is
one face of the package, as the command line is another: both stand on
the same layers below (the reports, the simulation, the pool of a class's
logs), and neither imports the other. The classes of what they return are
:mod:`aces.results`', named here too.

What they return shows itself in a notebook: ``_repr_html_`` gives plain
HTML tables and SVG without scripts (an untrusted notebook, and GitHub's
view of one, drop scripts), in the language of its ``lang`` (``"en"``,
``"nb"`` or ``"nn"``; each function takes ``lang`` too), and ``repr`` is
one short line, always in English, as a doctest reads it.

>>> import aces
>>> game = aces.play(["Ada", "Bo", "Cy"], dice="2/3/5/1 6/3 5/6 6/1 1/1 6/1 4/2 5/6 6/1 1/3 4/5 2")
>>> game
<Game pot, Ada, Bo and Cy: Cy starts, Bo wins the pot of 5 after 11 rolls>
>>> game.winner, game.length, game.rolls[3].dice
('Bo', 11, (1, 6))
"""

from __future__ import annotations

__all__ = ["Game", "Log", "Odds", "Session", "Simulated", "Speaking", "Stats", "load", "odds",
           "play", "simulate", "stats"]

import typing as t

from aces import engine
from aces.arguments import flag, function, maybe_flag, names, parameter, text, whole, written
from aces.arguments import path as a_path
from aces.arguments import sources as logs_of
from aces.engine import players_from
from aces.errors import OptionError, Plural, Term
from aces.events import GameStarted
from aces.exact import check_size
from aces.exact.chain import build
from aces.exact.solve import state_values
from aces.experiment.observe import GameObserver
from aces.games import declared, game_named, registered, registration
from aces.log import Record
from aces.reports.stats import pool_logs
from aces.results import (
    Game,
    Log,
    Odds,
    PathLike,
    Session,
    Simulated,
    Speaking,
    Stats,
    language,
    speaks,
)
from aces.rules.fivedice import FiveDiceState
from aces.rules.pot import PotState
from aces.simulation import check_games, check_seed, run
from aces.walk import walk

if t.TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from aces.events import Event
    from aces.experiment.observe import GameRecord
    from aces.experiment.pool import Source
    from aces.rules import OptionValue


@speaks
def load(path: PathLike, *, lang: str = "en") -> Log:
    """A log, to walk game by game; each game checked against the rules as it is read.

    ``lang`` (``"en"``, ``"nb"`` or ``"nn"``) is the language the log and its
    games speak in a notebook.

    :raises aces.errors.AcesError: at once, for a file that cannot be read.
    :raises aces.errors.LogError: when a game is walked past a line that
        breaks the rules, or the file is not a log.

    >>> import aces
    >>> log = aces.load("replays/session.jsonl")
    >>> log
    <Log session.jsonl: 5 games>
    >>> [game.winner for game in log]
    ['Ola', 'Kari', 'Siri', 'Per', 'Per']
    """
    return Log(path, language(lang))


@t.overload
def play(players: int | Sequence[str] = ..., *, game: str = ..., seed: int | None = ...,
         dice: str | Sequence[str] | None = ..., games: t.Literal[1] = ..., lang: str = ...,
         **options: OptionValue) -> Game: ...


@t.overload
def play(players: int | Sequence[str] = ..., *, game: str = ..., seed: int | None = ...,
         dice: str | Sequence[str] | None = ..., games: int, lang: str = ...,
         **options: OptionValue) -> Game | Session: ...


@speaks
def play(players: int | Sequence[str] = 3, *, game: str = "pot", seed: int | None = None,
         dice: str | Sequence[str] | None = None, games: int = 1, lang: str = "en",
         **options: OptionValue) -> Game | Session:
    """Play a game (or ``games`` in a row, a :class:`Session`) from a seed or from dice.

    ``players`` is a number (default names) or the names in seat order.
    ``dice`` are the rolls of a real game, one roll per item, or one text
    with the rolls split by ``/`` or new lines, as in a dice file. Options
    are the game's, named as the command line names them: ``chips``,
    ``finish`` (Aces in the Pot), ``dice_each``, ``threes``, ``threes_to``
    (the five-dice game). ``lang`` (``"en"``, ``"nb"`` or ``"nn"``) is the
    language the result speaks in a notebook.

    :raises aces.errors.OptionError: for options the rules do not accept.
    :raises aces.errors.DiceFileError: for dice that do not fit the game.
    :raises aces.errors.RollError: for dice the rules refuse (placed at their line).

    >>> import aces
    >>> aces.play(4, seed=3).winner
    'Dag'
    >>> session = aces.play(["Kari", "Ola", "Per"], seed=1, games=10)
    >>> sum(session.results().values())
    10
    """

    lang = language(lang)
    rules = game_named(_game_name(game))
    options = _options(options, rules.name)
    if isinstance(players, (list, tuple, str)):
        seats = names(players, "players")
    else:
        seats = players_from(str(_players(players, "a number of players or a list of names")))
    games = whole(games, "games", least=1)
    if seed is not None:
        seed = whole(seed, "seed")
    lines = None
    if dice is not None:
        lines = list(dice.replace("/", "\n").splitlines() if isinstance(dice, str)
                     else names(dice, "dice"))
    # Checked before a game is played: what a call holds in memory, and so what it saves.
    engine.check_session(rules, seats, options, seed=seed, typed=lines is not None,
                         games=games, limit=HELD_EVENTS, message=_TOO_MANY_HELD)
    played: list[Game] = []
    events: list[Event] = []
    held = 0
    for settled in engine.session_rolls(rules, seats, options, seed=seed, dice=lines,
                                        games=games):
        held += len(settled)
        if held > HELD_EVENTS:
            # Past the estimate: the games are longer than games of this table are.
            raise OptionError(_TOO_MANY_HELD, games=games, events=held, limit=HELD_EVENTS)
        if type(settled[0]) is GameStarted and events:
            played.append(_walked(events))
            events = []
        events.extend(settled)
    played.append(_walked(events))
    if games == 1:
        played[0].lang = lang
        return played[0]
    return Session(played, lang)


#: The most events :func:`play` holds in memory, its games together (some
#: 500 bytes each): a session of some 5,000 games of two players, far less
#: than a log may hold (:data:`aces.log.EVENT_LIMIT`), so whatever it plays
#: it can save.
HELD_EVENTS: t.Final = 250_000

# Translators: an error of aces.play asked for games longer than it holds in memory.
# {games}: the games asked for; {events}: the events they would hold, about; {limit}:
# the most events it holds; aces.play and aces play stay as they are.
_TOO_MANY_HELD: t.Final = Plural(
    "a game of this table could hold some {events} events, more than the {limit} that"
    " aces.play keeps in memory; aces play on the command line writes it to a file",
    "{games} games of this table could hold some {events} events, more than the {limit}"
    " that aces.play keeps in memory; play fewer at a time, or write them to a file with"
    " aces play on the command line", by="games")


def _game_name(game: object) -> str:
    """``game`` as the name of a registered game."""
    return registration(text(game, "game")).rules.name


def _players(players: object, kinds: str) -> int:
    """``players`` as a number of players (the game says how few it takes)."""
    if isinstance(players, bool) or not hasattr(type(players), "__index__"):
        if kinds == "a number of players or a list of names":
            # Translators: an error of aces.play. {option}: players=; {value}: what was
            # given, as Python writes it.
            raise OptionError("{option} must be a number of players or a list of names, not"
                              " {value}", option=Term("--players"), value=written(players))
        # Translators: an error of aces.odds. {option}: players=; {value}: what was given,
        # as Python writes it; a moment is one of Game.moments.
        raise OptionError("{option} must be a number of players or a moment of a game, not"
                          " {value}", option=Term("--players"), value=written(players))
    return whole(players, "players", least=0)


def _options(given: dict[str, OptionValue], game: str) -> dict[str, OptionValue]:
    """The options of ``game`` as the command line names them (``dice_each``), or
    as its log does (``dice``), as the log names them.

    :raises aces.errors.OptionError: for an option the game does not have, by
        the name it was given.
    """
    declares = declared().get(game, ())
    own = {option.key: option.key for option in declares}
    own.update((option.flag.removeprefix("--").replace("-", "_"), option.key)
               for option in declares)
    options: dict[str, OptionValue] = {}
    for name, value in given.items():
        if name not in own:
            raise OptionError("{option} is not an option of the game {game}",
                              option=parameter(name), game=game)
        options[own[name]] = value
    return options


def _walked(events: list[Event]) -> Game:
    steps = list(walk([Record(line, event) for line, event in enumerate(events, 1)], "<game>"))
    closed: list[GameRecord] = []
    observer = GameObserver(closed.append, keep_rows=True)
    for step in steps:
        observer.visit(step)
    observer.end()
    return Game(steps, closed[0])


@speaks
def odds(players: int | PotState = 3, *, game: str = "pot", exact: bool = False,
         lang: str = "en", **options: OptionValue) -> Odds:
    """The exact odds of a table, or of a moment of a game of Aces in the Pot.

    ``players`` is the size of the table, or a moment of a game (one of
    ``Game.moments``, the state before a roll): then the odds are from
    that moment on, by player.
    The five-dice game has exact odds up to four players with five dice
    each: ``aces.odds(4, game="five-dice")``. Some tables take seconds
    (four players with six dice each, say), and those are worked out only
    with ``exact=True``, as ``aces simulate`` works them out only with
    ``--exact``. ``lang`` (``"en"``, ``"nb"`` or ``"nn"``) is the language
    of the notebook view.

    :raises aces.errors.OptionError: for a table too big to solve exactly,
        or too slow to without ``exact=True``.

    >>> import aces
    >>> aces.odds(2, chips=1)
    <Odds pot, 2 players, to win: seat 1 47.1%, seat 2 52.9%; 9.77 rolls on average>
    >>> game = aces.play(["Ada", "Bo"], seed=3)
    >>> aces.odds(game.moments[0])  # doctest: +ELLIPSIS
    <Odds to win from here: ...>
    """

    lang = language(lang)
    game = _game_name(game)
    exact = flag(exact, "exact")
    if isinstance(players, (PotState, FiveDiceState)):
        moment = _state_odds(players)
        moment.lang = lang
        return moment
    players = _players(players, "a number of players or a moment of a game")
    options = _options(options, game)

    found = registration(game).odds
    if found is None:
        # Translators: an error of aces.odds for a game that brings no exact odds.
        # {name}: the game asked for; {known}: the games that do, as a list.
        raise OptionError("there are no exact odds for the game {name!r}, only for: {known}",
                          name=game, known=", ".join(
                              sorted(name for name, one in registered().items()
                                     if one.has("odds"))))
    answer = found(players, options, exact)
    assert answer.win_by_seat is not None, "a game's odds give every seat's chance"
    return Odds(game, players, answer.win_by_seat, answer.expected_rolls, answer.sd_rolls,
                lang=lang)


def _state_odds(state: PotState) -> Odds:
    if not isinstance(state, PotState) or state.phase == "opening":
        raise OptionError("odds of a moment are for Aces in the Pot, after the opening")
    n = len(state.players)
    chips = (state.in_play + state.pot) // n
    check_size(n, chips)
    chain = build(n, chips, state.finish)
    index, rotation = chain.locate(state)
    row = state_values(chain)[index]
    by_player = {state.players[(rotation + i) % n]: float(row[i]) for i in range(n)}
    if index == chain.size:
        by_player = {name: float(seat == rotation) for seat, name in enumerate(state.players)}
    return Odds("pot", n, list(by_player.values()), float(row[n]), None, by_player)


@speaks
def simulate(players: int = 3, *, game: str = "pot", games: int = 10_000,
             seed: int | None = None, exact: bool | None = None, lang: str = "en",
             **options: OptionValue) -> Simulated:
    """Play many games at once, fast, and count wins by seat and the games' lengths.

    The exact answers stand beside the estimates as ``aces simulate`` gives
    them: by default only where they come quickly, so that a notebook does
    not wait (five players with five dice each take several seconds, and
    the view says how to ask for them); with ``exact=True`` whatever they
    take, as ``--exact`` does; with ``exact=False`` never.
    ``lang`` (``"en"``, ``"nb"`` or ``"nn"``) is the language of the
    notebook view, which reports as ``aces simulate`` does.

    :raises aces.errors.OptionError: for a table the simulation cannot play.

    >>> import aces
    >>> sim = aces.simulate(4, games=20_000, seed=1)
    >>> sim.games, len(sim.win_by_seat)
    (20000, 4)
    >>> abs(sim.win_by_seat[0] - sim.exact.win_by_seat[0]) < 0.02
    True
    """

    players = _players(players, "a number of players")
    check_games(whole(games, "games"))
    lang = language(lang)
    game = _game_name(game)
    exact = maybe_flag(exact, "exact")
    options = _options(options, game)
    if seed is not None:
        seed = whole(seed, "seed")
        check_seed(seed)
    done = run(game, players, options, games, seed, exact)
    return Simulated(game, players, done.summary, done.exact, options=done.sim.options,
                     seed=done.seed, lang=lang, unsolved=done.unsolved)


@speaks
def stats(logs: Iterable[Source], *, csv: PathLike | None = None, rolls: bool = False,
          by_log: bool = False, decimal_comma: bool = False, force: bool = False,
          lang: str = "en", progress: Callable[[int], None] | None = None) -> Stats:
    """Pool logs as ``aces stats`` does: by rules and table size, damaged logs left out.

    ``csv`` writes a new table with a row per game (per roll, with
    ``rolls``; per log and seat, with its 95 % interval, with ``by_log``),
    headed in ``lang``, whole or not at all; it is never written over an
    existing file unless ``force`` (and never, even then, over a log or one
    of ``logs``). Its columns are split by
    commas and its decimals written with a point, as GeoGebra and CODAP read
    them; with ``decimal_comma``, by semicolons and with a decimal comma, as
    Excel with Norwegian settings opens a file as it is.

    ``lang`` (``"en"``, ``"nb"`` or ``"nn"``) is also the language the
    result speaks in a notebook, in :meth:`Stats.report` and in
    :meth:`Stats.plot`; set ``result.lang`` to change it afterwards.

    :raises aces.errors.OptionError: when the CSV file exists (without
        ``force``), cannot be written, or is one of the logs; or for a
        language the package does not offer.

    >>> import aces
    >>> result = aces.stats(["replays/session.jsonl", "replays/four-players.jsonl"])
    >>> result
    <Stats: 2 logs (0 left out), 6 games in 1 group of rules>
    >>> result.groups[0].pooled.seats.shares[0].hits
    0
    """

    lang = language(lang)
    sources = logs_of(logs, "logs")
    rolls, by_log = flag(rolls, "rolls"), flag(by_log, "by_log")
    decimal_comma, force = flag(decimal_comma, "decimal_comma"), flag(force, "force")
    progress = function(progress, "progress")
    if csv is not None:
        csv = a_path(csv, "csv")
    return Stats(pool_logs(sources, csv=csv, rolls=rolls, by_log=by_log,
                           decimal_comma=decimal_comma, force=force, lang=lang,
                           progress=progress), lang)

