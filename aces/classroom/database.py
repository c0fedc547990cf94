"""The school's PostgreSQL: its connections, its schema's migrations, and the doorbell.

A :class:`Database` is one server process's hold on the event store of
every class on a school's server (``aces class serve --store
postgresql://…``): a pool of connections (psycopg 3 and psycopg_pool),
the schema brought up to date when it opens, and one connection that
``LISTEN``\\ s, so that a block appended or a record changed by any
process wakes whoever follows that class here. A notification is only a
doorbell: what changed is always read from the tables, by position, and
a store that hears nothing for a while looks for itself
(:data:`POLL`), so a notification lost while the listening connection
was down delays a projector and drops nothing.

The schema lives in its own PostgreSQL schema, ``aces``, so it can share a
database. Its versions are the scripts in ``aces/classroom/migrations``,
applied in order at start, each in the transaction that records it,
under a lock that lets one process at a time migrate; a database that a
newer ``aces`` migrated is refused, in one line, rather than misread.

Every failure to reach the database is a :class:`StoreUnavailableError`
(``503``, the class answers "try again in a moment" and nothing recorded
is lost); the pool connects again by itself once the database is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
import typing as t
from importlib import resources

import psycopg
from psycopg_pool import AsyncConnectionPool

from aces.errors import N_, AcesError, ClassError, OptionError

if t.TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable

__all__ = ["POLL", "Database", "StoreSettings", "StoreUnavailableError", "StoreUnsureError",
           "UnreachableError", "migrate", "migrations", "place", "unavailable", "unsure"]

#: Seconds a follower waits for a doorbell before it looks for itself; far
#: less while the listening connection is down.
POLL: t.Final = 10.0
#: Seconds after any sign of trouble (a connection lost, the listener
#: dropped) during which a connection taken from the pool is tried first:
#: the pool may still hold connections the database has closed. The rest of
#: the time that would be a round trip more for every roll, for nothing.
SUSPECT: t.Final = 30.0
_POLL_DEAF: t.Final = 1.0
#: The channel every process listens on.
CHANNEL: t.Final = "aces"
#: Serialises migrations across processes (an advisory lock's key).
_MIGRATING: t.Final = 0x61636573
_MIGRATION: t.Final = re.compile(r"(\d{4})_[a-z0-9_]+\.sql")


class StoreSettings(t.NamedTuple):
    """How a process holds the database (each is documented for the operator
    in docs/class/school.rst, with its environment variable)."""

    #: The most connections this process opens (``ACES_STORE_POOL``).
    pool: int = 10
    #: Seconds a request waits for a connection, or for the database to
    #: answer a connection, before it is answered 503 (``ACES_STORE_TIMEOUT``).
    timeout: float = 5.0


class StoreUnavailableError(ClassError):
    """The class's database cannot be reached now: nothing was recorded."""

    code = "unavailable"


class StoreUnsureError(StoreUnavailableError):
    """The database went away after an append reached it and before it
    answered, and was not back in time to say whether it committed: the
    append may be recorded. Sent again with its submission's id, it is
    recorded once (a ``503`` too: the page sends it again by itself)."""


class UnreachableError(OptionError):
    """A database that does not answer at all (not one that refuses): it may
    be starting, or the network may be down."""


def unavailable() -> StoreUnavailableError:
    # Translators: the live class on a school's server answers this while its
    # database cannot be reached (it is restarting, or the network is down).
    return StoreUnavailableError(N_("the class's database cannot be reached just now, so"
                                    " nothing was recorded; try again in a moment"))


def unsure() -> StoreUnsureError:
    # Translators: the live class on a school's server answers this when its
    # database went away in the middle of recording a roll, and was not back
    # in time to say whether the roll was recorded.
    return StoreUnsureError(N_("the class's database went away before it said whether this was"
                               " recorded; try again in a moment, and a roll sent again is"
                               " recorded only once"))


