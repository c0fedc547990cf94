"""Recording a game played with real dice: the fold behind ``aces record``.

:class:`Recording` is the game at the table as the log tells it so far, and
says what may come next: whose roll, how many dice, and what a roll or an
``undo`` appends. It reads nothing and writes nothing; the command line
drives the walk of the log it resumes through it (it is a
:class:`~aces.walk.Visitor`), feeds it the rolls typed in
(:meth:`Recording.play`) and the undos (:meth:`Recording.undo`), and appends the
steps these return to the log before it shows them. What an undo may take
back is kept by a :class:`~aces.walk.Standing`, as in the walk.

The fold is the walk's (:mod:`aces.walk`), so what is recorded verifies:

>>> from aces.engine import header
>>> from aces.rules import Roll
>>> from aces.games import game_named
>>> table = Recording()
>>> pot = game_named("pot")
>>> table.begin(header(pot, ["Ada", "Bo"], {}))
>>> [type(s.event).__name__ for s in table.play(Roll((3,)))]
['GameStarted', 'Rolled']
>>> [type(s.event).__name__ for s in table.play(Roll((5,)))]
['Rolled', 'OpeningWon']
>>> table.request()
RollRequest(player='Bo', dice=2, stage='turn')
>>> [s.event for s in table.undo()]
[RollUndone(undoes=3, player='Bo', dice=(5,), to=())]
>>> table.request()
RollRequest(player='Bo', dice=1, stage='opening')
"""

from __future__ import annotations

import collections
import typing as t

from aces.errors import AcesError
from aces.events import GameExcluded, GameStarted, Rolled, RollUndone
from aces.games import game_named
from aces.rules.pot import TRY_ROLLS
from aces.walk import Standing, Step, Visitor

if t.TYPE_CHECKING:
    from aces.events import Event
    from aces.narrate import Narrator
    from aces.rules import Decider, Roll, RollRequest
    from aces.voice import Voice

__all__ = ["Recording", "Resumed", "prompt"]


class _Game(t.NamedTuple):
    """One game at the table: what :meth:`Recording.undo` may need to go back to."""

    rules: Decider[t.Any]
    header: GameStarted
    state: t.Any
    standing: Standing[t.Any]


class Recording(Visitor["Recording"]):
    """The games of one log, as recorded so far."""

    def __init__(self) -> None:
        #: The sequence number of the last line in the log.
        self.seq = 0
        #: Games begun in the log (a header not yet written counts).
        self.games = 0
        self._game: _Game | None = None
        #: Consequences the rules give for the last roll that are not in the
        #: log yet: it stopped part-way through writing them.
        self._pending: list[Event] = []
        #: A new game begun but not yet written: its header goes with its
        #: first roll, so that an undo until then reaches the finished game.
        self._unwritten = False
        self._finished: _Game | None = None

    # -- What the log holds ----------------------------------------------------

    @property
    def header(self) -> GameStarted | None:
        """The header of the current game, if there is one."""
        return None if self._game is None else self._game.header

    @property
    def state(self) -> t.Any:
        """The state of the current game (``None`` before the first)."""
        return None if self._game is None else self._game.state

    @property
    def rolls(self) -> int:
        """Rolls of the current game still standing (none taken back)."""
        return 0 if self._game is None else len(self._game.standing)

    def request(self) -> RollRequest | None:
        """The roll the current game waits for; ``None`` if it is over or unstarted."""
        if self._game is None or self._pending:
            return None
        return self._game.rules.next_roll(self._game.state)

    @property
    def unsettled(self) -> bool:
        """Whether the log stops part-way through settling its last roll."""
        return bool(self._pending)

    @property
    def unwritten(self) -> bool:
        """Whether the current game's header is still to be written."""
        return self._unwritten

    def visit(self, step: Step[t.Any]) -> None:
        """Take in one step of the log being resumed, as the walk yields it."""
        self.seq = step.line
        event = step.event
        kind = type(event)
        if kind is GameStarted:
            self.games += 1
            assert step.standing is not None, "a step of a walk"
            # The walk's own keeper of the rolls standing: it pushes and pops
            # them as the log goes; the table goes on with it from the end.
            self._game = _Game(step.game, t.cast("GameStarted", event), step.state,
                               step.standing)
            self._pending = []
            return
        game = self._game
        assert game is not None, "a walk begins with game_started"
        if kind is Rolled:
            # What the rules settle for it, as the walk decided it.
            last = game.standing.last()
            assert last is not None, "the walk keeps every roll it yields"
            self._pending = list(last.settled)
        elif kind is RollUndone:
            self._pending = []
        elif kind is GameExcluded:
            # Said of a game, not a consequence of the last roll.
            pass
        elif self._pending:
            self._pending.pop(0)
        self._game = game._replace(state=step.state)

    def result(self) -> Recording:
        return self

    # -- What may come next ----------------------------------------------------

    def begin(self, header: GameStarted) -> None:
        """Begin a new game; its header is written with its first roll (see
        :meth:`start`), so an undo before then goes to the game before it."""
        game = game_named(header.game)
        self._finished = self._game
        self.games += 1
        self._game = _Game(game, header, game.start(header), Standing(len(header.players)))
        self._unwritten = True

    def start(self) -> list[Step[t.Any]]:
        """The header of the game begun, to write now rather than with its first roll."""
        if not self._unwritten:
            return []
        self._unwritten = False
        self._finished = None
        game = self._game
        assert game is not None
        self.seq += 1
        return [Step(self.seq, game.header, game.state, game.rules, None, game.standing)]

    def settle(self) -> list[Step[t.Any]]:
        """The consequences of the last roll that the log stopped before."""
        steps = self._apply(self._pending)
        self._pending = []
        return steps

    def play(self, roll: Roll) -> list[Step[t.Any]]:
        """The steps a roll appends: the roll and all it settles.

        The rules check the roll (``RollError``); the caller has checked that
        it has as many dice as :meth:`request` asks for.
        """
        game = self._game
        assert game is not None, "no game is begun"
        assert self.request() is not None, "no roll is due"
        before = game.state
        events = game.rules.decide(before, roll)
        steps = self.start()
        line = self.seq + 1
        steps += self._apply(events)
        game.standing.push(line, t.cast("Rolled", events[0]), before, events)
        return steps

    def undo(self) -> list[Step[t.Any]]:
        """The step that takes back the last roll still standing.

        :raises ~aces.errors.AcesError: when there is none.
        """
        if self._unwritten and self._finished is not None:
            # Nothing of the new game is written: go back to the finished one.
            self._game, self._finished = self._finished, None
            self._unwritten = False
            self.games -= 1
        game = self._game
        event = None if game is None else game.standing.undo()
        if game is None or event is None:
            # Translators: why "undo" is refused at the table.
            raise AcesError("there is no roll of this game to take back")
        undone = game.standing.pop()
        self.seq += 1
        self._game = game._replace(state=undone.before)
        return [Step(self.seq, event, undone.before, game.rules, undone, game.standing)]

    def note(self, event: Event) -> list[Step[t.Any]]:
        """The step of an event that changes no game (a game taken out of the
        class's pool, :class:`~aces.events.GameExcluded`), at the log's end."""
        game = self._game
        assert game is not None, "no game is begun"
        assert not self._pending, "the last roll is settled"
        assert not self._unwritten, "no game is begun unwritten"
        self.seq += 1
        return [Step(self.seq, event, game.state, game.rules, None, game.standing)]

    def _apply(self, events: t.Iterable[Event]) -> list[Step[t.Any]]:
        game = self._game
        assert game is not None
        state, evolve = game.state, game.rules.evolve
        steps: list[Step[t.Any]] = []
        for event in events:
            state = evolve(state, event)
            self.seq += 1
            steps.append(Step(self.seq, event, state, game.rules, None, game.standing))
        self._game = game._replace(state=state)
        return steps


