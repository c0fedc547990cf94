"""The live class: who may do what, and every submission decided, appended and answered.

:class:`Classroom` holds the class's record and each group's
:class:`~aces.classroom.group.GroupTable` in memory, over a
:class:`~aces.classroom.store.Store`. A pupil's submission (a roll, an
undo) carries an id its page chose and the ``seq`` the page saw:

- decided by the rules at that ``seq``, appended durably, then answered;
- sent again (its answer was lost), it gets the first answer back, and
  nothing is written twice: the store knows its id, and after a crash
  between the write and the answer, the submission decided again at its
  ``seq`` gives the very lines the log holds there, since the rules are
  pure, so they are its own;
- sent for a ``seq`` that has passed (another device of the group went
  first), it is refused with the game as it stands.

Appends to one group's log are serialised; the class's feed gives every
block a position (see :mod:`aces.classroom.store`), which a projector's
stream resumes from. The class's results are pooled by
:class:`aces.experiment.pool.Pooling`, the pool of ``aces stats``.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import itertools
import json
import time
import typing as t

from aces.classroom.access import Guesses, matches, new_code, new_token, normal_code, token_digest
from aces.classroom.files import log_name
from aces.classroom.group import GroupTable, stale
from aces.classroom.store import (
    Appended,
    ClassRecord,
    FeedEntry,
    GroupRecord,
    ReusedSubmissionError,
    StaleAppendError,
    Submission,
)
from aces.engine import header
from aces.errors import AcesError, ClassError, OptionError, visible
from aces.experiment.pool import Pooling
from aces.games import game_named
from aces.i18n import languages, translations, unknown_language
from aces.log import full_log

if t.TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from aces.classroom.group import Decision
    from aces.classroom.store import Store
    from aces.events import Event
    from aces.experiment.observe import Counts, Rules
    from aces.experiment.pool import Pooled
    from aces.rules import OptionValue, Roll

__all__ = ["RECONCILE", "Answer", "Classroom", "Group", "LogTally", "Opening", "Settings",
           "Tallied", "class_closed", "not_your_group", "pool_of", "teacher_only", "unknown_code"]

#: How far before the ``seq`` a group was resumed at a retry may be decided
#: again and matched with the log: a page's retry after a crash lags a few
#: blocks at most.
RECONCILE: t.Final = 64
#: Seconds the follower waits for this process's appends under way to be
#: answered before it reads the store.
_ANSWERED: t.Final = 0.25
#: Answers remembered for each group, for retries (an older submission's is
#: found in the store and decided again).
_ANSWERS: t.Final = 16
#: Blocks' lines kept ready for projectors, whatever the group.
_RECENT: t.Final = 4096
#: Blocks of the feed folded in at a time, following other processes.
_FOLD: t.Final = 256


class Settings(t.NamedTuple):
    """The bounds of one class."""

    groups: int = 100
    #: Players at one table.
    players: int = 10
    #: Characters of a group's label, and of a player's name.
    label: int = 40
    name: int = 24
    #: Streams of the class open at once: projectors and the teacher's tools.
    streams: int = 32


class Answer(t.NamedTuple):
    """What a submission appended, as its first answer told it."""

    first: int
    last: int
    events: tuple[Event, ...]
    #: The lines it is told in, by language.
    told: dict[str, list[str]]


class LogTally(t.NamedTuple):
    """One group's finished games, counted as :class:`~aces.experiment.pool.Pooling` adds a log."""

    log: str
    counts: dict[Rules, Counts]
    games: int
    rolls: int
    unfinished: bool
    excluded: tuple[int, ...]


class Tallied(t.NamedTuple):
    """The class's counts at one :attr:`Classroom.version`, group by group in
    the order of their logs' names (see :meth:`Classroom.tallied`)."""

    version: int
    logs: tuple[LogTally, ...]


def pool_of(tallied: Tallied) -> Pooled:
    """The class pooled from its counts, as ``aces stats`` pools its logs: pure,
    so another thread or process may do it."""
    pooling = Pooling()
    for log in tallied.logs:
        pooling.add(log.log, log.counts, log.games, log.rolls, unfinished=log.unfinished,
                    excluded=log.excluded)
    return pooling.result()


class Opening(t.NamedTuple):
    """A class served: new or resumed, with what the teacher should hear of it."""

    record: ClassRecord
    new: bool
    #: Groups whose log ended in a line torn by a crash, cut off: (label, log, line).
    repaired: list[tuple[str, str, int]]


