"""Every game the package knows, each registered once with everything it brings.

A game is more than its rules: a replay needs its phrasebook, a
walkthrough its rulebook, a report its title and whether it counts
winners or losers, ``aces simulate`` its engine, the odds its exact
chain. A :class:`Registration` holds all of these for one game, and every
table the package keeps by game (the games ``--game`` accepts, the
phrasebook of a log's game, the rules a walkthrough explains, the engine a
simulation runs) is read from the one registry here. A new game is one
:func:`register` call: nothing else in the package names it, and no module
outside a game's own compares a game's name (a test reads every module to
hold this).

>>> sorted(registered())
['five-dice', 'pot']
>>> from aces.engine import header
>>> pot = registration("pot")
>>> pot.holding(pot.rules.start(header(pot.rules, ["Ada", "Bo"], {})))
Holding(players=('Ada', 'Bo'), held=(2, 2), out=0)
>>> pot.title, pot.counts, registration("five-dice").counts
('Aces in the Pot', 'winners', 'losers')

The third game of the test suite (tests/test_games.py) is
registered this way, and played, verified, replayed and walked through by
the real commands.

A game also declares the options it is set up with on the command line
(:class:`Option`): ``aces play``, ``aces record`` and ``aces simulate``
build theirs from these. The pieces of a game that live in the layers
above the registry (its rules, its phrasebook, its engines...) may be given
as ``"module:name"``; each is imported when first asked for, so the
built-in games are registered here at no cost: ``aces --help`` knows their
options without loading their rules, and ``aces verify`` loads the rules
of its log's game alone, and no narration.

>>> [option.flag for option in declared()["pot"]]
['--finish', '--chips']
"""

from __future__ import annotations

import importlib
import typing as t
from dataclasses import dataclass

from aces.errors import N_, OptionError
from aces.holding import Holding

if t.TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from aces.chances import PositionOdds
    from aces.experiment.exact import Expected
    from aces.experiment.observe import Rules
    from aces.narrate.phrasebook import Phrasebook
    from aces.rules import Decider, OptionValue
    from aces.simulation import Exact, Simulation
    from aces.walk import Step

__all__ = ["FIVE_DICE", "FIVE_DICE_OPTIONS", "PIECES", "POT", "POT_OPTIONS", "Counts", "Holding",
           "Option", "Registration", "declared", "game_named", "games", "register", "registered",
           "registration", "resolve", "unregister"]

S = t.TypeVar("S")

#: What a game's result names: its winner (Aces in the Pot), or its loser
#: (Aces, where the last die sent to the centre loses).
Counts = t.Literal["winners", "losers"]


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

# Translators: the help of "aces record" for Aces in the Pot: how dice are
# typed. Keep the examples as they are.
_POT_TYPING: t.Final = N_("Type the dice of a roll as they fall, one digit a die, together or"
                          " apart: 1-6, 16, 1 6 or 1,6.")


# Translators: under the field for typed dice on a group's page, Aces in the Pot.
_POT_NOTATION: t.Final = N_("Together or apart, as in aces record: 16, 1-6 or 1 6; undo takes"
                            " back the last roll.")


def _no_rules(step: Step[t.Any], before: t.Any) -> Sequence[str]:
    """A game whose walkthrough explains no rule: its events are told alone."""
    return ()


#: The pieces of a registration that may be given where they are, as
#: ``"module:name"``, and are imported when first asked for.
PIECES: t.Final = ("rules", "holding", "phrasebook", "rulebook", "simulation", "odds",
                   "chances", "expected", "page")


