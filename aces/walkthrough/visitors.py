"""Building a walkthrough: the visitors of a walk that gather its parts, the
replay's narration with each rule explained once and the standings as
tables, and the walk of a log through them.
"""

from __future__ import annotations

import collections
import typing as t

from aces.chances import budget
from aces.errors import AcesError, Plural
from aces.events import (
    GameOver,
    GameStarted,
    Rolled,
    RollUndone,
)
from aces.games import registration
from aces.memo import Memo, weigh
from aces.narrate import Narrator
from aces.narrate.chances import (
    ChanceNarrator,
    ChanceTeller,
    Moment,
    TurningPoints,
    measure_of,
    say_turning_point,
)
from aces.narrate.phrasebook import LARGE_TABLE, changed_seats, few_holders
from aces.voice import Voice
from aces.walk import UNDO_DEPTH, Visitor, drive, undo_depth, walk
from aces.walkthrough.parts import MEMO_BUDGET, Aside, Part, Standings, Told, new_told
from aces.walkthrough.texts import RULES, TURNING_POINTS, explain

if t.TYPE_CHECKING:
    import gettext
    from collections.abc import Callable, Iterable, Iterator, Sequence

    from aces.games import Holding, Registration
    from aces.log import Record
    from aces.narrate.phrasebook import Phrasebook
    from aces.walk import Step

__all__ = ["CHANCES_CHUNK", "MOST_ESTIMATED", "Corrected", "Walkthrough", "one_game", "stream",
           "walkthrough"]


ResultT = t.TypeVar("ResultT")

#: Settled rolls whose chances are worked out together (estimates share a
#: simulation), so that what waits stays bounded however long the game.
CHANCES_CHUNK: t.Final = 256
#: The most rolls of one log whose chances a walkthrough estimates, a few
#: seconds of simulation (:class:`aces.chances.budget.Budget`, which bounds the
#: simulated rolls too); the games after them are told without turning points.
MOST_ESTIMATED: t.Final = budget.MOST_ESTIMATED


def _holdings(voice: Voice, holding: Holding, label: str, shown: Holding, *,
              full: bool = False) -> Standings:
    """A state's standings as a table: each player's chips or dice, then the pot or centre.

    At a large table (more than :data:`~aces.narrate.phrasebook.LARGE_TABLE`
    players) only the players whose holdings changed since ``shown`` get a
    column; with ``full`` (a milestone), those who hold anything, when they
    are few, and one column for everyone else, who holds nothing: as in the
    replay's standings line.
    """
    players: Sequence[str] = holding.players
    held = holding.held
    if len(players) > LARGE_TABLE:
        holders = few_holders(held) if full else None
        seats = changed_seats(held, shown.held) if holders is None else holders
        players, held = [players[s] for s in seats], tuple(held[s] for s in seats)
        if holders is not None:
            # Translators: a column of the standings table of "aces
            # walkthrough" at a table of many players when the finish begins:
            # every player but those named before it, each holding nothing.
            players, held = [*players, voice.gettext("Everyone else")], (*held, 0)
    return Standings((*players, label), tuple(voice.number(n) for n in (*held, holding.out)))


