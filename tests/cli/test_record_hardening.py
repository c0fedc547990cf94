"""``aces record`` when the world misbehaves: a log swapped underneath, lines
of any length, a full disk, an output nobody can write, Ctrl-C at any time.

Each case keeps the promise of the recorder: a roll acknowledged is a roll
in the file at the log's path, and every roll before a failure is saved.
"""

from __future__ import annotations

import errno
import importlib
import os
import shutil
import signal
import subprocess
import sys
import typing as t
from pathlib import Path

import pytest

from aces.log import read
from aces.walk import walk

from recordtest import E1, TABLE, aces, played, refused, run, typed, wait_for

if t.TYPE_CHECKING:
    from collections.abc import Callable


def rolls_in(log: Path) -> int:
    with log.open("rb") as handle:
        return sum(1 for step in walk(read(handle, str(log)), str(log), allow_unfinished=True)
                   if type(step.event).__name__ == "Rolled")


# -- A log swapped underneath ----------------------------------------------------------


def recording_until_swapped(tmp_path: Path, swap: Callable[[Path], None]) -> tuple[
        subprocess.CompletedProcess[bytes], Path]:
    """Record three rolls, ``swap`` the log, then type a fourth."""
    log = tmp_path / "e1.jsonl"
    env = {**os.environ, "LANG": "C", "LANGUAGE": "", "LC_ALL": ""}
    process = subprocess.Popen([aces(), "record", str(log), *TABLE], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert process.stdin is not None
    for count, roll in enumerate(E1[:3], start=1):
        process.stdin.write(f"{roll}\n".encode())
        process.stdin.flush()
        wait_for(lambda count=count: log.exists() and rolls_in(log) == count)  # type: ignore[misc]
    swap(log)
    out, err = process.communicate(f"{E1[3]}\n{E1[4]}\n".encode(), timeout=30)
    return subprocess.CompletedProcess(process.args, process.returncode, out, err), log


def test_a_log_replaced_by_rename_is_never_written_blind(tmp_path: Path) -> None:
    saved = tmp_path / "editor-copy.jsonl"

    def save_by_rename(log: Path) -> None:
        # As editors and sync tools save: a new file, renamed over the old.
        shutil.copyfile(log, saved)
        saved.replace(log)

    result, log = recording_until_swapped(tmp_path, save_by_rename)
    assert result.returncode == 1
    err = result.stderr.decode()
    assert "Traceback" not in err
    assert f"aces: {log} was removed or replaced by another program" in err
    assert f"copied to {log}.rescued-1" in err
    # The file at the path is as the other program left it: three rolls.
    assert rolls_in(log) == 3
    # Cy's 1-6 was never acknowledged, and never written anywhere.
    assert b"Cy rolls 1-6" not in result.stdout
    assert rolls_in(Path(f"{log}.rescued-1")) == 3


def test_a_log_deleted_while_recording_is_not_recreated_and_its_rolls_are_rescued(
        tmp_path: Path) -> None:
    result, log = recording_until_swapped(tmp_path, Path.unlink)
    assert result.returncode == 1
    assert "was removed or replaced by another program" in result.stderr.decode()
    assert not log.exists()
    rescued = Path(f"{log}.rescued-1")
    assert rolls_in(rescued) == 3
    assert b"Every roll typed is saved" not in result.stderr


def test_a_second_recorder_is_refused_on_a_log_saved_over_by_rename(tmp_path: Path) -> None:
    # The first recorder holds the file it opened; an editor saves a new
    # file over its name. The name stays taken: a second recorder is
    # refused in one line naming the log, and the first, at its next roll,
    # stops without writing blind.
    saved = tmp_path / "editor-copy.jsonl"
    second: list[subprocess.CompletedProcess[bytes]] = []

    def save_by_rename_and_record_again(log: Path) -> None:
        shutil.copyfile(log, saved)
        saved.replace(log)
        second.append(subprocess.run([aces(), "record", str(log)], input=b"1 6\n",
                                     capture_output=True, check=False,
                                     env={**os.environ, "LANG": "C", "LANGUAGE": "",
                                          "LC_ALL": ""}))

    first, log = recording_until_swapped(tmp_path, save_by_rename_and_record_again)
    [refused] = second
    assert refused.returncode == 2
    assert refused.stderr.decode() == (f"aces: {log} is being recorded by another aces record;"
                                       " only one may write to a log at a time\n")
    assert first.returncode == 1
    assert "was removed or replaced by another program" in first.stderr.decode()
    assert rolls_in(log) == 3
    # Nothing is left behind: the next recorder takes the name at once.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["e1.jsonl", "e1.jsonl.rescued-1"]


def test_a_recorder_that_locks_a_name_lock_just_removed_takes_the_name_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Between opening the lock beside the log and locking it, the recorder
    # that held it finished and removed it: the lock taken is on nothing.
    module = importlib.import_module("aces.logstore")
    exclusive = module._exclusive
    locked: list[int] = []

    def late(path: str, fd: int) -> None:
        lock = Path(path).with_name(f".{Path(path).name}.lock")
        if not locked and lock.exists():
            lock.unlink()
        locked.append(fd)
        exclusive(path, fd)

    monkeypatch.setattr(module, "_exclusive", late)
    log = tmp_path / "e1.jsonl"
    result = run("record", str(log), *TABLE, stdin=typed(E1))
    assert result.exit_code == 0, result.output
    # The name lock twice (the first on a file removed), then the log's own.
    assert len(locked) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["e1.jsonl"]


# -- Standard input, read by lines -------------------------------------------------------


@pytest.mark.parametrize("pad", [*range(4090, 4100), 8191, 8192, 8193])
def test_a_long_comment_is_one_line_whatever_its_length(tmp_path: Path, pad: int) -> None:
    log = tmp_path / "e1.jsonl"
    # A comment ending across the old 4,096-byte chunks, 1 6 after it on the same line.
    comment = "# " + "x" * pad + " 1 6\n"
    accents = "# " + "é" * 3000 + "\n"
    result = run("record", str(log), *TABLE,
                 stdin=typed(E1[:3]) + comment + accents + typed(E1[3:]))
    assert result.exit_code == 0, result.output
    assert log.read_bytes() == played(tmp_path, E1)


def test_a_line_longer_than_a_log_line_stops_a_script_and_keeps_every_roll(
        tmp_path: Path) -> None:
    log = tmp_path / "e1.jsonl"
    result = run("record", str(log), *TABLE,
                 stdin=typed(E1[:3]) + "1 6 " + "#" * 70_000 + "\n" + typed(E1[3:]))
    assert refused(result) == ("<stdin>, line 4: the line is longer than 65,536 bytes, the most"
                                " a line of rolls may be")
    assert rolls_in(log) == 3


def test_a_dice_file_line_longer_than_a_log_line_is_refused(tmp_path: Path) -> None:
    dice = tmp_path / "long.dice"
    dice.write_bytes(b"2\n3\n5\n" + b"1 6 #" + b"x" * 20_000_000 + b"\n")
    result = run("play", *TABLE, "--dice-file", str(dice))
    assert refused(result) == (f"{dice}, line 4: the line is longer than 65,536 bytes, the most"
                                " a line of rolls may be")


# -- A full disk, an output that cannot be written ----------------------------------------


def test_a_full_disk_stops_recording_and_every_roll_before_is_saved(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "e1.jsonl"
    real_write = os.write
    writes: list[int] = []

    def filling(fd: int, data: t.Any) -> int:
        if fd > 2 and os.fstat(fd).st_ino == log.stat().st_ino:
            writes.append(len(data))
            if len(writes) > 4:
                # Half a roll fits, then the disk is full.
                if len(writes) == 5:
                    return real_write(fd, bytes(data)[:len(data) // 2])
                raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", filling)
    result = run("record", str(log), *TABLE, stdin=typed(E1))
    monkeypatch.undo()
    assert refused(result) == (f"cannot save this roll in {log}: no space left on the disk;"
                                " every roll before it is saved")
    # What went in with the first four writes stays; the half-written roll
    # is taken back, so the log ends whole and goes on from there.
    assert log.read_bytes().endswith(b"\n")
    kept = rolls_in(log)
    assert kept >= 2
    result = run("record", str(log), stdin=typed(E1[kept:]))
    assert result.exit_code == 0, result.output
    assert log.read_bytes() == played(tmp_path, E1)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
@pytest.mark.parametrize("args", [["--help"], ["--version"], ["walkthrough", "LOG"],
                                  ["replay", "LOG"], ["verify", "LOG"],
                                  ["record", "NEW", "--players", "Ada,Bo,Cy"]])
def test_an_output_that_cannot_be_written_is_one_line(tmp_path: Path, args: list[str]) -> None:
    log = tmp_path / "e1.jsonl"
    log.write_bytes(played(tmp_path, E1))
    args = [str(log) if arg == "LOG" else str(tmp_path / "new.jsonl") if arg == "NEW" else arg
            for arg in args]
    env = {**os.environ, "LANG": "C", "LANGUAGE": "", "LC_ALL": ""}
    with Path("/dev/full").open("wb") as full:
        done = subprocess.run([aces(), *args], stdout=full, stderr=subprocess.PIPE,
                              input=typed(E1[:3]).encode(), env=env, timeout=60, check=False)
    err = done.stderr.decode()
    assert done.returncode == 1, err
    assert "Traceback" not in err
    assert err.splitlines()[-1] in ("aces: cannot write <stdout>: no space left on the disk",
                                    "aces: cannot write the narration: no space left on the disk")


# -- Ctrl-C and memory -------------------------------------------------------------------


def test_ctrl_c_while_resuming_is_a_stop_like_any_other(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from aces import record

    log = tmp_path / "e1.jsonl"
    log.write_bytes(played(tmp_path, E1)[: -1])
    before = log.read_bytes()

    def interrupted(self: object, step: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(record.Resumed, "visit", interrupted)
    result = run("record", str(log), stdin="3 4\n")
    assert result.exit_code == 130
    assert "Aborted" not in result.output
    assert f"Stopped. Every roll typed is saved in {log}" in result.stderr
    assert log.read_bytes() == before


#: A stand-in for a module the command loads as it starts: it says it is
#: being imported, then waits for Ctrl-C, so the interrupt comes at a known
#: moment of start-up, without timing.
LOADING: t.Final = """
import os, signal
os.write(1, b"loading\\n")
signal.pause()
"""


def interrupted_while_loading(tmp_path: Path, module: str, *args: str) -> tuple[int, bytes]:
    """Run the installed command with ``module`` replaced by a stand-in that
    waits for Ctrl-C, send it a real SIGINT there; its status and stderr."""
    stub = tmp_path / "stub" / module
    stub.parent.mkdir(parents=True)
    stub.write_text(LOADING, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "stub"), "LANG": "C", "LANGUAGE": ""}
    process = subprocess.Popen([aces(), *args], stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert process.stdout is not None
    assert process.stdout.readline() == b"loading\n"
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert out == b""
    return process.returncode, err


@pytest.mark.parametrize("module", ["aces/__init__.py", "click/__init__.py"])
def test_ctrl_c_while_the_command_starts_ends_as_anywhere_else(
        tmp_path: Path, module: str) -> None:
    # Interrupted while it imports the package itself (before any of the
    # package's code has run), or the command line it loads.
    assert interrupted_while_loading(tmp_path, module, "--help") == (130, b"\n")


def test_ctrl_c_while_a_command_runs_ends_with_the_same_line(tmp_path: Path) -> None:
    # aces verify interrupted as it loads the log reader's codec, once the
    # command line has started it: the same line and status as at start-up.
    log = tmp_path / "e1.jsonl"
    log.write_bytes(played(tmp_path, E1))
    assert interrupted_while_loading(tmp_path, "msgspec/__init__.py",
                                     "verify", str(log)) == (130, b"\n")


def test_running_out_of_memory_anywhere_is_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    from aces import cli as cli_module
    from aces import walk as walk_module

    log = tmp_path / "e1.jsonl"
    log.write_bytes(played(tmp_path, E1))

    def exhausted(*args: object, **kwargs: object) -> t.NoReturn:
        raise MemoryError

    # The walk that aces verify (drive) and every other reader share.
    monkeypatch.setattr(walk_module, "_walk", exhausted)
    monkeypatch.setattr(sys, "argv", ["aces", "--lang", "nb", "verify", str(log)])
    with pytest.raises(SystemExit) as stop:
        cli_module.main()
    assert stop.value.code == 1
    assert capsys.readouterr().err == "aces: det er ikke nok minne til å fortsette\n"


# -- Windows: no fcntl, no pthread_sigmask ------------------------------------------------

#: ``aces record`` as Windows runs it: ``fcntl`` cannot be imported, the locks
#: are ``msvcrt``'s (tests/fakemsvcrt.py stands in for it), and ``signal`` has
#: no ``pthread_sigmask``. Each lock call is reported on standard error.
AS_ON_WINDOWS: t.Final = """
import atexit, signal, sys
sys.modules["fcntl"] = None
del signal.pthread_sigmask
import fakemsvcrt
sys.modules["msvcrt"] = fakemsvcrt
atexit.register(lambda: print("locks:", fakemsvcrt.CALLS, sorted(fakemsvcrt._HELD),
                              file=sys.stderr))
from aces.cli import main
sys.argv = ["aces", *sys.argv[1:]]
main()
"""
#: Where the log store takes its Windows lock.
FAR: t.Final = importlib.import_module("aces.logstore")._FAR


def test_aces_record_runs_without_fcntl_and_pthread_sigmask(tmp_path: Path) -> None:
    log = tmp_path / "e1.jsonl"
    env = {**os.environ, "LANG": "C", "LANGUAGE": "", "LC_ALL": "",
           "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    for rolls, args in ((E1[:5], TABLE), (E1[5:], ())):
        done = subprocess.run([sys.executable, "-c", AS_ON_WINDOWS, "record", str(log), *args],
                              input=typed(rolls).encode(), capture_output=True, env=env,
                              timeout=120, check=False)
        err = done.stderr.decode()
        assert done.returncode == 0, err
        # The name and the log locked without waiting, past any log's end,
        # and let go again.
        assert err.splitlines()[-1] == f"locks: {[(2, FAR), (2, FAR), (0, FAR), (0, FAR)]} []"
    assert log.read_bytes() == played(tmp_path, E1)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["e1.jsonl", "played.dice"]
