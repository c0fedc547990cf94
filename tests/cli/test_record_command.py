"""``aces record``: a game typed in at the table, resumed, corrected, never lost."""

from __future__ import annotations

import contextlib
import fcntl
import importlib
import json
import os
import select
import signal
import subprocess
import time
import typing as t
from pathlib import Path

import pytest
from click.testing import CliRunner

from aces.cli import cli
from aces.errors import AcesError
from aces.log import read
from aces.walk import walk

from clitest import ENGLISH
from recordtest import E1, TABLE, aces, played, refused, run, typed, wait_for

if t.TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from click.testing import Result

DATA: t.Final = Path(__file__).resolve().parent.parent / "data"


def recorded(log: Path, rolls: Sequence[str], *args: str) -> Result:
    result = run("record", str(log), *args, stdin=typed(rolls))
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result


def walked(log: Path, *, allow_unfinished: bool = False) -> list[t.Any]:
    with log.open("rb") as handle:
        return [step.event for step in walk(read(handle, str(log)), str(log),
                                             allow_unfinished=allow_unfinished)]


def rolls_in(log: Path) -> int:
    return sum(1 for line in log.read_bytes().splitlines()
               if json.loads(line)["type"] == "rolled")


# -- Recording ----------------------------------------------------------------------


def test_a_game_typed_in_is_the_log_play_writes_from_the_same_dice(tmp_path: Path) -> None:
    log = tmp_path / "e1.jsonl"
    result = recorded(log, E1, *TABLE)
    assert log.read_bytes() == played(tmp_path, E1)
    story = result.stdout.splitlines()
    assert story[0] == "Aces in the Pot, game 1: Ada, Bo, and Cy have 2 chips each."
    assert "Cy rolls highest with 5 and starts." in story
    assert story[-1] == "Bo wins the pot of 5 chips."


def test_the_story_is_told_in_the_chosen_language(tmp_path: Path) -> None:
    result = recorded(tmp_path / "e1.jsonl", E1, *TABLE, "--lang", "nb")
    assert result.stdout.splitlines()[-1] == "Bo vinner potten på fem sjetonger."


@pytest.mark.parametrize("cut", [0, 1, 4, 9, 13])
def test_a_game_recorded_in_two_sittings_is_the_same_log(tmp_path: Path, cut: int) -> None:
    log = tmp_path / "e1.jsonl"
    first = recorded(log, E1[:cut], *TABLE)
    assert "Stopped. Every roll typed is saved in" in first.stderr
    assert rolls_in(log) == cut
    second = recorded(log, E1[cut:])
    assert f"Going on with game 1 in {log}, where it stopped:" in second.stderr
    assert log.read_bytes() == played(tmp_path, E1)


def test_resuming_with_the_same_arguments_is_allowed(tmp_path: Path) -> None:
    log = tmp_path / "e1.jsonl"
    recorded(log, E1[:5], *TABLE, "--finish", "last-chip")
    recorded(log, E1[5:], *TABLE, "--chips", "2")
    assert log.read_bytes() == played(tmp_path, E1)


@pytest.mark.parametrize(("args", "given"), [
    (("--players", "Ada,Bo"), "--players Ada,Bo"),
    (("--finish", "last-holder"), "--finish last-holder"),
    (("--game", "five-dice"), "--game five-dice"),
])
def test_resuming_with_other_arguments_is_refused(
    tmp_path: Path, args: tuple[str, ...], given: str
) -> None:
    log = tmp_path / "e1.jsonl"
    recorded(log, E1[:5], *TABLE)
    before = log.read_bytes()
    reason = refused(run("record", str(log), *args, stdin="6 6\n"))
    assert reason == (f"{log} holds an unfinished game begun with --game pot --players"
                      f" Ada,Bo,Cy --finish last-chip --chips 2, not {given}; to go on with it,"
                      " give the same or leave them out")
    assert log.read_bytes() == before


