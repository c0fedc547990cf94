"""Benchmark: how fast ``aces verify`` and ``aces replay`` read a big log.

Writes a session of 20,000 games of Aces in the Pot for four players
(about 1.3 million events), then reports, side by side:

* the baseline: decoding every line with the standard library's ``json``;
* the reader alone (:func:`aces.log.read`, as the walk takes it: shape,
  digests, each distinct line decoded once), and
  the digest chain alone, hashed as the reader hashes it, to show what the
  integrity check costs;
* ``verify``: what ``aces verify`` does, the checked walk through the rules
  (every roll re-decided) driving the verdict's tally, which is shown the
  games' starts and ends and the undos alone; and the walk handing on every
  step, as the other visitors take it;
* ``replay``: the same walk plus the narration, in English and in Bokmål
  (the target is Bokmål's), written to /dev/null, and again with the
  phrasebooks' caches keeping nothing, to show what they pay;
* the peak memory of ``aces verify`` as a separate process, for a log ten
  times smaller and for the whole log: streaming keeps it flat;
* the start-up time of ``aces --help``.

Run it with ``python tests/benchmarks/logs.py [GAMES] [--before DIR]``.
``--before DIR`` also runs ``aces verify``, ``aces replay`` and ``aces
walkthrough`` on the same log as processes, from this checkout and from
another (an older commit, say), and reports their CPU time side by side,
as rates beside the baseline. The processes run as an installed package
runs: its modules compiled once, as an install compiles them, into a cache
of the run's own (this machine's environment sets PYTHONDONTWRITEBYTECODE,
with which every process compiled the package anew, some 50 ms of each
start-up that no installed copy pays). It is a script, not a test: shared
machines are too noisy for timed assertions.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
import typing as t
from pathlib import Path

from aces.log import read
from aces.summary import Tally
from aces.walk import drive, walk

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from worstcases import session

#: The rates asked for, as multiples of the baseline measured in the same run.
TARGET_VERIFY = 2.0
TARGET_REPLAY = 1.2


def rate(label: str, events: int, seconds: float, baseline: float | None = None) -> float:
    per_second = events / seconds
    ratio = f"  ({per_second / baseline:.2f} x baseline)" if baseline else ""
    print(f"{label:<40} {per_second:>12,.0f} events/s  {seconds:6.2f} s{ratio}")
    return per_second


def time_baseline(path: Path) -> float:
    """The baseline every benchmark of a log reports beside: ``json.loads`` of every line."""
    start = time.perf_counter()
    with path.open("rb") as handle:
        for line in handle:
            json.loads(line)
    return time.perf_counter() - start


def time_reader(path: Path) -> float:
    """The reader as the walk takes it: batches of lines, each line's number
    and digest checked, each distinct line decoded once."""
    start = time.perf_counter()
    with path.open("rb") as handle:
        decoded: set[t.Hashable] = set()
        for _, keys, event in read(handle, str(path)).batches():
            for index, key in enumerate(keys):
                if key not in decoded:
                    decoded.add(key)
                    event(index)
    return time.perf_counter() - start


def time_digests(path: Path) -> float:
    """The digest chain alone: each line hashed with the one before, as read does."""
    base = hashlib.blake2b(digest_size=16)
    with path.open("rb") as handle:
        lines = [(line[:start], line[start + 32:], line[start:start + 32])
                 for line in handle
                 for start in [line.index(b'"digest":"') + 10]]
    start = time.perf_counter()
    previous = b""
    for head, rest, found in lines:
        h = base.copy()
        h.update(previous)
        h.update(head)
        h.update(rest)
        if h.hexdigest().encode() != found:
            raise SystemExit("a digest does not fit")
        previous = found
    return time.perf_counter() - start


def time_verify(path: Path) -> float:
    """``aces verify``'s work: the walk driving the verdict's tally."""
    start = time.perf_counter()
    with path.open("rb") as handle:
        drive(read(handle, str(path)), str(path), Tally(), allow_unfinished=True,
              allow_unsettled=False)
    return time.perf_counter() - start


def time_walk(path: Path) -> float:
    """The walk handing on every step."""
    start = time.perf_counter()
    with path.open("rb") as handle:
        for _ in walk(read(handle, str(path)), str(path)):
            pass
    return time.perf_counter() - start


def time_replay(path: Path, lang: str = "en", *, cached: bool = True) -> float:
    """The replay as ``aces replay`` runs it: the narrator driven through the
    walk by the printer the command uses. Without ``cached``, the
    phrasebooks keep no sentence (a budget of nothing): what the cache pays."""
    from aces.cli._printer import Printer
    from aces.i18n import translations
    from aces.narrate import Narrator, phrasebook
    from aces.walk import drive

    budget = phrasebook.CACHE_BUDGET
    phrasebook.CACHE_BUDGET = budget if cached else 0  # type: ignore[misc]
    try:
        narrator = Narrator(translations(lang), lang)
        start = time.perf_counter()
        with path.open("rb") as handle, Path(os.devnull).open("w") as out:
            printer = Printer(narrator, out)
            drive(read(handle, str(path)), str(path), printer)
            printer.flush()
        return time.perf_counter() - start
    finally:
        phrasebook.CACHE_BUDGET = budget  # type: ignore[misc]


class Used(t.NamedTuple):
    """What a child process used: CPU time (user and system: steadier than the
    wall clock on a machine others share, and summed over the processes it
    forks) and peak resident memory (KiB), as the kernel counts them, and the
    time it took by the wall clock (what a command that uses two cores saves)."""

    seconds: float
    kib: int
    wall: float


def measure(command: list[str], pythonpath: str | None = None,
            limit: float | None = None) -> Used | None:
    """What ``command`` used, run as a child process, its output to /dev/null,
    with ``pythonpath`` for the package when given; ``None`` past ``limit`` seconds."""
    probe = (
        "import resource, subprocess, sys, time;"
        "start = time.perf_counter();"
        "done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL,"
        " stderr=subprocess.DEVNULL);"
        "wall = time.perf_counter() - start;"
        "used = resource.getrusage(resource.RUSAGE_CHILDREN);"
        "print(used.ru_utime + used.ru_stime, used.ru_maxrss, done.returncode, wall)"
    )
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    try:
        # Run away from any checkout, so that "python -m aces" finds the
        # package on PYTHONPATH (or installed), not in the current folder.
        result = subprocess.run([sys.executable, "-c", probe, *command], check=True,
                                capture_output=True, text=True, env=env, timeout=limit,
                                cwd=tempfile.gettempdir())
    except subprocess.TimeoutExpired:
        return None
    seconds, kib, code, wall = result.stdout.split()
    if int(code) != 0:
        raise SystemExit(f"{' '.join(command)} failed with status {code}")
    return Used(float(seconds), int(kib), float(wall))


def peak_memory_kib(command: list[str]) -> int:
    """Peak resident memory of a child process, as the kernel counts it."""
    used = measure(command)
    assert used is not None
    return used.kib


def used(command: list[str], pythonpath: str | None) -> Used:
    """What a child process used."""
    found = measure(command, pythonpath)
    assert found is not None
    return found


def load() -> str:
    """The machine's load averages (1, 5 and 15 minutes)."""
    try:
        return " ".join(Path("/proc/loadavg").read_text(encoding="ascii").split()[:3])
    except OSError:
        return "unknown"


