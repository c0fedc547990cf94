"""Pooling logs: each log read once, streamed, and added to its rules' group.

A log is counted only when the whole of it is sound: its games are counted
apart while it is read, and only a log that ends well is added to the pool.
A damaged log (not a log, empty, a line against the rules, cut short) is
left out and remembered with its error, which names the file and line. A
log whose last game is still going on (a game being recorded) is sound:
its finished games are pooled, and the unfinished one is counted as such.
Games with different rules or table sizes are never pooled together: each
set of rules is a group of its own.

A log given twice (the same file, or a copy of it: the same games, known
by the digest that ends its chain) is pooled once, and the summary of the
second says which log it repeats: counted twice, its games would weigh
double and bias every test.

Memory stays flat in the number of logs: a log costs its counts while it
is read, and a few numbers (its result) once it is done.
"""

from __future__ import annotations

import contextlib
import gc
import tempfile
import typing as t
from pathlib import Path

import msgspec

from aces.errors import AcesError, EmptyLogError
from aces.experiment.analysis import analyse, spread
from aces.experiment.exact import exact
from aces.experiment.observe import Counts, GameObserver
from aces.files import file_name, identity, os_reason
from aces.games import registration
from aces.inference import goodness_of_fit, wilson
from aces.log import read
from aces.walk import drive, walk

if t.TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from aces.experiment.analysis import Result
    from aces.experiment.observe import GameRecord, Rules
    from aces.inference import Interval

__all__ = ["Group", "LogResult", "LogSummary", "Pooled", "Pooling", "Sink", "Source", "log_result",
           "pool", "records"]


class Sink(t.Protocol):
    """Takes the games of each log as they are read (the tables of ``--csv``)."""

    def game(self, source: str, number: int, record: GameRecord) -> None:
        """A game of the log being read; ``number`` counts from 1 in its log."""

    def commit(self) -> None:
        """The log being read is sound: keep its games."""

    def discard(self) -> None:
        """The log being read is left out: forget its games."""


class LogSummary(t.NamedTuple):
    """One log read: its name, and what it held (nothing, if left out)."""

    source: str
    games: int
    rolls: int
    #: Why it was left out, naming its line; ``None`` for a sound log.
    error: AcesError | None
    #: The log given before it that holds the same games (the same file, or
    #: a copy): this one is not pooled again.
    same_as: str | None = None
    #: Whether its last game is not over (its finished games are pooled).
    unfinished: bool = False
    #: The finished games it takes out of the pool (``game_excluded``), by
    #: their numbers in the log: not counted, and said so.
    excluded: tuple[int, ...] = ()


class LogResult(t.NamedTuple):
    """One log's own numbers for a set of rules, kept beside the pool: a
    few numbers a log, so that memory stays flat however many logs come."""

    source: str
    games: int
    rolls: int
    #: Games won (lost, in five-dice) by seat from the starter.
    wins: tuple[int, ...]
    mean_length: float | None
    #: ``(count, out of)``: normal rolls that moved nothing, tries won, rolls
    #: followed by a roll again; ``None`` where the game has none.
    nothing: tuple[int, int] | None
    tries: tuple[int, int] | None
    agains: tuple[int, int] | None
    #: The p-value of the test of the seats, when there is one.
    p_seats: float | None
    #: The 95 % interval of the mean length, from two games on.
    length_interval: Interval | None = None

    @property
    def shares(self) -> list[float | None]:
        return [won / self.games if self.games else None for won in self.wins]

    @property
    def intervals(self) -> list[Interval | None]:
        """The 95 % interval of each seat's share, as the pooled result's are
        worked out: one log's scatter beside the pool's."""

        return [wilson(won, self.games) if self.games else None for won in self.wins]

    @staticmethod
    def interval_of(pair: tuple[int, int] | None) -> Interval | None:
        """The 95 % interval of one of the ``(count, out of)`` pairs."""

        return None if pair is None or not pair[1] else wilson(*pair)


class Group(t.NamedTuple):
    """One set of rules: the pooled result and each log's own beside it."""

    rules: Rules
    pooled: Result
    logs: list[LogResult]


class Pooled(t.NamedTuple):
    """Every log read, and a group for each set of rules met."""

    logs: list[LogSummary]
    groups: list[Group]

    @property
    def left_out(self) -> list[LogSummary]:
        return [log for log in self.logs if log.error is not None]

    @property
    def repeated(self) -> list[LogSummary]:
        """The logs given again, pooled once (:attr:`LogSummary.same_as`)."""
        return [log for log in self.logs if log.same_as is not None]

    @property
    def unfinished(self) -> list[LogSummary]:
        """The logs whose last game is not over."""
        return [log for log in self.logs if log.unfinished]


#: A log to read: a path, or an open binary stream with the name to call it by.
Source = t.Union[str, "Path", tuple[t.BinaryIO, str]]