class Walkthrough(Visitor[list[Part]]):
    """A visitor of the steps of a walk, gathering the parts of a walkthrough.

    The narration is the replay's own (:class:`~aces.narrate.Narrator`); the
    standings it has due when a roll is settled become a table, and the
    first step to put a rule into play gets that rule's aside.
    """

    def __init__(self, catalog: gettext.NullTranslations, lang: str, *, game: int | None = None,
                 odds: bool = False, turning_points: bool = True) -> None:
        self.voice = Voice(catalog, lang)
        #: With ``odds``, each player's chance after every roll, as ``aces replay --odds``.
        self.narrator = (ChanceNarrator if odds else Narrator)(catalog, lang)
        #: The one game of the log being told, if only one is (from 1): its
        #: rules are explained as if it stood alone, and the others' chances
        #: are never worked out (the parts of the others are left out by
        #: :func:`one_game`).
        self.game = game
        self.turning_points = turning_points
        self.parts: list[Part] = []
        self.explained: set[str] = set()
        # Translators: the label of each rule aside of "aces walkthrough".
        self.label = self.voice.gettext("Rule")
        self._book: Phrasebook | None = None
        self._books: dict[str, Phrasebook] = {}
        self._game: Registration[t.Any] | None = None
        #: The game's rulebook, asked after every step (read once a game).
        self._rulebook: Callable[[Step[t.Any], t.Any], Sequence[str]] | None = None
        self._state: t.Any = None
        self._holding: Holding | None = None
        #: What the players held after the last event that changed it.
        self._moved: Holding | None = None
        #: What the last standings table of this game showed (or its start).
        self._shown: Holding | None = None
        #: Asides of the roll being settled, told once it is.
        self._pending: list[Aside] = []
        #: The standings tables of small tables, by holding and label.
        self._tables: Memo[tuple[Holding, str], Standings] = Memo(MEMO_BUDGET)
        #: Each player's chance after every roll of the game, for its turning points.
        self._teller = ChanceTeller()
        self._turns: TurningPoints | None = None
        #: Settled rolls (number, roll, state after it; roll ``None`` for the
        #: game's start) whose chances are still to be worked out.
        self._unsettled: list[tuple[int, Rolled | None, t.Any]] = []
        #: What the estimated chances of the log may still cost.
        self._budget = budget.Budget(rolls=MOST_ESTIMATED)
        #: The game's chances are followed (not a game past the estimates' budget).
        self._following = False
        self._past_budget = False
        self._budget_said = False

    def visit(self, step: Step[t.Any]) -> None:
        """Tell one step; its asides wait until the roll that caused them is settled."""
        event = step.event
        kind = type(event)
        narrator = self.narrator
        if (kind is GameStarted or kind not in narrator.settling) and (
                self._pending or narrator.due is not None):
            self._settle(full=kind in narrator.milestones)
        if (kind is Rolled or kind is GameStarted) and self.turning_points:
            self._follow(step, kind)
        narrator.visit(step)
        if kind is GameStarted:
            self._start(t.cast("GameStarted", event))
            if narrator.games == self.game:
                self.explained.clear()
        lines = narrator.lines
        if lines:
            self.parts.append(new_told((tuple(lines), kind is GameStarted)))
            lines.clear()
        game = self._game
        assert game is not None, "walk() always begins with game_started"
        if kind in narrator.moving or kind is RollUndone or kind is GameStarted:
            # Only these move chips or dice (the narrator's standings rely
            # on it too): every other step leaves the holdings as they were.
            holding = game.holding(step.state)
            if kind is GameStarted:
                self._shown = holding
            if holding != self._holding:
                # Chips or dice moved (or a roll was taken back): the standings
                # the narrator has due are these.
                self._moved = holding
            self._holding = holding
        before, self._state = self._state, step.state
        if kind is GameOver and self.turning_points:
            self._turning_points()
        if kind is GameStarted:
            if narrator.games > 1 and game.session_rule is not None:
                self._explain(game.session_rule, step.state)
            return
        rulebook = self._rulebook
        assert rulebook is not None, "a game's rulebook is read at its start"
        for rule in rulebook(step, before):
            self._explain(rule, step.state)

    def _follow(self, step: Step[t.Any], kind: type) -> None:
        """Each player's chance once a roll is settled, for the turning points:
        at the next roll, or the start of the next game, the roll before it
        has settled in the state of the step before."""
        teller = self._teller
        if teller.due(step):
            self._queue(teller.settled(self._state))
        teller.take(step)
        if kind is GameStarted:
            self._turns = None
            self._unsettled = []
            odds = teller.odds
            # The game starting is the narrator's next.
            told = self.game is None or self.game == self.narrator.games + 1
            self._following = told and odds is not None and (
                odds.exact or not self._budget.spent)
            self._past_budget = told and odds is not None and not self._following
            if self._following:
                self._unsettled.append((0, None, teller.start_state()))

    def _queue(self, settled: tuple[int, Rolled, t.Any] | None) -> None:
        if settled is None or not self._following:
            return
        self._unsettled.append(settled)
        if len(self._unsettled) >= CHANCES_CHUNK:
            self._chances()

    def _chances(self) -> None:
        """The chances of the rolls waiting, worked out together, fed to the
        turning points; a game that passes the estimates' budget has none."""
        odds, pending, self._unsettled = self._teller.odds, self._unsettled, []
        if odds is None or not pending or not self._following:
            return
        states = [state for _, _, state in pending]
        if self._budget.grant(odds, states) < len(states):
            self._following, self._past_budget, self._turns = False, True, None
            return
        for (number, roll, _), chances in zip(
                pending, odds.chances_of(states), strict=True):
            if roll is None:
                self._turns = TurningPoints(chances)
            elif self._turns is not None:
                self._turns.add(Moment(number, roll, chances))

    def _turning_points(self) -> None:
        """The rolls that moved a chance most, once the game is over.

        Where the chances are estimated, each is said with its margin; past
        :data:`MOST_ESTIMATED` rolls of estimates in a log, the walkthrough
        says once that the turning points are left out from here on.
        """
        teller = self._teller
        self._queue(teller.settled(self._state, over=True))
        self._chances()
        turns, header = self._turns, teller.header
        self._turns, self._following = None, False
        # Translators: the label of the aside of "aces walkthrough" that
        # names the rolls that moved a player's chance most.
        label = self.voice.gettext("Turning points")
        if self._past_budget:
            self._past_budget = False
            if not self._budget_said:
                self._budget_said = True
                # Translators: in "aces walkthrough", once, at the first game
                # past the limit. {count}: the most rolls whose chances a
                # walkthrough estimates by simulation, in a log.
                said = self.voice.gettext(
                    "From this game on, no turning points: the chances of a game this large"
                    " are estimated by simulation, which a walkthrough does for at most"
                    " {count} rolls of a log or a few seconds of simulation.").format(
                        count=self.voice.number(MOST_ESTIMATED))
                self._pending.append(Aside(TURNING_POINTS, label, said))
            return
        if turns is None or header is None:
            return
        said_points = [say_turning_point(self.voice, header.players, turn.moment, turn.seat,
                                         turn.before, turn.after, measure_of(header.game),
                                         turn.margin)
                       for turn in turns.points()]
        if said_points:
            self._pending.append(Aside(TURNING_POINTS, label, " ".join(said_points)))

    def end(self) -> None:
        """The log is read: asides and standings still due, then the verdict."""
        self._settle()
        self.narrator.end()
        self._tell(self.narrator.take())

    def result(self) -> list[Part]:
        return self.take()

    def take(self) -> list[Part]:
        """The parts told since the last take, to write out now.

        Consecutive :class:`Told` parts continue one another: a renderer
        joins them as one block (see :func:`render_stream`).
        """
        parts, self.parts = self.parts, []
        return parts

    def _settle(self, *, full: bool = False) -> None:
        """A roll is settled: its asides, then the standings if the narrator has them due."""
        self._flush()
        narrator = self.narrator
        narrator.settle(full=full)
        if narrator.lines:
            # The narrator's standings line: told here as a table instead.
            narrator.lines.clear()
            assert self._moved is not None
            assert self._shown is not None
            assert self._book is not None
            self.parts.append(self._table(self._moved, self._book.out_label(), self._shown,
                                          full=full))
            self._shown = self._moved

    def _table(self, holding: Holding, label: str, shown: Holding, *, full: bool) -> Standings:
        """:func:`_holdings`, made once for each holding of a small table (where
        the table shows everyone, so that nothing else goes into it)."""
        if len(holding.held) > LARGE_TABLE:
            return _holdings(self.voice, holding, label, shown, full=full)
        key = (holding, label)
        table = self._tables.get(key)
        if table is None:
            table = _holdings(self.voice, holding, label, shown)
            self._tables.keep(key, table, weigh(key) + weigh(table))
        return table

    def _start(self, event: GameStarted) -> None:
        """The registration and phrasebook of a new game (the walk has refused unknown games)."""
        self._game = registration(event.game)
        self._rulebook = self._game.rulebook
        book = self._books.get(event.game)
        if book is None:
            book = self._books[event.game] = self._game.phrasebook(self.voice)
        self._book = book

    def _tell(self, lines: Sequence[str], *, opens_game: bool = False) -> None:
        if lines:
            self.parts.append(Told(tuple(lines), opens_game))

    def _explain(self, rule: str, state: t.Any) -> None:
        if rule in self.explained:
            return
        self.explained.add(rule)
        self._pending.append(Aside(rule, self.label, explain(self.voice, rule, state)))

    def _flush(self) -> None:
        """Tell the asides due, the basic rules before the ones built on them."""
        if not self._pending:
            return
        ordered: list[Aside] = sorted(
            self._pending, key=lambda aside: RULES.index(aside.rule) if aside.rule in RULES
            else len(RULES))
        self.parts.extend(ordered)
        self._pending.clear()


