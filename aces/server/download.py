"""The class as a zip: every group's log as it is, and the CSV of ``aces stats``.

Each log is read under its group's lock, so the zip holds only whole
blocks; the table of games is written by :mod:`aces.reports.export`,
as ``aces stats --csv`` writes it, in the projector's language (Bokmål and
Nynorsk with semicolons and decimal commas, as Excel with Norwegian
settings opens a file; English with commas and points).
"""

from __future__ import annotations

import asyncio
import io
import typing as t
import zipfile

from aces.experiment.pool import pool
from aces.i18n import translations
from aces.reports.export import COMMA, POINT, CsvTable

if t.TYPE_CHECKING:
    from starlette.responses import Response

    from aces.classroom.service import Classroom

__all__ = ["zipped"]


async def zipped(room: Classroom) -> Response:
    from starlette.responses import Response

    logs: list[tuple[str, bytes]] = []
    for group in sorted(room.groups.values(), key=lambda group: group.record.log):
        async with group.lock, room.store.reading(group.record.id) as lines:
            logs.append((group.record.log, b"".join(lines)))
    data = await asyncio.to_thread(_zip, logs, room.class_record.lang)
    # Translators: the name of the zip of a class's logs, without ".zip".
    name = f"class-{room.class_record.code}.zip"
    return Response(data, media_type="application/zip",
                    headers={"content-disposition": f'attachment; filename="{name}"'})


def _zip(logs: list[tuple[str, bytes]], lang: str) -> bytes:
    table = io.StringIO()
    sink = CsvTable(table, translations(lang), False, POINT if lang == "en" else COMMA)
    try:
        pool([(io.BytesIO(data), name) for name, data in logs], sink=sink)
    finally:
        sink.close()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in logs:
            archive.writestr(name, data)
        archive.writestr("stats.csv", table.getvalue().encode("utf-8-sig"))
    return out.getvalue()