def test_a_finished_log_gets_a_new_game_with_the_same_players(tmp_path: Path) -> None:
    log = tmp_path / "session.jsonl"
    recorded(log, E1, *TABLE)
    second = recorded(log, E1)
    assert f"The last game in {log} is over, so game 2 begins." in second.stderr
    assert "Aces in the Pot, game 2: Ada, Bo, and Cy have 2 chips each." in second.stdout
    assert "Pots won after 2 games: Ada 0, Bo 2, and Cy 0." in second.stdout
    assert "Bo won the most pots: 2 of 2." in second.stdout
    verdict = run("verify", str(log))
    assert "2 games" in verdict.stdout


def test_a_new_game_may_have_other_players(tmp_path: Path) -> None:
    log = tmp_path / "session.jsonl"
    recorded(log, E1, *TABLE)
    recorded(log, ["3", "4", "1 1"], "--players", "Kari,Ola")
    games = [e for e in walked(log, allow_unfinished=True)
             if type(e).__name__ == "GameStarted"]
    assert [g.players for g in games] == [("Ada", "Bo", "Cy"), ("Kari", "Ola")]


def test_a_five_dice_game_with_threes_names_the_receivers(tmp_path: Path) -> None:
    rolls = (DATA.parent.parent / "replays" / "threes.dice").read_text(encoding="utf-8")
    log = tmp_path / "threes.jsonl"
    result = run("record", str(log), *TABLE, "--game", "five-dice", "--dice-each", "2",
                 "--threes", stdin=rolls)
    assert result.exit_code == 0, result.output
    assert log.read_bytes() == (DATA.parent.parent / "replays" /
                                "five-dice-threes.jsonl").read_bytes()


def test_a_five_dice_game_goes_on_with_its_own_options_or_none(tmp_path: Path) -> None:
    rolls = (DATA.parent.parent / "replays" / "threes.dice").read_text(encoding="utf-8")
    typed_rolls = [line for line in rolls.splitlines() if line.split("#")[0].strip()]
    log = tmp_path / "threes.jsonl"
    recorded(log, typed_rolls[:4], *TABLE, "--game", "five-dice", "--dice-each", "2",
             "--threes")
    recorded(log, typed_rolls[4:8], "--dice-each", "2")
    recorded(log, typed_rolls[8:])
    assert log.read_bytes() == (DATA.parent.parent / "replays" /
                                "five-dice-threes.jsonl").read_bytes()


# -- Undo -----------------------------------------------------------------------------


def test_a_typing_mistake_is_taken_back_and_the_correction_told(tmp_path: Path) -> None:
    log = tmp_path / "e1.jsonl"
    result = recorded(log, [*E1[:5], "6 6", "undo", *E1[5:]], *TABLE)
    assert ("Correction: Bo's roll of 6-6 is taken back, with everything it settled, and play"
            " goes on from before it.") in result.stdout
    events = walked(log)
    assert [type(e).__name__ for e in events].count("RollUndone") == 1
    story = run("replay", str(log), "--lang", "nb")
    assert story.exit_code == 0
    assert "Angret: Bo kastet 6-6, men det kastet er tatt tilbake med alt det førte til." \
        in story.stdout.splitlines()
    assert story.stdout.splitlines()[-1] == "Bo vinner potten på fem sjetonger."
    nynorsk = run("replay", str(log), "--lang", "nn").stdout.splitlines()
    assert "Angra: Bo kasta 6-6, men det kastet er teke tilbake med alt det førte til." in nynorsk
    assert nynorsk[-1] == "Bo vinn potten på fem sjetongar."


def test_the_last_roll_of_a_game_can_be_taken_back(tmp_path: Path) -> None:
    log = tmp_path / "e1.jsonl"
    result = recorded(log, [*E1[:-1], "3 3", "undo", E1[-1]], *TABLE)
    assert result.stdout.count("wins the pot") == 2
    assert "Correction: Bo's roll of 3-3" in result.stdout
    verdict = run("verify", str(log))
    assert "Won by Bo." in verdict.stdout


