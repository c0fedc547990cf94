"""The package's public functions, for notebooks and pupils' programs.

Five functions, each importing what it needs when it is called, so that
``import aces`` stays cheap: :func:`load` a log, :func:`play` games,
:func:`odds` of a table or of a moment of a game, :func:`simulate` many
games, :func:`stats` of a class's logs. They are also ``aces.load``,
``aces.play`` and so on. The command line is built on the same functions.

What they return shows itself in a notebook: ``_repr_html_`` gives plain
HTML tables and SVG without scripts (an untrusted notebook, and GitHub's
view of one, drop scripts), in the language of its ``lang`` (``"en"``,
``"nb"`` or ``"nn"``; each function takes ``lang`` too), and ``repr`` is
one short line, always in English, as a doctest reads it.

>>> import aces
>>> game = aces.play(["Ada", "Bo", "Cy"], dice="2/3/5/1 6/3 5/6 6/1 1/1 6/1 4/2 5/6 6/1 1/3 4/5 2")
>>> game
<Game pot, Ada, Bo and Cy: Cy starts, Bo wins the pot of 5 after 11 rolls>
>>> game.winner, game.length, game.rolls[3].dice
('Bo', 11, (1, 6))
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import itertools
import os
import typing as t
from pathlib import Path

from aces.errors import Plural

if t.TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Sequence

    from aces.events import Event, GameOver, GameStarted
    from aces.experiment.observe import GameRecord, RollRow
    from aces.experiment.pool import Pooled, Source
    from aces.rules import OptionValue
    from aces.rules.pot import PotState
    from aces.simulate import Exact, Unsolved
    from aces.simulate.stats import Summary
    from aces.walk import Step

__all__ = ["Game", "Log", "Odds", "Session", "Simulated", "Speaking", "Stats", "load", "odds",
           "play", "simulate", "stats"]

PathLike = str | os.PathLike[str]
F = t.TypeVar("F", bound="Callable[..., t.Any]")


def _speaks(function: F) -> F:
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
    from aces.errors import AcesError

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
    from aces.errors import AcesError

    call = inspect.signature(function).bind(*args, **kwargs)
    call.apply_defaults()
    asked = call.arguments.get("lang")
    if asked is None:
        return args[0].lang if args and isinstance(args[0], Speaking) else None
    try:
        return _language(asked)
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
        self._lang = _language(lang)
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
        from aces.events import Rolled

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
        from aces.walk import unfinished

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
        from aces.arguments import text
        from aces.errors import Names, OptionError

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
        if self.game == "five-dice" or not self.finished:
            return None
        return self.players[self._record.result]

    @property
    def loser(self) -> str | None:
        """The five-dice game: who sent the last die to the centre (``None``
        until the game is over)."""
        if self.game != "five-dice" or not self.finished:
            return None
        return self.players[self._record.result]

    @property
    def over(self) -> GameOver | None:
        """How the game ended: the event after its last roll (``None`` for steps
        that stop before the end, which :func:`load` and :func:`play` never give)."""
        from aces.events import GameOver, Rolled

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

    @_speaks
    def narrate(self, lang: str = "en") -> list[str]:
        """The game told in words, as ``aces replay`` tells it."""
        from aces.i18n import translations
        from aces.narrate import Narrator

        chosen = _language(lang)
        narrator = Narrator(translations(chosen), chosen)
        for step in self.steps:
            narrator.visit(step)
        narrator.end()
        return narrator.result()

    @_speaks
    def save(self, path: PathLike) -> None:
        """Write the game as a new log; an existing file is never overwritten.

        :raises aces.errors.OptionError: for a file that exists or cannot be written.
        """
        _save([step.event for step in self.steps], path)

    @_speaks
    def page(self, lang: str | None = None) -> str:
        """The game's replay page, as ``aces replay --html`` writes it: one
        offline HTML file, opening in ``lang`` (else :attr:`lang`).

        >>> import aces
        >>> page = aces.play(3, seed=1).page("nb")
        >>> page.startswith("<!DOCTYPE html>") and '<html lang="nb">' in page
        True
        """
        from aces.page.html import render

        return render(self._page_data(self.lang if lang is None else _language(lang)))

    def _page_data(self, lang: str) -> dict[str, t.Any]:
        from aces.page.replay import PageCollector

        collector = PageCollector(self._number, self._source, lang, count=self._count())
        for step in self._walk():
            collector.visit(step)
        collector.end()
        return collector.result()

    def _embedded(self) -> str:
        """The replay page for an ``<iframe srcdoc>``, made once for a language."""
        if self._page is None or self._page[0] != self.lang:
            from aces.page.html import render

            self._page = (self.lang, render(self._page_data(self.lang), srcdoc=True))
        return self._page[1]

    def __repr__(self) -> str:
        return f"<Game {self.game}, {_names(self.players)}: {self._result()}>"

    def _result(self) -> str:
        if not self.finished:
            # As aces verify tells a game still being recorded.
            return f"not finished yet, {self.waiting} rolls next after {self.length} rolls"
        if self.game == "five-dice":
            return (f"{self.starter} starts, {self.loser} loses"
                    f" after {self.length} rolls")
        return (f"{self.starter} starts, {self.winner} wins the pot of {self.pot}"
                f" after {self.length} rolls")

    @_speaks
    def _repr_html_(self) -> str:
        """The replay page in a sandboxed frame, and every roll as a table below
        it, folded away (where frames are not shown, the table still is)."""
        from aces import notebook

        return notebook.game_html(self, None if len(self.steps) > _PAGE_STEPS
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
            who = game.loser if game.game == "five-dice" else game.winner
            if who is not None:
                counts[who] += 1
        return counts

    @_speaks
    def save(self, path: PathLike) -> None:
        """Write the games as one new log; an existing file is never overwritten.

        :raises aces.errors.OptionError: for a file that exists or cannot be written.
        """
        _save([step.event for game in self.games for step in game.steps], path)

    def __repr__(self) -> str:
        verb = "losses" if self.games and self.games[0].game == "five-dice" else "wins"
        results = ", ".join(f"{name} {count}" for name, count in self.results().items())
        return f"<Session of {_counted(len(self.games), 'game')}; {verb}: {results}>"

    def _repr_html_(self) -> str:
        from aces import notebook

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
        from aces.arguments import path as a_path

        self.path = Path(a_path(path, "path"))
        self._games: int | None = None
        self.lang = lang
        # A file that cannot be read is refused now, as aces verify refuses
        # it, not later when the log is first walked or shown.
        try:
            with self.path.open("rb"):
                pass
        except OSError as exc:
            from aces.errors import AcesError, os_reason

            raise AcesError("cannot read {path}: {reason}", path=str(self.path),
                            reason=os_reason(exc)) from None

    @_speaks
    def __iter__(self) -> Iterator[Game]:
        # The walk itself, not aces.walk.drive: each game is handed on as soon
        # as it is over, and only its steps are held.
        from aces.experiment.observe import GameObserver
        from aces.log import read
        from aces.walk import walk

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
            from aces.errors import AcesError, os_reason

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
        from aces.arguments import whole
        from aces.errors import Term

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
        from aces import notebook

        if len(self) <= _HTML_GAMES:
            return Session(list(self), self.lang)._repr_html_()
        return notebook.log_html(self.path.name, len(self), self.lang)


#: The most games a log shows as a table in a notebook.
_HTML_GAMES: t.Final = 200
#: The most events of a game whose replay page a notebook shows: the page
#: grows with the game (about a kilobyte an event) and is kept in the notebook.
_PAGE_STEPS: t.Final = 1_000


def _ends(steps: Sequence[Step[t.Any]]) -> list[Step[t.Any]]:
    """What a later game's page needs of a game: its first step, and its end
    (the last game over, which no undo took back: a log's game closes only when
    the next begins), without the rolls each step's walk keeps standing."""
    from aces.events import GameOver

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


