"""``aces replay``: languages, standard input, --step, and logs that go wrong."""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import sys
import typing as t
from pathlib import Path

import pytest

from clitest import E1_DICE as E1
from clitest import NO_LOCALE, resigned, run


def test_replay_in_english_by_default(e1_log: Path) -> None:
    result = run("replay", str(e1_log))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "Cy rolls highest with 5 and starts." in lines
    assert lines[-1] == "Bo wins the pot of 5 chips."
    assert result.stderr == ""


def test_replay_in_norwegian(e1_log: Path) -> None:
    result = run("replay", str(e1_log), "--lang", "nb")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "Cy kaster høyest med 5 og begynner." in lines
    assert lines[-1] == "Bo vinner potten på fem sjetonger."


def test_the_three_player_example_in_nynorsk() -> None:
    log = Path(__file__).resolve().parents[2] / "replays" / "three-players.jsonl"
    result = run("replay", str(log), "--lang", "nn")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    in_order = ["Ess i potten, parti 1: Ada, Bo og Cy har to sjetongar kvar.",
                "Sluttspelet byrjar når berre éin sjetong er att i spel.",
                "Alle kastar éin terning, og den som kastar høgast, byrjar.",
                "Ada og Bo står likt med 4 og kastar på nytt.",
                "Ada kastar høgast med 4 og byrjar.",
                "Ada legg éin sjetong i potten.",
                "Stillinga: Ada 1, Bo 2 og Cy 2; i potten: 1.",
                "Cy sender éin sjetong til venstre, til Ada.",
                "Berre éin sjetong er att i spel, og det er Ada som har han. Sluttspelet byrjar.",
                "Ada får eit forsøk og må klare tre kast utan seksar for å vinne potten.",
                "Ada kastar 1-5 (kast 1 av 3 i forsøket); esset tel ikkje.",
                "Forsøket er over: kast 2 gav to seksarar.",
                "Forsøket er over: kast 2 gav ein seksar.",
                "Tre kast utan seksar: Cy klarte det!"]
    positions = [lines.index(line) for line in in_order]
    assert positions == sorted(positions)
    assert lines[-1] == "Cy vinn potten på fem sjetongar."


@pytest.mark.parametrize("env", [{"LANG": "nn_NO.UTF-8"}, {"LANGUAGE": "nn"},
                                 {"LC_ALL": "nn_NO.UTF-8", "LANG": "nb_NO.UTF-8"}])
def test_the_locale_chooses_nynorsk(e1_log: Path, env: dict[str, str | None]) -> None:
    result = run("replay", str(e1_log), env=env)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == "Bo vinn potten på fem sjetongar."


@pytest.mark.parametrize("env", [{"LANG": "nb_NO.UTF-8"}, {"LANGUAGE": "no"},
                                 {"LC_ALL": "nb_NO.UTF-8", "LANG": "en_US.UTF-8"}])
def test_the_locale_chooses_norwegian(e1_log: Path, env: dict[str, str | None]) -> None:
    result = run("replay", str(e1_log), env=env)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == "Bo vinner potten på fem sjetonger."


def test_lang_wins_over_the_locale(e1_log: Path) -> None:
    result = run("replay", str(e1_log), "--lang", "en", env={"LANG": "nb_NO.UTF-8"})
    assert result.stdout.splitlines()[-1] == "Bo wins the pot of 5 chips."


def test_an_unknown_language_is_refused_with_the_list(e1_log: Path) -> None:
    result = run("replay", str(e1_log), "--lang", "klingon")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == "aces: unknown language 'klingon'; the languages are: en, nb, nn\n"


def test_the_log_can_come_from_standard_input(e1_log: Path) -> None:
    result = run("replay", "-", "--lang", "nb", input=e1_log.read_bytes())
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == "Bo vinner potten på fem sjetonger."


def test_play_piped_into_replay() -> None:
    played = run("play", "--seed", "3", "--players", "Ada,Bo,Cy")
    assert played.exit_code == 0
    result = run("replay", "-", "--lang", "nb", input=played.stdout_bytes)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Ess i potten, parti 1: Ada, Bo og Cy har to sjetonger hver.\n")
    assert "vinner potten på" in result.stdout.splitlines()[-1]


