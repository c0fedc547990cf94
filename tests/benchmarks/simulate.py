"""Benchmark: the fast simulation against a plain loop, and the exact solver.

Reports, side by side and in one process:

* the fast engine (:mod:`aces.simulation`), games of Aces in the Pot per
  second for four players, table building included (target: 2,000,000);
* a plain Python loop playing one game at a time with the event-sourced
  engine, :func:`aces.engine.play` with :class:`aces.dice.RandomDice`;
* their ratio (target: at least 50);
* with ``--exact``, the time ``aces odds --players 8`` needs for each finish
  (building the chain, solving it, the length distribution to 99 %);
* for Aces, the five-dice game (:mod:`aces.simulation.fivedice`), the fast
  engine and the plain loop side by side, with their ratio, for four
  players with five dice each and for the pub version, three players with
  one die each. It has no target: a roll of many dice costs more than a
  table look-up, and the report says how much.

Run it with ``python tests/benchmarks/simulate.py [GAMES] [--exact]``. It is
a script, not a test: shared machines are too noisy for timed assertions.
NumPy is held to one thread, so the rates are for one core.
"""

from __future__ import annotations

import os

for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import statistics  # noqa: E402 - after the thread settings, before NumPy loads
import sys  # noqa: E402
import time  # noqa: E402

from aces import engine  # noqa: E402
from aces.dice import RandomDice  # noqa: E402
from aces.games import game_named  # noqa: E402

TARGET_FAST = 2_000_000
TARGET_RATIO = 50
PLAYERS = 4
PLAIN_GAMES = 3_000
#: Aces: players and dice each of the games measured.
FIVE_DICE: tuple[tuple[int, int], ...] = ((4, 5), (3, 1))
FIVE_DICE_GAMES = 400_000
FIVE_DICE_PLAIN_GAMES = 1_000


def fast_rate(games: int, repeats: int = 3) -> float:
    """Games per second of the fast engine, the median of a few runs."""
    from aces.simulation import simulation

    rates = []
    for seed in range(repeats):
        start = time.perf_counter()
        sim = simulation("pot", PLAYERS, {})  # a new table every run: building counts
        tally = sim.run(games, seed)
        seconds = time.perf_counter() - start
        assert tally.games == games
        rates.append(games / seconds)
    return statistics.median(rates)


def plain_rate(games: int) -> float:
    """Games per second of a plain loop over the event-sourced engine."""
    game = game_named("pot")
    players = ["Ada", "Bo", "Cy", "Dag"][:PLAYERS]
    start = time.perf_counter()
    for seed in range(games):
        header = engine.header(game, players, {}, seed)
        for _ in engine.play(game, header, RandomDice(seed)):
            pass
    return games / (time.perf_counter() - start)


def five_dice_fast_rate(players: int, dice: int, games: int, repeats: int = 3) -> float:
    """Games of Aces per second of the fast engine, the median of a few runs."""
    from aces.simulation import simulation

    rates = []
    for seed in range(repeats):
        start = time.perf_counter()
        tally = simulation("five-dice", players, {"dice": dice}).run(games, seed)
        seconds = time.perf_counter() - start
        assert tally.games == games
        rates.append(games / seconds)
    return statistics.median(rates)


def five_dice_plain_rate(players: int, dice: int, games: int) -> float:
    """Games of Aces per second of a plain loop over the event-sourced engine."""
    game = game_named("five-dice")
    names = ["Ada", "Bo", "Cy", "Dag", "Eli"][:players]
    start = time.perf_counter()
    for seed in range(games):
        header = engine.header(game, names, {"dice": dice}, seed)
        for _ in engine.play(game, header, RandomDice(seed)):
            pass
    return games / (time.perf_counter() - start)


def five_dice_rates() -> None:
    for players, dice in FIVE_DICE:
        fast = five_dice_fast_rate(players, dice, FIVE_DICE_GAMES)
        plain = five_dice_plain_rate(players, dice, FIVE_DICE_PLAIN_GAMES)
        shape = f"{players} players x {dice} {'die' if dice == 1 else 'dice'}"
        print(f"five-dice, {shape}: fast engine {fast:,.0f} games/s,"
              f" plain loop {plain:,.0f} games/s, ratio {fast / plain:,.0f} x")


def exact_times() -> None:
    from aces.exact import exact

    for finish in ("last-chip", "last-holder"):
        start = time.perf_counter()
        odds = exact(8, 2, finish, 0.99)
        seconds = time.perf_counter() - start
        print(f"exact odds, 8 players, {finish}: {seconds:.1f} s"
              f" ({odds.states:,} states, {len(odds.length_cdf)} rolls to 99 %)")


def main(argv: list[str]) -> int:
    games = int(argv[0]) if argv and argv[0].isdigit() else 4_000_000
    fast = fast_rate(games)
    plain = plain_rate(PLAIN_GAMES)
    ratio = fast / plain
    print(f"fast engine, {PLAYERS} players: {fast:,.0f} games/s"
          f" (target {TARGET_FAST:,}){'' if fast >= TARGET_FAST else '  BELOW TARGET'}")
    print(f"plain loop (aces.engine.play), {PLAYERS} players: {plain:,.0f} games/s")
    print(f"ratio: {ratio:,.0f} x (target {TARGET_RATIO} x)"
          f"{'' if ratio >= TARGET_RATIO else '  BELOW TARGET'}")
    if "--exact" in argv:
        exact_times()
    five_dice_rates()
    return 0 if fast >= TARGET_FAST and ratio >= TARGET_RATIO else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