def place(url: str) -> str:
    """Where a database is, for messages: its host (or socket folder), port,
    database and user, never its password.

    >>> place("postgresql://aces:secret@db.school.no:5433/classes")
    'aces@db.school.no:5433/classes'
    >>> place("postgresql:///classes?host=/run/postgresql")
    '/run/postgresql/classes'
    """
    try:
        parts = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "?"
    host = str(parts.get("host") or "localhost")
    port = parts.get("port")
    where = f"{host}:{port}" if port else host
    user = parts.get("user")
    return f"{user}@" * bool(user) + f"{where}/{parts.get('dbname') or ''}"


def _refused(url: str, error: psycopg.Error) -> AcesError:
    """The one-line message for a database that will not take us.

    A refusal at connection comes with no SQLSTATE, only the server's words:
    those of a server that answered begin ``FATAL:``.
    """
    state = getattr(error, "sqlstate", None)
    text = str(error)
    where = place(url)
    if state in ("28P01", "28000") or "password authentication failed" in text or (
            "role" in text and "does not exist" in text) or "no pg_hba.conf entry" in text:
        # Translators: "aces class serve --store": the database refused the
        # user or password in the store's address. {store}: where it is
        # (host, port, database, user; never the password).
        return OptionError("the class store {store} refused the user name or password given;"
                           " check them in --store (or ACES_STORE)", store=where)
    if state == "3D000" or ("database" in text and "does not exist" in text):
        # Translators: "aces class serve --store": no such database on the
        # server. {store}: where it is.
        return OptionError("the class store {store} has no such database; create it first"
                           " (createdb), then serve again", store=where)
    if state == "42501":
        # Translators: "aces class serve --store": the database user may not
        # create the tables. {store}: where it is.
        return OptionError("the class store {store} does not let this user create aces's"
                           " tables; give the user the database (ALTER DATABASE … OWNER TO)",
                           store=where)
    if "FATAL:" in text:
        # Translators: "aces class serve --store": the database server answered
        # but would not take the connection. {store}: where it is; {reason}:
        # the database's own words.
        return OptionError("the class store {store} refused the connection: {reason}",
                           store=where, reason=_reason(text))
    # Translators: "aces class serve --store": the database server cannot be
    # reached. {store}: where it is; {reason}: the database's own words.
    return UnreachableError(N_("cannot reach the class store {store}: {reason}"), store=where,
                            reason=_reason(text))


def _reason(text: str) -> str:
    """The database's own words, on one line, without libpq's preamble."""
    line = " ".join(text.split())
    for cut in ("FATAL: ", "failed: "):
        if cut in line:
            line = line.split(cut, 1)[1]
    return line[:300]


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


def migrations() -> list[tuple[int, str]]:
    """The schema's versions, in order: (number, the script)."""
    found = []
    folder = resources.files("aces.classroom").joinpath("migrations")
    for entry in folder.iterdir():
        matched = _MIGRATION.fullmatch(entry.name)
        if matched is not None:
            found.append((int(matched.group(1)), entry.read_text(encoding="utf-8")))
    found.sort()
    assert [number for number, _ in found] == list(range(1, len(found) + 1)), \
        "the migrations are numbered 1, 2, 3..."
    return found


