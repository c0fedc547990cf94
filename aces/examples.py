"""The example logs and dice files that come with the package.

Recorded games to try every command on at once, with nothing of one's own
yet: ``aces examples`` lists them, and ``aces replay --example
three-players`` (or ``verify``, ``walkthrough``, ``stats``) reads one by
its name. In Python, :func:`example` gives an example's path::

    import aces
    from aces.examples import example
    aces.load(example("session"))

They are the repository's ``replays/`` folder, which a wheel carries
inside the package (``aces/examples``, see ``hatch_build.py``); a checkout
and an editable install read ``replays/`` itself.

>>> example("three-players").name, example("e1.dice").name
('three-players.jsonl', 'e1.dice')
>>> "e1.dice" in names() and "session" in names()
True
"""

from __future__ import annotations

import functools
import typing as t
from pathlib import Path

from aces.errors import OptionError, Term

__all__ = ["DICE", "LOG", "example", "folder", "names", "unknown_example"]

#: The ending of an example log, left off its name (``three-players``).
LOG: t.Final = ".jsonl"
#: The ending of an example dice file, kept in its name (``e1.dice``).
DICE: t.Final = ".dice"


@functools.cache
def folder() -> Path:
    """Where the examples are: inside the package when installed from a wheel,
    ``replays/`` at the top of the repository in a checkout.

    :raises FileNotFoundError: where there are none: a broken install.
    """
    package = Path(__file__).resolve().parent
    for candidate in (package / "examples", package.parent / "replays"):
        if any(candidate.glob(f"*{LOG}")):
            return candidate
    raise FileNotFoundError(f"no example logs found beside {package}")


def names() -> tuple[str, ...]:
    """Every example by name, in order: the logs, then the dice files."""
    found = sorted(folder().iterdir())
    return (*(path.stem for path in found if path.suffix == LOG),
            *(path.name for path in found if path.suffix == DICE))


def unknown_example(name: str) -> OptionError:
    """The error for a name that is no example's."""
    # Translators: an error: a name given with --example that is no example's.
    # {command}: "aces examples", the command that lists them (in Python,
    # the function aces.examples.names).
    return OptionError("there is no example called {name!r}: {command} lists them",
                       name=name, command=Term("aces examples", "aces.examples.names()"))


def example(name: str) -> Path:
    """The path of the example ``name`` (``three-players``, ``e1.dice``; a
    log's name may end in ``.jsonl`` too).

    :raises ~aces.errors.OptionError: for a name that is no example's.
    """
    known = names()
    if name.endswith(DICE):
        if name in known:
            return folder() / name
    elif name.removesuffix(LOG) in known:
        return folder() / f"{name.removesuffix(LOG)}{LOG}"
    raise unknown_example(name)
