"""Aces, the five-dice game, simulated: the same games as the rules, and sound counts."""

from __future__ import annotations

import itertools
import math
import random
import typing as t
from fractions import Fraction

import numpy as np
import pytest

from aces import engine
from aces.dice import RandomDice
from aces.events import GameOver, OpeningWon, RollAgain, Rolled
from aces.exact import fivedice_lengths
from aces.exact.fivedice_chain import branch_count, build, length_cdf, solvable, solve
from aces.games import game_named
from aces.rules import Roll, fivedice
from aces.rules.seats import Seats
from aces.rules.table import opening_seating
from aces.simulation import simulation
from aces.simulation.batch import results, tally
from aces.simulation.fivedice import (
    CHUNK,
    Batch,
    FairDice,
    FiveDiceEngine,
    ScriptedDice,
    _chunks,
    pack,
    unpack,
)
from aces.simulation.stats import summarize

if t.TYPE_CHECKING:
    from collections.abc import Sequence

    from _typeshed import SupportsLenAndGetItem

    from aces.rules import RollRequest

T = t.TypeVar("T")

#: Faces and choices scripted for each game: far more than any game uses.
FACES_PER_GAME = 4000
PICKS_PER_GAME = 1000
#: The variations: with or without threes, and each policy with them.
THREES: t.Final[list[tuple[bool, fivedice.Policy]]] = [
    (False, "random"), (True, "random"), (True, "fewest"), (True, "most")]


class Picks(random.Random):
    """A generator whose choices are given: each pick is an index into the choices."""

    def __init__(self, picks: Sequence[int]) -> None:
        super().__init__(0)
        self.picks = iter(picks)

    def choice(self, seq: SupportsLenAndGetItem[T]) -> T:
        return seq[next(self.picks)]


class GivenDice(RandomDice):
    """The opening from its own generator, then the given faces in order.

    A :class:`RandomDice`, so that :func:`aces.engine.play` lets the rules
    choose the receivers of 3s, with :class:`Picks` as their generator.
    """

    def __init__(self, opening: random.Random, faces: Sequence[int],
                 picks: Sequence[int]) -> None:
        super().__init__(0)
        self.opening = opening
        self.faces = iter(faces)
        self.picks = Picks(picks)

    @property
    def rng(self) -> random.Random:
        return self.picks

    def roll(self, request: RollRequest) -> Roll:
        if request.stage == "opening":
            return Roll(tuple(self.opening.randint(1, 6) for _ in range(request.dice)))
        return Roll(tuple(next(self.faces) for _ in range(request.dice)))


def _by_the_engine(players: int, options: dict[str, t.Any], faces: Sequence[int],
                   picks: Sequence[int], opening: random.Random) -> tuple[int, int, int]:
    """Loser (seats counted from the first to roll), rolls and turns, by aces.engine.play."""
    game = game_named(fivedice.NAME)
    names = [f"P{seat}" for seat in range(players)]
    start = engine.header(game, names, options)
    first = loser = -1
    rolls = again = 0
    for event in engine.play(game, start, GivenDice(opening, faces, picks)):
        if isinstance(event, OpeningWon):
            first = names.index(event.player)
        elif isinstance(event, Rolled) and event.stage == "turn":
            rolls += 1
        elif isinstance(event, RollAgain):
            again += 1
        elif isinstance(event, GameOver):
            assert event.loser is not None
            loser = names.index(event.loser)
    return (loser - first) % players, rolls, rolls - again


@pytest.mark.parametrize(("players", "dice"), [(3, 1), (3, 5), (4, 5), (5, 2), (7, 3)])
@pytest.mark.parametrize(("threes", "threes_to"), THREES)
def test_the_same_dice_give_the_same_games(players: int, dice: int, threes: bool,
                                           threes_to: fivedice.Policy) -> None:
    games = 40
    rng = random.Random(f"{players}-{dice}-{threes}-{threes_to}")
    faces = [[rng.randint(1, 6) for _ in range(FACES_PER_GAME)] for _ in range(games)]
    picks = [[rng.randrange(players - 1) for _ in range(PICKS_PER_GAME)] for _ in range(games)]
    fast = FiveDiceEngine(players, dice, threes=threes, threes_to=threes_to)
    by_fast = results(fast, ScriptedDice(np.array(faces), np.array(picks), players - 1), games)
    assert by_fast.turns is not None
    options = {"dice": dice, "threes": threes, "threes_to": threes_to}
    for number in range(games):
        expected = _by_the_engine(players, options, faces[number], picks[number], rng)
        got = (int(by_fast.winners[number]), int(by_fast.lengths[number]),
               int(by_fast.turns[number]))
        assert got == expected, number


