"""Chances from any state, held against the rules one roll ahead, the start-of-game
solution, and simulation."""

from __future__ import annotations

import itertools
import typing as t
from fractions import Fraction

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aces import engine
from aces.chances import _totals, odds_for, starters
from aces.chances.fivedice import FiveDiceOdds, Tail
from aces.chances.pot import PotOdds
from aces.dice import RandomDice
from aces.events import SCHEMA, GameStarted
from aces.exact import exact
from aces.exact.outcomes import ROLLS
from aces.games import game_named
from aces.rules import Roll, fivedice, pot
from aces.rules.opening import Opening
from aces.rules.seats import Seats
from aces.simulation.fivedice import FiveDiceSimulation

NAMES = ("Ada", "Bo", "Cy", "Dag", "Eli")


def _header(game: str, players: int, **options: t.Any) -> GameStarted:
    return GameStarted(schema=SCHEMA, game=game, players=NAMES[:players],
                       options=game_named(game).options(options))


def _after(game: str, state: t.Any, dice: tuple[int, ...]) -> t.Any:
    rules = game_named(game)
    for event in rules.decide(state, Roll(dice)):
        state = rules.evolve(state, event)
    return state


def _reachable(game: str, header: GameStarted, depth: int) -> list[t.Any]:
    """Every state the rules reach within ``depth`` rolls, opening included."""
    rules = game_named(game)
    seen: dict[bytes, t.Any] = {}
    frontier = [rules.start(header)]
    for _ in range(depth):
        nxt = []
        for state in frontier:
            key = msgspec.json.encode(state, enc_hook=Seats.as_tuple)
            if key in seen or rules.next_roll(state) is None:
                continue
            seen[key] = state
            request = rules.next_roll(state)
            assert request is not None
            for dice in itertools.product(range(1, 7), repeat=request.dice):
                nxt.append(_after(game, state, dice))
        frontier = nxt
    return list(seen.values())


@pytest.mark.parametrize("finish", pot.FINISHES)
def test_pot_chances_are_the_rules_one_roll_ahead(finish: pot.Finish) -> None:
    """Each state's chances are the average, over the 36 rolls the rules
    settle, of the chances after them: the chain agrees with the rules
    everywhere, the opening and the tries included."""
    header = _header("pot", 3, finish=finish, chips=1)
    odds = odds_for(header)
    assert odds.exact
    states = _reachable("pot", header, 8)
    assert any(s.phase == "opening" and s.opening.rolled for s in states)
    assert any(s.phase == "try" and s.try_rolls for s in states)
    for state in states:
        now = odds.chances(state).by_seat
        request = pot.next_roll(state)
        assert request is not None
        rolls = ROLLS if request.dice == 2 else [(face,) for face in range(1, 7)]
        ahead = [odds.chances(_after("pot", state, dice)).by_seat for dice in rolls]
        for seat in range(3):
            assert now[seat] == pytest.approx(
                sum(row[seat] for row in ahead) / len(rolls), abs=1e-11)
        assert sum(now) == pytest.approx(1, abs=1e-12)


def test_pot_chances_in_a_try_follow_the_rules() -> None:
    header = _header("pot", 3, chips=1)
    odds = odds_for(header)
    state = msgspec.structs.replace(pot.start(header), phase="try", turn=1, chips=Seats((0, 1, 0)),
                                    pot=2, try_rolls=2)
    now = odds.chances(state).by_seat
    # The last roll of a try: no six (25 in 36) wins, a six hands the chip to Cy.
    cy = odds.chances(msgspec.structs.replace(state, turn=2, chips=Seats((0, 0, 1)), try_rolls=0))
    assert now[1] == pytest.approx(25 / 36 + 11 / 36 * cy.by_seat[1])
    assert now[2] == pytest.approx(11 / 36 * cy.by_seat[2])


@pytest.mark.parametrize(("players", "chips"), [(3, 2), (4, 2), (5, 1)])
def test_the_first_roll_of_play_is_the_start_of_aces_odds(players: int, chips: int) -> None:
    header = _header("pot", players, chips=chips)
    odds = odds_for(header)
    start = exact(players, chips, "last-chip", 0.5).solution.win_by_seat
    for starter in range(players):
        state = msgspec.structs.replace(pot.start(header), phase="play", turn=starter)
        by_seat = odds.chances(state).by_seat
        for seat in range(players):
            assert by_seat[seat] == pytest.approx(start[(seat - starter) % players], abs=1e-12)


def test_a_game_over_is_certain() -> None:
    header = _header("pot", 3)
    state = msgspec.structs.replace(pot.start(header), phase="over", winner=2)
    assert odds_for(header).chances(state).by_seat == (0.0, 0.0, 1.0)


def test_one_solve_serves_a_table() -> None:
    assert odds_for(_header("pot", 4)) is odds_for(_header("pot", 4))
    assert odds_for(_header("pot", 4)) is not odds_for(_header("pot", 4, chips=3))


