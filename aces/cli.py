"""The command line: the only place that reads files, prints and exits.

Every command is a thin edge around pure functions. Errors the user can
cause arrive as :class:`~aces.errors.AcesError` and leave as one line on
standard error with a non-zero exit status, in the chosen language.
Heavy modules are imported inside the commands, so ``aces --help`` starts
at once.
"""

from __future__ import annotations

import contextlib
import os
import sys
import typing as t
from pathlib import Path

import click

from aces.errors import N_, AcesError, OptionError

if t.TYPE_CHECKING:
    import gettext
    from collections.abc import Iterator

    from aces.rules import OptionValue

#: Names for ``--players N``: short, distinct, and the same in every language.
DEFAULT_NAMES: t.Final = ("Ada", "Bo", "Cy", "Dag", "Eli", "Fia", "Gro", "Hal", "Ida", "Jon")
_LANG_HELP: t.Final = "Language of the output: en or nb (default: from the locale, else en)."


class _Failure(click.ClickException):
    """An :class:`AcesError` on its way out: one line, no traceback."""

    def __init__(self, line: str, exit_code: int) -> None:
        super().__init__(line)
        self.exit_code = exit_code  # type: ignore[misc]

    def show(self, file: t.IO[t.Any] | None = None) -> None:
        click.echo(f"aces: {self.message}", file=file or sys.stderr)


def _translations(lang: str | None) -> tuple[str, gettext.NullTranslations]:
    from aces import i18n

    chosen = i18n.negotiate(lang, os.environ)
    return chosen, i18n.translations(chosen)


@contextlib.contextmanager
def _reported(lang: str | None) -> Iterator[None]:
    """Turn an :class:`AcesError` into a one-line message in the user's language."""
    try:
        yield
    except AcesError as exc:
        try:
            _, catalog = _translations(lang)
            line = exc.render(catalog.gettext)
        except AcesError:
            line = exc.render()
        raise _Failure(line, exc.exit_code) from None


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="aces")
def cli() -> None:
    """Aces in the Pot and Aces: play, record, verify and narrate dice games."""


# -- play ---------------------------------------------------------------------


def _players(value: str) -> list[str]:
    value = value.strip()
    if value.isdigit():
        count = int(value)
        if count > len(DEFAULT_NAMES):
            return [*DEFAULT_NAMES, *(f"P{n}" for n in range(len(DEFAULT_NAMES) + 1, count + 1))]
        return list(DEFAULT_NAMES[:count])
    return [name.strip() for name in value.split(",")]


@cli.command()
@click.option("--players", required=True, metavar="NAMES|N",
              help="Players in seat order, comma-separated (Ada,Bo,Cy), or a number.")
@click.option("--game", "game_name", default="pot", show_default=True,
              help="Which game: pot (Aces in the Pot).")
@click.option("--finish", type=click.Choice(["last-chip", "last-holder"]), default=None,
              help="When the finish starts: one chip left (default) or one holder left.")
@click.option("--chips", type=click.IntRange(min=1), default=None,
              help="Chips each player starts with (default 2).")
@click.option("--seed", type=int, default=None,
              help="Seed for the dice; the same seed plays the same games.")
@click.option("--games", type=click.IntRange(min=1), default=1, show_default=True,
              help="Games to play one after another in one log.")
@click.option("--dice-file", type=click.File("r", encoding="utf-8"), default=None,
              help="Dice of a real game, one roll per line ('-' for standard input).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write the log to this new file (default: standard output).")
@click.option("--lang", default=None, help=_LANG_HELP)
def play(
    players: str,
    game_name: str,
    finish: str | None,
    chips: int | None,
    seed: int | None,
    games: int,
    dice_file: t.TextIO | None,
    output: str | None,
    lang: str | None,
) -> None:
    """Play whole games and write their event log (JSON Lines)."""
    from aces import engine
    from aces.dice import DiceFile, DiceSource, RandomDice
    from aces.log import LogWriter
    from aces.rules import game_named

    with _reported(lang):
        game = game_named(game_name)
        options: dict[str, OptionValue] = {}
        if finish is not None:
            options["finish"] = finish
        if chips is not None:
            options["chips"] = chips
        seats = _players(players)
        if dice_file is not None and seed is not None:
            raise OptionError("--seed and --dice-file cannot be used together")
        # Check everything before the first line is written.
        engine.header(game, seats, options)
        typed = DiceFile(dice_file, _name(dice_file)) if dice_file is not None else None
        if typed is None and seed is None:
            import secrets

            seed = secrets.randbelow(2**32)
        with _open_output(output) as stream:
            writer = LogWriter(stream)
            for number in range(games):
                game_seed = None if seed is None else seed + number
                source: DiceSource = (
                    typed if typed is not None else RandomDice(t.cast("int", game_seed))
                )
                start = engine.header(game, seats, options, game_seed)
                writer.write_all(engine.play(game, start, source))
            if typed is not None:
                typed.check_finished()


