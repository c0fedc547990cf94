"""The registry of games: a third game, defined here in the tests alone.

"Race to ten" is a small game of its own: the players roll one die in turn,
each face is added to the roller's score, and the first to reach the target
wins. It uses the events every game has (``rolled``, ``game_over``), brings
its rules and an English phrasebook, and is registered once, by the fixture
below; no module of the package names it. The real commands then play it,
verify it, replay it and walk through it.
"""

from __future__ import annotations

import typing as t

import msgspec
import pytest

from aces.errors import OptionError, Plural, RollError
from aces.events import GameOver, Rolled
from aces.games import (
    Holding,
    Option,
    Registration,
    declared,
    game_named,
    games,
    register,
    registered,
    registration,
    unregister,
)
from aces.narrate.phrasebook import Phrasebook
from aces.rules import Decider, OptionValue, Roll, RollRequest, check_names, parse_options
from aces.rules.table import Table, seating

from clitest import ENGLISH, one_line_error, run

if t.TYPE_CHECKING:
    from collections.abc import Iterator, Mapping, Sequence
    from pathlib import Path

    from aces.events import Event, GameStarted
    from aces.narrate.phrasebook import Lines
    from aces.walk import Step


# -- The rules ------------------------------------------------------------------


class RaceOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    target: int = 10


class RaceState(Table, frozen=True, kw_only=True):
    target: int
    scores: tuple[int, ...]
    winner: str | None = None


def options(raw: Mapping[str, OptionValue]) -> dict[str, OptionValue]:
    return msgspec.structs.asdict(parse_options(raw, RaceOptions, "invalid option: {detail}"))


def start(header: GameStarted) -> RaceState:
    check_names(header.players, 2)
    target = options(header.options)["target"]
    assert isinstance(target, int)
    return RaceState(**seating(header.players), target=target, scores=(0,) * len(header.players))


def next_roll(state: RaceState) -> RollRequest | None:
    if state.winner is not None:
        return None
    return RollRequest(state.players[state.turn], 1, "turn")


def decide(state: RaceState, roll: Roll) -> tuple[Event, ...]:
    if roll.to:
        raise RollError("nothing is given by choice in a race")
    player = state.players[state.turn]
    rolled = Rolled(player=player, dice=roll.dice, stage="turn")
    if state.scores[state.turn] + roll.dice[0] >= state.target:
        return (rolled, GameOver(winner=player))
    return (rolled,)


def evolve(state: RaceState, event: Event) -> RaceState:
    match event:
        case Rolled(dice=(face,)):
            scores = list(state.scores)
            scores[state.turn] += face
            return msgspec.structs.replace(state, scores=tuple(scores),
                                           turn=state.left_of(state.turn))
        case GameOver(winner=winner):
            return msgspec.structs.replace(state, winner=winner)
    return state


RACE_RULES: t.Final = Decider[RaceState](
    name="race", options=options, min_players=2, start=start,
    next_roll=next_roll, decide=decide, evolve=evolve, widest_roll=lambda header: (1, 0))


# -- The words ------------------------------------------------------------------


class RacePhrasebook(Phrasebook):
    game = "race"
    moving = frozenset({Rolled})
    standings_line = changed_line = "Scores: {players}."
    out_name, out_heading = "target", "Target"
    tally_line = Plural("Races won after {count} game: {players}.",
                        "Races won after {count} games: {players}.", by="count")
    verdict_line = "Most races won: {player}."
    shared_verdict_line = Plural("Most races won: {players}.", "Most races won: {players}.",
                                 by="count")

    def header(self, number: int, event: GameStarted) -> Lines:
        v = self.voice
        return (v.gettext("Race to {target}, game {number}: {players}.").format(
            target=event.options["target"], number=v.number(number),
            players=v.names(event.players)),)

    def tell(self, event: Event, context: t.Any) -> Lines:
        v = self.voice
        match event:
            case Rolled(player=player, dice=(face,)):
                return (v.gettext("{player} rolls {value}.").format(player=player,
                                                                     value=v.number(face)),)
            case GameOver(winner=winner):
                return (v.gettext("{player} reaches the target and wins.").format(
                    player=winner),)
        return self.tell_shared(event)


def race_rules(step: Step[RaceState], before: RaceState) -> Sequence[str]:
    """Play passes to the left: explained at the first roll."""
    return ("left",) if isinstance(step.event, Rolled) else ()


RACE: t.Final = Registration(
    rules=RACE_RULES, phrasebook=RacePhrasebook,
    holding=lambda state: Holding(state.players, state.scores, state.target),
    rulebook=race_rules, session_rule="session",
    options=(Option("--target", "target", "race: the score that wins (default 10)."),))