class Resumed(Visitor[None]):
    """A log being resumed: walked into ``table``, and told by ``narrator``,
    of whose story the last ``keep`` lines of the last game are kept to show."""

    def __init__(self, table: Recording, narrator: Narrator, keep: int) -> None:
        self.table = table
        self.narrator = narrator
        self.story: collections.deque[str] = collections.deque(maxlen=keep)

    def visit(self, step: Step[t.Any]) -> None:
        self.table.visit(step)
        if type(step.event) is GameStarted:
            self.story.clear()
        self.narrator.visit(step)
        self.story.extend(self.narrator.take())

    def result(self) -> None:
        return None


def prompt(request: RollRequest, state: t.Any, voice: Voice) -> str:
    """What the table is asked for a roll, in ``voice``'s language, ending in
    ``": "`` as a terminal prompts: «Kari kaster én terning (åpningskast): ».

    The one wording of the question, for ``aces record`` and the pupils'
    page of the live class alike; ``state`` is the game's, which says which
    roll of a try it is.
    """
    # A small count in words, as the narration writes it («to terninger»).
    values = {"player": request.player, "count": voice.count(request.dice)}
    if request.stage == "opening":
        # Translators: the prompt of "aces record" for an opening roll.
        # {player}: who rolls; {count}: how many dice.
        return voice.ngettext("{player} rolls {count} die for the opening: ",
                              "{player} rolls {count} dice for the opening: ",
                              request.dice).format(**values)
    if request.stage == "try":
        # Translators: the prompt of "aces record" for a roll of a try.
        # {player}: who rolls; {count}: how many dice; {number}: which
        # roll of the try; {total}: the rolls in a try (3).
        return voice.ngettext("{player} rolls {count} die, roll {number} of {total} of the"
                              " try: ",
                              "{player} rolls {count} dice, roll {number} of {total} of the"
                              " try: ", request.dice).format(
            number=getattr(state, "try_rolls", 0) + 1, total=TRY_ROLLS, **values)
    # Translators: the prompt of "aces record" for a roll in a turn.
    # {player}: who rolls; {count}: how many dice.
    return voice.ngettext("{player} rolls {count} die: ", "{player} rolls {count} dice: ",
                          request.dice).format(**values)
