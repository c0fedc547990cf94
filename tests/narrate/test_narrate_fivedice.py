"""The narration of Aces, the five-dice game: E3, the threes, standings and sessions."""

from __future__ import annotations

import contextlib
import io
import re
import typing as t
from collections import Counter
from pathlib import Path

import msgspec
import pytest
from narratetest import assert_in_order, story

from aces import engine
from aces.dice import DiceFile, RandomDice
from aces.errors import DiceFileError
from aces.events import DicePassed, DiceToCentre, GameOver, RollAgain, Rolled
from aces.i18n import translations
from aces.log import LogWriter, read
from aces.narrate import Narrator
from aces.narrate.fivedice import FiveDicePhrasebook
from aces.rules import fivedice
from aces.rules.seats import Seats
from aces.voice import Voice
from aces.walk import Step, drive, walk

if t.TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from aces.events import Event

REPLAYS: t.Final = Path(__file__).resolve().parent.parent.parent / "replays"
PLAYERS: t.Final = ("Ada", "Bo", "Cy")
GAME: t.Final = fivedice.GAME
#: Worked example E3 of the rulings, one die each, one roll per "/".
E3: t.Final = "5/2/1/3/4/2/5 1/2/3 1/6/1"
#: Another game of one die each: Cy opens and hands the die to Bo on the
#: right with a 5; Ada's 1 goes to the centre, then Bo rolls 1-4 and 1, and loses.
BO_LOSES: t.Final = "1/2/6/5/1/1 4/1"


def events_of(script: str, players: Sequence[str] = PLAYERS,
              options: Mapping[str, t.Any] | None = None) -> list[Event]:
    """The events of a game played from a dice script, as far as its dice go."""
    start = engine.header(fivedice.GAME, players, {"dice": 1, **(options or {})})
    events: list[Event] = []
    # For an opening alone, the dice run out part-way, as the test means them to.
    with contextlib.suppress(DiceFileError):
        events.extend(engine.play(fivedice.GAME, start, DiceFile(script.split("/"), "script")))
    return events


def log_of(*games: Sequence[Event]) -> bytes:
    out = io.BytesIO()
    writer = LogWriter(out)
    for events in games:
        writer.write_all(events)
    return out.getvalue()


def unfinished_story(log: bytes, lang: str) -> list[str]:
    """The story of a game that stops part-way (for openings alone)."""
    return drive(read(io.BytesIO(log), "t"), "t", Narrator(translations(lang), lang),
                 allow_unfinished=True)


def replay(name: str) -> bytes:
    return (REPLAYS / name).read_bytes()


# -- E3, one die each -------------------------------------------------------------

E3_EN: t.Final = [
    "Aces, game 1: Ada, Bo, and Cy have 1 die each.",
    "Each 1 goes to the centre, each 2 to the left, and each 5 to the right;"
    " whoever rolls the last 1 loses.",
    "Everyone rolls one die; whoever rolls highest starts.",
    "Ada rolls 5.",
    "Bo rolls 2.",
    "Cy rolls 1.",
    "Ada rolls highest with 5 and starts.",
    "Ada rolls 3; nothing moves, and the turn passes.",
    "Bo rolls 4; nothing moves, and the turn passes.",
    "Cy rolls 2.",
    "Cy passes 1 die to Ada on the left.",
    "Standings: Ada 2, Bo 1, and Cy 0; in the centre: 0.",
    "Ada rolls 5-1.",
    "Ada puts 1 die in the centre.",
    "Ada passes 1 die to Cy on the right.",
    "Standings: Ada 0, Bo 1, and Cy 1; in the centre: 1.",
    "Bo rolls 2.",
    "Bo passes 1 die to Cy on the left.",
    "Cy rolls 3-1.",
    "Cy puts 1 die in the centre.",
    "Standings: Ada 0, Bo 0, and Cy 1; in the centre: 2.",
    "Cy rolls again with 1 die.",
    "Cy rolls 6; nothing moves, and the turn passes.",
    "Ada holds no dice and misses the turn.",
    "Bo holds no dice and misses the turn.",
    "Cy rolls 1.",
    "Cy puts 1 die in the centre.",
    "All the dice are in the centre: Cy loses, and Ada and Bo win.",
]