def test_an_undo_after_a_game_is_over_brings_it_back(tmp_path: Path) -> None:
    log = tmp_path / "e1.jsonl"
    recorded(log, [*E1[:-1], "5 3"], *TABLE)
    result = recorded(log, ["undo", E1[-1]])
    assert "Correction: Bo's roll of 5-3" in result.stdout
    assert result.stdout.splitlines()[-1] == "Bo wins the pot of 5 chips."
    games = [e for e in walked(log) if type(e).__name__ == "GameStarted"]
    assert len(games) == 1


def test_an_undo_with_nothing_to_take_back_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "e1.jsonl"
    reason = refused(run("record", str(log), *TABLE, stdin="undo\n"))
    assert reason == "<stdin>, line 1: there is no roll of this game to take back"


# -- Bad input --------------------------------------------------------------------------


@pytest.mark.parametrize(("line", "reason"), [
    ("1 6 6", "Ada rolls 2 dice here, but the line has 3"),
    ("7 1", "'7' is not a face of a die (1 to 6)"),
    ("six", "'six' is not a face of a die (1 to 6)"),
    ("3 5 > Bo", "in Aces in the Pot nothing is ever given by choice, so a roll names no"
                 " receivers, but this one names Bo"),
    ("redo", "'redo' is not a face of a die (1 to 6)"),
])
def test_a_bad_line_stops_a_script_and_keeps_every_roll_before_it(
    tmp_path: Path, line: str, reason: str
) -> None:
    log = tmp_path / "e1.jsonl"
    script = [*E1[:7], "# a comment", "", line, *E1[7:]]
    message = refused(run("record", str(log), *TABLE, stdin=typed(script)))
    assert message == f"<stdin>, line 10: {reason}"
    assert rolls_in(log) == 7
    recorded(log, E1[7:])
    assert log.read_bytes() == played(tmp_path, E1)


def test_a_line_that_is_not_utf8_stops_a_script_whatever_the_locale(tmp_path: Path) -> None:
    log = tmp_path / "e1.jsonl"
    script = typed(E1[:4]).encode() + b"1 \xff\n" + typed(E1[4:]).encode()
    message = refused(run("record", str(log), *TABLE, stdin=script))
    assert message == "<stdin>, line 5: the line is not UTF-8 text"
    assert rolls_in(log) == 4


def test_windows_line_ends_in_a_script_are_read_as_lines(tmp_path: Path) -> None:
    log = tmp_path / "e1.jsonl"
    recorded(log, [*E1[:5], "undo\r", *E1[4:]], *TABLE)
    events = walked(log)
    assert sum(type(e).__name__ == "RollUndone" for e in events) == 1
    assert events[-1].winner == "Bo"


def test_rolls_after_the_game_is_over_are_refused(tmp_path: Path) -> None:
    log = tmp_path / "e1.jsonl"
    message = refused(run("record", str(log), *TABLE, stdin=typed([*E1, "3 3"])))
    assert message.startswith("<stdin>, line 15: the game is over")
    assert log.read_bytes() == played(tmp_path, E1)


def test_a_new_log_needs_the_players_and_is_not_left_behind(tmp_path: Path) -> None:
    log = tmp_path / "new.jsonl"
    reason = refused(run("record", str(log), stdin="2\n"))
    assert "a new log needs the players: give them with --players" in reason
    assert not log.exists()


@pytest.mark.parametrize(("args", "reason"), [
    (("--players", "Ada"), "at least 2 players"),
    (("--players", "Ada,Bo", "--dice-each", "2"), "--dice-each is not an option of the game pot"),
    (("--players", "Ada,Bo,Cy", "--lang", "../../etc/passwd"), "unknown language"),
])
def test_bad_arguments_are_refused_before_the_log_is_touched(
    tmp_path: Path, args: tuple[str, ...], reason: str
) -> None:
    log = tmp_path / "new.jsonl"
    assert reason in refused(run("record", str(log), *args, stdin="2\n"))
    assert not log.exists()


