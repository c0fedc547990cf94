"""The process that pools a class for its projectors, away from the server's GIL.

A class is pooled twice a second for its projectors (:mod:`aces.server.stream`):
counted, analysed and written out as HTML and JSON, some tens of
milliseconds of Python for a class of 200 groups. Made in a thread of the
server, that Python held the GIL the event loop needs: each time the loop
gave it up (to wait for the sockets), it waited up to the interpreter's
switch interval (5 ms) to have it back, so a roll answered while a pool was
made took several such waits longer. In a process of its own the pool
costs the loop only the copy of the counts sent to it and the pool sent
back (a few tens of kilobytes each, pickled).

The process is started by ``spawn`` (the one start method of every system),
ignores Ctrl-C (the server stops it, and a terminal's Ctrl-C would have it
print a traceback), and ends by itself once the server is gone, even
killed with SIGKILL, which leaves no one to tell it.
"""

from __future__ import annotations

import atexit
import concurrent.futures
import multiprocessing
import os
import signal
import threading
import time
import typing as t

__all__ = ["ORPHAN_CHECK", "broken", "pooler"]

#: Seconds between two looks of the pooling process at its server.
ORPHAN_CHECK: t.Final = 1.0

_POOLER: list[concurrent.futures.ProcessPoolExecutor] = []
_LOCK: t.Final = threading.Lock()


def pooler() -> concurrent.futures.Executor:
    """The executor of the pooling process (one for the server), started at
    the first call; its worker is spawned at the first task submitted."""
    with _LOCK:
        if not _POOLER:
            _POOLER.append(concurrent.futures.ProcessPoolExecutor(
                1, mp_context=multiprocessing.get_context("spawn"), initializer=_started,
                initargs=(os.getpid(),)))
            if not _stopping:
                _stopping.append(True)
                atexit.register(_stop)
        return _POOLER[0]


#: Whether :func:`_stop` is registered to run at exit.
_stopping: list[bool] = []


def _stop() -> None:
    """Stop the pooling process at exit, while the modules it needs are all
    there: let go of at the interpreter's end, its executor's clean-up found
    them taken apart, and said so on stderr."""
    with _LOCK:
        stopped = list(_POOLER)
        _POOLER.clear()
    for executor in stopped:
        executor.shutdown(wait=True, cancel_futures=True)


def broken(executor: concurrent.futures.Executor) -> None:
    """Let go of ``executor``, whose process died: the next :func:`pooler` starts another."""
    with _LOCK:
        if _POOLER and _POOLER[0] is executor:
            _POOLER.pop()
    executor.shutdown(wait=False, cancel_futures=True)


def _started(server: int) -> None:
    """In the pooling process: ignore Ctrl-C, and end once ``server`` is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch, args=(server,), daemon=True,
                     name="aces-pooling-orphan").start()


def _watch(server: int) -> None:
    # A process whose parent has died is given another (init, or a
    # subreaper): its parent's id changes.
    while os.getppid() == server:
        time.sleep(ORPHAN_CHECK)
    os._exit(0)