def test_a_script_that_runs_out_is_refused() -> None:
    dice = ScriptedDice(np.full((2, 30), 4))  # 4s move nothing: the game never ends
    with pytest.raises(ValueError, match="outlasted"):
        results(FiveDiceEngine(3, 2, threes=False, threes_to="random"), dice, 2)


@pytest.mark.parametrize(("players", "dice"), [(3, 1), (4, 5), (6, 3)])
@pytest.mark.parametrize(("threes", "threes_to"), THREES)
def test_dice_are_neither_made_nor_lost(players: int, dice: int, threes: bool,
                                        threes_to: fivedice.Policy) -> None:
    fast = FiveDiceEngine(players, dice, threes=threes, threes_to=threes_to)
    batch = Batch(fast, 2000)
    games = np.arange(2000)
    source = FairDice(np.random.default_rng(players * dice))
    steps = 0
    while len(games):
        before = batch.in_play.copy()
        batch.roll(games, source)
        steps += 1
        hands = batch.hands()
        assert (hands >= 0).all()
        assert (hands.sum(axis=1) == batch.in_play).all()  # the rest is in the centre
        assert (batch.in_play <= before).all()
        going = batch.in_play > 0
        # Whoever rolls next holds dice; a finished game's roller is its loser.
        assert (hands[going, batch.turn[going]] > 0).all()
        games = games[going]
        batch.keep(going)
    assert steps > players * dice


@pytest.mark.parametrize(("players", "dice"), [(3, 1), (4, 5), (10, 2)])
def test_every_game_ends_with_one_loser(players: int, dice: int) -> None:
    games = 5000
    fast = FiveDiceEngine(players, dice, threes=True, threes_to="random")
    done = results(fast, FairDice(np.random.default_rng(3)), games)
    assert done.turns is not None
    assert ((done.winners >= 0) & (done.winners < players)).all()
    assert (done.lengths >= 1).all()
    assert (done.turns >= 1).all()
    assert (done.turns <= done.lengths).all()
    counted: list[int] = []
    total = tally(fast, games, FairDice(np.random.default_rng(3)), counted.append)
    assert total.games == games == sum(counted)
    assert int(total.lengths.sum()) == games
    assert total.wins.tolist() == np.bincount(done.winners, minlength=players).tolist()


@pytest.mark.parametrize("in_play", [0, 3])
def test_games_played_to_a_few_dice_are_the_whole_games_stopped_sooner(in_play: int) -> None:
    # The same dice: each game stops the first time at most ``in_play`` dice
    # are left, holding them; played to none, each one's roller is its loser.
    engine = FiveDiceEngine(6, 2, threes=True, threes_to="random")
    games = np.arange(2000)
    whole = results(engine, FairDice(np.random.default_rng(5)), len(games))
    reached = list(engine.play_to(games, FairDice(np.random.default_rng(5)), in_play))
    numbers = np.concatenate([r.games for r in reached])
    assert sorted(numbers.tolist()) == games.tolist()
    held = np.concatenate([r.held for r in reached])
    turn = np.concatenate([r.turn for r in reached])
    left = held.sum(axis=1)
    assert (left <= in_play).all()
    assert ((left == 0) | (held[np.arange(len(held)), turn] > 0)).all()  # a holder rolls next
    if in_play == 0:
        assert turn.tolist() == whole.winners[numbers].tolist()
    else:
        assert (left > 0).mean() > 0.9  # most games get there with dice still in play


def test_a_seed_gives_the_same_games() -> None:
    sim = simulation(fivedice.NAME, 4, {"threes": True})
    first, again, other = sim.run(3000, seed=8), sim.run(3000, seed=8), sim.run(3000, seed=9)
    assert first.wins.tolist() == again.wins.tolist()
    assert first.lengths.tolist() == again.lengths.tolist()
    assert first.turns == again.turns
    assert first.lengths.tolist() != other.lengths.tolist()


def test_losses_are_shared_by_the_seats() -> None:
    summary = summarize(simulation(fivedice.NAME, 5, {"dice": 2}).run(4000, seed=2))
    assert summary.games == 4000
    assert sum(summary.win_by_seat) == pytest.approx(1)
    assert summary.rolls_per_turn is not None
    assert summary.rolls_per_turn > 1  # rolls again make turns longer than one roll


