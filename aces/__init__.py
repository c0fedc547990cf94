"""aces: Aces in the Pot and Aces, as event-sourced games.

Every game is an append-only log of events; state is always derived by
folding them through the pure rules in :mod:`aces.rules`. See the README
and the documentation for the command line.
"""

__version__ = "0.1.0"