def pool(sources: Iterable[Source], sink: Sink | None = None, keep_rows: bool = False,
         progress: t.Callable[[int], None] | None = None) -> Pooled:
    """Read every log and pool the sound ones by their rules.

    A log whose last game is still being played (a class's log fetched
    while it is recorded) is sound: its finished games are pooled. A log
    given again (the same file, or a copy) is pooled once.
    """
    pooling = Pooling()
    for done, source in enumerate(sources, 1):
        name = _name(source)
        place = identity(source)
        earlier = pooling.earlier(place)
        if earlier is not None:
            # The very file given before: not even read again.
            pooling.repeat(name, earlier)
        else:
            _pool_one(pooling, source, name, place, sink, keep_rows)
        if progress is not None:
            progress(done)
    return pooling.result()


def _pool_one(pooling: Pooling, source: Source, name: str, place: object,
              sink: Sink | None, keep_rows: bool) -> None:
    """One log read and, unless damaged or a copy of one before, pooled."""
    try:
        with _collector_paused():
            log = _count(source, sink, keep_rows)
    except AcesError as error:
        if sink is not None:
            sink.discard()
        pooling.leave_out(name, error)
        return
    # By content only a log with games to count twice: two groups that have just
    # sat down at the same names hold the same header, and nothing to count.
    fingerprint = log.fingerprint if log.games else None
    earlier = pooling.earlier(fingerprint)
    if earlier is not None:
        if sink is not None:
            sink.discard()
        pooling.repeat(name, earlier, log.games, log.rolls)
        return
    if sink is not None:
        sink.commit()
    pooling.add(name, log.counts, log.games, log.rolls, unfinished=log.unfinished,
                excluded=log.excluded, known_by=(place, fingerprint))


class Pooling:
    """Logs added one by one, pooled by their rules: the one way a class is
    pooled, from files (:func:`pool`) or as it plays (the live class)."""

    def __init__(self) -> None:
        self._totals: dict[Rules, Counts] = {}
        self._each: dict[Rules, list[LogResult]] = {}
        self._summaries: list[LogSummary] = []
        #: The first log of each file and of each content (see the module's doc).
        self._seen: dict[object, str] = {}

    def add(self, name: str, counts: dict[Rules, Counts], games: int, rolls: int, *,
            unfinished: bool = False, excluded: tuple[int, ...] = (),
            known_by: Iterable[object] = ()) -> None:
        """A sound log: its counts by rules, and its games and rolls; whether its
        last game is still being played, the finished games it takes out of
        the pool, and what it is known by, should it be given again
        (:meth:`earlier`)."""
        self._summaries.append(LogSummary(name, games, rolls, None, unfinished=unfinished,
                                          excluded=excluded))
        for key in known_by:
            if key is not None:
                self._seen.setdefault(key, name)
        for rules, part in counts.items():
            if rules in self._totals:
                self._totals[rules] += part
            else:
                self._totals[rules] = part + Counts(rules.players)
            self._each.setdefault(rules, []).append(log_result(name, rules, part))

    def earlier(self, key: object) -> str | None:
        """The log added before that is known by ``key``, if any."""
        return None if key is None else self._seen.get(key)

    def repeat(self, name: str, earlier: str, games: int = 0, rolls: int = 0) -> None:
        """A log that holds the same games as ``earlier``: named, not pooled again."""
        self._summaries.append(LogSummary(name, games, rolls, None, same_as=earlier))

    def leave_out(self, name: str, error: AcesError) -> None:
        """A damaged log, named with why."""
        self._summaries.append(LogSummary(name, 0, 0, error))

    def result(self) -> Pooled:
        groups = [Group(rules, analyse(rules, self._totals[rules]), self._each[rules])
                  for rules in self._totals]
        return Pooled(self._summaries, groups)


def log_result(source: str, rules: Rules, counts: Counts) -> LogResult:
    """A log's numbers for one set of rules."""

    expected = exact(rules)
    fit = goodness_of_fit(counts.wins, expected.seats) if expected.seats else None
    games = counts.games
    pot = "nothing" in registration(rules.game).measures
    dice = [k for k, n in enumerate(counts.by_dice) if n and k >= 2]
    return LogResult(
        source=source,
        games=games,
        rolls=counts.rolls,
        wins=tuple(counts.wins),
        mean_length=counts.rolls / games if games else None,
        nothing=(counts.nothing, counts.normal) if pot else None,
        tries=(counts.tries[3], sum(counts.tries)) if pot else None,
        agains=None if pot else (sum(counts.agains[k] for k in dice),
                                 sum(counts.by_dice[k] for k in dice)),
        p_seats=None if fit is None else fit.p,
        length_interval=spread(counts.lengths)[2],
    )


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cycle collector while one log is read.

    Reading makes and drops a great many small objects, freed by their
    reference counts; only a few per log are in cycles. Left running, the
    collector scans the long-lived objects (NumPy's and the exact odds'
    among them) over and over for nothing: a third of the time of a
    thousand logs. It resumes between logs, so a log's few cycles are freed
    before the next log is read, and memory stays flat.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _name(source: Source) -> str:
    if isinstance(source, tuple):
        return source[1]
    return str(source)


