"""A class out of the school's PostgreSQL into a folder, and a laptop's folder into it.

``aces class export`` writes a class as the folder ``aces class serve DIR``
keeps: each group's log (``group-001.jsonl``...) byte for byte as the
database holds its lines, so with the very digests ``aces record`` chains,
and ``aces verify``, ``aces replay`` and ``aces stats`` read them as any
log; the class's record (``class.json``); and its feed (``.feed``), the
order of its blocks with their submissions, so that ``aces class serve
DIR`` goes on with it where it stopped.

``aces class import DIR`` does the reverse for a class a teacher ran on a
laptop: every log is walked through the rules first (nothing is imported
from a folder with a log that does not verify), and the class comes in
whole, in one transaction, as a class of the teacher named: with its code
if no open class has it, its secret, its groups' tokens, and its feed.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
import typing as t
from pathlib import Path

import msgspec

from aces.classroom.access import new_code, normal_code
from aces.classroom.feed import VOID, Feed, Line
from aces.classroom.files import RECORD, log_name
from aces.classroom.group import GroupTable
from aces.classroom.store import ClassRecord
from aces.errors import AcesError, ClassError, OptionError
from aces.files import os_reason

if t.TYPE_CHECKING:
    from aces.classroom.database import Database

__all__ = ["Exported", "export_class", "find_class", "import_class"]

_ENCODER: t.Final = msgspec.json.Encoder()


class Exported(t.NamedTuple):
    """What an export wrote: the class's code, and each group's log with its lines."""

    code: str
    logs: list[tuple[str, int]]


async def find_class(database: Database, name: str) -> int:
    """The number of the class ``name`` names: its number, or the code of an open class.

    :raises ~aces.errors.OptionError: for a class the server does not hold.
    """
    async with database.connection() as connection:
        if name.isdigit():
            cursor = await connection.execute(
                "SELECT id FROM aces.classes WHERE id = %s AND record IS NOT NULL",
                (int(name),))
        else:
            cursor = await connection.execute(
                "SELECT id FROM aces.classes WHERE record->>'code' = %s AND closed IS NULL",
                (normal_code(name),))
        row = await cursor.fetchone()
    if row is None:
        # Translators: "aces class export": no class of that number or code.
        # {name}: what was given.
        raise OptionError("the school's server has no class {name!r}: give its number (aces"
                          " class list) or the code of an open class", name=name)
    return int(row[0])


async def export_class(database: Database, number: int, folder: Path) -> Exported:
    """Write class ``number`` into ``folder``, a new or empty folder (see the module).

    :raises ~aces.errors.OptionError: for a folder that holds anything.
    """
    _empty(folder)
    async with database.connection() as connection, connection.transaction():
        # One snapshot: the logs, the record and the feed as of one moment.
        await connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        cursor = await connection.execute(
            "SELECT record FROM aces.classes WHERE id = %s", (number,))
        row = await cursor.fetchone()
        if row is None or row[0] is None:
            raise OptionError("the school's server has no class {name!r}: give its number (aces"
                              " class list) or the code of an open class", name=str(number))
        record = msgspec.convert(row[0], ClassRecord)
        streams = await (await connection.execute(
            "SELECT stream, log FROM aces.streams WHERE class = %s ORDER BY stream",
            (number,))).fetchall()
        logs: list[tuple[str, int]] = []
        offsets: dict[tuple[int, int], int] = {}
        try:
            folder.mkdir(parents=True, exist_ok=True)
            for stream, log in streams:
                size = 0
                lines = 0
                with (folder / log).open("xb") as out:
                    async with connection.cursor(name=f"lines_{stream}") as rows:
                        await rows.execute(
                            "SELECT seq, line FROM aces.lines WHERE class = %s AND stream = %s"
                            " ORDER BY seq", (number, stream))
                        async for seq, line in rows:
                            offsets[(stream, seq)] = size
                            data = bytes(line)
                            out.write(data)
                            size += len(data)
                            lines += 1
                logs.append((log, lines))
            blocks = await (await connection.execute(
                "SELECT b.position, b.stream, b.first, b.last, s.id, s.payload"
                " FROM aces.blocks b LEFT JOIN aces.submissions s"
                " ON s.class = b.class AND s.position = b.position"
                " WHERE b.class = %s ORDER BY b.position", (number,))).fetchall()
            feed = Feed(str(folder / ".feed"))
            feed.open()
            feed.write([Line(position, stream, first, last, offsets[(stream, first)], sid,
                             payload)
                        for position, stream, first, last, sid, payload in blocks])
            feed.close()
            record_text = msgspec.json.format(_ENCODER.encode(record), indent=2).decode()
            path = folder / RECORD
            path.write_text(record_text + "\n", encoding="utf-8")
            path.chmod(0o600)
        except OSError as exc:
            raise OptionError("cannot write {path}: {reason}", path=str(folder),
                              reason=os_reason(exc)) from None
    return Exported(record.code, logs)


def _empty(folder: Path) -> None:
    try:
        held = folder.exists() and any(folder.iterdir())
    except OSError as exc:
        raise OptionError("cannot write {path}: {reason}", path=str(folder),
                          reason=os_reason(exc)) from None
    if held:
        # Translators: "aces class export" into a folder that holds files.
        # {path}: the folder.
        raise OptionError("{path} is not empty: a class is exported into a new folder, so that"
                          " nothing is written over", path=str(folder))


async def import_class(database: Database, folder: Path, teacher: int | None) -> tuple[int, str]:
    """Bring the class ``aces class serve`` kept in ``folder`` into the school's
    server, for ``teacher``; its number and its code there.

    :raises ~aces.errors.AcesError: for a folder that holds no class, or a
        log that does not verify (named at its line); nothing is imported.
    """
    record, logs = await asyncio.to_thread(_read_folder, folder)
    blocks = _blocks(folder, logs)
    async with database.connection() as connection, connection.transaction():
        cursor = await connection.execute(
            "SELECT 1 FROM aces.classes WHERE record->>'secret' = %s", (record.secret,))
        if await cursor.fetchone() is not None:
            # Translators: "aces class import" of a class that is on the
            # school's server already. {path}: its folder.
            raise ClassError("the class in {path} is on this server already",
                             path=str(folder)).coded("imported")
        cursor = await connection.execute(
            "SELECT 1 FROM aces.classes WHERE record->>'code' = %s AND closed IS NULL",
            (record.code,))
        if await cursor.fetchone() is not None:
            record.code = new_code()
        cursor = await connection.execute(
            "INSERT INTO aces.classes (teacher, record) VALUES (%s, %s::jsonb) RETURNING id",
            (teacher, _ENCODER.encode(record).decode()))
        row = await cursor.fetchone()
        assert row is not None
        number = int(row[0])
        for group in record.groups:
            lines = logs[group.id]
            last = lines[-1] if lines else b""
            await connection.execute(
                "INSERT INTO aces.streams (class, stream, log, seq, digest)"
                " VALUES (%s, %s, %s, %s, %s)", (number, group.id, group.log, len(lines),
                                                 _digest_of(last)))
            async with connection.cursor() as cursor_lines, cursor_lines.copy(
                    "COPY aces.lines (class, stream, seq, line) FROM STDIN") as copy:
                for seq, line in enumerate(lines, 1):
                    await copy.write_row((number, group.id, seq, line))
        for position, (stream, first, last_seq, sid, payload) in enumerate(blocks, 1):
            await connection.execute(
                "INSERT INTO aces.blocks (class, position, stream, first, last)"
                " VALUES (%s, %s, %s, %s, %s)", (number, position, stream, first, last_seq))
            if sid is not None:
                await connection.execute(
                    "INSERT INTO aces.submissions (class, stream, id, payload, position)"
                    " VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                    (number, stream, sid, payload, position))
        await connection.execute("INSERT INTO aces.feeds (class, position) VALUES (%s, %s)",
                                 (number, len(blocks)))
    return number, record.code


def _digest_of(line: bytes) -> str:
    """The digest a line carries in its envelope (empty for no line)."""
    if not line:
        return ""
    found = json.loads(line)
    return str(found["digest"])


def _read_folder(folder: Path) -> tuple[ClassRecord, dict[int, list[bytes]]]:
    """The class's record and every group's lines, each log walked through the rules."""
    path = folder / RECORD
    try:
        data = path.read_bytes()
    except OSError as exc:
        # Translators: "aces class import DIR" of a folder without a class's
        # record. {path}: the record's file; {reason}: why.
        raise OptionError("{path} cannot be read, so the folder holds no class of aces class"
                          " serve: {reason}", path=str(path), reason=os_reason(exc)) from None
    try:
        record = msgspec.json.decode(data, type=ClassRecord)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise AcesError("{path} is not a class's record that aces can read: {detail}",
                        path=str(path), detail=str(exc)) from None
    logs: dict[int, list[bytes]] = {}
    for group in record.groups:
        log = folder / group.log
        if group.log != log_name(group.id):
            # Translators: "aces class import DIR": the class's record names a
            # log that a class does not keep. {path}: the record; {log}: the
            # name it gives; {group}: the group's number; {expected}: the name.
            raise AcesError("{path} gives group {group} the log {log}, but a class keeps it in"
                            " {expected}", path=str(path), group=group.id, log=group.log,
                            expected=log_name(group.id))
        try:
            raw = log.read_bytes()
        except OSError as exc:
            raise OptionError("cannot read {path}: {reason}", path=str(log),
                              reason=os_reason(exc)) from None
        lines = raw.splitlines(keepends=True)
        # The walk of aces verify, as the class resumes a log: a torn line,
        # a broken chain or a roll against the rules stops the import here.
        GroupTable(str(log)).resume(lines)
        logs[group.id] = lines
    return record, logs


def _blocks(folder: Path, logs: dict[int, list[bytes]]
            ) -> list[tuple[int, int, int, str | None, str | None]]:
    """The class's blocks in order: its feed's, if it covers the logs exactly;
    else each log as one block."""
    feed_path = folder / ".feed"
    found: list[tuple[int, int, int, str | None, str | None]] = []
    if feed_path.exists():
        # Read from a copy: opening a feed cuts a torn last line off, and the
        # folder imported is the teacher's, left as it is.
        with tempfile.TemporaryDirectory() as scratch:
            copy = Path(scratch) / ".feed"
            feed = Feed(str(copy))
            try:
                shutil.copyfile(feed_path, copy)
                lines = feed.open()
            except (OSError, AcesError):
                lines = []
            finally:
                feed.close()
        ends: dict[int, int] = {}
        sound = True
        for line in lines:
            if line.stream == VOID:
                continue  # A position that holds no block (see aces.classroom.feed).
            if line.stream not in logs or line.first != ends.get(line.stream, 0) + 1:
                sound = False
                break
            ends[line.stream] = line.last
            found.append((line.stream, line.first, line.last, line.submission, line.payload))
        if sound:
            for stream, lines_of in logs.items():
                if ends.get(stream, 0) < len(lines_of):
                    found.append((stream, ends.get(stream, 0) + 1, len(lines_of), None, None))
                elif ends.get(stream, 0) > len(lines_of):
                    sound = False
        if sound:
            return found
    return [(stream, 1, len(lines), None, None) for stream, lines in sorted(logs.items())
            if lines]