def test_a_real_pipeline_of_the_installed_command(tmp_path: Path) -> None:
    aces = shutil.which("aces", path=str(Path(sys.executable).parent))
    assert aces is not None
    env = {k: v for k, v in os.environ.items() if k not in NO_LOCALE}
    result = subprocess.run(f"'{aces}' play --players Ada,Bo,Cy --seed 3 | '{aces}' replay -"
                            " --lang nb", shell=True, capture_output=True, text=True,
                            check=False, cwd=tmp_path, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0].startswith("Ess i potten, parti 1")


def test_a_session_ends_with_its_tally() -> None:
    played = run("play", "--seed", "5", "--players", "Ada,Bo,Cy", "--games", "3")
    result = run("replay", "-", input=played.stdout_bytes)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    tallies = [line for line in lines if line.startswith("Pots won after")]
    assert [line.split(":")[0] for line in tallies] == ["Pots won after 2 games",
                                                         "Pots won after 3 games"]
    assert "of 3." in lines[-1] or "share the most pots" in lines[-1]


# -- --step ---------------------------------------------------------------------


def test_step_waits_for_enter_before_each_roll(e1_log: Path) -> None:
    rolls = len(E1.splitlines())
    result = run("replay", str(e1_log), "--step", input="\n" * rolls)
    assert result.exit_code == 0, result.output
    assert result.stderr.count("Press Enter for the next roll, or q to stop...") == rolls
    assert result.stdout.splitlines()[-1] == "Bo wins the pot of 5 chips."


def test_step_prompts_in_the_chosen_language(e1_log: Path) -> None:
    result = run("replay", str(e1_log), "--step", "--lang", "nb", input="\n" * 3)
    assert result.exit_code == 0, result.output
    # Three answers, then the end of input: three prompts answered, one
    # more that finds nothing, and the rest told without waiting.
    assert result.stderr.count("Trykk Enter for neste kast") == 4
    assert result.stdout.splitlines()[-1] == "Bo vinner potten på fem sjetonger."


def _read_lines(stream: t.IO[bytes], count: int, timeout: float = 20) -> list[str]:
    """``count`` lines from a pipe, failing if they do not come in time."""
    data = b""
    while data.count(b"\n") < count:
        ready, _, _ = select.select([stream], [], [], timeout)
        assert ready, f"waited in vain after {data!r}"
        chunk = os.read(stream.fileno(), 4096)
        assert chunk, f"the output ended early: {data!r}"
        data += chunk
    return data.decode().splitlines()


def test_step_shows_what_is_told_before_it_waits(e1_log: Path, tmp_path: Path) -> None:
    # A real process whose standard output is a pipe, buffered as usual:
    # what is told must reach the reader before each prompt.
    aces = shutil.which("aces", path=str(Path(sys.executable).parent))
    assert aces is not None
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    with subprocess.Popen([aces, "replay", str(e1_log), "--step", "--lang", "en"],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, cwd=tmp_path, env=env,
                          bufsize=0) as process:
        assert process.stdout is not None
        assert process.stdin is not None
        header = _read_lines(process.stdout, 3)
        assert header[0].startswith("Aces in the Pot, game 1")
        process.stdin.write(b"\n")
        assert _read_lines(process.stdout, 1) == ["Ada rolls 2."]
        process.stdin.close()
        process.stdout.read()
        assert process.wait(timeout=30) == 0


@pytest.mark.parametrize("word", ["q", "Q", "quit", "avslutt"])
def test_step_ends_the_replay_at_q(e1_log: Path, word: str) -> None:
    result = run("replay", str(e1_log), "--step", input=f"\n\n{word}\n\n\n")
    assert result.exit_code == 0, result.output
    assert result.stderr.count("Press Enter") == 3
    told = result.stdout.splitlines()
    assert told[-1] == "Bo rolls 3."
    assert "Bo wins the pot of 5 chips." not in told