def _steps_of(games: Sequence[Game], number: int) -> Iterator[Step[t.Any]]:
    """The steps a session's game ``number`` (from 1) is told from: the games
    before it, its own, and the start of the next (so it is not told as the last)."""
    for game in games[:number]:
        yield from game.steps
    if number < len(games):
        yield games[number].steps[0]


def _counted(count: int, thing: str) -> str:
    """A count in a ``repr``, which speaks English as Python's own do: ``1 log``, ``2 logs``."""
    return f"{count} {thing}" if count == 1 else f"{count} {thing}s"


def _names(players: Sequence[str]) -> str:
    if len(players) == 1:
        return players[0]
    return ", ".join(players[:-1]) + " and " + players[-1]


def _save(events: Sequence[Event], path: PathLike) -> None:
    """``events`` as a new log at ``path``, synced to disk, through the log store."""
    from aces.arguments import path as a_path
    from aces.files import cannot_write
    from aces.logstore import LogStore, LogWriteError

    with LogStore.open(a_path(path, "path"), new=True) as store:
        try:
            store.append(events)
        except LogWriteError as exc:
            raise cannot_write(path, exc.error) from None


@_speaks
def load(path: PathLike, *, lang: str = "en") -> Log:
    """A log, to walk game by game; each game checked against the rules as it is read.

    ``lang`` (``"en"``, ``"nb"`` or ``"nn"``) is the language the log and its
    games speak in a notebook.

    :raises aces.errors.AcesError: at once, for a file that cannot be read.
    :raises aces.errors.LogError: when a game is walked past a line that
        breaks the rules, or the file is not a log.

    >>> import aces
    >>> log = aces.load("replays/session.jsonl")
    >>> log
    <Log session.jsonl: 5 games>
    >>> [game.winner for game in log]
    ['Ola', 'Kari', 'Siri', 'Per', 'Per']
    """
    return Log(path, _language(lang))


