"""Narrated replays: the events of a log told as a story, in a language.

:class:`Narrator` is a :class:`~aces.walk.Visitor` of the steps of a walk,
so nothing is told past a bad line. It numbers the games, hands each event
to the phrasebook its game registered (:mod:`aces.games`; the built-in ones
are :mod:`aces.narrate.pot` and :mod:`aces.narrate.fivedice`), shows the
standings once a roll is settled, and keeps a session's tally (pots won,
or in the five-dice game, games lost).

>>> import io
>>> from aces.dice import DiceFile
>>> from aces.engine import header, play
>>> from aces.i18n import translations
>>> from aces.log import LogWriter, read
>>> from aces.games import game_named
>>> game = game_named("pot")
>>> log = io.BytesIO()
>>> dice = DiceFile("2/3/5/1 6/3 5/6 6/1 1/1 6/1 4/2 5/6 6/1 1/3 4/5 2".split("/"), "E1")
>>> LogWriter(log).write_all(play(game, header(game, ["Ada", "Bo", "Cy"], {}), dice))
>>> story = drive(read(io.BytesIO(log.getvalue()), "E1"), "E1",
...               Narrator(translations("en"), "en"))
>>> print(story[-1])
Bo wins the pot of 5 chips.
"""

from __future__ import annotations

import sys
import typing as t

from aces.errors import N_, AcesError, OptionError
from aces.events import GameOver, GameStarted, Rolled
from aces.games import registration
from aces.scores import Scores
from aces.voice import Voice
from aces.walk import Visitor, drive, unfinished

if t.TYPE_CHECKING:
    import gettext
    from collections.abc import Callable, Iterable

    from aces.events import Event
    from aces.log import Record
    from aces.narrate.phrasebook import Phrasebook
    from aces.walk import Step

__all__ = ["UNFINISHED", "Narrator", "tell", "unfinished"]


# Translators: the last line of "aces replay" and "aces walkthrough", and the
# end of the verdict of "aces verify", for a log whose last game is still
# being played. {player}: who rolls next.
UNFINISHED: t.Final = N_("The game is not finished yet: {player} rolls next.")


class _Session:
    """Games played and scored so far, for one kind of game in the log
    (within the bound of :mod:`aces.scores`)."""

    def __init__(self) -> None:
        self.games = 0
        self.scores = Scores()


