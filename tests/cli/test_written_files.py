"""Every file a command writes: never over a log, never over its own input,
never over another file unless asked, whole or not at all, named in every error."""

from __future__ import annotations

import csv
import os
import resource
import shutil
import signal
import subprocess
import sys
import typing as t
from pathlib import Path

import pytest

from clitest import one_line_error, run

REPLAYS = Path(__file__).resolve().parents[2] / "replays"


def verified(log: Path) -> str:
    result = run("verify", str(log))
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.fixture
def evening(tmp_path: Path) -> Path:
    log = tmp_path / "v.jsonl"
    shutil.copy(REPLAYS / "session.jsonl", log)
    return log


@pytest.mark.parametrize("force", [[], ["--force"]])
def test_a_page_is_never_written_over_the_log_it_reads(evening: Path, force: list[str]) -> None:
    """``aces replay v.jsonl --html v.jsonl`` once replaced the game with its page."""
    before = evening.read_bytes()
    error = one_line_error(run("replay", str(evening), "--html", str(evening), *force))
    assert error == (f"aces: {evening} is read by this command, so it cannot also be written"
                     " by it; choose another name")
    assert evening.read_bytes() == before
    verified(evening)


def test_standard_input_redirected_from_the_target_is_its_input(evening: Path) -> None:
    with evening.open("rb") as log:
        done = subprocess.run([sys.executable, "-m", "aces", "replay", "-", "--html",
                               str(evening), "--force", "--lang", "en"], stdin=log,
                              capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert done.stderr == (f"aces: {evening} is read by this command, so it cannot also be"
                           " written by it; choose another name\n")


@pytest.mark.parametrize("force", [[], ["--force"]])
def test_no_page_is_written_over_another_log(evening: Path, tmp_path: Path,
                                             force: list[str]) -> None:
    """``aces simulate --players 3 --html evening.jsonl`` once destroyed that log."""
    before = evening.read_bytes()
    for args in (["simulate", "--players", "3"], ["replay", str(REPLAYS / "e1-last-chip.jsonl")]):
        error = one_line_error(run(*args, "--html", str(evening), *force))
        assert error == (f"aces: {evening} is a game log, and a log is never overwritten;"
                         " choose another name")
    assert evening.read_bytes() == before


def test_a_page_replaces_the_page_its_command_wrote_before_and_nothing_else(
        tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    log = str(REPLAYS / "three-players.jsonl")
    assert run("replay", log, "--html", str(page)).exit_code == 0
    # Run again after a change, as in a lesson: the page is the command's own.
    assert run("replay", str(REPLAYS / "e1-last-chip.jsonl"), "--html", str(page)).exit_code == 0
    replay_page = page.read_bytes()
    error = one_line_error(run("simulate", "--players", "3", "--html", str(page)))
    assert error == (f"aces: {page} already exists; choose a new name, or add --force to"
                     " replace it")
    assert page.read_bytes() == replay_page
    assert run("simulate", "--players", "3", "--html", str(page), "--force").exit_code == 0
    assert run("simulate", "--players", "4", "--html", str(page)).exit_code == 0
    notes = tmp_path / "notes.html"
    notes.write_text("<p>my own notes</p>", encoding="utf-8")
    for args in (["replay", log], ["simulate", "--players", "3"]):
        assert "already exists" in one_line_error(run(*args, "--html", str(notes)))
    assert notes.read_text(encoding="utf-8") == "<p>my own notes</p>"


@pytest.mark.parametrize("args", [["replay", str(REPLAYS / "three-players.jsonl")],
                                  ["simulate", "--players", "3"]])
def test_force_without_a_page_is_refused(args: list[str]) -> None:
    assert one_line_error(run(*args, "--force")) == (
        "aces: --force lets --html replace an existing file, so it needs --html")


@pytest.mark.parametrize("args", [["replay", str(REPLAYS / "three-players.jsonl")],
                                  ["simulate", "--players", "3"]])
def test_a_page_to_standard_output(args: list[str], tmp_path: Path,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """``--html -`` once wrote a file named ``-``."""
    monkeypatch.chdir(tmp_path)
    result = run(*args, "--html", "-")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("<!DOCTYPE html>")
    assert result.stdout.rstrip().endswith("</html>")
    assert list(tmp_path.iterdir()) == []


def test_the_longest_name_a_folder_takes_is_a_page(tmp_path: Path) -> None:
    """A valid 249-character name once failed: the temporary name was longer."""
    limit = os.pathconf(tmp_path, "PC_NAME_MAX")
    page = tmp_path / ("p" * (limit - len(".html")) + ".html")
    result = run("replay", str(REPLAYS / "three-players.jsonl"), "--html", str(page))
    assert result.exit_code == 0, result.output
    assert page.read_bytes().startswith(b"<!DOCTYPE html>")


# -- aces stats: tables and plots -------------------------------------------------------


@pytest.mark.parametrize("option", ["--csv", "--plot"])
def test_a_table_or_plot_replaces_a_file_only_when_forced(tmp_path: Path, option: str) -> None:
    taken = tmp_path / ("taken.svg" if option == "--plot" else "taken.csv")
    taken.write_text("mine", encoding="utf-8")
    log = str(REPLAYS / "session.jsonl")
    assert one_line_error(run("stats", log, option, str(taken))) == (
        f"aces: {taken} already exists; choose a new name, or add --force to replace it")
    assert taken.read_text(encoding="utf-8") == "mine"
    assert run("stats", log, option, str(taken), "--force").exit_code == 0
    assert taken.read_text(encoding="utf-8", errors="replace") != "mine"


@pytest.mark.parametrize("option", ["--csv", "--plot"])
def test_a_table_or_plot_never_replaces_a_log(evening: Path, option: str) -> None:
    before = evening.read_bytes()
    other = str(REPLAYS / "three-players.jsonl")
    target = evening.with_suffix(".svg") if option == "--plot" else evening
    if option == "--plot":
        shutil.copy(evening, target)
    for logs in ([other], [str(evening)]):
        error = one_line_error(run("stats", *logs, option, str(target), "--force"))
        assert str(target) in error
        assert ("is a game log" in error) or ("is read by this command" in error)
    assert target.read_bytes() == before


def test_force_in_stats_needs_a_file_to_write() -> None:
    assert one_line_error(run("stats", str(REPLAYS / "session.jsonl"), "--force")) == (
        "aces: --force lets --csv or --plot replace an existing file, so it needs --csv or"
        " --plot")


@pytest.mark.parametrize("option", ["--csv", "--plot"])
def test_a_table_or_plot_to_standard_output_is_refused(
        tmp_path: Path, option: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    error = one_line_error(run("stats", str(REPLAYS / "session.jsonl"), option, "-"))
    assert error == (f"aces: {option} writes a file, and '-' would be standard output, which"
                     " carries the report; give a file name")
    assert list(tmp_path.iterdir()) == []


def test_an_interrupted_table_leaves_nothing_that_looks_complete(tmp_path: Path) -> None:
    """Ctrl-C part-way once left the heading and two rows, and a rerun was refused."""
    import aces

    table = tmp_path / "rolls.csv"
    logs = [REPLAYS / f"class-group-{n}.jsonl" for n in range(1, 7)]

    def interrupt(done: int) -> None:
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        aces.stats(logs, csv=table, rolls=True, progress=interrupt)
    assert list(tmp_path.iterdir()) == []
    result = run("stats", *map(str, logs), "--csv", str(table), "--rolls")
    assert result.exit_code == 0, result.output
    with table.open(encoding="utf-8-sig", newline="") as handle:
        assert len({row["log"] for row in csv.DictReader(handle)}) == 6


def _limited(size: int) -> t.Callable[[], None]:
    def limit() -> None:
        # A file may grow to ``size`` bytes: past it, a write fails with EFBIG,
        # as on a memory stick's FAT (or a disk quota's EDQUOT).
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    return limit


@pytest.mark.parametrize(("lang", "reason"), [
    ("en", "the file is too big for this disk"),
    ("nb", "filen er for stor for denne disken"),
    ("nn", "fila er for stor for denne disken"),
])
@pytest.mark.parametrize("option", ["--csv", "--plot"])
def test_a_file_too_big_is_named_left_absent_and_said_in_the_language(
        tmp_path: Path, lang: str, reason: str, option: str) -> None:
    """On a full disk the error once named <stdout> and left a truncated file."""
    target = tmp_path / ("rolls.csv" if option == "--csv" else "plot.svg")
    more = ["--rolls"] if option == "--csv" else []
    logs = [str(REPLAYS / f"class-group-{n}.jsonl") for n in range(1, 7)]
    done = subprocess.run([sys.executable, "-m", "aces", "stats", *logs, option, str(target),
                           *more, "--lang", lang], capture_output=True, text=True,
                          preexec_fn=_limited(4096), check=False)
    assert done.returncode == 2, done.stderr
    errors = done.stderr.splitlines()
    words = {"en": "cannot write", "nb": "kan ikke skrive", "nn": "kan ikkje skrive"}[lang]
    assert errors == [f"aces: {words} {target}: {reason}"]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args", [
    ["verify", ""],
    ["replay", ""],
    ["walkthrough", ""],
    ["play", "--players", "2", "-o", ""],
    ["play", "--players", "2", "--dice-file", ""],
    ["replay", str(REPLAYS / "three-players.jsonl"), "--html", ""],
    ["simulate", "--players", "2", "--html", ""],
    ["stats", str(REPLAYS / "three-players.jsonl"), "--csv", ""],
    ["stats", str(REPLAYS / "three-players.jsonl"), "--plot", ""],
    ["record", "", "--players", "Ada,Bo"],
])
def test_an_empty_file_name_is_one_line(args: list[str]) -> None:
    """``aces record "" --players Ada,Bo`` once raised ValueError."""
    error = one_line_error(run(*args, input=""))
    assert error.endswith("a file name cannot be empty"), error


def test_a_class_in_an_empty_folder_name_is_one_line(tmp_path: Path) -> None:
    """``aces class serve ""`` once served a class in the current folder."""
    done = subprocess.run([sys.executable, "-m", "aces", "class", "serve", "", "--host",
                           "127.0.0.1", "--port", "0"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode != 0
    assert done.stderr.splitlines() == ["aces: a file name cannot be empty"]
    assert list(tmp_path.iterdir()) == []


def test_an_empty_log_name_in_stats_is_left_out_in_words() -> None:
    result = run("stats", "", str(REPLAYS / "three-players.jsonl"))
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == "aces: a file name cannot be empty"


@pytest.mark.parametrize("name", [".", "/", "./"])
@pytest.mark.parametrize("args", [
    ["record", "{}", "--players", "Ada,Bo"],
    ["play", "--players", "2", "-o", "{}"],
    ["replay", str(REPLAYS / "three-players.jsonl"), "--html", "{}"],
    ["simulate", "--players", "2", "--html", "{}"],
    ["stats", str(REPLAYS / "three-players.jsonl"), "--csv", "{}"],
])
def test_a_folder_as_the_file_to_write_is_one_line(args: list[str], name: str) -> None:
    error = one_line_error(run(*[arg.format(name) for arg in args], input=""))
    assert error == f"aces: cannot write {name}: it is a folder, not a file"