@t.overload
def play(players: int | Sequence[str] = ..., *, game: str = ..., seed: int | None = ...,
         dice: str | Sequence[str] | None = ..., games: t.Literal[1] = ..., lang: str = ...,
         **options: OptionValue) -> Game: ...


@t.overload
def play(players: int | Sequence[str] = ..., *, game: str = ..., seed: int | None = ...,
         dice: str | Sequence[str] | None = ..., games: int, lang: str = ...,
         **options: OptionValue) -> Game | Session: ...


@_speaks
def play(players: int | Sequence[str] = 3, *, game: str = "pot", seed: int | None = None,
         dice: str | Sequence[str] | None = None, games: int = 1, lang: str = "en",
         **options: OptionValue) -> Game | Session:
    """Play a game (or ``games`` in a row, a :class:`Session`) from a seed or from dice.

    ``players`` is a number (default names) or the names in seat order.
    ``dice`` are the rolls of a real game, one roll per item, or one text
    with the rolls split by ``/`` or new lines, as in a dice file. Options
    are the game's, named as the command line names them: ``chips``,
    ``finish`` (Aces in the Pot), ``dice_each``, ``threes``, ``threes_to``
    (the five-dice game). ``lang`` (``"en"``, ``"nb"`` or ``"nn"``) is the
    language the result speaks in a notebook.

    :raises aces.errors.OptionError: for options the rules do not accept.
    :raises aces.errors.DiceFileError: for dice that do not fit the game.
    :raises aces.errors.RollError: for dice the rules refuse (placed at their line).

    >>> import aces
    >>> aces.play(4, seed=3).winner
    'Dag'
    >>> session = aces.play(["Kari", "Ola", "Per"], seed=1, games=10)
    >>> sum(session.results().values())
    10
    """
    from aces import engine
    from aces.arguments import names, whole
    from aces.errors import OptionError
    from aces.events import GameStarted
    from aces.rules import game_named

    lang = _language(lang)
    rules = game_named(_game_name(game))
    options = _options(options, rules.name)
    if isinstance(players, (list, tuple, str)):
        seats = names(players, "players")
    else:
        from aces.cli.play import players_from

        seats = players_from(str(_players(players, "a number of players or a list of names")))
    games = whole(games, "games", least=1)
    if seed is not None:
        seed = whole(seed, "seed")
    lines = None
    if dice is not None:
        lines = list(dice.replace("/", "\n").splitlines() if isinstance(dice, str)
                     else names(dice, "dice"))
    # Checked before a game is played: what a call holds in memory, and so what it saves.
    engine.check_session(rules, seats, options, seed=seed, typed=lines is not None,
                         games=games, limit=HELD_EVENTS, message=_TOO_MANY_HELD)
    played: list[Game] = []
    events: list[Event] = []
    held = 0
    for settled in engine.session_rolls(rules, seats, options, seed=seed, dice=lines,
                                        games=games):
        held += len(settled)
        if held > HELD_EVENTS:
            # Past the estimate: the games are longer than games of this table are.
            raise OptionError(_TOO_MANY_HELD, games=games, events=held, limit=HELD_EVENTS)
        if type(settled[0]) is GameStarted and events:
            played.append(_walked(events))
            events = []
        events.extend(settled)
    played.append(_walked(events))
    if games == 1:
        played[0].lang = lang
        return played[0]
    return Session(played, lang)