class _Counted(t.NamedTuple):
    """One log read: its counts by rules, its finished games and their rolls."""

    counts: dict[Rules, Counts]
    games: int
    rolls: int
    #: Whether its last game is not over.
    unfinished: bool
    #: The finished games taken out of the pool, by number.
    excluded: tuple[int, ...]
    #: What its content is known by: its last line's number and digest, which
    #: chains every line before it (``None`` for an old log without digests).
    fingerprint: tuple[int, bytes] | None


def _count(source: Source, sink: Sink | None, keep_rows: bool) -> _Counted:
    """The counts of one log by rules; raises at a bad line."""
    counts: dict[Rules, Counts] = {}
    games: list[int] = [0, 0]
    taken: list[int] = []

    with _opened(source) as (opened, name):
        stream, left_out = _games_left_out(opened)

        def count(record: GameRecord) -> None:
            if observer.number in left_out:
                taken.append(observer.number)
                return
            games[0] += 1
            games[1] += record.rolls
            part = counts.get(record.rules)
            if part is None:
                part = counts[record.rules] = Counts(record.rules.players)
            part.add(record)
            if sink is not None:
                # Numbered as in the log, games taken out of the pool too.
                sink.game(name, observer.number, record)

        observer = GameObserver(count, keep_rows)
        reader = read(stream, name)
        try:
            if not drive(reader, name, observer, allow_unfinished=True, allow_unsettled=False):
                raise _empty(name)
        finally:
            if stream is not opened:
                stream.close()
    tail = reader.tail
    fingerprint = (tail.seq, tail.digest) if tail.digest else None
    return _Counted(counts, games[0], games[1], observer.unfinished is not None,
                    tuple(sorted(taken)), fingerprint)


#: How a game taken out of the pool is written in a log (``aces.events.GameExcluded``):
#: these bytes stand in no other line, since a name's quotation marks are escaped.
_EXCLUDED: t.Final = b'"type":"game_excluded"'
_CHUNK: t.Final = 1 << 20


def _games_left_out(stream: t.BinaryIO) -> tuple[t.BinaryIO, frozenset[int]]:
    """The games a log takes out of the pool, found before it is walked (a
    game is counted when it closes, and may be taken out later), and the
    stream to walk from its start.

    The bytes are searched a chunk at a time, at the speed of ``bytes.find``,
    and only a log that holds an exclusion is read by lines. A stream that
    cannot go back (standard input) is kept in a temporary file meanwhile,
    in memory up to a few megabytes; so memory stays flat however long the log.
    """
    start = stream.tell() if stream.seekable() else None
    kept: t.BinaryIO = stream
    if start is None:
        # Closed with the walk's stream, when the log is read.
        kept = t.cast("t.BinaryIO", tempfile.SpooledTemporaryFile(max_size=8 * _CHUNK))  # noqa: SIM115
    found = False
    tail = b""
    while chunk := stream.read(_CHUNK):
        if start is None:
            kept.write(chunk)
        if not found:
            found = _EXCLUDED in tail + chunk
            tail = chunk[-len(_EXCLUDED):]
    kept.seek(0 if start is None else start)
    if not found:
        return kept, frozenset()
    numbers = set()
    for raw in kept:
        if _EXCLUDED in raw:
            try:
                fields = msgspec.json.decode(raw)
            except msgspec.DecodeError:
                # The walk names what is wrong with the line.
                continue
            if isinstance(fields, dict) and type(fields.get("game")) is int:
                numbers.add(fields["game"])
    kept.seek(0 if start is None else start)
    return kept, frozenset(numbers)


def _empty(source: str) -> EmptyLogError:
    # Translators: an error. {source}: the log's file name, or <stdin>.
    return EmptyLogError("{source} is empty: it holds no events", source=source)


def records(stream: t.BinaryIO, source: str, keep_rows: bool = False) -> Iterator[GameRecord]:
    """The games of one log, each as soon as it is over; raises at a bad line.

    A generator over the walk itself (not :func:`~aces.walk.drive`, which
    runs a log to its end), so that a caller can stop after any game.

    :raises ~aces.errors.EmptyLogError: for a log with no events.
    """

    closed: list[GameRecord] = []
    observer = GameObserver(closed.append, keep_rows)
    for step in walk(read(stream, source), source):
        observer.visit(step)
        if closed:
            yield closed.pop()
    if not observer.steps:
        raise _empty(source)
    observer.end()
    if closed:
        yield closed.pop()


class _Opened:
    def __init__(self, source: Source) -> None:
        self.source = source
        self.handle: t.BinaryIO | None = None

    def __enter__(self) -> tuple[t.BinaryIO, str]:
        source = self.source
        if isinstance(source, tuple):
            return source

        try:
            self.handle = Path(file_name(source)).open("rb")
        except OSError as exc:
            raise AcesError("cannot read {path}: {reason}", path=str(source),
                            reason=os_reason(exc)) from None
        return self.handle, str(source)

    def __exit__(self, *exc: object) -> None:
        if self.handle is not None:
            self.handle.close()


def _opened(source: Source) -> _Opened:
    return _Opened(source)