def side_by_side(path: Path, events: int, baseline: float, before: str, warm: Path,
                 runs: int = 3) -> None:
    """Each command's rate now and from the checkout ``before``, the best of ``runs``,
    by CPU time and by the wall clock.

    Each command first reads the log ``warm`` (a small one) from each
    checkout, untimed, which compiles the modules it loads. The runs of the
    two take turns, so that a change in the machine's load falls on both alike.
    A command that reads a big log on two cores (:mod:`aces.split`) spends
    more CPU time than on one, and less time by the wall clock.
    """
    aces = [sys.executable, "-m", "aces"]
    print(f"\nthe commands as processes, best of {runs}: now, and before ({before})")
    for command in (["verify"], ["replay", "--lang", "nb"], ["walkthrough", "--lang", "en"]):
        for pythonpath in (None, before):
            measure([*aces, command[0], str(warm), *command[1:]], pythonpath)
        line = [*aces, command[0], str(path), *command[1:]]
        turns = []
        for _ in range(runs):
            turns.append((used(line, None), used(line, before)))
            print(f"{'':<40} load {load()}: now {turns[-1][0].seconds:.2f} s CPU,"
                  f" {turns[-1][0].wall:.2f} s wall; before {turns[-1][1].seconds:.2f} s CPU,"
                  f" {turns[-1][1].wall:.2f} s wall")
        for clock, field in (("CPU time", "seconds"), ("wall clock", "wall")):
            now = min(getattr(mine, field) for mine, _ in turns)
            then = min(getattr(theirs, field) for _, theirs in turns)
            rate(f"{command[0]} now, {clock}", events, now, baseline)
            rate(f"{command[0]} before, {clock}", events, then, baseline)
            print(f"{'':<40} now / before: {then / now:.2f} x the speed")


