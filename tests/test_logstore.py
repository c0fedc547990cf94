"""The log store keeps its promises: one writer, durable all-or-nothing appends,
a chain that carries on across openings, and never a line written blind.

The command line's own tests (tests/cli/test_record_*.py) show the same
promises through ``aces record``; these hold the store to them directly, as
the public API and the class server use it.
"""

from __future__ import annotations

import contextlib
import errno
import importlib.util
import io
import itertools
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import typing as t
from pathlib import Path

import pytest

import aces.logstore
from aces import engine
from aces.dice import RandomDice
from aces.errors import AcesError, LogError, OptionError, SaveError, TruncatedLogError
from aces.games import game_named
from aces.log import LogWriter, read
from aces.logstore import LogBusyError, LogStore, LogSwappedError, LogWriteError
from aces.walk import walk

import fakemsvcrt

if t.TYPE_CHECKING:
    from collections.abc import Iterator, Sequence
    from types import ModuleType

    from aces.events import Event


def game(seed: int = 7) -> list[Event]:
    """A whole game of Aces in the Pot for three, from a seed."""
    pot = game_named("pot")
    return list(engine.play(pot, engine.header(pot, ["Ada", "Bo", "Cy"], {}, seed),
                            RandomDice(seed)))


def encoded(events: Sequence[Event]) -> bytes:
    """The log of ``events`` written in one go: what every store must leave."""
    out = io.BytesIO()
    LogWriter(out).write_all(events)
    return out.getvalue()


def verified(path: Path) -> int:
    """The lines of the log at ``path``, once its shape, digests and rules are checked."""
    with path.open("rb") as handle:
        return sum(1 for _ in walk(read(handle, str(path)), str(path), allow_unfinished=True))


def drained(store: LogStore) -> None:
    for _ in store.read().pairs():
        pass


# -- Opening: create or refuse -----------------------------------------------------------


