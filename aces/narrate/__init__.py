"""Narrated replays: the events of a log told as a story, in a language.

:class:`Narrator` is a visitor over the steps of :func:`aces.walk.walk`,
so nothing is told past a bad line. It numbers the games, hands each event
to the phrasebook of its game (:mod:`aces.narrate.pot`,
:mod:`aces.narrate.fivedice`), shows the standings once a roll is settled,
and keeps a session's tally (pots won, or in the five-dice game, games lost).

>>> import io
>>> from aces.dice import DiceFile
>>> from aces.engine import header, play
>>> from aces.i18n import translations
>>> from aces.log import LogWriter, read
>>> from aces.rules import game_named
>>> game = game_named("pot")
>>> log = io.BytesIO()
>>> dice = DiceFile("2/3/5/1 6/3 5/6 6/1 1/1 6/1 4/2 5/6 6/1 1/3 4/5 2".split("/"), "E1")
>>> LogWriter(log).write_all(play(game, header(game, ["Ada", "Bo", "Cy"], {}), dice))
>>> story = tell(read(io.BytesIO(log.getvalue()).readlines(), "E1"), "E1",
...              translations("en"), "en")
>>> print(story[-1])
Bo wins the pot of 5 chips.
"""

from __future__ import annotations

import typing as t

from aces.errors import AcesError
from aces.events import GameOver, GameStarted, Rolled, RollUndone
from aces.narrate.fivedice import FiveDicePhrasebook
from aces.narrate.pot import PotPhrasebook
from aces.narrate.voice import Voice

if t.TYPE_CHECKING:
    import gettext
    from collections.abc import Iterable

    from aces.log import Record
    from aces.narrate.phrasebook import Phrasebook
    from aces.walk import Step

__all__ = ["PHRASEBOOKS", "Narrator", "tell"]

#: The phrasebook of each game, by the name the log uses.
PHRASEBOOKS: t.Final[dict[str, type[Phrasebook]]] = {
    book.game: book for book in (PotPhrasebook, FiveDicePhrasebook)}


class _Session:
    """Games played and scored so far, for one kind of game in the log."""

    def __init__(self) -> None:
        self.games = 0
        self.scores: dict[str, int] = {}


class Narrator:
    """Tells the steps of a walk, one after another, in one language.

    :meth:`narrate` appends the lines of one step; the standings of a roll
    follow once its consequences are all told, so they come with the next
    event that is not one (or with :meth:`settle` or :meth:`finish`). A
    game's end that settles a roll (the five-dice game's last 1) leaves the
    standings untold: the last line says how the game ended.
    """

    def __init__(self, catalog: gettext.NullTranslations, lang: str) -> None:
        self.voice = Voice(catalog, lang)
        self.games = 0
        self._books: dict[str, Phrasebook] = {}
        self._book: Phrasebook | None = None
        self._sessions: dict[str, _Session] = {}
        #: The state whose standings are still to be shown.
        self._due: t.Any = None
        #: The state of the last standings shown in this game (or its start).
        self._shown: t.Any = None
        #: The game and player the last game over scored, until the next event:
        #: a roll taken back right after it takes the score back too.
        self._scored: tuple[str, str | None] | None = None

    @staticmethod
    def is_roll(step: Step) -> bool:
        """Whether the step is a roll of the dice (``--step`` waits before each)."""
        return type(step.event) is Rolled

    def narrate(self, step: Step, out: list[str] | None = None) -> list[str]:
        """The lines of one step, appended to ``out`` (a new list by default)."""
        if out is None:
            out = []
        event = step.event
        kind = type(event)
        book = self._book
        if kind is GameStarted:
            self.settle(out)
            self._start(t.cast("GameStarted", event), out)
            self._shown = step.state
            return out
        assert book is not None, "walk() always begins with game_started"
        if self._due is not None and kind not in book.settling:
            self._show(book, out, full=kind in book.milestones)
        out.extend(book.say(step))
        scored, self._scored = self._scored, None
        if kind in book.moving:
            self._due = step.state
        elif kind is GameOver:
            self._due = None
            self._score(book, t.cast("GameOver", event), out)
        elif kind is RollUndone:
            self._due = step.state
            if scored is not None:
                self._unscore(*scored)
        return out

    def settle(self, out: list[str] | None = None, *, full: bool = False) -> list[str]:
        """Show the standings now if they have changed since last shown.

        ``full``: name every player, even at a large table (a milestone).
        """
        if out is None:
            out = []
        if self._due is not None and self._book is not None:
            self._show(self._book, out, full=full)
        return out

    def _show(self, book: Phrasebook, out: list[str], *, full: bool = False) -> None:
        """The standings due, if anything they name has changed."""
        line = book.standings(self._due, self._shown, full=full)
        if line is not None:
            out.append(line)
        self._shown, self._due = self._due, None

    def finish(self, out: list[str] | None = None) -> list[str]:
        """The closing lines once the log is read: the verdict of a session."""
        out = self.settle(out)
        for name, session in self._sessions.items():
            if session.games > 1:
                out.append(self._books[name].verdict(session.scores, session.games))
        return out

    def _start(self, event: GameStarted, out: list[str]) -> None:
        book = self._books.get(event.game)
        if book is None:
            phrasebook = PHRASEBOOKS.get(event.game)
            if phrasebook is None:
                # Translators: an error of "aces replay". {game}: the game's
                # name in the log, such as 'fivedice'.
                raise AcesError("replay cannot tell a game of {game!r} yet; aces verify"
                                " can check it", game=event.game)
            book = self._books[event.game] = phrasebook(self.voice)
        self._book = book
        self.games += 1
        session = self._sessions.setdefault(event.game, _Session())
        for name in event.players:
            session.scores.setdefault(name, 0)
        out.extend(book.header(self.games, event))

    def _score(self, book: Phrasebook, event: GameOver, out: list[str]) -> None:
        session = self._sessions[book.game]
        session.games += 1
        scorer = book.score(event)
        self._scored = (book.game, scorer)
        if scorer is not None:
            session.scores[scorer] = session.scores.get(scorer, 0) + 1
        if session.games > 1:
            out.append(book.tally(session.scores, session.games))


    def _unscore(self, game: str, scorer: str | None) -> None:
        """Take back the score of a game whose last roll was taken back."""
        session = self._sessions[game]
        session.games -= 1
        if scorer is not None:
            session.scores[scorer] -= 1


def tell(records: Iterable[Record], source: str, catalog: gettext.NullTranslations,
         lang: str) -> list[str]:
    """A whole log in words: every line a replay prints, for tests and docs."""
    from aces.walk import walk

    narrator = Narrator(catalog, lang)
    out: list[str] = []
    for step in walk(records, source):
        narrator.narrate(step, out)
    return narrator.finish(out)
