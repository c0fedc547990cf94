"""What ``aces verify`` reports: games, events and results, counted as read.

>>> from aces.events import GameOver, GameStarted, RollUndone
>>> from aces.i18n import translations
>>> from aces.walk import Step
>>> tally = Tally()
>>> for line, event in enumerate([GameStarted(schema=1, game="pot", players=("Ada", "Bo"),
...                                            options={}), GameOver(winner="Bo", pot=3)], 1):
...     tally.visit(Step(line, event, None, None))
>>> tally.line("game.jsonl", "nb", translations("nb"))
'game.jsonl følger reglene: ett parti og to hendelser. Vinner: Bo.'
"""

from __future__ import annotations

import typing as t

from aces.events import GameOver, GameStarted, RollUndone
from aces.narrate import UNFINISHED
from aces.scores import Scores
from aces.voice import Voice
from aces.walk import Visitor, unfinished

if t.TYPE_CHECKING:
    import gettext

    from aces.events import Event
    from aces.walk import Step

__all__ = ["Tally"]


class Tally(Visitor["Tally"]):
    """Counts the steps of a walk: a visitor that keeps a few numbers.

    It reads only the starts and ends of games and the undos (its
    :attr:`~aces.walk.Visitor.kinds`), and the last step of the log.
    """

    kinds = frozenset({GameStarted, GameOver, RollUndone})

    def __init__(self) -> None:
        #: The events of the log: the line of the last (a log's lines run
        #: 1, 2, 3..., one event each, as the reader checks).
        self.events = 0
        self.games = 0
        #: Games won and lost per player, every seated player included
        #: (within the bound of :mod:`aces.scores`).
        self._wins = Scores()
        self._losses = Scores()
        #: Who rolls next in the last game, if it is not finished.
        self.waiting: str | None = None
        self._last: Step[t.Any] | None = None

    def visit(self, step: Step[t.Any]) -> None:
        self.events = step.line
        self._last = step
        event = step.event
        if step.undone is not None:
            # A roll taken back takes back the result it settled.
            for settled in step.undone.settled:
                if isinstance(settled, GameOver):
                    self._count(settled, -1)
        else:
            self.passed(event)

    def passed(self, event: Event) -> None:
        if isinstance(event, GameStarted):
            self.games += 1
            self._wins.seat(event.players, self.games)
            self._losses.seat(event.players, self.games)
        elif isinstance(event, GameOver):
            self._count(event, 1)

    def carried(self) -> t.Hashable:
        return self.games, self._wins.kept(), self._losses.kept()

    def end(self) -> None:
        self.waiting = unfinished(self._last)
        # Counted to the end, the tally holds numbers alone (a later part of a
        # log walked on another core hands it on whole: aces.split).
        self._last = None

    def result(self) -> Tally:
        return self

    def _count(self, over: GameOver, by: int) -> None:
        if over.winner is not None:
            self._wins.add(over.winner, by)
        if over.loser is not None:
            self._losses.add(over.loser, by)

    @property
    def wins(self) -> dict[str, int]:
        """Games won by each player remembered."""
        return self._wins.counts

    @property
    def losses(self) -> dict[str, int]:
        """Games lost by each player remembered."""
        return self._losses.counts

    def line(self, source: str, lang: str, catalog: gettext.NullTranslations) -> str:
        """One line saying the log is sound, and what it holds."""

        # Small counts in words, as running text writes them («tre partier»).
        voice = Voice(catalog, lang)

        def results(counts: dict[str, int]) -> str:
            # Translators: one entry of the results of "aces verify".
            # {player}: a player's name; {count}: games won (or lost).
            entry = catalog.pgettext("results", "{player} {count}")
            return voice.names([entry.format(player=name, count=voice.number(count))
                                for name, count in counts.items()])

        # Translators: part of the verdict of "aces verify". {count}: the
        # games in the log.
        games = catalog.ngettext("{count} game", "{count} games", self.games).format(
            count=voice.count(self.games))
        # Translators: part of the verdict of "aces verify". {count}: the
        # events (lines) in the log.
        events = catalog.ngettext("{count} event", "{count} events", self.events).format(
            count=voice.count(self.events))
        # Translators: "aces verify" found no fault. {source}: the log's file
        # name; {details}: how many games and events it holds, as a list.
        text = catalog.gettext("{source} follows the rules: {details}.").format(
            source=source, details=voice.names([games, events]))
        one = self.games == 1

        def outcome(counts: dict[str, int], alone: str, each: str) -> str:
            """Who won (or lost) one game; each player's count, of several."""
            if one:
                return alone.format(names=voice.names([n for n, c in counts.items() if c]))
            return each.format(results=results(counts))

        if any(self.wins.values()):
            text = f"{text} " + outcome(
                self.wins,
                # Translators: after the verdict of "aces verify" on one game.
                # {names}: the winner.
                catalog.gettext("Won by {names}."),
                # Translators: after the verdict of "aces verify" on several
                # games. {results}: each player with the games won, as a list.
                catalog.gettext("Wins: {results}."))
        if any(self.losses.values()):
            text = f"{text} " + outcome(
                self.losses,
                # Translators: after the verdict of "aces verify" on one game
                # of the five-dice game. {names}: the loser.
                catalog.gettext("Lost by {names}."),
                # Translators: after the verdict of "aces verify" on several
                # games of the five-dice game. {results}: each player with the
                # games lost, as a list.
                catalog.gettext("Losses: {results}."))
        if self.waiting is not None:
            text = f"{text} {catalog.gettext(UNFINISHED).format(player=self.waiting)}"
        return text
