"""The one reader of logs: a checked fold of events through the rules, and its visitors.

:func:`walk` folds each game of a log through its game's ``evolve``, and
re-runs ``decide`` on every recorded roll: a consequence the rules would
not give, a roll by the wrong player, a die out of range, each stops the
walk at that line. Every consumer (verification, narration, a
walkthrough, a resumed recording, and whatever comes next: a page, the
statistics) is a :class:`Visitor` driven through the walk by
:func:`drive`, so nothing is ever narrated or counted past a bad event.

A visitor is a small class: :meth:`Visitor.visit` sees each step,
:meth:`Visitor.end` hears that the log is read to its end, and
:meth:`Visitor.result` gives what it gathered (as python-chess's
``BaseVisitor[ResultT]`` does for games of chess):

>>> import io
>>> from aces.events import GameOver
>>> from aces.log import read
>>> class Winners(Visitor[list[str]]):
...     def __init__(self) -> None:
...         self.names: list[str] = []
...     def visit(self, step: Step[t.Any]) -> None:
...         if isinstance(step.event, GameOver) and step.event.winner is not None:
...             self.names.append(step.event.winner)
...     def result(self) -> list[str]:
...         return self.names
>>> with open("replays/three-players.jsonl", "rb") as log:
...     drive(read(log, "three-players.jsonl"), "three-players.jsonl", Winners())
['Cy']

A ``roll_undone`` takes back the last roll of the game still standing:
:class:`Standing` keeps the rolls of the current game that an undo may
reach, with the state before each; the step of the undo carries the state
from before the roll it cancels, and the roll itself (:attr:`Step.undone`).
"""

from __future__ import annotations

import collections
import typing as t

import msgspec

from aces.errors import N_, AcesError, LogError, OptionError, Plural, RollError, shorten
from aces.events import GameExcluded, GameStarted, Rolled, RollUndone, type_name
from aces.games import game_named
from aces.log import Batch, Reader
from aces.rules import Decider, Roll

if t.TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from aces.events import Event
    from aces.log import Record
    from aces.rules import RollRequest

__all__ = ["STAGES", "UNDO_DEPTH", "Seam", "Stand", "Standing", "Step", "Visitor", "drive",
           "undo_depth", "unfinished", "waiting", "walk"]

#: How many rolls of one game an undo can reach back: far more than a
#: table ever takes back, few enough that a hostile log costs little memory.
UNDO_DEPTH: t.Final = 1000
#: Places in games (a state and what comes next) whose moves a walk
#: remembers, at the most: a session of 20,000 games at a table of four
#: visits some 8,000; a table of many players ever new ones, each state
#: holding every seat, so that a table remembers fewer, at most
#: :data:`POINT_SEATS` seats in all.
POINTS: t.Final = 50_000
POINT_SEATS: t.Final = 500_000
#: Times a walk forgets its places before it stops remembering them.
_FORGET_MOST: t.Final = 3
#: Seats, over all the states an undo can go back to, that a walk keeps: at
#: a table of thousands of players fewer rolls can be taken back, so that
#: the states kept never cost more than a few megabytes.
UNDO_SEATS: t.Final = 1_000_000

S = t.TypeVar("S")
ResultT = t.TypeVar("ResultT", covariant=True)

_ENCODER: t.Final = msgspec.json.Encoder()
_FACES: t.Final = frozenset(range(1, 7))
#: The longest event quoted in an error.
_QUOTE: t.Final = 200
_tuple_new: t.Final = tuple.__new__
# Translators: an error of a log. {player}: who should roll; {expected}: the
# dice that player holds and must roll; {count}: the dice in the log's roll.
_WRONG_COUNT: t.Final = Plural("{player} rolls {expected} die here, not {count}",
                               "{player} rolls {expected} dice here, not {count}",
                               by="expected")


# Translators: an error of a log. {game}: the number of the game a
# game_excluded event names; {count}: the games begun before it. Keep
# game_excluded as it is.
_NO_SUCH_GAME: t.Final = Plural("game_excluded names game {game}, but the log has begun only"
                                " {count} game by then",
                                "game_excluded names game {game}, but the log has begun only"
                                " {count} games by then", by="count")


class Stand(t.NamedTuple, t.Generic[S]):
    """A roll still standing: its line, the roll, the state before it, and
    the events the rules decided for it (the roll itself first)."""

    line: int
    roll: Rolled
    before: S
    decided: tuple[Event, ...]

    @property
    def settled(self) -> tuple[Event, ...]:
        """The events the roll settled, after the roll itself."""
        return self.decided[1:]