@pytest.mark.parametrize(("threes", "moves"), [(False, Fraction(1, 2)), (True, Fraction(2, 3))])
def test_one_die_leaves_the_hand_on_half_the_rolls(threes: bool, moves: Fraction) -> None:
    # 1, 2 and 5 send a lone die away; with threes, 3 does too.
    games = 200_000
    batch = Batch(FiveDiceEngine(3, 1, threes=threes, threes_to="random"), games)
    batch.roll(np.arange(games), FairDice(np.random.default_rng(5)))
    left = float(np.mean(batch.hands()[:, 0] == 0))
    assert abs(left - moves) <= 4 * math.sqrt(moves * (1 - moves) / games)
    # One die is rolled once: it stays, or it leaves and the hand is empty.
    assert (batch.turns == 1).all()
    # The same chance, exactly, in the chain: the one state a still die leads to.
    chain = build(3, 1, threes=threes, threes_to="random")
    stays = sum(b.chance for b in chain.branches[chain.start] if b.state == chain.start)
    assert 1 - stays == moves


def test_the_fair_chunks_hold_every_roll_once() -> None:
    table, starts = _chunks()
    for dice in range(CHUNK + 1):
        rolls = table[starts[dice]: starts[dice] + 6**dice]
        for count in unpack(rolls):
            # Each face that moves shows on a sixth of the dice, over all the rolls.
            assert Fraction(int(count.sum()), 6**dice) == Fraction(dice, 6)


@pytest.mark.parametrize("held", [1, 5, 6, 7, 13, 20])
def test_fair_dice_of_any_number(held: int) -> None:
    rolls = 100_000
    packed = FairDice(np.random.default_rng(held)).faces(
        np.arange(rolls), np.full(rolls, held, dtype=np.int64))
    counts = unpack(packed)
    assert (np.sum(counts, axis=0) <= held).all()
    for count in counts:
        # Each count is binomial: held dice, a chance of 1/6.
        sd = math.sqrt(held * (1 / 6) * (5 / 6) / rolls)
        assert abs(float(count.mean()) - held / 6) <= 4 * sd


def test_pack_counts_the_moving_faces() -> None:
    assert [int(c) for c in unpack(pack(np.array([3, 3, 3, 6, 4])))] == [0, 0, 0, 3]


@pytest.mark.parametrize(("players", "dice", "threes", "threes_to"), [
    (3, 1, False, "random"), (3, 1, True, "random"), (4, 1, True, "fewest"),
    (3, 2, True, "most"), (5, 1, False, "random")])
def test_simulation_agrees_with_the_exact_chain(players: int, dice: int, threes: bool,
                                                threes_to: fivedice.Policy) -> None:
    games = 200_000
    options = {"dice": dice, "threes": threes, "threes_to": threes_to}
    sim = simulation(fivedice.NAME, players, options)
    exact = sim.exact()
    assert exact is not None
    assert exact.win_by_seat is not None
    assert sum(exact.win_by_seat) == pytest.approx(1, abs=1e-12)
    summary = summarize(sim.run(games, seed=players * 10 + dice))
    for seat, (share, chance) in enumerate(
            zip(summary.win_by_seat, exact.win_by_seat, strict=True)):
        assert abs(share - chance) <= 4 * math.sqrt(chance * (1 - chance) / games), seat
    assert abs(summary.expected_rolls - exact.expected_rolls) <= 4 * exact.sd_rolls / math.sqrt(
        games)
    assert summary.sd_rolls == pytest.approx(exact.sd_rolls, rel=0.02)
    assert summary.rolls_per_turn == pytest.approx(exact.rolls_per_turn, rel=0.005)


@pytest.mark.parametrize(("players", "dice", "threes", "threes_to"), [
    (3, 1, False, "random"), (3, 2, True, "random"), (4, 1, True, "most")])
def test_the_exact_length_of_a_game_agrees_with_the_simulation(
        players: int, dice: int, threes: bool, threes_to: fivedice.Policy) -> None:
    from aces.inference import goodness_of_fit

    chain = build(players, dice, threes, threes_to)
    cdf = length_cdf(chain, 0.9999)
    chances = [b - a for a, b in zip([0.0, *cdf], cdf, strict=False)]
    exact = solve(chain)
    mean = sum(k * chance for k, chance in enumerate(chances, 1))
    assert cdf[-1] >= 0.9999
    assert mean == pytest.approx(exact.expected_rolls, rel=1e-3)
    # The batch engine plays the games its own way; its lengths must fit the chain's.
    games = 100_000
    lengths = simulation(fivedice.NAME, players, {
        "dice": dice, "threes": threes, "threes_to": threes_to}).run(games, seed=7).lengths
    observed = [int(n) for n in lengths[1:len(chances) + 1]]
    observed += [0] * (len(chances) - len(observed))
    observed.append(int(lengths[len(chances) + 1:].sum()))
    fit = goodness_of_fit(observed, [*chances, max(0.0, 1 - cdf[-1])])
    assert fit is not None
    assert fit.df >= 10
    assert fit.p > 0.001, fit