def test_a_file_that_is_not_a_log_is_left_alone(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("shopping: dice, chips\n", encoding="utf-8")
    reason = refused(run("record", str(notes), *TABLE, stdin="2\n"))
    assert reason == f"{notes}, line 1: this line is not a JSON object"
    assert notes.read_text(encoding="utf-8") == "shopping: dice, chips\n"


def test_a_damaged_log_is_left_alone(tmp_path: Path) -> None:
    log = tmp_path / "e1.jsonl"
    recorded(log, E1[:6], *TABLE)
    damaged = log.read_bytes().replace(b'"dice":[3,5]', b'"dice":[3,4]')
    log.write_bytes(damaged)
    assert "the digest does not match" in refused(run("record", str(log), stdin="6 6\n"))
    assert log.read_bytes() == damaged


def test_a_schema_1_log_is_not_added_to(tmp_path: Path) -> None:
    log = tmp_path / "old.jsonl"
    old = (DATA / "schema1-three-players.jsonl").read_bytes()
    log.write_bytes(old)
    reason = refused(run("record", str(log), stdin="2\n"))
    assert reason == (f"{log} is written in schema 1 by an older aces, so nothing can be added"
                      " to it; record into a new file")
    assert log.read_bytes() == old


def test_a_folder_is_no_log(tmp_path: Path) -> None:
    result = run("record", str(tmp_path), *TABLE)
    assert result.exit_code == 2
    assert "it is a folder, not a file" in result.stderr


# -- Logs a crash left behind ------------------------------------------------------------


def test_a_line_cut_short_by_a_crash_is_dropped_and_the_roll_typed_again(
    tmp_path: Path,
) -> None:
    log = tmp_path / "e1.jsonl"
    recorded(log, E1[:6], *TABLE)
    whole = log.read_bytes()
    recorded(log, E1[6:7])
    lines = log.read_bytes()[len(whole):].splitlines(keepends=True)
    log.write_bytes(whole + lines[0][:25])
    result = recorded(log, E1[6:])
    assert (f"The last line of {log} (line {len(whole.splitlines()) + 1}) was cut short while"
            " it was written, so it is dropped; if it was a roll, type it again.") in result.stderr
    assert log.read_bytes() == played(tmp_path, E1)


def test_other_arguments_leave_a_torn_log_as_it_is(tmp_path: Path) -> None:
    log = tmp_path / "e1.jsonl"
    recorded(log, E1[:6], *TABLE)
    torn = log.read_bytes() + b'{"seq":12,"dig'
    log.write_bytes(torn)
    assert "holds an unfinished game" in refused(run("record", str(log), "--chips", "3"))
    assert log.read_bytes() == torn


def test_a_roll_written_without_all_it_settles_is_settled_on_resume(tmp_path: Path) -> None:
    log = tmp_path / "e1.jsonl"
    recorded(log, E1[:4], *TABLE)
    lines = log.read_bytes().splitlines(keepends=True)
    # Cy's 1-6: a chip to the pot, and one to Ada, which the crash lost.
    assert json.loads(lines[-1])["type"] == "chips_passed"
    log.write_bytes(b"".join(lines[:-1]))
    result = recorded(log, E1[4:])
    assert "was not written whole; the rest of what it settles is added now." in result.stderr
    assert "Cy passes 1 chip to Ada on the left." in result.stdout
    # The story so far, then the rest of the roll: told in the order it happened.
    told = result.output
    assert (told.index("Going on with game 1") < told.index("Cy puts 1 chip in the pot.")
            < told.index("was not written whole") < told.index("Cy passes 1 chip to Ada"))
    assert log.read_bytes() == played(tmp_path, E1)


def test_a_last_line_without_its_newline_gets_one_before_more_is_added(tmp_path: Path) -> None:
    log = tmp_path / "e1.jsonl"
    recorded(log, E1[:6], *TABLE)
    log.write_bytes(log.read_bytes().rstrip(b"\n"))
    recorded(log, E1[6:])
    assert log.read_bytes() == played(tmp_path, E1)


# -- One recorder at a time ---------------------------------------------------------------


def test_a_second_recorder_on_the_same_log_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "e1.jsonl"
    recorded(log, E1[:3], *TABLE)
    before = log.read_bytes()
    with log.open("rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        reason = refused(run("record", str(log), stdin="1 6\n"))
    assert reason == (f"{log} is being recorded by another aces record; only one may write to"
                      " a log at a time")
    assert log.read_bytes() == before


def test_a_recorder_refused_the_lock_leaves_the_file_it_made_to_the_one_that_holds_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Two recorders start on a new log at once: this one makes the file, the
    # other opens it and locks it first, and may be writing to it already.
    log = tmp_path / "new.jsonl"
    module = importlib.import_module("aces.logstore")

    def beaten(path: str, fd: int) -> None:
        raise AcesError("locked")

    monkeypatch.setattr(module.LogStore, "_lock", staticmethod(beaten))
    assert refused(run("record", str(log), *TABLE, stdin="2\n")) == "locked"
    assert log.exists()


def test_a_recorder_that_locks_a_file_just_removed_records_into_the_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Between opening the log and locking it, another recorder that made the
    # file gave it up empty and removed it.
    log = tmp_path / "e1.jsonl"
    log.touch()
    module = importlib.import_module("aces.logstore")
    lock = module.LogStore._lock
    calls = []

    def late(path: str, fd: int) -> None:
        calls.append(path)
        if len(calls) == 1:
            Path(path).unlink()
        lock(path, fd)

    monkeypatch.setattr(module.LogStore, "_lock", staticmethod(late))
    recorded(log, E1, *TABLE)
    assert len(calls) == 2
    assert log.read_bytes() == played(tmp_path, E1)


def test_two_recorders_at_once_one_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "e1.jsonl"
    env = {**os.environ, "LANG": "C", "LANGUAGE": ""}
    first = subprocess.Popen([aces(), "record", str(log), *TABLE], stdin=subprocess.PIPE,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    try:
        assert first.stdin is not None
        first.stdin.write(b"2\n")
        first.stdin.flush()
        wait_for(lambda: rolls_in(log) == 1 if log.exists() and log.stat().st_size else False)
        second = subprocess.run([aces(), "record", str(log)], input=b"3\n", env=env,
                                capture_output=True, check=False)
        assert second.returncode == 2
        assert second.stderr.decode().endswith("only one may write to a log at a time\n")
        first.stdin.write(typed(E1[1:]).encode())
        first.stdin.close()
        assert first.wait(timeout=30) == 0
    finally:
        with contextlib.suppress(ProcessLookupError):
            first.kill()
        first.wait(timeout=30)
        if first.stderr is not None:
            first.stderr.close()
    assert log.read_bytes() == played(tmp_path, E1)


# -- Crashes ------------------------------------------------------------------------------


def settled_rolls(log: Path) -> int:
    """Rolls in the log, once it reads as a sound game still being recorded."""
    if not log.exists() or not log.stat().st_size:
        return 0
    try:
        events = walked(log, allow_unfinished=True)
    except AcesError:
        # Read while it is being written.
        return -1
    return sum(type(e).__name__ == "Rolled" for e in events)


@pytest.mark.parametrize(("done", "racing"), [(0, True), (3, False), (7, True), (13, False)])
def test_a_recorder_killed_between_rolls_keeps_every_roll_it_took(
    tmp_path: Path, done: int, racing: bool
) -> None:
    log = tmp_path / "e1.jsonl"
    env = {**os.environ, "LANG": "C", "LANGUAGE": ""}
    process = subprocess.Popen([aces(), "record", str(log), *TABLE], stdin=subprocess.PIPE,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    try:
        assert process.stdin is not None
        for count, roll in enumerate(E1[:done], start=1):
            process.stdin.write(f"{roll}\n".encode())
            process.stdin.flush()
            wait_for(lambda count=count: settled_rolls(log) == count)  # type: ignore[misc]
        if racing:
            # The next roll may or may not be in when the kill comes.
            process.stdin.write(f"{E1[done]}\n".encode())
            process.stdin.flush()
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
        if process.stdin is not None:
            with contextlib.suppress(BrokenPipeError):
                process.stdin.close()
    kept = settled_rolls(log)
    assert kept in ((done, done + 1) if racing else (done,))
    recorded(log, E1[kept:], *TABLE)
    assert log.read_bytes() == played(tmp_path, E1)


# -- At a terminal ---------------------------------------------------------------------------


class Terminal:
    """``aces record`` at a pseudo-terminal, typed at like a person would."""

    def __init__(self, *args: str, env: dict[str, str]) -> None:
        self.master, slave = os.openpty()
        self.process = subprocess.Popen([aces(), "record", *args], stdin=slave, stdout=slave,
                                        stderr=slave, env=env)
        os.close(slave)
        self.seen = b""

    def expect(self, text: str, timeout: float = 20) -> None:
        wanted = text.encode()
        deadline = time.monotonic() + timeout
        while wanted not in self.seen:
            left = deadline - time.monotonic()
            assert left > 0, f"never saw {text!r} in {self.seen.decode(errors='replace')}"
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:
                    chunk = b""
                assert chunk, f"ended before {text!r}: {self.seen.decode(errors='replace')}"
                self.seen += chunk

    def type(self, line: str) -> None:
        os.write(self.master, line.encode())

    def close(self) -> int:
        with contextlib.suppress(ProcessLookupError):
            code = self.process.wait(timeout=30)
        os.close(self.master)
        return code


@contextlib.contextmanager
def terminal(*args: str, lang: str = "C") -> Iterator[Terminal]:
    env = {**os.environ, "LANG": lang, "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""}
    at = Terminal(*args, env=env)
    try:
        yield at
    finally:
        with contextlib.suppress(ProcessLookupError):
            at.process.kill()
        at.process.wait(timeout=30)


def test_at_a_terminal_it_asks_for_each_roll_and_asks_again_after_a_typo(
    tmp_path: Path,
) -> None:
    log = tmp_path / "e1.jsonl"
    with terminal(str(log), *TABLE) as at:
        at.expect("Type the dice of each roll as they fall")
        for roll in E1[:3]:
            at.expect("for the opening: ")
            at.type(f"{roll}\n")
        at.expect("Cy rolls 2 dice: ")
        at.type("1 6 6\n")
        at.expect("Cy rolls 2 dice here, but the line has 3")
        at.expect("Cy rolls 2 dice: ")
        at.type("1 6\n")
        at.expect("Cy passes 1 chip to Ada on the left.")
        at.expect("Ada rolls 2 dice: ")
        at.type("4 4\n")
        at.expect("Bo rolls 2 dice: ")
        at.type("undo\n")
        at.expect("Correction: Ada's roll of 4-4 is taken back")
        at.expect("Ada rolls 2 dice: ")
        for roll in E1[4:]:
            at.type(f"{roll}\n")
        at.expect("Bo wins the pot of 5 chips.")
        at.expect("Type undo to take back the last roll, or press Enter to stop: ")
        at.type("\n")
        assert at.process.wait(timeout=30) == 0
    assert walked(log)[-1].winner == "Bo"


def test_at_a_terminal_it_speaks_norwegian_and_ctrl_d_stops_it(tmp_path: Path) -> None:
    log = tmp_path / "e1.jsonl"
    with terminal(str(log), *TABLE, lang="nb_NO.UTF-8") as at:
        at.expect("Ada kaster én terning (åpningskast): ")
        at.type("2\n")
        at.expect("Bo kaster én terning (åpningskast): ")
        at.type("\x04")
        at.expect("Stoppet.")
        assert at.process.wait(timeout=30) == 0
    assert rolls_in(log) == 1


def test_ctrl_c_stops_it_and_loses_nothing(tmp_path: Path) -> None:
    log = tmp_path / "e1.jsonl"
    with terminal(str(log), *TABLE) as at:
        for roll in E1[:5]:
            at.expect(": ")
            at.type(f"{roll}\n")
            at.seen = b""
        at.expect("Bo rolls 2 dice: ")
        at.process.send_signal(signal.SIGINT)
        at.expect("Stopped. Every roll typed is saved in")
        assert at.process.wait(timeout=30) == 130
    assert rolls_in(log) == 5
    recorded(log, E1[5:])
    assert log.read_bytes() == played(tmp_path, E1)


@pytest.mark.parametrize("word", ["quit", "QUIT", "avslutt", "Avslutt  # time for dinner"])
def test_quit_stops_as_ctrl_d_does_and_keeps_every_roll(tmp_path: Path, word: str) -> None:
    log = tmp_path / "e1.jsonl"
    result = run("record", str(log), *TABLE, stdin=typed([*E1[:5], word, *E1[5:]]))
    assert result.exit_code == 0, result.output
    assert f"Stopped. Every roll typed is saved in {log}" in result.stderr
    assert rolls_in(log) == 5
    recorded(log, E1[5:])
    assert log.read_bytes() == played(tmp_path, E1)


@pytest.mark.parametrize("word", ["?", "help", "hjelp", "HELP"])
def test_help_says_what_can_be_typed_and_the_game_goes_on(tmp_path: Path, word: str) -> None:
    log = tmp_path / "e1.jsonl"
    result = recorded(log, [*E1[:4], word, *E1[4:]], *TABLE)
    assert "1-6, 16, 1 6 or 1,6" in result.stderr
    assert "undo (or angre): take back the last roll" in result.stderr
    assert f"quit (or avslutt), or Ctrl-D: stop; every roll typed is saved in {log}" in (
        result.stderr)
    assert "after '>'" not in result.stderr
    assert log.read_bytes() == played(tmp_path, E1)


def test_help_in_the_five_dice_game_with_threes_says_how_to_name_receivers(
    tmp_path: Path,
) -> None:
    log = tmp_path / "threes.jsonl"
    result = run("record", str(log), *TABLE, "--game", "five-dice", "--dice-each", "2",
                 "--threes", "--lang", "nb", stdin="hjelp\n")
    assert result.exit_code == 0, result.output
    assert "31425, 3-1-4-2-5, 3 1 4 2 5 eller 3,1,4,2,5" in result.stderr
    assert "3 6 3 > Bo Cy; begynnelsen av navnet holder" in result.stderr
    assert "angre (eller undo): ta tilbake det siste kastet" in result.stderr


def test_at_a_terminal_help_and_quit_speak_norwegian(tmp_path: Path) -> None:
    log = tmp_path / "e1.jsonl"
    with terminal(str(log), *TABLE, lang="nb_NO.UTF-8") as at:
        at.expect("«?» viser hva mer du kan skrive")
        at.expect("Ada kaster én terning (åpningskast): ")
        at.type("2\n")
        at.expect("Bo kaster én terning (åpningskast): ")
        at.type("hjelp\n")
        at.expect("1-6, 16, 1 6 eller 1,6")
        at.expect("Bo kaster én terning (åpningskast): ")
        at.type("3\n")
        at.expect("Cy kaster én terning (åpningskast): ")
        at.type("5\n")
        # A small count in words, as the narration writes it.
        at.expect("Cy kaster to terninger: ")
        at.type("avslutt\n")
        at.expect("Stoppet. Alle kast som er skrevet inn, er lagret i")
        assert at.process.wait(timeout=30) == 0
    assert rolls_in(log) == 3


def test_the_log_must_be_a_file_not_standard_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """'-' would make a file named '-' or mix the log with the rolls."""
    monkeypatch.chdir(tmp_path)
    result = CliRunner(env=ENGLISH).invoke(cli, ["record", "-", "--players", "3"],
                                           input="2\n")
    assert result.exit_code == 2
    assert "not '-'" in result.stderr
    assert not (tmp_path / "-").exists()