class Step(t.NamedTuple, t.Generic[S]):
    """An event that fits the rules, with the state it leads to."""

    line: int
    event: Event
    #: The game's state after ``event``.
    state: S
    game: Decider[S]
    #: The roll a ``roll_undone`` takes back (``None`` for every other event).
    undone: Stand[S] | None = None
    #: The rolls of the game still standing, as the walk keeps them: one
    #: object for the whole game, so a visitor that goes on from where the
    #: walk stops (the recorder) goes on with the walk's own.
    standing: Standing[S] | None = None


class Standing(t.Generic[S]):
    """The rolls of one game still standing, each with the state before it.

    The one keeper of what an undo may take back, for the walk, the
    recorder's :class:`~aces.record.Recording` and anyone else: rolls are
    :meth:`push`-ed as they are played, :meth:`undo` says the event that
    takes back the last one, and :meth:`pop` takes it back. Only the last
    :func:`undo_depth` rolls are kept, for a table of ``players``
    (:data:`UNDO_DEPTH` but at a table of thousands).
    """

    __slots__ = ("_lines", "_rolls", "keep", "keep_line")

    def __init__(self, players: int = 0) -> None:
        depth = undo_depth(players) if players else UNDO_DEPTH
        self._lines: collections.deque[int] = collections.deque(maxlen=depth)
        self._rolls: collections.deque[tuple[Rolled, S, tuple[Event, ...]]] = \
            collections.deque(maxlen=depth)
        #: Keep a roll just played, in two calls, as the walk does for every
        #: roll of a log: its line (:attr:`keep_line`), then the roll, the
        #: state before it and the events decided for it (:attr:`keep`), as
        #: one tuple, which the walk makes once for a roll from a place and
        #: remembers with the move. The deques' own appends: keeping a roll
        #: makes nothing new.
        self.keep_line: t.Callable[[int], None] = self._lines.append
        self.keep: t.Callable[[tuple[Rolled, S, tuple[Event, ...]]], None] = \
            self._rolls.append

    def push(self, line: int, roll: Rolled, before: S, decided: tuple[Event, ...]) -> None:
        """Keep a roll just played: its line, the roll, the state before it
        and the events decided for it (the roll itself first)."""
        self.keep_line(line)
        self.keep((roll, before, decided))

    @property
    def depth(self) -> int:
        """How many rolls back an undo can reach here."""
        return self._rolls.maxlen or 0

    def __len__(self) -> int:
        return len(self._rolls)

    def undo(self) -> RollUndone | None:
        """The event that takes back the last roll standing; ``None`` if none is left."""
        if not self._rolls:
            return None
        roll = self._rolls[-1][0]
        return RollUndone(undoes=self._lines[-1], player=roll.player, dice=roll.dice,
                          to=roll.to)

    def last(self) -> Stand[S] | None:
        """The last roll standing, with what the rules decided for it; ``None`` if none is left."""
        return Stand(self._lines[-1], *self._rolls[-1]) if self._rolls else None

    def pop(self) -> Stand[S]:
        """Take back the last roll standing, and give it."""
        return Stand(self._lines.pop(), *self._rolls.pop())


class Seam(t.NamedTuple):
    """Where a log walked in two parts (:mod:`aces.split`) is cut: before the
    line that begins a game, after a finished one, with what the walk carries
    from one game to the next."""

    #: The first line of the later part.
    line: int
    #: The games begun before it.
    games: int
    #: The games taken out of the pool before it.
    excluded: frozenset[int]


