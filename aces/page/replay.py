"""What the replay page shows, gathered from one walk of the log.

:class:`PageCollector` is a visitor over the steps of :func:`aces.walk.walk`:
it hands every step to a :class:`~aces.narrate.Narrator` of each language
the package ships, so the page says exactly what ``aces replay`` prints,
and, once a roll is settled, records the table after it and each player's
chance from :mod:`aces.chances` (one solve for the game's table).
Nothing is kept of the other games of a session but their narrators'
count and tally, so the text of game 3 says "game 3" as the replay does.

The result is a plain dictionary: the JSON the page embeds, whose fields
``docs/page-format.rst`` describes as a stable contract.
"""

from __future__ import annotations

import typing as t

from babel.core import Locale
from babel.lists import format_list
from babel.numbers import format_decimal

from aces.chances import odds_of
from aces.chances.budget import Budget
from aces.errors import N_, EmptyLogError, OptionError, Plural
from aces.events import GameStarted, Rolled, RollUndone
from aces.games import registration
from aces.i18n import LANGUAGES, babel_locale, translations
from aces.narrate import Narrator
from aces.narrate.chances import margin_in, measure_of, percent_in, say_chances_stop
from aces.voice import Voice
from aces.walk import Visitor, drive

if t.TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from aces.chances import Chances, PositionOdds
    from aces.games import Registration
    from aces.log import Record
    from aces.walk import Step

__all__ = ["FORMAT", "MOST_ROLLS", "MOST_TEXT", "PageCollector", "collect", "labels", "said",
           "shown"]

#: The version of the page's data; a change that breaks a reader raises it
#: (2: the games of a page under ``games``, where 1 had one game's fields at
#: the top level).
FORMAT: t.Final = 2
#: The most rolls one page holds, its games together: about 2.5 MB, a
#: session of a class's twenty games three times over.
MOST_ROLLS: t.Final = 2_000
#: The most characters of narration one page holds, in all its languages
#: together: a page carries the text twice (its list, and its data), so it
#: stays within some ten megabytes however long the players' names are
#: (a class's twenty games tell about a million).
MOST_TEXT: t.Final = 4_000_000
# Translators: an error of "aces replay --html". {number}: the game asked
# for with --game; {count}: the games in the log.
_MISSING_GAME: t.Final = Plural("--game {number} is not in the log: it holds {count} game",
                                "--game {number} is not in the log: it holds {count} games",
                                by="count")
# Translators: an error of "aces replay --html" on a log of many games.
# {limit}: the most rolls a page holds; {count}: the games of the log (never
# one: a log of one game gets the error about game 1); keep --game N.
_TOO_MANY_FOR_A_PAGE: t.Final = Plural(
    "the log has more than {limit} rolls, more than one page holds: choose one of its"
    " {count} game with --game N",
    "the log has more than {limit} rolls, more than one page holds: choose one of its"
    " {count} games with --game N", by="count")


# Translators: an error of "aces replay --html" on a log of many games whose
# narration is too long for a page (long names, say). {limit}: the most
# characters a page holds; {count}: the games of the log; keep --game N.
_TOO_LONG_FOR_A_PAGE: t.Final = Plural(
    "told in full, the log runs to more than {limit} characters, more than one page holds:"
    " choose one of its {count} game with --game N",
    "told in full, the log runs to more than {limit} characters, more than one page holds:"
    " choose one of its {count} games with --game N", by="count")


# Translators: an error of "aces replay --html". {number}: the game;
# {limit}: the most characters of narration a page holds.
_GAME_TOO_LONG: t.Final = N_("told in full, game {number} of the log runs to more than {limit}"
                             " characters, more than one page holds")
# Translators: an error of "aces replay --html". {number}: the game;
# {limit}: the most rolls a page holds.
_GAME_TOO_MANY: t.Final = N_("game {number} of the log has more than {limit} rolls, more than"
                             " one page holds")


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
        # Translators: the label of the replay page's list of the log's games.
        "game": _("Game"),
        # Translators: the heading of the replay page's list of the log's games.
        "games": _("The games of the log"),
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
        "keys": _("Keys: ← and → one roll, Home and End the first and the last."),
        # Translators: what a screen reader says of a roll on the replay page's
        # chart. {moment}: "Roll 9 of 40"; {roll}: "Kari rolls 1 and 6".
        "chart_roll": catalog.pgettext("replay page", "{moment}: {roll}"),
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
                chance=text, margin=margin_in(chances.margin, babel_locale(lang)))
        out.append(text)
    return out


def _say_chances_stop(position: dict[str, t.Any]) -> None:
    """The first moment without chances says, in every language, why."""
    for code in LANGUAGES:
        position["text"][code].append(say_chances_stop(Voice(translations(code), code)))