def test_fivedice_chances_are_the_rules_one_roll_ahead() -> None:
    header = _header("five-dice", 3, dice=1)
    odds = odds_for(header)
    assert odds.exact
    for state in _reachable("five-dice", header, 6):
        request = fivedice.next_roll(state)
        assert request is not None
        rolls = list(itertools.product(range(1, 7), repeat=request.dice))
        ahead = [odds.chances(_after("five-dice", state, dice)).by_seat for dice in rolls]
        now = odds.chances(state).by_seat
        for seat in range(3):
            assert now[seat] == pytest.approx(
                sum(row[seat] for row in ahead) / len(rolls), abs=1e-11)


def test_a_solved_table_answers_every_moment_between_rolls() -> None:
    """Every state a log's walk passes through, not only those a roll is due
    at: between a roll's events the turn may sit with a seat out of dice
    (missed, so the next holder's chances) or no die may be left before the
    game's end is told (its roller lost), and neither is a state of the chain."""
    header = _header("five-dice", 4, dice=2)
    odds = odds_for(header)
    assert odds.exact
    between = []
    for seed in range(20):
        state = fivedice.start(header)
        for event in itertools.islice(engine.play(fivedice.GAME, header, RandomDice(seed)), 1,
                                      None):
            state = fivedice.evolve(state, event)
            between.append(state)
    missed = [state for state in between if state.phase == "play"
              and not state.held.as_tuple()[state.turn] and any(state.held.as_tuple())]
    gone = [state for state in between if not any(state.held.as_tuple())]
    assert missed
    assert gone
    for answer in odds.chances_of(between):
        assert answer.exact
        assert sum(answer.by_seat) == pytest.approx(1.0, abs=1e-12)
    for state in missed:
        held = state.held.as_tuple()
        holder = next(seat % 4 for seat in range(state.turn, state.turn + 4) if held[seat % 4])
        assert odds.chances(state) == odds.chances(
            msgspec.structs.replace(state, turn=holder))
    for state in gone:  # the roller of the last 1, to the right of the turn
        assert odds.chances(state).by_seat[(state.turn - 1) % 4] == 1.0


@pytest.mark.parametrize(("players", "threes", "threes_to"),
                         [(4, False, "random"), (3, True, "random"), (4, True, "most")])
def test_the_tail_of_a_table_is_exactly_the_whole_chains_end(
        players: int, threes: bool, threes_to: fivedice.Policy) -> None:
    """A table estimated still answers the last dice in play exactly: the
    chain of its tail holds every one of them, with the whole chain's values."""
    whole = FiveDiceOdds.of(players, 2, threes, threes_to)
    assert whole.exact
    assert whole.chain is not None
    tail = Tail.of(players, 2, threes, threes_to, most_states=20)
    assert tail is not None
    assert 2 < tail.in_play < 2 * players
    estimated = FiveDiceOdds(players, 2, threes, threes_to, None, None, tail)
    ends = [held for held in whole.chain.states if sum(held) <= tail.in_play]
    assert len(ends) == len(tail.at)
    for held in ends:
        for turn in range(players):
            key = (held[-turn:] + held[:-turn] if turn else held, turn)
            assert estimated._known(key)
            mine, truth = estimated._look_up(key), whole._look_up(key)
            assert mine.exact
            assert mine.by_seat == pytest.approx(truth.by_seat, abs=1e-12)
    # A seat out of dice between rolls is missed: the next holder's chances.
    missed = ((0, 1, 1) + (0,) * (players - 3), 0)
    assert estimated._look_up(missed) == estimated._look_up((missed[0], 1))
    assert not estimated._known(((2,) * players, 0))


def test_fivedice_start_is_the_simulations_exact_answer() -> None:
    header = _header("five-dice", 4, dice=1)
    state = msgspec.structs.replace(fivedice.start(header), phase="play", turn=2)
    answer = FiveDiceSimulation.create(4, {"dice": 1}).exact()
    assert answer is not None
    assert answer.win_by_seat is not None
    by_seat = odds_for(header).chances(state).by_seat
    for seat in range(4):
        assert by_seat[seat] == pytest.approx(answer.win_by_seat[(seat - 2) % 4], abs=1e-12)


def test_an_estimate_holds_the_exact_answer_within_its_margin() -> None:
    """The simulation played on from a state mid-game, beside the exact value."""
    header = _header("pot", 4)
    solved = odds_for(header)
    guessed = PotOdds(4, 2, "last-chip", None, None)
    state = msgspec.structs.replace(pot.start(header), phase="play", turn=3,
                                    chips=Seats((3, 0, 1, 2)), pot=2)
    truth = solved.chances(state)
    estimate = guessed.chances(state)
    assert not estimate.exact
    assert 0.005 < estimate.margin < 0.03
    for seat in range(4):
        assert abs(estimate.by_seat[seat] - truth.by_seat[seat]) <= estimate.margin


