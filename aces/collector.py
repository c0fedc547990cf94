"""How seldom Python's cycle collector runs in a long process of aces.

Python's thresholds (700, 10, 10) suit a program that makes few objects
and keeps them. A command that reads a long log, or a class server that
answers rolls for an hour, makes many short-lived objects that die by their
reference counts; with a young generation of 700 those that live a little
longer are moved up, and the oldest generation, scanned whole, is then
collected every few seconds. A young generation of :data:`SELDOM` objects
lets them die young. Both the command line and the class server use it, so
it lives here, below both, in a module that imports nothing: ``aces --help``
must not pay for a dependency to learn three numbers.
"""

from __future__ import annotations

import typing as t

__all__ = ["SELDOM"]

#: The cycle collector's thresholds while a command or a server runs.
SELDOM: t.Final = (20_000, 20, 10)
