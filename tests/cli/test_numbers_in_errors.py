"""Whole numbers in errors are written the language's way: line numbers,
counts and limits alike, in every command, through one path
(:func:`aces.numbers.written`)."""

from __future__ import annotations

import typing as t

import pytest
from worstcases import long_game

from clitest import one_line_error, run

if t.TYPE_CHECKING:
    from pathlib import Path

#: The line numbers and limits of the cases below, as each language writes them.
WRITTEN: t.Final = {
    "en": ("line 1,234", "65,536"),
    "nb": ("linje 1\xa0234", "65\xa0536"),
    "nn": ("linje 1\xa0234", "65\xa0536"),
}


@pytest.mark.parametrize("lang", sorted(WRITTEN))
def test_a_line_number_of_a_log_is_grouped_as_the_language_groups_it(
        tmp_path: Path, lang: str) -> None:
    log = tmp_path / "long.jsonl"
    long_game(log, 1_300)
    lines = log.read_bytes().splitlines(keepends=True)
    lines[1233] = lines[1233].replace(b'"dice":[2,3]', b'"dice":[2,4]')
    log.write_bytes(b"".join(lines))
    for command in ("verify", "replay", "walkthrough"):
        error = one_line_error(run(command, str(log), "--lang", lang))
        assert f"long.jsonl, {WRITTEN[lang][0]}: " in error, error


@pytest.mark.parametrize("lang", sorted(WRITTEN))
def test_a_count_in_an_error_is_grouped_as_the_language_groups_it(
        tmp_path: Path, lang: str) -> None:
    dice = tmp_path / "long.dice"
    dice.write_bytes(b"2\n3\n5\n1 6 #" + b"x" * 70_000 + b"\n")
    error = one_line_error(run("play", "--players", "Ada,Bo,Cy", "--dice-file", str(dice),
                               "--lang", lang))
    assert WRITTEN[lang][1] in error
    assert "65536" not in error
