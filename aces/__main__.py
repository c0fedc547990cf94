"""``python -m aces``: the same as the ``aces`` command."""

from aces._entry import main

main()
