"""Load on a real class server, from several client processes: groups posting
rolls while projectors listen.

Used by tests/server/test_load.py (a laptop's class) and
tests/server/test_school_load.py (the school's server on PostgreSQL), short,
in the suite, and by tests/benchmarks/class_load.py and
tests/benchmarks/school_load.py, long, which report the figures.

One client process saturates before the server does: a roll costs its
group an HTTP request and every projector the reading of its events, all in
Python, so a single process falls behind and the times it measures are its
own queue, not the server's. So the groups are played in ``clients``
processes and the projectors read in ``readers`` processes of their own
(spawned, each with an asyncio loop), on loopback only, bounded in number
and in time. Every process stamps what it sends and what it sees with
:func:`time.monotonic`, one clock for all processes on Linux, and the
figures are gathered across them: a roll posted in one process and seen by
a projector in another gives the projector's delay.

:func:`measure` (a laptop's class, one process on files) and
:func:`measure_school` (classes on several processes of the school's
server, one PostgreSQL) start the servers, let the groups join, have each
post a roll about every ``every`` seconds for ``seconds``, then check that
every acknowledged roll is in its log once, where its answer placed it, and
that every projector saw every block of its class once, in the feed's
order, and the tables as they stand.

The server's CPU time a roll (of its processes and those they started, the
pooling process of :mod:`aces.server.pooling`) and its memory are read from
/proc: on a machine that other work keeps busy, a roll waits for a core
longer than it uses one, and only the CPU time says what the server itself
costs. The memory is sampled every second, of the server's own processes
and of those they started apart: the pooling process's grows and shrinks
by megabytes as it pools (the counts and the pool it makes come and go),
so that one sample of the two together said more of the moment it was
taken than of the run. The middle and the end of the run are each the
median of the samples within :data:`WINDOW` seconds of them. The client processes' CPU is
reported beside it, since on a small machine they share the server's cores.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import io
import json
import multiprocessing
import os
import queue
import random
import statistics
import tempfile
import time
import traceback
import typing as t
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import httpx

from classtest import Server, due
from pgtest import SchoolServer, new_class

if t.TYPE_CHECKING:
    from collections.abc import Callable, Coroutine, Sequence
    from multiprocessing.queues import Queue
    from multiprocessing.sharedctypes import Synchronized

__all__ = ["CLIENTS", "READERS", "Joined", "Run", "Watcher", "cpu_seconds", "database_cpu",
           "drive", "family", "measure", "measure_school", "quantile", "rss_mb"]

#: Client processes playing the groups, and processes reading the projectors' streams.
CLIENTS: t.Final = 4
READERS: t.Final = 2
#: Seconds a client process may take to start and connect, and the projectors
#: may read on after the groups have stopped (a loaded server answers late).
STARTING: t.Final = 120.0
LINGER: t.Final = 60.0

#: Seconds a client keeps an idle connection, and the times a post is tried
#: again on a connection the server had closed.
KEEP_ALIVE: t.Final = 5.0
RETRIES: t.Final = 2
#: The longest line of an event a projector reads (the pool of a large class is long).
LONGEST: t.Final = 1 << 26
#: A block, by its class, its group and its first line.
Key: t.TypeAlias = tuple[int, int, int]
#: Seconds about the middle and before the end of a run whose memory samples
#: are taken together (their median).
WINDOW: t.Final = 5.0
#: Each group's last block acknowledged, (first line, last line), by (class, group).
Finals: t.TypeAlias = dict[tuple[int, int], tuple[int, int]]


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) process ``pid`` has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def family(pids: Sequence[int]) -> list[int]:
    """``pids`` and every process they started (the class server's pooling
    process, say), and those started by these in turn."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue  # gone meanwhile
    found = list(pids)
    for pid in found:
        found += [child for child, parent in parents.items() if parent == pid]
    return found


def _summed(measure: Callable[[int], float], pids: Sequence[int]) -> float:
    """``measure`` added up over ``pids`` and their :func:`family`, of those still there."""
    total = 0.0
    for pid in family(pids):
        with contextlib.suppress(OSError):
            total += measure(pid)
    return total


def _memory(pids: Sequence[int]) -> tuple[float, float]:
    """The resident memory of ``pids`` (MiB), and of the processes they started."""
    own = 0.0
    for pid in pids:
        with contextlib.suppress(OSError):
            own += rss_mb(pid)
    return own, _summed(rss_mb, pids) - own


