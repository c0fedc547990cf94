"""Every output a user sees, written by one checkout and compared with another's.

Refactoring promises that nothing a user sees changes. This tool holds the
promise to account: it runs the commands a user runs (replay, replay --odds,
walkthrough in every format, verify, odds, simulate, stats, the pages) on the
example logs in every language, and writes what each prints to a folder, one
file an output. ``compare`` does that for the current checkout and for an
earlier commit (checked out in a temporary worktree, run with the same
Python) and names every output that differs by a single byte.

    python scripts/outputs.py write OUT            # this checkout's outputs
    python scripts/outputs.py compare --before REV # this checkout against REV

Run it from the checkout's virtual environment (its Python must have the
package's dependencies); the earlier commit is run with ``PYTHONPATH`` set
to its worktree, so both use the same libraries.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import filecmp
import os
import subprocess
import sys
import tempfile
import typing as t
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LANGS = ("en", "nb", "nn")


class Output(t.NamedTuple):
    """One output: its file name and the arguments of ``python -m aces``."""

    name: str
    args: tuple[str, ...]
    #: A file the command writes (``{out}`` in args), kept instead of stdout.
    writes: str | None = None


def outputs() -> list[Output]:
    """Every output compared, in a fixed order."""
    logs = sorted(p.name for p in (ROOT / "replays").glob("*.jsonl"))
    classes = [f"replays/{name}" for name in logs if name.startswith("class-group-")]
    found: list[Output] = []
    for lang in LANGS:
        for log in logs:
            stem = log.removesuffix(".jsonl")
            path = f"replays/{log}"
            found.append(Output(f"replay.{stem}.{lang}.txt", ("replay", path, "--lang", lang)))
            found.append(Output(f"replay-odds.{stem}.{lang}.txt",
                                ("replay", path, "--odds", "--lang", lang)))
            for fmt in ("markdown", "rst", "text"):
                found.append(Output(f"walkthrough.{stem}.{lang}.{fmt}",
                                    ("walkthrough", path, "--format", fmt, "--lang", lang)))
            found.append(Output(f"verify.{stem}.{lang}.txt", ("verify", path, "--lang", lang)))
        for players in ("2", "3", "4", "5"):
            found.append(Output(f"odds.{players}.{lang}.txt",
                                ("odds", "--players", players, "--lang", lang)))
        found.append(Output(f"odds.4-last-holder.{lang}.txt",
                            ("odds", "--players", "4", "--finish", "last-holder", "--lang", lang)))
        found.append(Output(f"odds.3-chips-3.{lang}.txt",
                            ("odds", "--players", "3", "--chips", "3", "--lang", lang)))
        for game, players in (("pot", "4"), ("five-dice", "3")):
            found.append(Output(f"simulate.{game}.{players}.{lang}.txt",
                                ("simulate", "--game", game, "--players", players,
                                 "--games", "20000", "--seed", "7", "--lang", lang)))
            found.append(Output(f"simulate.{game}.{players}.{lang}.json",
                                ("simulate", "--game", game, "--players", players,
                                 "--games", "20000", "--seed", "7", "--json", "--lang", lang)))
            found.append(Output(f"simulate-page.{game}.{players}.{lang}.html",
                                ("simulate", "--game", game, "--players", players,
                                 "--html", "{out}", "--lang", lang), writes="page.html"))
        found.append(Output(f"stats.class.{lang}.txt", ("stats", *classes, "--lang", lang)))
        found.append(Output(f"stats.class.{lang}.json",
                            ("stats", *classes, "--json", "--lang", lang)))
        for extra in ((), ("--rolls",), ("--by-log",), ("--decimal-comma",)):
            suffix = "".join(extra).replace("--", "-")
            found.append(Output(f"stats-csv{suffix}.class.{lang}.csv",
                                ("stats", *classes, "--csv", "{out}", *extra, "--lang", lang),
                                writes="table.csv"))
        for log in ("three-players", "session", "five-dice-threes"):
            found.append(Output(f"replay-page.{log}.{lang}.html",
                                ("replay", f"replays/{log}.jsonl", "--html", "{out}",
                                 "--lang", lang), writes="page.html"))
    return found


def run(tree: Path, output: Output, out: Path, python: str) -> None:
    """Run one output's command with the package of ``tree``; write its bytes."""
    env = {**os.environ, "PYTHONPATH": str(tree), "LANGUAGE": "", "LC_ALL": "C.UTF-8",
           "COLUMNS": "80", "PYTHONHASHSEED": "0"}
    with tempfile.TemporaryDirectory() as scratch:
        target = Path(scratch) / output.writes if output.writes else None
        args = [str(target) if arg == "{out}" else arg for arg in output.args]
        done = subprocess.run([python, "-m", "aces", *args], cwd=tree, env=env,
                              capture_output=True, check=False, timeout=600)
        body = target.read_bytes() if target is not None and target.exists() else done.stdout
        status = f"exit {done.returncode}\n".encode()
        (out / output.name).write_bytes(status + done.stderr + b"\n--\n" + body)


def write(tree: Path, out: Path, python: str, jobs: int) -> int:
    """Write every output of ``tree`` into ``out``; the number written."""
    out.mkdir(parents=True, exist_ok=True)
    every = outputs()
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for done in pool.map(lambda o: run(tree, o, out, python), every):
            del done
    return len(every)


def compare(before: str, python: str, jobs: int, keep: Path | None) -> int:
    """Outputs of this checkout against those of ``before``; 0 when all equal."""
    with tempfile.TemporaryDirectory() as scratch:
        old = Path(scratch) / "before"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(old), before],
                       check=True, capture_output=True)
        try:
            base = keep or Path(scratch)
            count = write(old, base / "old", python, jobs)
            write(ROOT, base / "new", python, jobs)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old)],
                           check=False, capture_output=True)
        differing = [o.name for o in outputs()
                     if not (base / "old" / o.name).exists()
                     or not filecmp.cmp(base / "old" / o.name, base / "new" / o.name,
                                        shallow=False)]
    for name in differing:
        print(f"differs: {name}")
    print(f"{count - len(differing)} of {count} outputs the same as at {before}")
    return 1 if differing else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2, help="commands run at once")
    sub = parser.add_subparsers(dest="command", required=True)
    writing = sub.add_parser("write", help="write this checkout's outputs into OUT")
    writing.add_argument("out", type=Path)
    comparing = sub.add_parser("compare", help="compare this checkout with an earlier commit")
    comparing.add_argument("--before", required=True, help="the commit to compare with")
    comparing.add_argument("--keep", type=Path, help="keep both sets of outputs here")
    args = parser.parse_args()
    if args.command == "write":
        print(f"{write(ROOT, args.out, sys.executable, args.jobs)} outputs in {args.out}")
        return 0
    return compare(args.before, sys.executable, args.jobs, args.keep)


if __name__ == "__main__":
    sys.exit(main())
