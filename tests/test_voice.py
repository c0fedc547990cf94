"""Numbers and lists as each language writes them, through Babel."""

from __future__ import annotations

import pytest
from babel.lists import format_list

from aces import numbers
from aces.i18n import translations
from aces.voice import Voice


def voice(lang: str) -> Voice:
    return Voice(translations(lang), lang)


@pytest.mark.parametrize(("lang", "value", "expected"), [
    ("en", 7, "7"),
    ("en", 20_000, "20,000"),
    ("en", 1_347_533, "1,347,533"),
    ("nb", 7, "7"),
    ("nb", 20_000, "20\xa0000"),
    ("nb", 1_347_533, "1\xa0347\xa0533"),
])
def test_numbers(lang: str, value: int, expected: str) -> None:
    assert voice(lang).number(value) == expected


@pytest.mark.parametrize(("lang", "names", "expected"), [
    ("en", ["Ada"], "Ada"),
    ("en", ["Ada", "Bo"], "Ada and Bo"),
    ("en", ["Ada", "Bo", "Cy"], "Ada, Bo, and Cy"),
    ("nb", ["Ada", "Bo"], "Ada og Bo"),
    ("nb", ["Ada", "Bo", "Cy", "Dag"], "Ada, Bo, Cy og Dag"),
])
def test_lists(lang: str, names: list[str], expected: str) -> None:
    assert voice(lang).names(names) == expected


@pytest.mark.parametrize("lang", ["en", "nb", "nn"])
def test_lists_are_babels_of_every_length(lang: str) -> None:
    # A list is Babel's list of as many items, filled in: the same words
    # as Babel's own call, whatever the items hold.
    speaker = voice(lang)
    for length in range(30):
        items = [f"P{n} {{0}}\x00" if n % 3 == 0 else f"P{n}" for n in range(length)]
        assert speaker.names(items) == format_list(items, locale=speaker.locale)


def test_formats_are_cached_not_recomputed() -> None:
    speaker = voice("nb")
    assert speaker.number(1234) is speaker.number(1234)
    assert speaker.names(("Ada", "Bo")) is speaker.names(["Ada", "Bo"])


def test_a_sessions_tally_is_said_without_filling_the_memo_of_lists() -> None:
    """A tally's counts grow game by game, so each is said once: kept, the
    tallies of a busy class crowded out the lists said again and again."""
    from aces.narrate.pot import PotPhrasebook

    speaker = Voice(translations("nb"), "nb")
    book = PotPhrasebook(speaker)
    kept = len(speaker._lists)
    tallies = [book.tally({"Ada": games, "Bo": games // 2, "Cy": 1}, games + 1)
               for games in range(2, 40)]
    assert len(speaker._lists) == kept
    assert tallies[0] == book.tally({"Ada": 2, "Bo": 1, "Cy": 1}, 3)
    assert "Ada 2, Bo 1 og Cy 1" in tallies[0]
    book.entries("standings", {"Ada": 2, "Bo": 1})
    assert len(speaker._lists) == kept + 1


@pytest.mark.parametrize("lang", ["en", "nb", "nn"])
def test_percentages_decimals_and_integers_kept_are_those_written_afresh(lang: str) -> None:
    """A pool writes the same shares twice a second, kept by their values:
    each is written as :mod:`aces.numbers` writes it, the first time and
    the next, -0.0 apart from 0.0 and NaN too."""
    speaker = voice(lang)
    shares = [k / n for n in range(1, 40) for k in range(n + 1)]
    shares += [-0.0, 0.0, -0.0004, 1e-7, 12.5, 1234.5678, float("nan"), -3.25]
    for _ in range(2):
        for value in shares:
            for digits in (0, 1, 2):
                assert speaker.percent(value, digits) == numbers.percent(value, lang, digits)
                assert speaker.decimal(value, digits) == numbers.decimal(value, lang, digits)
    assert speaker.percent(0.25) is speaker.percent(0.25)
    for whole in (0, -7, 20_000, 10**18 - 1, 10**18, -(10**18), 58 * 10**40):
        assert speaker.integer(whole) == numbers.integer(whole, lang)


def test_dice_read_the_same_in_every_language() -> None:
    assert voice("en").dice((1, 6)) == voice("nb").dice((1, 6)) == "1-6"
    assert voice("nb").dice((5,)) == "5"


@pytest.mark.parametrize(("lang", "one", "two", "twelve", "thirteen"), [
    ("en", "1 chip", "2 chips", "12 chips", "13 chips"),
    ("nb", "én sjetong", "to sjetonger", "tolv sjetonger", "13 sjetonger"),
    ("nn", "éin sjetong", "to sjetongar", "tolv sjetongar", "13 sjetongar"),
])
def test_small_counts_are_words_where_the_language_wants_them(
    lang: str, one: str, two: str, twelve: str, thirteen: str
) -> None:
    speaker = voice(lang)

    def said(count: int) -> str:
        return speaker.ngettext("{player} puts {count} chip in the pot.",
                                "{player} puts {count} chips in the pot.",
                                count).format(player="Ada", count=speaker.count(count))

    assert one in said(1)
    assert two in said(2)
    assert twelve in said(12)
    assert thirteen in said(13)
    assert two not in said(1)
