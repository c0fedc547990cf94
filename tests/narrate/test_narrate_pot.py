"""The narration of Aces in the Pot: the rulings' worked examples, told in both languages."""

from __future__ import annotations

import io
import re
import typing as t

import pytest
from narratetest import assert_in_order, story

from aces import engine
from aces.dice import DiceFile
from aces.games import game_named
from aces.log import LogWriter

if t.TYPE_CHECKING:
    from collections.abc import Sequence

#: The worked examples of RULINGS.md, one roll per "/".
E1: t.Final = "2/3/5/1 6/3 5/6 6/1 1/1 6/1 4/2 5/6 6/1 1/3 4/5 2"
E2: t.Final = "4/4/2/1/3/1 1/1 1/6 6/1 5/6 3/2 4/1 1/6 2/4 4/2 2/3 3"
#: Two players with one chip each: Ada passes hers to Bo, whose 1-1 puts one
#: chip in the pot while the other ace is ignored; Bo then wins a pot of 1.
IGNORED_ACE: t.Final = "6/1/6 2/1 1/2 3/4 5/2 2"


def log_of(*scripts: str, finish: str = "last-chip", players: Sequence[str] = ("Ada", "Bo", "Cy"),
           chips: int = 2) -> bytes:
    """A log of one game per dice script, played by the engine."""
    game = game_named("pot")
    out = io.BytesIO()
    writer = LogWriter(out)
    for script in scripts:
        start = engine.header(game, players, {"finish": finish, "chips": chips})
        writer.write_all(engine.play(game, start, DiceFile(script.split("/"), "script")))
    return out.getvalue()


# -- E1, last-chip --------------------------------------------------------------

E1_EN: t.Final = [
    "Aces in the Pot, game 1: Ada, Bo, and Cy have 2 chips each.",
    "The finish starts when only one chip is left in play.",
    "Ada rolls 2.",
    "Bo rolls 3.",
    "Cy rolls 5.",
    "Cy rolls highest with 5 and starts.",
    "Cy rolls 1-6.",
    "Cy puts 1 chip in the pot.",
    "Cy passes 1 chip to Ada on the left.",
    "Standings: Ada 3, Bo 2, and Cy 0; in the pot: 1.",
    "Ada rolls 3-5, and nothing happens.",
    "Bo rolls 6-6.",
    "Bo passes 2 chips to Cy on the left.",
    "Standings: Ada 3, Bo 0, and Cy 2; in the pot: 1.",
    "Cy rolls 1-1.",
    "Cy puts 2 chips in the pot.",
    "Ada rolls 1-6.",
    "Bo rolls 1-4.",
    "Bo puts 1 chip in the pot.",
    "Standings: Ada 1, Bo 0, and Cy 0; in the pot: 5.",
    "Only one chip is left in play, and Ada holds it: the finish begins.",
    "Ada makes a try and needs three rolls without a six to win the pot.",
    "Ada rolls 2-5 (roll 1 of 3 in the try).",
    "Ada rolls 6-6 (roll 2 of 3 in the try).",
    "The try is over: roll 2 shows 2 sixes.",
    "Ada passes 1 chip to Bo on the left.",
    "Bo makes a try and needs three rolls without a six to win the pot.",
    "Bo rolls 1-1 (roll 1 of 3 in the try); the aces count for nothing.",
    "Bo rolls 3-4 (roll 2 of 3 in the try).",
    "Bo rolls 5-2 (roll 3 of 3 in the try).",
    "Three rolls without a six: Bo has done it!",
    "Bo wins the pot of 5 chips.",
]

E1_NB: t.Final = [
    "Ess i potten, parti 1: Ada, Bo og Cy har to sjetonger hver.",
    "Sluttspillet begynner når bare én sjetong er igjen i spill.",
    "Alle kaster én terning, og den som kaster høyest, begynner.",
    "Cy kaster 5.",
    "Cy kaster høyest med 5 og begynner.",
    "Cy kaster 1-6.",
    "Cy legger én sjetong i potten.",
    "Cy sender én sjetong til venstre, til Ada.",
    "Stillingen: Ada 3, Bo 2 og Cy 0; i potten: 1.",
    "Ada kaster 3-5, og ingenting skjer.",
    "Bo kaster 6-6.",
    "Bo sender to sjetonger til venstre, til Cy.",
    "Cy legger to sjetonger i potten.",
    "Bo legger én sjetong i potten.",
    "Stillingen: Ada 1, Bo 0 og Cy 0; i potten: 5.",
    "Bare én sjetong er igjen i spill, og det er Ada som har den. Sluttspillet begynner.",
    "Ada får et forsøk og må klare tre kast uten sekser for å vinne potten.",
    "Ada kaster 2-5 (kast 1 av 3 i forsøket).",
    "Forsøket er over: kast 2 ga to seksere.",
    "Ada sender én sjetong til venstre, til Bo.",
    "Bo kaster 1-1 (kast 1 av 3 i forsøket); essene teller ikke.",
    "Tre kast uten sekser: Bo klarte det!",
    "Bo vinner potten på fem sjetonger.",
]

