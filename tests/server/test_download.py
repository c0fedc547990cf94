"""The class's zip goes through files, so the server's memory stays flat
however long the logs (aces.server.download)."""

from __future__ import annotations

import contextlib
import io
import tempfile
import tracemalloc
import typing as t
import zipfile

from aces.classroom.files import FileStore
from aces.classroom.service import Classroom
from aces.server.download import zipped

import loops
from clitest import run

if t.TYPE_CHECKING:
    from collections.abc import AsyncIterator, Iterable
    from pathlib import Path

    import pytest


async def downloaded(room: Classroom, log: Path) -> tuple[bytes, int]:
    """The zip of ``room`` with ``log`` as its one group's log, and the most
    memory the server's side of it held at once."""
    @contextlib.asynccontextmanager
    async def reading(stream: int) -> AsyncIterator[Iterable[bytes]]:
        # The group's log, as the store would give it.
        with log.open("rb") as lines:
            yield lines

    room.store.reading = reading  # type: ignore[method-assign]
    tracemalloc.start()
    try:
        answer = await zipped(room)
        peak = tracemalloc.get_traced_memory()[1]
        body = io.BytesIO()
        async for chunk in answer.body_iterator:  # type: ignore[attr-defined]
            peak = max(peak, tracemalloc.get_traced_memory()[1])
            body.write(chunk)
            # The body kept here is the test's, not the server's.
            tracemalloc.reset_peak()
    finally:
        tracemalloc.stop()
    assert answer.headers["content-length"] == str(body.tell())
    return body.getvalue(), peak


def test_the_zip_costs_the_same_memory_for_a_log_three_times_as_long(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The zip was made in memory, each log read whole beside it: a class of
    long logs cost the server their size twice over for every download.
    Its files are gone once it is sent."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    long = tmp_path / "long.jsonl"
    played = run("play", "--players", "Ada,Bo,Cy", "--games", "600", "--seed", "3", "-o",
                 str(long))
    assert played.exit_code == 0, played.output
    lines = long.read_bytes().splitlines(keepends=True)
    short = tmp_path / "short.jsonl"
    short.write_bytes(b"".join(lines[: len(lines) // 3]))

    async def test() -> list[tuple[bytes, int]]:
        room = Classroom(FileStore(str(tmp_path / "class")))
        await room.open(None, None, "nb")
        await room.join(room.class_record.code, "Lang", ["Ada", "Bo", "Cy"], "nb", "device")
        try:
            # Once first, so that what a first download loads for good (the
            # catalog, the codec's types) is not counted against either.
            await downloaded(room, short)
            return [await downloaded(room, log) for log in (short, long)]
        finally:
            await room.close()

    (_, short_peak), (data, long_peak) = loops.run(test())
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert archive.read("group-001.jsonl") == long.read_bytes()
        table = archive.read("stats.csv").decode("utf-8-sig").splitlines()
    assert table[0].startswith("logg;parti;")
    assert len(table) == 1 + 600
    grown = long.stat().st_size - short.stat().st_size
    assert long_peak - short_peak < grown // 10, (short_peak, long_peak, grown)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["class", "long.jsonl",
                                                                "short.jsonl"]