class Database:
    """One process's connections to the school's class store (see the module)."""

    def __init__(self, url: str, settings: StoreSettings | None = None,
                 notice: Callable[[bool], None] | None = None) -> None:
        self.url = url
        #: Told when the database goes away (``False``) and when it is back
        #: (``True``), as the listening connection finds it.
        self.notice = notice
        self.settings = StoreSettings() if settings is None else settings
        self.pool: AsyncConnectionPool[psycopg.AsyncConnection[t.Any]] = AsyncConnectionPool(
            url, min_size=self.settings.pool, max_size=self.settings.pool, open=False,
            timeout=self.settings.timeout, kwargs={"autocommit": True,
                                                   "connect_timeout": self._connect_timeout()},
            check=self._check, name="aces")
        #: Until when (time.monotonic()) connections are tried before use.
        self._suspect_until = 0.0
        #: Whoever follows a class here, by the class's id: called with a
        #: position (a block appended), ``None`` (the record changed), or
        #: nothing at all known (every class: the doorbell was deaf a while).
        self._bells: dict[int, set[Callable[[int | None], None]]] = {}
        self.listening = False
        self._listener: asyncio.Task[None] | None = None
        self._closed = False
        #: The sweep of the pool under way, which others wait for.
        self._sweeping: asyncio.Task[None] | None = None

    def trouble(self) -> None:
        """A sign of trouble: connections are tried before use a while."""
        self._suspect_until = time.monotonic() + SUSPECT

    async def sweep(self, timeout: float | None = None) -> None:
        """Try every connection the pool holds idle now, and replace the dead
        ones, at once: after the database restarted they all are, and the
        pool, finding them one by one as they are taken, waits longer
        after each (1, 2, 4, 8 s...). One sweep at a time; whoever asks
        meanwhile waits for it, ``timeout`` seconds at the most (by default
        as long as a request waits for a connection: a check may hang on a
        network gone)."""
        if self._sweeping is None or self._sweeping.done():
            self._sweeping = asyncio.get_running_loop().create_task(self._sweep())
        wait = self.settings.timeout if timeout is None else min(timeout, self.settings.timeout)
        if wait <= 0:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._sweeping), wait)

    async def _sweep(self) -> None:
        with contextlib.suppress(psycopg.Error, OSError):
            await self.pool.check()

    async def _check(self, connection: psycopg.AsyncConnection[t.Any]) -> None:
        """Try a connection before it is used, while trouble is recent; a dead
        one raises, and the pool replaces it (see :data:`SUSPECT`)."""
        if time.monotonic() < self._suspect_until:
            await AsyncConnectionPool.check_connection(connection)

    def _connect_timeout(self) -> int:
        return max(1, round(self.settings.timeout))

    # -- Opening -------------------------------------------------------------------

    async def open(self) -> None:
        """Connect, bring the schema up to date, and start listening.

        :raises ~aces.errors.OptionError: for a database that refuses us
            (user, password, no such database) or that a newer aces migrated;
            :raises StoreUnavailableError: for one that cannot be reached.
        """
        await self.check()
        await self.pool.open(wait=False)
        self._listener = asyncio.get_running_loop().create_task(self._listen())

    async def check(self) -> None:
        """Connect once, alone, and migrate: the errors an operator must read
        at start come from here, before the pool retries in the background.

        :raises ~aces.errors.AcesError: for a database that refuses us, is
            not there, or is newer than this aces (one line each).
        """
        try:
            connection = await psycopg.AsyncConnection.connect(
                self.url, autocommit=True, connect_timeout=self._connect_timeout())
        except psycopg.OperationalError as exc:
            raise _refused(self.url, exc) from None
        except psycopg.ProgrammingError as exc:
            # Translators: "aces class serve --store" given an address that is
            # not one of a PostgreSQL database. {reason}: why, in the
            # database library's words.
            raise OptionError("--store is not the address of a PostgreSQL database: {reason}",
                              reason=_first_line(exc)) from None
        async with connection:
            try:
                await migrate(connection, self.url)
            except psycopg.errors.InsufficientPrivilege as exc:
                raise _refused(self.url, exc) from None
            except psycopg.OperationalError as exc:
                raise _refused(self.url, exc) from None

    async def close(self) -> None:
        self._closed = True
        for task in (self._listener, self._sweeping):
            if task is not None:
                await _ended(task)
        await self.pool.close()

    # -- Connections -----------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def connection(self) -> AsyncIterator[psycopg.AsyncConnection[t.Any]]:
        """A connection from the pool; every failure to reach the database
        comes out as :class:`StoreUnavailableError`."""
        try:
            async with self.pool.connection() as connection:
                yield connection
        except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
            # PoolTimeout and AdminShutdown (pg_terminate_backend) are
            # OperationalErrors too.
            self.trouble()
            raise unavailable() from exc

    # -- The doorbell ---------------------------------------------------------------------

    def follow(self, cls: int, bell: Callable[[int | None], None]) -> None:
        """Ring ``bell`` when class ``cls`` changes (see :attr:`_bells`)."""
        self._bells.setdefault(cls, set()).add(bell)

    def unfollow(self, cls: int, bell: Callable[[int | None], None]) -> None:
        bells = self._bells.get(cls)
        if bells is not None:
            bells.discard(bell)
            if not bells:
                del self._bells[cls]

    @property
    def poll(self) -> float:
        """How long a follower waits before it looks for itself."""
        return POLL if self.listening else _POLL_DEAF

    async def _listen(self) -> None:
        delay = 0.2
        lost = False
        while not self._closed:
            try:
                connection = await psycopg.AsyncConnection.connect(
                    self.url, autocommit=True, connect_timeout=self._connect_timeout())
                async with connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    self.listening = True
                    delay = 0.2
                    if lost:
                        # Back: the pool's connections from before are dead.
                        await self.sweep()
                        if self._closed:
                            # Closed during the sweep (see _ended): listen no more.
                            return
                        if self.notice is not None:
                            self.notice(True)
                    lost = False
                    # Whatever rang while no one listened: every follower looks.
                    self._ring_all()
                    async for note in connection.notifies():
                        self._ring(note.payload)
            except (psycopg.Error, OSError):
                pass
            if not lost and not self._closed and self.notice is not None:
                self.notice(False)
            lost = True
            self.trouble()
            self.listening = False
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)

    def _ring(self, payload: str) -> None:
        fields = payload.split()
        if not fields or not fields[0].isdigit():
            return
        position = int(fields[1]) if len(fields) == 2 and fields[1].isdigit() else None
        for bell in list(self._bells.get(int(fields[0]), ())):
            bell(position)

    def _ring_all(self) -> None:
        for bells in list(self._bells.values()):
            for bell in list(bells):
                bell(None)