class Visitor(t.Generic[ResultT]):
    """Visits the steps of a walk, then gives a result.

    Subclasses override :meth:`visit` (each step, in order) and
    :meth:`result`, and :meth:`end` if the end of the log means something
    to them. :func:`drive` calls them; a visitor never sees a step past the
    first bad line, since the walk stops there.
    """

    #: The kinds of event whose steps :meth:`visit` sees (``None``: every
    #: step). A visitor that counts a few kinds of event (the verdict of
    #: ``aces verify``: games, wins, undos) names them, and :func:`drive`
    #: calls it for those alone, and for the last step of the walk whatever
    #: its kind, so that it knows where the log ends: a million steps of a
    #: big log cost a look-up each, not a call.
    kinds: t.ClassVar[frozenset[type] | None] = None

    def visit(self, step: Step[t.Any]) -> None:
        """One step of the walk: an event that fits the rules."""

    def end(self) -> None:
        """The log is read to its end, and every step of it was sound."""

    def result(self) -> ResultT:
        """What the visitor gathered."""
        raise NotImplementedError

    def carried(self) -> t.Hashable | None:
        """What the visitor carries from one game to the next, as a value that
        two visitors compare; ``None`` for a visitor that cannot be driven
        through a log in parts (:mod:`aces.split`), as by default.

        A visitor that can be says here all that its steps after the end of
        a game depend on: the counts of a session, say.
        """
        return None

    def passed(self, event: Event) -> None:
        """The start, the end or the exclusion of a game walked elsewhere, in
        order (:mod:`aces.split`): keep what :meth:`carried` says, telling
        nothing."""


def drive(records: Iterable[Record], source: str, visitor: Visitor[ResultT], *,
          allow_unfinished: bool = False, allow_unsettled: bool | None = None,
          start: Seam | None = None,
          meet: tuple[int, t.Callable[[Seam | None], None]] | None = None) -> ResultT:
    """Walk the log ``records`` through ``visitor``, and give its result.

    For a log walked in two parts (:mod:`aces.split`): ``start`` is where
    the later part begins, when ``records`` are its lines alone; ``meet``,
    a line and what to call once every line before it is walked (with the
    seam there, or ``None`` if no game ends just before it).

    :raises ~aces.errors.AcesError: at the first line that does not follow
        the rules or cannot be read (see :func:`walk`); the visitor has seen
        every step before it.
    """
    visit = visitor.visit
    for step in _walk(records, source, allow_unfinished, allow_unsettled, visitor.kinds,
                      start, meet):
        visit(step)
    visitor.end()
    return visitor.result()


def walk(
    records: Iterable[Record], source: str, *, allow_unfinished: bool = False,
    allow_unsettled: bool | None = None,
) -> Iterator[Step[t.Any]]:
    """Yield every event of the log once it is known to follow the rules.

    A last game that stops before it is over is an error too, unless
    ``allow_unfinished`` (a game still being recorded: see
    :func:`waiting`). A log that stops between a roll and what it settles
    is allowed with it too, unless ``allow_unsettled`` is false: only a
    recorder can finish what a crash cut short, so a reader calls it damage.

    :raises ~aces.errors.LogError: at the first line that does not follow
        the rules, or cannot be read (a
        :class:`~aces.errors.TruncatedLogError` for a log cut short).
    :raises ~aces.errors.OptionError: for a header whose options or players
        its game refuses, and :raises ~aces.errors.RollError: for a roll
        the rules refuse; both placed at their line.
    """
    return _walk(records, source, allow_unfinished, allow_unsettled, None, None, None)


