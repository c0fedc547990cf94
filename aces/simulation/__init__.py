"""Monte Carlo simulation of whole games, many at a time.

Each game the simulation knows is a :class:`Simulation`, made by the
factory its registration brings (:attr:`aces.games.Registration.simulation`).
A new game plugs in by registering its factory: the command line, the
statistics and the report stay the same. The engines share
:mod:`aces.simulation.batch` (rolls, batches, tallies):
:mod:`aces.simulation.tables` steps any game whose states fit in a
transition table, :mod:`aces.simulation.chips` plays Aces in the Pot as
chips by seat when they do not. Aces in the Pot itself is
:mod:`aces.simulation.pot`; Aces, the five-dice game, is
:mod:`aces.simulation.fivedice`, which counts each game's loser where Aces
in the Pot counts its winner.

>>> sim = simulation("pot", 3, {})
>>> tally = sim.run(1000, seed=1)
>>> tally.games, len(tally.wins)
(1000, 3)
"""

from __future__ import annotations

import secrets
import typing as t

from aces.errors import OptionError, Term
from aces.exact import Exact
from aces.games import registered
from aces.simulation.stats import Summary, summarize

if t.TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    import numpy as np

    from aces.rules import OptionValue
    from aces.simulation.batch import Tally

__all__ = ["EXACT", "MAX_PLAYERS", "QUICK_EXACT_STATES", "Answers", "Exact", "Factory", "Run",
           "Simulation", "Unsolved", "answers", "check_games", "check_seats", "check_seed", "run",
           "simulation"]


class Simulation(t.Protocol):
    """One game, its players and options fixed, ready to be played many times."""

    @property
    def game(self) -> str:
        """The game's name, as in the log header."""
        ...

    @property
    def seats(self) -> int:
        """Seats, counted from the player who rolls first after the opening."""
        ...

    @property
    def options(self) -> dict[str, OptionValue]:
        """The game's options, complete."""
        ...

    def run(self, games: int, seed: int, progress: Callable[[int], None] | None = None,
            jobs: int | None = None) -> Tally:
        """Play ``games`` games from ``seed``, on ``jobs`` cores (default: all);
        ``progress`` hears of games done. The answers are the same on any
        number of cores."""
        ...

    def play(self, games: int, rng: np.random.Generator,
             progress: Callable[[int], None] | None = None) -> Tally:
        """Play ``games`` games with dice from ``rng``, in this process (a
        chunk of :meth:`run`, see :mod:`aces.simulation.cores`)."""
        ...

    def exact(self, most_states: int | None = None) -> Exact | None:
        """The exact answers; ``None`` when the game has none, or more states
        than ``most_states`` (default: as many as ``aces odds`` solves)."""
        ...

    def solvable(self) -> bool:
        """Whether :meth:`exact` has an answer when given no ``most_states``."""
        ...


Factory = t.Callable[[int, "Mapping[str, OptionValue]"], Simulation]

#: How the exact answers are asked for whatever they cost: ``--exact`` on the
#: command line, ``exact=True`` in Python.
EXACT: t.Final = Term("--exact", "exact=True")
#: Unless the exact answers are asked for whatever they cost (``--exact``,
#: ``exact=True``), they are added when the game has at most this many
#: states: well under a second to solve.
QUICK_EXACT_STATES: t.Final = 100_000
#: Why a simulation has no exact answers beside it, when they were not turned
#: off: ``"slow"``, they exist but take seconds and were not asked for;
#: ``"none"``, the game is too big to solve.
Unsolved = t.Literal["slow", "none"] | None


class Answers(t.NamedTuple):
    """The exact answers beside a simulation, or why there are none."""

    exact: Exact | None
    unsolved: Unsolved


def answers(sim: Simulation, wanted: bool | None = None) -> Answers:
    """The exact answers of ``sim``, as ``aces simulate`` and ``aces.simulate`` give them:
    by default only when they come quickly; ``wanted``, whatever they take; never
    when not ``wanted`` (``False``). The game itself decides what comes quickly
    (:meth:`Simulation.exact` given :data:`QUICK_EXACT_STATES`).

    >>> answers(simulation("pot", 3, {})).unsolved is None
    True
    >>> answers(simulation("pot", 8, {})), answers(simulation("pot", 3, {}), False)
    (Answers(exact=None, unsolved='slow'), Answers(exact=None, unsolved=None))
    """
    if wanted is False:
        return Answers(None, None)
    exact = sim.exact(None if wanted else QUICK_EXACT_STATES)
    if exact is not None:
        return Answers(exact, None)
    return Answers(None, "slow" if sim.solvable() else "none")


