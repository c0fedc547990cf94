"""The narrator's bookkeeping: when standings are shown, games numbered, errors raised."""

from __future__ import annotations

import io
import typing as t

import pytest

from aces import engine
from aces.dice import DiceFile
from aces.errors import AcesError
from aces.events import SCHEMA, ChipsPassed, GameStarted
from aces.games import game_named
from aces.i18n import translations
from aces.log import LogWriter, read
from aces.narrate import Narrator
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
    assert teller.result() == ["Standings: Ada 3, Bo 2, and Cy 0; in the pot: 1.",
                               "The game is not finished yet: Ada rolls next."]


def test_games_are_numbered_through_the_log() -> None:
    teller = narrator("nb")
    headers = []
    for _ in range(3):
        for step in steps():
            lines = told(teller, step)
            if isinstance(step.event, GameStarted):
                headers.append(lines[0])
    assert [h.split(":")[0] for h in headers] == [
        "Ess i potten, parti 1", "Ess i potten, parti 2", "Ess i potten, parti 3"]
    assert teller.games == 3


def test_a_game_without_a_phrasebook_is_refused() -> None:
    header = GameStarted(schema=SCHEMA, game="chess", players=("Ada", "Bo"), options={})
    with pytest.raises(AcesError) as caught:
        narrator().visit(Step(1, header, None, POT))
    assert "chess" in str(caught.value)
    nb = caught.value.render(translations("nb").gettext)
    assert nb.startswith("aces replay kan ennå ikke gjenfortelle")


def big_table(tmp_path: t.Any, players: int) -> list[str]:
    from worstcases import many_players

    path = tmp_path / "big.jsonl"
    many_players(path, players)
    with path.open("rb") as handle:
        teller = narrator()
        for step in walk(read(handle, "big"), "big"):
            teller.visit(step)
        teller.end()
        return teller.take()


def test_a_large_tables_standings_name_only_the_players_whose_chips_changed(
        tmp_path: t.Any) -> None:
    story = big_table(tmp_path, 40)
    standings = [line for line in story if line.startswith("Standings")]
    # Each 1-1 empties one seat: 39 lines naming that seat alone, then the
    # last seat's 1-3, and the whole table when the finish begins: its one
    # holder, and no one else.
    assert standings[0] == "Standings, for those whose chips changed: P1 0; in the pot: 2."
    assert all(line.count(" 0") == 1 for line in standings[:-1])
    assert standings[-1] == "Standings: P40 1; no one else holds chips; in the pot: 79."
    assert story[story.index(standings[-1]) + 1].startswith("Only one chip is left in play")


def test_a_finish_that_starts_again_and_again_names_its_holder_alone(tmp_path: t.Any) -> None:
    """A last-holder finish at a large table may start again after every
    failed try: its standings name the one holder each time, never the
    whole table, so the story grows with the rolls, not the rolls times the
    players."""
    from worstcases import restarts

    path = tmp_path / "restarts.jsonl"
    stories, finishes = [], []
    for players in (100, 400):
        restarts(path, players, 20)
        with path.open("rb") as handle:
            teller = narrator()
            for step in walk(read(handle, "restarts"), "restarts"):
                teller.visit(step)
            teller.end()
            stories.append(teller.take())
    for story, players in zip(stories, (100, 400), strict=True):
        starts = [number for number, line in enumerate(story) if "the finish begins" in line]
        assert len(starts) == 20
        pot = 20 * players - 20
        assert [story[number - 1] for number in starts[:2]] == [
            f"Standings: P{players} 20; no one else holds chips; in the pot: {pot:,}.",
            f"Standings: P{players} 19; no one else holds chips; in the pot: {pot + 1:,}."]
        finishes.append(sum(map(len, story[starts[0] - 1:])))
    # From its first start on, the finish is told in as many words at a table
    # four times as large (a digit more in the pot), where naming the table
    # at each start would take four times as many.
    assert finishes[1] < 1.1 * finishes[0]


def test_a_table_of_twelve_is_shown_whole(tmp_path: t.Any) -> None:
    story = big_table(tmp_path, 12)
    standings = [line for line in story if line.startswith("Standings")]
    assert standings[0] == ("Standings: P1 0, P2 2, P3 2, P4 2, P5 2, P6 2, P7 2, P8 2, P9 2,"
                            " P10 2, P11 2, and P12 2; in the pot: 2.")


def test_the_story_of_a_large_table_grows_with_the_log_not_its_square(tmp_path: t.Any) -> None:
    small, large = big_table(tmp_path, 250), big_table(tmp_path, 1000)
    words = [sum(map(len, story)) for story in (small, large)]
    # Four times the players: four times the story, give or take, not sixteen.
    assert words[1] < 5 * words[0]
