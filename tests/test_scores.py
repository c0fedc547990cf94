"""A session's scores: everyone at the table, and the players seated most recently."""

from __future__ import annotations

from aces.scores import Scores


def test_players_at_the_table_are_never_forgotten_however_many() -> None:
    scores = Scores(budget=3)
    table = [f"P{n}" for n in range(50)]
    scores.seat(table, 1)
    assert list(scores.counts) == table


def test_the_players_away_longest_are_forgotten_first() -> None:
    scores = Scores(budget=2)
    for game, table in enumerate([["A", "B"], ["C", "D"], ["A", "B"], ["E", "F"]], start=1):
        scores.seat(table, game)
        scores.add(table[0])
    # A and B came back while remembered, and kept their score; C and D
    # sat longest ago when E and F came: forgotten.
    assert scores.counts == {"A": 2, "B": 0, "E": 1, "F": 0}


def test_memory_stays_bounded_whatever_the_number_of_names() -> None:
    scores = Scores(budget=100)
    for game in range(5000):
        scores.seat([f"{game}-{seat}" for seat in range(4)], game)
        assert len(scores.counts) <= 100 + 4


def test_a_score_is_taken_back_as_it_was_given() -> None:
    scores = Scores()
    scores.seat(["Ada", "Bo"], 1)
    scores.add("Bo")
    scores.add("Bo", -1)
    assert scores.counts == {"Ada": 0, "Bo": 0}
