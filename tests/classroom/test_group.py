"""One group's table (aces.classroom.group): its narrators speak with the
class's one voice a language, so the memory of sentences is bounded by the
languages, not by the groups."""

from __future__ import annotations

import io
import random
import typing as t

from aces.classroom.group import GroupTable, voice
from aces.engine import header
from aces.experiment.pool import _count
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


def _counted(log: bytes) -> tuple[dict[str, dict[str, t.Any]], int, int, tuple[int, ...]]:
    """A log counted as ``aces stats`` counts it: by rules, the games, the rolls,
    the games taken out."""
    found = _count((io.BytesIO(log), "group-001.jsonl"), None, False)
    return ({repr(rules): vars(counts) for rules, counts in found.counts.items()},
            found.games, found.rolls, found.excluded)


def _tallied(table: GroupTable) -> tuple[dict[str, dict[str, t.Any]], int, int, tuple[int, ...]]:
    counts, games, rolls = table.tally.counts()
    return ({repr(rules): vars(each) for rules, each in counts.items()}, games, rolls,
            table.tally.taken_out())


def test_a_tables_tally_is_aces_stats_on_its_log_whichever_games_are_taken_out() -> None:
    """Games close, some are taken out of the pool (closed ones, the one being
    played, one just over): at every moment the table's
    tally is what ``aces stats`` counts of the log written so far."""
    table = GroupTable("group-001.jsonl")
    table.resume([])
    log = table.begin(header(game_named("pot"), ["Ada", "Bo", "Cy"], {})).block
    dice = random.Random(7)
    taken_at = {(4, 1): 2, (6, 3): 6, (7, 2): 1, (8, 0): 7}
    checked = 0
    while table.game < 9:
        request = table.request()
        game = table.game if request is not None else table.game + 1
        count = request.dice if request is not None else table.following()[1].dice
        moment = (game, table.recording.rolls if request is not None else 0)
        if moment in taken_at:
            log += table.decide_exclusion(taken_at.pop(moment)).block
        log += table.decide_roll(game, Roll(tuple(dice.randint(1, 6)
                                                  for _ in range(count)))).block
        if table.recording.rolls % 5 == 0 or table.request() is None:
            assert _tallied(table) == _counted(log)
            checked += 1
    assert not taken_at
    assert checked > 20
    assert table.tally.taken_out() == (1, 2, 6, 7)
    again = GroupTable("group-001.jsonl")
    again.resume(log.splitlines(keepends=True))
    assert _tallied(again) == _tallied(table)
