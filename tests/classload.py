"""Load on a real ``aces class serve``: groups posting rolls while projectors listen.

:func:`measure` starts the server on loopback (a process of its own, its
CPU and memory read from /proc), lets the groups join, then has each post
a roll about every ``every`` seconds over the JSON API for ``seconds``,
keeping every answer, while ``projectors`` read the class's stream. Every
acknowledged roll must then be in its log once, and every projector must
have seen every block once, in the feed's order. The suite runs it short
(tests/server/test_load.py); tests/benchmarks/class_load.py runs it long
and reports its figures.

The server's CPU time a roll is reported beside the wall-clock times: on a
machine that other work keeps busy, a roll waits for a core longer than
it uses one, and only the CPU time says what the server itself costs.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import random
import time
import typing as t
from pathlib import Path

import httpx

from classtest import Server, due

__all__ = ["Run", "cpu_seconds", "measure", "quantile", "rss_mb"]


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) process ``pid`` has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Run:
    """What the groups were answered and what the projectors saw."""

    def __init__(self) -> None:
        #: Seconds from a roll's post to its answer.
        self.acks: list[float] = []
        #: When each block was posted and answered, by (group, first line).
        self.sent: dict[tuple[int, int], float] = {}
        self.answered: dict[tuple[int, int], float] = {}
        #: Seconds from a roll's post, and from its answer, to a projector.
        self.seen: list[float] = []
        self.seen_after_ack: list[float] = []
        self.errors: list[str] = []
        self.answers: dict[int, list[dict[str, t.Any]]] = {}
        #: Each projector's blocks, counted, and the ids it was sent, in order.
        self.blocks: list[dict[tuple[int, int], int]] = []
        self.ids: list[list[int]] = []
        #: Each projector's last ``seq`` of each group's table, as shown.
        self.tables: list[dict[int, int]] = []
        #: Streams a projector had to open again (dropped as too slow a reader).
        self.reconnects = 0


async def _join(client: httpx.AsyncClient, server: Server, number: int) -> dict[str, t.Any]:
    joined = await client.post("/api/v1/join", json={"code": server.code,
                                                     "label": f"Group {number}",
                                                     "players": ["Ada", "Bo", "Cy", "Dag"]})
    assert joined.status_code == 201, joined.text
    data: dict[str, t.Any] = joined.json()
    return data


async def _group(client: httpx.AsyncClient, data: dict[str, t.Any], every: float,
                 until: float, run: Run, seed: int) -> None:
    dice = random.Random(seed)
    group, state = data["group"], data["state"]
    auth = {"authorization": f"Bearer {data['token']}"}
    run.answers[group] = []
    await asyncio.sleep(dice.uniform(0, every))
    count = 0
    while time.monotonic() < until:
        game, held = due(state)
        count += 1
        body = {"id": f"{group}-{count}", "seq": state["seq"], "game": game,
                "dice": [dice.randint(1, 6) for _ in range(held)]}
        start = time.monotonic()
        key = (group, state["seq"] + 1)
        run.sent[key] = start
        try:
            answer = await client.post(f"/api/v1/groups/{group}/rolls", json=body,
                                       headers=auth)
        except httpx.HTTPError as exc:
            run.errors.append(repr(exc))
            await asyncio.sleep(every)
            continue
        done = time.monotonic()
        if answer.status_code != 200:
            run.errors.append(answer.text)
            continue
        reply = answer.json()
        run.acks.append(done - start)
        run.answered[key] = done
        run.answers[group].append(reply)
        state = reply["group"]
        await asyncio.sleep(max(0.0, every * dice.uniform(0.8, 1.2) - (done - start)))


async def _projector(server: Server, run: Run, ready: asyncio.Event,
                     last: asyncio.Future[int], deadline: float) -> None:
    """Read the class's stream until it has sent the block at position
    ``last`` (known once the groups stop) and the tables after it, or
    ``deadline`` passes; dropped (a reader too slow is), it reconnects with
    ``Last-Event-ID``, as a browser's ``EventSource`` does."""
    blocks: dict[tuple[int, int], int] = {}
    ids: list[int] = []
    tables: dict[int, int] = {}
    run.blocks.append(blocks)
    run.ids.append(ids)
    run.tables.append(tables)
    #: The last block's position when the tables were last sent.
    shown = 0
    async with httpx.AsyncClient(base_url=server.base, timeout=None) as client:
        while not (last.done() and shown >= last.result()) and time.monotonic() < deadline:
            headers = {"last-event-id": str(ids[-1])} if ids else {}
            try:
                async with client.stream("GET", f"/teacher/{server.secret}/events",
                                         headers=headers) as stream:
                    ready.set()
                    shown = await _read(stream, run, blocks, ids, tables, shown, last,
                                        deadline)
            except httpx.HTTPError:
                run.reconnects += 1


async def _read(stream: httpx.Response, run: Run, blocks: dict[tuple[int, int], int],
                ids: list[int], tables: dict[int, int], shown: int,
                last: asyncio.Future[int], deadline: float) -> int:
    """One connection's events, into what the projector saw."""
    event: dict[str, str] = {}
    lines = stream.aiter_lines()
    while not (last.done() and shown >= last.result()):
        try:
            line = await asyncio.wait_for(anext(lines), max(0.1, deadline - time.monotonic()))
        except TimeoutError:
            break
        if line:
            name, _, value = line.partition(":")
            event[name] = value.strip()
            continue
        if event.get("event") == "block":
            now = time.monotonic()
            ids.append(int(event["id"]))
            block = json.loads(event["data"])
            key: tuple[int, int] = (block["group"], block["first"])
            blocks[key] = blocks.get(key, 0) + 1
            sent = run.sent.get(key)
            if sent is not None:
                run.seen.append(now - sent)
            answered = run.answered.get(key)
            if answered is not None:
                run.seen_after_ack.append(now - answered)
        elif event.get("event") == "tables":
            for view in json.loads(event["data"])["groups"]:
                tables[view["id"]] = view["seq"]
            shown = ids[-1] if ids else 0
        event = {}
    return shown


