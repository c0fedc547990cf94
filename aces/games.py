"""Every game the package knows, each registered once with everything it brings.

A game is more than its rules: a replay needs its phrasebook, a
walkthrough its rulebook and its standings table, a session its tally.
A :class:`Registration` holds all of these for one game, and every table
the package keeps by game (the games ``--game`` accepts, the phrasebook of
a log's game, the rules a walkthrough explains) is read from the one
registry here. A new game is one :func:`register` call: nothing else in the
package names it.

>>> sorted(registered())
['five-dice', 'pot']
>>> from aces.engine import header
>>> pot = registration("pot")
>>> pot.holding(pot.rules.start(header(pot.rules, ["Ada", "Bo"], {})))
Holding(players=('Ada', 'Bo'), held=(2, 2), out=0)

The third game of the test suite (tests/test_games.py) is
registered this way, and played, verified, replayed and walked through by
the real commands.

A game also declares the options it is set up with on the command line
(:class:`Option`): ``aces play``, ``aces record`` and ``aces simulate``
build theirs from these. The built-in games' options are known without
loading their rules (:func:`declared`), so that ``aces --help`` starts at
once; the rest of a built-in game is registered when the registry is
first read, so that importing this module costs nothing.

>>> [option.flag for option in declared()["pot"]]
['--finish', '--chips']
"""

from __future__ import annotations

import typing as t
from dataclasses import dataclass

from aces.errors import N_, OptionError

if t.TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from aces.narrate.phrasebook import Phrasebook
    from aces.rules import Game
    from aces.walk import Step

__all__ = ["FIVE_DICE_OPTIONS", "POT_OPTIONS", "Holding", "Option", "Registration", "declared",
           "register", "registered", "registration", "unregister"]

S = t.TypeVar("S")


class Holding(t.NamedTuple):
    """What the standings of a state show: each player's chips or dice, and
    what is out of their hands (the pot, the centre)."""

    players: tuple[str, ...]
    #: By seat: a plain tuple, or at a large table the state's own vector
    #: (:class:`~aces.rules.seats.Seats`), which says cheaply what changed.
    held: Sequence[int]
    out: int


@dataclass(frozen=True)
class Option:
    """An option a game is set up with on the command line: ``--chips 3``.

    The commands that begin games make their options of these, so each is
    declared once, by its game, and a game registered later brings its own.
    """

    #: As typed: ``--chips``.
    flag: str
    #: Its name among the options of the log's header: ``chips``.
    key: str
    #: The help text: an English message of the package's catalog.
    help: str
    #: What follows the flag: a whole number from 1 (``"count"``), one of
    #: :attr:`choices` (``"choice"``), or nothing (``"flag"``: true when given).
    takes: t.Literal["count", "choice", "flag"] = "count"
    choices: tuple[str, ...] = ()
    #: The option this one needs, by its flag, and the message that refuses
    #: it without that one.
    needs: tuple[str, str] | None = None
    #: For an option that only dice drawn by the program can follow, the
    #: message that refuses it with dice typed in; ``aces record``, where
    #: every roll is typed, does not offer it.
    drawn_only: str | None = None


#: The options of Aces in the Pot.
POT_OPTIONS: t.Final = (
    Option("--finish", "finish", "pot: when the finish starts: one chip left (default) or one"
           " holder left.", takes="choice", choices=("last-chip", "last-holder")),
    Option("--chips", "chips", "pot: chips each player starts with (default 2)."),
)
#: The options of Aces, the five-dice game.
FIVE_DICE_OPTIONS: t.Final = (
    Option("--dice-each", "dice", "five-dice: dice each player starts with (default 5; 1 is"
           " the pub version)."),
    Option("--threes", "threes", "five-dice: each 3 also leaves the hand, to a player of the"
           " roller's choice.", takes="flag"),
    Option("--threes-to", "threes_to", "five-dice --threes with generated dice: each 3 goes to"
           " a random other player (default), or the one holding the fewest or the most dice;"
           " a tie goes to the first from the roller's left.", takes="choice",
           choices=("random", "fewest", "most"),
           needs=("--threes", N_("--threes-to says whom the 3s go to, so it needs --threes")),
           drawn_only=N_("--threes-to is for generated dice; a dice file names whom each 3"
                         " goes to after '>'")),
)


