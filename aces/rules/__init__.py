"""The games' rules as pure functions: each game a decider.

A game is a *decider*: an initial state built from the header, a function
that says who rolls next, one that decides which events a roll produces,
and one that evolves a state by one event. Nothing here reads a file, draws
a random number or chooses a word; the engine, the log reader, the
narration and the odds all call these same functions.
"""

from __future__ import annotations

import functools
import re
import typing as t
import unicodedata
from dataclasses import dataclass

import msgspec

from aces.errors import INVISIBLE, OptionError
from aces.memo import OBJECT, REF, Memo, weigh
from aces.rules.lookalike import first_difference, skeleton

if t.TYPE_CHECKING:
    import random
    from collections.abc import Mapping, Sequence

    from aces.events import Event, GameStarted, Stage

__all__ = ["STARTS_BUDGET", "Decider", "OptionValue", "Roll", "RollRequest", "check_names",
           "check_receivers", "decisions", "evolver", "keep_decisions", "name_key", "on",
           "parse_options", "started"]

S = t.TypeVar("S")
E = t.TypeVar("E")
Opts = t.TypeVar("Opts", bound=msgspec.Struct)

OptionValue = int | str | bool


class RollRequest(t.NamedTuple):
    """Who rolls next, how many dice, and in which stage of the game."""

    player: str
    dice: int
    stage: Stage


class Roll(msgspec.Struct, frozen=True):
    """The command a decider answers: the dice as they fell.

    ``to`` names the receivers of dice the roller chooses to give away (the
    five-dice game's ``threes`` variation), one per such die in order.
    """

    dice: tuple[int, ...]
    to: tuple[str, ...] = ()


@dataclass(frozen=True)
class Decider(t.Generic[S]):
    """One game's rules, as the functions of a decider (its name, options,
    the state it starts from, whose roll is next, what a roll decides, how
    an event evolves a state); a game's registration (:mod:`aces.games`)
    brings it with everything else the game has."""

    #: The name written in the log header and accepted by ``--game``.
    name: str
    #: Validates and completes options; raises :class:`OptionError`.
    options: t.Callable[[Mapping[str, OptionValue]], dict[str, OptionValue]]
    #: The fewest players the game is played by.
    min_players: int
    start: t.Callable[[GameStarted], S]
    next_roll: t.Callable[[S], RollRequest | None]
    decide: t.Callable[[S, Roll], tuple[Event, ...]]
    evolve: t.Callable[[S, Event], S]
    #: The most dice one roll of a game with this header can show, and the
    #: most receivers it can name: what the widest line of its log holds.
    widest_roll: t.Callable[[GameStarted], tuple[int, int]]
    #: For generated dice, the receivers of dice given by choice (``Roll.to``),
    #: drawn with the dice's own generator; ``None`` in a game without choices.
    choose: t.Callable[[S, tuple[int, ...], random.Random], tuple[str, ...]] | None = None
    #: What a game's length grows with: the chips (or dice) at a table with
    #: this header; ``None``: one a player.
    pieces: t.Callable[[GameStarted], int] | None = None

    def check_players(self, players: Sequence[str]) -> None:
        """Refuse seats the game cannot be played with.

        :raises ~aces.errors.OptionError: for fewer than :attr:`min_players`
            or unusable names (see :func:`check_names`).
        """
        check_names(players, self.min_players)


def on(kind: type[E], handler: t.Callable[[S, E], S]) -> tuple[type, t.Callable[[S, t.Any], S]]:
    """One entry of an ``evolve`` table: the handler of events of ``kind``.

    The type checker sees that ``handler`` takes that kind of event, so
    every field it reads is checked; the table itself is a dictionary by
    type, one lookup an event, as cheap as dispatch gets.

    >>> from aces.events import TryWon
    >>> kind, handler = on(TryWon, lambda state, event: state + [event.player])
    >>> handler([], TryWon(player="Bo"))
    ['Bo']
    """
    return kind, handler


