"""Kill -9 a class server at random moments while groups post rolls, restart
it, and check that nothing acknowledged is lost and nothing is written twice.

The one procedure for the suite's short run (tests/server/test_faults.py, a
few trials) and the benchmark's long one (tests/benchmarks/class_faults.py,
fifty and more). Each group is a thread posting its game's rolls over the
JSON API; a post whose answer never came (the server died under it) is sent
again, with the same submission id, to the restarted server, until it is
answered, as a pupil's page does.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
import time
import typing as t
from dataclasses import dataclass, field

import httpx

from classtest import Server, due, join

if t.TYPE_CHECKING:
    from pathlib import Path


@dataclass
class Group:
    """One group: its token, its pending submission, every answer it got."""

    number: int
    token: str
    state: dict[str, t.Any]
    random: random.Random
    pending: dict[str, t.Any] | None = None
    answers: dict[str, dict[str, t.Any]] = field(default_factory=dict)
    count: int = 0


@dataclass
class Trials:
    """What the trials saw."""

    trials: int = 0
    acknowledged: int = 0
    retried: int = 0
    resumed_right: int = 0


def _next(group: Group) -> dict[str, t.Any]:
    game, dice = due(group.state)
    group.count += 1
    return {"id": f"g{group.number}-{group.count}", "seq": group.state["seq"], "game": game,
            "dice": [group.random.randint(1, 6) for _ in range(dice)]}


def _post(base: str, group: Group, stop: threading.Event, stats: Trials,
          lock: threading.Lock) -> None:
    """Post rolls until ``stop``, or until the server dies (the pending
    submission is kept, to be sent again)."""
    with httpx.Client(base_url=base, timeout=5) as client:
        while not stop.is_set():
            body = group.pending or _next(group)
            group.pending = body
            try:
                answer = client.post(f"/api/v1/groups/{group.number}/rolls", json=body,
                                     headers={"authorization": f"Bearer {group.token}"})
            except httpx.HTTPError:
                return
            if answer.status_code != 200:
                raise AssertionError(f"{answer.status_code}: {answer.text}")
            data = answer.json()
            group.answers[body["id"]] = data
            group.state = data["group"]
            group.pending = None
            with lock:
                stats.acknowledged += 1


def _check(folder: Path, groups: list[Group]) -> None:
    """Every answer is in its log, where it said; the answers tile each log
    after its header exactly (nothing twice, nothing unanswered); every log verifies."""
    for group in groups:
        log = folder / f"group-{group.number:03d}.jsonl"
        lines = [json.loads(line) for line in log.read_bytes().splitlines()]
        covered = [False] * len(lines)
        covered[0] = True
        for body_id, answer in group.answers.items():
            for offset, event in enumerate(answer["events"]):
                line = lines[answer["first"] - 1 + offset]
                assert {k: v for k, v in line.items() if k not in ("seq", "digest")} == event, (
                    f"{body_id} is not in {log.name} where its answer said")
                assert not covered[answer["first"] - 1 + offset], f"{body_id}: written twice"
                covered[answer["first"] - 1 + offset] = True
        assert all(covered), f"{log.name} holds lines no answer acknowledged"
        done = subprocess.run([sys.executable, "-m", "aces", "verify", str(log)],
                              capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr


def run(folder: Path, trials: int, groups: int = 4, seed: int = 0,
        least: float = 0.05, most: float = 0.6) -> Trials:
    """``trials`` kills at random moments, each followed by a restart and the checks."""
    chance = random.Random(seed)
    stats = Trials()
    lock = threading.Lock()
    server = Server(folder)
    with httpx.Client(base_url=server.base, timeout=10) as client:
        playing = [Group(number, token, state, random.Random(seed * 1000 + number))
                   for number, token, state in
                   (join(client, server.code, f"Group {n}", ["Ada", "Bo", "Cy"])
                    for n in range(1, groups + 1))]
    try:
        for _ in range(trials):
            stop = threading.Event()
            threads = [threading.Thread(target=_post, args=(server.base, group, stop, stats, lock))
                       for group in playing]
            before = stats.acknowledged
            for thread in threads:
                thread.start()
            # Once the groups are rolling, at a random moment: between posts,
            # in the middle of one, between a write and its answer.
            deadline = time.monotonic() + 20
            while stats.acknowledged == before and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(chance.uniform(least, most))
            server.kill()
            for thread in threads:
                thread.join(15)
            stats.trials += 1
            server = Server(folder)
            with httpx.Client(base_url=server.base, timeout=10) as client:
                for group in playing:
                    auth = {"authorization": f"Bearer {group.token}"}
                    if group.pending is not None:
                        # The retry of the post that died with the server.
                        body = group.pending
                        answer = client.post(f"/api/v1/groups/{group.number}/rolls",
                                             json=body, headers=auth)
                        assert answer.status_code == 200, answer.text
                        group.answers[body["id"]] = answer.json()
                        group.pending = None
                        stats.retried += 1
                    # The page carries on at the right roll.
                    now = client.get(f"/api/v1/groups/{group.number}", headers=auth).json()
                    last = max(group.answers.values(), key=lambda answer: answer["seq"],
                               default=None)
                    expected = group.state["seq"] if last is None else last["seq"]
                    assert now["seq"] == expected
                    stats.resumed_right += 1
                    group.state = now
            _check(folder, playing)
    finally:
        server.stop()
    return stats