def aces_process(*args: str, **kwargs: t.Any) -> subprocess.Popen[bytes]:
    env = {**os.environ, "LANG": "C", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""}
    return subprocess.Popen([sys.executable, "-m", "aces", *args], env=env, **kwargs)


def read_until(master: int, wanted: bytes, seen: bytearray, timeout: float = 30) -> None:
    """Read the terminal until ``wanted`` has appeared in ``seen``."""
    import time

    deadline = time.monotonic() + timeout
    while wanted not in seen:
        left = deadline - time.monotonic()
        assert left > 0, f"never saw {wanted!r} in {bytes(seen)!r}"
        ready, _, _ = select.select([master], [], [], left)
        if ready:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                chunk = b""
            assert chunk, f"ended before {wanted!r}: {bytes(seen)!r}"
            seen += chunk


ERASE: t.Final = b"\x1b[1A\r\x1b[2K"


def test_step_on_a_terminal_erases_the_prompt_once_answered(e1_log: Path) -> None:
    import pty

    master, slave = pty.openpty()
    process = aces_process("replay", str(e1_log), "--step", stdin=slave, stdout=slave,
                           stderr=slave)
    os.close(slave)
    seen = bytearray()
    try:
        read_until(master, b"or q to stop...", seen)
        os.write(master, b"\n")
        read_until(master, b"Ada rolls 2.", seen)
        after = bytes(seen).split(b"or q to stop...", 1)[1]
        # The answer's line break, then the prompt's line erased before the story goes on.
        assert ERASE in after
        assert after.index(ERASE) < after.index(b"Ada rolls 2.")
        read_until(master, b"or q to stop...", seen)
        os.write(master, b"q\n")
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(master)


def _controlling(slave: int) -> t.Callable[[], None]:
    def become() -> None:
        import fcntl
        import termios

        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
    return become


def test_step_with_the_log_on_standard_input_reads_enter_from_the_terminal(
    e1_log: Path,
) -> None:
    import pty

    master, slave = pty.openpty()
    process = aces_process("replay", "-", "--step", stdin=subprocess.PIPE, stdout=slave,
                           stderr=slave, preexec_fn=_controlling(slave))
    os.close(slave)
    assert process.stdin is not None
    process.stdin.write(e1_log.read_bytes())
    process.stdin.close()
    seen = bytearray()
    try:
        read_until(master, b"or q to stop...", seen)
        os.write(master, b"\n")
        read_until(master, b"Ada rolls 2.", seen)
        read_until(master, b"or q to stop...", seen)
        os.write(master, b"avslutt\n")
        assert process.wait(timeout=30) == 0
        assert b"wins the pot" not in seen
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(master)


def test_step_with_the_log_on_standard_input_and_no_terminal_is_refused(e1_log: Path) -> None:
    # A new session has no controlling terminal, as under cron or in CI.
    process = aces_process("replay", "-", "--step", stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           start_new_session=True)
    out, err = process.communicate(e1_log.read_bytes(), timeout=60)
    assert process.returncode == 2
    assert out == b""
    assert err.decode() == ("aces: --step waits for Enter at a terminal, and there is none"
                            " here: the log comes from standard input, so give its file name"
                            " or leave out --step\n")


# -- Logs that go wrong -----------------------------------------------------------


def test_a_changed_line_is_told_up_to_the_line_before(e1_log: Path, tmp_path: Path) -> None:
    lines = e1_log.read_bytes().splitlines(keepends=True)
    lines[12] = lines[12].replace(b'"count":2', b'"count":1')
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"".join(lines))
    result = run("replay", str(bad))
    assert result.exit_code != 0
    assert result.stdout.splitlines()[-1] == "Cy rolls 1-1."
    assert result.stderr.startswith(f"aces: {bad}, line 13: the digest does not match")


