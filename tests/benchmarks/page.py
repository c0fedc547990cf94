"""Benchmark: the replay page of a 100-roll game of four players.

Reports, in one process, for a game of Aces in the Pot with four players
and 100 rolls or so (six chips each, the first seed that gives such a game)
and for a full game of Aces (four players, five dice each, estimated by
simulation):

* the time to gather and write the page, the chain's solve included (a
  fresh solve: the cache of solved tables is emptied first); target 2 s;
* beside it, as a baseline, the time of the terminal narration of the same
  game (``aces replay`` to a string), which the page also does once per
  language;
* the page's size; target 250 KB;
* the time until the page is interactive in Chromium, from the start of
  navigation to the end of its script (a ``performance.mark``); target 1 s.
  Skipped with a note where there is no Chromium or no Playwright.

And the page of a whole session with its picker (a class group's log of
twenty games), whose time and size grow with its rolls.

Run it with ``python tests/benchmarks/page.py``. It is a script, not a
test: shared machines are too noisy for timed assertions.
"""

from __future__ import annotations

import io
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aces.chances as position
from aces import engine
from aces.dice import RandomDice
from aces.events import Rolled
from aces.games import game_named
from aces.i18n import translations
from aces.log import LogWriter, read
from aces.narrate import tell
from aces.page.html import render, write_atomically
from aces.page.replay import collect

TARGET_WRITE = 2.0
TARGET_SIZE = 250_000
TARGET_READY = 1.0
NAMES = ("Ada", "Bo", "Cy", "Dag")


def a_game(name: str, options: dict[str, int], rolls: range) -> bytes:
    """The log of the first seeded game whose number of rolls is in ``rolls``."""
    game = game_named(name)
    for seed in range(1, 10_000):
        events = list(engine.play(game, engine.header(game, NAMES, options, seed),
                                  RandomDice(seed)))
        if sum(type(event) is Rolled for event in events) in rolls:
            out = io.BytesIO()
            LogWriter(out).write_all(events)
            return out.getvalue()
    raise SystemExit("no game of that length")


def write_time(log: bytes, page: Path, repeats: int = 3) -> tuple[float, float]:
    """The median time to write the page: on the clock, and of the CPU (which
    a loaded machine inflates less)."""
    times, used = [], []
    for _ in range(repeats):
        position._odds.cache_clear()
        start, cpu = time.perf_counter(), time.process_time()
        data = collect(read(log.splitlines(keepends=True), "log"), "log", None, "en")
        write_atomically(str(page), render(data))
        times.append(time.perf_counter() - start)
        used.append(time.process_time() - cpu)
    return statistics.median(times), statistics.median(used)


def narration_time(log: bytes, repeats: int = 3) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        tell(read(log.splitlines(keepends=True), "log"), "log", translations("en"), "en")
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def ready_time(page: Path, repeats: int = 5) -> float | None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from browser import chromium_path

    executable = chromium_path()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("  interactive: not measured (no Playwright)")
        return None
    if executable is None:
        print("  interactive: not measured (no Chromium)")
        return None
    times = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable,
                                             args=["--no-sandbox", "--disable-gpu"])
        for _ in range(repeats):
            context = browser.new_context(offline=True)
            tab = context.new_page()
            tab.goto(page.resolve().as_uri())
            tab.wait_for_selector("body[data-ready]")
            mark = tab.evaluate("performance.getEntriesByName('aces-ready')[0].startTime")
            times.append(float(mark) / 1000)
            context.close()
        browser.close()
    return statistics.median(times)


def report(title: str, log: bytes, folder: Path) -> None:
    page = folder / "page.html"
    rolls = sum(1 for line in log.splitlines() if b'"type":"rolled"' in line)
    print(f"{title}: {rolls} rolls")
    written, cpu = write_time(log, page)
    told = narration_time(log)
    size = page.stat().st_size
    print(f"  page written:  {written:6.3f} s, {cpu:.3f} s of CPU  (target < {TARGET_WRITE} s)")
    print(f"  baseline, the terminal narration of the same game: {told:6.3f} s")
    print(f"  page size:     {size / 1000:6.1f} KB  (target < {TARGET_SIZE / 1000:.0f} KB)")
    ready = ready_time(page)
    if ready is not None:
        print(f"  interactive:   {ready:6.3f} s   (target < {TARGET_READY} s)")


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        report("Aces in the Pot, four players, six chips each (exact)",
               a_game("pot", {"chips": 6}, range(95, 111)), Path(folder))
        report("Aces, four players, five dice each (estimated by simulation)",
               a_game("five-dice", {}, range(60, 200)), Path(folder))
        session = Path(__file__).resolve().parents[2] / "replays" / "class-group-1.jsonl"
        report("A session of twenty games of Aces in the Pot, every game in one page",
               session.read_bytes(), Path(folder))


if __name__ == "__main__":
    main()
