"""The phrasebook's cache: a bounded memory that never changes what is said."""

from __future__ import annotations

import typing as t

import msgspec

from aces import engine
from aces.events import ChipsToPot
from aces.games import game_named
from aces.i18n import translations
from aces.narrate import phrasebook
from aces.narrate.pot import PotPhrasebook
from aces.voice import Voice
from aces.walk import Step

if t.TYPE_CHECKING:
    import pytest

POT: t.Final = game_named("pot")


def test_the_cache_starts_afresh_when_full(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(phrasebook, "CACHE_BUDGET", 4000)
    book = PotPhrasebook(Voice(translations("en"), "en"))
    names = [f"P{n}" for n in range(100)]
    for name in names:
        lines = book.say(Step[t.Any](1, ChipsToPot(player=name, count=2), None, POT))
        assert lines == (f"{name} puts 2 chips in the pot.",)
        assert 0 < book._said.weight <= 4000
    assert len(book._said) < 50


def test_the_same_event_is_put_into_words_once() -> None:
    book = PotPhrasebook(Voice(translations("nb"), "nb"))
    step = Step[t.Any](1, ChipsToPot(player="Ada", count=1), None, POT)
    assert book.say(step) is book.say(Step[t.Any](2, ChipsToPot(player="Ada", count=1), None, POT))
    assert book.say(step) == ("Ada legger én sjetong i potten.",)


def test_phrasebooks_of_one_voice_share_their_memos_and_another_voice_has_its_own() -> None:
    """A class's groups speak with one voice a language: their phrasebooks
    fill one set of memos, so the class's sentences are kept once, whatever
    the number of groups; a replay's voice of its own keeps its own."""
    shared = Voice(translations("nn"), "nn")
    books = [PotPhrasebook(shared) for _ in range(3)]
    step = Step[t.Any](1, ChipsToPot(player="Ada", count=2), None, POT)
    said = books[0].say(step)
    assert all(book.say(step) is said for book in books)
    assert len({id(book._said) for book in books}) == 1
    assert len({id(book._by_state) for book in books}) == 1
    assert len(books[0]._said) == 1
    other = PotPhrasebook(Voice(translations("nn"), "nn"))
    assert other._said is not books[0]._said
    assert other.say(step) == said


def test_a_voice_that_tells_each_state_once_says_the_same_and_keeps_no_line_by_state() -> None:
    once = PotPhrasebook(phrasebook.told_once(Voice(translations("nb"), "nb")))
    state = POT.start(engine.header(POT, ["Ada", "Bo", "Cy"], {}))
    line = once.standings(state, state)
    assert line == PotPhrasebook(Voice(translations("nb"), "nb")).standings(state, state)
    assert len(once._by_state) == 0
    assert once.standings(state, state) is line
    assert len(once._standings) == 1


def test_a_state_seen_again_has_the_standings_of_an_equal_one() -> None:
    # The line kept by a state's identity is the line of any equal state.
    book = PotPhrasebook(Voice(translations("nb"), "nb"))
    state = POT.start(engine.header(POT, ["Ada", "Bo", "Cy"], {}))
    again = msgspec.structs.replace(state, pot=0)
    assert again is not state
    line = book.standings(state, state)
    assert line == "Stillingen: Ada 2, Bo 2 og Cy 2; i potten: 0."
    assert book.standings(state, state) is line
    assert book.standings(again, state) == line
    assert PotPhrasebook(Voice(translations("nb"), "nb")).standings(again, again) == line