def test_a_corrupted_log_is_told_up_to_the_bad_line(e1_log: Path, tmp_path: Path) -> None:
    lines = e1_log.read_bytes().splitlines(keepends=True)
    # Line 13 settles Cy's 1-1: two chips to the pot. Claim one instead, and
    # make the digests fit again, so that only the rules can tell.
    assert lines[12].startswith(b'{"seq":13,"digest":"')
    assert lines[12].endswith(b'"type":"chips_to_pot","player":"Cy","count":2}\n')
    lines[12] = lines[12].replace(b'"count":2', b'"count":1')
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(resigned(b"".join(lines)))
    result = run("replay", str(bad), "--lang", "nb")
    assert result.exit_code != 0
    told = result.stdout.splitlines()
    # Everything up to Cy's roll is told; nothing of the bad line or after.
    assert told[-2:] == ["Stillingen: Ada 3, Bo 0 og Cy 2; i potten: 1.", "Cy kaster 1-1."]
    assert not any("legger" in line for line in told[-2:])
    error = result.stderr.splitlines()
    assert len(error) == 1
    assert error[0].startswith(f"aces: {bad}, linje 13: reglene gir ")
    assert "Traceback" not in result.output


def test_the_story_reaches_the_reader_before_the_error(e1_log: Path, tmp_path: Path) -> None:
    # Standard output and standard error into one pipe, stdout buffered as
    # usual: the narration must come out first, then the error, last.
    lines = e1_log.read_bytes().splitlines(keepends=True)
    lines[12] = lines[12].replace(b'"count":2', b'"count":1')
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(resigned(b"".join(lines)))
    aces = shutil.which("aces", path=str(Path(sys.executable).parent))
    assert aces is not None
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    result = subprocess.run([aces, "replay", str(bad), "--lang", "en"], env=env, cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            check=False)
    assert result.returncode != 0
    told = result.stdout.splitlines()
    assert told[-2] == "Cy rolls 1-1."
    assert told[-1].startswith(f"aces: {bad}, line 13: the rules give ")


