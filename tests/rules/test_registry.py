"""The registry of games, and the seat rules every game shares."""

from __future__ import annotations

import pytest

from aces.errors import OptionError
from aces.rules import check_names, game_named, games, pot


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