class _Game:
    """One game of the page as it is gathered: its header, the narration
    before the first roll, the rolls, and the states whose chances wait."""

    def __init__(self, header: GameStarted, number: int, state: t.Any) -> None:
        self.header = header
        self.number = number
        self.rules: Registration[t.Any] = registration(header.game)
        self.odds: PositionOdds | None = odds_of(header)
        self.intro: dict[str, list[str]] = {code: [] for code in LANGUAGES}
        self.rolls: list[dict[str, t.Any]] = []
        self.state: t.Any = state
        self.start_state: t.Any = state
        #: Positions whose chances are still to be worked out, with their states.
        self.pending: list[tuple[dict[str, t.Any], t.Any]] = []

    def text(self) -> dict[str, list[str]]:
        """Where the narration goes now: the last roll, or before the first."""
        return self.rolls[-1]["text"] if self.rolls else self.intro

    def seat(self, name: str) -> int:
        return self.header.players.index(name)

    def position(self, position: dict[str, t.Any], state: t.Any) -> dict[str, t.Any]:
        """The table after a roll, into ``position``: chips or dice, pot or
        centre, who rolls; the chances once the log is read (:meth:`chances`)."""
        request = self.rules.rules.next_roll(state)
        holding = self.rules.holding(state)
        position.update(
            held=list(holding.held),
            middle=holding.out,
            next=None if request is None else self.seat(request.player),
            chances=None,
            shown=None,
        )
        if self.odds is not None:
            self.pending.append((position, state))
        return position

    def chances(self, budget: Budget) -> None:
        """Each player's chance at every moment of the game, worked out together:
        estimates share one simulation, within the page's ``budget``, from the
        start of the game on; past it, the first roll without them says so."""
        pending, self.pending = self.pending, []
        if self.odds is None or not pending:
            return
        # The start waits last (its position is made last): the moments in the
        # game's order go to the budget, and those granted keep their places.
        moments = [pending[-1], *pending[:-1]]
        granted = budget.grant(self.odds, [state for _, state in moments])
        if granted < len(moments):
            _say_chances_stop(moments[granted][0])
            kept = moments[:granted]
            pending = [*kept[1:], *kept[:1]]
        found = self.odds.chances_of([state for _, state in pending])
        for (position, _), chances in zip(pending, found, strict=True):
            position["chances"] = [{"chance": round(p, 6), "exact": chances.exact,
                                    "margin": round(chances.margin, 6)}
                                   for p in chances.by_seat]
            position["shown"] = {code: shown(chances, code) for code in LANGUAGES}

    def data(self, games: int, budget: Budget) -> dict[str, t.Any]:
        """The game as the page carries it; ``games``: the games of the log;
        ``budget``: what its estimated chances may still cost."""
        header = self.header
        start = self.position({}, self.start_state)
        start["text"] = self.intro
        self.chances(budget)
        positions = [start, *self.rolls]
        _label(positions, header.players)
        return {
            "number": self.number,
            "name": {lang: _game_name(lang, self.number, games) for lang in LANGUAGES},
            "game": header.game,
            "players": list(header.players),
            "options": dict(header.options),
            "measure": measure_of(header.game),
            # The words of the table's headings, by their names in the page's
            # words: what a player holds, and where what leaves the hands goes.
            "holds": list(registration(header.game).holds),
            "exact": self.odds is not None and self.odds.exact,
            "start": start,
            "rolls": self.rolls,
        }


