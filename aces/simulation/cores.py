"""A long simulation shared out over every core, with answers that do not depend on how many.

The games of a run are cut into *chunks* of :data:`CHUNK` games, and each
chunk rolls its own dice: chunk 0 from the run's seed, exactly as a run of
one chunk always has, and chunk ``k`` from the seed's ``k``-th spawned
stream (:class:`numpy.random.SeedSequence`). What a chunk finds depends
on the seed and its number alone, and the chunks' counts are whole
numbers added up, so a seed gives the same answers on one core or
sixteen, in whatever order the chunks finish. A run of one chunk (up to
about a million games) is played here, in this process; a longer one by
a pool of processes, one a core (:func:`cores`), each making the game's
tables afresh from its name, players and options.

>>> from aces.simulation import simulation
>>> sim = simulation("pot", 3, {})
>>> one = run(sim, 2 * CHUNK // 64, 5, jobs=1, chunk=CHUNK // 64)
>>> two = run(sim, 2 * CHUNK // 64, 5, jobs=2, chunk=CHUNK // 64)
>>> one.wins.tolist() == two.wins.tolist(), one.games
(True, 32768)
"""

from __future__ import annotations

import concurrent.futures
import functools
import multiprocessing
import os
import signal
import sys
import threading
import typing as t

import numpy as np

from aces.simulation import simulation
from aces.simulation.batch import Tally

if t.TYPE_CHECKING:
    from collections.abc import Callable

    from aces.rules import OptionValue
    from aces.simulation import Simulation

__all__ = ["CHUNK", "cores", "merge", "rng", "run"]

#: Games a chunk plays, with dice of its own: enough that starting a chunk
#: costs nothing beside playing it, few enough that a pool of two has a
#: dozen chunks to share out at the default of the most games.
CHUNK: t.Final = 1 << 20


def cores() -> int:
    """The cores this process may run on (all of them, where the system does not say)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def rng(seed: int, chunk: int) -> np.random.Generator:
    """The dice of chunk ``chunk`` of a run from ``seed``.

    >>> int(rng(7, 0).integers(100)) == int(np.random.default_rng(7).integers(100))
    True
    """
    if chunk == 0:
        return np.random.default_rng(seed)
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(chunk,)))


def run(sim: Simulation, games: int, seed: int, progress: Callable[[int], None] | None = None,
        jobs: int | None = None, chunk: int = CHUNK) -> Tally:
    """Play ``games`` games from ``seed`` in chunks of ``chunk``, on ``jobs``
    processes at once (default: :func:`cores`); ``progress`` hears of games done."""
    sizes = [min(chunk, games - first) for first in range(0, games, chunk)]
    jobs = min(jobs or cores(), len(sizes))
    if jobs <= 1:
        total: Tally | None = None
        for k, size in enumerate(sizes):
            found = sim.play(size, rng(seed, k), progress)
            total = found if total is None else merge(total, found)
        assert total is not None
        return total
    key = (sim.game, sim.seats, tuple(sorted(sim.options.items())))
    with concurrent.futures.ProcessPoolExecutor(
            max_workers=jobs, mp_context=_context(), initializer=_quiet) as pool:
        try:
            pending = {pool.submit(_chunk, key, seed, k, size): size
                       for k, size in enumerate(sizes)}
            tallies = []
            for done in concurrent.futures.as_completed(pending):
                tallies.append(done.result())
                if progress is not None:
                    progress(pending[done])
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    return functools.reduce(merge, tallies)


def merge(first: Tally, second: Tally) -> Tally:
    """Two tallies as one: wins, games by length and turns added up."""
    size = max(len(first.lengths), len(second.lengths))
    lengths = np.zeros(size, dtype=np.int64)
    lengths[:len(first.lengths)] += first.lengths
    lengths[:len(second.lengths)] += second.lengths
    turns = None if first.turns is None and second.turns is None \
        else (first.turns or 0) + (second.turns or 0)
    return Tally(first.wins + second.wins, lengths, turns)


def _context() -> multiprocessing.context.BaseContext:
    """Forked workers where forking is cheap and safe (Linux, a process of one
    thread, as a command is), which start at once; from a process with
    threads (a notebook's kernel), workers forked from a clean server; elsewhere,
    new interpreters."""
    if sys.platform.startswith("linux"):
        return multiprocessing.get_context(
            "fork" if threading.active_count() == 1 else "forkserver")
    return multiprocessing.get_context("spawn")


def _quiet() -> None:
    """A worker leaves Ctrl-C to the command, which stops the pool and says so once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@functools.lru_cache(maxsize=2)
def _simulation(key: tuple[str, int, tuple[tuple[str, OptionValue], ...]]) -> Simulation:
    game, players, options = key
    return simulation(game, players, dict(options))


def _chunk(key: tuple[str, int, tuple[tuple[str, OptionValue], ...]], seed: int, chunk: int,
           games: int) -> Tally:
    """One chunk of a run, in a worker: its simulation made once a process."""
    return _simulation(key).play(games, rng(seed, chunk))
