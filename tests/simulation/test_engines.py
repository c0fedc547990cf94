"""The fast engines play the same games as the event-sourced engine."""

from __future__ import annotations

import random
import typing as t

import numpy as np
import pytest

from aces import engine
from aces.events import GameOver, OpeningWon, Rolled
from aces.exact.chain import build
from aces.games import game_named
from aces.rules import Roll, pot
from aces.simulation.batch import BATCH, RandomRolls, ScriptedRolls, next_holder, play_each, tally
from aces.simulation.chips import ChipEngine
from aces.simulation.pot import table_of

if t.TYPE_CHECKING:
    from aces.rules import RollRequest

ROLLS_PER_GAME = 800


class GivenDice:
    """The opening from its own generator, then the given rolls in order."""

    def __init__(self, opening: random.Random, rolls: list[tuple[int, int]]) -> None:
        self.opening = opening
        self.rolls = iter(rolls)

    def roll(self, request: RollRequest) -> Roll:
        if request.stage == "opening":
            return Roll((self.opening.randint(1, 6),))
        return Roll(next(self.rolls))


def _by_the_engine(players: int, options: dict[str, t.Any], rolls: list[tuple[int, int]],
                   opening: random.Random) -> tuple[int, int]:
    """Winner (seats counted from the first to roll) and rolls, by aces.engine.play."""
    game = game_named("pot")
    names = [f"P{seat}" for seat in range(players)]
    start = engine.header(game, names, options)
    first = winner = -1
    count = 0
    for event in engine.play(game, start, GivenDice(opening, rolls)):
        if isinstance(event, OpeningWon):
            first = names.index(event.player)
        elif isinstance(event, Rolled) and event.stage != "opening":
            count += 1
        elif isinstance(event, GameOver):
            assert event.winner is not None
            winner = names.index(event.winner)
    return (winner - first) % players, count


def _given_dice(games: int, seed: str) -> tuple[list[list[tuple[int, int]]], random.Random]:
    rng = random.Random(seed)
    dice = [[(rng.randint(1, 6), rng.randint(1, 6)) for _ in range(ROLLS_PER_GAME)]
            for _ in range(games)]
    return dice, rng


def _codes(dice: list[list[tuple[int, int]]]) -> ScriptedRolls:
    return ScriptedRolls(np.array([[6 * (a - 1) + (b - 1) for a, b in game] for game in dice]))


@pytest.mark.parametrize(("players", "chips"), [(2, 1), (3, 2), (4, 2), (5, 1), (4, 3)])
@pytest.mark.parametrize("finish", pot.FINISHES)
def test_the_same_dice_give_the_same_games(players: int, chips: int,
                                           finish: pot.Finish) -> None:
    dice, rng = _given_dice(150, f"{players}-{chips}-{finish}")
    by_table = play_each(table_of(build(players, chips, finish)), _codes(dice))
    by_chips = play_each(ChipEngine(players, chips, finish), _codes(dice))
    options = {"finish": finish, "chips": chips}
    for number, rolls in enumerate(dice):
        expected = _by_the_engine(players, options, rolls, rng)
        assert (int(by_table.winners[number]), int(by_table.lengths[number])) == expected, number
        assert (int(by_chips.winners[number]), int(by_chips.lengths[number])) == expected, number


@pytest.mark.parametrize(("players", "chips"), [(12, 1), (9, 2), (20, 1)])
@pytest.mark.parametrize("finish", pot.FINISHES)
def test_many_players_by_chips_as_by_the_engine(players: int, chips: int,
                                                finish: pot.Finish) -> None:
    dice, rng = _given_dice(40, f"{players}-{chips}-{finish}")
    by_chips = play_each(ChipEngine(players, chips, finish), _codes(dice))
    options = {"finish": finish, "chips": chips}
    for number, rolls in enumerate(dice):
        expected = _by_the_engine(players, options, rolls, rng)
        assert (int(by_chips.winners[number]), int(by_chips.lengths[number])) == expected, number


@pytest.mark.parametrize("by_table", [True, False])
def test_a_seed_gives_the_same_tally(by_table: bool) -> None:
    engine = table_of(build(4, 2, "last-chip")) if by_table else ChipEngine(4, 2, "last-chip")
    first = tally(engine, 5000, RandomRolls(np.random.default_rng(11), 36))
    again = tally(engine, 5000, RandomRolls(np.random.default_rng(11), 36))
    other = tally(engine, 5000, RandomRolls(np.random.default_rng(12), 36))
    assert first.wins.tolist() == again.wins.tolist()
    assert first.lengths.tolist() == again.lengths.tolist()
    assert first.lengths.tolist() != other.lengths.tolist()


@pytest.mark.parametrize("games", [1, BATCH - 1, BATCH + 3])
def test_every_game_is_counted_once(games: int) -> None:
    table = table_of(build(3, 2, "last-holder"))
    done: list[int] = []
    counted = tally(table, games, RandomRolls(np.random.default_rng(1), 36), done.append)
    assert counted.games == games
    assert int(counted.lengths.sum()) == games
    assert sum(done) == games
    assert counted.lengths[:3].sum() == 0  # no game of three players ends that fast


def test_a_script_that_runs_out_is_refused() -> None:
    table = table_of(build(3, 2, "last-chip"))
    with pytest.raises(ValueError, match="outlasted"):
        play_each(table, ScriptedRolls(np.full((2, 5), 14)))  # 3-3: nothing happens


@pytest.mark.parametrize("seats", [2, 3, 5, 12, 13])
def test_the_next_holder_is_the_first_seat_on_that_holds_any(seats: int) -> None:
    # Small tables look it up in a table of every set of holders, larger ones
    # look along the seats: both are held against a walk round the table.
    rng = np.random.default_rng(seats)
    hands = rng.integers(0, 3, size=(500, seats)) * (rng.random((500, seats)) < 0.3)
    hands[hands.sum(axis=1) == 0, seats - 1] = 1
    rows = np.flatnonzero(rng.random(500) < 0.7)
    seats_from = rng.integers(0, seats, size=len(rows))
    expected = [next(seat % seats for seat in range(start, start + seats)
                     if hands[row, seat % seats] > 0)
                for row, start in zip(rows.tolist(), seats_from.tolist(), strict=True)]
    assert next_holder(hands, rows, seats_from.copy()).tolist() == expected
