"""One group's table (aces.classroom.group): its narrators speak with the
class's one voice a language, so the memory of sentences is bounded by the
languages, not by the groups."""

from __future__ import annotations

from aces.classroom.group import GroupTable, voice
from aces.engine import header
from aces.games import game_named
from aces.i18n import languages
from aces.narrate.phrasebook import memos
from aces.narrate.pot import PotPhrasebook
from aces.rules import Roll


def _table(name: str) -> GroupTable:
    table = GroupTable(name)
    table.resume([])
    table.begin(header(game_named("pot"), ["Ada", "Bo", "Cy"], {}))
    return table


def _rolled(table: GroupTable) -> list[dict[str, list[str]]]:
    told = []
    for number in range(4):
        request = table.request()
        assert request is not None
        told.append(table.decide_roll(table.game, Roll((number + 2,) * request.dice)).told)
    return told


def test_every_groups_narrators_share_one_voice_a_language_and_its_memos() -> None:
    tables = [_table(f"group-{n:03d}.jsonl") for n in range(1, 51)]
    told = [_rolled(table) for table in tables]
    first = told[0]
    assert all(each == first for each in told)
    for lang in languages():
        assert {id(table.narrators[lang].voice) for table in tables} == {id(voice(lang))}
    # Fifty tables saying the same rolls of the same players keep each sentence
    # once: another table's rolls are told from the memos, adding nothing to them.
    said, standings, _ = memos(voice("nb"), PotPhrasebook)
    kept = (len(said), len(standings))
    assert kept[0] > 0
    assert _rolled(_table("group-051.jsonl")) == first
    assert (len(said), len(standings)) == kept


def test_a_tables_states_are_told_once_so_none_is_kept_by_its_identity() -> None:
    """Every roll of a live table makes a new state, told once in each
    language: kept by their identity, the lines were never found again, and
    filled 8 MB a language for minutes of a busy class. The standings by
    holding, which other tables find again, are kept."""
    table = _table("group-001.jsonl")
    for number in range(30):
        request = table.request()
        if request is None:
            break
        table.decide_roll(table.game, Roll((number % 6 + 1,) * request.dice))
    assert table.recording.rolls > 3
    for lang in languages():
        _, standings, by_state = memos(voice(lang), PotPhrasebook)
        assert len(standings) > 0
        assert len(by_state) == 0
