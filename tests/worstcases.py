"""Legal logs that are the hardest for a reader: many players, many rolls, many games.

Shared by the tests that bound what a command costs and by the benchmark
(tests/benchmarks/worst.py). Each log is played by the package's own
engine from scripted dice, so it verifies.
"""

from __future__ import annotations

import typing as t

from aces import engine
from aces.dice import DiceFile, RandomDice
from aces.games import game_named
from aces.log import LogWriter

if t.TYPE_CHECKING:
    from pathlib import Path

POT: t.Final = game_named("pot")


def seat_names(count: int) -> list[str]:
    """``count`` distinct short names: P1, P2, P3..."""
    return [f"P{n}" for n in range(1, count + 1)]


def many_players(path: Path, players: int, *, idle_rounds: int = 1) -> int:
    """A game of Aces in the Pot at a table of ``players``; the events written.

    Everyone opens with one die (the first seat with a 6, the rest lower),
    then plays ``idle_rounds`` rounds of rolls that move nothing; then each
    seat in turn rolls 1-1 and puts both its chips in the pot, until the last
    seat's 1-3 leaves one chip in play and wins the finish. Every roll of
    the last stretch changes the standings of one player.
    """
    dice = ["6", *(str(1 + n % 5) for n in range(players - 1))]
    dice += ["2 3"] * (players * idle_rounds)
    dice += ["1 1"] * (players - 1)
    dice += ["1 3", "2 3", "4 5", "2 2"]
    return _write(path, [engine.header(POT, seat_names(players), {})], dice)


def restarts(path: Path, players: int, chips: int) -> int:
    """A last-holder game of Aces in the Pot at a table of ``players`` with an
    even number of ``chips`` each, whose finish starts ``chips`` times.

    Round after round every seat but the last rolls 1-1 and the last seat
    2-3, until the last seat alone holds chips and tries. Each try fails on
    6-3, passing one chip to the first seat, whose 1-3 puts it in the pot:
    the last seat is alone again, and the finish starts again. The last try
    succeeds.
    """
    dice = ["6", *(str(1 + n % 5) for n in range(players - 1))]
    for _ in range(chips // 2 - 1):
        dice += ["1 1"] * (players - 1) + ["2 3"]
    dice += ["1 1"] * (players - 1)
    dice += ["6 3", "1 3"] * (chips - 1) + ["2 3", "4 5", "2 2"]
    options: dict[str, int | str | bool] = {"finish": "last-holder", "chips": chips}
    return _write(path, [engine.header(POT, seat_names(players), options)], dice)


def long_game(path: Path, rolls: int) -> int:
    """A game of Aces in the Pot for two with ``rolls`` rolls that move nothing."""
    dice = ["6", "1", *(["2 3"] * rolls), "1 1", "1 3", "2 3", "4 5", "2 2"]
    return _write(path, [engine.header(POT, ["Ada", "Bo"], {})], dice)


def estimated_long(path: Path, rolls: int) -> int:
    """A game of Aces in the Pot at a table of twelve with five chips each,
    too large to solve, so every chance is estimated, with ``rolls`` rolls
    that move nothing: every moment is the costliest to estimate, all sixty
    chips still in play. Then each seat but the last puts its chips in the
    pot, two at a time, and the last brings the chips in play down to one
    and wins the finish."""
    players = 12
    dice = ["6", *(str(1 + n % 5) for n in range(players - 1))]
    dice += ["2 3"] * rolls
    # Back to the first seat, then five chips each: three rolls of 1-1 for
    # eleven seats, each pass to the next seat that still holds any.
    dice += ["2 3"] * ((players - rolls % players) % players)
    for _ in range(3):
        dice += ["1 1"] * (players - 1) + ["2 3"]
    # The last seat alone: down to one chip, then a try without a six.
    dice += ["1 1", "1 1", "2 3", "4 5", "2 2"]
    return _write(path, [engine.header(POT, seat_names(players), {"chips": 5})], dice)


def session(path: Path, games: int) -> int:
    """A session of ``games`` random games of Aces in the Pot for four players."""
    players = ["Ada", "Bo", "Cy", "Dag"]
    with path.open("wb") as out:
        writer = LogWriter(out)
        for number in range(games):
            start = engine.header(POT, players, {}, seed=number + 1)
            writer.write_all(engine.play(POT, start, RandomDice(number + 1)))
    return writer.written


def _write(path: Path, headers: list[t.Any], dice: list[str]) -> int:
    source = DiceFile(dice, "worst-case dice")
    with path.open("wb") as out:
        writer = LogWriter(out)
        for start in headers:
            writer.write_all(engine.play(POT, start, source))
    source.check_finished()
    return writer.written