class Registration(t.Generic[S]):
    """Everything one game brings to the package.

    Each of the pieces in :data:`PIECES` may be given as the thing itself or
    where it is, as ``"module:name"`` (``name`` may be dotted, an attribute
    of an attribute): the module is imported when the piece is first asked
    for, so that ``aces verify``, which needs the rules alone, loads no
    narration. The built-in games register all theirs so; the pieces a game
    does without are ``None``, and the commands that need one say so.
    ``name`` is the rules' own name, and must be given with rules given as
    ``"module:name"``.

    :raises TypeError: for rules given as ``"module:name"`` without a ``name``.
    """

    __slots__ = ("_given", "counts", "holds", "measures", "name", "notation", "options",
                 "session_rule", "title", "typing")

    #: The name the log uses, and ``--game`` accepts.
    name: str
    #: The game's name in a report's words: an English message of the catalog.
    title: str
    #: What a result names: the winner or the loser (:data:`Counts`).
    counts: Counts
    #: What the class experiment counts of this game's rolls besides wins and
    #: lengths: ``"nothing"`` (normal rolls that move no chip), ``"tries"``
    #: (tries of the finish), ``"agains"`` (rolls followed by a roll again).
    measures: tuple[str, ...]
    #: The aside a walkthrough gives when a second game of a session starts.
    session_rule: str | None
    #: The options it is set up with on the command line.
    options: tuple[Option, ...]
    #: How ``aces record`` says the dice of a roll are typed: a message.
    typing: str
    #: How a page of the live class says it, under the field for typed dice.
    notation: str
    #: What a player holds, and where what leaves the hands goes, as the pages
    #: label them: ``("chips", "pot")`` or ``("dice", "centre")``.
    holds: tuple[str, str]

    def __init__(self, rules: Decider[S] | str, phrasebook: type[Phrasebook] | str,
                 holding: Callable[[S], Holding] | str,
                 rulebook: Callable[[Step[S], S], Sequence[str]] | str = _no_rules,
                 session_rule: str | None = None, options: tuple[Option, ...] = (), *,
                 name: str | None = None, title: str | None = None,
                 counts: Counts = "winners", measures: tuple[str, ...] = (),
                 typing: str = _POT_TYPING, notation: str = _POT_NOTATION,
                 holds: tuple[str, str] = ("chips", "pot"),
                 simulation: Callable[[int, Mapping[str, OptionValue]], Simulation] | str
                 | None = None,
                 odds: Callable[[int, Mapping[str, OptionValue], bool], Exact] | str
                 | None = None,
                 chances: Callable[[int, Mapping[str, OptionValue]], PositionOdds] | str
                 | None = None,
                 expected: Callable[[Rules], Expected] | str | None = None,
                 page: Callable[[int, Mapping[str, OptionValue], str], dict[str, t.Any]] | str
                 | None = None) -> None:
        if name is None:
            if isinstance(rules, str):
                raise TypeError("a game whose rules are given as 'module:name' needs a name")
            name = rules.name
        self.name, self.title, self.counts, self.measures = name, title or name, counts, measures
        self.session_rule, self.options, self.typing = session_rule, options, typing
        self.notation, self.holds = notation, holds
        # Where they are, until first asked for.
        self._given: dict[str, t.Any] = {
            "rules": rules, "holding": holding, "phrasebook": phrasebook, "rulebook": rulebook,
            "simulation": simulation, "odds": odds, "chances": chances, "expected": expected,
            "page": page}

    def _piece(self, piece: str) -> t.Any:
        found = self._given[piece]
        if isinstance(found, str):
            found = self._given[piece] = resolve(found)
        return found

    @property
    def losers(self) -> bool:
        """Whether a result names the game's loser rather than its winner."""
        return self.counts == "losers"

    def has(self, piece: str) -> bool:
        """Whether the game brings ``piece``, found without importing it."""
        return self._given[piece] is not None

    def where(self, piece: str) -> str | None:
        """Where ``piece`` is, as it was given: ``"module:name"``, or ``None`` when it
        was given as itself (or not at all)."""
        found = self._given[piece]
        return found if isinstance(found, str) else None

    @property
    def rules(self) -> Decider[S]:
        """The rules: the decider, its options and seats (:class:`aces.rules.Decider`)."""
        rules: Decider[S] = self._piece("rules")
        return rules

    @property
    def holding(self) -> Callable[[S], Holding]:
        """What each player holds in a state, and what is out of play."""
        holding: Callable[[S], Holding] = self._piece("holding")
        return holding

    @property
    def phrasebook(self) -> type[Phrasebook]:
        """How the game is told in words: its events, the standings line, the
        session's tally (a :class:`~aces.narrate.phrasebook.Phrasebook`)."""
        book: type[Phrasebook] = self._piece("phrasebook")
        return book

    @property
    def rulebook(self) -> Callable[[Step[S], S], Sequence[str]]:
        """The rules a step puts into play, given the state before it: the keys
        of the asides a walkthrough explains (:mod:`aces.walkthrough`)."""
        book: Callable[[Step[S], S], Sequence[str]] = self._piece("rulebook")
        return book

    @property
    def simulation(self) -> Callable[[int, Mapping[str, OptionValue]], Simulation] | None:
        """The fast engine: a :class:`~aces.simulation.Simulation` for a table of
        players and options (``aces simulate``)."""
        return t.cast("Callable[[int, Mapping[str, OptionValue]], Simulation] | None",
                      self._piece("simulation"))

    @property
    def odds(self) -> Callable[[int, Mapping[str, OptionValue], bool], Exact] | None:
        """The exact odds of a table, from the game's exact chain (``aces.odds``);
        the last argument waits for a table that takes seconds."""
        return t.cast("Callable[[int, Mapping[str, OptionValue], bool], Exact] | None",
                      self._piece("odds"))

    @property
    def chances(self) -> Callable[[int, Mapping[str, OptionValue]], PositionOdds] | None:
        """Each player's chance from every moment of a game at a table, from the
        exact chain where it is small enough (:mod:`aces.chances`)."""
        return t.cast("Callable[[int, Mapping[str, OptionValue]], PositionOdds] | None",
                      self._piece("chances"))

    @property
    def expected(self) -> Callable[[Rules], Expected] | None:
        """What the class experiment expects of the game's logs, exactly
        (:mod:`aces.experiment.exact`)."""
        return t.cast("Callable[[Rules], Expected] | None", self._piece("expected"))

    @property
    def page(self) -> Callable[[int, Mapping[str, OptionValue], str], dict[str, t.Any]] | None:
        """The data of the simulation page of a table, in a language
        (``aces simulate --html``)."""
        return t.cast("Callable[[int, Mapping[str, OptionValue], str], dict[str, t.Any]] | None",
                      self._piece("page"))


