"""``python -m aces``: the same as the ``aces`` command."""

from aces.cli import main

main()
