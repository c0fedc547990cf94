"""Each player's chance, in words: for ``aces replay --odds`` and the
walkthroughs' turning points.

:class:`ChanceTeller` follows the steps of a walk and, once a roll is
settled, says every player's chance from that moment (to win the pot, or
in the five-dice game, to lose), from :mod:`aces.chances`: exact
where the game's chain is solved, an estimate with its margin where not.
:func:`turning_points` picks the rolls that moved a chance most.

>>> from aces.i18n import translations
>>> from aces.voice import Voice
>>> from aces.chances import Chances
>>> voice = Voice(translations("nb"), "nb")
>>> say_chances(voice, ("Ada", "Bo"), Chances((0.25, 0.75), True), "win")
'Sjansen for å vinne potten: Ada 25,0\\xa0% og Bo 75,0\\xa0%.'
"""

from __future__ import annotations

import functools
import heapq
import operator
import typing as t

from babel.numbers import NumberPattern, format_percent, parse_pattern

from aces.chances import budget, odds_of
from aces.events import GameStarted, Rolled
from aces.games import registration
from aces.narrate import Narrator
from aces.voice import parsed_locale

if t.TYPE_CHECKING:
    import gettext

    from aces.chances import Chances, PositionOdds
    from aces.voice import Voice
    from aces.walk import Step

__all__ = ["LEAST_MARGIN", "ChanceNarrator", "ChanceTeller", "Measure", "Moment", "Turn",
           "TurningPoints", "margin_in", "measure_of", "percent", "percent_in", "say_chances",
           "say_chances_stop", "say_turning_point", "turning_points"]

Measure = t.Literal["win", "lose"]


@functools.cache
def _pattern(locale: str) -> NumberPattern:
    """The locale's own percent pattern (``17 %`` in Norwegian) with one
    decimal, parsed once, as Babel would parse it anew on every call given
    it as text (a walkthrough says thousands of chances)."""
    pattern = str(parsed_locale(locale).percent_formats[None].pattern)
    last = pattern.rfind("0")
    return parse_pattern(pattern[:last + 1] + ".0" + pattern[last + 1:])


def percent(voice: Voice, value: float) -> str:
    """A chance as the language writes a percentage, to a tenth of a point."""
    return percent_in(value, voice.locale)


@functools.lru_cache(maxsize=4096)
def percent_in(value: float, locale: str) -> str:
    """A chance as the Babel ``locale`` writes a percentage, to a tenth of a point.

    >>> percent_in(0.2454, "nb_NO"), percent_in(0.2454, "en")
    ('24,5\xa0%', '24.5%')
    """
    return str(format_percent(value, _pattern(locale), locale=parsed_locale(locale)))


#: The least margin said: a tenth of a point, the chances' own precision.
LEAST_MARGIN: t.Final = 0.001


def margin_in(value: float, locale: str) -> str:
    """The margin of an estimate as :func:`percent_in` writes it, but never
    under a tenth of a point: a margin said as 0.0 would claim an exact
    value, and a wider one is still a true bound.

    >>> margin_in(0.0003, "en"), margin_in(0.0158, "en")
    ('0.1%', '1.6%')
    """
    return percent_in(max(value, LEAST_MARGIN), locale)


def measure_of(game: str) -> Measure:
    """What the chances of a game are chances of: winning the pot, or losing."""
    return "lose" if registration(game).losers else "win"


def say_chances(voice: Voice, players: t.Sequence[str], chances: Chances,
                measure: Measure) -> str:
    """Every player's chance from one moment, as one line."""
    v = voice
    entries = [f"{name} {percent(v, p)}" for name, p in zip(players, chances.by_seat,
                                                           strict=True)]
    listed = v.names(entries)
    if chances.exact:
        if measure == "win":
            # Translators: "aces replay --odds", after a roll. {players}: every
            # player with the chance, as a list ("Ada 25.0 %, Bo 30.1 % ...").
            return v.gettext("The chances to win the pot: {players}.").format(players=listed)
        # Translators: as above, in the five-dice game, where one player loses.
        # {players}: every player with the chance to lose, as a list.
        return v.gettext("The chances to lose: {players}.").format(players=listed)
    margin = margin_in(chances.margin, v.locale)
    if measure == "win":
        # Translators: as above, for a game too large to solve: estimated by
        # simulation. {margin}: the 95 % margin of each chance, in points;
        # {players}: every player with the chance, as a list.
        return v.gettext("The chances to win the pot, estimated to within ± {margin}:"
                         " {players}.").format(players=listed, margin=margin)
    # Translators: as above, in the five-dice game. {margin}: the 95 % margin;
    # {players}: every player with the chance to lose, as a list.
    return v.gettext("The chances to lose, estimated to within ± {margin}:"
                     " {players}.").format(players=listed, margin=margin)