class Corrected(Visitor[ResultT]):
    """Hands ``inner`` the corrected game, as the players meant it.

    A roll taken back (``roll_undone``) never reaches ``inner``, nor does
    anything it settled: its undo comes in its place, as the correction
    alone. So a rule is explained at the first roll that stands where it
    applies. The rolls of a game wait here until no undo can take them back
    any more: as many as :func:`aces.walk.undo_depth` lets an undo reach at
    that table, so memory stays within the walk's own bound for undo.
    """

    def __init__(self, inner: Visitor[ResultT]) -> None:
        self.inner = inner
        #: The steps of the last rolls of the game, a group for each roll
        #: with what it settled (or for each correction), oldest first.
        self._held: collections.deque[list[Step[t.Any]]] = collections.deque()
        #: How many rolls an undo can reach back in the game being walked.
        self._depth = UNDO_DEPTH

    def visit(self, step: Step[t.Any]) -> None:
        kind = type(step.event)
        if kind is Rolled:
            if len(self._held) >= self._depth:
                self._pass(self._held.popleft())
            self._held.append([step])
        elif kind is RollUndone:
            if not self._take_back(step):
                self._flush()
                self.inner.visit(step)
        elif kind is GameStarted or not self._held:
            self._flush()
            if isinstance(step.event, GameStarted):
                self._depth = undo_depth(len(step.event.players))
            self.inner.visit(step)
        else:
            self._held[-1].append(step)

    def end(self) -> None:
        self._flush()
        self.inner.end()

    def result(self) -> ResultT:
        return self.inner.result()

    def _take_back(self, undo: Step[t.Any]) -> bool:
        """Drop the roll ``undo`` takes back, if it is still held, and hold the
        correction in its place; whether it was held."""
        assert undo.undone is not None, "the walk gives every undo the roll it takes back"
        for index in range(len(self._held) - 1, -1, -1):
            first = self._held[index][0]
            if type(first.event) is Rolled and first.line == undo.undone.line:
                del self._held[index]
                # Told as a correction alone: nothing it settled was told, so
                # there is nothing for the narrator to take back.
                self._held.append([undo._replace(undone=None)])
                return True
        return False

    def _flush(self) -> None:
        while self._held:
            self._pass(self._held.popleft())

    def _pass(self, group: list[Step[t.Any]]) -> None:
        visit = self.inner.visit
        for step in group:
            visit(step)


