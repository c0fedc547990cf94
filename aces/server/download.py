"""The class as a zip: every group's log as it is, and the CSV of ``aces stats``.

Each log is read under its group's lock, so the zip holds only whole
blocks. The logs, the table and the zip go through files in a temporary
folder, never whole into memory, and the zip is sent from its file in
chunks: the server's memory stays flat however long the class's logs (a
class of thirty groups and long games is megabytes), and the folder is
removed once the zip is sent, or sending it failed. The table of games is
written by :mod:`aces.reports.export`, as ``aces stats --csv`` writes it,
in the projector's language (Bokmål and Nynorsk with semicolons and
decimal commas, as Excel with Norwegian settings opens a file; English
with commas and points).
"""

from __future__ import annotations

import asyncio
import io
import tempfile
import typing as t
import zipfile
from pathlib import Path

from aces.experiment.pool import pool
from aces.i18n import translations
from aces.reports.export import COMMA, POINT, CsvTable

if t.TYPE_CHECKING:
    from collections.abc import AsyncIterator, Iterable, Iterator

    from starlette.responses import Response

    from aces.classroom.service import Classroom

__all__ = ["zipped"]

#: Bytes of the zip sent at once.
CHUNK: t.Final = 1 << 16


async def zipped(room: Classroom) -> Response:
    """The zip of ``room``'s logs and their table, sent in chunks from a
    temporary file that is gone once it is sent, or the download stopped."""
    from starlette.responses import StreamingResponse

    with tempfile.TemporaryDirectory(prefix="aces-class-") as name:
        folder = Path(name)
        logs: list[Path] = []
        for group in sorted(room.groups.values(), key=lambda group: group.record.log):
            path = folder / group.record.log
            async with group.lock, room.store.reading(group.record.id) as lines:
                await asyncio.to_thread(_copy, lines, path)
            logs.append(path)
        archive = await asyncio.to_thread(_zip, logs, folder / "stats.csv",
                                          room.class_record.lang)
    size = archive.seek(0, io.SEEK_END)
    archive.seek(0)
    # The name the browser saves it by.
    filename = f"class-{room.class_record.code}.zip"
    return StreamingResponse(_chunks(archive), media_type="application/zip", headers={
        "content-disposition": f'attachment; filename="{filename}"',
        "content-length": str(size)})


def _copy(lines: Iterable[bytes], path: Path) -> None:
    with path.open("wb") as out:
        for line in lines:
            out.write(line)


def _opened(logs: list[Path]) -> Iterator[tuple[t.BinaryIO, str]]:
    """Each log opened as the pool reads it, under its own name, and closed
    once the pool goes on to the next."""
    for path in logs:
        with path.open("rb") as handle:
            yield handle, path.name


def _zip(logs: list[Path], table: Path, lang: str) -> t.BinaryIO:
    """The zip of ``logs`` and their table of games, in a file of its own
    that is deleted once closed."""
    with table.open("w", encoding="utf-8-sig", newline="") as handle:
        sink = CsvTable(handle, translations(lang), False, POINT if lang == "en" else COMMA)
        try:
            pool(_opened(logs), sink=sink)
        finally:
            sink.close()
    # Handed on open to the response, which closes (and so deletes) it.
    archive = tempfile.TemporaryFile()  # noqa: SIM115
    try:
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as out:
            for path in [*logs, table]:
                out.write(path, path.name)
    except BaseException:
        archive.close()
        raise
    return archive


async def _chunks(archive: t.BinaryIO) -> AsyncIterator[bytes]:
    try:
        while chunk := await asyncio.to_thread(archive.read, CHUNK):
            yield chunk
    finally:
        archive.close()
