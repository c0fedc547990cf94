"""Dice as people write them, read alike by ``aces record`` and ``--dice-file``.

One parser (:func:`aces.dice.parse_entry`) serves both; each case here is
fed to both commands and must give the log the plain notation gives, or be
refused by both with the same reason naming the same line.
"""

from __future__ import annotations

import re
import typing as t
from pathlib import Path

import pytest

from clitest import ENGLISH, one_line_error, run

if t.TYPE_CHECKING:
    from collections.abc import Callable

    from click.testing import Result

REPLAYS: t.Final = Path(__file__).resolve().parent.parent.parent / "replays"
POT: t.Final = ("--players", "Ada,Bo,Cy")
THREES: t.Final = ("--players", "Ada,Bo,Cy", "--game", "five-dice", "--dice-each", "2",
                   "--threes")
#: Worked example E1 of the rulings, one roll a line.
E1: t.Final = ["2", "3", "5", "1 6", "3 5", "6 6", "1 1", "6 1", "4 1", "2 5", "6 6", "1 1",
               "3 4", "5 2"]


def rolls(text: str) -> list[str]:
    """The roll lines of a dice file, comments and blank lines left out."""
    return [line.split("#")[0].strip() for line in text.splitlines()
            if line.split("#")[0].strip()]


THREES_ROLLS: t.Final = rolls((REPLAYS / "threes.dice").read_text(encoding="utf-8"))


def played(tmp_path: Path, lines: list[str], args: tuple[str, ...]) -> Result:
    dice = tmp_path / "typed.dice"
    dice.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return run("play", *args, "--dice-file", str(dice), env=ENGLISH)


def recorded(tmp_path: Path, lines: list[str], args: tuple[str, ...]) -> Result:
    log = tmp_path / "recorded.jsonl"
    log.unlink(missing_ok=True)
    result = run("record", str(log), *args, input="".join(f"{line}\n" for line in lines),
                 env=ENGLISH)
    result.log = log.read_bytes() if log.exists() else b""  # type: ignore[attr-defined]
    return result


def both(tmp_path: Path, lines: list[str], args: tuple[str, ...]) -> tuple[bytes, bytes]:
    """The log each command writes from the same lines; both must succeed."""
    play = played(tmp_path, lines, args)
    assert play.exit_code == 0, play.output
    record = recorded(tmp_path, lines, args)
    assert record.exit_code == 0, record.output
    return play.stdout_bytes, record.log  # type: ignore[attr-defined]


#: Ways of writing a roll of E1, each a function of the plain "1 6".
POT_FORMS: t.Final[dict[str, Callable[[str], str]]] = {
    "printed 1-6": lambda roll: roll.replace(" ", "-"),
    "together 16": lambda roll: roll.replace(" ", ""),
    "commas 1,6": lambda roll: roll.replace(" ", ","),
    "comma and space 1, 6": lambda roll: roll.replace(" ", ", "),
    "tab": lambda roll: roll.replace(" ", "\t"),
}


@pytest.mark.parametrize("form", POT_FORMS)
def test_every_way_of_writing_a_roll_plays_the_same_game(tmp_path: Path, form: str) -> None:
    plain, _ = both(tmp_path, E1, POT)
    written = [POT_FORMS[form](roll) for roll in E1]
    assert both(tmp_path, written, POT) == (plain, plain)


FIVE_FORMS: t.Final[dict[str, Callable[[str], str]]] = {
    "together 33 > Ada Bo": lambda roll: re.sub(r"(?<=\d) (?=\d)", "", roll),
    "dashes 3-3 > Ada Bo": lambda roll: re.sub(r"(?<=\d) (?=\d)", "-", roll),
    "names in lower case": str.lower,
    "names by their start": lambda roll: re.sub(r"\b(Ada|Bo|Cy)\b",
                                                lambda m: m.group(1)[:1].lower(), roll),
}


@pytest.mark.parametrize("form", FIVE_FORMS)
def test_five_dice_and_receivers_may_be_written_as_people_do(tmp_path: Path, form: str) -> None:
    plain = (REPLAYS / "five-dice-threes.jsonl").read_bytes()
    written = [FIVE_FORMS[form](roll) for roll in THREES_ROLLS]
    assert written != THREES_ROLLS
    assert both(tmp_path, written, THREES) == (plain, plain)


