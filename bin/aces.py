#!/usr/bin/env python3
"""The ``aces`` command: Ctrl-C at any moment of it ends the same way.

Installed as the command itself (a shared script of the wheel), rather
than as an entry point: the script an installer writes for an entry point
imports ``re`` and the package before any code of ours runs, and Ctrl-C
pressed then printed a traceback. Here the first statement is the one
that catches it: everything the command loads, and the command itself,
runs inside it. An interrupt ends with a line break on standard error (so
the shell's prompt starts a line of its own) and status 130, as a shell
reports an interrupted command, the same as the command line gives for
Ctrl-C once it has loaded (:func:`aces.cli.main`).
"""

try:
    from aces.cli import main

    main()
except KeyboardInterrupt:
    import sys

    sys.stderr.write("\n")
    raise SystemExit(130) from None
