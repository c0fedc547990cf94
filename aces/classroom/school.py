"""The classes one server serves: a teacher's one class, or a school's many.

Every face of the class server asks its :class:`Classes` which class a
request is for: by the class code a pupil types, by a group's token, by
the teacher's secret. ``aces class serve DIR`` serves :class:`OneClass`,
the class in its folder; ``aces class serve --store postgresql://…``
serves a :class:`School`: every class on the school's PostgreSQL, each
held in memory while it is used and followed as other processes change it
(:meth:`aces.classroom.service.Classroom.follow`).

On a school's server:

- the operator gives each teacher a key (``aces class teacher add``), the
  address of the teacher's own page; the key is kept as its digest;
- a teacher creates classes there, and sees only their own: each gets a
  code, unique among the open classes, and its secret;
- a class closed by its teacher (or left without a roll for
  :attr:`SchoolSettings.idle_days`) is kept for
  :attr:`SchoolSettings.retention_days`, read-only, then deleted with every
  line of its logs (:meth:`School.purge`, hourly).

Wrong codes, tokens, secrets and keys are counted per device across the
whole server (:class:`~aces.classroom.access.Guesses`), as a class counts its own.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import time
import typing as t

import msgspec

from aces.classroom.access import (
    Guesses,
    key_digest,
    new_code,
    new_token,
    normal_code,
    token_digest,
)
from aces.classroom.service import (
    Classroom,
    Settings,
    not_your_group,
    teacher_only,
    unknown_code,
)
from aces.classroom.store import ClassRecord
from aces.classroom.teachers import ring_deleted
from aces.errors import AcesError, ClassError
from aces.games import game_named
from aces.i18n import languages, unknown_language

if t.TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from aces.classroom.database import Database
    from aces.classroom.service import Group
    from aces.rules import OptionValue

__all__ = ["ClassSummary", "Classes", "OneClass", "School", "SchoolSettings", "Teacher"]

#: Groups' tokens whose class one process remembers (the longest unused go first).
TOKENS_KEPT: t.Final = 100_000
#: Seconds between two purges of a school's closed and idle classes.
PURGE_EVERY: t.Final = 3600.0


class Classes(t.Protocol):
    """The classes a server serves, as its faces ask for them."""

    #: The bounds of each class.
    settings: Settings

    @property
    def lang(self) -> str:
        """The language of a page asked for before any class is known."""

    def only(self) -> Classroom | None:
        """The server's one class, if it serves one alone (a teacher's laptop)."""

    async def by_code(self, code: str, device: str) -> Classroom:
        """The open class whose code is ``code``.

        :raises ~aces.errors.ClassError: (``unknown_code``, ``too_many_guesses``).
        """

    async def by_group(self, group: int, token: str, device: str) -> tuple[Classroom, Group]:
        """The class and group whose token is ``token``.

        :raises ~aces.errors.ClassError: (``not_your_group``, ``too_many_guesses``).
        """

    async def by_secret(self, secret: str, device: str) -> Classroom:
        """The class whose teacher's secret is ``secret``.

        :raises ~aces.errors.ClassError: (``teacher_only``, ``too_many_guesses``).
        """

    async def health(self) -> None:
        """Nothing, if the server can record rolls now.

        :raises ~aces.errors.ClassError: (``unavailable``) if it cannot.
        """

    async def close(self) -> None:
        """Let every class go; nothing recorded is lost."""


class OneClass:
    """The one class of ``aces class serve DIR``: every request is for it, and
    it checks the code, the token or the secret itself."""

    def __init__(self, room: Classroom) -> None:
        self.room = room
        self.settings = room.settings

    @property
    def lang(self) -> str:
        return self.room.class_record.lang

    def only(self) -> Classroom:
        return self.room

    async def by_code(self, code: str, device: str) -> Classroom:
        self.room.check_code(code, device)
        return self.room

    async def by_group(self, group: int, token: str, device: str) -> tuple[Classroom, Group]:
        return self.room, self.room.group(group, token, device)

    async def by_secret(self, secret: str, device: str) -> Classroom:
        """The class, if ``secret`` is its teacher's.

        :raises ~aces.errors.ClassError: (``teacher_only``, ``too_many_guesses``).
        """
        room = self.room
        room.guesses.check(device, room.clock())
        if not room.is_teacher(secret):
            room.guesses.wrong(device, room.clock())
            raise teacher_only()
        return room

    async def health(self) -> None:
        return None

    async def close(self) -> None:
        await self.room.close()


class SchoolSettings(t.NamedTuple):
    """What the operator of a school's server sets (docs/class/school.rst
    lists each with its environment variable)."""

    #: Days a closed class is kept before it is deleted (``ACES_RETENTION_DAYS``).
    retention_days: int = 30
    #: Days without a roll after which an open class is closed (``ACES_IDLE_DAYS``).
    idle_days: int = 14
    #: Open classes one teacher may have at once (``ACES_MAX_CLASSES``).
    classes_per_teacher: int = 30
    #: Classes one process holds in memory at once; the longest unused is let
    #: go first, never one with a projector open (``ACES_CLASSES_HELD``).
    held: int = 200
    #: The language of a page before its class is known (``--lang``).
    lang: str = "nb"


class Teacher(t.NamedTuple):
    """A teacher on the school's server, as the operator named them."""

    id: int
    label: str


