"""aces.files: what a file the package makes may replace, and that it is whole or absent."""

from __future__ import annotations

import errno
import io
import os
import re
import typing as t
from pathlib import Path

import pytest

from aces.errors import OptionError
from aces.files import Output, create, is_log, os_reason, target_name

REPLAYS = Path(__file__).resolve().parent.parent / "replays"


def leftovers(folder: Path) -> list[str]:
    """Hidden files a write left behind (its temporary files)."""
    return sorted(path.name for path in folder.iterdir() if path.name.startswith("."))


def test_a_new_file_is_written_whole(tmp_path: Path) -> None:
    target = tmp_path / "table.csv"
    with Output(target).open(text=True) as out:
        out.write("seat;share\r\n")
        assert not target.exists(), "the file has its name only once it is whole"
    assert target.read_bytes() == "\ufeffseat;share\r\n".encode()
    assert leftovers(tmp_path) == []


def test_an_error_part_way_leaves_no_file_and_no_temporary_one(tmp_path: Path) -> None:
    target = tmp_path / "table.csv"
    def interrupted() -> None:
        with Output(target).open(text=True) as out:
            out.write("log,game\r\n" * 1000)
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        interrupted()
    assert list(tmp_path.iterdir()) == []
    Output(target).write("again")  # and the same name is free for the next try
    assert target.read_text() == "again"


def test_an_existing_file_is_kept_unless_forced(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    with pytest.raises(OptionError, match=re.escape(
            "notes.txt already exists; choose a new name, or add force=True to replace it")):
        Output(notes)
    assert notes.read_text() == "mine"
    Output(notes, force=True).write("replaced")
    assert notes.read_text() == "replaced"


def test_a_file_that_appears_meanwhile_is_not_replaced(tmp_path: Path) -> None:
    target = tmp_path / "plot.svg"
    output = Output(target)
    target.write_text("someone else's")
    with pytest.raises(OptionError, match="already exists"):
        output.write("<svg/>")
    assert target.read_text() == "someone else's"
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("force", [False, True])
def test_a_log_is_never_replaced(tmp_path: Path, force: bool) -> None:
    log = tmp_path / "evening.jsonl"
    log.write_bytes((REPLAYS / "three-players.jsonl").read_bytes())
    with pytest.raises(OptionError, match=re.escape(
            "evening.jsonl is a game log, and a log is never overwritten")):
        Output(log, force=force, mark=b"anything")


def test_a_log_is_known_by_its_first_line_even_cut_short(tmp_path: Path) -> None:
    log = tmp_path / "torn"
    log.write_bytes(b"\xef\xbb\xbf" + (REPLAYS / "three-players.jsonl").read_bytes()[:100])
    assert is_log(log)
    other = tmp_path / "other.jsonl"
    other.write_text('{"type": "something else"}\n')
    assert not is_log(other)
    assert not is_log(tmp_path / "missing")


def test_what_the_command_reads_is_never_written(tmp_path: Path) -> None:
    data = tmp_path / "data.txt"
    data.write_text("read by the command")
    with pytest.raises(OptionError, match=r"data\.txt is read by this command"):
        Output(data, force=True, reads=[str(data)])
    with data.open("rb") as stream, pytest.raises(OptionError, match="is read by"):
        # Standard input redirected from the file is the same file.
        Output(data, force=True, reads=[(stream, "<stdin>")])
    with pytest.raises(OptionError, match="is read by"):
        create(data, reads=[data])
    # A stream with no file behind it is no file to protect.
    Output(data, force=True, reads=[(io.BytesIO(), "<stdin>")]).write("fine")


def test_a_page_of_the_same_command_is_replaced_without_asking(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text('<!DOCTYPE html>\n<meta name="generator" content="aces replay">')
    Output(page, mark=b'content="aces replay"').write("new page")
    assert page.read_text() == "new page"
    with pytest.raises(OptionError, match="already exists"):
        Output(page, mark=b'content="aces replay"')


def test_a_long_name_fits_with_its_temporary_file(tmp_path: Path) -> None:
    """The longest name the file system takes is written: the temporary name
    beside it is short, whatever the name."""
    limit = os.pathconf(tmp_path, "PC_NAME_MAX")
    target = tmp_path / ("x" * (limit - len(".html")) + ".html")
    Output(target).write("page")
    assert target.read_text() == "page"


@pytest.mark.parametrize("name", ["", ".", "/", "./"])
def test_an_empty_name_or_a_folder_is_refused_in_words(name: str) -> None:
    with pytest.raises(OptionError) as raised:
        target_name(name)
    assert str(raised.value) in ("a file name cannot be empty",
                                 f"cannot write {name}: it is a folder, not a file")


def test_a_failed_write_names_the_file_not_its_temporary(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "rows.csv"

    def full(*_args: t.Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OptionError) as raised:
        Output(target).write("rows")
    assert str(raised.value) == f"cannot write {target}: no space left on the disk"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("number", [errno.EFBIG, errno.EDQUOT, errno.ENAMETOOLONG,
                                    errno.EBADF, errno.ENOSPC])
@pytest.mark.parametrize("lang", ["nb", "nn"])
def test_the_reasons_a_school_network_gives_are_said_in_every_language(
        number: int, lang: str) -> None:
    """A disk quota used up, a file too big for a memory stick: the system's
    English never reaches a Norwegian message."""
    reason = os_reason(OSError(number, os.strerror(number)))
    assert not isinstance(reason, str), f"{os.strerror(number)} has no message of ours"
    assert reason.spoken(lang) != reason.spoken("en")