class PageCollector(Visitor[dict[str, t.Any]]):
    """Gathers the page of a log, step by step: game ``number`` (from 1), or
    without a number every game, for the page to offer them to pick from.

    A page holds at most ``most_rolls`` rolls (:data:`MOST_ROLLS`), and at
    most ``most_text`` characters of narration (:data:`MOST_TEXT`): past
    them, what was gathered is let go (the rest of the log is still walked,
    and so checked) and the result is an error that says to choose a game.
    The result is the page's data, opening in ``lang``.
    """

    def __init__(self, number: int | None, source: str, lang: str,
                 most_rolls: int | None = None, most_text: int = MOST_TEXT, *,
                 count: int | None = None) -> None:
        self.asked = number
        #: The games of the log, when the walk is of a part of it (the games
        #: before the one asked for, by their ends alone): what "game 3 of 5" says.
        self.count = count
        self.source = source
        self.lang = lang
        self.most_rolls = MOST_ROLLS if most_rolls is None else most_rolls
        self.most_text = most_text
        self._text = 0
        self._too_long = False
        self.narrators = {code: Narrator(translations(code), code) for code in LANGUAGES}
        self.games = 0
        self._kept: list[_Game] = []
        self._game: _Game | None = None
        self._rolls = 0
        self._too_many = False

    def visit(self, step: Step[t.Any]) -> None:
        """Take one step of the walk."""
        event = step.event
        kind = type(event)
        if kind is GameStarted:
            self._settle()
            self.games += 1
            self._game = None
            if not self._too_many and self.asked in (None, self.games):
                self._game = _Game(t.cast("GameStarted", event), self.games, step.state)
                self._kept.append(self._game)
        game = self._game
        if game is not None and kind in (Rolled, RollUndone):
            self._settle()
            self._rolls += 1
            if self._rolls > self.most_rolls:
                self._too_many = True
                self._kept, self._game, game = [], None, None
            else:
                game.rolls.append({"seq": step.line, "type": "rolled" if kind is Rolled
                                   else "roll_undone", "text": {code: [] for code in LANGUAGES}})
        for code, narrator in self.narrators.items():
            narrator.visit(step)
            told = narrator.take()
            if game is not None:
                game.text()[code].extend(told)
                self._text += sum(map(len, told))
        if self._text > self.most_text and not self._too_long:
            self._too_long = self._too_many = True
            self._kept, self._game, game = [], None, None
        if game is None:
            return
        game.state = step.state
        if kind is Rolled:
            roll = t.cast("Rolled", event)
            game.rolls[-1].update(player=game.seat(roll.player), dice=list(roll.dice),
                                  stage=roll.stage)
        elif kind is RollUndone:
            undo = t.cast("RollUndone", event)
            game.rolls[-1].update(player=game.seat(undo.player), dice=list(undo.dice),
                                  undoes=undo.undoes)

    def end(self) -> None:
        """The log is read: the last roll settled, and a session's verdict if it
        closes a game on the page."""
        self._settle()
        game = self._game
        if game is not None and game.number == self.games:
            for code, narrator in self.narrators.items():
                narrator.end()
                game.text()[code].extend(narrator.take())

    def _settle(self) -> None:
        """The roll before is settled: its standings and its table."""
        game = self._game
        if game is None:
            return
        target = game.text()
        for code, narrator in self.narrators.items():
            narrator.settle()
            target[code].extend(narrator.take())
        if game.rolls and "held" not in game.rolls[-1]:
            game.position(game.rolls[-1], game.state)

    def result(self) -> dict[str, t.Any]:
        """The page's data, once the walk is over.

        :raises ~aces.errors.EmptyLogError: for a log without events.
        :raises ~aces.errors.OptionError: for a session without ``--game N``,
            or a game it does not hold.
        """
        if not self.games:
            raise EmptyLogError("{source} is empty: it holds no events", source=self.source)
        for over, most, session, game in (
                (self._too_long, self.most_text, _TOO_LONG_FOR_A_PAGE, _GAME_TOO_LONG),
                (self._too_many, self.most_rolls, _TOO_MANY_FOR_A_PAGE, _GAME_TOO_MANY)):
            if not over:
                continue
            # The limit as the page's language (the user's) writes a number.
            limit = format_decimal(most, locale=babel_locale(self.lang))
            if self.asked is None and self.games > 1:
                raise OptionError(session, limit=limit, count=self.games)
            raise OptionError(game, number=self.asked or 1, limit=limit)
        if not self._kept:
            raise OptionError(_MISSING_GAME, number=self.asked, count=self.games)
        budget = Budget()
        return {
            "format": FORMAT,
            "source": self.source,
            "lang": self.lang,
            "languages": list(LANGUAGES),
            "labels": {code: labels(code) for code in LANGUAGES},
            "games": [game.data(self.games if self.count is None else self.count, budget)
                      for game in self._kept],
        }


def _game_name(lang: str, number: int, count: int) -> str:
    """A game's name in the page's picker: game 2 of 5."""
    locale = babel_locale(lang)
    # Translators: a game of a log, in the picker of the replay page.
    # {number}: the game, from 1; {count}: the games of the log.
    return translations(lang).gettext("Game {number} of {count}").format(
        number=format_decimal(number, locale=locale), count=format_decimal(count, locale=locale))


def _label(positions: list[dict[str, t.Any]], players: Sequence[str]) -> None:
    """The name of each moment, in every language: the start, or roll k of n;
    and of each roll, the dice as a screen reader says them (:func:`said`)."""
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
            if k:
                position.setdefault("said", {})[lang] = said(
                    players[position["player"]], position["dice"],
                    position["type"] == "roll_undone", lang)


def said(player: str, dice: Sequence[int], undone: bool, lang: str) -> str:
    """A roll as the replay page names its dice for a screen reader, in ``lang``.

    >>> said("Kari", [1, 6], False, "nb"), said("Ada", [1, 3, 3, 5, 6], False, "en")
    ('Kari kaster 1 og 6', 'Ada rolls 1, 3, 3, 5, and 6')
    """

    catalog = translations(lang)
    values = format_list([str(value) for value in dice], locale=babel_locale(lang))
    if undone:
        # Translators: the name of the dice of a roll taken back (aces record's
        # undo), as a screen reader says it on the replay page.
        # {player}: who rolled; {dice}: the dice, as a list ("1 and 6").
        template = catalog.pgettext("replay page", "Taken back: {player} rolled {dice}")
    else:
        # Translators: the name of the dice of a roll, as a screen reader says it
        # on the replay page. {player}: who rolls; {dice}: the dice, as a list
        # ("1 and 6", "1, 3, 3, 5 and 6").
        template = catalog.pgettext("replay page", "{player} rolls {dice}")
    return template.format(player=player, dice=values)


def collect(records: Iterable[Record], source: str, number: int | None,
            lang: str) -> dict[str, t.Any]:
    """The page's data for game ``number`` of a log, or for all its games
    (see :class:`PageCollector`)."""
    return drive(records, source, PageCollector(number, source, lang))