def evolver(*handlers: tuple[type, t.Callable[[S, t.Any], S]]) -> t.Callable[[S, Event], S]:
    """A game's ``evolve``, from its handlers filed with :func:`on`.

    >>> from aces.events import TryStarted, TryWon
    >>> evolve = evolver(on(TryWon, lambda state, event: [*state, event.player]))
    >>> evolve([], TryWon(player="Bo")), evolve([], TryStarted(player="Bo"))
    (['Bo'], [])
    """
    get = dict(handlers).get

    def evolve(state: S, event: Event) -> S:
        """The state after one event. Pure: ``state`` is never changed, and
        an event that changes nothing in this game leaves it as it is."""
        handler = get(type(event))
        return state if handler is None else handler(state, event)

    return evolve


def parse_options(raw: Mapping[str, OptionValue], kind: type[Opts], invalid: str) -> Opts:
    """A game's options as written in its header, read into ``kind``: a
    struct of the game's options that forbids unknown fields, whose
    defaults fill in what ``raw`` leaves out. Its fields, in order, are
    what a game's ``options`` returns: ``msgspec.structs.asdict``.

    :raises ~aces.errors.OptionError: with ``invalid``, a message whose
        ``{detail}`` says which option the game does not have or which
        value is of the wrong kind.
    """
    try:
        return msgspec.convert(dict(raw), type=kind)
    except msgspec.ValidationError as exc:
        raise OptionError(invalid, detail=str(exc)) from None


#: The bytes of the states before a game that a game's start remembers
#: (:func:`started`): a few hundred tables of four.
STARTS_BUDGET: t.Final = 1 << 20


def started(make: t.Callable[[tuple[str, ...], Mapping[str, OptionValue]], S]
            ) -> t.Callable[[GameStarted], S]:
    """A game's ``start``, from ``make``, which builds the state before a
    game out of its players and options alone.

    Every game of a session starts alike, and a state is a value: the state
    is made once for each table and options, and every game that starts so
    is handed the same (its players the very same tuple, which the rules'
    memo then compares at once). ``make`` is given nothing else of the
    header, so nothing it reads can be missing from the key; the states are
    remembered within :data:`STARTS_BUDGET` bytes.
    """

    made: Memo[tuple[t.Any, ...], S] = Memo(STARTS_BUDGET)

    @functools.wraps(make)
    def start(header: GameStarted) -> S:
        players = header.players
        key = (players, tuple(header.options.items()))
        state = made.get(key)
        if state is None:
            # The names are the key's; the state adds a few objects, and
            # three or four references a seat (its seat by name, its
            # holding, its place in the opening).
            state = made.keep(key, make(players, header.options),
                              weigh(key) + 8 * OBJECT + 4 * REF * len(players))
        return state

    return start


#: Every game's memo of decisions (:func:`decisions`), for :func:`keep_decisions`.
_DECISIONS: list[Memo[tuple[t.Any, ...], tuple[Event, ...]]] = []


def decisions(budget: int) -> Memo[tuple[t.Any, ...], tuple[Event, ...]]:
    """A game's memo of the events its rolls decide, within ``budget`` bytes
    until :func:`keep_decisions` says otherwise: one place that knows every
    game's memo, so a process can bound them all without naming a game."""
    memo: Memo[tuple[t.Any, ...], tuple[Event, ...]] = Memo(budget)
    _DECISIONS.append(memo)
    return memo


def keep_decisions(budget: int) -> None:
    """Keep at most ``budget`` bytes of decisions in each game's memo from now
    on, in place of the game's own budget: for a process that decides a roll
    at a time, as it comes (a class server), where a memo saves less than a
    microsecond a roll and the server's memory is to be steady early. What a
    memo holds beyond the new budget is forgotten now."""
    for memo in _DECISIONS:
        memo.budget = budget
        if memo.weight > budget:
            memo.clear()


#: What a receiver typed after ``>`` cannot hold: it separates or ends names.
_NOT_IN_RECEIVERS: t.Final = re.compile(r"[\s,#>]")


def name_key(name: str) -> str:
    """A name as people see it: in NFC, without characters that show nothing.

    Two names with the same key cannot be told apart at the table: ``Åse``
    typed as one character or as ``A`` and a ring, ``Bo`` with a Hangul
    filler after it, an emoji with and without its variation selector.

    >>> name_key("A\u030ase") == name_key("\u00c5se"), name_key("Bo\u3164") == "Bo"
    (True, True)
    """
    return INVISIBLE.sub("", unicodedata.normalize("NFC", name))