def test_fivedice_estimate_holds_the_exact_answer() -> None:
    header = _header("five-dice", 3, dice=2)
    solved = odds_for(header)
    assert solved.exact
    guessed = FiveDiceOdds(3, 2, False, "random", None, None)
    state = msgspec.structs.replace(fivedice.start(header), phase="play", turn=2,
                                    held=Seats((3, 0, 2)), centre=1)
    truth, estimate = solved.chances(state), guessed.chances(state)
    assert not estimate.exact
    for seat in range(3):
        assert abs(estimate.by_seat[seat] - truth.by_seat[seat]) <= estimate.margin


def test_a_full_game_of_aces_is_estimated() -> None:
    header = _header("five-dice", 4)
    odds = odds_for(header)
    assert not odds.exact
    chances = odds.chances(fivedice.start(header))
    assert not chances.exact
    assert sum(chances.by_seat) == pytest.approx(1)


@pytest.mark.parametrize("game", ["pot", "five-dice"])
def test_many_positions_estimated_together_each_hold_the_exact_answer(game: str) -> None:
    """The page and the walkthrough estimate every moment of a game in one
    simulation; each moment still gets its own games, from its own state."""
    if game == "pot":
        header = _header("pot", 4)
        guessed: t.Any = PotOdds(4, 2, "last-chip", None, None)
        start: t.Any = pot.start(header)
        states: list[t.Any] = [msgspec.structs.replace(start, phase=phase, turn=turn,
                                                      chips=Seats(chips), pot=8 - sum(chips),
                                                      try_rolls=tries)
                  for chips, turn, phase, tries in [
                      ((3, 0, 1, 2), 0, "play", 0), ((3, 0, 1, 2), 3, "play", 0),
                      ((7, 1, 0, 0), 1, "play", 0), ((1, 0, 0, 0), 0, "try", 2),
                      ((0, 1, 0, 0), 1, "try", 0), ((0, 0, 1, 0), 2, "try", 1)]]
    else:
        header = _header("five-dice", 3, dice=2)
        guessed = FiveDiceOdds(3, 2, False, "random", None, None)
        start = fivedice.start(header)
        states = [msgspec.structs.replace(start, phase="play", turn=turn, held=Seats(held),
                                          centre=6 - sum(held))
                  for held in [(3, 0, 2), (1, 0, 0), (0, 1, 0), (0, 0, 1), (2, 2, 2)]
                  for turn in range(3) if held[turn]]
    states.append(start)  # the opening: an estimate for each seat that may start
    solved = odds_for(header)
    assert solved.exact
    truths = [solved.chances(state).by_seat for state in states]
    together = guessed.chances_of(states)
    for truth, estimate in zip(truths, together, strict=True):
        assert estimate.exact is False
        assert 0.003 < estimate.margin < 0.03
        assert sum(estimate.by_seat) == pytest.approx(1)
        for e, x in zip(estimate.by_seat, truth, strict=True):
            assert abs(e - x) <= 2 * estimate.margin
    # The positions differ by far more than the margins: games from one
    # state counted for another would show.
    spread = max(abs(x - y) for a in truths for b in truths for x, y in zip(a, b, strict=True))
    assert spread >= 0.25
    # Asked again, one by one, the estimates are the ones remembered.
    assert [guessed.chances(state) for state in states] == together


def _every_way_to_end(opening: Opening, values: dict[int, Fraction]) -> dict[int, Fraction]:
    """The starters' chances the long way: every way the round can end, with
    its top value and the seats on it, each seat getting its share."""
    ways = {(opening.top(), opening.leaders()): Fraction(1)}
    for seat in opening.contenders[opening.rolled:]:
        after: dict[tuple[int, tuple[int, ...]], Fraction] = {}
        for (top, seats), chance in ways.items():
            for value, p in values.items():
                step = ((value, (seat,)) if value > top
                        else (top, (*seats, seat)) if value == top else (top, seats))
                after[step] = after.get(step, Fraction(0)) + chance * p
        ways = after
    chances: dict[int, Fraction] = {}
    for (_, seats), chance in ways.items():
        for seat in seats:
            chances[seat] = chances.get(seat, Fraction(0)) + chance / len(seats)
    return dict(sorted(chances.items()))


@settings(max_examples=150, deadline=None)
@given(contenders=st.sets(st.integers(0, 9), min_size=2, max_size=6),
       dice=st.sampled_from([1, 2, 5]), rolled=st.lists(st.integers(0, 100), max_size=6))
def test_the_starters_chances_are_those_of_every_way_the_round_can_end(
        contenders: set[int], dice: int, rolled: list[int]) -> None:
    values = _totals(dice)
    faces = sorted(values)
    opening = Opening(tuple(sorted(contenders)))
    for pick in rolled[:len(contenders)]:
        opening = opening.record(faces[pick % len(faces)])
    assert starters(opening, values) == _every_way_to_end(opening, values)


def test_the_opening_of_a_big_table_costs_little() -> None:
    # Twelve players with five dice each: the ways they can tie are countless,
    # the shares are a binomial sum (this took a minute when every way was kept).
    values = _totals(5)
    chances = starters(Opening(tuple(range(12))), values)
    assert sum(chances.values()) == 1
    assert set(chances.values()) == {Fraction(1, 12)}