def test_five_dice_typed_as_one_number(tmp_path: Path) -> None:
    args = ("--players", "Ada,Bo,Cy", "--game", "five-dice", "--seed", "5")
    generated = run("play", *args, env=ENGLISH).stdout
    dice = ["".join(map(str, event["dice"])) for event in map(_json, generated.splitlines())
            if event["type"] == "rolled"]
    assert any(len(roll) == 5 for roll in dice)
    dashed = ["-".join(roll) for roll in dice]
    without_seed = ("--players", "Ada,Bo,Cy", "--game", "five-dice")
    together, _ = both(tmp_path, dice, without_seed)
    assert both(tmp_path, dashed, without_seed) == (together, together)


def _json(line: str) -> dict[str, t.Any]:
    import json

    return t.cast("dict[str, t.Any]", json.loads(line))


# -- Refused alike ----------------------------------------------------------------------


def refused_by_both(tmp_path: Path, lines: list[str], args: tuple[str, ...]) -> str:
    """The reason both commands give for the last line; the same, naming that line."""
    play = one_line_error(played(tmp_path, lines, args))
    record = recorded(tmp_path, lines, args)
    record_error = one_line_error(record)
    line = len(lines)
    play_reason = play.split(f", line {line}: ", 1)[1]
    record_reason = record_error.split(f"<stdin>, line {line}: ", 1)[1]
    assert play_reason == record_reason
    # Every roll before the bad line is kept.
    assert record.log.count(b'"type":"rolled"') == line - 1  # type: ignore[attr-defined]
    return play_reason


def test_an_ambiguous_start_of_a_name_is_refused_naming_the_candidates(tmp_path: Path) -> None:
    args = ("--players", "Ada,Bo,Bodil", "--game", "five-dice", "--dice-each", "2",
            "--threes")
    # Opening: Ada 6, Bo 11, Bodil 6; Bo starts and gives a 3.
    reason = refused_by_both(tmp_path, ["4 2", "6 5", "3 3", "3 4 > b"], args)
    assert reason == "'b' could be Bo or Bodil; type more of the name"


def test_a_name_that_begins_no_player_is_not_at_the_table(tmp_path: Path) -> None:
    reason = refused_by_both(tmp_path, [*THREES_ROLLS[:3], "3 4 > Zed"], THREES)
    assert reason == "Zed is not at the table, so cannot receive a 3"


def test_receivers_in_aces_in_the_pot_are_refused_in_its_own_terms(tmp_path: Path) -> None:
    reason = refused_by_both(tmp_path, [*E1[:3], "1 6 > Ada"], POT)
    assert reason == ("in Aces in the Pot nothing is ever given by choice, so a roll names no"
                      " receivers, but this one names Ada")


@pytest.mark.parametrize("line", ["1-7", "1_6", "1.6", "> Bo", "1 6 > > Bo"])
def test_what_is_no_roll_is_refused_alike(tmp_path: Path, line: str) -> None:
    assert refused_by_both(tmp_path, [*E1[:3], line], POT)


def test_a_pot_roll_of_too_many_digits_is_refused_by_the_count(tmp_path: Path) -> None:
    reason = refused_by_both(tmp_path, [*E1[:3], "166"], POT)
    assert reason == "Cy rolls 2 dice here, but the line has 3"


def test_norwegian_names_the_candidates_in_norwegian(tmp_path: Path) -> None:
    args = ("--players", "Ada,Bo,Bodil,Bjørn", "--game", "five-dice", "--dice-each", "2",
            "--threes", "--lang", "nb")
    # Opening: Ada 6, Bo 11, Bodil 6, Bjørn 6; Bo starts.
    error = one_line_error(played(tmp_path, ["4 2", "6 5", "3 3", "2 4", "3 4 > b"], args))
    assert error.endswith("«b» kan være Bo, Bodil eller Bjørn; skriv mer av navnet")


@pytest.mark.parametrize("word", ["undo", "help", "?", "quit", "avslutt"])
def test_a_word_for_the_table_is_refused_in_a_dice_file(tmp_path: Path, word: str) -> None:
    error = one_line_error(played(tmp_path, [*E1[:3], word], POT))
    assert error.endswith(f"line 4: {word!r} is a word for the table (aces record); a dice"
                          " file holds only rolls")
