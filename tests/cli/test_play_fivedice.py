"""``aces play --game five-dice``: generated and typed-in games, and bad input."""

from __future__ import annotations

import io
import json
import random
import re
import typing as t
from pathlib import Path

import pytest
from click.testing import CliRunner

from aces import engine
from aces.cli import cli
from aces.dice import DiceFile
from aces.events import (
    SCHEMA,
    DicePassed,
    Event,
    GameOver,
    GameStarted,
    OpeningTied,
    RollAgain,
    Rolled,
    TurnMissed,
)
from aces.log import read
from aces.rules import fivedice
from aces.walk import walk

from clitest import ENGLISH, one_line_error

if t.TYPE_CHECKING:
    from click.testing import Result

REPLAYS: t.Final = Path(__file__).resolve().parents[2] / "replays"
#: English whatever the machine's locale.
FIVE: t.Final = ("--game", "five-dice")
#: Worked example E3 of the rulings, one roll a line.
E3_DICE: t.Final = "5\n2\n1\n3\n4\n2\n5 1\n2\n3 1\n6\n1\n"
#: Ada, Bo and Cy with two dice each and the threes variation: Ada opens.
THREES_OPENING: t.Final = "6 6\n2 2\n1 1\n"


def run(*args: str, stdin: str | None = None) -> Result:
    return CliRunner(env=ENGLISH).invoke(cli, ["play", *args], input=stdin)


def events(data: bytes) -> list[Event]:
    """A log's events, checked against the rules on the way."""
    lines = io.BytesIO(data).readlines()
    return [step.event for step in walk(read(lines, "log"), "log")]


def objects(data: bytes) -> list[dict[str, t.Any]]:
    return [json.loads(line) for line in data.decode("utf-8").splitlines()]



# -- Generated dice -----------------------------------------------------------


def test_a_generated_game_is_a_log_that_follows_the_rules() -> None:
    result = run(*FIVE, "--players", "Ada,Bo,Cy,Dag", "--seed", "11")
    assert result.exit_code == 0, result.output
    played = events(result.stdout_bytes)
    assert played[0] == GameStarted(
        schema=SCHEMA, game="five-dice", players=("Ada", "Bo", "Cy", "Dag"),
        options={"dice": 5, "threes": False, "threes_to": "random"}, seed=11)
    assert isinstance(played[-1], GameOver)
    assert played[-1].loser in {"Ada", "Bo", "Cy", "Dag"}
    assert run(*FIVE, "--players", "Ada,Bo,Cy,Dag", "--seed", "11").stdout_bytes == (
        result.stdout_bytes)


def test_verify_reads_a_five_dice_log_without_being_told_the_game() -> None:
    played = run(*FIVE, "--players", "4", "--seed", "2")
    result = CliRunner(env=ENGLISH).invoke(cli, ["verify", "-"], input=played.stdout_bytes)
    assert result.exit_code == 0, result.output
    assert "follows the rules" in result.stdout


def test_dice_each_sets_the_dice_every_player_starts_with() -> None:
    result = run(*FIVE, "--players", "Ada,Bo,Cy", "--dice-each", "1", "--seed", "4")
    assert result.exit_code == 0, result.output
    played = events(result.stdout_bytes)
    assert played[0].options["dice"] == 1  # type: ignore[union-attr]
    openings = [e for e in played if isinstance(e, Rolled) and e.stage == "opening"]
    assert {len(e.dice) for e in openings} == {1}


def test_a_session_of_five_dice_games_has_a_loser_for_each() -> None:
    result = run(*FIVE, "--players", "3", "--dice-each", "2", "--games", "3", "--seed", "40")
    assert result.exit_code == 0, result.output
    played = events(result.stdout_bytes)
    assert [e.seed for e in played if isinstance(e, GameStarted)] == [40, 41, 42]
    assert len([e for e in played if isinstance(e, GameOver) and e.loser]) == 3


@pytest.mark.parametrize("policy", ["random", "fewest", "most"])
def test_threes_with_each_policy_name_a_receiver_for_every_3(policy: str) -> None:
    result = run(*FIVE, "--players", "4", "--threes", "--threes-to", policy, "--seed", "8")
    assert result.exit_code == 0, result.output
    played = events(result.stdout_bytes)
    header = played[0]
    assert isinstance(header, GameStarted)
    assert header.options == {"dice": 5, "threes": True, "threes_to": policy}
    given = [e for e in played if isinstance(e, Rolled) and e.to]
    assert given
    for roll in given:
        assert len(roll.to) == roll.dice.count(3)
        assert roll.player not in roll.to


