"""The entry point of the ``aces`` command, before anything heavy is imported.

Ctrl-C while Python loads the command line (click, every command's
module) would print a traceback; here it ends the command quietly, with
the status a shell gives an interrupted command.
"""

from __future__ import annotations

import sys


def main() -> None:
    """Run ``aces``; Ctrl-C during start-up ends it with status 130 and no traceback."""
    try:
        from aces.cli import main as run

        run()
    except KeyboardInterrupt:
        sys.exit(130)