#: The most events :func:`play` holds in memory, its games together (some
#: 500 bytes each): a session of some 5,000 games of two players, far less
#: than a log may hold (:data:`aces.log.EVENT_LIMIT`), so whatever it plays
#: it can save.
HELD_EVENTS: t.Final = 250_000

# Translators: an error of aces.play asked for games longer than it holds in memory.
# {games}: the games asked for; {events}: the events they would hold, about; {limit}:
# the most events it holds; aces.play and aces play stay as they are.
_TOO_MANY_HELD: t.Final = Plural(
    "a game of this table could hold some {events} events, more than the {limit} that"
    " aces.play keeps in memory; aces play on the command line writes it to a file",
    "{games} games of this table could hold some {events} events, more than the {limit}"
    " that aces.play keeps in memory; play fewer at a time, or write them to a file with"
    " aces play on the command line", by="games")


def _game_name(game: object) -> str:
    """``game`` as the name of a registered game."""
    from aces.arguments import text
    from aces.games import registration

    return registration(text(game, "game")).rules.name


def _players(players: object, kinds: str) -> int:
    """``players`` as a number of players (the game says how few it takes)."""
    from aces.arguments import written
    from aces.errors import OptionError, Term

    if isinstance(players, bool) or not hasattr(type(players), "__index__"):
        if kinds == "a number of players or a list of names":
            # Translators: an error of aces.play. {option}: players=; {value}: what was
            # given, as Python writes it.
            raise OptionError("{option} must be a number of players or a list of names, not"
                              " {value}", option=Term("--players"), value=written(players))
        # Translators: an error of aces.odds. {option}: players=; {value}: what was given,
        # as Python writes it; a moment is one of Game.moments.
        raise OptionError("{option} must be a number of players or a moment of a game, not"
                          " {value}", option=Term("--players"), value=written(players))
    from aces.arguments import whole

    return whole(players, "players", least=0)


def _options(given: dict[str, OptionValue], game: str) -> dict[str, OptionValue]:
    """The options of ``game`` as the command line names them (``dice_each``), or
    as its log does (``dice``), as the log names them.

    :raises aces.errors.OptionError: for an option the game does not have, by
        the name it was given.
    """
    from aces.arguments import parameter
    from aces.errors import OptionError
    from aces.games import declared

    declares = declared().get(game, ())
    own = {option.key: option.key for option in declares}
    own.update((option.flag.removeprefix("--").replace("-", "_"), option.key)
               for option in declares)
    options: dict[str, OptionValue] = {}
    for name, value in given.items():
        if name not in own:
            raise OptionError("{option} is not an option of the game {game}",
                              option=parameter(name), game=game)
        options[own[name]] = value
    return options


def _walked(events: list[Event]) -> Game:
    from aces.experiment.observe import GameObserver
    from aces.log import Record
    from aces.walk import walk

    steps = list(walk([Record(line, event) for line, event in enumerate(events, 1)], "<game>"))
    closed: list[GameRecord] = []
    observer = GameObserver(closed.append, keep_rows=True)
    for step in steps:
        observer.visit(step)
    observer.end()
    return Game(steps, closed[0])


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
        verb = "lose" if self.game == "five-dice" else "win"
        if self.by_player is not None:
            chances = ", ".join(f"{name} {chance:.1%}" for name, chance in self.by_player.items())
            return (f"<Odds to {verb} from here: {chances};"
                    f" {self.expected_rolls:.2f} rolls to come>")
        seats = _by_seat(self.win_by_seat)
        return (f"<Odds {self.game}, {self.players} players, to {verb}: {seats};"
                f" {self.expected_rolls:.2f} rolls on average>")

    def _repr_html_(self) -> str:
        from aces import notebook

        return notebook.odds_html(self)