class Moment(t.NamedTuple):
    """A roll once it is settled, and each player's chance after it."""

    number: int
    roll: Rolled
    chances: Chances


class ChanceTeller:
    """Follows a walk; after each settled roll, each player's chance from then on.

    It is shown the rolls and the starts of games (:meth:`take`; any other
    step changes nothing here), and given the state a roll settled in when
    its chances are asked for: whoever drives it keeps the last state
    anyway. One solve serves every game of a table
    (:func:`aces.chances.odds_for`).
    """

    def __init__(self) -> None:
        self.odds: PositionOdds | None = None
        self.header: GameStarted | None = None
        self._game: t.Any = None
        self._roll: Rolled | None = None
        self._number = 0

    def due(self, step: Step[t.Any]) -> bool:
        """Whether ``step`` ends a settled roll whose chances are still to be said."""
        return self._roll is not None and type(step.event) in (Rolled, GameStarted)

    def take(self, step: Step[t.Any]) -> None:
        """Follow one step of the walk: a roll, or the start of a game."""
        event = step.event
        if type(event) is Rolled:
            self._number += 1
            self._roll = event
        elif type(event) is GameStarted:
            self.header = event
            self.odds = odds_of(event)
            self._game = step.game
            self._number = 0
            self._roll = None

    def settled(self, state: t.Any, *, over: bool = False) -> tuple[int, Rolled, t.Any] | None:
        """The roll just settled, once: its number, the roll and ``state``, the
        state it settled in; ``None`` when there is none, or when the game is
        over (unless ``over``). The caller works out the chances, of many rolls
        together where it can."""
        roll, self._roll = self._roll, None
        if roll is None or self.odds is None:
            return None
        if not over and self._game.next_roll(state) is None:
            return None
        return self._number, roll, state

    def start_state(self) -> t.Any:
        """The state before the first roll of the game."""
        assert self.header is not None
        return self._game.start(self.header)

    def start(self) -> Chances:
        """The chances before the first roll of the game."""
        assert self.odds is not None
        assert self.header is not None
        return self.odds.chances(self._game.start(self.header))


def say_turning_point(voice: Voice, players: t.Sequence[str], moment: Moment, seat: int,
                      was: float, now: float, measure: Measure,
                      margin: float | None = None) -> str:
    """One turning point of a game: the roll, and whose chance it moved how;
    with ``margin``, the wider 95 % margin, where either chance is an estimate."""
    v = voice
    values = {"number": v.number(moment.number), "player": moment.roll.player,
              "dice": v.dice(moment.roll.dice), "mover": players[seat],
              "before": percent(v, was), "after": percent(v, now)}
    if margin is not None:
        values["margin"] = margin_in(margin, v.locale)
        if measure == "win":
            # Translators: a turning point in "aces walkthrough" of a game too
            # large to solve, its chances estimated by simulation. {number}:
            # the roll's number in the game; {player} rolled {dice}; {mover}:
            # the player whose chance moved; {before}, {after}: percentages;
            # {margin}: the 95 % margin of each, in points.
            return v.gettext("Roll {number}, {player}'s {dice}: {mover}'s chance to win the pot"
                             " went from {before} to {after} (estimated by simulation, to within"
                             " ± {margin}).").format(**values)
        # Translators: as above, in the five-dice game, where one player loses.
        # {number}: the roll; {player} rolled {dice}; {mover}: whose chance to
        # lose moved; {before}, {after}: percentages; {margin}: the 95 % margin.
        return v.gettext("Roll {number}, {player}'s {dice}: {mover}'s chance to lose went from"
                         " {before} to {after} (estimated by simulation, to within"
                         " ± {margin}).").format(**values)
    if measure == "win":
        # Translators: a turning point in "aces walkthrough". {number}: the
        # roll's number in the game; {player} rolled {dice}; {mover}: the
        # player whose chance moved; {before}, {after}: percentages.
        return v.gettext("Roll {number}, {player}'s {dice}: {mover}'s chance to win the pot"
                         " went from {before} to {after}.").format(**values)
    # Translators: as above, in the five-dice game, where one player loses.
    # {number}: the roll; {player} rolled {dice}; {mover}: whose chance to
    # lose moved; {before}, {after}: percentages.
    return v.gettext("Roll {number}, {player}'s {dice}: {mover}'s chance to lose went from"
                     " {before} to {after}.").format(**values)