@pytest.mark.parametrize("policy", ["fewest", "most"])
def test_the_chosen_policy_decides_whom_the_3s_go_to(policy: str) -> None:
    result = run(*FIVE, "--players", "5", "--threes", "--threes-to", policy, "--seed", "8")
    played = events(result.stdout_bytes)
    header = played[0]
    assert isinstance(header, GameStarted)
    state = fivedice.start(header)
    for event in played[1:]:
        if isinstance(event, Rolled) and event.to:
            assert fivedice.choose(state, event.dice, random.Random()) == event.to
        state = fivedice.evolve(state, event)


def test_threes_alone_chooses_at_random() -> None:
    result = run(*FIVE, "--players", "3", "--threes", "--seed", "8")
    assert result.exit_code == 0, result.output
    assert objects(result.stdout_bytes)[0]["options"]["threes_to"] == "random"


# -- Dice files ---------------------------------------------------------------


def test_worked_example_e3_typed_in(tmp_path: Path) -> None:
    (tmp_path / "e3.dice").write_text(E3_DICE, encoding="utf-8")
    result = run(*FIVE, "--players", "Ada,Bo,Cy", "--dice-each", "1",
                 "--dice-file", str(tmp_path / "e3.dice"), "-o", str(tmp_path / "e3.jsonl"))
    assert result.exit_code == 0, result.output
    written = (tmp_path / "e3.jsonl").read_bytes()
    header = engine.header(fivedice.GAME, ["Ada", "Bo", "Cy"], {"dice": 1})
    expected = list(engine.play(fivedice.GAME, header, DiceFile(E3_DICE.splitlines(), "E3")))
    assert events(written) == expected
    assert expected[-1] == GameOver(loser="Cy")
    assert "seed" not in objects(written)[0]


def test_dice_can_come_from_standard_input() -> None:
    result = run(*FIVE, "--players", "Ada,Bo,Cy", "--dice-each", "1", "--dice-file", "-",
                 stdin=E3_DICE)
    assert result.exit_code == 0, result.output
    assert events(result.stdout_bytes)[-1] == GameOver(loser="Cy")


def test_threes_receivers_are_read_after_the_chevron() -> None:
    dice = (REPLAYS / "threes.dice").read_text(encoding="utf-8")
    result = run(*FIVE, "--players", "Ada,Bo,Cy", "--dice-each", "2", "--threes",
                 "--dice-file", "-", stdin=dice)
    assert result.exit_code == 0, result.output
    rolls = [e for e in events(result.stdout_bytes) if isinstance(e, Rolled) and e.to]
    assert rolls[0] == Rolled(player="Bo", dice=(3, 4), stage="turn", to=("Ada",))
    assert rolls[1].to == ("Ada", "Bo")


def test_the_help_documents_the_receivers_syntax() -> None:
    result = CliRunner(env=ENGLISH).invoke(cli, ["play", "--help"])
    assert result.exit_code == 0
    for words in ("five-dice", "--dice-each", "--threes-to", "'>'", "fewest", "most"):
        assert words in result.stdout


# -- Bad input ----------------------------------------------------------------


def written_before(result: Result) -> list[dict[str, t.Any]]:
    """What reached standard output: every line whole and following the rules."""
    lines = objects(result.stdout_bytes)
    # A partial game is a sound prefix of a game: walk it as one still being recorded.
    data = io.BytesIO(result.stdout_bytes).readlines()
    steps = list(walk(read(data, "log"), "log", allow_unfinished=True))
    assert len(steps) == len(lines)
    return lines


