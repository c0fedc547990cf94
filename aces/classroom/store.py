"""What an event store promises the live class, whichever store it is.

A class keeps one *stream* a group: the group's log, line by line, its
``seq`` gapless from 1 and its digests chained exactly as ``aces record``
writes them (the service encodes every block with :class:`aces.log.LogWriter`,
so the lines are the same bytes in any store). Besides, the store keeps
the class's own record (:class:`ClassRecord`: its code, secret, rules and
groups) and a class-wide *feed*: every block appended gets a position,
which never goes back and never fills a gap later, so that a projector
resuming from ``Last-Event-ID`` misses nothing and sees nothing twice.

The promises, which every store keeps and one contract suite tests
(tests/classroom/test_store_contract.py):

- :meth:`Store.append` appends a block at an expected ``seq`` or not at
  all: of two appends at the same ``seq``, one wins and the other gets
  :class:`StaleAppendError`; a block is never half written.
- The block is durable before :meth:`Store.append` returns: acknowledged
  is a subset of durable, through a crash of the process or the machine.
- A :class:`Submission` appends once: the same id again gets the first
  :class:`Appended` back (``again`` set), the same id for another payload
  gets :class:`ReusedSubmissionError`, and this holds across a restart.
- The feed's positions follow the order the blocks were appended in, and
  none is shown (:attr:`Store.position`) before it and every one before it
  are durable.

The file store is :class:`aces.classroom.files.FileStore`; a store on
PostgreSQL keeps the same promises with its primary keys and transactions.
"""

from __future__ import annotations

import typing as t

import msgspec

if t.TYPE_CHECKING:
    import contextlib
    from collections.abc import Callable, Iterable, Sequence

    from aces.events import Event


__all__ = ["FORMAT", "Appended", "ClassRecord", "FeedEntry", "GroupRecord", "Opened",
           "ReusedSubmissionError", "StaleAppendError", "Store", "Submission"]

#: The version of :class:`ClassRecord` as a store keeps it.
FORMAT: t.Final = 1


class GroupRecord(msgspec.Struct, kw_only=True):
    """One group of the class, as the store keeps it (never its token, only
    the token's digest)."""

    #: The group's number in the class, from 1: its stream.
    id: int
    #: The name of its log (``group-001.jsonl``), as ``aces stats`` names it.
    log: str
    #: The label the group chose; no one's name is needed.
    label: str
    players: tuple[str, ...]
    #: SHA-256 of the group's token, in hexadecimal.
    token: str
    #: The language the group's narration is told in.
    lang: str
    closed: bool = False


class ClassRecord(msgspec.Struct, kw_only=True):
    """The class itself: its code, the teacher's secret, its one set of rules."""

    format: int = FORMAT
    #: What pupils type to join.
    code: str
    #: The secret in the teacher's address.
    secret: str
    #: The rules every table plays: the game's name and its options, as a
    #: log's header holds them.
    game: str
    options: dict[str, int | str | bool]
    #: The projector's language.
    lang: str
    paused: bool = False
    groups: list[GroupRecord] = msgspec.field(default_factory=list)
    #: Closed by its teacher on a school's server: nothing more is recorded,
    #: and its code may be given to another class.
    closed: bool = False


class Submission(t.NamedTuple):
    """What makes an append idempotent: the id its sender chose, and a digest
    of what it asks for (so that the same id for another roll is refused)."""

    id: str
    digest: str


class Appended(t.NamedTuple):
    """Where a block went: its feed position and the ``seq`` of its first and
    last lines; ``again`` when the submission had been appended before and
    this is its first answer again."""

    position: int
    first: int
    last: int
    again: bool = False


class FeedEntry(t.NamedTuple):
    """One block in the class-wide feed: its position, its stream, its lines."""

    position: int
    stream: int
    first: int
    last: int


class Opened(t.NamedTuple):
    """A store opened: the class's record (``None`` for a new class), the
    streams whose last line was torn by a crash and cut off, with that line,
    and where a store of files found each stream's log (for the class to
    refuse a log that no group of its record wrote)."""

    record: ClassRecord | None
    repaired: list[tuple[int, int]]
    logs: tuple[tuple[int, str], ...] = ()


class StaleAppendError(Exception):
    """An append at a ``seq`` that has passed: the stream is at :attr:`seq`."""

    def __init__(self, stream: int, seq: int) -> None:
        super().__init__(stream, seq)
        self.stream = stream
        self.seq = seq


class ReusedSubmissionError(Exception):
    """A submission id already appended with another payload."""


class Store(t.Protocol):
    """The event store of one class (see the module's promises).

    A store that other processes write too (:attr:`shared`: PostgreSQL)
    may know less than the store holds: :meth:`append` and :meth:`update`
    are the exact checks, :meth:`latest` and :meth:`record` ask the store,
    and :meth:`changed` wakes when another process appended or changed the
    class's record.
    """

    #: Whether other processes may write this class too.
    shared: t.ClassVar[bool]

    async def open(self) -> Opened:
        """Open the store, repair what a crash left, and give the class's record."""

    async def save(self, record: ClassRecord) -> None:
        """Keep the record of a class begun now, durably."""

    async def update(self, change: Callable[[ClassRecord], None]) -> ClassRecord:
        """Apply ``change`` to the newest record of the class under the store's
        lock, keep it durably, and give it; an exception from ``change``
        keeps the record as it was, and goes on to the caller."""

    async def record(self) -> ClassRecord:
        """The newest record of the class."""

    @property
    def revision(self) -> int:
        """How many times the class's record was kept, as this store knows it."""

    def reading(self, stream: int) -> contextlib.AbstractAsyncContextManager[Iterable[bytes]]:
        """The lines of a stream from its first, to walk (:func:`aces.log.read`)."""

    def seq(self, stream: int) -> int:
        """The ``seq`` of the stream's last line (0 for none), as this store
        last saw it."""

    async def create(self, stream: int, log: str) -> None:
        """Make a new, empty stream; its log is named ``log``."""

    async def append(self, stream: int, expected: int, events: Sequence[Event],
                     submission: Submission | None = None) -> Appended:
        """Append ``events`` as lines ``expected + 1`` on, numbered and chained
        as :class:`aces.log.LogWriter` writes them, all of them durably or none;
        or raise :class:`StaleAppendError` or :class:`ReusedSubmissionError`."""

    async def find(self, stream: int, submission: Submission) -> Appended | None:
        """Where ``submission`` was appended, if it was.

        :raises ReusedSubmissionError: for its id with another digest.
        """

    @property
    def position(self) -> int:
        """The position of the last block in the feed (0 for none), as this
        store knows it."""

    async def latest(self) -> int:
        """The position of the last block in the feed, asked of the store."""

    async def entries(self, after: int, limit: int) -> list[FeedEntry]:
        """The feed's blocks after position ``after``, at most ``limit`` of them."""

    async def blocks(self, after: int, limit: int) -> list[tuple[FeedEntry, bytes]]:
        """The feed's blocks after position ``after``, as :meth:`entries` gives
        them, each with its lines (as :meth:`lines` gives them, joined): a
        process following the class reads another's blocks in one call."""

    async def lines(self, stream: int, first: int, last: int) -> list[bytes]:
        """Lines ``first`` to ``last`` of a stream, as written (fewer if the
        stream ends before ``last``)."""

    async def changed(self, after: int, revision: int | None = None) -> None:
        """Wait until the feed holds a block after position ``after``, or the
        record's :attr:`revision` is past ``revision``."""

    async def close(self) -> None:
        """Let go of every stream; nothing appended is lost."""
