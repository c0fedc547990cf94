"""What the replay page shows, gathered from one walk of the log.

:class:`PageCollector` is a visitor over the steps of :func:`aces.walk.walk`:
it hands every step to a :class:`~aces.narrate.Narrator` of each language
the package ships, so the page says exactly what ``aces replay`` prints,
and, once a roll is settled, records the table after it and each player's
chance from :mod:`aces.odds.position` (one solve for the game's table).
Nothing is kept of the other games of a session but their narrators'
count and tally, so the text of game 3 says "game 3" as the replay does.

The result is a plain dictionary: the JSON the page embeds, whose fields
``docs/page-format.rst`` describes as a stable contract.
"""

from __future__ import annotations

import typing as t

from babel.core import Locale
from babel.numbers import format_decimal

from aces.errors import EmptyLogError, OptionError, Plural
from aces.events import GameStarted, Rolled, RollUndone
from aces.games import registration
from aces.i18n import LANGUAGES, babel_locale, translations
from aces.narrate import Narrator
from aces.narrate.chances import percent_in
from aces.walk import Visitor, drive

if t.TYPE_CHECKING:
    from collections.abc import Iterable

    from aces.games import Registration
    from aces.log import Record
    from aces.odds.position import Chances, PositionOdds
    from aces.walk import Step

__all__ = ["FORMAT", "PageCollector", "collect", "labels", "shown"]

#: The version of the page's data; a change that breaks a reader raises it.
FORMAT: t.Final = 1
# Translators: an error of "aces replay --html". {number}: the game asked
# for with --game; {count}: the games in the log.
_MISSING_GAME: t.Final = Plural("--game {number} is not in the log: it holds {count} game",
                                "--game {number} is not in the log: it holds {count} games",
                                by="count")


def labels(lang: str) -> dict[str, str]:
    """The page's own words in one language: buttons, headings, hints."""
    catalog = translations(lang)
    _ = catalog.gettext
    return {
        "language_name": Locale.parse(lang).display_name or lang,
        # Translators: the replay page's buttons and headings.
        "previous": _("Previous roll"),
        "next": _("Next roll"),
        "first": _("First"),
        "last": _("Last"),
        "play": _("Play"),
        "pause": _("Pause"),
        "speed": _("Speed"),
        "slow": _("slow"),
        "normal": _("normal"),
        "fast": _("fast"),
        "language": _("Language"),
        "table": _("The table"),
        "player": _("Player"),
        "chips": _("Chips"),
        "dice": _("Dice"),
        "pot": _("In the pot"),
        "centre": _("In the centre"),
        "win": _("Chance to win the pot"),
        "lose": _("Chance to lose"),
        # Translators: beside the player whose turn it is, on the replay page.
        "to_roll": _("to roll"),
        "rolls": _("Every roll"),
        "chart": _("The chances over the game"),
        # Translators: under the chart of the replay page; a click on the
        # chart opens that roll.
        "chart_hint": _("One line a player, from 0 % at the bottom to 100 % at the top;"
                        " click a roll to open it."),
        "start": _("Before the first roll"),
        "exact": _("Exact chances, from the solution of the game's Markov chain."),
        # Translators: on the replay page of a game too large to solve.
        "estimated": _("Too many states to solve exactly: the chances are estimated by"
                       " playing games on from each moment, ± a 95 % margin."),
        # Translators: on the replay page of a game too large even to estimate.
        "no_odds": _("This game is too large for its chances to be worked out."),
        # Translators: the keys of the replay page; keep the key names.
        "keys": _("Keys: ← and → one roll, Home and End the first and the last,"
                  " space plays and pauses."),
    }


def _percent(value: float, lang: str) -> str:
    return percent_in(value, babel_locale(lang))


def shown(chances: Chances, lang: str) -> list[str]:
    """Each seat's chance as the page shows it in ``lang``: a percentage,
    with its margin when it is an estimate."""
    catalog = translations(lang)
    out = []
    for value in chances.by_seat:
        text = _percent(value, lang)
        if not chances.exact:
            # Translators: an estimated chance on the replay page.
            # {chance}: a percentage; {margin}: its 95 % margin, in points.
            text = catalog.gettext("{chance} ± {margin}").format(
                chance=text, margin=_percent(chances.margin, lang))
        out.append(text)
    return out


