"""Monte Carlo simulation of whole games, many at a time.

Each game the simulation knows is a :class:`Simulation`, made by a factory
registered under the game's name in :data:`FACTORIES`. A new game plugs in
by adding its factory: the command line (``--game`` lists the factories),
the statistics and the report stay the same. The engines share
:mod:`aces.simulate.batch` (rolls, batches, tallies):
:mod:`aces.simulate.tables` steps any game whose states fit in a
transition table, :mod:`aces.simulate.chips` plays Aces in the Pot as
chips by seat when they do not. Aces in the Pot itself is
:mod:`aces.simulate.pot`; Aces, the five-dice game, is
:mod:`aces.simulate.fivedice`, which counts each game's loser where Aces
in the Pot counts its winner.

>>> sim = simulation("pot", 3, {})
>>> tally = sim.run(1000, seed=1)
>>> tally.games, len(tally.wins)
(1000, 3)
"""

from __future__ import annotations

import typing as t

from aces.errors import OptionError

if t.TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from aces.rules import OptionValue
    from aces.simulate.batch import Tally

__all__ = ["FACTORIES", "MAX_PLAYERS", "Exact", "Factory", "Simulation", "check_games",
           "check_seats", "simulation"]


class Exact(t.NamedTuple):
    """The exact values a simulation's estimates can be held against."""

    #: Each seat's chance to win; to lose, in a game that counts losers (five-dice);
    #: ``None`` where only the length is worked out (five players with five dice).
    win_by_seat: list[float] | None
    expected_rolls: float
    sd_rolls: float
    #: The mean length of a turn, for games that count turns.
    rolls_per_turn: float | None = None


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

    def run(self, games: int, seed: int,
            progress: Callable[[int], None] | None = None) -> Tally:
        """Play ``games`` games from ``seed``; ``progress`` hears of games done."""
        ...

    def exact(self, most_states: int | None = None) -> Exact | None:
        """The exact answers; ``None`` when the game has none, or more states
        than ``most_states`` (default: as many as ``aces odds`` solves)."""
        ...

    def solvable(self) -> bool:
        """Whether :meth:`exact` has an answer when given no ``most_states``."""
        ...


Factory = t.Callable[[int, "Mapping[str, OptionValue]"], Simulation]


def _pot(players: int, options: Mapping[str, OptionValue]) -> Simulation:
    from aces.simulate.pot import PotSimulation

    return PotSimulation.create(players, options)


def _five_dice(players: int, options: Mapping[str, OptionValue]) -> Simulation:
    from aces.simulate.fivedice import FiveDiceSimulation

    return FiveDiceSimulation.create(players, options)


#: The games the simulation knows, by name.
FACTORIES: t.Final[dict[str, Factory]] = {"pot": _pot, "five-dice": _five_dice}


def simulation(game: str, players: int, options: Mapping[str, OptionValue]) -> Simulation:
    """The simulation of ``game``.

    :raises ~aces.errors.OptionError: for a game, players or options it
        cannot play.
    """
    try:
        factory = FACTORIES[game]
    except KeyError:
        raise OptionError("the simulation does not know the game {name!r}; it knows: {known}",
                          name=game, known=", ".join(sorted(FACTORIES))) from None
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
        raise OptionError("--games must be at least 1, not {games}", games=games)
    if games > MAX_GAMES:
        # Translators: an error of "aces simulate". {limit}: the most games
        # one simulation plays; {games}: the number asked for.
        raise OptionError("--games may be at most {limit}, not {games}", limit=MAX_GAMES,
                          games=games)


#: The most players a simulation takes: a game of 100 players lasts some
#: thousands of rolls.
MAX_PLAYERS: t.Final = 100


def check_seats(players: int, minimum: int) -> None:
    """A simulation takes from ``minimum`` players (the game's) to :data:`MAX_PLAYERS`.

    :raises ~aces.errors.OptionError: for any other count.
    """
    if players < minimum:
        raise OptionError("--players must be at least {minimum}, not {players}",
                          minimum=minimum, players=players)
    if players > MAX_PLAYERS:
        raise OptionError("the simulation takes at most {limit} players, not {players}",
                          limit=MAX_PLAYERS, players=players)
