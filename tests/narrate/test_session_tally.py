"""A session's tally stays bounded: everyone at the table, and besides them
the players seated most recently (:data:`aces.scores.SESSION_PLAYERS`)."""

from __future__ import annotations

import io
import re
import typing as t

from aces import scores
from aces.dice import RandomDice
from aces.engine import header, play
from aces.games import game_named
from aces.i18n import translations
from aces.log import LogWriter, read
from aces.narrate import Narrator
from aces.walk import drive

if t.TYPE_CHECKING:
    from collections.abc import Sequence

    import pytest

POT: t.Final = game_named("pot")


def session(tables: Sequence[Sequence[str]]) -> bytes:
    """A log of one game of Aces in the Pot for each table, in turn."""
    out = io.BytesIO()
    writer = LogWriter(out)
    for number, players in enumerate(tables, start=1):
        writer.write_all(play(POT, header(POT, list(players), {}), RandomDice(number)))
    return out.getvalue()


def told(log: bytes) -> tuple[list[str], Narrator]:
    narrator = Narrator(translations("en"), "en")
    lines = drive(read(io.BytesIO(log), "session"), "session", narrator)
    return lines, narrator


def tallies(lines: list[str]) -> list[dict[str, int]]:
    found = []
    for line in lines:
        if line.startswith("Pots won after"):
            entries = line.split(": ", 1)[1].rstrip(".").replace(", and ", ", ").split(", ")
            found.append({name: int(count) for name, count in
                          (re.fullmatch(r"(.+) (\d+)", e).groups() for e in entries)})  # type: ignore[union-attr]
    return found


def test_a_session_of_new_players_every_game_remembers_a_bounded_few(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scores, "SESSION_PLAYERS", 6)
    tables = [[f"P{game}a", f"P{game}b", f"P{game}c"] for game in range(60)]
    lines, narrator = told(session(tables))
    [kept] = narrator._sessions.values()
    assert len(kept.scores.counts) <= 6 + 3
    # Every tally names the table just played, and never more than the budget allows.
    for table, tally in zip(tables[1:], tallies(lines), strict=True):
        assert set(table) <= set(tally)
        assert len(tally) <= 6 + 3


def test_a_player_away_longer_than_the_tally_remembers_starts_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scores, "SESSION_PLAYERS", 6)
    home = ["Ada", "Bo", "Cy"]
    # The home table plays three games, then four games of strangers seat
    # twelve players besides them; Ada, Bo and Cy come back.
    tables = [home] * 3 + [[f"S{n}{x}" for x in "abc"] for n in range(4)] + [home]
    first = tallies(told(session(tables[:3]))[0])[-1]
    assert sum(first.values()) == 3
    last = tallies(told(session(tables))[0])[-1]
    assert sum(last[name] for name in home) == 1   # only the game just played counts
    # Away for two games of strangers only (six players): still remembered.
    tables = [home] * 3 + [[f"S{n}{x}" for x in "abc"] for n in range(2)] + [home]
    last = tallies(told(session(tables))[0])[-1]
    assert sum(last[name] for name in home) == 4


def test_an_ordinary_session_is_counted_in_full() -> None:
    lines, _ = told(session([["Ada", "Bo", "Cy"]] * 5))
    final = tallies(lines)[-1]
    assert list(final) == ["Ada", "Bo", "Cy"]
    assert sum(final.values()) == 5


def test_the_verdict_of_verify_remembers_as_few(monkeypatch: pytest.MonkeyPatch) -> None:
    from aces.summary import Tally

    monkeypatch.setattr(scores, "SESSION_PLAYERS", 6)
    tables = [[f"P{game}a", f"P{game}b", f"P{game}c"] for game in range(60)]
    tally = drive(read(io.BytesIO(session(tables)), "session"), "session", Tally())
    assert tally.games == 60
    assert set(tables[-1]) <= set(tally.wins)
    assert len(tally.wins) <= 6 + 3
    assert len(tally.losses) <= 6 + 3