def _by_seat(shares: Sequence[float]) -> str:
    """Shares by seat in a ``repr``: ``seat 1 47.1%, seat 2 52.9%``."""
    return ", ".join(f"seat {seat} {share:.1%}" for seat, share in enumerate(shares, 1))


@_speaks
def odds(players: int | PotState = 3, *, game: str = "pot", exact: bool = False,
         lang: str = "en", **options: OptionValue) -> Odds:
    """The exact odds of a table, or of a moment of a game of Aces in the Pot.

    ``players`` is the size of the table, or a moment of a game (one of
    ``Game.moments``, the state before a roll): then the odds are from
    that moment on, by player.
    The five-dice game has exact odds up to four players with five dice
    each: ``aces.odds(4, game="five-dice")``. Some tables take seconds
    (four players with six dice each, say), and those are worked out only
    with ``exact=True``, as ``aces simulate`` works them out only with
    ``--exact``. ``lang`` (``"en"``, ``"nb"`` or ``"nn"``) is the language
    of the notebook view.

    :raises aces.errors.OptionError: for a table too big to solve exactly,
        or too slow to without ``exact=True``.

    >>> import aces
    >>> aces.odds(2, chips=1)
    <Odds pot, 2 players, to win: seat 1 47.1%, seat 2 52.9%; 9.77 rolls on average>
    >>> game = aces.play(["Ada", "Bo"], seed=3)
    >>> aces.odds(game.moments[0])  # doctest: +ELLIPSIS
    <Odds to win from here: ...>
    """
    from aces.arguments import flag
    from aces.errors import OptionError, Term
    from aces.rules.fivedice import FiveDiceState
    from aces.rules.pot import PotState

    lang = _language(lang)
    game = _game_name(game)
    exact = flag(exact, "exact")
    if isinstance(players, (PotState, FiveDiceState)):
        moment = _state_odds(players)
        moment.lang = lang
        return moment
    players = _players(players, "a number of players or a moment of a game")
    options = _options(options, game)
    if game not in ("pot", "five-dice"):
        # Translators: an error of aces.odds for a game registered without exact odds.
        # {game}: its name; {simulate}: aces.simulate in Python.
        raise OptionError("the game {game} has no exact odds; try {simulate}", game=game,
                          simulate=Term("aces simulate"))
    if game == "five-dice":
        from aces.cli.simulate import EXACT
        from aces.simulate import answers
        from aces.simulate.fivedice import FiveDiceSimulation

        sim = FiveDiceSimulation.create(players, options)
        answer, unsolved = (answers(sim, exact or None) if sim.solvable(by_seat=True)
                            else (None, "none"))
        if unsolved == "slow":
            # Translators: an error of aces.odds for the five-dice game, whose exact
            # chances for this table take seconds. {option}: exact=True in Python,
            # which the reader adds to what they typed.
            raise OptionError("the exact chances of this table of Aces take a while to work"
                              " out; add {option} to wait for them", option=EXACT)
        if answer is None or answer.win_by_seat is None:
            # Translators: an error of aces.odds for the five-dice game: each seat's
            # chance to lose is worked out up to four players with five dice each.
            # {simulate}: aces.simulate in Python, aces simulate on the command line.
            raise OptionError("this table of Aces is too big for exact chances by seat;"
                              " try {simulate}", simulate=Term("aces simulate"))
        return Odds(game, players, answer.win_by_seat, answer.expected_rolls, answer.sd_rolls,
                    lang=lang)
    from aces.odds import exact as solve
    from aces.rules import pot

    # Solved as aces odds solves it, however long it takes: exact= is for the five-dice game.
    full = pot.options(options)
    solved = solve(players, t.cast("int", full["chips"]), t.cast("pot.Finish", full["finish"]),
                   0.5)
    solution = solved.solution
    return Odds(game, players, solution.win_by_seat, solution.expected_rolls, solution.sd_rolls,
                lang=lang)


