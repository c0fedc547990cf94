"""The registry of games, and the seat rules every game shares."""

from __future__ import annotations

import typing as t

import pytest

from aces.errors import OptionError
from aces.events import SCHEMA, GameStarted
from aces.games import game_named, games
from aces.rules import check_names, pot, started

if t.TYPE_CHECKING:
    from collections.abc import Mapping


def test_the_pot_game_is_registered_under_the_name_the_log_uses() -> None:
    assert games()["pot"] is pot.GAME
    assert game_named("pot") is pot.GAME
    assert pot.GAME.name == "pot"


def test_an_unknown_game_is_refused_with_the_known_names() -> None:
    with pytest.raises(OptionError, match="unknown game 'chess'") as caught:
        game_named("chess")
    assert "pot" in str(caught.value)


def test_every_registered_game_is_a_complete_decider() -> None:
    for name, game in games().items():
        assert game.name == name
        for function in (game.options, game.check_players, game.start, game.next_roll,
                         game.decide, game.evolve):
            assert callable(function)


@pytest.mark.parametrize(
    ("players", "complaint"),
    [
        (["Ada"], "at least 3 players, not 1"),
        ([], "at least 3 players, not 0"),
        (["Ada", "", "Cy"], "empty"),
        (["Ada", "   ", "Cy"], "empty"),
        (["Ada", " Bo", "Cy"], "spaces around it: ' Bo'"),
        (["Ada", "Bo", "Ada"], "two players share the name Ada"),
    ],
)
def test_seats_need_enough_distinct_non_empty_names(players: list[str], complaint: str) -> None:
    with pytest.raises(OptionError, match=complaint):
        check_names(players, 3)


def test_good_names_are_accepted_whatever_the_language() -> None:
    check_names(["Åse", "Øyvind", "Bjørn Ola"], 3)


@pytest.mark.parametrize(("players", "shown"), [
    (["\u00c5se", "A\u030ase"], "'\u00c5se' and 'A\u030ase'"),  # NFC and NFD
    (["Bo", "Bo\u3164"], "'Bo' and 'Bo\\u3164'"),               # a Hangul filler
    (["\U0001f3b2", "\U0001f3b2\ufe0f"], "'\U0001f3b2' and '\U0001f3b2\\ufe0f'"),
])
def test_names_people_cannot_tell_apart_are_the_same_player(players: list[str],
                                                            shown: str) -> None:
    with pytest.raises(OptionError) as refused:
        check_names(["Ada", *players], 2)
    assert str(refused.value) == (f"{shown} look the same, so people could not tell the"
                                  " players apart; give them different names")


def test_a_name_of_nothing_but_invisible_characters_is_empty() -> None:
    with pytest.raises(OptionError, match="empty or has spaces around it"):
        check_names(["Ada", "\u3164"], 2)


def test_names_that_look_alike_are_refused_wherever_a_game_starts() -> None:
    from clitest import one_line_error, run

    for command in (["play"], ["record", "never-written.jsonl"]):
        result = run(*command, "--players", "Ada,\u00c5se,A\u030ase", input="")
        assert "look the same" in one_line_error(result)


def test_every_game_of_a_table_starts_from_the_one_state_made_for_it() -> None:
    seen: list[tuple[tuple[str, ...], dict[str, t.Any]]] = []

    @started
    def start(players: tuple[str, ...], raw: Mapping[str, t.Any]) -> tuple[str, ...]:
        seen.append((players, dict(raw)))
        if raw.get("chips") == 0:
            raise OptionError("no chips")
        return (*players, str(raw.get("chips")))

    def header(players: tuple[str, ...], seed: int, **options: t.Any) -> GameStarted:
        return GameStarted(schema=SCHEMA, game="pot", players=players, options=options,
                           seed=seed)

    first = start(header(("Ada", "Bo"), 1, chips=2))
    # Another game of the same table, with another seed: the same state, made once.
    assert start(header(("Ada", "Bo"), 2, chips=2)) is first
    assert start(header(("Ada", "Bo"), 3, chips=3)) == ("Ada", "Bo", "3")
    assert start(header(("Bo", "Ada"), 4, chips=2)) == ("Bo", "Ada", "2")
    assert seen == [(("Ada", "Bo"), {"chips": 2}), (("Ada", "Bo"), {"chips": 3}),
                    (("Bo", "Ada"), {"chips": 2})]
    # A header the game refuses is refused every time: nothing is kept of it.
    for _ in range(2):
        with pytest.raises(OptionError, match="no chips"):
            start(header(("Ada", "Bo"), 5, chips=0))
    assert len(seen) == 5