def rss_mb(pid: int) -> float:
    """The resident memory of process ``pid``, in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def database_cpu(data: Path) -> float:
    """CPU seconds of the PostgreSQL server whose data folder is ``data``:
    the postmaster and the processes it has now."""
    postmaster = int((data / "postmaster.pid").read_text().split()[0])
    total = cpu_seconds(postmaster)
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == postmaster:
                total += cpu_seconds(int(stat.parent.name))
        except (OSError, ValueError):
            continue  # gone meanwhile
    return total


def quantile(values: Sequence[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass(frozen=True)
class Joined:
    """A group that has joined, as a client process plays it: it posts to
    ``bases`` in turn (as a group's tablets behind a proxy would), or to one
    of them alone where the run is sticky."""

    cls: int
    group: int
    token: str
    state: dict[str, t.Any]
    bases: tuple[str, ...]
    seed: int


@dataclass(frozen=True)
class Watcher:
    """A projector: the class's stream, on the server at ``base``."""

    cls: int
    base: str
    secret: str


@dataclass
class Played:
    """What one client process's groups sent and were answered."""

    #: Seconds from a roll's post to its answer.
    acks: list[float] = field(default_factory=list)
    #: When each block was posted and answered.
    sent: dict[Key, float] = field(default_factory=dict)
    answered: dict[Key, float] = field(default_factory=dict)
    #: Each group's answers, (first line, last line, events), by (class, group).
    answers: dict[tuple[int, int], list[tuple[int, int, list[t.Any]]]] = field(
        default_factory=dict)
    errors: list[str] = field(default_factory=list)
    #: Posts tried again on a connection the server had closed meanwhile.
    retries: int = 0
    cpu: float = 0.0
    finished: float = 0.0


@dataclass
class Seen:
    """What one projector saw."""

    cls: int
    #: Each block (group, first line), counted, and when it first came.
    blocks: dict[tuple[int, int], int] = field(default_factory=dict)
    times: list[tuple[tuple[int, int], float]] = field(default_factory=list)
    #: The ids it was sent, in order.
    ids: list[int] = field(default_factory=list)
    #: Each group's last ``seq`` as the tables showed it.
    tables: dict[int, int] = field(default_factory=dict)
    #: Streams it had to open again (dropped as too slow a reader), and why.
    reconnects: int = 0
    refusals: list[str] = field(default_factory=list)


# The client processes ---------------------------------------------------------------------


def _child(results: Queue[tuple[str, t.Any]], kind: str,
           work: Coroutine[t.Any, t.Any, t.Any]) -> None:
    """Run a client process's work, and send what it gives, or how it failed."""
    try:
        results.put((kind, asyncio.run(work)))
    except BaseException:  # sent to the parent, which fails with it
        results.put(("failed", traceback.format_exc()))
        raise SystemExit(1) from None


async def _started(go: Synchronized[float]) -> float:
    """The moment the run starts, once the parent has set it, waited for."""
    while go.value == 0.0:
        await asyncio.sleep(0.005)
    await asyncio.sleep(max(0.0, go.value - time.monotonic()))
    return go.value


def _play(joined: list[Joined], every: float, seconds: float, sticky: bool,
          go: Synchronized[float], ready: Queue[str], results: Queue[tuple[str, t.Any]]) -> None:
    _child(results, "played", _playing(joined, every, seconds, sticky, go, ready))


async def _playing(joined: list[Joined], every: float, seconds: float, sticky: bool,
                   go: Synchronized[float], ready: Queue[str]) -> Played:
    played = Played()
    timeout = aiohttp.ClientTimeout(total=60)
    async with contextlib.AsyncExitStack() as stack:
        # An idle connection let go before the server's keep-alive (10 s) ends it.
        sessions = {base: await stack.enter_async_context(aiohttp.ClientSession(
                        base, timeout=timeout, connector=aiohttp.TCPConnector(
                            limit=0, keepalive_timeout=KEEP_ALIVE)))
                    for base in sorted({base for one in joined for base in one.bases})}
        ready.put("groups")
        start = await _started(go)
        cpu = time.process_time()
        await asyncio.gather(*(_group(sessions, one, every, start + seconds, sticky, played)
                               for one in joined))
        played.cpu = time.process_time() - cpu
        played.finished = time.monotonic()
    return played


async def _group(sessions: dict[str, aiohttp.ClientSession], one: Joined, every: float,
                 until: float, sticky: bool, played: Played) -> None:
    dice = random.Random(one.seed)
    state = one.state
    auth = {"authorization": f"Bearer {one.token}"}
    answers = played.answers.setdefault((one.cls, one.group), [])
    await asyncio.sleep(dice.uniform(0, every))
    count = 0
    while time.monotonic() < until:
        game, held = due(state)
        count += 1
        body = {"id": f"{one.group}-{count}", "seq": state["seq"], "game": game,
                "dice": [dice.randint(1, 6) for _ in range(held)]}
        session = sessions[one.bases[(one.seed + (0 if sticky else count)) % len(one.bases)]]
        posted = time.monotonic()
        key = (one.cls, one.group, state["seq"] + 1)
        played.sent[key] = posted
        try:
            reply, refused = await _post(session, f"/api/v1/groups/{one.group}/rolls", body,
                                         auth, played)
            if reply is None:
                played.errors.append(refused)
                # Read the group again, as a page does after a refusal.
                async with session.get(f"/api/v1/groups/{one.group}", headers=auth) as fresh:
                    if fresh.status == 200:
                        state = await fresh.json()
                await asyncio.sleep(every)
                continue
        except (aiohttp.ClientError, TimeoutError) as exc:
            played.errors.append(repr(exc))
            await asyncio.sleep(every)
            continue
        done = time.monotonic()
        played.acks.append(done - posted)
        played.answered[key] = done
        answers.append((reply["first"], reply["seq"], reply["events"]))
        state = reply["group"]
        await asyncio.sleep(max(0.0, every * dice.uniform(0.8, 1.2) - (done - posted)))


async def _post(session: aiohttp.ClientSession, path: str, body: dict[str, t.Any],
                auth: dict[str, str], played: Played) -> tuple[t.Any, str]:
    """A roll's answer, or why it was refused. A connection that the server
    closed as the post went out is tried again, with the same submission id,
    as a pupil's page does: the first answer comes back, nothing twice."""
    for attempt in range(RETRIES + 1):
        try:
            async with session.post(path, json=body, headers=auth) as answer:
                if answer.status == 200:
                    return await answer.json(), ""
                return None, f"{answer.status} {(await answer.text())[:200]}"
        except (aiohttp.ClientOSError, aiohttp.ServerDisconnectedError):
            if attempt == RETRIES:
                raise
            played.retries += 1
    raise AssertionError("unreachable")


def _watch(watchers: list[Watcher], go: Synchronized[float], ready: Queue[str],
           finals: Queue[Finals], limit: float, results: Queue[tuple[str, t.Any]]) -> None:
    _child(results, "seen", _watching(watchers, go, ready, finals, limit))


async def _watching(watchers: list[Watcher], go: Synchronized[float], ready: Queue[str],
                    finals: Queue[Finals], limit: float) -> tuple[list[Seen], float]:
    """Read every projector's stream until it has shown each group of its
    class's last acknowledged block, and the group's table after it (sent by
    the parent once the groups have stopped), or for :data:`LINGER` seconds
    more; its CPU time too. A table alone is not enough: it may show a roll
    whose block the stream has yet to send."""
    seen = [Seen(watcher.cls) for watcher in watchers]
    connected = [asyncio.Event() for _ in watchers]
    reading = [asyncio.create_task(_projector(watcher, each, event))
               for watcher, each, event in zip(watchers, seen, connected, strict=True)]
    try:
        try:
            await asyncio.wait_for(asyncio.gather(*(event.wait() for event in connected)),
                                   STARTING)
        except TimeoutError:
            refused = [refusal for each in seen for refusal in each.refusals]
            raise AssertionError(f"a projector could not open its stream: {refused[:1]}") from None
        ready.put("projectors")
        await _started(go)
        cpu = time.process_time()
        wanted = await asyncio.to_thread(finals.get, True, limit)
        deadline = time.monotonic() + LINGER
        due_of = [[(group, first, seq) for (cls, group), (first, seq) in wanted.items()
                   if cls == each.cls] for each in seen]
        while time.monotonic() < deadline:
            for task, each, due_here in zip(reading, seen, due_of, strict=True):
                if not task.done() and all((group, first) in each.blocks
                                           and each.tables.get(group, 0) >= seq
                                           for group, first, seq in due_here):
                    task.cancel()
            if all(task.done() for task in reading):
                break
            await asyncio.sleep(0.05)
        return seen, time.process_time() - cpu
    finally:
        for task in reading:
            task.cancel()
        await asyncio.gather(*reading, return_exceptions=True)


async def _projector(watcher: Watcher, seen: Seen, connected: asyncio.Event) -> None:
    """Read the class's stream for ever; dropped (a reader too slow is), open it
    again with ``Last-Event-ID``, as a browser's ``EventSource`` does."""
    timeout = aiohttp.ClientTimeout(total=None, sock_connect=60)
    async with aiohttp.ClientSession(watcher.base, timeout=timeout,
                                     read_bufsize=LONGEST) as session:
        while True:
            headers = {"authorization": f"Bearer {watcher.secret}"}
            if seen.ids:
                headers["last-event-id"] = str(seen.ids[-1])
            try:
                async with session.get("/api/v1/class/events", headers=headers) as stream:
                    if stream.status != 200:
                        seen.refusals.append(f"{stream.status} {await stream.text()}")
                        await asyncio.sleep(0.5)
                        continue
                    connected.set()
                    await _read(stream.content, seen)
            except (aiohttp.ClientError, TimeoutError):
                pass
            seen.reconnects += 1


async def _read(stream: aiohttp.StreamReader, seen: Seen) -> None:
    """One connection's events, into what the projector saw."""
    event: dict[str, str] = {}
    while raw := await stream.readline():
        line = raw.decode().rstrip("\r\n")
        if line:
            name, _, value = line.partition(":")
            event[name] = value.strip()
            continue
        kind = event.get("event")
        if kind == "block":
            now = time.monotonic()
            seen.ids.append(int(event["id"]))
            block = json.loads(event["data"])
            key = (block["group"], block["first"])
            count = seen.blocks.get(key, 0)
            seen.blocks[key] = count + 1
            if not count:
                seen.times.append((key, now))
        elif kind == "tables":
            for view in json.loads(event["data"])["groups"]:
                seen.tables[view["id"]] = view["seq"]
        event = {}


# The parent: the processes started, timed and gathered ------------------------------------


@dataclass
class Run:
    """A run's results, gathered from every client process."""

    played: list[Played]
    seen: list[Seen]
    #: CPU seconds each meter counted from the start to the groups' end.
    cpu: dict[str, float]
    #: Seconds from the start to the groups' end.
    wall: float
    #: The server's memory (MiB): by seconds from the start, its own processes'
    #: and those they started (the pooling process).
    rss: list[tuple[float, float, float]]
    client_cpu: float
    reader_cpu: float
    clients: int
    readers: int
    load: tuple[float, float]

    def acks(self) -> list[float]:
        return [ack for played in self.played for ack in played.acks]

    def answers(self) -> dict[tuple[int, int], list[tuple[int, int, list[t.Any]]]]:
        return {group: answers for played in self.played
                for group, answers in played.answers.items()}

    def delays(self) -> tuple[list[float], list[float]]:
        """Seconds from each block's post, and from its answer, to each projector."""
        sent = {key: when for played in self.played for key, when in played.sent.items()}
        answered = {key: when for played in self.played
                    for key, when in played.answered.items()}
        after_post: list[float] = []
        after_answer: list[float] = []
        for seen in self.seen:
            for (group, first), now in seen.times:
                key = (seen.cls, group, first)
                if key in sent:
                    after_post.append(now - sent[key])
                if key in answered:
                    after_answer.append(now - answered[key])
        return after_post, after_answer

    def memory(self, seconds: float, which: int = 1) -> tuple[float, float, float]:
        """The server's memory at the start, the middle and the end of the run:
        of its own processes (``which`` 1) or of those they started (2);
        the middle and the end each the median of the samples within
        :data:`WINDOW` seconds (see the module)."""
        if not self.rss:
            return (float("nan"),) * 3
        window = min(WINDOW, seconds / 4)
        end = self.rss[-1][0]

        def median(around: float, before: float, after: float) -> float:
            taken = [sample[which] for sample in self.rss
                     if around - before <= sample[0] <= around + after]
            return statistics.median(taken) if taken else float("nan")

        return (self.rss[0][which], median(seconds / 2, window / 2, window / 2),
                median(end, window, 0.0))

    def check(self, lines_of: Callable[[int, int], list[bytes]]) -> tuple[int, int, int]:
        """Acknowledged rolls missing from their log (``lines_of(class, group)``),
        lines written twice, and blocks a projector missed, saw twice or saw
        out of the feed's order, or tables it was last shown other than they
        stand."""
        lost = twice = 0
        answers = self.answers()
        for (cls, group), given in answers.items():
            lines = lines_of(cls, group)
            used = [0] * (len(lines) + 1)
            for first, _, events in given:
                for offset, event in enumerate(events):
                    seq = first + offset
                    line = json.loads(lines[seq - 1]) if seq <= len(lines) else None
                    if line is None or {k: v for k, v in line.items()
                                        if k not in ("seq", "digest")} != event:
                        lost += 1
                    if seq < len(used):
                        used[seq] += 1
            twice += sum(1 for count in used if count > 1)
        missed = 0
        for seen in self.seen:
            for (cls, group), given in answers.items():
                if cls != seen.cls:
                    continue
                missed += sum(1 for first, _, _ in given if seen.blocks.get((group, first)) != 1)
                if given and seen.tables.get(group) != given[-1][1]:
                    missed += 1
            missed += seen.ids != sorted(set(seen.ids))
        return lost, twice, missed

    def figures(self, every: float, seconds: float) -> dict[str, t.Any]:
        acks = self.acks()
        after_post, after_answer = self.delays()
        rolls = len(acks)
        start, middle, end = self.memory(seconds)
        started = self.memory(seconds, 2)
        errors = [error for played in self.played for error in played.errors]
        figures = {
            "groups": sum(len(played.answers) for played in self.played),
            "projectors": len(self.seen), "every": every, "seconds": seconds,
            "clients": self.clients, "readers": self.readers,
            "rolls": rolls, "rate": rolls / seconds,
            "offered": sum(len(played.answers) for played in self.played) / every,
            "ack_p50_ms": 1000 * quantile(acks, 0.5), "ack_p99_ms": 1000 * quantile(acks, 0.99),
            "projector_p50_ms": 1000 * quantile(after_post, 0.5),
            "projector_p99_ms": 1000 * quantile(after_post, 0.99),
            "after_ack_p50_ms": 1000 * quantile(after_answer, 0.5),
            "after_ack_p99_ms": 1000 * quantile(after_answer, 0.99),
            "cpu_share": self.cpu["server"] / self.wall,
            "client_cpu_share": self.client_cpu / self.wall,
            "reader_cpu_share": self.reader_cpu / self.wall,
            "rss_start_mb": start, "rss_middle_mb": middle, "rss_end_mb": end,
            "rss_samples_mb": [round(mb, 1) for _, mb, _ in self.rss],
            "rss_started_start_mb": started[0], "rss_started_middle_mb": started[1],
            "rss_started_end_mb": started[2],
            "rss_started_samples_mb": [round(mb, 1) for _, _, mb in self.rss],
            "load_average": [round(load, 2) for load in self.load],
            "errors": len(errors), "first_errors": errors[:3],
            "retries": sum(played.retries for played in self.played),
            "reconnects": sum(seen.reconnects for seen in self.seen)}
        for meter, used in self.cpu.items():
            name = "cpu_ms_a_roll" if meter == "server" else f"{meter}_cpu_ms_a_roll"
            figures[name] = 1000 * used / rolls if rolls else float("nan")
        return figures


def drive(joined: list[Joined], watchers: list[Watcher], every: float, seconds: float,
          pids: list[int], *, meters: dict[str, Callable[[], float]] | None = None,
          clients: int = CLIENTS, readers: int = READERS, sticky: bool = False) -> Run:
    """Play ``joined`` in ``clients`` processes and read ``watchers`` in
    ``readers`` processes, for ``seconds`` (see the module). ``pids`` are the
    server's processes, whose CPU time (the meter ``server``, beside any of
    ``meters``) and memory are read as it goes."""
    context = multiprocessing.get_context("spawn")
    go: Synchronized[float] = context.Value("d", 0.0)
    ready: Queue[str] = context.Queue()
    results: Queue[tuple[str, t.Any]] = context.Queue()
    finals: Queue[Finals] = context.Queue()
    # The server's processes count those they started (the pooling process).
    meters = {"server": lambda: _summed(cpu_seconds, pids), **(meters or {})}
    groups = [part for part in (joined[n::clients] for n in range(clients)) if part]
    watching = [part for part in (watchers[n::readers] for n in range(readers)) if part]
    processes = [context.Process(target=_play, args=(part, every, seconds, sticky, go, ready,
                                                     results), daemon=True)
                 for part in groups]
    processes += [context.Process(target=_watch, args=(part, go, ready, finals,
                                                       seconds + STARTING, results),
                                  daemon=True)
                  for part in watching]
    for process in processes:
        process.start()
    try:
        _wait(ready, len(processes), processes, results, time.monotonic() + STARTING)
        load = os.getloadavg()[0]
        start = time.monotonic() + 0.5
        go.value = start
        time.sleep(max(0.0, start - time.monotonic()))
        before = {meter: read() for meter, read in meters.items()}
        rss = [(0.0, *_memory(pids))]
        played: list[Played] = []
        deadline = start + seconds + STARTING
        every_sample = min(1.0, max(0.25, seconds / 20))
        while len(played) < len(groups):
            kind, value = _next(results, processes, deadline, every_sample)
            if kind == "played":
                played.append(value)
            elif kind is None:
                rss.append((time.monotonic() - start, *_memory(pids)))
        ended = max(each.finished for each in played)
        cpu = {meter: read() - before[meter] for meter, read in meters.items()}
        rss.append((ended - start, *_memory(pids)))
        wanted = {group: answers[-1][:2] for each in played
                  for group, answers in each.answers.items() if answers}
        for _ in watching:
            finals.put(wanted)
        seen: list[Seen] = []
        reader_cpu = 0.0
        deadline = time.monotonic() + LINGER + 30
        while len(seen) < sum(len(part) for part in watching):
            kind, value = _next(results, processes, deadline, 1.0)
            if kind == "seen":
                seen += value[0]
                reader_cpu += value[1]
    finally:
        for process in processes:
            process.join(10)
            if process.is_alive():
                process.kill()
                process.join()
    return Run(played, seen, cpu, ended - start, rss, sum(each.cpu for each in played),
               reader_cpu, len(groups), len(watching), (load, os.getloadavg()[0]))


def _wait(ready: Queue[str], count: int, processes: list[t.Any],
          results: Queue[tuple[str, t.Any]], deadline: float) -> None:
    """Until ``count`` client processes say they are ready."""
    for _ in range(count):
        while True:
            try:
                ready.get(timeout=0.5)
                break
            except queue.Empty:
                _failed(results, processes, deadline)


def _next(results: Queue[tuple[str, t.Any]], processes: list[t.Any], deadline: float,
          wait: float) -> tuple[str | None, t.Any]:
    """The next result of a client process, or ``(None, None)`` after ``wait`` seconds."""
    try:
        kind, value = results.get(timeout=wait)
    except queue.Empty:
        _failed(results, processes, deadline)
        return None, None
    if kind == "failed":
        raise AssertionError(f"a client process of the load run failed:\n{value}")
    return kind, value


def _failed(results: Queue[tuple[str, t.Any]], processes: list[t.Any],
            deadline: float) -> None:
    """Fail if a client process has died, with what it said, or if the run is
    past its time."""
    dead = [process.exitcode for process in processes if process.exitcode not in (None, 0)]
    if dead:
        said = ""
        with contextlib.suppress(queue.Empty):
            while not said:
                kind, value = results.get(timeout=5)
                said = value if kind == "failed" else ""
        raise AssertionError(f"a client process of the load run died (status {dead[0]})"
                             f"{':' if said else ''}\n{said}")
    if time.monotonic() > deadline:
        raise AssertionError("the load run took longer than it may")


def _joined(base: str, wanted: list[tuple[int, str, str]], bases: tuple[str, ...],
            first_seed: int = 0) -> list[Joined]:
    """Each ``(class, code, label)`` joined through ``base``, a few at a time,
    as a class arrives."""
    with httpx.Client(base_url=base, timeout=60) as client:
        def join(item: tuple[int, str, str]) -> dict[str, t.Any]:
            _, code, label = item
            answer = client.post("/api/v1/join", json={"code": code, "label": label,
                                                        "players": ["Ada", "Bo", "Cy", "Dag"]})
            assert answer.status_code == 201, answer.text
            data: dict[str, t.Any] = answer.json()
            return data

        with concurrent.futures.ThreadPoolExecutor(8) as threads:
            found = list(threads.map(join, wanted))
    return [Joined(cls, data["group"], data["token"], data["state"], bases, first_seed + n)
            for n, ((cls, _, _), data) in enumerate(zip(wanted, found, strict=True))]


# A laptop's class, and the school's server ------------------------------------------------


def measure(groups: int, every: float, seconds: float, projectors: int, *,
            clients: int = CLIENTS, readers: int = READERS) -> dict[str, t.Any]:
    """One run on a laptop's class (``aces class serve DIR``): its figures,
    and what was lost, written twice or missed."""
    with tempfile.TemporaryDirectory() as folder:
        logs = Path(folder) / "class"
        with Server(logs, "--max-groups", str(max(groups, 100)),
                    "--max-projectors", str(max(projectors + 2, 32))) as server:
            joined = _joined(server.base, [(0, server.code, f"Group {n}")
                                           for n in range(1, groups + 1)], (server.base,))
            run = drive(joined, [Watcher(0, server.base, server.secret)] * projectors, every,
                        seconds, [server.process.pid], clients=clients, readers=readers)
            lost, twice, missed = run.check(
                lambda _, group: (logs / f"group-{group:03d}.jsonl").read_bytes().splitlines())
    return {**run.figures(every, seconds), "lost": lost, "twice": twice, "missed": missed}


def measure_school(url: str, key: str, classes: int, groups: int, every: float,
                   seconds: float, *, servers: int = 2, sticky: bool = False,
                   data: Path | None = None, clients: int = CLIENTS,
                   readers: int = READERS) -> dict[str, t.Any]:
    """One run on the school's server: ``servers`` processes on the database at
    ``url``, ``classes`` classes made by the teacher holding ``key``, each
    with a projector on one process or another, and ``groups`` groups among
    them whose rolls go to the processes in turn (or each to one, ``sticky``).
    With the database's ``data`` folder, its CPU time a roll too."""
    # One teacher makes every class: the limit of classes a teacher has is raised.
    settings = ("--pool", "20", "--max-groups", "1000", "--max-classes", "1000")
    with contextlib.ExitStack() as stack:
        running = [stack.enter_context(SchoolServer(url, *settings)) for _ in range(servers)]
        bases = tuple(server.base for server in running)
        made: list[dict[str, t.Any]] = []
        for n in range(classes):
            with running[n % servers].client() as client:
                made.append(new_class(client, key))
        joined: list[Joined] = []
        for n, server in enumerate(running):
            wanted = [(made[g % classes]["number"], made[g % classes]["code"],
                       f"Group {g // classes + 1}") for g in range(n, groups, servers)]
            joined += _joined(server.base, wanted, bases, first_seed=len(joined))
        watchers = [Watcher(cls["number"], bases[n % servers], cls["secret"])
                    for n, cls in enumerate(made)]
        meters = {} if data is None else {"database": lambda: database_cpu(data)}
        run = drive(joined, watchers, every, seconds, [server.process.pid for server in running],
                    meters=meters, clients=clients, readers=readers, sticky=sticky)
        secrets = {cls["number"]: cls["secret"] for cls in made}
        logs: dict[int, dict[str, list[bytes]]] = {}

        def lines_of(cls: int, group: int) -> list[bytes]:
            """The group's log, as the class's download (a zip) holds it."""
            if cls not in logs:
                with running[0].client() as client:
                    got = client.get("/api/v1/class/download",
                                     headers={"authorization": f"Bearer {secrets[cls]}"})
                assert got.status_code == 200, got.text
                with zipfile.ZipFile(io.BytesIO(got.content)) as archive:
                    logs[cls] = {name: archive.read(name).splitlines()
                                 for name in archive.namelist()}
            return logs[cls][f"group-{group:03d}.jsonl"]

        lost, twice, missed = run.check(lines_of)
    return {**run.figures(every, seconds), "classes": classes, "servers": servers,
            "sticky": sticky, "lost": lost, "twice": twice, "missed": missed}
