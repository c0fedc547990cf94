"""One group's table, in memory: its games as its log tells them, told in every language.

A :class:`GroupTable` follows the log by the same fold ``aces record`` uses
(:class:`aces.record.Recording`), so a roll costs the same at the hundredth
game as at the first; one :class:`~aces.narrate.Narrator` a language tells
every step as it comes (the group may switch its language at any time),
and a :class:`Tally` counts its finished games for the class's pool. A
submission is decided here, purely from the state: :meth:`GroupTable.decide`
gives the steps a roll or an undo appends, and the same submission decided
at the same ``seq`` always gives the same lines, byte for byte, which is
how a retry after a crash is told from a stale one.
"""

from __future__ import annotations

import collections
import functools
import itertools
import struct
import typing as t

import msgspec

from aces.dice import check_count
from aces.engine import header
from aces.errors import AcesError, ClassError
from aces.events import Event, GameExcluded, GameStarted, Rolled, RollUndone
from aces.experiment.observe import Counts, GameObserver
from aces.games import game_named
from aces.i18n import languages, translations
from aces.log import LogWriter, read
from aces.narrate import Narrator
from aces.narrate.phrasebook import told_once
from aces.record import Recording
from aces.rules import Roll
from aces.voice import Voice
from aces.walk import Step, Visitor, drive

if t.TYPE_CHECKING:
    from collections.abc import Iterable

    from aces.experiment.observe import GameRecord, Rules
    from aces.rules import RollRequest

__all__ = ["STORY", "Decision", "GroupTable", "Tally", "stale", "voice"]

#: Lines of the current game's story kept to show, in each language.
STORY: t.Final = 14
#: A game's rules among a log's, before its count (:class:`Tally`).
_KIND: t.Final = struct.Struct("I")


@functools.cache
def voice(lang: str) -> Voice:
    """The one voice of ``lang`` that every group's narrator speaks with: its
    memos, and its phrasebooks' (:func:`aces.narrate.phrasebook.memos`), are
    bounded in bytes, and shared they hold the class's sentences once a
    language, whatever the number of groups (one each, they grew with the
    groups). A table read again in a thread shares them too: a memo's entry
    is made from its key alone, so either thread's is right. Each state of
    a table is told once (:func:`~aces.narrate.phrasebook.told_once`)."""
    return told_once(Voice(translations(lang), lang))


class Decision(t.NamedTuple):
    """What a submission appends: its steps, their lines, and what they are told as."""

    steps: list[Step[t.Any]]
    #: The lines of the log, encoded from the table's ``seq`` on.
    block: bytes
    #: The lines the steps are told in, by language.
    told: dict[str, list[str]]


class Tally(Visitor[None]):
    """The finished games of one log, counted as ``aces stats`` counts them
    (:class:`aces.experiment.observe.GameObserver`), each kept apart so that
    a game taken out of the pool can be left out.

    Each game is kept packed (:meth:`~aces.experiment.observe.Counts.packed`,
    a few dozen bytes), not as its count (a kilobyte), so that a class playing
    for hours keeps its memory flat; and the games' counts are added up as
    each closes, so the projector's pool, which asks twice a second for
    every group, costs no more at the hundredth game than at the first."""

    def __init__(self) -> None:
        #: The games taken out of the pool (:class:`~aces.events.GameExcluded`).
        self.excluded: set[int] = set()
        #: By game number in the log: the game's rules (their place in
        #: :attr:`_rules`, as a packed number) and its count, packed.
        self._games: dict[int, bytes] = {}
        #: The rules of the log's games, each once.
        self._rules: list[Rules] = []
        self._number = 0
        self._observer = GameObserver(self._closed)
        #: The closed games not taken out, added up by rules, their number and
        #: their rolls; ``None`` once a closed game is taken out, until added up anew.
        self._counted: tuple[dict[Rules, Counts], int, int] | None = ({}, 0, 0)

    def visit(self, step: Step[t.Any]) -> None:
        kind = type(step.event)
        if kind is GameStarted:
            self._number += 1
        elif kind is GameExcluded:
            game = t.cast("GameExcluded", step.event).game
            if game in self._games and game not in self.excluded:
                self._counted = None
            self.excluded.add(game)
        self._observer.visit(step)

    def _closed(self, record: GameRecord) -> None:
        # The game just closed is the one before the header now being read.
        number = self._number - 1
        rules = record.rules
        if rules not in self._rules:
            self._rules.append(rules)
        self._games[number] = _KIND.pack(self._rules.index(rules)) + Counts.packed(record)
        if self._counted is not None and number not in self.excluded:
            self._counted = _added([(rules, Counts.of(record))], self._counted)

    def finished_count(self) -> int:
        """How many games are finished, without counting them."""
        return len(self._games) + (self._observer.ended and self._number not in self._games)

    @property
    def unfinished(self) -> bool:
        """Whether the log's last game is under way (``aces stats`` says so)."""
        return self._number > 0 and self._number not in self._games \
            and not self._observer.ended

    def taken_out(self) -> tuple[int, ...]:
        """The finished games taken out of the pool, by number, as ``aces
        stats`` names them."""
        ended = self._observer.ended
        return tuple(sorted(number for number in self.excluded
                            if number in self._games or (ended and number == self._number)))

    def counts(self) -> tuple[dict[Rules, Counts], int, int]:
        """The counts by rules of the finished games not taken out of the pool,
        their number and their rolls, as ``aces stats`` counts the log.

        The counts given are shared, so not to be changed."""

        counted = self._counted
        if counted is None:
            # A closed game taken out: the others added up anew.
            rules = self._rules
            counted = self._counted = _added(
                (rules[kind], Counts.unpacked(packed[_KIND.size:], rules[kind].players))
                for number, packed in self._games.items()
                if number not in self.excluded
                for (kind,) in [_KIND.unpack_from(packed)])
        totals, games, rolls = counted
        current = self._observer.current()
        if current is None or self._number in self.excluded:
            return totals, games, rolls
        return _added([(current.rules, Counts.of(current))], counted)


