"""The process that pools a class for its projectors (aces.server.pooling): it
ends with its server, even one killed with SIGKILL, ignores the terminal's
Ctrl-C, and a pooling process killed is replaced by another."""

from __future__ import annotations

import concurrent.futures
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from aces.server import pooling

_SERVER = """
import os, sys, time
from aces.server import pooling
print(pooling.pooler().submit(os.getpid).result(), flush=True)
sys.stdin.readline()
"""


def _gone(pid: int, within: float) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        # A child of a process killed is a zombie until its new parent reaps it.
        try:
            if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z":
                return True
        except OSError:
            return True
        time.sleep(0.1)
    return False


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL and /proc")
def test_the_pooling_process_ends_once_its_server_is_killed() -> None:
    with subprocess.Popen([sys.executable, "-c", _SERVER], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True) as server:
        try:
            assert server.stdout is not None
            pooler = int(server.stdout.readline())
            assert pooler != server.pid
            # Ctrl-C at a terminal goes to the whole group: the pooling process lets it be.
            os.kill(pooler, signal.SIGINT)
            assert not _gone(pooler, 2 * pooling.ORPHAN_CHECK)
        finally:
            server.kill()
        server.wait()
        assert _gone(pooler, 10 * pooling.ORPHAN_CHECK)


def test_a_pooling_process_killed_is_replaced_by_another() -> None:
    first = pooling.pooler()
    assert pooling.pooler() is first
    worker = first.submit(os.getpid).result()
    assert worker != os.getpid()
    os.kill(worker, signal.SIGKILL)
    with pytest.raises(concurrent.futures.BrokenExecutor):
        first.submit(os.getpid).result()
    pooling.broken(first)
    second = pooling.pooler()
    assert second is not first
    assert second.submit(os.getpid).result() not in (worker, os.getpid())