E1_NN: t.Final = [
    "Ess i potten, parti 1: Ada, Bo og Cy har to sjetongar kvar.",
    "Sluttspelet byrjar når berre éin sjetong er att i spel.",
    "Alle kastar éin terning, og den som kastar høgast, byrjar.",
    "Cy kastar høgast med 5 og byrjar.",
    "Cy kastar 1-6.",
    "Cy legg éin sjetong i potten.",
    "Cy sender éin sjetong til venstre, til Ada.",
    "Stillinga: Ada 3, Bo 2 og Cy 0; i potten: 1.",
    "Ada kastar 3-5, og ingenting skjer.",
    "Bo sender to sjetongar til venstre, til Cy.",
    "Cy legg to sjetongar i potten.",
    "Berre éin sjetong er att i spel, og det er Ada som har han. Sluttspelet byrjar.",
    "Ada får eit forsøk og må klare tre kast utan seksar for å vinne potten.",
    "Ada kastar 2-5 (kast 1 av 3 i forsøket).",
    "Forsøket er over: kast 2 gav to seksarar.",
    "Ada sender éin sjetong til venstre, til Bo.",
    "Bo kastar 1-1 (kast 1 av 3 i forsøket); essa tel ikkje.",
    "Tre kast utan seksar: Bo klarte det!",
    "Bo vinn potten på fem sjetongar.",
]


@pytest.mark.parametrize(("lang", "expected"), [("en", E1_EN), ("nb", E1_NB), ("nn", E1_NN)])
def test_e1_is_told_roll_by_roll(lang: str, expected: list[str]) -> None:
    lines = story(log_of(E1), lang)
    assert_in_order(lines, expected)
    assert lines[-1] == expected[-1]


def test_every_roll_is_told_with_its_dice() -> None:
    lines = story(log_of(E1), "en")
    rolls = [line for line in lines if re.match(r"\w+ rolls \d", line)]
    assert len(rolls) == len(E1.split("/"))


# -- E2, last-holder ------------------------------------------------------------

E2_EN: t.Final = [
    "The finish starts when only one player still holds chips.",
    "Ada and Bo tie with 4 and roll again.",
    "Ada rolls 1.",
    "Bo rolls 3.",
    "Bo rolls highest with 3 and starts.",
    "Bo puts 2 chips in the pot.",
    "Cy puts 2 chips in the pot.",
    "Standings: Ada 2, Bo 0, and Cy 0; in the pot: 4.",
    "Only Ada still holds chips, 2 chips in all: the finish begins.",
    "Ada makes a try and needs three rolls without a six to win the pot.",
    "Ada rolls 6-6 (roll 1 of 3 in the try).",
    "The try is over: roll 1 shows 2 sixes.",
    "Ada passes 2 chips to Bo on the left.",
    "Bo makes a try and needs three rolls without a six to win the pot.",
    "Bo rolls 1-5 (roll 1 of 3 in the try); the ace counts for nothing.",
    "Bo rolls 6-3 (roll 2 of 3 in the try).",
    "Bo passes 1 chip to Cy on the left.",
    "Standings: Ada 0, Bo 1, and Cy 1; in the pot: 4.",
    "Bo still has chips, so normal play goes on. Cy rolls next.",
    "Cy rolls 2-4, and nothing happens.",
    "Ada has empty hands and misses the turn.",
    "Bo rolls 1-1.",
    "Bo puts 1 chip in the pot.",
    "Bo is broke, so the rest of the roll costs nothing.",
    "Only one chip is left in play, and Cy holds it: the finish begins.",
    "Cy passes 1 chip to Ada on the left.",
    "Ada rolls 3-3 (roll 3 of 3 in the try).",
    "Three rolls without a six: Ada has done it!",
    "Ada wins the pot of 5 chips.",
]