E3_NB: t.Final = [
    "Femterningspillet, parti 1: Ada, Bo og Cy har én terning hver.",
    "Hver ener legges i midten, hver toer går til venstre og hver femmer til høyre;"
    " den som kaster den siste eneren, taper.",
    "Alle kaster én terning, og den som kaster høyest, begynner.",
    "Ada kaster høyest med 5 og begynner.",
    "Ada kaster 3; ingenting skjer, og turen går videre.",
    "Cy kaster 2.",
    "Cy sender én terning til venstre, til Ada.",
    "Stillingen: Ada 2, Bo 1 og Cy 0; i midten: 0.",
    "Ada kaster 5-1.",
    "Ada legger én terning i midten.",
    "Ada sender én terning til høyre, til Cy.",
    "Bo sender én terning til venstre, til Cy.",
    "Cy kaster 3-1.",
    "Cy legger én terning i midten.",
    "Cy kaster igjen med én terning.",
    "Cy kaster 6; ingenting skjer, og turen går videre.",
    "Ada har ingen terninger og står over.",
    "Bo har ingen terninger og står over.",
    "Cy kaster 1.",
    "Nå ligger alle terningene i midten: Cy taper, og Ada og Bo vinner.",
]

E3_NN: t.Final = [
    "Femterningspelet, parti 1: Ada, Bo og Cy har éin terning kvar.",
    "Kvar einar blir lagd i midten, kvar toar går til venstre og kvar femmar til høgre;"
    " den som kastar den siste einaren, tapar.",
    "Alle kastar éin terning, og den som kastar høgast, byrjar.",
    "Ada kastar høgast med 5 og byrjar.",
    "Ada kastar 3; ingenting skjer, og turen går vidare.",
    "Cy sender éin terning til venstre, til Ada.",
    "Stillinga: Ada 2, Bo 1 og Cy 0; i midten: 0.",
    "Ada legg éin terning i midten.",
    "Ada sender éin terning til høgre, til Cy.",
    "Cy kastar igjen med éin terning.",
    "Ada har ingen terningar og står over.",
    "No ligg alle terningane i midten: Cy tapar, og Ada og Bo vinn.",
]


@pytest.mark.parametrize(("lang", "expected"), [("en", E3_EN), ("nb", E3_NB), ("nn", E3_NN)])
def test_e3_is_told_roll_by_roll(lang: str, expected: list[str]) -> None:
    lines = story(log_of(events_of(E3)), lang)
    assert_in_order(lines, expected)
    assert lines[0] == expected[0]
    assert lines[-1] == expected[-1]


def test_the_example_log_of_e3_is_told_the_same() -> None:
    assert story(replay("e3-one-die.jsonl"), "en") == story(log_of(events_of(E3)), "en")


@pytest.mark.parametrize("name", ["e3-one-die.jsonl", "five-dice-four-players.jsonl",
                                  "five-dice-threes.jsonl", "five-dice-one-die.jsonl"])
def test_every_roll_is_told_with_its_dice(name: str) -> None:
    log = replay(name)
    rolls = [step.event for step in walk(read(io.BytesIO(log), name), name)
             if isinstance(step.event, Rolled)]
    for lang, verb in [("en", "rolls"), ("nb", "kaster"), ("nn", "kastar")]:
        told = [line for line in story(log, lang) if re.match(rf"\w+ {verb} [\d-]+[;,.]", line)]
        assert [re.findall(r"\d(?:-\d)*", line)[0] for line in told] == \
            ["-".join(map(str, roll.dice)) for roll in rolls], lang


# -- The threes, and plurals ----------------------------------------------------------

@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["Aces, game 1: Ada, Bo, and Cy have 2 dice each.",
            "Each 1 goes to the centre, each 2 to the left, each 5 to the right, and each 3 to"
            " another player of the roller's choice; whoever rolls the last 1 loses.",
            "Everyone rolls all their dice; whoever has the highest total starts.",
            "Ada rolls 4-2, 6 in all.",
            "Bo rolls 6-5, 11 in all.",
            "Cy rolls 3-3, 6 in all.",
            "Bo has the highest total, 11, and starts.",
            "Bo rolls 3-4.",
            "Bo chooses to give 1 die to Ada.",
            "Bo rolls again with 1 die.",
            "Cy rolls 3-3.",
            "Cy chooses to give 1 die to Ada.",
            "Cy chooses to give 1 die to Bo.",
            "Standings: Ada 4, Bo 2, and Cy 0; in the centre: 0.",
            "Ada rolls 1-2-5-6.",
            "Bo rolls 3-3-1.",
            "Bo puts 1 die in the centre.",
            "Bo chooses to give 2 dice to Cy.",
            "Cy passes 2 dice to Ada on the left.",
            "Cy rolls again with 1 die.",
            "Ada rolls 1-1-3.",
            "Ada puts 2 dice in the centre.",
            "Ada chooses to give 1 die to Bo.",
            "Bo rolls 6; nothing moves, and the turn passes.",
            "All the dice are in the centre: Bo loses, and Ada and Cy win."]),
    ("nb", ["Femterningspillet, parti 1: Ada, Bo og Cy har to terninger hver.",
            "Hver ener legges i midten, hver toer går til venstre, hver femmer til høyre og"
            " hver treer til en annen spiller som kasteren velger; den som kaster den siste eneren,"
            " taper.",
            "Alle kaster alle terningene sine, og den som får høyest sum, begynner.",
            "Ada kaster 4-2, til sammen 6.",
            "Bo har høyest sum, 11, og begynner.",
            "Bo velger å gi én terning til Ada.",
            "Bo kaster igjen med én terning.",
            "Bo legger én terning i midten.",
            "Bo velger å gi to terninger til Cy.",
            "Cy sender to terninger til venstre, til Ada.",
            "Ada legger to terninger i midten.",
            "Nå ligger alle terningene i midten: Bo taper, og Ada og Cy vinner."]),
])
def test_the_threes_name_the_chosen_receivers(lang: str, expected: list[str]) -> None:
    lines = story(replay("five-dice-threes.jsonl"), lang)
    assert_in_order(lines, expected)
    assert lines[-1] == expected[-1]