async def _load(server: Server, groups: int, every: float, seconds: float, projectors: int,
                began: t.Callable[[], None]) -> Run:
    run = Run()
    limits = httpx.Limits(max_connections=groups + 10, max_keepalive_connections=groups + 10)
    async with httpx.AsyncClient(base_url=server.base, timeout=60, limits=limits) as client:
        # The groups join first, a few at a time, as a class arrives.
        joined: list[dict[str, t.Any]] = []
        for first in range(1, groups + 1, 10):
            joined += await asyncio.gather(*(_join(client, server, n)
                                             for n in range(first, min(first + 10, groups + 1))))
        last: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        deadline = time.monotonic() + seconds + 60
        readies = [asyncio.Event() for _ in range(projectors)]
        watching = [asyncio.create_task(_projector(server, run, ready, last, deadline))
                    for ready in readies]
        for ready in readies:
            await ready.wait()
        began()
        until = time.monotonic() + seconds
        await asyncio.gather(*(_group(client, data, every, until, run, n)
                               for n, data in enumerate(joined, 1)))
        position = (await client.get("/api/v1/class", headers=server.teacher)).json()["position"]
        last.set_result(position)
    await asyncio.gather(*watching)
    return run


def _lost_or_twice(folder: Path, run: Run) -> tuple[int, int, int]:
    """Acknowledged rolls missing from their log, lines written twice, and
    blocks a projector missed, saw twice or saw out of the feed's order, or
    tables it was last shown other than they stand."""
    lost = twice = 0
    for group, answers in run.answers.items():
        lines = (folder / f"group-{group:03d}.jsonl").read_bytes().splitlines()
        used = [0] * (len(lines) + 1)
        for answer in answers:
            for offset, event in enumerate(answer["events"]):
                seq = answer["first"] + offset
                line = json.loads(lines[seq - 1]) if seq <= len(lines) else None
                if line is None or {k: v for k, v in line.items()
                                    if k not in ("seq", "digest")} != event:
                    lost += 1
                used[seq] += 1
        twice += sum(1 for count in used if count > 1)
    acked = {(group, answer["first"]) for group, answers in run.answers.items()
             for answer in answers}
    missed = sum(1 for blocks in run.blocks for key in acked if blocks.get(key, 0) != 1)
    missed += sum(1 for ids in run.ids if ids != sorted(set(ids)))
    final = {group: answers[-1]["seq"] for group, answers in run.answers.items() if answers}
    missed += sum(1 for tables in run.tables for group, seq in final.items()
                  if tables.get(group) != seq)
    return lost, twice, missed


def measure(groups: int, every: float, seconds: float, projectors: int) -> dict[str, t.Any]:
    """One run (see the module): its figures, and what was lost or doubled."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        server = Server(Path(folder) / "class", "--max-groups", str(max(groups, 100)),
                        "--max-projectors", str(max(projectors + 2, 32)))
        try:
            pid = server.process.pid
            rss0 = rss_mb(pid)
            samples: list[float] = []
            start: list[float] = []

            def began() -> None:
                start[:] = [cpu_seconds(pid), time.monotonic(), time.process_time()]

            async def sampled() -> Run:
                async def sample() -> None:
                    while True:
                        await asyncio.sleep(max(0.5, seconds / 10))
                        samples.append(rss_mb(pid))

                sampler = asyncio.create_task(sample())
                try:
                    return await _load(server, groups, every, seconds, projectors, began)
                finally:
                    sampler.cancel()

            # A loop of its own, in a thread of its own: the suite's browser
            # keeps a loop running in the main thread once it has started.
            with concurrent.futures.ThreadPoolExecutor(1) as thread:
                run = thread.submit(asyncio.run, sampled()).result()
            cpu = cpu_seconds(pid) - start[0]
            wall = time.monotonic() - start[1]
            client_cpu = time.process_time() - start[2]
            rss = rss_mb(pid)
            lost, twice, missed = _lost_or_twice(Path(folder) / "class", run)
        finally:
            server.stop()
    rolls = len(run.acks)
    return {"groups": groups, "every": every, "seconds": seconds, "projectors": projectors,
            "rolls": rolls, "rate": rolls / seconds,
            "ack_p50_ms": 1000 * quantile(run.acks, 0.5),
            "ack_p99_ms": 1000 * quantile(run.acks, 0.99),
            "projector_p50_ms": 1000 * quantile(run.seen, 0.5),
            "projector_p99_ms": 1000 * quantile(run.seen, 0.99),
            "after_ack_p50_ms": 1000 * quantile(run.seen_after_ack, 0.5),
            "after_ack_p99_ms": 1000 * quantile(run.seen_after_ack, 0.99),
            "cpu_ms_a_roll": 1000 * cpu / rolls if rolls else float("nan"),
            "cpu_share": cpu / wall, "client_cpu_share": client_cpu / wall,
            "rss_start_mb": rss0, "rss_samples_mb": [round(sample, 1) for sample in samples],
            "rss_end_mb": rss, "load_average": os.getloadavg()[0],
            "errors": len(run.errors), "lost": lost, "twice": twice, "missed": missed,
            "reconnects": run.reconnects}
