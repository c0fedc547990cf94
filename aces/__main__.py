"""``python -m aces``: the same as the ``aces`` command (and the way to run it on Windows)."""

from aces.cli import main

main()
