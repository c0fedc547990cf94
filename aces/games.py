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
once. The rest of a built-in game is made when that game is first asked
for, and its narration when it is first told, so that importing this
module costs nothing and ``aces verify`` loads the rules of its log's game
alone.

>>> [option.flag for option in declared()["pot"]]
['--finish', '--chips']
"""

from __future__ import annotations

import importlib
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


class Registration(t.Generic[S]):
    """Everything one game brings to the package.

    The phrasebook and the rulebook may be given where they are, as
    ``"module:name"``: the module is imported when the piece is first asked
    for, so that ``aces verify``, which needs the rules alone, loads no
    narration (the built-in games register theirs so).
    """

    __slots__ = ("_phrasebook", "_rulebook", "holding", "options", "rules", "session_rule")

    #: The rules: the decider, its options and seats (:class:`aces.rules.Game`).
    rules: Game[S]
    #: What each player holds in a state, and what is out of play.
    holding: Callable[[S], Holding]
    #: The aside a walkthrough gives when a second game of a session starts.
    session_rule: str | None
    #: The options it is set up with on the command line.
    options: tuple[Option, ...]

    def __init__(self, rules: Game[S], phrasebook: type[Phrasebook] | str,
                 holding: Callable[[S], Holding],
                 rulebook: Callable[[Step[S], S], Sequence[str]] | str = _no_rules,
                 session_rule: str | None = None, options: tuple[Option, ...] = ()) -> None:
        self.rules, self.holding, self.session_rule, self.options = (rules, holding,
                                                                     session_rule, options)
        # Where they are, until first asked for.
        self._phrasebook, self._rulebook = phrasebook, rulebook

    @property
    def name(self) -> str:
        """The name the log uses, and ``--game`` accepts."""
        return self.rules.name

    @property
    def phrasebook(self) -> type[Phrasebook]:
        """How the game is told in words: its events, the standings line, the
        session's tally (a :class:`~aces.narrate.phrasebook.Phrasebook`)."""
        found = self._phrasebook
        if isinstance(found, str):
            found = self._phrasebook = _imported(found)
        return found

    @property
    def rulebook(self) -> Callable[[Step[S], S], Sequence[str]]:
        """The rules a step puts into play, given the state before it: the keys
        of the asides a walkthrough explains (:mod:`aces.walkthrough`)."""
        found = self._rulebook
        if isinstance(found, str):
            found = self._rulebook = _imported(found)
        return found


def _imported(where: str) -> t.Any:
    """What ``"module:name"`` names, its module imported now."""
    module, _, name = where.partition(":")
    return getattr(importlib.import_module(module), name)


_REGISTRY: dict[str, Registration[t.Any]] = {}


def register(game: Registration[t.Any]) -> None:
    """Add a game to the registry.

    :raises ValueError: if a game of that name is registered already.
    """
    if game.name in _REGISTRY or game.name in _BUILT_IN:
        raise ValueError(f"a game called {game.name!r} is registered already")
    _REGISTRY[game.name] = game


def unregister(name: str) -> None:
    """Take a game out of the registry again (a game a test registered)."""
    if name not in _BUILT_IN:
        _REGISTRY.pop(name, None)


def registered() -> dict[str, Registration[t.Any]]:
    """Every game registered, by the name the log uses: the built-in ones
    first, then the others in the order they were registered."""
    built_in = {name: _built_in(name) for name in _BUILT_IN}
    return {**built_in, **_REGISTRY}


def declared() -> dict[str, tuple[Option, ...]]:
    """The command-line options of every game, by the name the log uses;
    those of the built-in games without loading their rules.

    >>> [option.key for option in declared()["five-dice"]]
    ['dice', 'threes', 'threes_to']
    """
    built_in = {name: options for name, (options, _) in _BUILT_IN.items()}
    return {**built_in, **{name: game.options for name, game in _REGISTRY.items()}}


def registration(name: str) -> Registration[t.Any]:
    """The game called ``name``; a built-in game's rules are loaded when it
    is first asked for, and nothing of the other games.

    :raises ~aces.errors.OptionError: for a game nobody registered.
    """
    game = _REGISTRY.get(name)
    if game is not None:
        return game
    if name in _BUILT_IN:
        return _built_in(name)
    raise OptionError(
        "unknown game {name!r}; the games are: {known}",
        name=name,
        known=", ".join(sorted(declared())),
    )


def _pot() -> Registration[t.Any]:
    from aces.rules import pot

    return Registration(pot.GAME, "aces.narrate.pot:PotPhrasebook", pot.holding,
                        "aces.walkthrough:pot_rules", "session", POT_OPTIONS)


def _five_dice() -> Registration[t.Any]:
    from aces.rules import fivedice

    return Registration(fivedice.GAME, "aces.narrate.fivedice:FiveDicePhrasebook",
                        fivedice.holding, "aces.walkthrough:fivedice_rules", "fd-session",
                        FIVE_DICE_OPTIONS)


#: The built-in games: the options each declares, known before its rules
#: are loaded, and its whole registration, made when the game is first
#: asked for.
_BUILT_IN: t.Final[dict[str, tuple[tuple[Option, ...], Callable[[], Registration[t.Any]]]]] = {
    "pot": (POT_OPTIONS, _pot),
    "five-dice": (FIVE_DICE_OPTIONS, _five_dice),
}


def _built_in(name: str) -> Registration[t.Any]:
    """A built-in game's registration, made the first time it is asked for."""
    game = _REGISTRY.get(name)
    if game is None:
        game = _REGISTRY[name] = _BUILT_IN[name][1]()
        assert game.name == name, "a built-in game is registered under its own name"
    return game