async def _ended(task: asyncio.Task[None]) -> None:
    """Cancel ``task`` and wait for its end. Told once, a task may go on:
    before Python 3.12, ``asyncio.wait_for`` drops a cancellation that comes
    as what it waits for ends (python/cpython#86296), and the listener, back from a sweep, would
    then wait for notifications for ever. So it is told again until it ends."""
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=0.5)
    with contextlib.suppress(asyncio.CancelledError):
        await task


async def migrate(connection: psycopg.AsyncConnection[t.Any], url: str) -> int:
    """Bring the ``aces`` schema up to the newest version this aces knows,
    one process at a time; the version now.

    :raises ~aces.errors.OptionError: for a schema of a newer aces, or one
        whose record of versions does not fit its tables.
    """
    known = migrations()
    async with connection.transaction():
        await connection.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATING,))
        await connection.execute("CREATE SCHEMA IF NOT EXISTS aces")
        await connection.execute(
            "CREATE TABLE IF NOT EXISTS aces.versions (version integer PRIMARY KEY,"
            " applied timestamptz NOT NULL DEFAULT now())")
        cursor = await connection.execute("SELECT coalesce(max(version), 0) FROM aces.versions")
        row = await cursor.fetchone()
        found = int(row[0]) if row is not None else 0
        if found > len(known):
            # Translators: "aces class serve --store": the database was set up
            # by a newer aces. {store}: where it is; {found}, {known}: the
            # versions of the schema.
            raise OptionError("the class store {store} is at version {found} of aces's tables,"
                              " newer than this aces knows ({known}); upgrade aces to serve it",
                              store=place(url), found=found, known=len(known))
        for number, script in known[found:]:
            try:
                async with connection.transaction():
                    await connection.execute(script.encode("utf-8"))
            except psycopg.errors.DuplicateTable as exc:
                # Translators: "aces class serve --store": aces's tables are there
                # but their record of versions is not (someone changed it).
                # {store}: where it is; {version}: the version that could not
                # be applied; {reason}: the database's words.
                raise OptionError("the class store {store} holds aces's tables, but not the record"
                                  " of their versions (at version {version}: {reason}); restore"
                                  " it from a backup", store=place(url), version=number,
                                  reason=_first_line(exc)) from None
            await connection.execute("INSERT INTO aces.versions (version) VALUES (%s)",
                                     (number,))
    return len(known)