def check_receivers(players: Sequence[str]) -> None:
    """Refuse names that a typed roll could not name after ``>`` (a game in
    which dice are given by choice): each must be one word, without ``#``,
    ``>`` or a comma, and tell apart from the others in any case.

    :raises ~aces.errors.OptionError: naming the first that cannot be named.
    """
    seen: dict[str, str] = {}
    for name in players:
        if _NOT_IN_RECEIVERS.search(name):
            # Translators: an error of a five-dice game in which each 3 goes
            # to a player the roller names. {name}: a player's name.
            raise OptionError("{name!r} cannot be named as the receiver of a 3 in a typed roll,"
                              " since it holds a space, a comma, '#' or '>'; in this game"
                              " every name must be one word without them", name=name)
        folded = name_key(name).casefold()
        if folded in seen:
            # Translators: an error of a five-dice game in which each 3 goes
            # to a player the roller names, in any case. {first} and
            # {second}: two players' names.
            raise OptionError("{first!r} and {second!r} differ only in capitals, so a typed roll"
                              " cannot tell them apart as receivers of a 3; give them names"
                              " that differ in letters", first=seen[folded], second=name)
        seen[folded] = name


def check_names(players: Sequence[str], minimum: int) -> None:
    """Seats need distinct, non-empty names, and at least ``minimum`` of them.

    Names are told apart as people see them (:func:`name_key`, then
    Unicode's confusable skeleton, :mod:`aces.rules.lookalike`): two that
    look the same are refused, naming both.

    :raises ~aces.errors.OptionError: naming the first seat that breaks this.
    """
    _check_names(tuple(players), minimum)


@functools.lru_cache(maxsize=16)
def _check_names(players: tuple[str, ...], minimum: int) -> None:
    """:func:`check_names`, remembered: every game of a session starts with
    the same seats, and a log of 20,000 games checks them once."""
    if len(players) < minimum:
        raise OptionError(
            "this game needs at least {minimum} players, not {count}",
            minimum=minimum,
            count=len(players),
        )
    for name in players:
        if not name_key(name).strip() or name != name.strip():
            raise OptionError("a player's name is empty or has spaces around it: {name!r}",
                              name=name)
        if not name.isprintable():
            # Translators: an error. {name}: a player's name holding a line
            # break, a tab, a terminal's control code or the like, escaped.
            raise OptionError("a player's name holds a character that cannot be shown on a"
                              " line: {name!r}", name=name)
    named: set[str] = set()
    seen: dict[str, str] = {}
    for name in players:
        if name in named:
            raise OptionError("two players share the name {name}", name=name)
        key = skeleton(name_key(name))
        if key in seen:
            raise _lookalikes(seen[key], name)
        named.add(name)
        seen[key] = name


def _lookalikes(first: str, second: str) -> OptionError:
    """The refusal of two names that look the same, saying where they differ
    when they differ in characters that show (letters of two alphabets)."""
    differ = first_difference(name_key(first), name_key(second))
    if differ is None or name_key(first) == name_key(second):
        # Translators: an error. {first} and {second}: two players' names
        # that look the same (written with different characters, or with
        # characters that show nothing), escaped.
        return OptionError("{first!r} and {second!r} look the same, so people could not tell"
                           " the players apart; give them different names",
                           first=first, second=second)
    one, other = differ
    codes = [f"U+{ord(char):04X}" for char in differ]
    # Translators: an error. {first} and {second}: two players' names
    # that look the same, though written with different characters, such
    # as Latin «Bo» and Bo in Cyrillic letters; {one} and {other}: the first
    # characters in which they differ, each followed by its code point
    # ({one_code}, {other_code}: like U+0042).
    return OptionError("{first!r} and {second!r} look the same, though one has {one!r}"
                       " ({one_code}) where the other has {other!r} ({other_code}), so people"
                       " could not tell the players apart; give them different names",
                       first=first, second=second, one=one, other=other,
                       one_code=codes[0], other_code=codes[1])
