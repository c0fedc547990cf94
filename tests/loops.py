"""Coroutines run to the end from a test, whatever else runs in its thread.

Playwright's synchronous API, once the suite's browser has started (the
session's ``browser`` fixture), keeps an event loop running in the main
thread until the session ends, and :func:`asyncio.run` refuses to start a
loop where one is running. So the tests of the class's stores and of
anything else that awaits, run after a browser test in the same session
(``pytest tests/server tests/classroom``), would fail by the order alone:
:func:`run` gives each coroutine a loop of its own in a thread of its own,
whichever tests ran before it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import typing as t

if t.TYPE_CHECKING:
    from collections.abc import Coroutine

__all__ = ["run"]

T = t.TypeVar("T")


def run(coroutine: Coroutine[t.Any, t.Any, T]) -> T:
    """``asyncio.run(coroutine)`` in a thread of its own: its result, or what it raised."""
    with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="loop") as thread:
        return thread.submit(asyncio.run, coroutine).result()