def test_the_shortest_games_are_counted_exactly() -> None:
    # Three players with one die each: a game needs three dice in the centre,
    # so it lasts three rolls at least. Every way of three rolls, worked through
    # the rules one face at a time, against the chain's chance of a game of three.
    state = fivedice.FiveDiceState(**opening_seating(("A", "B", "C")), dice_each=1, threes=False,
                                   threes_to="random", held=Seats((1, 1, 1)), phase="play")

    def ended(state: fivedice.FiveDiceState, rolls: int) -> Fraction:
        if rolls == 0:
            return Fraction(0)
        total = Fraction(0)
        held = state.held[state.turn]
        for faces in itertools.product(range(1, 7), repeat=held):
            chance = Fraction(1, 6**held)
            events = fivedice.decide(state, Roll(faces, ()))
            if any(isinstance(event, GameOver) for event in events):
                total += chance if rolls == 1 else 0
                continue
            after = state
            for event in events:
                after = fivedice.evolve(after, event)
            total += chance * ended(after, rolls - 1)
        return total

    assert [ended(state, k) for k in (1, 2)] == [0, 0]
    chain = build(3, 1, threes=False, threes_to="random")
    assert length_cdf(chain, 0.9999)[2] == pytest.approx(float(ended(state, 3)), abs=1e-15)


@pytest.mark.parametrize(("players", "dice", "threes", "threes_to"), [
    (3, 1, False, "random"), (3, 2, True, "random"), (4, 1, True, "most")])
def test_the_chain_is_whole(players: int, dice: int, threes: bool,
                            threes_to: fivedice.Policy) -> None:
    chain = build(players, dice, threes, threes_to)
    assert sum(len(out) for out in chain.branches) == branch_count(
        players, dice, threes, threes_to)
    for out in chain.branches:
        assert sum(branch.chance for branch in out) == 1
    # Dice in play never grow: every branch stays in its layer or goes down.
    for held, out in zip(chain.states, chain.branches, strict=True):
        for branch in out:
            if branch.state >= 0:
                assert sum(chain.states[branch.state]) <= sum(held)


def test_one_die_each_rolls_once_a_turn_until_dice_gather() -> None:
    # With one die each nobody rolls again until a hand holds two dice, so
    # turns are short; five dice each make them longer.
    small = solve(build(3, 1, threes=False, threes_to="random"))
    bigger = solve(build(3, 3, threes=False, threes_to="random"))
    assert small.rolls_per_turn is not None
    assert bigger.rolls_per_turn is not None
    assert 1 < small.rolls_per_turn < bigger.rolls_per_turn


def test_a_full_game_has_the_exact_answers_aces_stats_has() -> None:
    # Too big for the chain, a full game is carried roll by roll: the same numbers.
    assert not solvable(4, 5, threes=False, threes_to="random")
    solved = fivedice_lengths.solved(4, 5)
    assert solved is not None
    assert solved.losses is not None
    assert simulation(fivedice.NAME, 4, {}).exact() == (
        solved.losses, solved.mean, solved.sd, solved.mean / solved.turns)
    assert simulation(fivedice.NAME, 4, {}).exact(most_states=100_000) is not None
    assert simulation(fivedice.NAME, 3, {"dice": 1}).exact(most_states=5) is None
    # Five players with five dice take seconds: only when asked for.
    assert simulation(fivedice.NAME, 5, {}).solvable()
    assert simulation(fivedice.NAME, 5, {}).exact(most_states=100_000) is None


def test_a_table_too_big_for_both_has_no_exact_answer() -> None:
    sim = simulation(fivedice.NAME, 6, {})
    assert not sim.solvable()
    assert sim.exact() is None


def test_a_full_game_simulated_settles_on_its_exact_answers() -> None:
    games = 100_000
    sim = simulation(fivedice.NAME, 4, {})
    exact = sim.exact()
    assert exact is not None
    assert exact.win_by_seat is not None
    summary = summarize(sim.run(games, seed=45))
    error = exact.sd_rolls / math.sqrt(games)
    assert abs(summary.expected_rolls - exact.expected_rolls) <= 4 * error
    assert summary.sd_rolls == pytest.approx(exact.sd_rolls, rel=0.02)
    assert summary.rolls_per_turn == pytest.approx(exact.rolls_per_turn, rel=0.005)
    for seat, (share, chance) in enumerate(
            zip(summary.win_by_seat, exact.win_by_seat, strict=True)):
        assert abs(share - chance) <= 4 * math.sqrt(chance * (1 - chance) / games), seat