def test_three_is_only_a_number_without_the_variation() -> None:
    # Ada opens and rolls a 3 with one die: nothing moves.
    lines = story(log_of(events_of(E3)), "en")
    assert "Ada rolls 3; nothing moves, and the turn passes." in lines


def test_rolling_again_counts_the_dice_still_held() -> None:
    log = replay("five-dice-four-players.jsonl")
    steps = list(walk(read(io.BytesIO(log), "log"), "log"))
    again = [step.state.held[step.state.seats[step.event.player]] for step in steps
             if isinstance(step.event, RollAgain)]
    assert len(set(again)) > 1, "the example should roll again with different dice"
    told = [line for line in story(log, "en") if " rolls again with " in line]
    assert [int(re.findall(r"\d+", line)[0]) for line in told] == again
    for line, count in zip(told, again, strict=True):
        assert line.endswith("1 die." if count == 1 else f"{count} dice.")


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["Ada, Bo, and Cy have 2 dice each.",
            "Ada rolls 6-6, 12 in all.",
            "Bo rolls 6-6, 12 in all.",
            "Cy rolls 1-2, 3 in all.",
            "Ada and Bo tie with a total of 12 and roll again.",
            "Ada rolls 3-4, 7 in all.",
            "Bo rolls 5-6, 11 in all.",
            "Bo has the highest total, 11, and starts."]),
    ("nb", ["Ada, Bo og Cy har to terninger hver.",
            "Ada og Bo står likt med summen 12 og kaster på nytt.",
            "Bo kaster 5-6, til sammen 11.",
            "Bo har høyest sum, 11, og begynner."]),
])
def test_an_opening_of_several_dice_is_told_in_totals(lang: str, expected: list[str]) -> None:
    events = events_of("6 6/6 6/1 2/3 4/5 6", options={"dice": 2})
    lines = unfinished_story(log_of(events), lang)
    assert lines[0].endswith(expected[0])
    assert_in_order(lines, expected[1:])


# -- Standings ------------------------------------------------------------------------

def test_standings_follow_every_roll_that_moved_dice_and_no_other() -> None:
    log = replay("five-dice-four-players.jsonl")
    steps = list(walk(read(io.BytesIO(log), "log"), "log"))
    narrator = Narrator(translations("en"), "en")
    moved = False
    for step in steps:
        narrator.visit(step)
        lines = narrator.take()
        shown = [line for line in lines if line.startswith("Standings:")]
        if isinstance(step.event, (DiceToCentre, DicePassed)):
            moved = True
            assert not shown, "standings wait until the roll is settled"
        elif isinstance(step.event, GameOver):
            # Every die is in the centre: the loser's line says it all.
            assert not shown
            moved = False
        else:
            assert len(shown) == (1 if moved else 0), step
            moved = False
    narrator.end()
    assert narrator.take() == []


def test_standings_count_every_die_in_hand_and_in_the_centre() -> None:
    log = replay("five-dice-four-players.jsonl")
    seen = 0
    for lang, word in [("en", "Standings:"), ("nb", "Stillingen:")]:
        for line in story(log, lang):
            if line.startswith(word):
                seen += 1
                assert sum(int(n) for n in re.findall(r"\d+", line)) == 4 * 5, line
    assert seen > 10


# -- Sessions: games lost --------------------------------------------------------------

