"""A coroutine run by a test after the suite's browser has started
(tests/loops.py): the store's tests after the browser's, in one session."""

from __future__ import annotations

import asyncio
import threading
import typing as t

import pytest

import loops


async def _answer() -> tuple[int, str]:
    await asyncio.sleep(0)
    return 42, threading.current_thread().name


async def _refuse() -> None:
    await asyncio.sleep(0)
    raise LookupError("raised in the coroutine")


def test_a_coroutine_runs_to_its_end_while_the_browsers_loop_runs(browser: t.Any) -> None:
    """Playwright keeps a loop running in this thread once the browser has
    started, where asyncio.run refuses to start another; loops.run does not."""
    page = browser.new_page()
    try:
        assert page.evaluate("1 + 1") == 2
        waiting = _answer()
        with pytest.raises(RuntimeError, match="running event loop"):
            asyncio.run(waiting)
        waiting.close()
        value, thread = loops.run(_answer())
        assert value == 42
        assert thread != threading.current_thread().name
        # The browser goes on as before.
        assert page.evaluate("2 + 2") == 4
    finally:
        page.close()


def test_what_the_coroutine_raises_reaches_the_test() -> None:
    with pytest.raises(LookupError, match="raised in the coroutine"):
        loops.run(_refuse())