E2_NB: t.Final = [
    "Sluttspillet begynner når bare én spiller har sjetonger igjen.",
    "Ada og Bo står likt med 4 og kaster på nytt.",
    "Bo kaster høyest med 3 og begynner.",
    "Bare Ada har sjetonger igjen, to sjetonger i alt. Sluttspillet begynner.",
    "Forsøket er over: kast 1 ga to seksere.",
    "Ada sender to sjetonger til venstre, til Bo.",
    "Bo kaster 1-5 (kast 1 av 3 i forsøket); esset teller ikke.",
    "Forsøket er over: kast 2 ga en sekser.",
    "Bo har fortsatt sjetonger, så spillet går videre som vanlig. Nå er det Cy som kaster.",
    "Cy kaster 2-4, og ingenting skjer.",
    "Ada har tomme hender og står over.",
    "Bo er blakk, så resten av kastet koster ingenting.",
    "Bare én sjetong er igjen i spill, og det er Cy som har den. Sluttspillet begynner.",
    "Tre kast uten sekser: Ada klarte det!",
    "Ada vinner potten på fem sjetonger.",
]

E2_NN: t.Final = [
    "Sluttspelet byrjar når berre éin spelar har sjetongar att.",
    "Ada og Bo står likt med 4 og kastar på nytt.",
    "Berre Ada har sjetongar att, to sjetongar i alt. Sluttspelet byrjar.",
    "Forsøket er over: kast 1 gav to seksarar.",
    "Ada sender to sjetongar til venstre, til Bo.",
    "Bo kastar 1-5 (kast 1 av 3 i forsøket); esset tel ikkje.",
    "Forsøket er over: kast 2 gav ein seksar.",
    "Bo har framleis sjetongar, så spelet går vidare som vanleg. No er det Cy som kastar.",
    "Ada har tomme hender og står over.",
    "Bo er blakk, så resten av kastet kostar ingenting.",
    "Berre éin sjetong er att i spel, og det er Cy som har han. Sluttspelet byrjar.",
    "Tre kast utan seksar: Ada klarte det!",
    "Ada vinn potten på fem sjetongar.",
]


@pytest.mark.parametrize(("lang", "expected"), [("en", E2_EN), ("nb", E2_NB), ("nn", E2_NN)])
def test_e2_is_told_roll_by_roll(lang: str, expected: list[str]) -> None:
    lines = story(log_of(E2, finish="last-holder"), lang)
    assert_in_order(lines, expected)
    assert lines[-1] == expected[-1]


# -- The ignored ace, and the singular --------------------------------------------

@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["Ada and Bo have 1 chip each.",
            "Ada passes 1 chip to Bo on the left.",
            "Bo rolls 1-1.",
            "Bo puts 1 chip in the pot.",
            "The ace is ignored: the last chip in play never goes to the pot.",
            "Standings: Ada 0 and Bo 1; in the pot: 1.",
            "Only one chip is left in play, and Bo holds it: the finish begins.",
            "Bo wins the pot of 1 chip."]),
    ("nb", ["Ada og Bo har én sjetong hver.",
            "Ada sender én sjetong til venstre, til Bo.",
            "Bo legger én sjetong i potten.",
            "Esset teller ikke: den siste sjetongen i spill går aldri i potten.",
            "Stillingen: Ada 0 og Bo 1; i potten: 1.",
            "Bo vinner potten på én sjetong."]),
    ("nn", ["Ada og Bo har éin sjetong kvar.",
            "Ada sender éin sjetong til venstre, til Bo.",
            "Bo legg éin sjetong i potten.",
            "Esset tel ikkje: den siste sjetongen i spel går aldri i potten.",
            "Stillinga: Ada 0 og Bo 1; i potten: 1.",
            "Bo vinn potten på éin sjetong."]),
])
def test_the_last_chip_never_goes_to_the_pot(lang: str, expected: list[str]) -> None:
    lines = story(log_of(IGNORED_ACE, players=("Ada", "Bo"), chips=1), lang)
    header = lines[0]
    assert header.endswith(expected[0])
    assert_in_order(lines, expected[1:])


def test_an_empty_pot_is_said_so() -> None:
    # Two players, one chip each, last-holder: Ada's six hands Bo every chip
    # in play, and Bo wins a pot that nothing ever reached.
    log = log_of("6/1/6 2/2 3/4 5/2 2", players=("Ada", "Bo"), chips=1, finish="last-holder")
    assert story(log, "en")[-1] == "Bo wins, but the pot is empty."
    assert story(log, "nb")[-1] == "Bo vinner, men potten er tom."
    assert story(log, "nn")[-1] == "Bo vinn, men potten er tom."