def stream(records: Iterable[Record], source: str, catalog: gettext.NullTranslations,
           lang: str, *, game: int | None = None, odds: bool = False,
           turning_points: bool = True) -> Iterator[Part]:
    """A log as a walkthrough, part by part as the log is read: of every game,
    or only of ``game`` (from 1), with each player's chance after every roll
    (``odds``) and each game's turning points (``turning_points``).

    Memory stays flat however long the log: each step's parts are handed
    on as soon as they are told.

    :raises ~aces.errors.AcesError: at the first line of the log that is not
        sound (see :func:`aces.walk.walk`), after every part before it; for
        a ``game`` the log does not hold, once it is read.
    """
    guide = Walkthrough(catalog, lang, game=game, odds=odds, turning_points=turning_points)
    corrected = Corrected(guide)
    visit, told = corrected.visit, guide.parts

    def parts() -> Iterator[Part]:
        for step in walk(records, source, allow_unfinished=True, allow_unsettled=False):
            visit(step)
            if told:
                yield from told
                told.clear()
        corrected.end()
        yield from guide.take()

    return parts() if game is None else one_game(parts(), game, source)


def one_game(parts: Iterable[Part], number: int, source: str) -> Iterator[Part]:
    """The parts of game ``number`` (from 1) of a walkthrough, from the lines
    that open it to those that open the next.

    :raises ~aces.errors.AcesError: once the parts are all read, if there
        were fewer games.
    """
    games = 0
    for part in parts:
        if type(part) is Told and part.opens_game:
            games += 1
        if games == number:
            yield part
    if games < number:
        raise AcesError(_MISSING_GAME, number=number, source=source, count=games)


# Translators: an error of a walkthrough asked for one game of a log (in
# the documentation, ":game: 4"). {number}: the game asked for, from 1;
# {source}: the log's file name; {count}: the games it holds.
_MISSING_GAME: t.Final = Plural("there is no game {number} in {source}: it holds {count} game",
                                "there is no game {number} in {source}: it holds {count} games",
                                by="count")


def walkthrough(records: Iterable[Record], source: str, catalog: gettext.NullTranslations,
                lang: str, *, game: int | None = None, odds: bool = False,
                turning_points: bool = True) -> list[Part]:
    """A whole log as a walkthrough (see :func:`stream`), each run of told lines
    as one part.

    :raises ~aces.errors.AcesError: at the first line of the log that is not
        sound (see :func:`aces.walk.walk`); for a ``game`` the log does not hold.
    """
    parts: list[Part] = []
    lines: list[str] = []
    opens_game = False
    guide = Walkthrough(catalog, lang, game=game, odds=odds, turning_points=turning_points)
    told: Iterable[Part] = drive(records, source, Corrected(guide), allow_unfinished=True,
                                 allow_unsettled=False)
    if game is not None:
        told = one_game(told, game, source)
    for part in [*told, None]:
        if isinstance(part, Told) and not part.opens_game and lines:
            lines.extend(part.lines)
            continue
        if lines:
            parts.append(Told(tuple(lines), opens_game))
            lines = []
        if isinstance(part, Told):
            lines, opens_game = list(part.lines), part.opens_game
        elif part is not None:
            parts.append(part)
    return parts