@pytest.fixture
def race() -> Iterator[Registration[RaceState]]:
    register(RACE)
    yield RACE
    unregister("race")


# -- The tests ------------------------------------------------------------------


def test_the_built_in_games_are_registered_once_each() -> None:
    assert sorted(registered()) == ["five-dice", "pot"]
    assert games() == {name: game.rules for name, game in registered().items()}
    with pytest.raises(ValueError, match="registered already"):
        register(registration("pot"))


def test_a_registered_game_is_known_by_every_table(race: Registration[RaceState]) -> None:
    assert registration("race") is race
    assert game_named("race") is race.rules
    assert "race" in games()


def test_every_game_declares_options_its_rules_take() -> None:
    for name, game in registered().items():
        assert declared()[name] == game.options
        accepted = game.rules.options({})
        for option in game.options:
            assert option.key in accepted, (name, option.flag)


def test_the_built_in_games_options_are_known_before_their_rules_are_loaded() -> None:
    import subprocess
    import sys

    probe = ("import sys; from aces.games import declared;"
             " print(sorted(o.flag for options in declared().values() for o in options));"
             " print('aces.rules' in sys.modules, 'msgspec' in sys.modules)")
    shown = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                           check=True).stdout.splitlines()
    assert shown == [str(sorted(option.flag for options in declared().values()
                                for option in options)), "False False"]


def test_an_unregistered_game_is_unknown_again() -> None:
    with pytest.raises(OptionError, match="unknown game 'race'; the games are: five-dice, pot"):
        game_named("race")


def test_a_third_game_is_played_verified_replayed_and_walked_through(
    race: Registration[RaceState], tmp_path: Path,
) -> None:
    log = tmp_path / "race.jsonl"
    played = run("play", "--game", "race", "--players", "Ada,Bo", "--seed", "4", "--games", "2",
                 "-o", str(log), env=ENGLISH)
    assert played.exit_code == 0, played.output
    lines = log.read_bytes().splitlines()
    assert b'"game":"race"' in lines[0]

    verified = run("verify", str(log), env=ENGLISH)
    assert verified.exit_code == 0, verified.output
    assert "follows the rules: 2 games and" in verified.output
    assert "Wins:" in verified.output

    replayed = run("replay", str(log), env=ENGLISH)
    assert replayed.exit_code == 0, replayed.output
    story = replayed.output.splitlines()
    assert story[0] == "Race to 10, game 1: Ada and Bo."
    assert story[1].startswith("Ada rolls ")
    assert story[2].startswith("Scores: Ada ")
    assert sum(line.endswith("reaches the target and wins.") for line in story) == 2
    assert any(line.startswith("Races won after 2 games: Ada ") for line in story)
    assert story[-1].startswith("Most races won: ")

    walked = run("walkthrough", str(log), "--format", "markdown", env=ENGLISH)
    assert walked.exit_code == 0, walked.output
    assert "> **Rule:** Play passes to the left" in walked.output
    assert "| Ada | Bo | Target |" in walked.output
    assert "every game starts level" in walked.output  # the session rule, at game 2


def test_a_third_game_brings_its_own_option_to_every_command_that_begins_games(
    race: Registration[RaceState], tmp_path: Path,
) -> None:
    for command in ("play", "record", "simulate"):
        helped = run(command, "--help", env=ENGLISH)
        assert "--target INTEGER RANGE" in helped.output, command
        assert "race: the score that wins (default 10)." in helped.output
        assert "--game [five-dice|pot|race]" in helped.output, command
    # Offered by every command, and refused, by name, by one that cannot play it.
    assert one_line_error(run("simulate", "--game", "race", "--players", "2")) \
        == "aces: the simulation does not know the game 'race'; it knows: five-dice, pot"

    log = tmp_path / "race.jsonl"
    played = run("play", "--game", "race", "--players", "Ada,Bo", "--target", "3",
                 "--seed", "1", "-o", str(log), env=ENGLISH)
    assert played.exit_code == 0, played.output
    assert b'"options":{"target":3}' in log.read_bytes().splitlines()[0]
    assert run("replay", str(log), env=ENGLISH).output.startswith("Race to 3, game 1:")

    # Recorded at the table: the option begins the game, and going on with
    # another target is refused, naming both.
    table = tmp_path / "table.jsonl"
    recorded = run("record", str(table), "--game", "race", "--players", "Ada,Bo",
                   "--target", "20", input="6\n", env=ENGLISH)
    assert recorded.exit_code == 0, recorded.output
    assert b'"options":{"target":20}' in table.read_bytes().splitlines()[0]
    refused = one_line_error(run("record", str(table), "--target", "5", input="",
                                 env=ENGLISH))
    assert "begun with --game race --players Ada,Bo --target 20, not --target 5;" in refused
    going_on = run("record", str(table), "--target", "20", input="4\n", env=ENGLISH)
    assert going_on.exit_code == 0, going_on.output

    # Another game's option is refused by name, and so is this one elsewhere.
    assert one_line_error(run("play", "--game", "race", "--players", "2", "--chips", "3")) \
        == "aces: --chips is not an option of the game race"
    assert one_line_error(run("play", "--players", "2", "--target", "3")) \
        == "aces: --target is not an option of the game pot"
    assert "'--target'" in one_line_error(run("play", "--game", "race", "--players", "2",
                                              "--target", "0"))