def _walk(records: Iterable[Record], source: str, allow_unfinished: bool,
          allow_unsettled: bool | None, kinds: frozenset[type] | None, start: Seam | None,
          meet: tuple[int, t.Callable[[Seam | None], None]] | None) -> Iterator[Step[t.Any]]:
    """:func:`walk`, yielding only the steps of ``kinds`` (every step for
    ``None``) and the last step of the log whatever its kind, as
    :meth:`Visitor.kinds` asks: a step never yielded is never made; from
    ``start`` and to ``meet`` as :func:`drive` says."""
    # A reader hands over its lines a batch at a time, far cheaper than one
    # record at a time, each keyed by its bytes; other records come one by
    # one, each keyed by its event's identity (the move holds the event, so
    # that no other event can take its id while the move is remembered).
    seam, met = (0, None) if meet is None else meet
    if type(records) is Reader and not records.started:
        batches: Iterable[Batch] = records.batches(stop=seam or None)
    else:
        batches = (Batch(line, (id(event),), (event,).__getitem__) for line, event in records)
    new = _tuple_new
    #: Games begun so far, and those taken out of the pool.
    games = 0 if start is None else start.games
    excluded: set[int] = set() if start is None else set(start.excluded)
    points = _Points()
    # Before the first game, the log is where a finished game leaves it:
    # only a game's start may come next.
    here = _Point(None, (), None)
    game: Decider[t.Any] | None = None
    # Before the first game, a keeper of rolls that nothing reaches.
    standing: Standing[t.Any] = Standing()
    keep_line, keep = standing.keep_line, standing.keep
    line = 0
    event: Event | None = None
    undone: Stand[t.Any] | None = None
    for first, keys, event_of in batches:
        if first == seam and met is not None:
            met(Seam(first, games, frozenset(excluded))
                if game is not None and here.request is None and not here.pending else None)
        for line, key in enumerate(keys, first):
            # A line seen here before leads where it led then: the rules
            # are pure, and equal keys hold equal events. Where a roll's
            # consequence is due, the one line that may come is the first
            # seen (:attr:`_Point.seen`), found without a look-up (the
            # reader hands on one key object for equal lines).
            move = here.went if key is here.seen else here.moves.get(key)
            if move is not None:
                after, kept, wanted, event = move
                if kept is not None:  # a roll: what an undo may take back
                    keep_line(line)
                    keep(kept)
                here = after
                if wanted:
                    yield new(Step, (line, event, after.state, game, None, standing))
                continue
            event = event_of(line - first)
            pending = here.pending
            kind = type(event)
            wanted = kinds is None or kind in kinds
            if pending:
                consequence = pending[0]
                if event is not consequence and event != consequence:
                    raise LogError(source, line, "the rules give {expected} here,"
                                   " not {found}", expected=_show(consequence),
                                   found=_show(event))
                assert game is not None, "a consequence is due only in a game"
                after = points.at(game.evolve(here.state, consequence), pending[1:], game)
                here.learn(key, event, after, None, wanted)
                here = after
                if wanted:
                    yield new(Step, (line, event, here.state, game, None, standing))
                continue
            request = here.request
            if kind is not Rolled:
                if game is not None:
                    if kind is RollUndone:
                        undone = _undo(standing, t.cast("RollUndone", event), source, line)
                        here = points.at(undone.before, (), game)
                        if wanted:
                            yield new(Step, (line, event, here.state, game, undone, standing))
                        continue
                    if kind is GameExcluded:
                        _exclude(t.cast("GameExcluded", event), games, excluded, source, line)
                        if wanted:
                            yield new(Step, (line, event, here.state, game, None, standing))
                        continue
                if request is not None:
                    raise LogError(source, line, "{player} should roll here, but the log has"
                                   " a {type} event", player=shorten(request.player),
                                   type=type_name(event))
                if kind is not GameStarted:
                    _follow_finished(event, source, line)
                header = t.cast("GameStarted", event)
                try:
                    game = game_named(header.game)
                    state = game.start(header)
                except OptionError as exc:
                    exc.at(source, line)
                    raise
                games += 1
                standing = Standing(len(header.players))
                keep_line, keep = standing.keep_line, standing.keep
                points.table(len(header.players))
                here = points.at(state, (), game)
                if wanted:
                    yield new(Step, (line, header, state, game, None, standing))
                continue
            if request is None:
                _follow_finished(event, source, line)
            assert game is not None, "a roll is due only in a game"
            roll: Rolled = event  # type: ignore[assignment]  # checked above, for free
            player, count, stage = request
            dice = roll.dice
            if not (roll.player == player and roll.stage == stage and len(dice) == count
                    and _FACES.issuperset(dice)):
                _refuse_roll(roll, player, count, stage, source, line)
            state = here.state
            try:
                expected = game.decide(state, Roll(dice, roll.to))
            except (OptionError, RollError) as exc:
                exc.at(source, line)
                raise
            if expected[0] != roll:
                raise LogError(source, line, "the rules give {expected} here, not {found}",
                               expected=_show(expected[0]), found=_show(roll))
            kept = (roll, state, expected)
            keep_line(line)
            keep(kept)
            after = points.at(game.evolve(state, roll), expected[1:], game)
            here.learn(key, event, after, kept, wanted)
            here = after
            if wanted:
                yield new(Step, (line, roll, here.state, game, None, standing))
    if event is None:
        return
    _ended(here, line, source, allow_unfinished, allow_unsettled)
    if kinds is not None and type(event) not in kinds:
        # The last step, whatever its kind: where the log ends.
        yield new(Step, (line, event, here.state, game,
                         undone if type(event) is RollUndone else None, standing))


def _follow_finished(event: Event, source: str, line: int) -> t.NoReturn:
    """Refuse an event where only a game's start may come: first in a log, or
    after a finished game."""
    raise LogError(source, line, "a {type} event cannot follow a finished game;"
                   " a new game must begin with game_started", type=type_name(event))


