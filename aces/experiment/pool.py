"""Pooling logs: each log read once, streamed, and added to its rules' group.

A log is counted only when the whole of it is sound: its games are counted
apart while it is read, and only a log that ends well is added to the pool.
A damaged log (not a log, empty, a line against the rules, cut short) is
left out and remembered with its error, which names the file and line.
Games with different rules or table sizes are never pooled together: each
set of rules is a group of its own.

Memory stays flat in the number of logs: a log costs its counts while it
is read, and a few numbers (its result) once it is done.
"""

from __future__ import annotations

import typing as t

from aces.errors import AcesError, EmptyLogError, os_reason

if t.TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from pathlib import Path

    from aces.experiment.analysis import Result
    from aces.experiment.observe import Counts, GameRecord, Rules


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


class Group(t.NamedTuple):
    """One set of rules: the pooled result and each log's own beside it."""

    rules: Rules
    pooled: Result
    logs: list[tuple[str, Result]]


class Pooled(t.NamedTuple):
    """Every log read, and a group for each set of rules met."""

    logs: list[LogSummary]
    groups: list[Group]

    @property
    def left_out(self) -> list[LogSummary]:
        return [log for log in self.logs if log.error is not None]


#: A log to read: a path, or an open binary stream with the name to call it by.
Source = t.Union[str, "Path", tuple[t.BinaryIO, str]]


def pool(sources: Iterable[Source], sink: Sink | None = None, keep_rows: bool = False,
         progress: t.Callable[[int], None] | None = None) -> Pooled:
    """Read every log and pool the sound ones by their rules."""
    from aces.experiment.analysis import analyse
    from aces.experiment.observe import Counts

    totals: dict[Rules, Counts] = {}
    each: dict[Rules, list[tuple[str, Result]]] = {}
    summaries: list[LogSummary] = []
    for done, source in enumerate(sources, 1):
        name = _name(source)
        try:
            counts, games, rolls = _count(source, sink, keep_rows)
        except AcesError as error:
            if sink is not None:
                sink.discard()
            summaries.append(LogSummary(name, 0, 0, error))
        else:
            if sink is not None:
                sink.commit()
            summaries.append(LogSummary(name, games, rolls, None))
            for rules, part in counts.items():
                if rules in totals:
                    totals[rules] += part
                else:
                    totals[rules] = part + Counts(rules.players)
                each.setdefault(rules, []).append((name, analyse(rules, part)))
        if progress is not None:
            progress(done)
    groups = [Group(rules, analyse(rules, totals[rules]), each[rules]) for rules in totals]
    return Pooled(summaries, groups)


def _name(source: Source) -> str:
    if isinstance(source, tuple):
        return source[1]
    return str(source)


def _count(source: Source, sink: Sink | None,
           keep_rows: bool) -> tuple[dict[Rules, Counts], int, int]:
    """The counts of one log by rules, its games and its rolls; raises at a bad line."""
    from aces.experiment.observe import Counts

    counts: dict[Rules, Counts] = {}
    games = rolls = 0
    with _opened(source) as (stream, name):
        for record in records(stream, name, keep_rows):
            games += 1
            rolls += record.rolls
            part = counts.get(record.rules)
            if part is None:
                part = counts[record.rules] = Counts(record.rules.players)
            part.add(record)
            if sink is not None:
                sink.game(name, games, record)
    return counts, games, rolls


def records(stream: t.BinaryIO, source: str, keep_rows: bool = False) -> Iterator[GameRecord]:
    """The games of one log, each once it is over; raises at a bad line."""
    from aces.experiment.observe import GameObserver
    from aces.log import read
    from aces.walk import walk

    observer = GameObserver(keep_rows)
    visit = observer.visit
    seen = False
    for step in walk(read(stream, source), source):
        seen = True
        closed = visit(step)
        if closed is not None:
            yield closed
    if not seen:
        # Translators: an error. {source}: the log's file name, or <stdin>.
        raise EmptyLogError("{source} is empty: it holds no events", source=source)
    last = observer.end()
    if last is not None:
        yield last


class _Opened:
    def __init__(self, source: Source) -> None:
        self.source = source
        self.handle: t.BinaryIO | None = None

    def __enter__(self) -> tuple[t.BinaryIO, str]:
        from pathlib import Path

        source = self.source
        if isinstance(source, tuple):
            return source
        try:
            self.handle = Path(source).open("rb")
        except OSError as exc:
            raise AcesError("cannot read {path}: {reason}", path=str(source),
                            reason=os_reason(exc)) from None
        return self.handle, str(source)

    def __exit__(self, *exc: object) -> None:
        if self.handle is not None:
            self.handle.close()


def _opened(source: Source) -> _Opened:
    return _Opened(source)
