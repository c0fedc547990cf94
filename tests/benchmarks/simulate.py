"""Benchmark: the fast simulation against a plain loop, and the exact solver.

Reports, side by side and in one process:

* the fast engine (:mod:`aces.simulation`), games of Aces in the Pot per
  second for four players, table building included (target: 2,000,000);
* a plain Python loop playing one game at a time with the event-sourced
  engine, :func:`aces.engine.play` with :class:`aces.dice.RandomDice`;
* their ratio (target: at least 50);
* with ``--exact``, the time ``aces odds --players 8`` needs for each finish
  (building the chain, solving it, the length distribution to 99 %);
* the same engine on one core and on every core (``jobs=1``, ``jobs=2``:
  :mod:`aces.simulation.cores`), whole runs of ``--cores-games`` games,
  their answers checked equal; and beside them a tight single-threaded C
  loop of the same game, built here with the system's C compiler (``cc``)
  where there is one: the same transition table, one look-up per roll, a
  xoshiro256** generator. The report gives the engine's rate per core as a
  share of the C loop's (target: 25 %); without a compiler it says so and
  gives no share. The C loop is never part of the package;
* for Aces, the five-dice game (:mod:`aces.simulation.fivedice`), the fast
  engine and the plain loop side by side, with their ratio, for four
  players with five dice each and for the pub version, three players with
  one die each. It has no target: a roll of many dice costs more than a
  table look-up, and the report says how much.

Run it with ``python tests/benchmarks/simulate.py [GAMES] [--exact] [--cores-games N]``. It is
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
import typing as t  # noqa: E402
from pathlib import Path  # noqa: E402

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


#: The C loop: reads a transition table (state * width + roll -> next cell,
#: the turn carried in the state, as aces.simulation.tables lays it out) and
#: plays games one after another.
C_LOOP: t.Final = r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static uint64_t s[4];
static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static inline uint64_t next(void) {
    uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = rotl(s[3], 45);
    return r;
}
int main(int argc, char **argv) {
    long games = atol(argv[2]), cells, width, ended, start, seats;
    FILE *f = fopen(argv[1], "rb");
    if (fread(&cells, 8, 1, f) != 1 || fread(&width, 8, 1, f) != 1 ||
        fread(&ended, 8, 1, f) != 1 || fread(&start, 8, 1, f) != 1 ||
        fread(&seats, 8, 1, f) != 1) return 1;
    int32_t *steps = malloc(cells * 4);
    if (fread(steps, 4, cells, f) != (size_t)cells) return 1;
    s[0] = 1; s[1] = 2; s[2] = 3; s[3] = 4;
    long wins[64] = {0}, rolls = 0;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (long g = 0; g < games; g++) {
        int32_t state = start;
        while (state < ended) {
            uint64_t m = (uint64_t)(uint32_t)next() * (uint64_t)width;  /* Lemire, no bias test */
            state = steps[state + (int32_t)(m >> 32)];
            rolls++;
        }
        wins[((state - ended) / width) % seats]++;
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("%.6f %ld %ld\n", (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9, rolls, wins[0]);
    return 0;
}
"""


def c_loop_rate(games: int) -> float | None:
    """Games per second of the C loop on this machine; ``None`` without a C compiler."""
    import shutil
    import subprocess
    import tempfile

    import numpy as np

    from aces.simulation import simulation

    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return None
    flat = simulation("pot", PLAYERS, {}).engine._flat  # type: ignore[attr-defined]
    # The C loop reads a wide table that carries the turn in its states.
    assert flat.turns is None
    assert flat.outcome_of is None
    with tempfile.TemporaryDirectory() as folder:
        source, program, table = (Path(folder) / name for name in ("loop.c", "loop", "table"))
        source.write_text(C_LOOP, encoding="ascii")
        subprocess.run([compiler, "-O2", "-o", str(program), str(source)], check=True)
        header = np.array([len(flat.steps), flat.width, flat.ended, flat.start, PLAYERS],
                          dtype=np.int64)
        table.write_bytes(header.tobytes() + flat.steps.astype(np.int32).tobytes())
        out = subprocess.run([str(program), str(table), str(games)], check=True,
                             capture_output=True, text=True).stdout.split()
    return games / float(out[0])


def cores_rates(games: int) -> None:
    """The engine on one core and on two, beside the C loop."""
    from aces.simulation import simulation

    rates = {}
    answers = {}
    for jobs in (1, 2):
        start = time.perf_counter()
        tally = simulation("pot", PLAYERS, {}).run(games, 1, jobs=jobs)
        rates[jobs] = games / (time.perf_counter() - start)
        answers[jobs] = (tally.wins.tolist(), tally.lengths.tolist())
    c_rate = c_loop_rate(games)
    same = "the same answers" if answers[1] == answers[2] else "DIFFERENT ANSWERS"
    print(f"fast engine, {PLAYERS} players, {games:,} games: one core {rates[1]:,.0f} games/s,"
          f" two cores {rates[2]:,.0f} games/s ({rates[2] / rates[1]:.2f} x), {same}")
    if c_rate is None:
        print("C loop: no C compiler here, no share")
        return
    share = rates[2] / 2 / c_rate
    print(f"C loop, one core: {c_rate:,.0f} games/s; the engine per core on two cores:"
          f" {share:.0%} of it, on one core {rates[1] / c_rate:.0%} (target 25 %)"
          f"{'' if share >= 0.25 else '  BELOW TARGET'}")


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
    cores_rates(int(argv[argv.index("--cores-games") + 1]) if "--cores-games" in argv
                else 8 * 1_048_576)
    if "--exact" in argv:
        exact_times()
    five_dice_rates()
    return 0 if fast >= TARGET_FAST and ratio >= TARGET_RATIO else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