def _ended(here: _Point, line: int, source: str, allow_unfinished: bool,
           allow_unsettled: bool | None) -> None:
    """The log ends at ``here``: fine if the game is over, or may be unfinished.

    :raises ~aces.errors.LogError: otherwise, at the last line read.
    """
    if here.pending:
        # A log being written may be read between a roll and its
        # consequences: that too is a game still being recorded.
        if allow_unfinished if allow_unsettled is None else allow_unsettled:
            return
        raise LogError(source, line, "the log ends before the roll is settled: {expected}"
                       " comes next", expected=_show(here.pending[0]))
    request = here.request
    if request is None or allow_unfinished:
        return
    raise LogError(source, line, "the log ends before the game is over:"
                   " {player} should roll next", player=shorten(request.player))


class _Point:
    """A place in a game that a walk has reached: the state there, and what
    comes next (the consequences still due of the last roll, or the roll
    the rules ask for), with every move already seen from it.

    Games of a log pass through the same places over and over (the same
    chips, the same player to roll); a move seen before is not decided and
    folded again, but taken from :attr:`moves`. So the rules run once for
    each place and line, and a long log costs a look-up an event (none
    where a roll's consequence is due: :attr:`seen`).
    """

    __slots__ = ("moves", "pending", "request", "seen", "state", "went")

    def __init__(self, state: t.Any, pending: tuple[Event, ...],
                 request: RollRequest | None) -> None:
        self.state = state
        #: The consequences of the last roll still to come, in order.
        self.pending = pending
        #: The roll the rules ask for here, once nothing is pending; ``None``
        #: once the game is over.
        self.request = request
        #: By the key of a line (:attr:`aces.log.Batch.keys`): the place it
        #: leads to, (for a roll) what an undo may take back, whether the
        #: walk hands on its step, and the line's event.
        self.moves: dict[t.Hashable, _Move] = {}
        #: Where a roll's consequence is due, the key of the first line
        #: learned here, and its move: the only line that may come, found
        #: without a look-up. Empty bytes before (and wherever a roll is
        #: due), which no line's key equals.
        self.seen: t.Hashable = b""
        self.went: _Move | None = None

    def learn(self, key: t.Hashable, event: Event, after: _Point,
              kept: tuple[Rolled, t.Any, tuple[Event, ...]] | None, wanted: bool) -> None:
        """Remember that the line of ``key`` (holding ``event``) leads from
        here to ``after``; ``kept``, for a roll, is what an undo may take back
        (:meth:`Standing.keep`)."""
        move = self.moves[key] = (after, kept, wanted, event)
        if self.pending and self.went is None:
            self.seen, self.went = key, move

    def forget(self) -> None:
        """Forget the moves from here (they hold the places they lead to)."""
        self.moves.clear()
        self.seen, self.went = b"", None


#: A move remembered (:attr:`_Point.moves`).
_Move = tuple["_Point", "tuple[Rolled, t.Any, tuple[Event, ...]] | None", bool, "Event"]