class Group:
    """One group of the class: its record, its table, its lock, its answers."""

    def __init__(self, record: GroupRecord, table: GroupTable) -> None:
        self.record = record
        self.table = table
        self.lock = asyncio.Lock()
        self.answers: collections.OrderedDict[str, tuple[str, Answer]] = (
            collections.OrderedDict())
        #: The ``seq`` this process resumed the group at: a submission for an
        #: earlier one that is not among :attr:`answers` may be a retry of a
        #: block appended before a crash.
        self.resumed = table.seq
        #: Whether its log holds as many events as a log may: nothing more is decided.
        self.full = False
        #: The table may be ahead of the log: an append failed, and the log
        #: could not be read again then (the store away). It is read again
        #: before the table is next used.
        self.unsure = False

    def remember(self, submission: Submission, answer: Answer) -> None:
        self.answers[submission.id] = (submission.digest, answer)
        if len(self.answers) > _ANSWERS:
            self.answers.popitem(last=False)


class Classroom:
    """A class served over a store; see the module."""

    def __init__(self, store: Store, settings: Settings | None = None,
                 clock: Callable[[], float] | None = None) -> None:
        self.store = store
        self.settings = Settings() if settings is None else settings
        self.clock = clock or time.monotonic
        self.record: ClassRecord | None = None
        self.groups: dict[int, Group] = {}
        self.guesses = Guesses()
        #: Counts every change, and wakes whoever waits for one.
        self.version = 0
        #: Counts changes of the class itself (paused, a group joined or closed).
        self.class_version = 0
        #: Whoever waits for a change (:meth:`wait`), woken by the next.
        self._waiting: set[asyncio.Future[None]] = set()
        self._lock = asyncio.Lock()
        self._recent: collections.OrderedDict[tuple[int, int], str] = collections.OrderedDict()
        self._pooled: tuple[int, Pooled] | None = None
        #: Streams open now (see :attr:`Settings.streams`).
        self.streams = 0
        #: The feed's position up to which every block is in its group's
        #: table, and the record's revision this process holds: a store that
        #: other processes write too is followed (:meth:`follow`).
        self.applied = 0
        self.revision = 0
        self._following = asyncio.Lock()
        #: Positions past :attr:`applied` of blocks appended here: their tables
        #: hold them already, so the follower passes them without a read.
        self._own: dict[int, FeedEntry] = {}
        #: The feed's last blocks up to :attr:`applied`, for projectors: read
        #: from memory, not asked of the store again on every process.
        self._feed: collections.deque[FeedEntry] = collections.deque(maxlen=_RECENT)
        #: Appends under way here, done once answered.
        self._appending: set[asyncio.Future[None]] = set()
        #: The block of each append under way here, by its stream and first
        #: ``seq`` (appends to one stream go one at a time, under its lock).
        self._flying: dict[tuple[int, int], bytes] = {}

    # -- Serving ---------------------------------------------------------------

    async def open(self, game: str | None, options: Mapping[str, OptionValue] | None,
                   lang: str) -> Opening:
        """Open the class in the store: resume it, or begin a new one with
        ``game`` (default Aces in the Pot) and ``options``.

        :raises ~aces.errors.OptionError: for a game or options other than
            those of the class being resumed, or that the game refuses.
        """

        opened = await self.store.open()
        record = opened.record
        _owned(record, opened.logs)
        new = record is None
        if record is None:
            rules = game_named(game or "pot")
            record = ClassRecord(code=new_code(), secret=new_token(), game=rules.name,
                                 options=rules.options(options or {}), lang=lang)
            await self.store.save(record)
        else:
            _same_rules(record, game, options)
        self.record = record
        self.revision = self.store.revision
        # Every block up to here is in the tables read below (and perhaps more).
        self.applied = await self.store.latest()
        repaired = dict(opened.repaired)
        notices = []
        for group in record.groups:
            await self._load(group)
            if group.id in repaired:
                notices.append((group.label, group.log, repaired[group.id]))
        return Opening(record, new, notices)

    async def _load(self, record: GroupRecord) -> Group | None:
        """Read a group's table from its log; ``None`` for a group whose log is
        not begun yet (it is joining, in another process).

        A group known here already is never replaced: the follower may read
        the log of a group joined here while the join still waits for its
        first block's answer, and that read ends after the group's next
        rolls; the group made first, with its lock, is the one kept level.
        """
        known = self.groups.get(record.id)
        if known is not None:
            return known
        table = GroupTable(record.log)
        async with self.store.reading(record.id) as lines:
            await asyncio.to_thread(table.resume, lines)
        if table.seq == 0:
            return None
        group = self._adopt(Group(record, table))
        if group.table is not table:
            return group
        async with group.lock:
            if group.table.unsettled:
                # The log stops part-way through what its last roll settles
                # (a crash between its lines): the rest is written now.
                decision = group.table.settle()
                try:
                    await self._store_append(record.id, group.table.seq - len(decision.steps),
                                             decision)
                except StaleAppendError:
                    # Another process settled it first.
                    await self._reload(group)
                group.resumed = group.table.seq
        return group

    def _adopt(self, group: Group) -> Group:
        """``group`` served from now on, unless a group of its number is known
        here already: that one, whose table is kept level under its lock."""
        return self.groups.setdefault(group.record.id, group)

    async def close(self) -> None:
        await self.store.close()

    @property
    def paused(self) -> bool:
        return self.class_record.paused

    @property
    def class_record(self) -> ClassRecord:
        assert self.record is not None, "the class is opened first"
        return self.record

    # -- Who may do what ---------------------------------------------------------

    def check_code(self, code: str, device: str) -> None:
        """Admit a device to the class by its code.

        :raises ~aces.errors.ClassError: (``unknown_code``) for a wrong code;
            (``too_many_guesses``) for a device that has sent many.
        """
        now = self.clock()
        self.guesses.check(device, now)
        if not matches(normal_code(code), self.class_record.code) or self.class_record.closed:
            self.guesses.wrong(device, now)
            raise unknown_code()

    def group(self, group: int, token: str, device: str) -> Group:
        """The group ``group``, for the holder of its token alone.

        :raises ~aces.errors.ClassError: (``not_your_group``) for a token that
            is not the group's, or a group that is not in the class.
        """
        now = self.clock()
        self.guesses.check(device, now)
        found = self.groups.get(group)
        if found is None or not matches(token_digest(token), found.record.token):
            self.guesses.wrong(device, now)
            raise not_your_group()
        return found

    def is_teacher(self, secret: str) -> bool:
        return matches(secret, self.class_record.secret)

    # -- Joining ----------------------------------------------------------------------

    async def join(self, code: str, label: str, players: Sequence[str], lang: str,
                   device: str) -> tuple[Group, str]:
        """A new group at a table: its label and players (first names or seat
        labels, in seat order) → the group and its token.

        :raises ~aces.errors.ClassError: for a wrong code, a full class or a
            label taken; :raises ~aces.errors.OptionError: for players the
            game cannot seat (look-alike names, too few, control characters).
        """

        self.check_code(code, device)
        label = self._label(label)
        names = self._players(players)
        if lang not in languages():
            raise unknown_language(lang).coded("unknown_language")
        rules = game_named(self.class_record.game)
        first = header(rules, names, self.class_record.options)
        token = new_token()
        made: list[GroupRecord] = []

        def joined_to(record: ClassRecord) -> None:
            # The newest record: a group may have joined on another process.
            if len(record.groups) >= self.settings.groups:
                # Translators: the live class refuses a new group. {limit}: the
                # most groups a class takes.
                raise ClassError("the class has {limit} groups, as many as it takes",
                                 limit=self.settings.groups).coded("class_full")
            taken = {group.label.casefold() for group in record.groups}
            if label.casefold() in taken:
                # Translators: the live class refuses a group's label that
                # another group has. {label}: the label.
                raise ClassError("another group is called {label!r}; choose another name for"
                                 " the group", label=label).coded("label_taken")
            number = max((group.id for group in record.groups), default=0) + 1
            made.append(GroupRecord(id=number, log=log_name(number), label=label,
                                    players=tuple(names), token=token_digest(token),
                                    lang=lang))
            record.groups.append(made[-1])

        async with self._lock:
            self._take(await self.store.update(joined_to))
            group = made[-1]
            number = group.id
            try:
                await self.store.create(number, group.log)
            except BaseException:
                # No one was given the group's token: the group goes again.
                with contextlib.suppress(Exception):
                    self._take(await self.store.update(
                        lambda record: _without(record, number)))
                raise
            table = GroupTable(group.log)
            table.resume([])
            decision = table.begin(first)
            await self._store_append(number, 0, decision)
            fresh = Group(group, table)
            fresh.resumed = 0
            # The follower may have read the new log first (this append's
            # answer came late): that group is the one served.
            joined = self._adopt(fresh)
        self._changed(whole=True)
        return joined, token

    def suggested_label(self, lang: str) -> str:
        """A label for a new group that no group has: «Gruppe 4»."""

        # Translators: the label the pupils' page suggests for a new group.
        # {number}: the next free number.
        template = translations(lang).gettext("Group {number}")
        taken = {group.label.casefold() for group in self.class_record.groups}
        number = len(taken) + 1
        while template.format(number=number).casefold() in taken:
            number += 1
        return template.format(number=number)

    def _label(self, label: str) -> str:
        label = " ".join(label.split())
        if not label or len(label) > self.settings.label or visible(label) != label:
            # Translators: the live class refuses a group's label. {limit}: the
            # most characters it may have.
            raise ClassError("a group's name is 1 to {limit} characters that show, on one"
                             " line", limit=self.settings.label).coded("label")
        return label

    def _players(self, players: Sequence[str]) -> list[str]:
        names = [name.strip() for name in players if name.strip()]
        if len(names) > self.settings.players:
            # Translators: the live class refuses a table. {limit}: the most
            # players at one table.
            raise ClassError("a table has at most {limit} players",
                             limit=self.settings.players).coded("players")
        for name in names:
            if len(name) > self.settings.name:
                # Translators: the live class refuses a player's name. {name}: the
                # name; {limit}: the most characters a name may have.
                raise ClassError("{name!r} is longer than {limit} characters; a first name or"
                                 " a seat is enough", name=name,
                                 limit=self.settings.name).coded("players")
        return names

    # -- Recording ----------------------------------------------------------------------

    async def roll(self, group: Group, submission: str, seq: int, game: int,
                   roll: Roll) -> Answer:
        """Record ``roll`` in game number ``game`` at ``seq``, once (see the module).

        :raises ~aces.errors.ClassError: (``stale``, ``reused_id``, ``paused``,
            ``closed``); :raises ~aces.errors.AcesError: for a roll the rules
            refuse, with the message of ``aces record``.
        """
        payload = json.dumps({"roll": list(roll.dice), "to": list(roll.to), "game": game,
                              "seq": seq}, sort_keys=True)
        return await self._submit(group, Submission(submission, payload), seq,
                                  lambda table: table.decide_roll(game, roll))

    async def undo(self, group: Group, submission: str, seq: int) -> Answer:
        """Take back the group's last roll still standing, at ``seq``, once."""
        payload = json.dumps({"undo": True, "seq": seq})
        return await self._submit(group, Submission(submission, payload), seq,
                                  lambda table: table.decide_undo())

    async def _submit(self, group: Group, submission: Submission, seq: int,
                      decide: Callable[[GroupTable], Decision]) -> Answer:
        if self.store.shared and seq > group.table.seq:
            # The page saw a block another process appended a moment ago, and
            # this one's follower has yet to fold it in (its doorbell is late,
            # or the process busy): folded in now, from the store, rather than
            # the whole log read again. Many such rolls at once wait for one
            # read, not one each.
            await self.catch_up(until=lambda: seq <= group.table.seq)
        async with group.lock:
            if group.unsure:
                await self._reload(group)
            known = group.answers.get(submission.id)
            if known is not None:
                if known[0] != submission.digest:
                    raise _reused()
                return known[1]
            if seq != group.table.seq or not self.store.shared:
                # A retry (its seq has passed). A shared store's append checks
                # the submission itself, under its lock, so a roll at the
                # table's seq goes straight to it: one round trip, not two.
                answer = await self._found(group, submission, decide)
                if answer is not None:
                    return answer
            if seq > group.table.seq and self.store.shared:
                # The page saw a roll made on another process that this one
                # has not folded in yet: the table is read again first.
                await self._reload(group)
            if seq != group.table.seq:
                if group.resumed - RECONCILE <= seq < group.resumed:
                    answer = await self._decided_again(group, seq, decide)
                    if answer is not None:
                        group.remember(submission, answer)
                        return answer
                if self.store.shared:
                    # Its first sending may have been committed by another
                    # process since it was looked for (that process killed
                    # after its commit, and the page trying here).
                    answer = await self._found(group, submission, decide)
                    if answer is not None:
                        return answer
                raise stale()
            self._check_open(group)
            decision = await self._decided(group, decide)
            events = [step.event for step in decision.steps]
            appended = await self._append(group, seq, decision, submission)
            if appended.again:
                # Another process appended this very submission meanwhile (a
                # retry sent to both): its lines stand, and are answered.
                await self._reload(group)
                again = await self._decided_again(group, appended.first - 1, decide)
                if again is None:
                    raise stale()
                group.remember(submission, again)
                return again
            answer = Answer(appended.first, appended.last, tuple(events), decision.told)
            group.remember(submission, answer)
            self._keep(group.record.id, appended, decision.block)
        self._changed()
        return answer

    async def _found(self, group: Group, submission: Submission,
                     decide: Callable[[GroupTable], Decision]) -> Answer | None:
        """The answer of ``submission`` if the store holds it already (a retry)."""
        try:
            found = await self.store.find(group.record.id, submission)
        except ReusedSubmissionError:
            raise _reused() from None
        if found is None:
            return None
        answer = await self._decided_again(group, found.first - 1, decide)
        if answer is not None:
            group.remember(submission, answer)
        return answer

    async def _decided_again(self, group: Group, seq: int,
                             decide: Callable[[GroupTable], Decision]) -> Answer | None:
        """The answer of a submission decided again at ``seq`` if the log holds
        exactly its lines there; ``None`` if it does not (a stale submission)."""
        table = GroupTable(group.table.name)
        async with self.store.reading(group.record.id) as lines:
            await asyncio.to_thread(table.resume, lines, upto=seq)
        if table.seq != seq:
            return None
        try:
            decision = decide(table)
        except AcesError:
            return None
        last = seq + len(decision.steps)
        if not decision.steps:
            return None
        written = await self.store.lines(group.record.id, seq + 1, last)
        if len(written) != len(decision.steps) or b"".join(written) != decision.block:
            return None
        return Answer(seq + 1, last, tuple(step.event for step in decision.steps),
                      decision.told)

    async def _decided(self, group: Group, decide: Callable[[GroupTable], Decision]) -> Decision:
        """``decide`` on the group's table, which a log too full for the block
        leaves as the log stands.

        :raises ~aces.errors.OptionError: (:func:`aces.log.full_log`) once the
            log holds as many events as a log may, and whatever ``decide`` raises.
        """
        if group.full:
            raise full_log().coded("log_full")
        try:
            return decide(group.table)
        except AcesError:
            if group.table.seq != self.store.seq(group.record.id):
                # Only a block the log cannot take (it is full) leaves the table
                # past its log, having told what is not recorded; a log only grows.
                group.full = True
                await self._reload(group)
            raise

    async def _append(self, group: Group, seq: int, decision: Decision,
                      submission: Submission | None = None) -> Appended:
        """Append the block the table has decided, after ``seq``; the table
        follows the log whatever happens.

        :raises ~aces.errors.ClassError: (``stale``) where another process
            appended to the group first: the table is read again, as the
            log holds it now, for the page to decide again on.
        """
        try:
            return await self._store_append(group.record.id, seq, decision, submission)
        except StaleAppendError:
            await self._reload(group)
            raise stale() from None
        except BaseException:
            # Nothing is appended: the table goes back to what the log holds.
            await self._restore(group)
            raise

    async def _store_append(self, stream: int, expected: int, decision: Decision,
                            submission: Submission | None = None) -> Appended:
        """``store.append`` of ``decision``'s block, noted for the follower:
        its block is in its table, and the store's doorbell for it may ring
        before its answer comes (see :meth:`catch_up`, :meth:`_fold`)."""
        events = [step.event for step in decision.steps]
        if not self.store.shared:
            return await self.store.append(stream, expected, events, submission)
        answered = asyncio.get_running_loop().create_future()
        self._appending.add(answered)
        flying = (stream, expected + 1)
        self._flying[flying] = decision.block
        try:
            appended = await self.store.append(stream, expected, events, submission)
            self._mine(stream, appended)
            return appended
        finally:
            self._appending.discard(answered)
            self._flying.pop(flying, None)
            answered.set_result(None)

    async def _reload(self, group: Group) -> None:
        table = GroupTable(group.table.name)
        async with self.store.reading(group.record.id) as lines:
            await asyncio.to_thread(table.resume, lines)
        group.table = table
        group.unsure = False

    async def _restore(self, group: Group) -> None:
        """After an append that failed: the table as the log holds it, now or,
        if the store cannot say now, before the table is next used."""
        group.unsure = True
        with contextlib.suppress(AcesError, OSError):
            await self._reload(group)

    async def settled(self, group: Group) -> None:
        """``group``'s table as its log holds it, if a failed append left it unsure."""
        if group.unsure:
            async with group.lock:
                if group.unsure:
                    await self._reload(group)

    def _check_open(self, group: Group) -> None:
        if self.class_record.closed:
            raise class_closed()
        if group.record.closed:
            # Translators: the live class refuses a roll of a group the
            # teacher has closed.
            raise ClassError("the teacher has closed this group, so nothing more is recorded"
                             " for it").coded("closed")
        if self.paused:
            # Translators: the live class refuses a roll while the teacher has
            # paused recording (for a discussion).
            raise ClassError("the teacher has paused recording for a moment; the roll can be"
                             " recorded once it goes on").coded("paused")

    # -- The teacher -------------------------------------------------------------------

    async def pause(self, paused: bool) -> None:
        def paused_to(record: ClassRecord) -> None:
            record.paused = paused

        async with self._lock:
            self._take(await self.store.update(paused_to))
        self._changed(whole=True)

    async def close_group(self, group: int, closed: bool = True) -> None:
        """Close a group (nothing more is recorded for it), or open it again.

        :raises ~aces.errors.ClassError: (``no_group``) for a group not in the class.
        """
        if group not in self.groups:
            raise _no_group()

        def closed_to(record: ClassRecord) -> None:
            for kept in record.groups:
                if kept.id == group:
                    kept.closed = closed

        async with self._lock:
            self._take(await self.store.update(closed_to))
        self._changed(whole=True)

    async def exclude(self, group: int, game: int) -> None:
        """Take game number ``game`` of a group out of the class's pool: an
        event appended to the group's log (never a line taken out of it).

        :raises ~aces.errors.ClassError: (``no_group``, ``no_game``) for a
            group or a game the class does not have, or a game out already.
        """
        found = self.group_by_id(group)
        async with found.lock:
            if self.store.shared:
                # Rolls made on other processes count: the table as the log holds it.
                await self._reload(found)
            decision = await self._decided(found, lambda table: table.decide_exclusion(game))
            appended = await self._append(found, found.table.seq - 1, decision)
            self._keep(group, appended, decision.block)
        self._changed(whole=True)

    async def speak(self, lang: str, group: Group | None = None) -> None:
        """The projector's language, or ``group``'s.

        :raises ~aces.errors.OptionError: for a language not offered.
        """

        if lang not in languages():
            raise unknown_language(lang).coded("unknown_language")
        number = None if group is None else group.record.id

        def spoken_in(record: ClassRecord) -> None:
            if number is None:
                record.lang = lang
            for kept in record.groups:
                if kept.id == number:
                    kept.lang = lang

        async with self._lock:
            self._take(await self.store.update(spoken_in))
        self._changed(whole=group is None)

    def _take(self, record: ClassRecord) -> None:
        """Hold ``record``, the newest, in place of the one before: every group
        known here is given its entry of it (a group that joined on another
        process is read from its log by :meth:`follow`)."""
        self.record = record
        self.revision = max(self.revision, self.store.revision)
        for kept in record.groups:
            found = self.groups.get(kept.id)
            if found is not None:
                found.record = kept

    def group_by_id(self, group: int) -> Group:
        """The group numbered ``group``, for the teacher.

        :raises ~aces.errors.ClassError: (``no_group``) for a group not in the class.
        """
        found = self.groups.get(group)
        if found is None:
            raise _no_group()
        return found

    # -- Other processes ----------------------------------------------------------------

    @property
    def position(self) -> int:
        """The feed's position up to which this process shows the class: every
        block up to it is in its group's table."""
        return self.applied if self.store.shared else self.store.position

    async def entries(self, after: int, limit: int) -> list[FeedEntry]:
        """The feed's blocks after ``after``, up to :attr:`position`."""
        if after >= self.position:
            return []
        feed = self._feed
        if feed and feed[0].position <= after + 1:
            start = after + 1 - feed[0].position
            return list(itertools.islice(feed, start, start + limit))
        entries = await self.store.entries(after, min(limit, self.position - after))
        return [entry for entry in entries if entry.position <= self.position]

    async def follow(self) -> None:
        """Keep this process level with a store that other processes write too,
        until cancelled: every block appended elsewhere is folded into its
        group's table, and a record changed elsewhere is taken in, so the
        projector shows the same class on every process. The store's
        notifications only wake this; what changed is read from the store,
        so one that is lost only delays."""
        while True:
            await self.store.changed(self.applied, self.revision)
            await self.catch_up(rung=True)

    async def catch_up(self, *, rung: bool = False,
                       until: Callable[[], bool] | None = None) -> None:
        """Fold in everything other processes have done to the class until now
        (nothing to do for a store that this process alone writes). ``rung``:
        the store's doorbell says where the feed is, so blocks appended here
        alone are passed without asking the store; ``until``: nothing more
        to do once it holds (a catch-up that went before did it).

        A doorbell may be for a block appended here whose answer is on its
        way: rung, the follower waits for this process's appends under way,
        briefly, rather than read the block, and waits without the follow
        lock, so that a roll whose page saw another process's block reads
        it at once rather than wait behind appends that are not its own."""
        if not self.store.shared:
            return
        whole = moved = False
        if rung and self._appending:
            await self._answered()
        waited_again = False
        while True:
            async with self._following:
                if until is not None and until():
                    break
                if self.store.revision != self.revision:
                    async with self._lock:
                        self._take(await self.store.record())
                    whole = True
                passed = self._pass_own()
                moved = moved or passed
                if rung and passed and self.store.position <= self.applied:
                    # Only this process's blocks were new: nothing to read.
                    break
                if not (rung and passed and self._appending and not waited_again):
                    while True:
                        blocks = await self.store.blocks(self.applied, _FOLD)
                        for entry, block in blocks:
                            whole = await self._fold(entry, block) or whole
                            self._own.pop(entry.position, None)
                            self._apply(entry)
                        moved = moved or bool(blocks)
                        if len(blocks) < _FOLD:
                            break
                    break
            # The doorbell of an append begun here since the wait above can
            # come before its answer: it is waited for once more, then read.
            waited_again = True
            await self._answered()
        if moved or whole:
            # A block folded in changes its group's row alone; the class's
            # record, or a group that joined elsewhere, the whole class.
            self._changed(whole=whole)

    async def _answered(self) -> None:
        """Wait, :data:`_ANSWERED` seconds at most, for the answers of the
        appends under way here."""
        await asyncio.wait(list(self._appending), timeout=_ANSWERED)

    def _pass_own(self) -> bool:
        """Move :attr:`applied` past the blocks appended here that come next."""
        passed = False
        while self.applied + 1 in self._own:
            self._apply(self._own.pop(self.applied + 1))
            passed = True
        return passed

    def _apply(self, entry: FeedEntry) -> None:
        """Every block up to ``entry`` is in its group's table now."""
        feed = self._feed
        if feed and feed[-1].position != entry.position - 1:
            feed.clear()
        feed.append(entry)
        self.applied = entry.position

    def _mine(self, stream: int, appended: Appended) -> None:
        """Note a block appended here, for the follower (see :attr:`_own`)."""
        if self.store.shared and not appended.again and appended.position > self.applied:
            self._own[appended.position] = FeedEntry(appended.position, stream,
                                                     appended.first, appended.last)
            if len(self._own) > _RECENT:
                # Not followed (no follower runs): forget the oldest; the
                # follower would read its block again, no more.
                del self._own[min(self._own)]

    async def _fold(self, entry: FeedEntry, block: bytes) -> bool:
        """Bring the table of ``entry``'s group level with it (its lines are
        ``block``); whether the group was new here."""
        group = self.groups.get(entry.stream)
        if group is None:
            record = next((kept for kept in self.class_record.groups
                           if kept.id == entry.stream), None)
            if record is None:
                async with self._lock:
                    self._take(await self.store.record())
                record = next((kept for kept in self.class_record.groups
                               if kept.id == entry.stream), None)
            return record is not None and await self._load(record) is not None
        if self._flying.get((entry.stream, entry.first)) == block:
            # Appended here, its answer on its way (the group's lock still
            # held): in its table already, and passed without the lock. A
            # block of another process at that place waits for the append
            # under way here, which the store refuses as stale.
            return False
        async with group.lock:
            if group.unsure:
                await self._reload(group)
                return False
            table = group.table
            if table.seq >= entry.last:
                return False
            if table.seq == entry.first - 1 and table.take(block):
                self._keep(entry.stream, Appended(entry.position, entry.first, entry.last),
                           block)
                return False
            await self._reload(group)
        return False

    # -- Results ------------------------------------------------------------------------

    def pooled(self) -> Pooled:
        """The class pooled as ``aces stats`` pools its logs, in the order of
        their names (as ``aces stats DIR/*.jsonl`` takes them)."""

        cached = self._pooled
        if cached is not None and cached[0] == self.version:
            return cached[1]
        pooled = pool_of(self.tallied())
        self._pooled = (self.version, pooled)
        return pooled

    def keep_pooled(self, version: int, pooled: Pooled) -> None:
        """The class pooled elsewhere (in another process) from its counts at
        ``version`` (:meth:`tallied`): kept for :meth:`pooled` while the
        class is still there."""
        if version == self.version:
            self._pooled = (version, pooled)

    def tallied(self) -> Tallied:
        """The class's counts now, each group's as :meth:`pooled` adds them:
        copies, which later rolls leave as they are, so that
        :func:`pool_of` may pool them away from the loop (in another process,
        to which they are sent pickled)."""

        each = []
        for group in sorted(self.groups.values(), key=lambda group: group.record.log):
            tally = group.table.tally
            counts, games, rolls = tally.counts()
            each.append(LogTally(group.record.log, counts, games, rolls, tally.unfinished,
                                 tally.taken_out()))
        return Tallied(self.version, tuple(each))

    # -- Changes, for projectors -----------------------------------------------------

    def _changed(self, *, whole: bool = False) -> None:
        self.version += 1
        if whole:
            self.class_version += 1
        # Woken here and now: a roll wakes the few who wait, with no task of its own.
        waiting, self._waiting = self._waiting, set()
        for waiter in waiting:
            if not waiter.done():
                waiter.set_result(None)

    async def wait(self, seen: int, timeout: float) -> int:
        """Wait until something changed after version ``seen`` (or ``timeout``
        seconds passed); the version now."""
        if self.version <= seen:
            waiter = asyncio.get_running_loop().create_future()
            self._waiting.add(waiter)
            try:
                async with asyncio.timeout(timeout):
                    await waiter
            except TimeoutError:
                pass
            finally:
                self._waiting.discard(waiter)
        return self.version

    def _keep(self, stream: int, appended: Appended, block: bytes) -> None:
        self._recent[(stream, appended.first)] = _block_json(stream, appended.first,
                                                             appended.last, block)
        if len(self._recent) > _RECENT:
            self._recent.popitem(last=False)

    async def block(self, entry: FeedEntry) -> str:
        """The JSON of one block of the feed, as a projector's stream sends it."""
        kept = self._recent.get((entry.stream, entry.first))
        if kept is not None:
            return kept
        lines = await self.store.lines(entry.stream, entry.first, entry.last)
        return _block_json(entry.stream, entry.first, entry.last, b"".join(lines))


