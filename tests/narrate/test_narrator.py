"""The narrator's bookkeeping: when standings are shown, games numbered, errors raised."""

from __future__ import annotations

import io
import typing as t

import pytest

from aces import engine
from aces.dice import DiceFile
from aces.errors import AcesError
from aces.events import SCHEMA, ChipsPassed, GameStarted
from aces.i18n import translations
from aces.log import LogWriter, read
from aces.narrate import Narrator
from aces.rules import game_named
from aces.walk import Step, drive, walk

if t.TYPE_CHECKING:
    from collections.abc import Iterator

POT: t.Final = game_named("pot")
E1: t.Final = "2/3/5/1 6/3 5/6 6/1 1/1 6/1 4/2 5/6 6/1 1/3 4/5 2"


def log_bytes(script: str = E1) -> bytes:
    game = game_named("pot")
    out = io.BytesIO()
    start = engine.header(game, ["Ada", "Bo", "Cy"], {})
    LogWriter(out).write_all(engine.play(game, start, DiceFile(script.split("/"), "E1")))
    return out.getvalue()


def steps(script: str = E1) -> Iterator[Step[t.Any]]:
    return walk(read(io.BytesIO(log_bytes(script)), "E1"), "E1")


def narrator(lang: str = "en") -> Narrator:
    return Narrator(translations(lang), lang)


def told(teller: Narrator, step: Step[t.Any]) -> list[str]:
    teller.visit(step)
    return teller.take()


def test_lines_stay_until_taken() -> None:
    teller = narrator()
    first, second = list(steps())[:2]
    teller.visit(first)
    teller.visit(second)
    lines = teller.take()
    assert lines[0].startswith("Aces in the Pot, game 1")
    assert lines[-1] == "Ada rolls 2."
    assert teller.take() == []
    assert teller.result() == []


def test_a_driven_narrator_gives_the_whole_story() -> None:
    story = drive(read(io.BytesIO(log_bytes()), "E1"), "E1", narrator())
    assert story[0].startswith("Aces in the Pot, game 1")
    assert story[-1] == "Bo wins the pot of 5 chips."


def test_only_rolls_are_rolls() -> None:
    kinds = {type(step.event).__name__ for step in steps() if Narrator.is_roll(step)}
    assert kinds == {"Rolled"}


def test_standings_wait_for_the_roll_to_be_settled() -> None:
    teller = narrator()
    lines: list[str] = []
    for step in steps():
        lines = told(teller, step)
        if isinstance(step.event, ChipsPassed):
            break
    # Cy's 1-6: the chip to the pot and the chip to Ada are told, the
    # standings not yet: settle() shows them, once.
    assert lines == ["Cy passes 1 chip to Ada on the left."]
    teller.settle()
    assert teller.take() == ["Standings: Ada 3, Bo 2, and Cy 0; in the pot: 1."]
    teller.settle()
    assert teller.take() == []


def test_the_end_shows_standings_still_due() -> None:
    teller = narrator()
    for step in steps():
        told(teller, step)
        if isinstance(step.event, ChipsPassed):
            break
    teller.end()
    assert teller.result() == ["Standings: Ada 3, Bo 2, and Cy 0; in the pot: 1."]


def test_games_are_numbered_through_the_log() -> None:
    teller = narrator("nb")
    headers = []
    for _ in range(3):
        for step in steps():
            lines = told(teller, step)
            if isinstance(step.event, GameStarted):
                headers.append(lines[0])
    assert [h.split(":")[0] for h in headers] == [
        "Ess i potten, spill 1", "Ess i potten, spill 2", "Ess i potten, spill 3"]
    assert teller.games == 3


def test_a_game_without_a_phrasebook_is_refused() -> None:
    header = GameStarted(schema=SCHEMA, game="chess", players=("Ada", "Bo"), options={})
    with pytest.raises(AcesError) as caught:
        narrator().visit(Step(1, header, None, POT))
    assert "chess" in str(caught.value)
    nb = caught.value.render(translations("nb").gettext)
    assert nb.startswith("replay kan ennå ikke gjenfortelle")
