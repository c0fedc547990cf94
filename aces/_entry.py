"""The entry point of the ``aces`` command as installs before this version made it.

The command is now a script of its own (bin/aces.py), which catches
Ctrl-C from its first statement. An environment installed before that
still has a console script that calls ``aces._entry:main``; until it is
installed again, it runs the same command through here.
"""

from __future__ import annotations

from aces.cli import main as run

__all__ = ["main"]


def main() -> None:
    """Run ``aces`` (see :func:`aces.cli.main`)."""

    run()
