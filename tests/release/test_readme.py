"""The README as a newcomer reads it: what aces is, the two commands, then the
release; and every example in it run as written, after a plain install of the
wheel in a new environment, in a folder outside the checkout."""

from __future__ import annotations

import queue
import re
import shlex
import signal
import subprocess
import sys
import threading
import typing as t

import pytest
from markdown_it import MarkdownIt

from clitest import run
from installs import DISTRIBUTION, ROOT

if t.TYPE_CHECKING:
    from pathlib import Path

    from installs import Venv

README: t.Final = ROOT / "README.md"


class Block(t.NamedTuple):
    """A fenced block of the README: its language, its text, the heading above it."""

    lang: str
    text: str
    heading: str


def blocks() -> list[Block]:
    found: list[Block] = []
    heading = ""
    tokens = MarkdownIt().parse(README.read_text(encoding="utf-8"))
    for number, token in enumerate(tokens):
        if token.type == "heading_open":
            heading = tokens[number + 1].content
        elif token.type == "fence":
            found.append(Block(token.info.strip(), token.content, heading))
    return found


def test_the_first_screen_says_what_aces_is_in_three_lines_then_the_two_commands() -> None:
    text = README.read_text(encoding="utf-8")
    before = text[:text.index("```")].strip().splitlines()
    assert before[0] == "# aces"
    said = [line for line in before[1:] if line.strip()]
    assert len(said) == 3, said
    for reader in ("teachers", "pupils", "writers"):
        assert reader in " ".join(said)
    first = blocks()[0]
    assert first.lang == "sh"
    assert first.text.splitlines() == [
        "python3 -m venv .venv && .venv/bin/pip install -q -e . &&"
        " .venv/bin/aces replay replays/three-players.jsonl --lang nb",
        "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && .venv/bin/pytest"]
    # Then the release, before anything else.
    assert blocks()[1].heading == "Installing the release"


def test_the_second_command_is_what_ci_runs() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1] == blocks()[0].text.splitlines()[1]


def test_the_first_command_narrates_a_game_in_norwegian(monkeypatch: pytest.MonkeyPatch) -> None:
    # The install is the suite's own; the command after it runs here as written.
    *_, replay = blocks()[0].text.splitlines()[0].split(" && ")
    args = shlex.split(replay)
    assert args[0] == ".venv/bin/aces"
    monkeypatch.chdir(ROOT)
    result = run(*args[1:])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Ess i potten, parti 1: Ada, Bo og Cy har to sjetonger hver.")


def test_the_release_installs_by_its_own_name() -> None:
    first = blocks()[1].text.splitlines()[0]
    assert first == f"python3 -m pip install {DISTRIBUTION}"


def _user_blocks() -> list[Block]:
    """The examples a user runs: all but the checkout's two commands."""
    return [block for block in blocks()[1:] if block.lang in ("sh", "python")]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One folder outside the checkout for every example, in order: a later
    one may read what an earlier one wrote (game.jsonl)."""
    return tmp_path_factory.mktemp("reader")


#: Installing the release, or the release with an extra: python3 -m pip install 'aces-dice[class]'.
INSTALL: t.Final = re.compile(rf"^python3 -m pip install '?{DISTRIBUTION}(\[[a-z,]+\])?'?$")


@pytest.mark.parametrize("block", _user_blocks(), ids=lambda block: f"{block.heading}-{block.lang}")
def test_every_example_runs_as_written_after_a_plain_install(block: Block, installed: Venv,
                                                             folder: Path, wheel: Path) -> None:
    if block.lang == "python":
        done = installed.run(installed.python, "-c", block.text, cwd=folder, stdin="")
        assert done.returncode == 0, f"{block.heading}:\n{done.stdout}\n{done.stderr}"
        return
    commands: list[str] = []
    for line in block.text.splitlines():
        found = INSTALL.match(line)
        if found is not None:
            # The wheel stands for the release, installed by its file, with the extra asked for.
            install(installed, f"{wheel}{found[1] or ''}")
        elif line.startswith("aces class serve "):
            served(installed, line, folder)
        else:
            commands.append(line)
    text = "\n".join(commands)
    done = installed.run("bash", "-e", "-o", "pipefail", "-c", text, cwd=folder, stdin="")
    assert done.returncode == 0, f"{block.heading}:\n{text}\n{done.stdout}\n{done.stderr}"
    assert "Traceback" not in done.stderr


def install(venv: Venv, requirement: str) -> None:
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(venv.python), "install",
                           "--quiet", "--disable-pip-version-check", requirement],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def served(venv: Venv, line: str, folder: Path) -> None:
    """A command that serves until Ctrl-C, run as written but on a free port of
    this machine alone (never the network's, nor a port a test might share),
    and stopped with Ctrl-C once it has said where the pupils go."""
    args = [*shlex.split(line), "--host", "127.0.0.1", "--port", "0"]
    # Unbuffered: the address is read as it is said, as a terminal shows it.
    env = {**venv.env(), "PYTHONUNBUFFERED": "1"}
    # Its errors go to a file: communicate() would read standard output too,
    # racing the reader below for the lines said after Ctrl-C.
    errors = folder / "served-stderr.txt"
    with errors.open("w", encoding="utf-8") as error_file, subprocess.Popen(
            args, cwd=folder, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=error_file, text=True) as server:
        lines: queue.Queue[str | None] = queue.Queue()

        def read() -> None:
            assert server.stdout is not None
            for said_line in server.stdout:
                lines.put(said_line)
            lines.put(None)

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        said: list[str] = []
        try:
            while not any("http://127.0.0.1:" in said_line for said_line in said):
                got = lines.get(timeout=120)
                if got is None:
                    break
                said.append(got)
        finally:
            server.send_signal(signal.SIGINT)
            try:
                server.wait(timeout=60)
            except subprocess.TimeoutExpired:
                # A server that runs on after Ctrl-C fails here, not hangs the run.
                server.kill()
                raise
            reader.join(timeout=10)
    while not lines.empty():
        said.append(lines.get() or "")
    text = "".join(said)
    err = errors.read_text(encoding="utf-8")
    assert "http://127.0.0.1:" in text, text + err
    # Ctrl-C ends it as it says it does: one line naming the class's folder, no traceback.
    assert server.returncode in (0, 130), err
    assert "lesson-3" in text.rsplit("http://127.0.0.1:", 1)[1], text
    assert "Traceback" not in err
