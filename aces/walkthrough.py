"""A log told as a lesson: the replay's narration, with each rule explained once.

A walkthrough is what ``aces replay`` says, event by event, plus a short
aside the first time a rule comes into play (the first ace, the first six,
the first missed turn, the start of the finish...), and the standings as a
small table whenever they change. It is built as a list of parts, already
in the reader's language, and rendered as Markdown, reStructuredText or
plain text; the documentation's directive (:mod:`aces.sphinxext`) turns
the same parts into a page. Nothing here reads a file or prints.

Worked example E1 of the rulings, as a walkthrough:

>>> from aces.i18n import translations
>>> from aces.log import read
>>> with open("replays/e1-last-chip.jsonl", "rb") as log:
...     parts = walkthrough(read(log, "E1"), "E1", translations("en"), "en")
>>> text = render(parts, "text")
>>> print(text[text.index("Cy rolls 1-6."):].split(2 * chr(10))[0])
Cy rolls 1-6.
Cy puts 1 chip in the pot.
Cy passes 1 chip to Ada on the left.
>>> [part.rule for part in parts if isinstance(part, Aside)][:3]
['left', 'ace', 'six']
"""

from __future__ import annotations

import collections
import functools
import re
import string
import textwrap
import typing as t

from aces.errors import AcesError, Plural
from aces.events import (
    AceIgnored,
    ChipsPassed,
    ChipsToPot,
    DicePassed,
    DiceToCentre,
    FinishStarted,
    GameOver,
    GameStarted,
    OpeningTied,
    OpeningWon,
    PlayResumed,
    RollAgain,
    Rolled,
    RollUndone,
    TryFailed,
    TryStarted,
    TurnMissed,
    Unpaid,
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
from aces.narrate.voice import Voice
from aces.odds import budget
from aces.rules import fivedice, pot
from aces.walk import UNDO_DEPTH, Visitor, drive, undo_depth

if t.TYPE_CHECKING:
    import gettext
    from collections.abc import Callable, Iterable, Iterator, Sequence

    from aces.games import Holding, Registration
    from aces.log import Record
    from aces.narrate.phrasebook import Phrasebook
    from aces.walk import Step

ResultT = t.TypeVar("ResultT")

__all__ = ["FORMATS", "RULES", "TURNING_POINTS", "Aside", "Corrected", "Part", "Standings",
           "Told", "Walkthrough", "escape_markdown", "escape_rst", "fivedice_rules", "one_game",
           "pot_rules", "render", "render_stream", "stream", "walkthrough"]

#: The key of the aside that names a game's turning points.
TURNING_POINTS: t.Final = "turning-points"
#: Settled rolls whose chances are worked out together (estimates share a
#: simulation), so that what waits stays bounded however long the game.
CHANCES_CHUNK: t.Final = 256
#: The most rolls of one log whose chances a walkthrough estimates, a few
#: seconds of simulation (:class:`aces.odds.position.Budget`, which bounds the
#: simulated rolls too); the games after them are told without turning points.
MOST_ESTIMATED: t.Final = budget.MOST_ESTIMATED

#: The output formats of ``aces walkthrough``.
FORMATS: t.Final = ("markdown", "rst", "text")
Format = t.Literal["markdown", "rst", "text"]


class Told(t.NamedTuple):
    """Lines of narration, as ``aces replay`` prints them."""

    lines: tuple[str, ...]
    #: The lines open a game (its header), so a new section may start here.
    opens_game: bool = False


class Aside(t.NamedTuple):
    """The rule that has just come into play, explained once."""

    #: Which rule, a stable key such as ``"ace"`` or ``"roll-again"``.
    rule: str
    #: The label of every aside ("Rule"), in the walkthrough's language.
    label: str
    text: str


class Standings(t.NamedTuple):
    """Who holds what, as a one-row table: a column per player, then the pot or centre."""

    header: tuple[str, ...]
    row: tuple[str, ...]


Part = Told | Aside | Standings

#: Told parts are made after every step: as plain tuples are, without the
#: named tuple's own constructor.
_told: t.Final = functools.partial(tuple.__new__, Told)


# -- The rules, explained -------------------------------------------------------


def _explain(voice: Voice, rule: str, state: t.Any) -> str:
    """The aside for ``rule``, in the voice's language; ``state`` is the game's now."""
    _ = voice.gettext
    # A game played with the threes variation explains some rules its own way.
    threes = getattr(state, "threes", False) is True
    texts: dict[str, Callable[[], str]] = {
        # Translators: the rule asides of "aces walkthrough": each explains a rule
        # of the games the first time it comes into play, in a sentence or three.
        "opening-tie": lambda: _(
            "When several players share the highest opening roll, only they roll again,"
            " in seat order, until one of them is highest."),
        # Translators: a rule aside of "aces walkthrough".
        "left": lambda: _(
            "Play passes to the left: to the next player in seat order, and from the last"
            " seat back to the first."),
        # Translators: a rule aside of "aces walkthrough" (Aces in the Pot).
        "nothing": lambda: _(
            "Only aces (ones) and sixes move chips. Every other number does nothing, so a"
            " roll without a 1 or a 6 costs nothing at all."),
        # Translators: a rule aside of "aces walkthrough" (Aces in the Pot).
        "ace": lambda: _(
            "Each ace, a rolled 1, sends one of the roller's chips into the pot, and there"
            " it stays until someone wins the game."),
        # Translators: a rule aside of "aces walkthrough" (Aces in the Pot).
        "six": lambda: _(
            "Each six hands one of the roller's chips to the player on the left. A chip"
            " passed on is still in play."),
        # Translators: a rule aside of "aces walkthrough" (Aces in the Pot).
        "doubles": lambda: _(
            "Each die counts on its own, so a double counts twice: 1-1 sends two chips to"
            " the pot and 6-6 passes two to the left, as far as the roller's chips go."),
        # Translators: a rule aside of "aces walkthrough" (Aces in the Pot).
        "ace-and-six": lambda: _(
            "A roll is paid aces first, then sixes. With two chips or more, 1-6 costs two:"
            " one to the pot and one to the left."),
        # Translators: a rule aside of "aces walkthrough" (Aces in the Pot).
        "one-chip": lambda: _(
            "Nobody pays more than they hold. With one chip the aces are paid first: 1-6 or"
            " 1-1 sends the chip to the pot, 6-6 passes it left, and the rest of the roll"
            " goes unpaid."),
        # Translators: a rule aside of "aces walkthrough" (Aces in the Pot).
        "missed-turn": lambda: _(
            "A player with no chips misses the turn but keeps the seat, and is back in play"
            " as soon as the neighbour on the right rolls a six."),
        # Translators: a rule aside of "aces walkthrough" (Aces in the Pot).
        "comeback": lambda: _(
            "Empty hands never put anyone out of the game: a six from the neighbour on the"
            " right brings a chip, and the player is back in play."),
        # Translators: a rule aside of "aces walkthrough" (Aces in the Pot).
        "ignored-ace": lambda: _(
            "The last chip in play never goes to the pot. An ace that would send it there"
            " is ignored, but the roll's sixes are still paid."),
        # Translators: a rule aside of "aces walkthrough" (Aces in the Pot, finish
        # last-chip).
        "finish-last-chip": lambda: _(
            "The finish begins as soon as a roll leaves a single chip in play. Whoever"
            " holds it makes a try for the whole pot."),
        # Translators: a rule aside of "aces walkthrough" (Aces in the Pot, finish
        # last-holder).
        "finish-last-holder": lambda: _(
            "In this game the finish begins as soon as only one player holds chips, however"
            " many. That player makes a try for the pot."),
        # Translators: a rule aside of "aces walkthrough" (Aces in the Pot).
        "try": lambda: _(
            "A try is up to three rolls of both dice, and none of them may show a six. Aces"
            " count for nothing during a try. Three rolls without a six win the pot."),
        # Translators: a rule aside of "aces walkthrough" (Aces in the Pot, finish
        # last-chip).
        "failed-try-last-chip": lambda: _(
            "A six ends the try at once. The chip passes to the player on the left, who"
            " makes a fresh try of three rolls; round the table it goes until a try"
            " succeeds."),
        # Translators: a rule aside of "aces walkthrough" (Aces in the Pot, finish
        # last-holder).
        "failed-try-last-holder": lambda: _(
            "A six ends the try, and each six passes one of the holder's chips to the left."
            " A holder with chips left goes back to normal play, starting with the player on"
            " the left; a holder with none leaves the next try to that player."),
        # Translators: a rule aside of "aces walkthrough" (Aces in the Pot).
        "won": lambda: _("The winner takes every chip in the pot, and the game is over."),
        # Translators: a rule aside of "aces walkthrough" (Aces in the Pot).
        "session": lambda: _(
            "In a session every game starts level, with full hands and a fresh opening."
            " The tally counts the pots each player has won."),
        # Translators: a rule aside of "aces walkthrough" (Aces, the five-dice game).
        "fd-opening-tie": lambda: _(
            "Players who share the highest total roll again, only they, until one total is"
            " highest."),
        # Translators: a rule aside of "aces walkthrough" (Aces, the five-dice game).
        "centre": lambda: _(
            "Each 1 goes to the centre and is out of the game for good."),
        # Translators: a rule aside of "aces walkthrough" (Aces, the five-dice game).
        "two": lambda: _("Each 2 goes to the player on the left."),
        # Translators: a rule aside of "aces walkthrough" (Aces, the five-dice game).
        "five": lambda: _("Each 5 goes to the player on the right."),
        # Translators: a rule aside of "aces walkthrough" (Aces, the five-dice game
        # with the threes variation).
        "three": lambda: _(
            "In this game each 3 leaves the hand too, to a player the roller chooses, never"
            " the roller."),
        # Translators: a rule aside of "aces walkthrough" (Aces, the five-dice game).
        "roll-again": lambda: _(
            "A roll that sent a die away (a 1, 2 or 5) is rolled again at once, with the"
            " dice the roller still holds."),
        # Translators: a rule aside of "aces walkthrough" (Aces, the five-dice game
        # with the threes variation).
        "roll-again/threes": lambda: _(
            "A roll that sent a die away (a 1, 2, 3 or 5) is rolled again at once, with the"
            " dice the roller still holds."),
        # Translators: a rule aside of "aces walkthrough" (Aces, the five-dice game).
        "turn-over": lambda: _(
            "A roll without a 1, 2 or 5 ends the turn, and play passes to the left."),
        # Translators: a rule aside of "aces walkthrough" (Aces, the five-dice game
        # with the threes variation).
        "turn-over/threes": lambda: _(
            "A roll without a 1, 2, 3 or 5 ends the turn, and play passes to the left."),
        # Translators: a rule aside of "aces walkthrough" (Aces, the five-dice game).
        "empty-hand": lambda: _("A roller who has given away every die stops there: the"
                                " turn is over."),
        # Translators: a rule aside of "aces walkthrough" (Aces, the five-dice game).
        "fd-missed-turn": lambda: _(
            "A player holding no dice misses the turn but stays at the table: a 2 from the"
            " neighbour on the right or a 5 from the neighbour on the left brings a die"
            " back."),
        # Translators: a rule aside of "aces walkthrough" (Aces, the five-dice game
        # with the threes variation).
        "fd-missed-turn/threes": lambda: _(
            "A player holding no dice misses the turn but stays at the table: a 2 from the"
            " neighbour on the right, a 5 from the neighbour on the left or a 3 from anyone"
            " brings a die back."),
        # Translators: a rule aside of "aces walkthrough" (Aces, the five-dice game).
        "fd-lost": lambda: _(
            "The game ends when the last die goes to the centre. Whoever rolled that final"
            " 1 loses; everyone else wins."),
        # Translators: a rule aside of "aces walkthrough" (Aces, the five-dice game).
        "fd-session": lambda: _(
            "In a session every game starts level, with full hands and a fresh opening."
            " The tally counts the games each player has lost."),
    }
    return texts.get(f"{rule}/threes" if threes else rule, texts[rule])()


#: Every rule a walkthrough may explain, in no particular order.
RULES: t.Final = (
    "opening-tie", "left", "nothing", "ace", "six", "doubles", "ace-and-six", "one-chip",
    "missed-turn", "comeback", "ignored-ace", "finish-last-chip", "finish-last-holder", "try",
    "failed-try-last-chip", "failed-try-last-holder", "won", "session", "fd-opening-tie",
    "centre", "two", "five", "three", "roll-again", "turn-over", "empty-hand",
    "fd-missed-turn", "fd-lost", "fd-session",
)


def pot_rules(step: Step[t.Any], before: pot.PotState) -> list[str]:
    """The rules of Aces in the Pot that ``step`` puts into play, ``before`` it."""
    event = step.event
    if isinstance(event, Rolled):
        if event.stage != "turn":
            return []
        held = before.chips[before.turn]
        aces, sixes = event.dice.count(pot.ACE), event.dice.count(pot.SIX)
        # What the roll really moves: each note stands at the first roll that shows
        # its rule at work, not merely at the first roll that could.
        paid = pot.settle(held, before.in_play, aces, sixes,
                          protect_last=before.finish == "last-chip")
        found = []
        if not aces and not sixes:
            found.append("nothing")
        if aces and sixes and paid.to_pot == aces and paid.to_left == sixes:
            found.append("ace-and-six")
        if (aces == 2 and paid.to_pot == 2) or (sixes == 2 and paid.to_left == 2):
            found.append("doubles")
        return found
    if isinstance(event, ChipsPassed):
        if before.phase != "play":
            return []
        found = ["six"]
        if before.chips[before.seats[event.to]] == 0:
            found.append("comeback")
        return found
    kind = type(event)
    if kind is FinishStarted:
        return [f"finish-{before.finish}"]
    if kind is TryFailed:
        return [f"failed-try-{before.finish}"]
    rule = _POT_RULES.get(kind)
    return [] if rule is None else [rule]


#: The rules of Aces in the Pot that an event of a kind always puts into
#: play (asked after every event of a log: made once).
_POT_RULES: t.Final[dict[type, str]] = {
    OpeningTied: "opening-tie",
    OpeningWon: "left",
    ChipsToPot: "ace",
    Unpaid: "one-chip",
    TurnMissed: "missed-turn",
    AceIgnored: "ignored-ace",
    TryStarted: "try",
    PlayResumed: "failed-try-last-holder",
    GameOver: "won",
}


def fivedice_rules(step: Step[t.Any], before: fivedice.FiveDiceState) -> list[str]:
    """The rules of Aces (five dice) that ``step`` puts into play, ``before`` it."""
    event = step.event
    after: fivedice.FiveDiceState = step.state
    if isinstance(event, Rolled):
        if event.stage == "turn" and not fivedice.settle(event.dice, threes=before.threes).leaving:
            return ["turn-over"]
        return []
    found: list[str] = []
    if isinstance(event, DiceToCentre):
        found.append("centre")
    elif isinstance(event, DicePassed):
        found.append({fivedice.TWO: "two", fivedice.FIVE: "five"}.get(event.face, "three"))
    if (isinstance(event, (DiceToCentre, DicePassed)) and after.phase == "play"
            and after.centre < after.total and after.held[after.seats[event.player]] == 0):
        found.append("empty-hand")
    rule = _FIVE_DICE_RULES.get(type(event))
    return found if rule is None else [*found, rule]


#: The rules of Aces (five dice) that an event of a kind always puts into play.
_FIVE_DICE_RULES: t.Final[dict[type, str]] = {
    OpeningTied: "fd-opening-tie",
    OpeningWon: "left",
    RollAgain: "roll-again",
    TurnMissed: "fd-missed-turn",
    GameOver: "fd-lost",
}


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


# -- Building a walkthrough ---------------------------------------------------------


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
        self._tables: Memo[tuple[Holding, str], Standings] = Memo(_RENDERED_BUDGET)
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
            self.parts.append(_told((tuple(lines), kind is GameStarted)))
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
        self._pending.append(Aside(rule, self.label, _explain(self.voice, rule, state)))

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
    from aces.walk import walk

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


# -- Rendering ----------------------------------------------------------------------


def render(parts: Iterable[Part], fmt: Format) -> str:
    """The walkthrough as Markdown, reStructuredText or plain text."""
    return "".join(render_stream(parts, fmt))


def render_stream(parts: Iterable[Part], fmt: Format) -> Iterator[str]:
    """The text of each part in turn, ready to write out as it comes.

    A :class:`Told` part that follows another and opens no game continues
    its block, so a walkthrough streamed piece by piece reads the same as
    one rendered whole.
    """
    renderer = _RENDERERS[fmt]
    # A long log tells the same few parts over and over (a roll that moves
    # nothing, the same standings): each is rendered, and escaped, once. A
    # game's heading (its number) and an aside (each rule is explained once,
    # the turning points are a game's own) never come again: they are
    # rendered as they come, and kept out of the memo, which they would
    # only fill.
    rendered: Memo[Part, str] = Memo(_RENDERED_BUDGET)
    started = told = False
    for part in parts:
        is_told = type(part) is Told
        opens = is_told and part.opens_game  # type: ignore[union-attr]
        if opens or type(part) is Aside:
            text = "\n".join(renderer(part, opens and started))
        else:
            text = rendered.get(part)  # type: ignore[assignment]
            if text is None:
                text = "\n".join(renderer(part, False))
                rendered.keep(part, text, weigh(part) + weigh(text))
        if started:
            # A told part that follows another and opens no game continues its block.
            yield ("\n" if is_told and told and not opens else "\n\n") + text
        else:
            yield text
        started, told = True, is_told
    if started:
        yield "\n"


#: The bytes of rendered parts (and the parts) a rendering remembers.
_RENDERED_BUDGET: t.Final = 4 << 20

#: Every ASCII punctuation character. reStructuredText takes any of them
#: after a backslash as itself, so with all of them escaped no name
#: (``.. include:: /etc/passwd``, ``|subst|``, ``:role:`x```, ``1.``,
#: ``- x``) can become a directive, a role, a substitution or a list.
_RST_SPECIAL: t.Final = re.compile("([" + re.escape(string.punctuation) + "])")
#: What starts CommonMark's inline markup anywhere in a line: emphasis,
#: code, links and images (whose brackets these are), raw HTML and
#: autolinks, entities, strike-through and table cells.
_MARKDOWN_INLINE: t.Final = re.compile(r"([\\`*_\[\]<>&|~])")
#: What opens a block at the start of a line: a heading, a list item (also
#: numbered), a quote, a thematic break or a setext underline.
_MARKDOWN_BLOCK: t.Final = re.compile(r"^(\s*\d*)([#+\-=>]|(?<=\d)[.)])", re.MULTILINE)
#: What GitHub's Markdown turns into a link without any markup (its
#: "autolinks" extension, and linkify's in other readers): ``https://``,
#: ``www.``, a domain's dots before a letter (``evil.example``: a domain
#: ends in letters, so every one has such a dot) and an e-mail's ``@``. A
#: number's point (``59.1%``) is no domain, and stays as it reads.
_MARKDOWN_LINK: t.Final = re.compile(
    r"(:)(?=//)|(?<=\w)(\.)(?=[^\W\d_])|(?<=www)(\.)|(@)", re.IGNORECASE)
#: Whatever the three above would escape.
_MARKDOWN_ANY: t.Final = re.compile(
    f"{_MARKDOWN_INLINE.pattern}|{_MARKDOWN_BLOCK.pattern}|{_MARKDOWN_LINK.pattern}",
    re.MULTILINE | re.IGNORECASE)


def escape_rst(text: str) -> str:
    r"""Text for reStructuredText: every ASCII punctuation mark escaped.

    >>> print(escape_rst(".. include:: /etc/passwd"))
    \.\. include\:\: \/etc\/passwd
    """
    return _RST_SPECIAL.sub(r"\\\1", text)


def escape_markdown(text: str) -> str:
    r"""Text for CommonMark, word for word: the one escaping of the Markdown
    walkthrough.

    Only what would start markup is escaped: the characters of inline markup
    anywhere, what opens a block at the start of a line, and what GitHub
    would make a link of by itself (an address, ``www.``, a domain, an
    e-mail). Full stops between words, brackets and exclamation marks are
    left alone, so the source reads as well as the page.

    >>> print(escape_markdown("<script>x</script> [a](b) 1-6."), escape_markdown("1. x"))
    \<script\>x\</script\> \[a\](b) 1-6. 1\. x
    >>> print(escape_markdown("Bo klarte det! (kast 1 av 3)"), escape_markdown("# Bo & *Cy_*"))
    Bo klarte det! (kast 1 av 3) \# Bo \& \*Cy\_\*
    >>> print(escape_markdown("https://evil.example/p www.evil.example bo@evil.no"))
    https\://evil\.example/p www\.evil\.example bo\@evil\.no
    >>> print(escape_markdown("from 59.1% to 21.0%, www.123.no"))
    from 59.1% to 21.0%, www\.123\.no
    """
    if _MARKDOWN_ANY.search(text) is None:
        # Most lines hold nothing to escape: one search, not three substitutions.
        return text
    text = _MARKDOWN_LINK.sub(lambda found: "\\" + found.group(0),
                              _MARKDOWN_INLINE.sub(r"\\\1", text))
    return _MARKDOWN_BLOCK.sub(r"\1\\\2", text)


def _markdown(part: Part, new_game: bool) -> list[str]:
    """A game opens with a heading (its first line); narration is a paragraph,
    a rule a quoted note, the standings a table."""
    escape = escape_markdown
    if isinstance(part, Told):
        lines = [escape(line) for line in part.lines]
        if part.opens_game and lines:
            heading, lines = f"## {lines[0]}", lines[1:]
            return [heading, "", *lines] if lines else [heading]
        return lines
    if isinstance(part, Aside):
        return [f"> **{escape(part.label)}:** {escape(part.text)}"]
    return ["| " + " | ".join(escape(cell) for cell in part.header) + " |",
            "|" + "---:|" * len(part.header),
            "| " + " | ".join(escape(cell) for cell in part.row) + " |"]


def _rst(part: Part, new_game: bool) -> list[str]:
    escape = escape_rst
    if isinstance(part, Told):
        lines = ["----", ""] if new_game else []
        return lines + [f"| {escape(line)}" for line in part.lines]
    if isinstance(part, Aside):
        return [f".. admonition:: {escape(part.label)}", "",
                *textwrap.wrap(escape(part.text), 76, initial_indent="   ",
                               subsequent_indent="   ", break_on_hyphens=False)]
    out = [".. list-table::", "   :header-rows: 1", ""]
    for row in (part.header, part.row):
        out.append(f"   * - {escape(row[0])}")
        out.extend(f"     - {escape(cell)}" for cell in row[1:])
    return out


def _text(part: Part, new_game: bool) -> list[str]:
    if isinstance(part, Told):
        return ([""] if new_game else []) + list(part.lines)
    if isinstance(part, Aside):
        return textwrap.wrap(f"{part.label}: {part.text}", 76, initial_indent="    ",
                             subsequent_indent="    ")
    widths = [max(len(a), len(b)) for a, b in zip(part.header, part.row, strict=True)]
    return ["    " + "  ".join(cell.rjust(width) for cell, width in zip(row, widths, strict=True))
            for row in (part.header, part.row)]


_RENDERERS: t.Final[dict[str, Callable[[Part, bool], list[str]]]] = {
    "markdown": _markdown, "rst": _rst, "text": _text}
