"""What the tests of the class server share: a client of the module's ``server``."""

from __future__ import annotations

import typing as t

import pytest

if t.TYPE_CHECKING:
    from collections.abc import Iterator

    import httpx

    from classtest import Server


@pytest.fixture
def client(server: Server) -> Iterator[httpx.Client]:
    """A client of the test module's ``server`` fixture, closed after the test."""
    with server.client() as opened:
        yield opened