def _block_json(stream: int, first: int, last: int, block: bytes) -> str:
    """A block of a log for the stream: the group, its lines' ``seq`` and the
    lines themselves, as JSON objects exactly as the log holds them."""
    lines = ",".join(block.decode("utf-8").splitlines())
    return f'{{"group":{stream},"first":{first},"last":{last},"lines":[{lines}]}}'


def _owned(record: ClassRecord | None, logs: Sequence[tuple[int, str]]) -> None:
    """Refuse a log in the class's folder that no group of its record wrote.

    A group's log is begun only once the record names the group, so such a log
    was put there from elsewhere (another class's, a copy): taken in, it would
    stand in the pool, and the group given its number could never join.
    """
    owned = set() if record is None else {group.id for group in record.groups}
    for stream, path in sorted(logs):
        if stream not in owned:
            # Translators: an error of "aces class serve DIR": DIR holds a log
            # with a group's file name that no group of the class wrote.
            # {path}: the file.
            raise AcesError("{path} is not the log of any group of this class; move it out of"
                            " the class's folder", path=path)


def _same_rules(record: ClassRecord, game: str | None,
                options: Mapping[str, OptionValue] | None) -> None:
    """Refuse to resume a class with other rules than it was begun with."""

    if game is not None and game != record.game:
        differs = True
    else:
        given = game_named(record.game).options(options or {}) if options else None
        differs = given is not None and given != record.options
    if differs:
        # Translators: an error of "aces class serve DIR" on a folder that holds
        # a class already. {game}: the class's game; keep the options as they are.
        raise OptionError("this folder holds a class of {game} begun with other options; serve"
                          " it as it is, without --game and the game's options, or give"
                          " another folder", game=record.game)


