"""Named numbers: every one the pages use exists, and is written the language's way."""

from __future__ import annotations

import re
import typing as t
from fractions import Fraction

import pytest

from aces.exact.finish import try_success
from sphinxext.quantities import REGISTRY, Quantity, SpecError, quantity, show

from docsite import DOCS

ROLE: t.Final = re.compile(r":aces:`([^`]+)`")
#: A number in a formula (sphinxext.formulas): ``\aces{spec}``, a backslash
#: doubled in a catalog.
IN_FORMULA: t.Final = re.compile(r"\\{1,2}aces\{([^{}]+)\}")


def specs_in_the_pages() -> list[str]:
    """Every ``:aces:`` spec of the pages and their translations, and every number
    in their formulas."""
    found: set[str] = set()
    for path in [*DOCS.rglob("*.rst"), *DOCS.rglob("*.po")]:
        text = path.read_text(encoding="utf-8").replace('"\n"', "")
        found.update(ROLE.findall(text))
        found.update(IN_FORMULA.findall(text))
    return sorted(found)


def test_the_pages_use_numbers() -> None:
    assert len(specs_in_the_pages()) > 50


@pytest.mark.parametrize("spec", specs_in_the_pages())
def test_every_number_of_the_pages_can_be_computed(spec: str) -> None:
    for lang in ("en", "nb"):
        assert show(quantity(spec), lang)


def test_every_registered_number_is_used_by_a_page() -> None:
    used = {re.match(r"\s*([a-z0-9-]+)", spec)[1] for spec in specs_in_the_pages()}  # type: ignore[index]
    assert set(REGISTRY) - used == set()


def test_a_fraction_stays_exact() -> None:
    found = quantity("try")
    assert found == Quantity(try_success(), "fraction")
    assert show(found, "nb") == str(try_success())


def test_a_large_fraction_is_a_decimal_offering_the_fraction() -> None:
    shown = show(quantity("fd-turn(5, 1)"), "nb")
    assert shown == "2,178"
    assert shown.exact == "3471733/1594323"  # type: ignore[attr-defined]


@pytest.mark.parametrize(("spec", "en", "nb"), [
    ("nothing:percent", "44.4%", "44,4\xa0%"),
    ("nothing:percent2", "44.44%", "44,44\xa0%"),
    ("nothing:decimal3", "0.444", "0,444"),
    ("number(20000)", "20,000", "20\xa0000"),
    ("rolls(0, 0)", "16", "16"),
])
def test_formats_in_both_languages(spec: str, en: str, nb: str) -> None:
    assert show(quantity(spec), "en") == en
    assert show(quantity(spec), "nb") == nb


def test_arguments_reach_the_computation() -> None:
    assert quantity("outcome(1, 1)").value == Fraction(1, 18)
    assert quantity("first-six(2)").value == Fraction(25, 36) * Fraction(11, 36)


@pytest.mark.parametrize(("spec", "reason"), [
    ("no-such-number", "unknown number 'no-such-number'"),
    ("finish(2)", "finish(2): cannot be computed"),
    ("finish(2, x)", "whole numbers"),
    ("try:sideways", "is not a name(arguments):format"),
    ("finish(2, 9)", "cannot be computed"),
])
def test_a_bad_spec_says_why(spec: str, reason: str) -> None:
    with pytest.raises(SpecError, match=re.escape(reason)):
        quantity(spec)


def test_seats_are_counted_from_one_as_the_pages_count_them() -> None:
    from sphinxext import lessons as les

    chances = les.game(4).win_by_seat
    assert quantity("win(4, 1)").value == chances[0]
    assert quantity("win(4, 4)").value == chances[3]
    assert quantity("best-seat(4)").value == chances.index(max(chances)) + 1
    for seat in ("0", "5"):
        with pytest.raises(SpecError):
            quantity(f"win(4, {seat})")
