"""The verdict of ``aces verify``: counts, and who won, in each language."""

from __future__ import annotations

import itertools
import typing as t

import pytest

from aces.events import SCHEMA, ChipsToPot, GameOver, GameStarted
from aces.games import game_named
from aces.i18n import translations
from aces.summary import Tally
from aces.walk import Step

PLAYERS: t.Final = ("Ada", "Bo", "Cy")
POT: t.Final = game_named("pot")


def tally_of(*winners: str, extra_events: int = 0) -> Tally:
    """A tally of games won by ``winners``, each of ``extra_events`` more
    events, their steps numbered by line as a log's are."""
    tally = Tally()
    line = itertools.count(1)
    for winner in winners:
        header = GameStarted(schema=SCHEMA, game="pot", players=PLAYERS, options={})
        tally.visit(Step(next(line), header, None, POT))
        for _ in range(extra_events):
            tally.visit(Step(next(line), ChipsToPot(player=winner, count=1), None, POT))
        tally.visit(Step(next(line), GameOver(winner=winner, pot=5), None, POT))
    return tally


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "log.jsonl follows the rules: 1 game and 2 events. Won by Bo."),
    ("nb", "log.jsonl følger reglene: ett parti og to hendelser. Vinner: Bo."),
    ("nn", "log.jsonl følgjer reglane: eitt parti og to hendingar. Vinnar: Bo."),
])
def test_one_game(lang: str, expected: str) -> None:
    assert tally_of("Bo").line("log.jsonl", lang, translations(lang)) == expected


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "log.jsonl follows the rules: 3 games and 3,006 events."
           " Wins: Ada 1, Bo 2, and Cy 0."),
    ("nb", "log.jsonl følger reglene: tre partier og 3\xa0006 hendelser."
           " Potter vunnet: Ada 1, Bo 2 og Cy 0."),
    ("nn", "log.jsonl følgjer reglane: tre parti og 3\xa0006 hendingar."
           " Pottar vunne: Ada 1, Bo 2 og Cy 0."),
])
def test_a_session_counts_wins_per_player(lang: str, expected: str) -> None:
    tally = tally_of("Bo", "Ada", "Bo", extra_events=1000)
    assert tally.line("log.jsonl", lang, translations(lang)) == expected


def test_losers_of_the_five_dice_game_are_counted() -> None:
    tally = Tally()
    header = GameStarted(schema=SCHEMA, game="five-dice", players=PLAYERS, options={})
    for first, loser in ((1, "Cy"), (3, "Cy")):
        tally.visit(Step(first, header, None, POT))
        tally.visit(Step(first + 1, GameOver(loser=loser), None, POT))
    assert tally.line("x", "en", translations("en")).endswith("Losses: Ada 0, Bo 0, and Cy 2.")
    one = Tally()
    one.visit(Step(1, header, None, POT))
    one.visit(Step(2, GameOver(loser="Bo"), None, POT))
    assert one.line("x", "nb", translations("nb")).endswith("Taper: Bo.")