class _Points:
    """The places a walk has reached, one object for each (see :class:`_Point`),
    at most :data:`POINTS` of them (fewer at a large table): past that, they
    are forgotten and met afresh, so that a log of ever new places costs
    bounded memory."""

    __slots__ = ("_forgotten", "_known", "_most")

    def __init__(self) -> None:
        self._known: dict[tuple[t.Any, ...], _Point] = {}
        self._most = POINTS
        #: Times the places were forgotten: a log that keeps meeting new
        #: places is walked without remembering any after a few.
        self._forgotten = 0

    def table(self, players: int) -> None:
        """A game of ``players`` begins: its table's states hold a seat each."""
        self._most = max(1, min(POINTS, POINT_SEATS // players))

    def at(self, state: t.Any, pending: tuple[Event, ...], game: Decider[t.Any]) -> _Point:
        """The place of ``state`` with ``pending`` still to come."""
        if self._forgotten >= _FORGET_MOST:
            return _Point(state, pending, None if pending else game.next_roll(state))
        key = (_value(state), pending)
        try:
            point = self._known.get(key)
        except TypeError:  # a state with a field that cannot be a key
            return _Point(state, pending, None if pending else game.next_roll(state))
        if point is None:
            if len(self._known) >= self._most:
                for known in self._known.values():
                    known.forget()
                self._known.clear()
                self._forgotten += 1
            point = self._known[key] = _Point(state, pending,
                                              None if pending else game.next_roll(state))
        return point


def _value(state: t.Any) -> tuple[t.Any, ...]:
    """A state as a key: its type and its fields, a mapping by its identity
    (every state of a table shares its seats by name), so that two states
    with the same key are equal."""
    return (type(state), *(id(field) if type(field) is dict else field
                           for field in msgspec.structs.astuple(state)))


def _exclude(event: GameExcluded, games: int, excluded: set[int], source: str,
             line: int) -> None:
    """Take a game out of the pool, once it is known to be one of the log's."""
    number = event.game
    if not 1 <= number <= games:
        # Translators: an error of a log. {game}: the number of the game a
        # game_excluded event names; {count}: the games begun before it.
        # Keep game_excluded as it is.
        raise LogError(source, line, _NO_SUCH_GAME, game=shorten(number), count=games)
    if number in excluded:
        # Translators: an error of a log. {game}: a game's number. Keep
        # game_excluded as it is.
        raise LogError(source, line, "game_excluded takes game {game} out of the pool a second"
                       " time", game=number)
    excluded.add(number)


def undo_depth(players: int) -> int:
    """How many rolls an undo can reach back at a table of ``players``.

    >>> undo_depth(4), undo_depth(4000)
    (1000, 250)
    """
    return min(UNDO_DEPTH, max(10, UNDO_SEATS // players))


def waiting(step: Step[t.Any]) -> RollRequest | None:
    """The roll the game of ``step`` waits for after it: ``None`` once it is over.

    After the last step of a log, the roll of an unfinished game.
    """
    return step.game.next_roll(step.state)


def unfinished(last: Step[t.Any] | None) -> str | None:
    """Who rolls next in the game of ``last``, the last step of a log; ``None``
    if that game is over (or there was no step)."""
    if last is None:
        return None
    request = waiting(last)
    return None if request is None else request.player


def _undo(standing: Standing[S], undo: RollUndone, source: str, line: int) -> Stand[S]:
    """The roll ``undo`` takes back, once it is the right one."""
    expected = standing.undo()
    if expected is None:
        # Translators: an error of a log. {depth}: how many rolls back an
        # undo may reach; keep roll_undone as it is.
        raise LogError(source, line, "roll_undone, but no roll of this game is left to take"
                       " back (an undo reaches back at most {depth} rolls)",
                       depth=standing.depth)
    if undo != expected:
        raise LogError(source, line, "the rules give {expected} here, not {found}",
                       expected=_show(expected), found=_show(undo))
    return standing.pop()


#: The stages of a game by the names a log gives them, in words to translate (in an
#: error of a log, and in the table of every roll of a game in a notebook).
STAGES: t.Final = {
    # Translators: in an error of a log, the stage a roll belongs to: the
    # opening, where everyone rolls to see who starts.
    "opening": N_("opening"),
    # Translators: in an error of a log, the stage a roll belongs to: a
    # player's turn in normal play.
    "turn": N_("turn"),
    # Translators: in an error of a log, the stage a roll belongs to: a try
    # for the pot (three rolls without a six).
    "try": N_("try"),
}


def _stage(name: str) -> AcesError | str:
    """A stage of the game in words of the user's language."""
    words = STAGES.get(name)
    return shorten(name) if words is None else AcesError(words)


def _refuse_roll(roll: Rolled, player: str, dice: int, stage: str, source: str,
                 line: int) -> t.NoReturn:
    if roll.player != player or roll.stage != stage:
        # Translators: an error of a log. {player} and {stage}: who should
        # roll and in which stage of the game (opening, turn or try); {found}
        # and {found_stage}: the roll the log has instead.
        raise LogError(source, line, "{player} should roll here ({stage}), not {found}"
                       " ({found_stage})", player=shorten(player), stage=_stage(stage),
                       found=shorten(roll.player), found_stage=_stage(roll.stage))
    if len(roll.dice) != dice:
        raise LogError(source, line, _WRONG_COUNT, player=shorten(player), expected=dice,
                       count=len(roll.dice))
    value = next(v for v in roll.dice if v not in _FACES)
    raise LogError(source, line, "{value} is not a face of a die (1 to 6)", value=shorten(value))


def _show(event: Event) -> str:
    """An event as the log writes it, cut short if it is long."""
    return shorten(_ENCODER.encode(event).decode(), _QUOTE)