def _without(record: ClassRecord, group: int) -> None:
    record.groups = [kept for kept in record.groups if kept.id != group]


def class_closed() -> ClassError:
    # Translators: the live class on a school's server refuses a roll or a
    # new group once the teacher has closed the class.
    return ClassError("the teacher has closed this class, so nothing more is recorded in"
                      " it").coded("class_closed")


def unknown_code() -> ClassError:
    # Translators: the live class refuses a class code. The code is
    # what the teacher shows on the projector.
    return ClassError("no class has this code here; check the code on the"
                      " projector").coded("unknown_code")


def not_your_group() -> ClassError:
    # Translators: the live class refuses a page or a program that
    # does not hold the group's token (it joined another group, or
    # the class was served anew).
    return ClassError("this device does not belong to that group of the class; join"
                      " the class again").coded("not_your_group")


def teacher_only() -> ClassError:
    # Translators: the live class refuses what only the teacher may see
    # or do, asked without the teacher's secret address.
    return ClassError("only the teacher's own address can do this").coded("teacher_only")


def _reused() -> ClassError:
    # Translators: the live class refuses a submission whose id was used before
    # for another roll (a program's mistake; a page never does it).
    return ClassError("this submission id was used before for something else; send a new"
                      " one").coded("reused_id")


def _no_group() -> ClassError:
    # Translators: the live class: a group asked for is not in the class.
    return ClassError("the class has no such group").coded("no_group")