def main() -> None:
    args = sys.argv[1:]
    before = None
    if "--before" in args:
        at = args.index("--before")
        before = args[at + 1]
        del args[at:at + 2]
    games = int(args[0]) if args else 20_000
    aces = [sys.executable, "-m", "aces"]
    with tempfile.TemporaryDirectory() as folder:
        # The child processes' compiled modules, kept for the run (see above).
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
        os.environ["PYTHONPYCACHEPREFIX"] = str(Path(folder) / "pycache")
        big = Path(folder) / "session.jsonl"
        small = Path(folder) / "small.jsonl"
        started = time.perf_counter()
        events = session(big, games)
        small_events = session(small, max(1, games // 10))
        print(f"wrote {games:,} games, {events:,} events, "
              f"{big.stat().st_size / 2**20:.0f} MiB in {time.perf_counter() - started:.1f} s\n")

        print(f"load {load()}")
        baseline = rate("baseline: json.loads per line", events, time_baseline(big))
        rate("reader alone (shape, decode, digests)", events, time_reader(big), baseline)
        digests = time_digests(big)
        rate("digest chain alone", events, digests, baseline)
        verify_seconds = time_verify(big)
        verify = rate("verify (checked walk, the tally)", events, verify_seconds, baseline)
        rate("the walk, every step handed on", events, time_walk(big), baseline)
        print(f"{'':<40} the digests: {digests / events * 1e6:.2f} us an event,"
              f" {digests / verify_seconds:.0%} of verify")
        rate("replay --lang en to /dev/null", events, time_replay(big), baseline)
        replay = rate("replay --lang nb to /dev/null", events, time_replay(big, "nb"), baseline)
        rate("  the same, no phrasebook cache", events, time_replay(big, "nb", cached=False),
             baseline)
        print(f"\ntargets: verify {TARGET_VERIFY} x baseline ({verify / baseline:.2f} x: "
              f"{'met' if verify >= TARGET_VERIFY * baseline else 'NOT met'}), "
              f"replay {TARGET_REPLAY} x baseline ({replay / baseline:.2f} x: "
              f"{'met' if replay >= TARGET_REPLAY * baseline else 'NOT met'})")

        if before is not None:
            side_by_side(big, events, baseline, before, small)

        low = peak_memory_kib([*aces, "verify", str(small)])
        high = peak_memory_kib([*aces, "verify", str(big)])
        print(f"\npeak memory of aces verify: {low / 1024:.1f} MiB for {small_events:,} events, "
              f"{high / 1024:.1f} MiB for {events:,} events "
              f"({high / low:.2f} x for {events / small_events:.0f} x the events)")

        start = time.perf_counter()
        subprocess.run([*aces, "--help"], check=True, stdout=subprocess.DEVNULL)
        print(f"start-up: aces --help took {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