class ClassSummary(t.NamedTuple):
    """One of a teacher's classes, for their page."""

    number: int
    code: str
    secret: str
    game: str
    options: dict[str, int | str | bool]
    lang: str
    groups: int
    created: str
    closed: str | None


class School:
    """Every class on the school's PostgreSQL (see the module)."""

    def __init__(self, database: Database, settings: Settings | None = None,
                 school: SchoolSettings | None = None,
                 clock: Callable[[], float] | None = None) -> None:
        self.database = database
        self.settings = Settings() if settings is None else settings
        self.school = SchoolSettings() if school is None else school
        self.clock = clock or time.monotonic
        self.guesses = Guesses()
        self._rooms: collections.OrderedDict[int, tuple[Classroom, asyncio.Task[None]]] = (
            collections.OrderedDict())
        self._loading: dict[int, asyncio.Lock] = {}
        #: The class of each group's token (its digest) asked for lately.
        self._classes_of: collections.OrderedDict[str, int] = collections.OrderedDict()
        self._purger: asyncio.Task[None] | None = None

    @property
    def lang(self) -> str:
        return self.school.lang

    def only(self) -> None:
        return None

    async def start(self) -> None:
        """Purge what the retention allows, and again every hour."""
        self._purger = asyncio.get_running_loop().create_task(self._purging())

    async def _purging(self) -> None:
        while True:
            with contextlib.suppress(AcesError):
                await self.purge()
            await asyncio.sleep(PURGE_EVERY)

    # -- Classes in memory ------------------------------------------------------------

    async def room(self, number: int) -> Classroom:
        """Class ``number``, from memory or read from the store and followed."""
        held = self._rooms.get(number)
        if held is not None:
            self._rooms.move_to_end(number)
            return held[0]
        lock = self._loading.setdefault(number, asyncio.Lock())
        async with lock:
            held = self._rooms.get(number)
            if held is not None:
                return held[0]
            from aces.classroom.postgres import PostgresStore

            room = Classroom(PostgresStore(self.database, number), self.settings,
                             clock=self.clock)
            try:
                await room.open(None, None, self.lang)
            except BaseException:
                await room.close()
                raise
            follower = asyncio.get_running_loop().create_task(self._follow(room))
            self._rooms[number] = (room, follower)
            self._learn(number, room.class_record)
        self._loading.pop(number, None)
        await self._let_go(keep=number)
        return room

    def _learn(self, number: int, record: ClassRecord) -> None:
        """The class of each group's token in ``record``, class ``number``'s:
        a group whose rolls go to the processes in turn, as a proxy deals
        them out, asks nothing of the database at its first roll on a
        process that holds its class already (a query that scans every
        class's groups, at a school's start some thousand at once)."""
        for group in record.groups:
            self._classes_of[group.token] = number
        while len(self._classes_of) > TOKENS_KEPT:
            self._classes_of.popitem(last=False)

    async def _follow(self, room: Classroom) -> None:
        from aces.classroom.postgres import UnknownClassError

        while True:
            try:
                await room.follow()
            except UnknownClassError:
                # Deleted: let it go (a request for it finds no class).
                for number, (held, _) in list(self._rooms.items()):
                    if held is room:
                        del self._rooms[number]
                await room.close()
                return
            except AcesError:
                # The database is away: the follower looks again in a moment.
                await asyncio.sleep(1.0)

    async def _let_go(self, keep: int | None = None, *, every: bool = False) -> None:
        """Let the longest unused classes go, down to :attr:`SchoolSettings.held`."""
        for number in list(self._rooms):
            if not every and len(self._rooms) <= self.school.held:
                return
            room, follower = self._rooms[number]
            if number == keep or (room.streams and not every):
                continue
            del self._rooms[number]
            follower.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await follower
            await room.close()

    async def close(self) -> None:
        if self._purger is not None:
            self._purger.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._purger
        await self._let_go(every=True)

    # -- Finding a class ----------------------------------------------------------------

    async def _find(self, query: str, value: str, device: str,
                    refused: Callable[[], ClassError]) -> int:
        now = self.clock()
        self.guesses.check(device, now)
        async with self.database.connection() as connection:
            cursor = await connection.execute(query, (value,))
            row = await cursor.fetchone()
        if row is None:
            self.guesses.wrong(device, now)
            raise refused()
        return int(row[0])

    async def by_code(self, code: str, device: str) -> Classroom:
        number = await self._find(
            "SELECT id FROM aces.classes WHERE record->>'code' = %s AND closed IS NULL",
            normal_code(code), device, unknown_code)
        return await self.room(number)

    async def by_group(self, group: int, token: str, device: str) -> tuple[Classroom, Group]:
        """The group of ``token``, and its class.

        :raises ~aces.errors.ClassError: (``not_your_group``, ``too_many_guesses``).
        """
        from aces.classroom.postgres import UnknownClassError

        # The group's token names its class: an index of the records' groups,
        # asked once a token (a group's class never changes).
        key = token_digest(token)
        number = self._classes_of.get(key)
        asked = number is None
        if number is None:
            number = await self._find(
                "SELECT id FROM aces.classes WHERE record->'groups' @> %s::jsonb",
                json.dumps([{"token": key}]), device, not_your_group)
            self._classes_of[key] = number
            while len(self._classes_of) > TOKENS_KEPT:
                self._classes_of.popitem(last=False)
        else:
            self._classes_of.move_to_end(key)
        try:
            room = await self.room(number)
        except UnknownClassError:
            # Deleted since: its groups are no one's.
            self._classes_of.pop(key, None)
            raise not_your_group() from None
        if asked:
            # The groups that joined since the class was read here are known
            # by its record now: their first requests here ask nothing either.
            self._learn(number, room.class_record)
        if group not in room.groups:
            # It joined on another process a moment ago.
            await room.catch_up()
        return room, room.group(group, token, device)

    async def by_secret(self, secret: str, device: str) -> Classroom:
        number = await self._find("SELECT id FROM aces.classes WHERE record->>'secret' = %s",
                                  secret, device, teacher_only)
        return await self.room(number)

    async def health(self) -> None:
        async with self.database.connection() as connection:
            await connection.execute("SELECT 1")

    # -- Teachers ---------------------------------------------------------------------------

    async def teacher(self, key: str, device: str) -> Teacher:
        """The teacher whose key is ``key``.

        :raises ~aces.errors.ClassError: (``not_a_teacher``, ``too_many_guesses``).
        """
        now = self.clock()
        self.guesses.check(device, now)
        async with self.database.connection() as connection:
            cursor = await connection.execute(
                "SELECT id, label FROM aces.teachers WHERE key = %s", (key_digest(key),))
            row = await cursor.fetchone()
        if row is None:
            self.guesses.wrong(device, now)
            raise _not_a_teacher()
        return Teacher(int(row[0]), str(row[1]))

    async def classes(self, teacher: Teacher) -> list[ClassSummary]:
        """The teacher's classes, the newest first: theirs alone."""
        async with self.database.connection() as connection:
            cursor = await connection.execute(
                "SELECT id, record, created, closed FROM aces.classes WHERE teacher = %s"
                " AND record IS NOT NULL ORDER BY id DESC", (teacher.id,))
            rows = await cursor.fetchall()
        return [_summary(number, record, created, closed)
                for number, record, created, closed in rows]

    async def create(self, teacher: Teacher, game: str | None,
                     options: Mapping[str, OptionValue] | None, lang: str) -> ClassSummary:
        """A new class of ``teacher``'s, with its own code and secret.

        :raises ~aces.errors.OptionError: for a game or options the rules
            refuse, or a language not offered; :raises
            ~aces.errors.ClassError: (``too_many_classes``).
        """
        from aces.classroom.postgres import make_class

        if lang not in languages():
            raise unknown_language(lang)
        rules = game_named(game or "pot")
        checked = rules.options(options or {})
        async with self.database.connection() as connection:
            cursor = await connection.execute(
                "SELECT count(*) FROM aces.classes WHERE teacher = %s AND closed IS NULL",
                (teacher.id,))
            row = await cursor.fetchone()
        if row is not None and row[0] >= self.school.classes_per_teacher:
            # Translators: a school's class server refuses a teacher's new class.
            # {limit}: the most open classes a teacher may have.
            raise ClassError("you have {limit} open classes, as many as this server allows;"
                             " close one first",
                             limit=self.school.classes_per_teacher).coded("too_many_classes")
        for attempt in range(8):
            record = ClassRecord(code=new_code(), secret=new_token(), game=rules.name,
                                 options=checked, lang=lang)
            try:
                number = await make_class(self.database, record, teacher.id)
            except ClassError as error:
                if error.code != "code_taken" or attempt == 7:
                    raise
                continue
            found = [summary for summary in await self.classes(teacher)
                     if summary.number == number]
            return found[0]
        raise AssertionError("unreachable")

    async def close_class(self, teacher: Teacher, number: int) -> None:
        """Close one of ``teacher``'s classes: nothing more is recorded in it,
        its code is free, and it is deleted once its retention has passed.

        :raises ~aces.errors.ClassError: (``no_class``) for a class not theirs.
        """
        async with self.database.connection() as connection, connection.transaction():
            cursor = await connection.execute(
                "SELECT record FROM aces.classes WHERE id = %s AND teacher = %s FOR UPDATE",
                (number, teacher.id))
            row = await cursor.fetchone()
            if row is None or row[0] is None:
                raise _no_class()
            cursor = await connection.execute(
                "UPDATE aces.classes SET closed = coalesce(closed, now()),"
                " record = jsonb_set(record, '{closed}', 'true'), revision = revision + 1"
                " WHERE id = %s RETURNING revision", (number,))
            revised = await cursor.fetchone()
            assert revised is not None
            await connection.execute("SELECT pg_notify('aces', %s)",
                                     (f"{number} r{revised[0]}",))
        held = self._rooms.get(number)
        if held is not None:
            await held[0].catch_up()

    async def purge(self) -> tuple[list[int], list[int]]:
        """Close the classes left idle, and delete those closed longer than
        the retention: (closed, deleted), by number."""
        async with self.database.connection() as connection:
            cursor = await connection.execute(
                "UPDATE aces.classes c SET closed = now(),"
                " record = jsonb_set(c.record, '{closed}', 'true'), revision = c.revision + 1"
                " FROM aces.feeds f WHERE f.class = c.id AND c.closed IS NULL"
                " AND c.record IS NOT NULL AND f.active < now() - make_interval(days => %s)"
                " RETURNING c.id, c.revision", (self.school.idle_days,))
            closed = await cursor.fetchall()
            for number, revision in closed:
                await connection.execute("SELECT pg_notify('aces', %s)",
                                         (f"{number} r{revision}",))
            cursor = await connection.execute(
                "DELETE FROM aces.classes WHERE closed < now() - make_interval(days => %s)"
                " RETURNING id", (self.school.retention_days,))
            deleted = [int(row[0]) for row in await cursor.fetchall()]
            for number in deleted:
                await ring_deleted(connection, number)
        for number in deleted:
            held = self._rooms.pop(number, None)
            if held is not None:
                held[1].cancel()
                await held[0].close()
        return [int(number) for number, _ in closed], deleted


def _summary(number: int, record: t.Any, created: t.Any, closed: t.Any) -> ClassSummary:
    kept = msgspec.convert(record, ClassRecord)
    return ClassSummary(number, kept.code, kept.secret, kept.game, dict(kept.options), kept.lang,
                        len(kept.groups), created.isoformat(timespec="minutes"),
                        None if closed is None else closed.isoformat(timespec="minutes"))


def _not_a_teacher() -> ClassError:
    # Translators: a school's class server refuses a teacher's address whose
    # key it does not know (mistyped, or removed by the operator).
    return ClassError("this is not the address of a teacher on this server; ask the"
                      " server's operator for yours").coded("not_a_teacher")


def _no_class() -> ClassError:
    # Translators: a school's class server: a class that is not the teacher's own.
    return ClassError("you have no such class on this server").coded("no_class")