def test_a_log_cut_short_is_told_up_to_the_cut(e1_log: Path, tmp_path: Path) -> None:
    data = e1_log.read_bytes()
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(data[: data.index(b'"type":"chips_passed"')])
    result = run("replay", str(cut))
    assert result.exit_code != 0
    assert result.stdout.splitlines()[-1] == "Cy puts 1 chip in the pot."
    assert "the log was cut short" in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_an_empty_log_is_refused(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    result = run("replay", str(empty), "--lang", "nb")
    assert result.exit_code != 0
    assert result.stdout == ""
    assert result.stderr == f"aces: {empty} er tom: den har ingen hendelser\n"


def test_an_empty_standard_input_is_refused() -> None:
    result = run("replay", "-", input=b"")
    assert result.exit_code != 0
    assert result.stderr == "aces: <stdin> is empty: it holds no events\n"


def test_a_missing_file_is_one_line(tmp_path: Path) -> None:
    result = run("replay", str(tmp_path / "nowhere.jsonl"))
    assert result.exit_code != 0
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith("aces: cannot read ")


# -- Aces, the five-dice game --------------------------------------------------------

#: Worked example E3 of the rulings, one die each, as typed at the table.
E3: t.Final = "5\n2\n1\n3\n4\n2\n5 1\n2\n3 1\n6\n1\n"


@pytest.fixture
def e3_log(tmp_path: Path) -> Path:
    dice = tmp_path / "e3.dice"
    dice.write_text(E3, encoding="utf-8")
    log = tmp_path / "e3.jsonl"
    result = run("play", "--game", "five-dice", "--players", "Ada,Bo,Cy", "--dice-each", "1",
                 "--dice-file", str(dice), "-o", str(log))
    assert result.exit_code == 0, result.output
    return log


@pytest.mark.parametrize(("lang", "first", "key", "last"), [
    ("en", "Aces, game 1: Ada, Bo, and Cy have 1 die each.",
     ["Ada rolls highest with 5 and starts.",
      "Cy passes 1 die to Ada on the left.",
      "Ada puts 1 die in the centre.",
      "Ada passes 1 die to Cy on the right.",
      "Cy rolls again with 1 die.",
      "Ada holds no dice and misses the turn.",
      "Bo holds no dice and misses the turn."],
     "All the dice are in the centre: Cy loses, and Ada and Bo win."),
    ("nb", "Femterningspillet, parti 1: Ada, Bo og Cy har én terning hver.",
     ["Ada kaster høyest med 5 og begynner.",
      "Cy sender én terning til venstre, til Ada.",
      "Ada legger én terning i midten.",
      "Ada sender én terning til høyre, til Cy.",
      "Cy kaster igjen med én terning.",
      "Ada har ingen terninger og står over.",
      "Bo har ingen terninger og står over."],
     "Nå ligger alle terningene i midten: Cy taper, og Ada og Bo vinner."),
    ("nn", "Femterningspelet, parti 1: Ada, Bo og Cy har éin terning kvar.",
     ["Ada kastar høgast med 5 og byrjar.",
      "Cy sender éin terning til venstre, til Ada.",
      "Ada legg éin terning i midten.",
      "Ada sender éin terning til høgre, til Cy.",
      "Cy kastar igjen med éin terning.",
      "Ada har ingen terningar og står over.",
      "Bo har ingen terningar og står over."],
     "No ligg alle terningane i midten: Cy tapar, og Ada og Bo vinn."),
])
def test_replay_tells_e3(e3_log: Path, lang: str, first: str, key: list[str],
                         last: str) -> None:
    result = run("replay", str(e3_log), "--lang", lang)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert (lines[0], lines[-1]) == (first, last)
    positions = [lines.index(line) for line in key]
    assert positions == sorted(positions)


@pytest.mark.parametrize("seed", [4, 9])
def test_a_five_dice_session_ends_with_its_tally_of_losses(seed: int) -> None:
    played = run("play", "--game", "five-dice", "--players", "3", "--games", "3",
                 "--seed", str(seed))
    assert played.exit_code == 0, played.output
    header = json.loads(played.stdout.splitlines()[0])
    losers = [json.loads(line)["loser"] for line in played.stdout.splitlines()
              if '"game_over"' in line]
    assert len(losers) == 3
    lost = {name: losers.count(name) for name in header["players"]}
    result = run("replay", "-", input=played.stdout_bytes)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    entries = ", ".join(f"{name} {count}" for name, count in list(lost.items())[:-1])
    name, count = list(lost.items())[-1]
    assert lines[-2] == f"Losses after 3 games: {entries}, and {name} {count}."
    worst = max(lost.values())
    most = [name for name, count in lost.items() if count == worst]
    if len(most) == 1:
        assert lines[-1] == f"{most[0]} lost the most games: {worst} of 3."
    else:
        assert lines[-1].endswith(f"lost the most games, {worst} game each.")
    norwegian = run("replay", "-", "--lang", "nb", input=played.stdout_bytes)
    assert norwegian.stdout.splitlines()[-2].startswith("Tap etter tre partier: ")
    nynorsk = run("replay", "-", "--lang", "nn", input=played.stdout_bytes)
    assert nynorsk.stdout.splitlines()[-2].startswith("Tap etter tre parti: ")


# -- A reader that goes away ----------------------------------------------------------

def test_a_closed_pipe_ends_the_replay_quietly(tmp_path: Path) -> None:
    # "aces replay big.jsonl | head -1": the narration is far longer than a
    # pipe holds, so the replay is still writing when the reader leaves.
    log = tmp_path / "big.jsonl"
    made = run("play", "--players", "4", "--games", "150", "--seed", "1", "-o", str(log))
    assert made.exit_code == 0, made.output
    aces = shutil.which("aces", path=str(Path(sys.executable).parent))
    assert aces is not None
    env = {k: v for k, v in os.environ.items() if k not in NO_LOCALE}
    with subprocess.Popen([aces, "replay", str(log), "--lang", "en"], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, cwd=tmp_path, env=env) as process:
        assert process.stdout is not None
        assert process.stderr is not None
        assert process.stdout.readline().startswith(b"Aces in the Pot, game 1")
        process.stdout.close()
        errors = process.stderr.read()
        assert process.wait(timeout=60) == 0
    assert errors == b""