def say_chances_stop(voice: Voice) -> str:
    """Said once where estimated chances stop being shown: past the budget of
    an output (:class:`aces.chances.budget.Budget`)."""
    # Translators: said once, in "aces replay --odds" and on a replay page, at
    # the first roll whose chances are no longer shown. {count}: the most rolls
    # whose chances one replay or page estimates.
    return voice.gettext(
        "From here on, no chances are shown: in a game this large they are estimated by"
        " simulation, which is done for at most {count} rolls or a few seconds of"
        " simulation.").format(count=voice.number(budget.MOST_ESTIMATED))


class ChanceNarrator(Narrator):
    """The replay's narrator, with every player's chance after each settled roll
    (``aces replay --odds``), estimated ones within a budget: past it, the
    replay says once that they stop."""

    def __init__(self, catalog: gettext.NullTranslations, lang: str) -> None:
        super().__init__(catalog, lang)
        self.teller = ChanceTeller()
        self.budget = budget.Budget()
        self._stop_said = False

    def visit(self, step: Step[t.Any]) -> None:
        if self.teller.due(step):
            self._chances()
        self.teller.take(step)
        super().visit(step)

    def end(self) -> None:
        self._chances()
        super().end()

    def carried(self) -> None:
        # Its budget of estimates runs through the whole log: never in parts.
        return None

    def _chances(self) -> None:
        self.settle()
        # The roll settled in the state of the last step told.
        last, teller = self._last, self.teller
        settled = None if last is None else teller.settled(last.state)
        if settled is None or teller.odds is None or teller.header is None:
            return
        state = settled[2]
        if not self.budget.grant(teller.odds, [state]):
            if not self._stop_said:
                self._stop_said = True
                self.lines.append(say_chances_stop(self.voice))
            return
        self.lines.append(say_chances(self.voice, teller.header.players,
                                      teller.odds.chances(state),
                                      measure_of(teller.header.game)))


class Turn(t.NamedTuple):
    """A turning point: the roll, the seat whose chance it moved most, and
    that chance before and after it."""

    moment: Moment
    seat: int
    before: float
    after: float
    #: The wider margin of the two, where either is an estimate; else ``None``.
    margin: float | None = None


class TurningPoints:
    """The ``count`` rolls of a game that moved one player's chance most.

    Fed one settled roll at a time, it keeps only the biggest moves so far,
    so a game of any length costs the same memory. Where the chances are
    estimates, a move no larger than the two margins together could be
    chance alone, and is no turning point.
    """

    def __init__(self, start: Chances, count: int = 3) -> None:
        self.count = count
        self._before = start
        self._biggest: list[tuple[float, int, Turn]] = []

    def add(self, moment: Moment) -> None:
        """One more settled roll."""
        chances = moment.chances
        before, self._before = self._before, chances
        was, now = before.by_seat, chances.by_seat
        # The seat whose chance moved most (the first of equals), found at C
        # speed: this runs after every roll of a walkthrough.
        moves = list(map(abs, map(operator.sub, now, was)))
        size = max(moves)
        seat = moves.index(size)
        if size <= before.margin + chances.margin and (before.margin or chances.margin):
            return
        biggest = self._biggest
        full = len(biggest) >= self.count
        # A move no bigger than the smallest kept is dropped before its turn is
        # made (the numbers of a game's rolls differ, so they decide a tie).
        if full and biggest and (size, -moment.number) <= biggest[0][:2]:
            return
        move = (size, -moment.number,
                Turn(moment, seat, was[seat], now[seat],
                     None if before.exact and chances.exact
                     else max(before.margin, chances.margin)))
        if full:
            heapq.heappushpop(biggest, move)
        else:
            heapq.heappush(biggest, move)

    def points(self) -> list[Turn]:
        """The turning points so far, in the game's order."""
        return sorted((turn for _, _, turn in self._biggest),
                      key=lambda turn: turn.moment.number)


def turning_points(moments: t.Iterable[Moment], start: Chances, count: int = 3) -> list[Turn]:
    """The ``count`` rolls of ``moments`` that moved one player's chance most."""
    points = TurningPoints(start, count)
    for moment in moments:
        points.add(moment)
    return points.points()