class Narrator(Visitor[list[str]]):
    """Tells the steps of a walk, one after another, in one language.

    :meth:`visit` adds the lines of one step to :attr:`lines`; the
    standings of a roll follow once its consequences are all told, so they
    come with the next event that is not one (or with :meth:`settle` or
    :meth:`end`). A game's end that settles a roll (the five-dice game's
    last 1) leaves the standings untold: the last line says how the game
    ended. Whoever prints the story as it goes :meth:`take` s the lines.
    """

    def __init__(self, catalog: gettext.NullTranslations, lang: str, *,
                 voice: Voice | None = None) -> None:
        # A voice of its own, unless it is given one to share with other
        # narrators of the same language (and with it, its memos).
        self.voice = Voice(catalog, lang) if voice is None else voice
        self.games = 0
        #: The lines told and not yet taken.
        self.lines: list[str] = []
        self._books: dict[str, Phrasebook] = {}
        self._book: Phrasebook | None = None
        #: The phrasebook's kinds of events that settle a roll, move the
        #: standings, and mark a milestone (:class:`Phrasebook`), kept here as
        #: the game changes: read through the book at every step, Python 3.11
        #: would look each up in its class anew.
        self.settling: frozenset[type] = frozenset()
        self.moving: frozenset[type] = frozenset()
        self.milestones: frozenset[type] = frozenset()
        self._sessions: dict[str, _Session] = {}
        #: The state whose standings are still to be shown (``None`` when
        #: they are all told): :meth:`settle` has nothing to do without it.
        self.due: t.Any = None
        #: The last step told: after it, an unfinished game waits for a roll.
        self._last: Step[t.Any] | None = None
        #: The state of the last standings shown in this game (or its start).
        self._shown: t.Any = None
        #: Who the lines go to as they gather (:meth:`hand_on`), and how many
        #: may gather first: none yet, and no limit.
        self._taker: Callable[[list[str]], None] | None = None
        self._gathered = sys.maxsize

    @staticmethod
    def is_roll(step: Step[t.Any]) -> bool:
        """Whether the step is a roll of the dice (``--step`` waits before each)."""
        return type(step.event) is Rolled

    def visit(self, step: Step[t.Any]) -> None:
        """Tell one step: its lines go to :attr:`lines`."""
        out = self.lines
        event = step.event
        kind = type(event)
        book = self._book
        self._last = step
        if kind is GameStarted:
            self.settle()
            self._start(t.cast("GameStarted", event), out)
            self._shown = step.state
            return
        assert book is not None, "walk() always begins with game_started"
        due = self.due
        if due is not None and kind not in self.settling:
            # The standings of the roll now settled (:meth:`_show`, written
            # out here: a replay shows them after most rolls).
            line = book.standings(due, self._shown, full=kind in self.milestones)
            if line is not None:
                out.append(line)
            self._shown, self.due = due, None
        out.extend(book.say(step))
        if kind in self.moving:
            self.due = step.state
        elif kind is GameOver:
            self.due = None
            self._score(book, t.cast("GameOver", event), out)
        elif step.undone is not None:
            self.due = step.state
            for settled in step.undone.settled:
                if isinstance(settled, GameOver):
                    self._unscore(book, settled)
        if len(out) >= self._gathered:
            self._hand()

    def take(self) -> list[str]:
        """The lines told since last taken, taken away."""
        lines, self.lines = self.lines, []
        return lines

    def hand_on(self, taker: Callable[[list[str]], None], every: int) -> None:
        """Hand the lines told to ``taker`` as soon as ``every`` of them have
        gathered, so that a story told as the log is read (a replay of a
        million events) never piles up: a printer writes them out. What is
        left at the end is :meth:`take` n as before."""
        self._taker, self._gathered = taker, every

    def _hand(self) -> None:
        assert self._taker is not None, "lines are handed on only to a taker"
        self._taker(self.take())

    def settle(self, *, full: bool = False) -> None:
        """Tell the standings now if they have changed since last told.

        ``full``: a milestone, whose standings are whole (at a large table,
        those who hold anything and that no one else does).
        """
        if self.due is not None and self._book is not None:
            self._show(self._book, full=full)

    def _show(self, book: Phrasebook, *, full: bool = False) -> None:
        """The standings due, if anything they name has changed."""
        line = book.standings(self.due, self._shown, full=full)
        if line is not None:
            self.lines.append(line)
        self._shown, self.due = self.due, None

    def end(self) -> None:
        """The closing lines once the log is read: the verdict of a session, and
        for a game still being played, that it is not finished and whose roll it is."""
        self.settle()
        for name, session in self._sessions.items():
            if session.games > 1:
                self.lines.append(self._books[name].verdict(session.scores.counts, session.games))
        waiting = unfinished(self._last)
        if waiting is not None:
            self.lines.append(self.voice.gettext(UNFINISHED).format(player=waiting))

    def result(self) -> list[str]:
        """Every line told and not taken."""
        return self.lines

    def carried(self) -> t.Hashable:
        """The games told, each game's session, the phrasebooks opened, and
        whether standings are still due."""
        return (self.games, self.due is None, tuple(self._books),
                tuple((name, session.games, session.scores.kept())
                      for name, session in self._sessions.items()))

    def passed(self, event: Event) -> None:
        kind = type(event)
        if kind is GameStarted:
            self._open(t.cast("GameStarted", event))
        elif kind is GameOver:
            assert self._book is not None, "a game ends after it starts"
            self._count(self._book, t.cast("GameOver", event))

    def _start(self, event: GameStarted, out: list[str]) -> None:
        out.extend(self._open(event).header(self.games, event))

    def _open(self, event: GameStarted) -> Phrasebook:
        """A game begins: its phrasebook, and the session's count of players."""
        book = self._books.get(event.game)
        if book is None:
            try:
                game = registration(event.game)
            except OptionError:
                # Translators: an error of "aces replay". {game}: the game's
                # name in the log, such as 'fivedice'.
                raise AcesError("replay cannot tell a game of {game!r} yet; aces verify"
                                " can check it", game=event.game) from None
            book = self._books[event.game] = game.phrasebook(self.voice)
        self._book = book
        self.settling, self.moving, self.milestones = (book.settling, book.moving,
                                                          book.milestones)
        self.games += 1
        session = self._sessions.setdefault(event.game, _Session())
        session.scores.seat(event.players, self.games)
        return book

    def _score(self, book: Phrasebook, event: GameOver, out: list[str]) -> None:
        session = self._count(book, event)
        if session.games > 1:
            out.append(book.tally(session.scores.counts, session.games))

    def _count(self, book: Phrasebook, event: GameOver) -> _Session:
        """A game ends: the session counts it, and its score."""
        session = self._sessions[book.game]
        session.games += 1
        scorer = book.score(event)
        if scorer is not None:
            session.scores.add(scorer)
        return session

    def _unscore(self, book: Phrasebook, event: GameOver) -> None:
        """Take back the score of a game whose last roll was taken back."""
        session = self._sessions[book.game]
        session.games -= 1
        scorer = book.score(event)
        if scorer is not None:
            session.scores.add(scorer, -1)


def tell(records: Iterable[Record], source: str, catalog: gettext.NullTranslations,
         lang: str) -> list[str]:
    """A whole log in words: every line a replay prints, for tests and docs.

    :raises ~aces.errors.AcesError: at the first line of the log that is not
        sound (see :func:`aces.walk.walk`).
    """
    return drive(records, source, Narrator(catalog, lang), allow_unfinished=True,
                 allow_unsettled=False)