class PageCollector(Visitor[dict[str, t.Any]]):
    """Gathers the page of game ``number`` (from 1) of a log, step by step.

    Without a number, a log of one game gives that game, and a session is
    refused with the count of its games, to choose from. The result is the
    page's data, opening in ``lang``.
    """

    def __init__(self, number: int | None, source: str, lang: str) -> None:
        self.asked = number
        self.number = number or 1
        self.source = source
        self.lang = lang
        self.narrators = {code: Narrator(translations(code), code) for code in LANGUAGES}
        self.games = 0
        self._game: Registration[t.Any] | None = None
        self._odds: PositionOdds | None = None
        self._header: GameStarted | None = None
        self._intro: dict[str, list[str]] = {code: [] for code in LANGUAGES}
        self._rolls: list[dict[str, t.Any]] = []
        self._state: t.Any = None
        self._start_state: t.Any = None

    def visit(self, step: Step[t.Any]) -> None:
        """Take one step of the walk."""
        event = step.event
        kind = type(event)
        if kind is GameStarted:
            self._settle()
            self.games += 1
            if self.games == self.number:
                from aces.odds.position import odds_of

                self._header = t.cast("GameStarted", event)
                self._game = registration(self._header.game)
                self._odds = odds_of(self._header)
                self._start_state = step.state
        if self.games > self.number:
            return  # the rest of the log is still walked, and so checked
        mine = self.games == self.number
        if mine and kind in (Rolled, RollUndone):
            self._settle()
            self._rolls.append({"seq": step.line, "type": "rolled" if kind is Rolled
                                else "roll_undone", "text": {code: [] for code in LANGUAGES}})
        for code, narrator in self.narrators.items():
            narrator.visit(step)
            told = narrator.take()
            if mine:
                (self._rolls[-1]["text"] if self._rolls else self._intro)[code].extend(told)
        if mine:
            self._state = step.state
            if kind is Rolled:
                roll = t.cast("Rolled", event)
                self._rolls[-1].update(player=self._seat(roll.player), dice=list(roll.dice),
                                       stage=roll.stage)
            elif kind is RollUndone:
                undo = t.cast("RollUndone", event)
                self._rolls[-1].update(player=self._seat(undo.player), dice=list(undo.dice),
                                       undoes=undo.undoes)

    def end(self) -> None:
        """The log is read: the last roll settled, and a session's verdict if it
        closes the game asked for."""
        self._settle()
        if self.games == self.number:
            target = self._rolls[-1]["text"] if self._rolls else self._intro
            for code, narrator in self.narrators.items():
                narrator.end()
                target[code].extend(narrator.take())

    def _seat(self, name: str) -> int:
        assert self._header is not None
        return self._header.players.index(name)

    def _settle(self) -> None:
        """The roll before is settled: its standings, table and chances."""
        if self.games != self.number or self._header is None:
            return
        target = self._rolls[-1]["text"] if self._rolls else self._intro
        for code, narrator in self.narrators.items():
            narrator.settle()
            target[code].extend(narrator.take())
        if self._rolls and "held" not in self._rolls[-1]:
            self._rolls[-1].update(self._position(self._state))

    def _position(self, state: t.Any) -> dict[str, t.Any]:
        """The table after a roll: chips or dice, pot or centre, who rolls, the chances."""
        assert self._game is not None
        request = self._game.rules.next_roll(state)
        holding = self._game.holding(state)
        position: dict[str, t.Any] = {
            "held": list(holding.held),
            "middle": holding.out,
            "next": None if request is None else self._seat(request.player),
            "chances": None,
            "shown": None,
        }
        if self._odds is not None:
            chances = self._odds.chances(state)
            position["chances"] = [{"chance": round(p, 6), "exact": chances.exact,
                                    "margin": round(chances.margin, 6)}
                                   for p in chances.by_seat]
            position["shown"] = {code: shown(chances, code) for code in LANGUAGES}
        return position

    def result(self) -> dict[str, t.Any]:
        """The page's data, once the walk is over.

        :raises ~aces.errors.EmptyLogError: for a log without events.
        :raises ~aces.errors.OptionError: for a session without ``--game N``,
            or a game it does not hold.
        """
        if not self.games:
            raise EmptyLogError("{source} is empty: it holds no events", source=self.source)
        if self.asked is None and self.games > 1:
            # Translators: an error of "aces replay --html" on a log of several
            # games. {count}: how many; keep --game N as it is.
            raise OptionError("the log holds {count} games: choose one with --game N,"
                              " 1 to {count}", count=self.games)
        if self._header is None:
            raise OptionError(_MISSING_GAME, number=self.number, count=self.games)
        header = self._header
        start = {**self._position(self._start_state), "text": self._intro}
        self._label([start, *self._rolls])
        return {
            "format": FORMAT,
            "source": self.source,
            "game": header.game,
            "number": self.number,
            "players": list(header.players),
            "options": dict(header.options),
            "measure": "win" if header.game == "pot" else "lose",
            "exact": self._odds is not None and self._odds.exact,
            "lang": self.lang,
            "languages": list(LANGUAGES),
            "labels": {code: labels(code) for code in LANGUAGES},
            "start": start,
            "rolls": self._rolls,
        }

    def _label(self, positions: list[dict[str, t.Any]]) -> None:
        """The name of each moment, in every language: the start, or roll k of n."""
        count = len(positions) - 1
        for lang in LANGUAGES:
            catalog = translations(lang)
            locale = babel_locale(lang)
            start = labels(lang)["start"]
            # Translators: the moment shown on the replay page. {number}: the
            # roll, from 1; {count}: the rolls of the game.
            template = catalog.gettext("Roll {number} of {count}")
            for k, position in enumerate(positions):
                name = start if k == 0 else template.format(
                    number=format_decimal(k, locale=locale),
                    count=format_decimal(count, locale=locale))
                position.setdefault("label", {})[lang] = name


def collect(records: Iterable[Record], source: str, number: int | None,
            lang: str) -> dict[str, t.Any]:
    """The page's data for game ``number`` of a log (see :class:`PageCollector`)."""
    return drive(records, source, PageCollector(number, source, lang))