def _state_odds(state: PotState) -> Odds:
    from aces.errors import OptionError
    from aces.odds import check_size
    from aces.odds.chain import build
    from aces.odds.solve import state_values
    from aces.rules.pot import PotState

    if not isinstance(state, PotState) or state.phase == "opening":
        raise OptionError("odds of a moment are for Aces in the Pot, after the opening")
    n = len(state.players)
    chips = (state.in_play + state.pot) // n
    check_size(n, chips)
    chain = build(n, chips, state.finish)
    index, rotation = chain.locate(state)
    row = state_values(chain)[index]
    by_player = {state.players[(rotation + i) % n]: float(row[i]) for i in range(n)}
    if index == chain.size:
        by_player = {name: float(seat == rotation) for seat, name in enumerate(state.players)}
    return Odds("pot", n, list(by_player.values()), float(row[n]), None, by_player)


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
        from aces import notebook

        return notebook.simulated_html(self)


@_speaks
def simulate(players: int = 3, *, game: str = "pot", games: int = 10_000,
             seed: int | None = None, exact: bool | None = None, lang: str = "en",
             **options: OptionValue) -> Simulated:
    """Play many games at once, fast, and count wins by seat and the games' lengths.

    The exact answers stand beside the estimates as ``aces simulate`` gives
    them: by default only where they come quickly, so that a notebook does
    not wait (five players with five dice each take several seconds, and
    the view says how to ask for them); with ``exact=True`` whatever they
    take, as ``--exact`` does; with ``exact=False`` never.
    ``lang`` (``"en"``, ``"nb"`` or ``"nn"``) is the language of the
    notebook view, which reports as ``aces simulate`` does.

    :raises aces.errors.OptionError: for a table the simulation cannot play.

    >>> import aces
    >>> sim = aces.simulate(4, games=20_000, seed=1)
    >>> sim.games, len(sim.win_by_seat)
    (20000, 4)
    >>> abs(sim.win_by_seat[0] - sim.exact.win_by_seat[0]) < 0.02
    True
    """
    from aces.arguments import maybe_flag, whole
    from aces.simulate import answers, check_games, check_seed, simulation
    from aces.simulate.stats import summarize

    players = _players(players, "a number of players")
    check_games(whole(games, "games"))
    lang = _language(lang)
    game = _game_name(game)
    exact = maybe_flag(exact, "exact")
    options = _options(options, game)
    if seed is not None:
        seed = whole(seed, "seed")
    if seed is None:
        import secrets

        seed = secrets.randbelow(2**32)
    check_seed(seed)
    sim = simulation(game, players, options)
    summary = summarize(sim.run(games, seed))
    found, unsolved = answers(sim, exact)
    return Simulated(game, players, summary, found, options=sim.options, seed=seed, lang=lang,
                     unsolved=unsolved)


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

    @_speaks
    def report(self, lang: str | None = None) -> str:
        """The report in words, as ``aces stats`` prints it; in ``lang`` if given."""
        from aces.experiment.report import report
        from aces.i18n import translations

        chosen = self.lang if lang is None else _language(lang)
        return report(self.pooled, chosen, translations(chosen))

    def as_dict(self) -> dict[str, t.Any]:
        """The numbers, as ``aces stats --json`` writes them."""
        from aces.experiment.export import as_dict

        return as_dict(self.pooled)

    @_speaks
    def plot(self, path: PathLike, lang: str | None = None, *, force: bool = False) -> None:
        """Draw observed against exact into a new .svg or .png file; with
        ``force``, over an existing file (never over a log, nor one of the logs
        pooled).

        :raises aces.errors.OptionError: for a file of another kind, a file that
            exists already, or without matplotlib.
        """
        from aces.arguments import flag
        from aces.arguments import path as a_path
        from aces.experiment.plot import check_path, plot
        from aces.i18n import translations

        chosen = self.lang if lang is None else _language(lang)
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
        from aces import notebook

        return notebook.stats_html(self.pooled, self.lang)


def _language(lang: str) -> str:
    """An offered language for ``lang`` (``"no"`` is Bokmål), or the error naming them."""
    from aces.arguments import text
    from aces.i18n import negotiate

    return negotiate(text(lang, "lang"), {})