def _name(handle: t.IO[t.Any]) -> str:
    name = getattr(handle, "name", "-")
    return "<stdin>" if name in ("-", "<stdin>") else str(name)


@contextlib.contextmanager
def _open_output(path: str | None) -> Iterator[t.BinaryIO]:
    if path is None or path == "-":
        yield sys.stdout.buffer
        sys.stdout.buffer.flush()
        return
    try:
        handle = Path(path).open("xb")  # noqa: SIM115 - closed below
    except FileExistsError:
        raise OptionError(
            "{path} already exists; logs are never overwritten, choose a new name", path=path
        ) from None
    except OSError as exc:
        raise OptionError("cannot write {path}: {reason}", path=path,
                          reason=exc.strerror or str(exc)) from None
    with handle:
        yield handle


# -- reading logs -------------------------------------------------------------


@contextlib.contextmanager
def _open_log(path: str) -> Iterator[tuple[t.BinaryIO, str]]:
    if path == "-":
        yield sys.stdin.buffer, "<stdin>"
        return
    try:
        handle = Path(path).open("rb")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise OptionError("cannot read {path}: {reason}", path=path,
                          reason=exc.strerror or str(exc)) from None
    with handle:
        yield handle, path


@cli.command()
@click.argument("log", metavar="LOG")
@click.option("--lang", default=None, help=_LANG_HELP)
def verify(log: str, lang: str | None) -> None:
    """Check a log against the rules, every event of it.

    Prints one summary line when the log is sound; otherwise the first line
    that is not, and why.
    """
    from aces import summary
    from aces.log import read
    from aces.walk import walk

    with _reported(lang):
        chosen, catalog = _translations(lang)
        with _open_log(log) as (stream, source):
            tally = summary.Tally()
            for step in walk(read(stream, source), source):
                tally.add(step)
            if not tally.events:
                raise AcesError("{source} is empty: it holds no events", source=source)
        click.echo(tally.line(source, chosen, catalog))


@cli.command()
@click.argument("log", metavar="LOG")
@click.option("--lang", default=None, help=_LANG_HELP)
@click.option("--step", "stepwise", is_flag=True,
              help="Wait for Enter before each roll (for a class or a table).")
def replay(log: str, lang: str | None, stepwise: bool) -> None:
    """Narrate the games of a log, event by event.

    LOG may be '-' to read the log from standard input.
    """
    from aces.log import read
    from aces.narrate import Narrator
    from aces.walk import walk

    with _reported(lang):
        chosen, catalog = _translations(lang)
        if stepwise and log == "-":
            raise OptionError("--step reads Enter from standard input, so the log cannot come"
                              " from there too; give the log's file name")
        narrator = Narrator(catalog, chosen)
        out = sys.stdout
        prompt = catalog.gettext(N_("Press Enter for the next roll..."))
        with _open_log(log) as (stream, source):
            seen = False
            for step in walk(read(stream, source), source):
                seen = True
                lines = narrator.narrate(step)
                if stepwise and narrator.is_roll(step) and not _pause(prompt, out):
                    stepwise = False
                out.writelines(f"{line}\n" for line in lines)
            if not seen:
                raise AcesError("{source} is empty: it holds no events", source=source)
            out.writelines(f"{line}\n" for line in narrator.finish())


def _pause(prompt: str, out: t.TextIO) -> bool:
    """Wait for Enter; ``False`` once standard input has nothing more to give."""
    out.flush()
    click.echo(prompt, err=True, nl=False)
    answer = sys.stdin.readline()
    click.echo("", err=True)
    return answer != ""


def main() -> None:
    """Entry point of the ``aces`` command."""
    try:
        cli(prog_name="aces")
    except BrokenPipeError:
        # The reader went away (``aces replay log | head``): not an error.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(0)
