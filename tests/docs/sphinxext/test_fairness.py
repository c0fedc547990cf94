"""The numbers behind the lessons on the best seat and on fairness, as the pages say them."""

from __future__ import annotations

import math

import numpy as np
import pytest

from aces.i18n import translations
from aces.voice import Voice
from sphinxext import lessons as les
from sphinxext.tables import _pct

PLAYERS = range(2, 6)


@pytest.mark.parametrize("players", PLAYERS)
def test_more_chips_bring_the_seats_closer_and_the_last_holder_finish_pulls_them_apart(
        players: int) -> None:
    # The fairness lesson says both, for every table size it shows.
    for finish in ("last-chip", "last-holder"):
        gaps = [les.seat_spread(players, finish, chips) for chips in (1, 2, 3)]
        assert gaps == sorted(gaps, reverse=True), (finish, gaps)
    for chips in (1, 2, 3):
        assert les.seat_spread(players, "last-holder", chips) > les.seat_spread(
            players, "last-chip", chips)


@pytest.mark.parametrize("players", PLAYERS)
def test_before_the_opening_every_player_has_a_fair_share(players: int) -> None:
    assert les.seat_average(players) == pytest.approx(1 / players, abs=1e-12)


def test_the_simulated_opening_gives_every_player_the_start_as_often() -> None:
    games = 20_000
    starters = np.bincount(les.simulated_starters(4, games), minlength=4) / games
    assert np.all(np.abs(starters - 0.25) < 4 * math.sqrt(0.25 * 0.75 / games))


def test_the_sample_size_for_80_percent_power_has_it_and_half_as_many_games_do_not() -> None:
    needed = les.games_for_power(4, 0.8)
    assert les.power_at(4, needed) >= 0.8
    assert les.power_at(4, needed // 2) < 0.6
    # Where the expected share just touches the edge: a coin flip.
    assert les.power_at(4, les.games_to_tell_apart(4)) == pytest.approx(0.5, abs=0.02)
    # Two significant figures: a plan, not a measurement.
    assert needed % 10 ** (len(str(needed)) - 2) == 0


def test_a_finish_lasts_as_long_as_its_simulated_tries() -> None:
    first = les.simulated_first_six(200_000)
    # A try ends at its first six or after three rolls; tries go on until one has none.
    rolls = np.minimum(first, 3)
    tries_per_finish = 1 / float(les.TRY)
    assert float(rolls.mean()) * tries_per_finish == pytest.approx(
        float(les.finish_rolls()), rel=0.01)


@pytest.mark.parametrize(("lang", "shown"), [("en", "<0.1%"), ("nb", "<0,1\xa0%")])
def test_a_chance_too_small_to_show_is_less_than_not_zero(lang: str, shown: str) -> None:
    c = Voice(translations(lang), lang)
    assert _pct(c, 0.0004, 1) == shown
    assert _pct(c, 0.0, 1) == _pct(c, 0, 1)
    assert _pct(c, 0.0006, 1) != shown