def _added(games: Iterable[tuple[Rules, Counts]],
           to: tuple[dict[Rules, Counts], int, int] = ({}, 0, 0),
           ) -> tuple[dict[Rules, Counts], int, int]:
    """Games' counts added up by their rules, their number and their rolls,
    to those of ``to`` (which stay as they are)."""
    totals = dict(to[0])
    number, rolls = to[1], to[2]
    made: set[Rules] = set()
    for rules, counts in games:
        number += 1
        rolls += counts.rolls
        if rules in made:
            totals[rules] += counts
        else:
            made.add(rules)
            totals[rules] = (totals[rules] if rules in totals else Counts(rules.players)) + counts
    return totals, number, rolls


class GroupTable(Visitor[None]):
    """One group's games: the log's fold, its story in every language, its tally."""

    def __init__(self, name: str) -> None:
        #: The log's name, as errors and ``aces stats`` name it.
        self.name = name
        self.recording = Recording()
        self.narrators: dict[str, Narrator] = {
            lang: Narrator(translations(lang), lang, voice=voice(lang)) for lang in languages()}
        self.story: dict[str, collections.deque[str]] = {
            lang: collections.deque(maxlen=STORY) for lang in self.narrators}
        self.tally = Tally()
        self.writer: LogWriter | None = None

    # -- Following the log ------------------------------------------------------

    def resume(self, lines: Iterable[bytes], *, upto: int | None = None) -> None:
        """Walk the log (its first ``upto`` lines only, if given), as the table
        stood when its last line was written; a roll whose consequences the
        log stops before is left unsettled (:attr:`unsettled`)."""

        source: Iterable[bytes] = lines if upto is None else itertools.islice(lines, upto)
        reader = read(source, self.name)
        drive(reader, self.name, self, allow_unfinished=True)
        for lang, narrator in self.narrators.items():
            if not self.recording.unsettled:
                narrator.settle()
            self.story[lang].extend(narrator.take())
        self.writer = LogWriter(None, first_seq=reader.tail.seq + 1, previous=reader.tail.digest)

    def visit(self, step: Step[t.Any]) -> None:
        self.recording.visit(step)
        self._follow(step)

    def _follow(self, step: Step[t.Any], told: dict[str, list[str]] | None = None) -> None:
        """Tell and count one step; its lines go to the story, and to ``told``."""
        if type(step.event) is GameStarted:
            for story in self.story.values():
                story.clear()
        for lang, narrator in self.narrators.items():
            narrator.visit(step)
            lines = narrator.take()
            self.story[lang].extend(lines)
            if told is not None:
                told[lang].extend(lines)
        self.tally.visit(step)

    def result(self) -> None:
        return None

    # -- What the table asks for --------------------------------------------------

    @property
    def seq(self) -> int:
        return self.recording.seq

    @property
    def game(self) -> int:
        """The number of the game being played, or of the last one, over."""
        return self.recording.games

    @property
    def header(self) -> GameStarted:
        header = self.recording.header
        assert header is not None, "a group's log begins with its first game's header"
        return header

    @property
    def unsettled(self) -> bool:
        return self.recording.unsettled

    def request(self) -> RollRequest | None:
        """The roll the game waits for; ``None`` once it is over."""
        return self.recording.request()

    def following(self) -> tuple[GameStarted, RollRequest]:
        """The header of the next game at this table, and its first roll."""

        last = self.header
        rules = game_named(last.game)
        following = header(rules, last.players, last.options)
        first = rules.next_roll(rules.start(following))
        assert first is not None, "a game begins with a roll"
        return following, first

    def can_undo(self) -> bool:
        standing = self.recording.state is not None and self.recording.rolls > 0
        return standing or (self.recording.unwritten and self.game > 1)

    # -- Deciding ----------------------------------------------------------------------

    def decide_roll(self, game: int, roll: Roll) -> Decision:
        """The steps of ``roll`` in game number ``game``: the game being played,
        or the next one once it is over (its header is written with its first roll).

        :raises ~aces.errors.AcesError: for a roll the rules refuse, or none
            is due; :raises ~aces.errors.ClassError: (``stale``) for a game
            that is not the one being played or the next.
        """

        request = self.request()
        if game == self.game and request is not None:
            check_count(roll, request)
            return self._decided(self.recording.play(roll))
        if game == self.game + 1 and request is None and not self.recording.unwritten:
            following, first = self.following()
            check_count(roll, first)
            self.recording.begin(following)
            return self._decided(self.recording.play(roll))
        if game == self.game and request is None:
            # Translators: why a roll is refused by "aces record" once the game
            # is over. "undo": the word for it in the "command" context.
            raise AcesError("the game is over, so no roll is due; undo takes back its last"
                            " roll")
        raise stale()

    def decide_undo(self) -> Decision:
        """The step that takes back the last roll still standing.

        :raises ~aces.errors.AcesError: when there is none.
        """
        return self._decided(self.recording.undo())

    def decide_exclusion(self, game: int) -> Decision:
        """The step that takes game number ``game`` out of the class's pool.

        :raises ~aces.errors.ClassError: (``no_game``) for a game the log does
            not have, or one taken out already.
        """
        if not 1 <= game <= self.game:
            # Translators: the live class refuses to take a game out of the
            # pool. {game}: the game's number.
            raise ClassError("the group has no game {game}", game=game).coded("no_game")
        if game in self.tally.excluded:
            # Translators: the live class refuses to take a game out of the pool
            # twice. {game}: the game's number.
            raise ClassError("game {game} is out of the pool already",
                             game=game).coded("no_game")
        return self._decided(self.recording.note(GameExcluded(game=game)))

    def take(self, block: bytes) -> bool:
        """Take in a block another process appended to the log just after the
        table's last line, as if it had been decided here: the roll, undo or
        exclusion it begins with is decided again by the same rules, and must
        give these very bytes. ``False`` when it does not, or the block is not
        one such decision: the table is then spent, and read again from the log.
        """
        try:
            # A line without its envelope ({"seq":N,"digest":"...",) is its event.
            first, *more = (msgspec.json.decode(b"{" + line.split(b'",', 1)[1], type=Event)
                            for line in block.splitlines()[:2])
            if type(first) is GameStarted and more and type(more[0]) is Rolled:
                rolled = more[0]
                decision = self.decide_roll(self.game + 1, Roll(rolled.dice, rolled.to))
            elif type(first) is Rolled:
                decision = self.decide_roll(self.game, Roll(first.dice, first.to))
            elif type(first) is RollUndone:
                decision = self.decide_undo()
            elif type(first) is GameExcluded:
                decision = self.decide_exclusion(first.game)
            else:
                return False
        except (AcesError, IndexError, ValueError, msgspec.MsgspecError):
            return False
        return decision.block == block

    def settle(self) -> Decision:
        """What the last roll settles that the log stopped before (a crash)."""
        return self._decided(self.recording.settle())

    def _decided(self, steps: list[Step[t.Any]]) -> Decision:
        assert self.writer is not None, "a table is resumed before it decides"
        block = self.writer.encode(step.event for step in steps)
        told: dict[str, list[str]] = {lang: [] for lang in self.narrators}
        for step in steps:
            self._follow(step, told)
        for lang, narrator in self.narrators.items():
            # The standings once the roll is settled, as aces record tells them.
            narrator.settle()
            lines = narrator.take()
            told[lang].extend(lines)
            self.story[lang].extend(lines)
        return Decision(steps, block, told)

    def begin(self, header: GameStarted) -> Decision:
        """The first line of a new group's log: its first game's header."""
        self.recording.begin(header)
        return self._decided(self.recording.start())


def stale() -> ClassError:
    """The refusal of a submission for a moment of the game that has passed."""
    # Translators: the pupils' page of the live class: a roll or an undo sent
    # for a moment of the game that has passed, since another device of the
    # same group recorded something first.
    return ClassError("another device of this group has recorded something first, so this"
                      " was not recorded; the game is shown as it stands now").coded("stale")