@pytest.mark.parametrize(
    ("args", "dice", "complaint", "last_good"),
    [
        # Ada holds two dice by line 7.
        (["--dice-each", "1"], E3_DICE.replace("5 1", "5"),
         "line 7: Ada rolls 2 dice here, but the line has 1", 9),
        (["--dice-each", "1"], "5\n2\n1 1\n",
         "line 3: Cy rolls 1 die here, but the line has 2", 3),
        (["--dice-each", "2", "--threes"], THREES_OPENING + "3 4\n",
         r"line 4: each 3 needs exactly one receiver \(3s rolled: 1, receivers named: 0\)", 5),
        (["--dice-each", "2", "--threes"], THREES_OPENING + "3 3 > Bo\n",
         r"line 4: each 3 needs exactly one receiver \(3s rolled: 2, receivers named: 1\)", 5),
        (["--dice-each", "2", "--threes"], THREES_OPENING + "3 4 > Bo Cy\n",
         r"line 4: each 3 needs exactly one receiver \(3s rolled: 1, receivers named: 2\)", 5),
        (["--dice-each", "2"], THREES_OPENING + "3 4 > Bo\n",
         "line 4: this roll gives no die by choice, so it names no receivers, but it names Bo",
         5),
        (["--dice-each", "2", "--threes"], "6 6 > Bo\n",
         "line 1: this roll gives no die by choice", 1),
        (["--dice-each", "2", "--threes"], THREES_OPENING + "3 4 > Ada\n",
         "line 4: Ada cannot give a 3 to themselves", 5),
        (["--dice-each", "2", "--threes"], THREES_OPENING + "# Ada\n\n3 4 > Zed\n",
         "line 6: Zed is not at the table, so cannot receive a 3", 5),
        (["--dice-each", "1"], E3_DICE + "4\n",
         "line 12: the game is over, but rolls are left from this line on", 23),
        (["--dice-each", "1"], E3_DICE.rsplit("1\n", 1)[0],
         "line 10: the dice run out here, but the game is not over: Cy rolls next", 20),
    ],
)
def test_a_dice_file_that_cannot_be_played_is_refused_at_its_line(
    args: list[str], dice: str, complaint: str, last_good: int
) -> None:
    result = run(*FIVE, "--players", "Ada,Bo,Cy", *args, "--dice-file", "-", stdin=dice)
    line = one_line_error(result)
    assert line.startswith("aces: <stdin>, line ")
    assert re.search(complaint, line), line
    written = written_before(result)
    # Nothing is written past the last good event.
    assert written[-1]["seq"] == last_good


def test_a_log_file_keeps_the_events_before_a_bad_line_and_nothing_after(
    tmp_path: Path,
) -> None:
    bad = tmp_path / "bad.dice"
    bad.write_text(THREES_OPENING + "3 4 > Cy\n6\n3 3 > Bo Bo\n", encoding="utf-8")
    result = run(*FIVE, "--players", "Ada,Bo,Cy", "--dice-each", "2", "--threes",
                 "--dice-file", str(bad), "-o", str(tmp_path / "g.jsonl"))
    assert one_line_error(result) == f"aces: {bad}, line 6: Bo cannot give a 3 to themselves"
    written = (tmp_path / "g.jsonl").read_bytes()
    kept = [step.event for step in walk(read(io.BytesIO(written).readlines(), "g"), "g",
                                        allow_unfinished=True)]
    assert kept[-1] == Rolled(player="Ada", dice=(6,), stage="turn")


@pytest.mark.parametrize("players", ["Ada,Bo", "2", "Ada"])
def test_fewer_than_three_players_are_refused_before_anything_is_written(players: str) -> None:
    result = run(*FIVE, "--players", players, "--seed", "1")
    assert "needs at least 3 players" in one_line_error(result)
    assert result.stdout_bytes == b""


@pytest.mark.parametrize(
    ("args", "option", "game"),
    [
        ([*FIVE, "--finish", "last-holder"], "--finish", "five-dice"),
        ([*FIVE, "--chips", "3"], "--chips", "five-dice"),
        (["--dice-each", "2"], "--dice-each", "pot"),
        (["--threes"], "--threes", "pot"),
        (["--game", "pot", "--threes-to", "most"], "--threes-to", "pot"),
    ],
)
def test_an_option_of_the_other_game_is_refused_by_name(
    args: list[str], option: str, game: str
) -> None:
    result = run(*args, "--players", "3", "--seed", "1")
    assert one_line_error(result) == f"aces: {option} is not an option of the game {game}"
    assert result.exit_code == 2
    assert result.stdout_bytes == b""


def test_threes_to_needs_threes() -> None:
    result = run(*FIVE, "--players", "3", "--threes-to", "most", "--seed", "1")
    assert "--threes-to" in one_line_error(result)
    assert "needs --threes" in result.stderr
    assert result.stdout_bytes == b""


def test_threes_to_is_for_generated_dice_only() -> None:
    result = run(*FIVE, "--players", "3", "--threes", "--threes-to", "most", "--dice-file", "-",
                 stdin=E3_DICE)
    assert "a dice file names whom each 3 goes to" in one_line_error(result)
    assert result.stdout_bytes == b""


def test_dice_each_must_be_at_least_one() -> None:
    result = run(*FIVE, "--players", "3", "--dice-each", "0")
    assert result.exit_code == 2
    assert "--dice-each" in result.stderr
    assert result.stdout_bytes == b""



# -- The example logs ---------------------------------------------------------


@pytest.mark.parametrize("name", ["five-dice-four-players.jsonl", "five-dice-one-die.jsonl"])
def test_the_generated_examples_show_what_the_script_says(name: str) -> None:
    played = events((REPLAYS / name).read_bytes())
    kinds = {type(e) for e in played}
    assert {OpeningTied, RollAgain, TurnMissed} <= kinds
    assert {e.face for e in played if isinstance(e, DicePassed)} >= {2, 5}
