"""``aces verify``: a summary for a sound log, the first bad line otherwise.

The summary's wording belongs to :mod:`aces.summary` and its catalogs;
these tests hold only what must not change: the exit status, the counts,
the names and, for a bad log, the line and the reason.
"""

from __future__ import annotations

import typing as t

import pytest
from click.testing import CliRunner

from aces.cli import cli

from clitest import ENGLISH, resigned

if t.TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from click.testing import Result

E1_DICE: t.Final = "2\n3\n5\n1 6\n3 5\n6 6\n1 1\n1 6\n1 4\n2 5\n6 6\n1 1\n3 4\n5 2\n"


def invoke(*args: str, stdin: str | bytes | None = None) -> Result:
    return CliRunner(env=ENGLISH).invoke(cli, list(args), input=stdin)


def played(*args: str, stdin: str | None = None) -> bytes:
    result = invoke("play", *args, stdin=stdin)
    assert result.exit_code == 0, result.output
    return result.stdout_bytes


def e1() -> bytes:
    return played("--players", "Ada,Bo,Cy", "--dice-file", "-", stdin=E1_DICE)


def verified(tmp_path: Path, log: bytes, name: str = "game.jsonl") -> Result:
    path = tmp_path / name
    path.write_bytes(log)
    return invoke("verify", str(path))


def refused(result: Result) -> str:
    """The one line of a refusal, without its ``aces: `` prefix."""
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    assert result.stdout_bytes == b""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("aces: ")
    return lines[0].removeprefix("aces: ")


def summary(result: Result) -> str:
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    return lines[0]


# -- Sound logs ------------------------------------------------------------------


def test_a_sound_log_gets_one_summary_line_with_its_counts_and_winner(tmp_path: Path) -> None:
    line = summary(verified(tmp_path, e1(), "e1.jsonl"))
    assert str(tmp_path / "e1.jsonl") in line
    assert "1 game" in line
    assert "30 events" in line
    assert "Bo" in line


def test_a_session_is_counted_game_by_game(tmp_path: Path) -> None:
    log = played("--players", "Kari,Ola,Per", "--games", "3", "--seed", "5")
    line = summary(verified(tmp_path, log))
    assert "3 games" in line
    events = len(log.splitlines())
    assert f"{events} events" in line
    winners = {name for name in ("Kari", "Ola", "Per") if f'"winner":"{name}"'.encode() in log}
    assert winners
    assert all(name in line for name in winners)


def test_a_log_may_come_from_standard_input() -> None:
    line = summary(invoke("verify", "-", stdin=e1()))
    assert "<stdin>" in line
    assert "30 events" in line


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("finish", ["last-chip", "last-holder"])
def test_every_log_the_engine_writes_is_accepted(seed: int, finish: str) -> None:
    log = played("--players", str(2 + seed % 7), "--finish", finish, "--chips",
                 str(1 + seed % 4), "--seed", str(seed))
    summary(invoke("verify", "-", stdin=log))


# -- Bad logs ------------------------------------------------------------------


def test_a_changed_line_is_named_by_its_digest(tmp_path: Path) -> None:
    log = e1().replace(b'"type":"chips_to_pot","player":"Cy","count":1}',
                       b'"type":"chips_to_pot","player":"Cy","count":2}', 1)
    reason = refused(verified(tmp_path, log))
    assert reason.startswith(f"{tmp_path / 'game.jsonl'}, line 7: the digest does not match")


def test_a_consequence_that_contradicts_its_dice_is_named_with_its_line(tmp_path: Path) -> None:
    log = resigned(e1().replace(b'"type":"chips_to_pot","player":"Cy","count":1}',
                                b'"type":"chips_to_pot","player":"Cy","count":2}', 1))
    reason = refused(verified(tmp_path, log))
    assert reason.startswith(f"{tmp_path / 'game.jsonl'}, line 7: the rules give ")
    assert '"count":1' in reason


def test_dice_that_change_what_a_roll_settles_are_refused(tmp_path: Path) -> None:
    # Ada's 3-5 becomes 3-6: the rules now pass a chip that the log does not.
    log = resigned(e1().replace(b'"player":"Ada","dice":[3,5]', b'"player":"Ada","dice":[3,6]'))
    assert ", line 10: the rules give " in refused(verified(tmp_path, log))


def test_only_the_first_bad_line_is_named(tmp_path: Path) -> None:
    log = resigned(e1().replace(b'"count":1}', b'"count":3}'))
    assert ", line 7: " in refused(verified(tmp_path, log))


BREAKAGES: t.Final[list[tuple[Callable[[bytes], bytes], int, str]]] = [
    (lambda log: log[:-25], 30, "cut short"),
    # Cut between Cy's 1-6 and the chip it passes: damage, not a game still played.
    (lambda log: b"".join(log.splitlines(keepends=True)[:7]), 7, "before the roll is settled"),
    (lambda log: log.replace(b'{"seq":12,', b'{"seq":13,'), 12, "sequence number"),
    (lambda log: log.replace(b"\n", b"\n\n", 1), 2, "empty"),
    (lambda log: log.replace(b'"schema":2', b'"schema":99'), 1, "newer"),
    (lambda log: log + log, 31, "sequence number"),
    (lambda log: log.replace(b"\n", b"\n[1, 2]\n", 1), 2, "not a JSON object"),
]


@pytest.mark.parametrize(("breaking", "line", "reason"), BREAKAGES)
def test_a_bad_log_is_refused_at_its_first_bad_line(
    tmp_path: Path, breaking: Callable[[bytes], bytes], line: int, reason: str
) -> None:
    message = refused(verified(tmp_path, breaking(e1())))
    assert f", line {line}: " in message
    assert reason in message


def test_an_empty_log_is_refused(tmp_path: Path) -> None:
    message = refused(verified(tmp_path, b""))
    assert str(tmp_path / "game.jsonl") in message
    assert "empty" in message


def test_a_missing_log_is_refused_by_name(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.jsonl"
    message = refused(invoke("verify", str(missing)))
    assert str(missing) in message