# -- Standings ------------------------------------------------------------------

def test_standings_follow_a_roll_only_when_it_moved_chips() -> None:
    lines = story(log_of(E1), "en")
    for number, line in enumerate(lines):
        if line.startswith("Standings:"):
            before = lines[number - 1]
            assert re.search(r"puts|passes", before), before
        if line.endswith("nothing happens."):
            assert not lines[number + 1].startswith("Standings:")


def test_standings_add_up_to_every_chip() -> None:
    for line in story(log_of(E1, E2, finish="last-chip"), "en"):
        if line.startswith("Standings:"):
            numbers = [int(n) for n in re.findall(r"\d+", line)]
            assert sum(numbers) == 6, line


# -- Sessions -------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["Bo wins the pot of 5 chips.",
            "Aces in the Pot, game 2: Ada, Bo, and Cy have 2 chips each.",
            "Bo wins the pot of 5 chips.",
            "Pots won after 2 games: Ada 0, Bo 2, and Cy 0.",
            "Aces in the Pot, game 3: Ada, Bo, and Cy have 2 chips each.",
            "Ada wins the pot of 5 chips.",
            "Pots won after 3 games: Ada 1, Bo 2, and Cy 0.",
            "Bo won the most pots: 2 of 3."]),
    ("nb", ["Ess i potten, parti 2: Ada, Bo og Cy har to sjetonger hver.",
            "Potter vunnet etter to partier: Ada 0, Bo 2 og Cy 0.",
            "Potter vunnet etter tre partier: Ada 1, Bo 2 og Cy 0.",
            "Bo vant flest potter: to av tre."]),
    ("nn", ["Ess i potten, parti 2: Ada, Bo og Cy har to sjetongar kvar.",
            "Pottar vunne etter to parti: Ada 0, Bo 2 og Cy 0.",
            "Pottar vunne etter tre parti: Ada 1, Bo 2 og Cy 0.",
            "Bo vann flest pottar: to av tre."]),
])
def test_a_session_keeps_the_tally_of_pots(lang: str, expected: list[str]) -> None:
    lines = story(log_of(E1, E1, E2), lang)
    assert_in_order(lines, expected)
    assert lines[-1] == expected[-1]


def test_a_single_game_has_no_tally() -> None:
    lines = story(log_of(E1), "en")
    assert not any(line.startswith(("Pots won", "Bo won the most")) for line in lines)


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "Ada and Bo share the most pots, 1 pot each."),
    ("nb", "Ada og Bo deler førsteplassen med én pott hver."),
    ("nn", "Ada og Bo deler førsteplassen med éin pott kvar."),
])
def test_a_shared_lead_is_told(lang: str, expected: str) -> None:
    assert story(log_of(E1, E2), lang)[-1] == expected


# -- Nothing English in Norwegian -----------------------------------------------

LOGS: t.Final = [log_of(E1, E2), log_of(E2, finish="last-holder"),
                 log_of(IGNORED_ACE, players=("Ada", "Bo"), chips=1)]


@pytest.mark.parametrize("lang", ["nb", "nn"])
def test_no_english_leaks_into_norwegian(lang: str) -> None:
    english = {word for log in LOGS for line in story(log, "en")
               for word in re.findall(r"[A-Za-z]{2,}", line)}
    # Names are names in every language; "for", "over" and "to" are Norwegian too.
    shared = {"Ada", "Bo", "Cy", "for", "over", "to"}
    norwegian = " ".join(line for log in LOGS for line in story(log, lang))
    leaked = {word for word in english - shared if re.search(rf"\b{word}\b", norwegian)}
    assert not leaked


#: Bokmål forms a Nynorsk text never has (Nynorsk writes ikkje, kvar, spelar...).
BOKMAL_ONLY: t.Final = ("ikke", "hver", "spiller", "spillet", "sjetonger", "kaster", "legger",
                        "vinner", "begynner", "høyest", "bare", "igjen", "fortsatt", "teller",
                        "Stillingen", "Nå")


def test_no_bokmal_leaks_into_nynorsk() -> None:
    nynorsk = " ".join(line for log in LOGS for line in story(log, "nn"))
    assert [word for word in BOKMAL_ONLY if re.search(rf"\b{word}\b", nynorsk)] == []
    bokmal = " ".join(line for log in LOGS for line in story(log, "nb"))
    # The same words do show up in Bokmål, so the check can see them.
    assert all(re.search(rf"\b{word}\b", bokmal) for word in ("ikke", "sjetonger", "Nå"))