def test_a_new_log_is_created_and_an_existing_one_refused_in_one_line(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    with LogStore.open(log, new=True) as store:
        assert store.created
        store.append(game())
    with pytest.raises(OptionError) as refused:
        LogStore.open(log, new=True)
    assert str(refused.value) == (f"{log} already exists; logs are never overwritten, choose a"
                                  " new name")
    assert refused.value.exit_code == 2
    assert log.read_bytes() == encoded(game())


def test_a_folder_or_a_device_is_no_log(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match=f"^cannot write {tmp_path}: "):
        LogStore.open(tmp_path, new=True)
    with pytest.raises(OptionError, match=f"^cannot write {tmp_path}: "):
        LogStore.open(tmp_path)
    with pytest.raises(OptionError) as refused:
        LogStore.open(os.devnull)
    assert str(refused.value) == f"{os.devnull} is not a regular file, so it cannot be a log"


def test_a_log_opened_without_new_is_made_if_missing_and_kept_if_there(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    with LogStore.open(log) as store:
        assert store.created
        assert store.seq == 0
        store.append(game()[:4])
    with LogStore.open(log) as store:
        assert not store.created
        assert store.seq == 4


def test_a_new_log_left_empty_is_removed_and_so_is_the_lock_beside_it(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    store = LogStore.open(log)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".game.jsonl.lock", "game.jsonl"]
    store.close()
    store.close()  # twice does nothing
    assert list(tmp_path.iterdir()) == []
    # An existing log left as it was is kept, empty or not.
    log.touch()
    LogStore.open(log).close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl"]


def test_a_closed_store_writes_nothing(tmp_path: Path) -> None:
    store = LogStore.open(tmp_path / "game.jsonl")
    store.close()
    with pytest.raises(ValueError, match="closed"):
        store.append(game())
    assert repr(store) == f"<LogStore {tmp_path / 'game.jsonl'} closed>"


# -- One writer -------------------------------------------------------------------------


def test_a_second_writer_is_refused_naming_the_log_until_the_first_lets_go(
        tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    first = LogStore.open(log)
    first.append(game()[:3])
    with pytest.raises(LogBusyError) as refused:
        LogStore.open(log)
    assert str(refused.value) == (f"{log} is being recorded by another aces record; only one"
                                  " may write to a log at a time")
    assert isinstance(refused.value, OptionError)
    assert refused.value.exit_code == 2
    first.close()
    with LogStore.open(log) as second:
        assert second.append(game()[3:5]) == 5
    assert log.read_bytes() == encoded(game()[:5])


def test_a_writer_in_another_process_holds_the_log(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    holder = textwrap.dedent(f"""
        import sys
        from aces.logstore import LogStore
        store = LogStore.open({str(log)!r})
        print("held", flush=True)
        sys.stdin.read()
        store.close()
    """)
    with subprocess.Popen([sys.executable, "-c", holder], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE) as process:
        try:
            assert process.stdout is not None
            assert process.stdin is not None
            assert process.stdout.readline() == b"held\n"
            with pytest.raises(LogBusyError):
                LogStore.open(log)
            process.stdin.close()
            assert process.wait(timeout=60) == 0
        finally:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
    # The holder wrote nothing and let go: its empty log is gone, the name free.
    with LogStore.open(log) as store:
        assert store.created


def test_a_log_saved_over_by_rename_is_still_held_by_its_name(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    with LogStore.open(log) as store:
        store.append(game()[:3])
        copy = tmp_path / "copy.jsonl"
        shutil.copyfile(log, copy)
        copy.replace(log)
        # The new file is not locked, but its name is.
        with pytest.raises(LogBusyError):
            LogStore.open(log)


# -- Appending: durable, all or nothing, chained on ---------------------------------------


def test_batches_chain_on_across_reopening_as_if_written_in_one_go(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    events = game() + game(8)
    cuts = [0, 1, 5, 6, 20, len(events) // 2, len(events)]
    for start, end in itertools.pairwise(cuts):
        with LogStore.open(log) as store:
            assert store.seq == start
            assert store.append(events[start:end]) == end
            assert store.seq == end
    assert log.read_bytes() == encoded(events)
    assert verified(log) == len(events)


def test_an_append_is_synced_to_disk_before_it_returns_and_a_new_log_s_folder_too(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "game.jsonl"
    synced: list[tuple[str, int]] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        found = os.fstat(fd)
        what = ("folder" if found.st_ino == tmp_path.stat().st_ino
                else f"log of {found.st_size} bytes")
        synced.append((what, fd))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    events = game()
    with LogStore.open(log) as store:
        store.append(events[:2])
        first = len(encoded(events[:2]))
        assert [what for what, _ in synced] == [f"log of {first} bytes", "folder"]
        store.append(events[2:4])
        assert [what for what, _ in synced][2:] == [f"log of {len(encoded(events[:4]))} bytes"]
        # No events, no write and no sync.
        before = log.read_bytes()
        assert store.append([]) == 4
        assert len(synced) == 3
        assert log.read_bytes() == before


def test_a_batch_that_cannot_be_written_leaves_nothing_and_the_next_one_carries_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "game.jsonl"
    events = game()
    real_write = os.write
    full = [True]

    def filling(fd: int, data: t.Any) -> int:
        if full[0] and fd > 2 and os.fstat(fd).st_ino == log.stat().st_ino:
            full[0] = False
            # Half the batch fits, then the disk is full.
            real_write(fd, bytes(data)[:len(data) // 2])
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)

    with LogStore.open(log) as store:
        store.append(events[:3])
        monkeypatch.setattr(os, "write", filling)
        with pytest.raises(LogWriteError) as refused:
            store.append(events[3:8])
        assert str(refused.value) == (f"cannot save this roll in {log}: no space left on the"
                                      " disk; every roll before it is saved")
        assert isinstance(refused.value, SaveError)
        assert refused.value.error.errno == errno.ENOSPC
        assert log.read_bytes() == encoded(events[:3])
        assert store.seq == 3
        store.append(events[3:])
    assert log.read_bytes() == encoded(events)


def test_appends_from_many_threads_take_turns(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    events = game()
    with LogStore.open(log) as store:
        store.append(events[:1])
        threads = [threading.Thread(target=store.append, args=([event],))
                   for event in events[1:]]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    # Each batch a whole line, numbered and chained in the order they got in.
    with log.open("rb") as handle:
        assert [line for line, _ in read(handle, str(log)).pairs()] == list(
            range(1, len(events) + 1))


# -- Repairing what a crash left -----------------------------------------------------------


def test_a_torn_last_line_stops_the_walk_and_is_cut_off_before_more_is_added(
        tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    events = game()
    whole = encoded(events[:6])
    torn = encoded(events[:7])[len(whole):][:-9]
    log.write_bytes(whole + torn)
    with LogStore.open(log) as store:
        with pytest.raises(TruncatedLogError) as stopped:
            list(walk(store.read(), store.path, allow_unfinished=True))
        assert stopped.value.line == 7
        assert store.seq == 6
        assert log.read_bytes() == whole + torn  # nothing changes before it is asked for
        assert store.repair() == 7
        assert log.read_bytes() == whole
        assert store.repair() is None
        store.append(events[6:])
    assert log.read_bytes() == encoded(events)


def test_an_append_repairs_a_log_nobody_repaired(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    events = game()
    whole = encoded(events[:6])
    log.write_bytes(whole + encoded(events[:7])[len(whole):][:20])
    with LogStore.open(log) as store:
        # Never read either: the store reads it itself, shape and digests.
        store.append(events[6:])
    assert log.read_bytes() == encoded(events)


def test_a_whole_last_line_without_its_newline_gets_one(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    events = game()
    log.write_bytes(encoded(events[:5]).rstrip(b"\n"))
    with LogStore.open(log) as store:
        drained(store)
        assert store.repair() is None
        assert log.read_bytes() == encoded(events[:5])
        store.append(events[5:])
    assert log.read_bytes() == encoded(events)


def test_a_log_of_an_older_schema_is_never_added_to(tmp_path: Path) -> None:
    log = tmp_path / "old.jsonl"
    old = (Path(__file__).parent / "data" / "schema1-three-players.jsonl").read_bytes()
    log.write_bytes(old)
    with LogStore.open(log) as store:
        drained(store)
        with pytest.raises(OptionError) as refused:
            store.check()
        assert str(refused.value) == (f"{log} is written in schema 1 by an older aces, so"
                                      " nothing can be added to it; record into a new file")
        with pytest.raises(OptionError):
            store.append(game())
    assert log.read_bytes() == old


def test_a_log_that_is_not_sound_is_never_added_to(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    events = game()
    log.write_bytes(encoded(events[:5]).replace(b'"Bo"', b'"Bob"', 1))
    before = log.read_bytes()
    with LogStore.open(log) as store:
        with pytest.raises(LogError):
            store.append(events[5:])
        # A reader stopped part-way (a walk that refused a line) leaves no place to add.
        reader = store.read()
        with pytest.raises(LogError):
            list(walk(reader, store.path))
        with pytest.raises(RuntimeError, match="not read to its end"):
            store.append(events[5:])
    assert log.read_bytes() == before


# -- Never written blind -------------------------------------------------------------------


@pytest.mark.parametrize("swap", ["replaced", "removed"])
def test_a_log_swapped_under_the_store_is_never_written_and_its_lines_are_rescued(
        tmp_path: Path, swap: str) -> None:
    log = tmp_path / "game.jsonl"
    events = game()
    with LogStore.open(log) as store:
        store.append(events[:4])
        if swap == "replaced":
            other = tmp_path / "other.jsonl"
            other.write_bytes(encoded(events[:2]))
            other.replace(log)
        else:
            log.unlink()
        with pytest.raises(LogSwappedError) as refused:
            store.append(events[4:6])
        rescue = f"{log}.rescued-1"
        assert str(refused.value) == (
            f"{log} was removed or replaced by another program while the game was recorded,"
            f" so nothing more is written to it; its 4 lines, up to the last roll saved, are"
            f" copied to {rescue}")
        assert refused.value.rescue == rescue
        assert isinstance(refused.value, SaveError)
        # And never after: the same error, no second copy.
        with pytest.raises(LogSwappedError) as again:
            store.append(events[4:6])
        assert again.value is refused.value
    assert Path(rescue).read_bytes() == encoded(events[:4])
    assert not Path(f"{log}.rescued-2").exists()
    if swap == "replaced":
        assert log.read_bytes() == encoded(events[:2])
    else:
        assert not log.exists()


def test_a_rescue_that_cannot_be_made_says_why(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    with LogStore.open(log) as store:
        store.append(game()[:2])
        log.unlink()
        for number in range(1, 100):
            Path(f"{log}.rescued-{number}").touch()
        with pytest.raises(LogSwappedError) as refused:
            store.append(game()[2:3])
    assert refused.value.rescue is None
    assert str(refused.value).endswith("its 2 lines could not be copied beside it: the file"
                                       " already exists")


# -- Ctrl-C waits for the batch ------------------------------------------------------------


def interrupting_writes(monkeypatch: pytest.MonkeyPatch, log: Path) -> list[int]:
    """Send SIGINT to this process once, half-way through the first write to
    ``log``, as Ctrl-C would; the list returned says it was sent."""
    real_write = os.write
    sent: list[int] = []

    def write(fd: int, data: t.Any) -> int:
        if not sent and fd > 2 and log.exists() and os.fstat(fd).st_ino == log.stat().st_ino:
            done = real_write(fd, bytes(data)[:len(data) // 2])
            sent.append(fd)
            signal.raise_signal(signal.SIGINT)
            return done
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", write)
    return sent


@pytest.mark.parametrize("masks", [True, False], ids=["pthread_sigmask", "no-sigmask"])
def test_ctrl_c_in_the_middle_of_a_batch_waits_until_it_is_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, masks: bool) -> None:
    if not masks:
        monkeypatch.delattr(signal, "pthread_sigmask")
    log = tmp_path / "game.jsonl"
    events = game()
    with LogStore.open(log) as store:
        sent = interrupting_writes(monkeypatch, log)
        with pytest.raises(KeyboardInterrupt):
            store.append(events)
        assert sent, "the write was interrupted"
    monkeypatch.undo()
    assert log.read_bytes() == encoded(events)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


# -- Windows: no fcntl, no pthread_sigmask -------------------------------------------------


@pytest.fixture
def windows(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """The store's module as Windows loads it: no ``fcntl``, ``msvcrt`` (the
    stand-in of tests/fakemsvcrt.py) for its locks, and no ``pthread_sigmask``."""
    monkeypatch.setitem(sys.modules, "fcntl", None)
    monkeypatch.setitem(sys.modules, "msvcrt", fakemsvcrt)
    monkeypatch.delattr(signal, "pthread_sigmask")
    with pytest.raises(ImportError):
        importlib.import_module("fcntl")
    spec = importlib.util.spec_from_file_location("aces._logstore_windows",
                                                  aces.logstore.__file__)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fakemsvcrt.CALLS.clear()
    yield module
    assert not fakemsvcrt._HELD, "every lock let go"


def test_without_fcntl_the_store_locks_with_windows_own_locks(
        windows: ModuleType, tmp_path: Path) -> None:
    assert not windows._FLOCK
    log = tmp_path / "game.jsonl"
    events = game()
    with windows.LogStore.open(log) as store:
        store.append(events[:5])
        # The name and the log each locked once, far past any log's end:
        # every byte of the log stays readable to others.
        assert fakemsvcrt.CALLS == [(fakemsvcrt.LK_NBLCK, windows._FAR)] * 2
        assert len(encoded(events)) * 10**6 < windows._FAR
        with pytest.raises(windows.LogBusyError) as refused:
            windows.LogStore.open(log)
        assert "is being recorded by another aces record" in str(refused.value)
        assert isinstance(refused.value, AcesError)
    # Let go on close: the next writer takes the log and carries it on.
    with windows.LogStore.open(log) as store:
        store.append(events[5:])
    assert log.read_bytes() == encoded(events)
    # Two stores, two locks each (the refused one took none), each let go.
    assert sorted(fakemsvcrt.CALLS) == ([(fakemsvcrt.LK_UNLCK, windows._FAR)] * 4
                                        + [(fakemsvcrt.LK_NBLCK, windows._FAR)] * 5)


def test_without_pthread_sigmask_ctrl_c_still_waits_for_the_batch(
        windows: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "game.jsonl"
    events = game()
    with windows.LogStore.open(log) as store:
        sent = interrupting_writes(monkeypatch, log)
        with pytest.raises(KeyboardInterrupt):
            store.append(events)
        assert sent
    assert log.read_bytes() == encoded(events)


def test_where_open_files_cannot_be_removed_the_lock_beside_the_log_goes_after(
        windows: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(windows, "_OPEN_FILES_STAY", True)
    removed: list[bool] = []
    real_unlink = Path.unlink

    def unlink(path: Path, missing_ok: bool = False) -> None:
        # As Windows: a file still open somewhere cannot be removed.
        removed.append(path.name == ".game.jsonl.lock" and bool(fakemsvcrt._HELD))
        real_unlink(path, missing_ok)

    monkeypatch.setattr(Path, "unlink", unlink)
    with windows.LogStore.open(tmp_path / "game.jsonl") as store:
        store.append(game()[:2])
    assert removed == [False]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl"]


def test_readers_of_a_held_log_each_read_at_their_own_place(tmp_path: Path) -> None:
    """A handle's place is its own: a duplicate descriptor shared it with the
    store's appends and the other readers, so that a projector catching up in
    one thread read the lines another thread had sought, or nothing."""
    path = tmp_path / "held.jsonl"
    events = game()
    with LogStore.open(path, new=True) as store:
        store.append(events[:-1])
        lines = path.read_bytes().splitlines(keepends=True)
        assert len(lines) > 5
        first, second = store.handle(), store.handle()
        with first, second:
            second.seek(sum(map(len, lines[:4])))
            store.append(events[-1:])
            assert first.readline() == lines[0]
            assert second.readline() == lines[4]
            assert first.readline() == lines[1]
