"""The help never breaks a word, at a hyphen or anywhere, however narrow the terminal."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import typing as t

import click
import pytest
from click.testing import CliRunner

from aces.cli import cli
from aces.cli._help import Context
from aces.cli._language import commands

from clitest import NO_LOCALE

if t.TYPE_CHECKING:
    from click.testing import Result

#: Narrow terminals to wide ones: click lays the help out at least 50 columns
#: wide when it measures the terminal itself (80 at most, unless told).
WIDTHS = range(50, 81)


def helped(lang: str, name: str, width: int) -> Result:
    result = CliRunner().invoke(cli, ["--lang", lang, name, "--help"], env=NO_LOCALE,
                                terminal_width=width)
    assert result.exit_code == 0, result.output
    return result


@pytest.mark.parametrize("lang", ["en", "nb", "nn"])
@pytest.mark.parametrize("name", sorted(cli.commands))
def test_no_word_is_split_whatever_the_width(name: str, lang: str) -> None:
    # Only the spaces between the words change with the width: no word is
    # split at a hyphen ("five-" / "dice", "--threes-" / "to"), nor a long
    # one cut to fit ("(femte" / "rningspillet).").
    wide = helped(lang, name, 10_000).output.split()
    for width in WIDTHS:
        assert helped(lang, name, width).output.split() == wide, width


@pytest.mark.parametrize("lang", ["en", "nb", "nn"])
def test_where_click_alone_splits_an_option_value_it_is_kept_whole(
    lang: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # «five-» at the end of a line and «dice» on the next, as the reviewer found.
    split = re.compile(r"five-\n *dice")
    with monkeypatch.context() as plain:
        plain.setattr(cli.commands["play"], "context_class", click.Context)
        widths = [width for width in WIDTHS if split.search(helped(lang, "play", width).output)]
    assert widths, "no width makes click split the value: the test shows nothing"
    for width in widths:
        assert not split.search(helped(lang, "play", width).output), width


def test_the_program_keeps_words_whole_at_the_terminals_width() -> None:
    # COLUMNS, as a narrow terminal window sets it, through the real entry point.
    done = subprocess.run([sys.executable, "-m", "aces", "--lang", "nb", "play", "--help"],
                          capture_output=True, text=True, check=True,
                          env={**os.environ, "COLUMNS": "52", "LANGUAGE": ""})
    lines = done.stdout.splitlines()
    assert max(map(len, lines)) <= 52
    assert not [line for line in lines if re.search(r"\w-$", line)]
    assert "five-dice" in done.stdout


def test_every_command_lays_out_its_help_this_way() -> None:
    assert all(command.context_class is Context for command in commands(cli))


@pytest.mark.parametrize("lang", ["en", "nb", "nn"])
@pytest.mark.parametrize("name", ["play", "record", "simulate"])
def test_the_games_are_named_and_their_values_only_shown(name: str, lang: str) -> None:
    """``--game`` names each game and shows its value in brackets, as the
    finishes are named: a value is never a noun of a sentence («Kva for spel:
    pot (Ess i potten)»), and the choice list is click's own."""
    text = " ".join(helped(lang, name, 200).stdout.split())
    help_of_game = text.partition("--game [five-dice|pot] ")[2].partition(" --")[0]
    named = {"en": ("Aces in the Pot (pot)", "Aces, the five-dice game (five-dice)"),
             "nb": ("Ess i potten (pot)", "femterningspillet (five-dice)"),
             "nn": ("Ess i potten (pot)", "femterningspelet (five-dice)")}[lang]
    for words in named:
        assert words in help_of_game
    if lang == "en":
        return  # "the five-dice game" is English for the game, not the value
    for value in ("pot", "five-dice"):
        assert re.findall(rf"(?<![\w-]){value}(?![\w-])", help_of_game) == [value] * len(
            re.findall(rf"[(\[]{value}[)\]]|: {value}\]", help_of_game)), help_of_game
