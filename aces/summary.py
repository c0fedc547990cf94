"""What ``aces verify`` reports: games, events and results, counted as read."""

from __future__ import annotations

import typing as t

from aces.events import GameOver, GameStarted

if t.TYPE_CHECKING:
    import gettext

    from aces.walk import Step


class Tally:
    """Counts the steps of a walk: a visitor that keeps three numbers."""

    def __init__(self) -> None:
        self.events = 0
        self.games = 0
        self.winners: list[str] = []
        self.losers: list[str] = []

    def add(self, step: Step) -> None:
        self.events += 1
        event = step.event
        if isinstance(event, GameStarted):
            self.games += 1
        elif isinstance(event, GameOver):
            if event.winner is not None:
                self.winners.append(event.winner)
            if event.loser is not None:
                self.losers.append(event.loser)

    def line(self, source: str, lang: str, catalog: gettext.NullTranslations) -> str:
        """One line saying the log is sound, and what it holds."""
        from babel.lists import format_list
        from babel.numbers import format_decimal

        from aces.i18n import babel_locale

        locale = babel_locale(lang)
        games = catalog.ngettext("{count} game", "{count} games", self.games).format(
            count=format_decimal(self.games, locale=locale)
        )
        events = catalog.ngettext("{count} event", "{count} events", self.events).format(
            count=format_decimal(self.events, locale=locale)
        )
        parts = [games, events]
        if self.winners:
            #. {names}: the winners of the games in order, as a list ("Ada, Bo and Ada").
            parts.append(catalog.gettext("won by {names}").format(
                names=format_list(self.winners, locale=locale)))
        if self.losers:
            #. {names}: the losers of the five-dice games in order, as a list.
            parts.append(catalog.gettext("lost by {names}").format(
                names=format_list(self.losers, locale=locale)))
        #. {source}: the log's file name; {details}: games, events and results.
        return catalog.gettext("{source} follows the rules: {details}").format(
            source=source, details=", ".join(parts)
        )
