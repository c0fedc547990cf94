"""The lessons' tables: every one the pages use builds, in both languages."""

from __future__ import annotations

import re
import typing as t

import pytest

from aces.i18n import translations
from sphinxext.quantities import SpecError
from sphinxext.tables import TABLES, table

from docsite import directive_specs

SPECS: t.Final = directive_specs("aces-table")


@pytest.mark.parametrize("spec", SPECS)
def test_every_table_of_the_pages_builds_in_both_languages(spec: str) -> None:
    english = table(spec, translations("en"), "en")
    norwegian = table(spec, translations("nb"), "nb")
    for made in (english, norwegian):
        assert made.rows
        assert all(len(row) == len(made.header) for row in made.rows)
    assert english.header != norwegian.header
    assert len(english.rows) == len(norwegian.rows)


def test_every_table_is_used_by_a_page() -> None:
    assert {re.match(r"[a-z0-9-]+", spec)[0] for spec in SPECS} == set(TABLES)  # type: ignore[index]


def test_the_grid_counts_every_roll() -> None:
    grid = table("rolls-grid", translations("en"), "en")
    cells = [cell for row in grid.rows for cell in row[1:]]
    assert len(cells) == 36
    assert cells.count("nothing") == 16
    assert grid.rows[0][1] == "2 to the pot"


def test_numbers_are_written_the_languages_way() -> None:
    english = table("seats(2, 3)", translations("en"), "en")
    norwegian = table("seats(2, 3)", translations("nb"), "nb")
    assert english.rows[0][1].endswith("%")
    assert norwegian.rows[0][1].endswith("\xa0%")
    assert "," in norwegian.rows[0][1]


@pytest.mark.parametrize("spec", ["nowhere", "seats(2)", "seats 2"])
def test_a_bad_table_says_why(spec: str) -> None:
    with pytest.raises(SpecError):
        table(spec, translations("en"), "en")


def test_seats_are_headed_from_one() -> None:
    seats = table("seats(2, 3)", translations("en"), "en")
    assert seats.header[1:] == ("seat 1", "seat 2", "seat 3")


@pytest.mark.parametrize(("lang", "players", "chips", "seats"), [
    ("nn", "tre spelarar", ", tre sjetongar kvar", "to plassar til venstre"),
    ("nb", "tre spillere", ", tre sjetonger hver", "to plasser til venstre"),
    ("en", "3 players", ", 3 chips each", "2 seats to the left"),
])
def test_headings_count_small_numbers_in_words(lang: str, players: str, chips: str,
                                               seats: str) -> None:
    """A heading is read as text: «tre spelarar», as the simulation page writes
    «fem terningar kvar», and never «3 spelarar» beside «éin sjetong kvar»."""
    fairness = table("fairness(2, 5)", translations(lang), lang)
    assert players in fairness.header
    assert any(row[0].endswith(chips) for row in fairness.rows)
    assert seats in table("finish-seats(2, 6)", translations(lang), lang).header
