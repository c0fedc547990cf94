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

The built-in games are registered when the registry is first read, so
that importing this module costs nothing.
"""

from __future__ import annotations

import typing as t
from dataclasses import dataclass

from aces.errors import OptionError

if t.TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from aces.narrate.phrasebook import Phrasebook
    from aces.rules import Game
    from aces.walk import Step

__all__ = ["Holding", "Registration", "register", "registered", "registration", "unregister"]

S = t.TypeVar("S")


class Holding(t.NamedTuple):
    """What the standings of a state show: each player's chips or dice, and
    what is out of their hands (the pot, the centre)."""

    players: tuple[str, ...]
    held: tuple[int, ...]
    out: int


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


def _register_builtins() -> None:
    from aces import walkthrough
    from aces.narrate.fivedice import FiveDicePhrasebook
    from aces.narrate.pot import PotPhrasebook
    from aces.rules import fivedice, pot

    for game in (
        Registration(pot.GAME, PotPhrasebook, pot.holding, walkthrough.pot_rules, "session"),
        Registration(fivedice.GAME, FiveDicePhrasebook, fivedice.holding,
                     walkthrough.fivedice_rules, "fd-session"),
    ):
        _REGISTRY[game.name] = game
