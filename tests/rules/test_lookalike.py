"""Names that look alike are one name: Unicode's confusable skeleton (UTS #39)."""

from __future__ import annotations

import json
import typing as t
from importlib import resources

import pytest

from aces.errors import OptionError
from aces.events import SCHEMA, GameStarted
from aces.log import LogWriter
from aces.rules import check_names
from aces.rules.lookalike import prototypes, skeleton

from clitest import one_line_error, run

if t.TYPE_CHECKING:
    from pathlib import Path


@pytest.mark.parametrize(("first", "second", "one", "other"), [
    ("Bo", "\u0412\u043e", "B", "\u0412"),        # Latin and Cyrillic
    ("Ola", "\u039fla", "O", "\u039f"),           # a Greek capital omicron
    ("Al", "AI", "l", "I"),                       # a small L and a capital i
    ("Tom", "Torn", "m", "r"),                    # m and r, n
    ("Bj\u00f8rn", "Bjo\u0338rn", "\u00f8", "o"),  # ø, and o with a slash over it
])
def test_names_that_look_alike_are_refused_naming_where_they_differ(
        first: str, second: str, one: str, other: str) -> None:
    with pytest.raises(OptionError) as refused:
        check_names(["Ada", first, second], 3)
    assert str(refused.value) == (
        f"'{first}' and '{second}' look the same, though one has '{one}'"
        f" (U+{ord(one):04X}) where the other has '{other}' (U+{ord(other):04X}), so people"
        " could not tell the players apart; give them different names")


@pytest.mark.parametrize("names", [
    ["\u00c5se", "Asa", "\u00d8yvind", "Oyvind", "Bj\u00f8rn", "Bjorn"],
    ["Bo", "Bu", "Cy", "Dag", "P1", "P2", "P10"],
    ["\u0412\u0430\u043d\u044f", "\u041e\u043b\u044f"],   # Cyrillic names alone
])
def test_names_that_differ_to_the_eye_are_accepted(names: list[str]) -> None:
    check_names(names, 2)


def test_the_refusal_speaks_the_language_asked_for() -> None:
    for lang, words in [("nb", "ser like ut, men det ene navnet har «B» (U+0042) der det"
                               " andre har «\u0412» (U+0412)"),
                        ("nn", "ser like ut, men det eine namnet har «B» (U+0042) der det"
                               " andre har «\u0412» (U+0412)")]:
        result = run("play", "--players", "Ada,Bo,\u0412\u043e", "--lang", lang)
        assert words in one_line_error(result)


def test_a_log_with_look_alike_players_is_refused_at_its_header(tmp_path: Path) -> None:
    # A log written by hand, or by another program: its header is checked
    # as any game's start is.
    log = tmp_path / "alike.jsonl"
    with log.open("wb") as out:
        LogWriter(out).write_all([GameStarted(schema=SCHEMA, game="pot",
                                              players=("Ada", "Bo", "\u0412\u043e"),
                                              options={"finish": "last-chip", "chips": 2})])
    line = one_line_error(run("verify", str(log)))
    assert line.startswith(f"aces: {log}, line 1: 'Bo' and '\u0412\u043e' look the same, though")


def test_every_group_of_look_alikes_is_one_prototype_with_its_look_alikes() -> None:
    # The skeleton takes each group's centre as its prototype: that needs
    # every group in Unicode's table to be a star, as its own prototypes
    # are never look-alikes of another.
    data = json.loads(resources.files("confusable_homoglyphs").joinpath("confusables.json")
                      .read_bytes())
    alike: dict[str, set[str]] = {}
    for char, entries in data.items():
        for entry in entries:
            one, other = char.replace("\u200e", ""), entry["c"].replace("\u200e", "")
            if one != other:
                alike.setdefault(one, set()).add(other)
                alike.setdefault(other, set()).add(one)
    centres = {char for char, others in alike.items() if len(others) > 1}
    assert all(not (alike[c] & centres) for c in centres)
    assert len(alike) > 9000


def test_a_skeleton_is_made_once_for_all() -> None:
    table = prototypes()
    assert all("".join(table.get(c, c) for c in value) == value for value in table.values())
    assert skeleton(skeleton("\u0412\u043e")) == skeleton("\u0412\u043e") == "Bo"


def test_names_in_ascii_are_compared_by_unicodes_table_without_reading_it() -> None:
    from aces.rules import lookalike

    table = prototypes()
    assert {char: table[char] for char in table if char.isascii()} == {
        chr(code): lookalike._ASCII[code] for code in lookalike._ASCII}
    for name in ("Al", "AI", "Tom", "Torn", "O1a", "Ola", "x|y", '"q"', "50%"):
        decomposed = "".join(table.get(c, c) for c in name)
        assert skeleton(name) == decomposed