def _game_index(index: object, count: int, name: str) -> int:
    """``index`` as the index of one of ``count`` games (below 0: from the end)."""
    from aces.arguments import whole
    from aces.errors import Term

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
    from aces.errors import GameNumberError

    return GameNumberError(_NO_GAME, option=where, count=count, index=index)


@_speaks
def stats(logs: Iterable[Source], *, csv: PathLike | None = None, rolls: bool = False,
          by_log: bool = False, decimal_comma: bool = False, force: bool = False,
          lang: str = "en", progress: Callable[[int], None] | None = None) -> Stats:
    """Pool logs as ``aces stats`` does: by rules and table size, damaged logs left out.

    ``csv`` writes a new table with a row per game (per roll, with
    ``rolls``; per log and seat, with its 95 % interval, with ``by_log``),
    headed in ``lang``, whole or not at all; it is never written over an
    existing file unless ``force`` (and never, even then, over a log or one
    of ``logs``). Its columns are split by
    commas and its decimals written with a point, as GeoGebra and CODAP read
    them; with ``decimal_comma``, by semicolons and with a decimal comma, as
    Excel with Norwegian settings opens a file as it is.

    ``lang`` (``"en"``, ``"nb"`` or ``"nn"``) is also the language the
    result speaks in a notebook, in :meth:`Stats.report` and in
    :meth:`Stats.plot`; set ``result.lang`` to change it afterwards.

    :raises aces.errors.OptionError: when the CSV file exists (without
        ``force``), cannot be written, or is one of the logs; or for a
        language the package does not offer.

    >>> import aces
    >>> result = aces.stats(["replays/session.jsonl", "replays/four-players.jsonl"])
    >>> result
    <Stats: 2 logs (0 left out), 6 games in 1 group of rules>
    >>> result.groups[0].pooled.seats.shares[0].hits
    0
    """
    from aces.arguments import flag, function, path
    from aces.arguments import sources as logs_of
    from aces.errors import OptionError, Term
    from aces.experiment.pool import pool
    from aces.files import forced_alone

    lang = _language(lang)
    sources = logs_of(logs, "logs")
    rolls, by_log = flag(rolls, "rolls"), flag(by_log, "by_log")
    decimal_comma, force = flag(decimal_comma, "decimal_comma"), flag(force, "force")
    progress = function(progress, "progress")
    if csv is not None:
        csv = path(csv, "csv")
    table = Term("--csv", "csv=")
    rows = Term("--rolls", "rolls=True")
    per_log = Term("--by-log", "by_log=True")
    if csv is None:
        for given, option in ((rolls, rows), (by_log, per_log)):
            if given:
                # Translators: an error of "aces stats". {option}: --rolls or --by-log
                # on the command line, rolls=True or by_log=True in Python; {csv}:
                # --csv, or csv= in Python.
                raise OptionError("{option} says what the table of {csv} holds, so it needs"
                                  " {csv}", option=option, csv=table)
        if decimal_comma:
            # Translators: an error of "aces stats". {option}: --decimal-comma on the
            # command line, decimal_comma=True in Python; {csv}: --csv, or csv= in Python.
            raise OptionError("{option} says how the table of {csv} is written, so it needs"
                              " {csv}", option=Term("--decimal-comma", "decimal_comma=True"),
                              csv=table)
        if force:
            raise forced_alone(table)
        return Stats(pool(sources, progress=progress), lang)
    if rolls and by_log:
        # Translators: an error of "aces stats". {rolls}: --rolls on the command line,
        # rolls=True in Python; {by_log}: --by-log, or by_log=True in Python.
        raise OptionError("{rolls} and {by_log} cannot be used together: a table has one"
                          " row per roll or one per log", rolls=rows, by_log=per_log)
    from aces.experiment.export import COMMA, POINT, CsvTable, log_table
    from aces.files import Output
    from aces.i18n import translations

    style = COMMA if decimal_comma else POINT
    output = Output(csv, force=force, reads=sources)
    with output.open(text=True) as out:
        if by_log:
            result = Stats(pool(sources, progress=progress), lang)
            log_table(out, translations(lang), result.pooled, style)
            return result
        sink = CsvTable(out, translations(lang), rolls, style)
        try:
            return Stats(pool(sources, sink=sink, keep_rows=rolls, progress=progress), lang)
        finally:
            sink.close()