def simulation(game: str, players: int, options: Mapping[str, OptionValue]) -> Simulation:
    """The simulation of ``game``.

    :raises ~aces.errors.OptionError: for a game, players or options it
        cannot play.
    """

    found = registered().get(game)
    factory = None if found is None else found.simulation
    if factory is None:
        raise OptionError("the simulation does not know the game {name!r}; it knows: {known}",
                          name=game, known=", ".join(sorted(
                              name for name, one in registered().items()
                              if one.has("simulation"))))
    return factory(players, options)


#: The most games one simulation plays: a few minutes' work. More would
#: add nothing a lesson can see (the intervals are already far narrower
#: than a percent) and could keep a school computer busy for days.
MAX_GAMES: t.Final = 100_000_000


def check_games(games: int) -> None:
    """A simulation plays one game or more, and at most :data:`MAX_GAMES`.

    :raises ~aces.errors.OptionError: for any other count.
    """
    if games < 1:
        # Translators: {option}: --games on the command line, games= in Python.
        raise OptionError("{option} must be at least 1, not {games}", option=Term("--games"),
                          games=games)
    if games > MAX_GAMES:
        # Translators: an error of "aces simulate". {option}: --games on the command
        # line, games= in Python; {limit}: the most games one simulation plays;
        # {games}: the number asked for.
        raise OptionError("{option} may be at most {limit}, not {games}",
                          option=Term("--games"), limit=MAX_GAMES, games=games)


def check_seed(seed: int) -> None:
    """A seed of the dice is a whole number from 0 (NumPy's generator takes no other).

    :raises ~aces.errors.OptionError: for a negative one.
    """
    if seed < 0:
        # Translators: {option}: --seed on the command line, seed= in Python.
        raise OptionError("{option} must be 0 or more, not {seed}", option=Term("--seed"),
                          seed=seed)


#: The most players a simulation takes: a game of 100 players lasts some
#: thousands of rolls.
MAX_PLAYERS: t.Final = 100


def check_seats(players: int, minimum: int) -> None:
    """A simulation takes from ``minimum`` players (the game's) to :data:`MAX_PLAYERS`.

    :raises ~aces.errors.OptionError: for any other count.
    """
    if players < minimum:
        # Translators: {option}: --players on the command line, players= in Python;
        # {minimum}: the fewest players the game takes.
        raise OptionError("{option} must be at least {minimum}, not {players}",
                          option=Term("--players"), minimum=minimum, players=players)
    if players > MAX_PLAYERS:
        raise OptionError("the simulation takes at most {limit} players, not {players}",
                          limit=MAX_PLAYERS, players=players)


class Run(t.NamedTuple):
    """A simulation run: the games played, their summary and the exact answers beside it."""

    sim: Simulation
    #: The seed the dice followed: the one given, or one drawn for the run.
    seed: int
    summary: Summary
    exact: Exact | None
    unsolved: Unsolved


def run(game: str, players: int, options: Mapping[str, OptionValue], games: int,
        seed: int | None = None, exact: bool | None = None,
        progress: Callable[[int], None] | None = None) -> Run:
    """Play ``games`` games of a table as ``aces simulate`` and ``aces.simulate``
    play them: from ``seed``, or a seed drawn now; summed up, with the exact
    answers beside them as :func:`answers` gives them for ``exact``.

    :raises ~aces.errors.OptionError: for a game, players or options the
        simulation cannot play.

    >>> done = run("pot", 3, {}, 1000, seed=1)
    >>> done.summary.games, done.seed, done.unsolved
    (1000, 1, None)
    """
    sim = simulation(game, players, options)
    if seed is None:
        seed = secrets.randbelow(2**32)
    summary = summarize(sim.run(games, seed, progress))
    found, unsolved = answers(sim, exact)
    return Run(sim, seed, summary, found, unsolved)
