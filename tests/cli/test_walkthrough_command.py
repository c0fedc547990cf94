"""``aces walkthrough``: formats, languages, standard input, and logs that go wrong."""

from __future__ import annotations

import typing as t

import click
import pytest

from aces.cli import cli

from clitest import run

if t.TYPE_CHECKING:
    from pathlib import Path


def test_markdown_by_default(e1_log: Path) -> None:
    result = run("walkthrough", str(e1_log))
    assert result.exit_code == 0, result.output
    assert "Cy rolls 1-6." in result.stdout.splitlines()
    assert result.stdout.startswith("## Aces in the Pot, game 1: ")
    assert "> **Rule:** Each ace, a rolled 1," in result.stdout
    assert "| Ada | Bo | Cy | Pot |" in result.stdout
    assert result.stderr == ""


@pytest.mark.parametrize(("fmt", "expected"), [
    ("rst", ".. admonition:: Rule"),
    ("text", "    Rule: Each ace, a rolled 1,"),
    ("markdown", "> **Rule:**"),
])
def test_every_format(e1_log: Path, fmt: str, expected: str) -> None:
    result = run("walkthrough", str(e1_log), "--format", fmt)
    assert result.exit_code == 0, result.output
    assert expected in result.stdout


def test_the_formats_offered_are_the_ones_rendered() -> None:
    from aces.walkthrough import FORMATS

    option = next(p for p in cli.commands["walkthrough"].params if p.name == "fmt")
    assert isinstance(option.type, click.Choice)
    assert tuple(option.type.choices) == FORMATS


def test_norwegian_by_option_and_by_locale(e1_log: Path) -> None:
    by_option = run("walkthrough", str(e1_log), "--lang", "nb", "--format", "text")
    by_locale = run("walkthrough", str(e1_log), "--format", "text", env={"LANG": "nb_NO.UTF-8"})
    assert by_option.exit_code == 0, by_option.output
    assert by_option.stdout == by_locale.stdout
    assert "    Regel: " in by_option.stdout
    assert "Cy kaster høyest med 5 og begynner." in by_option.stdout


def test_a_log_from_standard_input(e1_log: Path) -> None:
    result = run("walkthrough", "-", "--format", "text",
                 input=e1_log.read_bytes())
    assert result.exit_code == 0, result.output
    assert "Bo wins the pot of 5 chips." in result.stdout


def test_a_missing_log_is_one_line_on_standard_error(tmp_path: Path) -> None:
    result = run("walkthrough", str(tmp_path / "nowhere.jsonl"))
    assert result.exit_code != 0
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("aces: cannot read ")
    assert "nowhere.jsonl" in result.stderr


def test_a_bad_line_is_named_and_nothing_past_it_is_printed(tmp_path: Path,
                                                            e1_log: Path) -> None:
    log, cut = tmp_path / "bad.jsonl", tmp_path / "cut.jsonl"
    lines = e1_log.read_bytes().splitlines(keepends=True)
    cut.write_bytes(b"".join(lines[:6]))
    lines[6] = b"not an event\n"
    log.write_bytes(b"".join(lines))
    result = run("walkthrough", str(log), "--lang", "nb")
    assert result.exit_code == 1
    # Streamed: what the first six lines tell, and not a word more.
    assert result.stdout == run("walkthrough", str(cut), "--lang", "nb").stdout
    assert "Ada" in result.stdout
    assert result.stderr.startswith(f"aces: {log}, linje 7: ")
    assert "Traceback" not in result.stderr


def test_an_empty_log(tmp_path: Path) -> None:
    log = tmp_path / "empty.jsonl"
    log.write_bytes(b"")
    result = run("walkthrough", str(log))
    assert result.exit_code == 1
    assert result.stderr == f"aces: {log} is empty: it holds no events\n"


def test_an_unknown_format_is_refused(e1_log: Path) -> None:
    result = run("walkthrough", str(e1_log), "--format", "html")
    assert result.exit_code == 2
    assert "--format" in result.stderr