def resolve(where: str) -> t.Any:
    """What ``"module:name"`` names, its module imported now; ``name`` may be
    dotted (``"aces.simulation.pot:PotSimulation.create"``)."""
    module, _, name = where.partition(":")
    found: t.Any = importlib.import_module(module)
    for part in name.split("."):
        found = getattr(found, part)
    return found


#: Aces in the Pot.
POT: t.Final[Registration[t.Any]] = Registration(
    "aces.rules.pot:GAME", "aces.narrate.pot:PotPhrasebook", "aces.rules.pot:holding",
    "aces.walkthrough.pot:rules", "session", POT_OPTIONS, name="pot",
    title=N_("Aces in the Pot"), counts="winners", measures=("nothing", "tries"),
    simulation="aces.simulation.pot:PotSimulation.create", odds="aces.exact:table_odds",
    chances="aces.chances.pot:odds_of_table", expected="aces.experiment.pot:expected",
    page="aces.page.simulation:pot_page")

#: Aces, the five-dice game.
FIVE_DICE: t.Final[Registration[t.Any]] = Registration(
    "aces.rules.fivedice:GAME", "aces.narrate.fivedice:FiveDicePhrasebook",
    "aces.rules.fivedice:holding", "aces.walkthrough.fivedice:rules", "fd-session",
    FIVE_DICE_OPTIONS, name="five-dice", title=N_("Aces"), counts="losers",
    measures=("agains",),
    # Translators: the help of "aces record" for the five-dice game: how dice
    # are typed. Keep the examples as they are.
    typing=N_("Type the dice of a roll as they fall, one digit a die, together or apart:"
              " 31425, 3-1-4-2-5, 3 1 4 2 5 or 3,1,4,2,5."),
    # Translators: under the field for typed dice on a group's page, five-dice game.
    notation=N_("Together or apart, as in aces record: 31425, 3-1-4-2-5 or 3 1 4 2 5; undo"
                " takes back the last roll."), holds=("dice", "centre"),
    simulation="aces.simulation.fivedice:FiveDiceSimulation.create",
    odds="aces.simulation.fivedice:table_odds", chances="aces.chances.fivedice:odds_of_table",
    expected="aces.experiment.fivedice:expected", page="aces.page.fivedice:page")

#: The built-in games, which are always registered.
_BUILT_IN: t.Final = {game.name: game for game in (POT, FIVE_DICE)}
_REGISTRY: dict[str, Registration[t.Any]] = dict(_BUILT_IN)


def register(game: Registration[t.Any]) -> None:
    """Add a game to the registry.

    :raises ValueError: if a game of that name is registered already.
    """
    if game.name in _REGISTRY:
        raise ValueError(f"a game called {game.name!r} is registered already")
    _REGISTRY[game.name] = game


def unregister(name: str) -> None:
    """Take a game out of the registry again (a game a test registered)."""
    if name not in _BUILT_IN:
        _REGISTRY.pop(name, None)


def registered() -> dict[str, Registration[t.Any]]:
    """Every game registered, by the name the log uses: the built-in ones
    first, then the others in the order they were registered."""
    return dict(_REGISTRY)


def declared() -> dict[str, tuple[Option, ...]]:
    """The command-line options of every game, by the name the log uses,
    known without loading any game's rules.

    >>> [option.key for option in declared()["five-dice"]]
    ['dice', 'threes', 'threes_to']
    """
    return {name: game.options for name, game in _REGISTRY.items()}


def registration(name: str) -> Registration[t.Any]:
    """The game called ``name``.

    :raises ~aces.errors.OptionError: for a game nobody registered.
    """
    game = _REGISTRY.get(name)
    if game is None:
        raise OptionError(
            "unknown game {name!r}; the games are: {known}",
            name=name,
            known=", ".join(sorted(_REGISTRY)),
        )
    return game


def game_named(name: str) -> Decider[t.Any]:
    """The rules of the game called ``name``; a built-in game's rules are
    loaded when it is first asked for, and nothing of the other games.

    :raises ~aces.errors.OptionError: for a game nobody registered.
    """
    return registration(name).rules


def games() -> dict[str, Decider[t.Any]]:
    """The rules of every game registered, by the name the log uses."""
    return {name: game.rules for name, game in _REGISTRY.items()}
