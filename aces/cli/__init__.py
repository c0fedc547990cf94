"""The command line: the only place that reads files, prints and exits.

Each command lives in its own module and is a thin edge around pure
functions; heavy modules are imported inside the commands, so ``aces
--help`` starts at once.
"""

from __future__ import annotations

import os
import sys

import click

from aces.cli.logs import replay, verify
from aces.cli.odds import odds
from aces.cli.play import play
from aces.cli.simulate import simulate


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="aces")
def cli() -> None:
    """Aces in the Pot and Aces: play, record, verify and narrate dice games."""


cli.add_command(play)
cli.add_command(replay)
cli.add_command(verify)
cli.add_command(odds)
cli.add_command(simulate)


def main() -> None:
    """Entry point of the ``aces`` command."""
    try:
        cli(prog_name="aces")
    except BrokenPipeError:
        # The reader went away (``aces replay log | head``): not an error.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(0)