def test_a_game_taken_out_of_the_registry_takes_its_option_along() -> None:
    register(RACE)
    try:
        assert "--target" in run("play", "--help").output
    finally:
        unregister("race")
    assert "--target" not in run("play", "--help").output
    assert "--game [five-dice|pot]" in run("play", "--help").output
    assert "'race' is not one of 'five-dice', 'pot'" in one_line_error(
        run("play", "--game", "race", "--players", "2"))
    assert "No such option" in one_line_error(run("play", "--players", "2", "--target", "3"))


def test_a_third_games_unfinished_log_is_sound_so_far_and_says_whose_roll_it_is(
    race: Registration[RaceState], tmp_path: Path,
) -> None:
    log = tmp_path / "race.jsonl"
    assert run("play", "--game", "race", "--players", "Ada,Bo", "--seed", "4",
               "-o", str(log)).exit_code == 0
    lines = log.read_text().splitlines()
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:3]) + "\n")
    result = run("verify", str(cut), env=ENGLISH)
    assert result.exit_code == 0, result.output
    assert result.output.rstrip().endswith("rolls next.")
    assert "The game is not finished yet: " in result.output


def test_a_third_game_without_engines_is_refused_by_name_where_it_has_none(
    race: Registration[RaceState], tmp_path: Path,
) -> None:
    import aces

    assert not race.has("odds")
    assert not race.has("simulation")
    assert race.title == "race"
    with pytest.raises(OptionError, match="no exact odds for the game 'race', only for:"
                                          " five-dice, pot"):
        aces.odds(2, game="race")
    page = tmp_path / "race.html"
    assert one_line_error(run("simulate", "--game", "race", "--players", "2", "--html",
                              str(page))) \
        == "aces: the simulation does not know the game 'race'; it knows: five-dice, pot"
    assert not page.exists()


def test_every_fact_of_a_game_is_on_its_registration() -> None:
    """No module but a game's own and the registry names a game: a report asks
    the registration for the title, what a result counts and which pieces a
    game brings, so that a third game is one register call."""
    import ast
    from pathlib import Path

    import aces

    names = set(registered())
    package = Path(aces.__file__).parent
    found: list[str] = []
    for path in sorted(package.rglob("*.py")):
        module = path.relative_to(package.parent).with_suffix("").parts
        if module == ("aces", "games") or any(
                part in ("pot", "fivedice") or part.startswith("fivedice_") for part in module):
            continue  # the registry, and the games' own modules
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare):
                named = [value for value in (node.left, *node.comparators)
                         if isinstance(value, ast.Constant) and value.value in names]
                if named:
                    found.append(f"{path.name}:{node.lineno} compares with a game's name")
            elif isinstance(node, ast.Dict | ast.Set | ast.Tuple | ast.List):
                items = node.keys if isinstance(node, ast.Dict) else node.elts
                texts = [item.value for item in items
                         if isinstance(item, ast.Constant) and isinstance(item.value, str)]
                if texts and set(texts) <= names:
                    found.append(f"{path.name}:{node.lineno} keeps a table by game")
    assert not found, "\n".join(found)


def test_no_script_of_a_page_names_a_game() -> None:
    """The pages' scripts ask the data the package wrote for whatever differs by
    game (a table's headings, whether the chances are to win or to lose), and
    never name a game: the rules and the games' facts stay in Python."""
    import re
    from pathlib import Path

    import aces

    quoted = re.compile("|".join(rf"([\"']){re.escape(name)}\1" for name in registered()))
    found = [f"{path.name}:{number}: {line.strip()}"
             for path in sorted(Path(aces.__file__).parent.rglob("*.js"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if quoted.search(line)]
    assert found == []
