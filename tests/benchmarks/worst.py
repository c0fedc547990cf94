"""Benchmark: the worst legal logs, read by ``verify``, ``replay`` and ``walkthrough``.

Writes three kinds of log (tests/worstcases.py): a game of Aces in the
Pot at a table of 2,000, 4,000 and 8,000 players, a game of 20,000 and
80,000 rolls, and a session of 5,000 and 20,000 games. Each command runs
as a process of its own, its output to /dev/null, and the report gives
its CPU time, the time per line of the log and its peak memory (the
kernel's count) beside the baseline, ``json.loads`` of every line, timed
in the same run. The time per line should stay the same as a log grows,
whatever makes it grow, and memory stay flat.

With ``--estimates`` it measures instead the outputs whose chances are
estimated by simulation, the costliest per roll: ``replay --odds``,
``replay --html`` and ``walkthrough`` of a game of Aces in the Pot at a
table of twelve with five chips each, whose every roll leaves all sixty
chips in play (200 and 1,800 rolls, and then the finish: a page holds at
most 2,000, :data:`aces.page.replay.MOST_ROLLS`), and of a random
five-dice game for twelve; and the notebook view of that five-dice game
(``aces.play(12, game="five-dice", seed=1)._repr_html_()``). Each is
bounded by the estimates' budget (:mod:`aces.chances.budget`), so its time
stops growing with the rolls; ``--before DIR`` runs the same beside an
older checkout (there, the time grows with the rolls, and with their
square for a page).

Run it with ``python tests/benchmarks/worst.py [--quick] [--estimates] [--before DIR]``.
``--quick`` makes every log ten times smaller; ``--before DIR`` also runs
each command from another checkout of aces (an older commit, say), for a
before-and-after table. It is a script, not a test: shared machines are
too noisy for timed assertions.
"""

from __future__ import annotations

import sys
import tempfile
import typing as t
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.logs import Used, measure, time_baseline
from worstcases import estimated_long, long_game, many_players, session

if t.TYPE_CHECKING:
    from collections.abc import Callable

COMMANDS: t.Final = ("verify", "replay", "walkthrough")
#: Each probe ends after this long: a command that takes longer is reported as such.
LIMIT: t.Final = 300.0


def show(figure: Used | None, lines: int) -> str:
    """CPU time, the time per line of the log (flat when the cost is linear) and peak memory."""
    if figure is None:
        return f"{f'> {LIMIT:.0f} s':>10} {'':>18}"
    seconds, kib = figure.seconds, figure.kib
    return f"{seconds:7.2f}s {seconds / lines * 1e6:6.1f}us {kib / 1024:5.0f}MiB"


#: The commands of the estimates' cases, each with what it adds to ``aces CMD LOG``.
ESTIMATED: t.Final = (("replay --odds", ["replay", "--odds"]),
                      ("replay --html", ["replay", "--html", "{page}", "--force"]),
                      ("walkthrough", ["walkthrough"]))
NOTEBOOK: t.Final = ("import aces; aces.play(12, game='five-dice', seed=1)._repr_html_()")


def five_dice_game(path: Path) -> int:
    """A random five-dice game for twelve, as aces play writes it (seed 1)."""
    import subprocess

    subprocess.run([sys.executable, "-m", "aces", "play", "--game", "five-dice", "--players",
                    "12", "--seed", "1", "-o", str(path)], check=True)
    return len(path.read_bytes().splitlines())


def estimates(before: str | None) -> None:
    """The outputs whose chances are estimated, now and (with ``before``) then."""
    aces = [sys.executable, "-m", "aces"]
    print(f"{'log':<34} {'lines':>6}  " + "  ".join(
        f"{label + ' now':>24}" + (f"  {label + ' before':>24}" if before else "")
        for label, _ in ESTIMATED))
    with tempfile.TemporaryDirectory() as folder:
        page = str(Path(folder) / "page.html")
        logs: list[tuple[str, Callable[[Path], int]]] = [
            ("pot, 12 x 5 chips, 200 rolls", lambda path: estimated_long(path, 200)),
            # The finish adds some 130 rolls, and a page refuses a game of more
            # than MOST_ROLLS: the longest game all three commands take.
            ("pot, 12 x 5 chips, 1,800 rolls", lambda path: estimated_long(path, 1_800)),
            ("five-dice, 12 x 5 dice, seed 1", five_dice_game),
        ]
        for label, write in logs:
            path = Path(folder) / "log.jsonl"
            lines = write(path)
            cells = []
            for _, extra in ESTIMATED:
                command = [*aces, extra[0], str(path),
                           *(page if arg == "{page}" else arg for arg in extra[1:])]
                cells.append(show(measure(command, None, LIMIT), lines))
                if before:
                    cells.append(show(measure(command, before, LIMIT), lines))
            print(f"{label:<34} {lines:>6,}  " + "  ".join(cells), flush=True)
            path.unlink()
    view = [sys.executable, "-c", NOTEBOOK]
    line = f"{'notebook view, five-dice for 12':<34} {'':>6}  {show(measure(view, None, LIMIT), 1)}"
    if before:
        line += f"  {show(measure(view, before, LIMIT), 1)}"
    print(line)


def main() -> None:
    args = sys.argv[1:]
    if "--estimates" in args:
        estimates(args[args.index("--before") + 1] if "--before" in args else None)
        return
    quick = "--quick" in args
    before = args[args.index("--before") + 1] if "--before" in args else None
    scale = 10 if quick else 1
    # Each kind of log at growing sizes: the players of one table doubled
    # twice (a chip moved must cost the same at any table), the others a
    # quarter and the whole.
    cases: list[tuple[str, Callable[[Path, int], int], tuple[int, ...]]] = [
        ("players", many_players, (2_000 // scale, 4_000 // scale, 8_000 // scale)),
        ("rolls", long_game, (20_000 // scale, 80_000 // scale)),
        ("games", session, (5_000 // scale, 20_000 // scale)),
    ]
    aces = [sys.executable, "-m", "aces"]
    header = f"{'log':<28} {'lines':>9} {'MiB':>6} {'json.loads':>10}  "
    header += "  ".join(f"{c + ' now':>25}" + (f"  {c + ' before':>25}" if before else "")
                        for c in COMMANDS)
    print(header)
    with tempfile.TemporaryDirectory() as folder:
        for label, write, sizes in cases:
            for count in sizes:
                path = Path(folder) / f"{label}-{count}.jsonl"
                lines = write(path, count)
                cells = []
                for command in COMMANDS:
                    cells.append(show(measure([*aces, command, str(path)], None, LIMIT), lines))
                    if before:
                        cells.append(show(measure([*aces, command, str(path)], before, LIMIT),
                                          lines))
                print(f"{f'{count:,} {label}':<28} {lines:>9,} "
                      f"{path.stat().st_size / 2**20:6.1f} {time_baseline(path):9.2f}s  "
                      + "  ".join(cells), flush=True)
                path.unlink()


if __name__ == "__main__":
    main()
