"""The operator's work on a school's server: teachers' keys, and the list of classes.

A teacher is a label the operator chooses (initials, a room: no personal
data is needed) and a key, the address of the teacher's own page; the
server keeps the key's digest only, so the key is shown once, when it is
made. A teacher removed keeps their classes, which are closed and deleted
as any other.
"""

from __future__ import annotations

import typing as t

from aces.classroom.access import key_digest, new_token
from aces.errors import OptionError, visible

if t.TYPE_CHECKING:
    from aces.classroom.database import Database

__all__ = ["add_teacher", "delete_class", "overview", "remove_teacher", "ring_deleted",
           "teacher_named", "teachers"]

#: The longest label of a teacher.
LABEL: t.Final = 80


def _checked(label: str) -> str:
    label = " ".join(label.split())
    if not label or len(label) > LABEL or visible(label) != label:
        # Translators: "aces class teacher add" refuses a teacher's label.
        # {limit}: the most characters it may have.
        raise OptionError("a teacher's label is 1 to {limit} characters that show, on one line",
                          limit=LABEL)
    return label


async def add_teacher(database: Database, label: str) -> str:
    """A new teacher called ``label``; their key, shown this once.

    :raises ~aces.errors.OptionError: for a label another teacher has.
    """
    import psycopg

    label = _checked(label)
    key = new_token()
    async with database.connection() as connection:
        try:
            await connection.execute("INSERT INTO aces.teachers (key, label) VALUES (%s, %s)",
                                     (key_digest(key), label))
        except psycopg.errors.UniqueViolation:
            # Translators: "aces class teacher add" with the label of another
            # teacher. {label}: the label.
            raise OptionError("there is a teacher called {label!r} already; choose another"
                              " label, or remove that teacher first", label=label) from None
    return key


async def teacher_named(database: Database, label: str) -> int:
    """The number of the teacher called ``label``.

    :raises ~aces.errors.OptionError: for no such teacher.
    """
    async with database.connection() as connection:
        cursor = await connection.execute(
            "SELECT id FROM aces.teachers WHERE lower(label) = lower(%s)", (label.strip(),))
        row = await cursor.fetchone()
    if row is None:
        # Translators: the school's server has no teacher of this label.
        # {label}: the label given.
        raise OptionError("there is no teacher called {label!r}; aces class teacher list shows"
                          " them", label=label)
    return int(row[0])


async def remove_teacher(database: Database, label: str) -> None:
    number = await teacher_named(database, label)
    async with database.connection() as connection:
        await connection.execute("DELETE FROM aces.teachers WHERE id = %s", (number,))


async def teachers(database: Database) -> list[tuple[str, int, int]]:
    """Every teacher: label, open classes, all classes."""
    async with database.connection() as connection:
        cursor = await connection.execute(
            "SELECT t.label, count(c.id) FILTER (WHERE c.closed IS NULL), count(c.id)"
            " FROM aces.teachers t LEFT JOIN aces.classes c ON c.teacher = t.id"
            " GROUP BY t.id ORDER BY lower(t.label)")
        return [(str(label), int(open_), int(every))
                for label, open_, every in await cursor.fetchall()]


async def overview(database: Database) -> list[tuple[int, str, str | None, int, str | None]]:
    """Every class: number, code, teacher, groups, when it was closed."""
    async with database.connection() as connection:
        cursor = await connection.execute(
            "SELECT c.id, c.record->>'code', t.label,"
            " jsonb_array_length(c.record->'groups'), c.closed FROM aces.classes c"
            " LEFT JOIN aces.teachers t ON t.id = c.teacher WHERE c.record IS NOT NULL"
            " ORDER BY c.id")
        return [(int(number), str(code), label, int(groups),
                 None if closed is None else closed.isoformat(timespec="minutes"))
                for number, code, label, groups, closed in await cursor.fetchall()]


async def delete_class(database: Database, number: int) -> str:
    """Delete class ``number`` now, with every line of its logs; its code.

    :raises ~aces.classroom.postgres.UnknownClassError: for a class deleted
        meanwhile.
    """
    async with database.connection() as connection:
        cursor = await connection.execute(
            "DELETE FROM aces.classes WHERE id = %s RETURNING record->>'code'", (number,))
        row = await cursor.fetchone()
        if row is None:
            # Deleted a moment ago, by the retention or another operator.
            from aces.classroom.postgres import unknown_class

            raise unknown_class(number)
        await ring_deleted(connection, number)
    return str(row[0])


async def ring_deleted(connection: t.Any, number: int) -> None:
    """Tell every process that holds class ``number`` that it has gone: its
    followers read the class again, find nothing, and let it go."""
    await connection.execute("SELECT pg_notify('aces', %s)", (f"{number} r0",))
