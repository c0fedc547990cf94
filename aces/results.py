"""What the package's functions return: games, sessions, logs, odds, simulations
and a class's stats, each of them showing itself in a notebook.

The functions themselves are :mod:`aces.api`'s, which names these classes
too (``aces.api.Game``...). What they return shows itself in a notebook:
``_repr_html_`` gives plain HTML tables and SVG without scripts, in the
language of its :attr:`Speaking.lang`, and ``repr`` is one short line,
always in English, as a doctest reads it.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import itertools
import os
import typing as t
from pathlib import Path

from aces import notebook
from aces.arguments import flag, text, whole
from aces.arguments import path as a_path
from aces.errors import AcesError, GameNumberError, Names, OptionError, Plural, Term
from aces.events import GameOver, Rolled
from aces.experiment.observe import GameObserver
from aces.files import cannot_write, os_reason
from aces.games import registration
from aces.i18n import negotiate, translations
from aces.log import read
from aces.logstore import LogStore, LogWriteError
from aces.narrate import Narrator
from aces.page.html import render
from aces.page.replay import PageCollector
from aces.reports.export import as_dict
from aces.reports.plot import check_path, plot
from aces.reports.stats import report
from aces.walk import unfinished, walk

if t.TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Sequence

    from aces.events import Event, GameStarted
    from aces.experiment.observe import GameRecord, RollRow
    from aces.experiment.pool import Pooled
    from aces.rules import OptionValue
    from aces.simulation import Exact, Unsolved
    from aces.simulation.stats import Summary
    from aces.walk import Step

__all__ = ["Game", "Log", "Odds", "PathLike", "Session", "Simulated", "Speaking", "Stats",
           "language", "save_events", "speaks"]

PathLike = str | os.PathLike[str]
F = t.TypeVar("F", bound="Callable[..., t.Any]")


def speaks(function: F) -> F:
    """``function``, whose errors show themselves in the language of the call:
    its ``lang`` argument if it has one, else its object's :attr:`Speaking.lang`.

    The one place an :class:`~aces.errors.AcesError` learns its language on
    its way out of the package, as the walk fills in its place
    (:meth:`~aces.errors.AcesError.at`): the same error is raised on, of the
    same kind, so a program still catches a ``LogError``. A generator's
    errors are caught as it is walked.

    >>> import aces
    >>> from aces.errors import OptionError
    >>> try:
    ...     aces.simulate(3, games=0, lang="nn")
    ... except OptionError as error:
    ...     print(error)
    games= må vere minst 1, ikkje 0
    """
    if inspect.isgeneratorfunction(function):
        @functools.wraps(function)
        def walked(*args: t.Any, **kwargs: t.Any) -> t.Any:
            with _spoken(function, args, kwargs):
                return (yield from function(*args, **kwargs))

        return t.cast("F", walked)

    @functools.wraps(function)
    def called(*args: t.Any, **kwargs: t.Any) -> t.Any:
        with _spoken(function, args, kwargs):
            return function(*args, **kwargs)

    return t.cast("F", called)


@contextlib.contextmanager
def _spoken(function: Callable[..., t.Any], args: tuple[t.Any, ...],
            kwargs: dict[str, t.Any]) -> Iterator[None]:
    try:
        yield
    except AcesError as error:
        lang = _call_language(function, args, kwargs)
        if lang is not None:
            error.speaking(lang)
        raise


def _call_language(function: Callable[..., t.Any], args: tuple[t.Any, ...],
                   kwargs: dict[str, t.Any]) -> str | None:
    """The language a call was made in, or ``None`` if it names none the package offers
    (its error, refusing that language, is shown in English)."""

    call = inspect.signature(function).bind(*args, **kwargs)
    call.apply_defaults()
    asked = call.arguments.get("lang")
    if asked is None:
        return args[0].lang if args and isinstance(args[0], Speaking) else None
    try:
        return language(asked)
    except AcesError:
        return None


class Speaking:
    """What a notebook shows in a language, its :attr:`lang`."""

    _lang: str

    @property
    def lang(self) -> str:
        """The language of the notebook view: ``"en"``, ``"nb"`` or ``"nn"``
        (``"no"`` and ``"nb_NO"`` are understood too); a language the package
        does not offer is refused with :class:`aces.errors.OptionError`.

        >>> import aces
        >>> chances = aces.odds(2, chips=1, lang="nb")
        >>> "<td>47,10\xa0%</td>" in chances._repr_html_()
        True
        """
        return self._lang

    @lang.setter
    def lang(self, lang: str) -> None:
        self._lang = language(lang)
        self._spoken()

    def _spoken(self) -> None:
        """Whatever else speaks as this does follows its language (a session's games)."""


# -- Games and logs -----------------------------------------------------------------


class Game(Speaking):
    """One game, walked through the rules: its header, every step, its result.

    ``steps`` are :class:`aces.walk.Step` values (the event, the state after
    it); ``rolls`` are the rolls still standing (an undone roll is gone),
    numbered from 1 with the opening rolls. Its :attr:`lang` is also the
    language its replay page opens in (the page can switch to the others).

    >>> import aces
    >>> game = aces.play(["Ada", "Bo"], seed=3, lang="nn")
    >>> "Alle kasta" in game._repr_html_()
    True
    """

    def __init__(self, steps: Sequence[Step[t.Any]], record: GameRecord) -> None:
        self.steps = tuple(steps)
        self._record = record
        self._lang = "en"
        #: The last page made, and its language: a notebook shows it again and again.
        self._page: tuple[str, str] | None = None
        #: Where the game stands in its log or session (from 1), and the steps its
        #: page is made from, as aces replay --html --game makes it: those of the
        #: games around it too, so that game 3 says "game 3", with the session so far.
        self._number = 1
        self._source = "<game>"
        self._walk: Callable[[], Iterable[Step[t.Any]]] = lambda: self.steps
        #: The games of its log, for a game whose page is told from part of it.
        self._count: Callable[[], int | None] = lambda: None

    @property
    def header(self) -> GameStarted:
        return t.cast("GameStarted", self.steps[0].event)

    @property
    def game(self) -> str:
        """``"pot"`` (Aces in the Pot) or ``"five-dice"``."""
        return self.header.game

    @property
    def players(self) -> tuple[str, ...]:
        return self.header.players

    @property
    def options(self) -> dict[str, OptionValue]:
        return dict(self._record.rules.options)

    @property
    def seed(self) -> int | None:
        return self.header.seed

    @property
    def rolls(self) -> tuple[RollRow, ...]:
        return self._record.rows

    @property
    def states(self) -> list[t.Any]:
        """The state after each step, the header's first."""
        return [step.state for step in self.steps]

    @property
    def moments(self) -> list[t.Any]:
        """The state before each roll after the opening: where :func:`odds` can look
        ahead from (an undone roll's moment included)."""

        return [before.state for before, after in zip(self.steps, self.steps[1:], strict=False)
                if isinstance(after.event, Rolled) and after.event.stage != "opening"]

    @property
    def events(self) -> list[Event]:
        return [step.event for step in self.steps]

    @property
    def starter(self) -> str | None:
        """Who won the opening and rolled first (``None`` while the opening of an
        unfinished game goes on)."""
        return None if self._record.starter < 0 else self.players[self._record.starter]

    @property
    def finished(self) -> bool:
        """Whether the game is over: the last game of a log being recorded may
        not be, and then it has no winner (or loser) yet."""
        return self._record.over

    @property
    def waiting(self) -> str | None:
        """Who rolls next in a game that is not over; ``None`` once it is."""
        return unfinished(self.steps[-1])

    def seat(self, player: str) -> int:
        """``player``'s seat counted as the odds count seats: 1 for the player
        who starts, 2 for the one on their left, and so on.

        >>> import aces
        >>> game = aces.play(["Ada", "Bo", "Cy"], seed=3)
        >>> game.starter, game.seat(game.starter)
        ('Cy', 1)

        :raises aces.errors.OptionError: for a name not at the table.
        """
        if text(player, "player") not in self.players:
            # Translators: an error of Game.seat. {name}: the name given;
            # {players}: the players of the game, as a list.
            raise OptionError("{name!r} is not at this table: the players are {players}",
                              name=player, players=Names(self.players))
        seats = len(self.players)
        return (self.players.index(player) - max(self._record.starter, 0)) % seats + 1

    @property
    def winner(self) -> str | None:
        """Aces in the Pot: who won the pot (``None`` until the game is over)."""
        if _losers(self.game) or not self.finished:
            return None
        return self.players[self._record.result]

    @property
    def loser(self) -> str | None:
        """The five-dice game: who sent the last die to the centre (``None``
        until the game is over)."""
        if not _losers(self.game) or not self.finished:
            return None
        return self.players[self._record.result]

    @property
    def over(self) -> GameOver | None:
        """How the game ended: the event after its last roll (``None`` for steps
        that stop before the end, which :func:`load` and :func:`play` never give)."""

        for step in reversed(self.steps):
            if isinstance(step.event, GameOver):
                return step.event
            if isinstance(step.event, Rolled):
                return None
        return None

    @property
    def pot(self) -> int | None:
        return self._record.pot

    @property
    def length(self) -> int:
        """Rolls after the opening, as the odds count a game's length."""
        return self._record.rolls

    @speaks
    def narrate(self, lang: str = "en") -> list[str]:
        """The game told in words, as ``aces replay`` tells it."""

        chosen = language(lang)
        narrator = Narrator(translations(chosen), chosen)
        for step in self.steps:
            narrator.visit(step)
        narrator.end()
        return narrator.result()

    @speaks
    def save(self, path: PathLike) -> None:
        """Write the game as a new log; an existing file is never overwritten.

        :raises aces.errors.OptionError: for a file that exists or cannot be written.
        """
        save_events([step.event for step in self.steps], path)

    @speaks
    def page(self, lang: str | None = None) -> str:
        """The game's replay page, as ``aces replay --html`` writes it: one
        offline HTML file, opening in ``lang`` (else :attr:`lang`).

        >>> import aces
        >>> page = aces.play(3, seed=1).page("nb")
        >>> page.startswith("<!DOCTYPE html>") and '<html lang="nb">' in page
        True
        """

        return render(self._page_data(self.lang if lang is None else language(lang)))

    def _page_data(self, lang: str) -> dict[str, t.Any]:
        collector = PageCollector(self._number, self._source, lang, count=self._count())
        for step in self._walk():
            collector.visit(step)
        collector.end()
        return collector.result()

    def _embedded(self) -> str:
        """The replay page for an ``<iframe srcdoc>``, made once for a language."""
        if self._page is None or self._page[0] != self.lang:
            self._page = (self.lang, render(self._page_data(self.lang), srcdoc=True))
        return self._page[1]

    def __repr__(self) -> str:
        return f"<Game {self.game}, {_names(self.players)}: {self._result()}>"

    def _result(self) -> str:
        if not self.finished:
            # As aces verify tells a game still being recorded.
            return f"not finished yet, {self.waiting} rolls next after {self.length} rolls"
        if _losers(self.game):
            return (f"{self.starter} starts, {self.loser} loses"
                    f" after {self.length} rolls")
        return (f"{self.starter} starts, {self.winner} wins the pot of {self.pot}"
                f" after {self.length} rolls")

    @speaks
    def _repr_html_(self) -> str:
        """The replay page in a sandboxed frame, and every roll as a table below
        it, folded away (where frames are not shown, the table still is)."""

        return notebook.game_html(self, None if len(self.steps) > notebook.PAGE_STEPS
                                  else self._embedded())


class Session(Speaking, t.Sequence[Game]):
    """Several games in a row, as ``aces play --games N`` plays them. Its
    :attr:`lang` is its games' too: setting it sets theirs.

    >>> import aces
    >>> session = aces.play(["Ada", "Bo"], seed=1, games=3)
    >>> session.lang = "nb"
    >>> session[0].lang, "Potter vunnet etter tre partier" in session._repr_html_()
    ('nb', True)
    """

    def __init__(self, games: Sequence[Game], lang: str = "en") -> None:
        self.games = tuple(games)
        for number, game in enumerate(self.games, 1):
            game._number = number
            game._walk = functools.partial(_steps_of, self.games, number)
        self.lang = lang

    def _spoken(self) -> None:
        for game in self.games:
            game.lang = self.lang

    @t.overload
    def __getitem__(self, index: int) -> Game: ...

    @t.overload
    def __getitem__(self, index: slice) -> Sequence[Game]: ...

    def __getitem__(self, index: int | slice) -> Game | Sequence[Game]:
        """Game ``index`` of the session, counted from 0 (from the end, below 0),
        or a slice of them.

        :raises aces.errors.GameNumberError: for a game the session does not
            hold (an :class:`IndexError` too), or an index that is no number.
        """
        if isinstance(index, slice):
            return self.games[index]
        return self.games[_game_index(index, len(self.games), "session[...]")]

    def __len__(self) -> int:
        return len(self.games)

    def results(self) -> dict[str, int]:
        """Games won by each player (lost, in the five-dice game)."""
        counts: dict[str, int] = {}
        for game in self.games:
            counts.update((name, counts.get(name, 0)) for name in game.players)
            who = game.loser if _losers(game.game) else game.winner
            if who is not None:
                counts[who] += 1
        return counts

    @speaks
    def save(self, path: PathLike) -> None:
        """Write the games as one new log; an existing file is never overwritten.

        :raises aces.errors.OptionError: for a file that exists or cannot be written.
        """
        save_events([step.event for game in self.games for step in game.steps], path)

    def __repr__(self) -> str:
        verb = "losses" if self.games and _losers(self.games[0].game) else "wins"
        results = ", ".join(f"{name} {count}" for name, count in self.results().items())
        return f"<Session of {_counted(len(self.games), 'game')}; {verb}: {results}>"

    def _repr_html_(self) -> str:
        return notebook.session_html(self.games, self.lang)


class Log(Speaking):
    """A log on disk: its games are read, and checked, each time they are walked
    (each speaks the log's :attr:`lang`).

    Nothing is kept in memory but the game being read and, of each game
    before it, its first and last step (what the page of a later game needs
    of them: how many games came before, and who won them), so a log of any
    size can be walked, and the page of each game it gives is made without
    reading the log again; ``len`` and ``repr`` read it once and remember
    the count.

    :raises ~aces.errors.AcesError: at once, for a file that cannot be read.
    """

    def __init__(self, path: PathLike, lang: str = "en") -> None:
        self.path = Path(a_path(path, "path"))
        self._games: int | None = None
        self.lang = lang
        # A file that cannot be read is refused now, as aces verify refuses
        # it, not later when the log is first walked or shown.
        try:
            with self.path.open("rb"):
                pass
        except OSError as exc:
            raise AcesError("cannot read {path}: {reason}", path=str(self.path),
                            reason=os_reason(exc)) from None

    @speaks
    def __iter__(self) -> Iterator[Game]:
        # The walk itself, not aces.walk.drive: each game is handed on as soon
        # as it is over, and only its steps are held.

        source = str(self.path)
        closed: list[GameRecord] = []
        observer = GameObserver(closed.append, keep_rows=True)
        steps: list[Step[t.Any]] = []
        #: The first and the last step of each game handed on (see the class).
        passed: list[Step[t.Any]] = []
        number = 1
        try:
            with self.path.open("rb") as stream:
                # A game still being recorded is sound so far, as aces verify says.
                for step in walk(read(stream, source), source, allow_unfinished=True,
                                 allow_unsettled=False):
                    observer.visit(step)
                    if closed:
                        yield self._game(steps, closed.pop(), number, passed, step)
                        passed += _ends(steps)
                        number += 1
                        steps = []
                    steps.append(step)
        except OSError as exc:
            raise AcesError("cannot read {path}: {reason}", path=source,
                            reason=os_reason(exc)) from None
        observer.end()
        last = closed.pop() if closed else observer.unfinished
        if last is not None:
            yield self._game(steps, last, number, passed, None)

    def _game(self, steps: Sequence[Step[t.Any]], record: GameRecord, number: int,
              passed: list[Step[t.Any]], following: Step[t.Any] | None) -> Game:
        game = Game(steps, record)
        game._number = number
        game._source = str(self.path)
        # Its page is told from the ends of the games before it, its own steps, and the
        # start of the next (so that it is not told as the last): the log is not read again.
        game._walk = functools.partial(_told_after, passed, len(passed), game, following)
        game._count = self.__len__
        game.lang = self.lang
        return game

    def __len__(self) -> int:
        if self._games is None:
            self._games = sum(1 for _ in self)
        return self._games

    def __getitem__(self, number: int) -> Game:
        """Game ``number`` of the log, counted from 0 as Python counts (from the
        end, below 0: the log is read once more to count its games).

        :raises aces.errors.GameNumberError: for a game the log does not hold
            (an :class:`IndexError` too), or an index that is no number.
        """
        where = Term("log[...]", "log[...]")
        wanted = whole(number, where)
        if wanted < 0:
            wanted = _game_index(wanted, len(self), "log[...]")
        count = 0
        for count, game in enumerate(self, 1):
            if count - 1 == wanted:
                return game
        raise _no_game(where, wanted, count)

    def __repr__(self) -> str:
        return f"<Log {self.path.name}: {_counted(len(self), 'game')}>"

    def _repr_html_(self) -> str:
        if len(self) <= notebook.HTML_GAMES:
            return Session(list(self), self.lang)._repr_html_()
        return notebook.log_html(self.path.name, len(self), self.lang)


def _ends(steps: Sequence[Step[t.Any]]) -> list[Step[t.Any]]:
    """What a later game's page needs of a game: its first step, and its end
    (the last game over, which no undo took back: a log's game closes only when
    the next begins), without the rolls each step's walk keeps standing."""
    over = next((step for step in reversed(steps) if type(step.event) is GameOver), None)
    return [step._replace(standing=None, undone=None)
            for step in (steps[0], over) if step is not None]


def _told_after(passed: list[Step[t.Any]], before: int, game: Game,
                following: Step[t.Any] | None) -> Iterator[Step[t.Any]]:
    """The steps a log's game is told from on its page: the ends of the
    ``before`` games' steps passed before it, its own, and the next game's start."""
    yield from itertools.islice(passed, before)
    yield from game.steps
    if following is not None:
        yield following


def _game_index(index: object, count: int, name: str) -> int:
    """``index`` as the index of one of ``count`` games (below 0: from the end)."""
    where = Term(name, name)
    wanted = whole(index, where)
    if not -count <= wanted < count:
        raise _no_game(where, wanted, count)
    return wanted % count


# Translators: an error of a Python program asking for a game a log (or a
# session) does not hold. {option}: log[...] or session[...]; {index}: the
# index asked for; {count}: the games it holds (counted from 0 in Python).
_NO_GAME: t.Final = Plural("{option} counts its {count} game from 0, and has no game {index}",
                           "{option} counts its {count} games from 0, and has no game {index}",
                           by="count")


def _no_game(where: object, index: int, count: int) -> Exception:
    return GameNumberError(_NO_GAME, option=where, count=count, index=index)


def _counted(count: int, thing: str) -> str:
    """A count in a ``repr``, which speaks English as Python's own do: ``1 log``, ``2 logs``."""
    return f"{count} {thing}" if count == 1 else f"{count} {thing}s"


def _steps_of(games: Sequence[Game], number: int) -> Iterator[Step[t.Any]]:
    """The steps a session's game ``number`` (from 1) is told from: the games
    before it, its own, and the start of the next (so it is not told as the last)."""
    for game in games[:number]:
        yield from game.steps
    if number < len(games):
        yield games[number].steps[0]


def _losers(game: str) -> bool:
    """Whether a result of ``game`` names its loser (the five-dice game) rather than its winner."""

    return registration(game).losers


def _names(players: Sequence[str]) -> str:
    if len(players) == 1:
        return players[0]
    return ", ".join(players[:-1]) + " and " + players[-1]


def save_events(events: Sequence[Event], path: PathLike) -> None:
    """Write ``events`` as a new log at ``path``, synced to disk, through the log store.

    :raises aces.errors.OptionError: when the file exists or cannot be written.
    """
    with LogStore.open(a_path(path, "path"), new=True) as store:
        try:
            store.append(events)
        except LogWriteError as exc:
            raise cannot_write(path, exc.error) from None


# -- Odds and simulation --------------------------------------------------------------


class Odds(Speaking):
    """Exact chances: each seat's chance to win (to lose, in the five-dice game),
    and how many rolls a game takes.

    Seats count from 1, the player who rolls first; for the odds of a
    moment of a game, from the player about to roll, and ``by_player``
    names them.
    """

    def __init__(self, game: str, players: int, win_by_seat: list[float],
                 expected_rolls: float, sd_rolls: float | None,
                 by_player: dict[str, float] | None = None, lang: str = "en") -> None:
        self.game = game
        self.players = players
        self.win_by_seat = win_by_seat
        self.expected_rolls = expected_rolls
        self.sd_rolls = sd_rolls
        self.by_player = by_player
        self.lang = lang

    def __repr__(self) -> str:
        verb = "lose" if _losers(self.game) else "win"
        if self.by_player is not None:
            chances = ", ".join(f"{name} {chance:.1%}" for name, chance in self.by_player.items())
            return (f"<Odds to {verb} from here: {chances};"
                    f" {self.expected_rolls:.2f} rolls to come>")
        seats = _by_seat(self.win_by_seat)
        return (f"<Odds {self.game}, {self.players} players, to {verb}: {seats};"
                f" {self.expected_rolls:.2f} rolls on average>")

    def _repr_html_(self) -> str:
        return notebook.odds_html(self)


def _by_seat(shares: Sequence[float]) -> str:
    """Shares by seat in a ``repr``: ``seat 1 47.1%, seat 2 52.9%``."""
    return ", ".join(f"seat {seat} {share:.1%}" for seat, share in enumerate(shares, 1))


class Simulated(Speaking):
    """What many simulated games found: shares by seat with 95 % intervals,
    the mean length, and the exact answers beside them when known.

    ``options`` are the game's, complete; ``seed`` gives the same games again.
    ``unsolved`` says why ``exact`` is ``None``, when it was not turned off:
    ``"slow"``, the exact answers take seconds and were not asked for
    (``exact=True`` asks); ``"none"``, the game is too big to solve.
    """

    def __init__(self, game: str, players: int, summary: Summary, exact: Exact | None, *,
                 options: dict[str, OptionValue], seed: int, lang: str = "en",
                 unsolved: Unsolved = None) -> None:
        self.game = game
        self.players = players
        self.summary = summary
        self.exact = exact
        self.unsolved = unsolved
        self.options = options
        self.seed = seed
        self.lang = lang

    @property
    def games(self) -> int:
        return self.summary.games

    @property
    def win_by_seat(self) -> list[float]:
        """Shares of games won by each seat (lost, in the five-dice game)."""
        return self.summary.win_by_seat

    @property
    def expected_rolls(self) -> float:
        return self.summary.expected_rolls

    def __repr__(self) -> str:
        seats = _by_seat(self.win_by_seat)
        return (f"<Simulated {self.game}, {self.players} players,"
                f" {_counted(self.games, 'game')}: {seats}; {self.expected_rolls:.2f} rolls"
                " on average>")

    def _repr_html_(self) -> str:
        return notebook.simulated_html(self)


# -- A class's logs -------------------------------------------------------------------


class Stats(Speaking):
    """A class's logs pooled by their rules, held against the exact odds
    (what ``aces stats`` reports), in a language: ``lang``.

    >>> import aces
    >>> result = aces.stats(["replays/session.jsonl", "replays/four-players.jsonl"], lang="nn")
    >>> result.report().splitlines()[0]
    'Klasseforsøket: 2 loggar, 2 slått saman, 0 forkasta.'
    >>> result.lang = "nb"
    >>> "Seire etter plass" in result._repr_html_()
    True
    """

    def __init__(self, pooled: Pooled, lang: str = "en") -> None:
        self.pooled = pooled
        self.lang = lang

    @property
    def groups(self) -> list[t.Any]:
        """One :class:`aces.experiment.pool.Group` for each set of rules."""
        return self.pooled.groups

    @speaks
    def report(self, lang: str | None = None) -> str:
        """The report in words, as ``aces stats`` prints it; in ``lang`` if given."""

        chosen = self.lang if lang is None else language(lang)
        return report(self.pooled, chosen, translations(chosen))

    def as_dict(self) -> dict[str, t.Any]:
        """The numbers, as ``aces stats --json`` writes them."""

        return as_dict(self.pooled)

    @speaks
    def plot(self, path: PathLike, lang: str | None = None, *, force: bool = False) -> None:
        """Draw observed against exact into a new .svg or .png file; with
        ``force``, over an existing file (never over a log, nor one of the logs
        pooled).

        :raises aces.errors.OptionError: for a file of another kind, a file that
            exists already, or without matplotlib.
        """

        chosen = self.lang if lang is None else language(lang)
        output = check_path(a_path(path, "path"), force=flag(force, "force"),
                            reads=[log.source for log in self.pooled.logs])
        plot(self.pooled, output, chosen, translations(chosen))

    def __repr__(self) -> str:
        logs = len(self.pooled.logs)
        left = len(self.pooled.left_out)
        games = sum(group.pooled.games for group in self.pooled.groups)
        groups = len(self.pooled.groups)
        return (f"<Stats: {_counted(logs, 'log')} ({left} left out), {_counted(games, 'game')}"
                f" in {_counted(groups, 'group')} of rules>")

    def _repr_html_(self) -> str:
        return notebook.stats_html(self.pooled, self.lang)


def language(lang: str) -> str:
    """An offered language for ``lang`` (``"no"`` is Bokmål), or the error naming them."""
    return negotiate(text(lang, "lang"), {})