@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["All the dice are in the centre: Cy loses, and Ada and Bo win.",
            "Aces, game 2: Ada, Bo, and Cy have 1 die each.",
            "All the dice are in the centre: Bo loses, and Ada and Cy win.",
            "Losses after 2 games: Ada 0, Bo 1, and Cy 1.",
            "Aces, game 3: Ada, Bo, and Cy have 1 die each.",
            "Losses after 3 games: Ada 0, Bo 1, and Cy 2.",
            "Cy lost the most games: 2 of 3."]),
    ("nb", ["Femterningspillet, parti 2: Ada, Bo og Cy har én terning hver.",
            "Tap etter to partier: Ada 0, Bo 1 og Cy 1.",
            "Tap etter tre partier: Ada 0, Bo 1 og Cy 2.",
            "Cy tapte flest partier: to av tre."]),
    ("nn", ["Femterningspelet, parti 2: Ada, Bo og Cy har éin terning kvar.",
            "Tap etter to parti: Ada 0, Bo 1 og Cy 1.",
            "Tap etter tre parti: Ada 0, Bo 1 og Cy 2.",
            "Cy tapa flest parti: to av tre."]),
])
def test_a_session_keeps_the_tally_of_games_lost(lang: str, expected: list[str]) -> None:
    lines = story(log_of(events_of(E3), events_of(BO_LOSES), events_of(E3)), lang)
    assert_in_order(lines, expected)
    assert lines[-1] == expected[-1]


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "Bo and Cy lost the most games, 1 game each."),
    ("nb", "Bo og Cy deler sisteplassen med ett tap hver."),
    ("nn", "Bo og Cy deler sisteplassen med eitt tap kvar."),
])
def test_a_shared_last_place_is_told(lang: str, expected: str) -> None:
    assert story(log_of(events_of(E3), events_of(BO_LOSES)), lang)[-1] == expected


def test_a_generated_session_tallies_the_losers_of_its_log() -> None:
    games = []
    for seed in (21, 22, 23, 24):
        start = engine.header(fivedice.GAME, ("Ada", "Bo", "Cy", "Dag"), {"dice": 2}, seed)
        games.append(list(engine.play(fivedice.GAME, start, RandomDice(seed))))
    losers = Counter(game[-1].loser for game in games if isinstance(game[-1], GameOver))
    tally = story(log_of(*games), "en")[-2]
    assert tally == "Losses after 4 games: " + ", ".join(
        f"{name} {losers[name]}" for name in ("Ada", "Bo", "Cy")) + f", and Dag {losers['Dag']}."


def test_a_single_game_has_no_tally() -> None:
    lines = story(log_of(events_of(E3)), "en")
    assert not any(line.startswith("Losses") or "the most games" in line for line in lines)


# -- The cache never mixes games up ------------------------------------------------------

def test_the_same_event_in_another_setting_is_told_afresh() -> None:
    book = FiveDicePhrasebook(Voice(translations("en"), "en"))
    header = engine.header(fivedice.GAME, ("Ada", "Bo", "Cy"), {"dice": 3})
    state = msgspec.structs.replace(fivedice.start(header), phase="play")
    again = RollAgain(player="Ada")
    two = msgspec.structs.replace(state, held=Seats((2, 3, 3)))
    assert book.say(Step(1, again, two, GAME)) == \
        ("Ada rolls again with 2 dice.",)
    one = msgspec.structs.replace(state, held=Seats((1, 3, 3)))
    assert book.say(Step(2, again, one, GAME)) == \
        ("Ada rolls again with 1 die.",)
    over = GameOver(loser="Ada")
    assert book.say(Step(3, over, state, GAME)) == (
        "All the dice are in the centre: Ada loses, and Bo and Cy win.",)
    four = fivedice.start(engine.header(fivedice.GAME, ("Ada", "Bo", "Cy", "Dag"), {}))
    assert book.say(Step(4, over, four, GAME)) == (
        "All the dice are in the centre: Ada loses, and Bo, Cy, and Dag win.",)
    roll = Rolled(player="Ada", dice=(3, 4, 6), stage="turn")
    threes = msgspec.structs.replace(state, threes=True)
    assert book.say(Step(5, roll, state, GAME)) == (
        "Ada rolls 3-4-6; nothing moves, and the turn passes.",)
    assert book.say(Step(6, roll, threes, GAME)) == ("Ada rolls 3-4-6.",)


# -- Nothing English in Norwegian ----------------------------------------------------

@pytest.mark.parametrize("lang", ["nb", "nn"])
def test_no_english_leaks_into_norwegian(lang: str) -> None:
    logs = [replay("five-dice-four-players.jsonl"), replay("five-dice-threes.jsonl"),
            log_of(events_of(E3), events_of(BO_LOSES))]
    english = {word for log in logs for line in story(log, "en")
               for word in re.findall(r"[A-Za-z]{2,}", line)}
    # Names are names in every language; "to" is Norwegian too.
    shared = {"Ada", "Bo", "Cy", "Dag", "to"}
    norwegian = " ".join(line for log in logs for line in story(log, lang))
    leaked = {word for word in english - shared if re.search(rf"\b{word}\b", norwegian)}
    assert not leaked