def _no_rules(step: Step[t.Any], before: t.Any) -> Sequence[str]:
    """A game whose walkthrough explains no rule: its events are told alone."""
    return ()


@dataclass(frozen=True)
class Registration(t.Generic[S]):
    """Everything one game brings to the package."""

    #: The rules: the decider, its options and seats (:class:`aces.rules.Game`).
    rules: Game[S]
    #: How the game is told in words: its events, the standings line, the
    #: session's tally (a :class:`~aces.narrate.phrasebook.Phrasebook`).
    phrasebook: type[Phrasebook]
    #: What each player holds in a state, and what is out of play.
    holding: Callable[[S], Holding]
    #: The rules a step puts into play, given the state before it: the keys
    #: of the asides a walkthrough explains (:mod:`aces.walkthrough`).
    rulebook: Callable[[Step[S], S], Sequence[str]] = _no_rules
    #: The aside a walkthrough gives when a second game of a session starts.
    session_rule: str | None = None
    #: The options it is set up with on the command line.
    options: tuple[Option, ...] = ()

    @property
    def name(self) -> str:
        """The name the log uses, and ``--game`` accepts."""
        return self.rules.name


_REGISTRY: dict[str, Registration[t.Any]] = {}


def register(game: Registration[t.Any]) -> None:
    """Add a game to the registry (the built-in ones first, if not yet).

    :raises ValueError: if a game of that name is registered already.
    """
    known = registered()
    if game.name in known:
        raise ValueError(f"a game called {game.name!r} is registered already")
    _REGISTRY[game.name] = game


def unregister(name: str) -> None:
    """Take a game out of the registry again (a game a test registered)."""
    _REGISTRY.pop(name, None)


def registered() -> dict[str, Registration[t.Any]]:
    """Every game registered, by the name the log uses."""
    if not _REGISTRY:
        _register_builtins()
    return _REGISTRY


def declared() -> dict[str, tuple[Option, ...]]:
    """The command-line options of every game, by the name the log uses;
    those of the built-in games without loading their rules.

    >>> [option.key for option in declared()["five-dice"]]
    ['dice', 'threes', 'threes_to']
    """
    if not _REGISTRY:
        return {name: options for name, (options, _) in _BUILT_IN.items()}
    return {name: game.options for name, game in _REGISTRY.items()}


def registration(name: str) -> Registration[t.Any]:
    """The game called ``name``.

    :raises ~aces.errors.OptionError: for a game nobody registered.
    """
    known = registered()
    try:
        return known[name]
    except KeyError:
        raise OptionError(
            "unknown game {name!r}; the games are: {known}",
            name=name,
            known=", ".join(sorted(known)),
        ) from None


def _pot() -> Registration[t.Any]:
    from aces import walkthrough
    from aces.narrate.pot import PotPhrasebook
    from aces.rules import pot

    return Registration(pot.GAME, PotPhrasebook, pot.holding, walkthrough.pot_rules, "session",
                        POT_OPTIONS)


def _five_dice() -> Registration[t.Any]:
    from aces import walkthrough
    from aces.narrate.fivedice import FiveDicePhrasebook
    from aces.rules import fivedice

    return Registration(fivedice.GAME, FiveDicePhrasebook, fivedice.holding,
                        walkthrough.fivedice_rules, "fd-session", FIVE_DICE_OPTIONS)


#: The built-in games: the options each declares, known before its rules
#: are loaded, and its whole registration, made when the registry is read.
_BUILT_IN: t.Final[dict[str, tuple[tuple[Option, ...], Callable[[], Registration[t.Any]]]]] = {
    "pot": (POT_OPTIONS, _pot),
    "five-dice": (FIVE_DICE_OPTIONS, _five_dice),
}


def _register_builtins() -> None:
    for name, (_, make) in _BUILT_IN.items():
        game = make()
        assert game.name == name, "a built-in game is registered under its own name"
        _REGISTRY[name] = game
