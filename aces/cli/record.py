"""``aces record``: a game played with real dice, typed in roll by roll.

The command and its arguments (:class:`Arguments`: the game the command
line asks for, held against the game the log holds). It opens the log in
the :class:`~aces.logstore.LogStore` (locked: one recorder a log) and hands
it to the :class:`~aces.cli._recorder.Recorder`, which resumes it, asks for
each roll (or reads the rolls from standard input when that is not a
terminal) and appends every roll with all it settles in one write, synced
to disk before the next question. Nothing typed is lost to a crash, a power
cut or Ctrl-C, and the log is never rewritten: a typing mistake is taken
back by an ``undo``, itself a line of the log. Ctrl-C is a stop like any
other, here: what is on disk stays as it is.
"""

from __future__ import annotations

import sys
import typing as t

import click

from aces.cli._common import lang_option, reported, stdin_closed, translations
from aces.cli._games import GAME_HELP, GameChoice, GameCommand
from aces.errors import OptionError

if t.TYPE_CHECKING:
    from aces.cli._games import Given
    from aces.events import GameStarted
    from aces.games import Option
    from aces.rules import Decider, OptionValue

__all__ = ["Arguments", "record"]

@click.command(cls=GameCommand, typed=True)
# A plain string: the log is opened (and a folder refused) by LogStore, in
# the user's language, not by click.
@click.argument("log", metavar="LOG")
@click.option("--players", default=None, metavar="NAMES|N",
              help="Players in seat order, comma-separated (Ada,Bo,Cy), or a number. Needed"
                   " for a new log; to resume, leave it out or give the same.")
@click.option("--game", "game_name", type=GameChoice(), default=None,
              help=GAME_HELP)
@lang_option
def record(
    log: str,
    players: str | None,
    game_name: str | None,
    lang: str | None,
    game_options: Given,
) -> None:
    """Record a game played with real dice at the table, roll by roll.

    Asks for the dice of each roll, checks them, tells what they settle and
    appends the events to LOG, safely on disk before the next question.
    Type 'undo' to take back the last roll. Run the same command again to
    go on with an unfinished game, or to add a new game to a finished log.
    When standard input is not a terminal, the rolls are read from it, one
    per line as in a dice file. five-dice --threes: name whom each 3 goes
    to after '>', in the order of the 3s: '3 6 3 > Bo Cy'.
    """
    # The recorder and the store read logs (msgspec): imported to record, not for --help.
    from aces.cli import INTERRUPTED
    from aces.cli._recorder import Recorder
    from aces.engine import players_from
    from aces.files import target_name
    from aces.logstore import LogStore

    with reported(lang):
        chosen, catalog = translations(lang)
        if log == "-":
            # Translators: an error of "aces record". Keep LOG and '-' as they are.
            raise OptionError("aces record needs a file for LOG, not '-': the rolls may come"
                              " from standard input, but the log must be kept on disk")
        target_name(log)
        given = Arguments(game_name, None if players is None else players_from(players),
                          game_options)
        given.check()
        if sys.stdin is None:
            raise stdin_closed()
        interactive = sys.stdin.isatty()
        with LogStore.open(log) as book:
            recorder = Recorder(book, given, catalog, chosen, interactive)
            try:
                recorder.run()
            except KeyboardInterrupt:
                # Ctrl-C, while the log is read too, is a stop like any other:
                # what is on disk stays as it is.
                click.echo("", err=True)
                recorder.stopped()
                sys.exit(INTERRUPTED)


class Arguments(t.NamedTuple):
    """The game the command line asks for; ``None`` for what it leaves out."""

    game: str | None
    players: list[str] | None
    #: The game options given, by flag.
    options: Given

    def rules(self, default: str = "pot") -> Decider[t.Any]:
        from aces.games import game_named

        return game_named(self.game or default)

    def check(self) -> None:
        """Refuse what no game could accept, before the log is touched.

        Without ``--game`` the game may be the log's, so its options wait
        until the log is read.
        """
        from aces.cli._games import header_options
        from aces.engine import header

        game = self.rules()
        options = header_options(game, self.options) if self.game is not None else {}
        if self.players is not None:
            header(game, self.players, options)

    def header(self, last: GameStarted | None) -> GameStarted:
        """The header of a new game: as given, the rest as in the last game.

        :raises ~aces.errors.OptionError: for a new log without players, or
            players or options the game refuses.
        """
        from aces.cli._games import header_options
        from aces.engine import header

        same = last is not None and self.game in (None, last.game)
        game = self.rules(last.game if last is not None and same else "pot")
        options = dict(last.options) if last is not None and same else {}
        options.update(header_options(game, self.options))
        players = self.players
        if players is None:
            if last is None:
                # Translators: an error of "aces record" on a new log; keep
                # --players as it is.
                raise OptionError("a new log needs the players: give them with --players")
            players = list(last.players)
        return header(game, players, options)

    @staticmethod
    def begun(header: GameStarted) -> str:
        """The arguments of ``aces record`` that begin the game of ``header``."""
        words = [f"--game {header.game}", f"--players {','.join(header.players)}"]
        for option in _options(header.game):
            value = header.options.get(option.key, False)
            if value is not False:
                words.append(_argument(option.flag, value))
        return " ".join(words)

    def differences(self, header: GameStarted) -> list[str]:
        """The arguments given that the game ``header`` was not begun with."""
        found = []
        if self.game is not None and self.game != header.game:
            found.append(f"--game {self.game}")
        if self.players is not None and tuple(self.players) != header.players:
            found.append(f"--players {','.join(self.players)}")
        keys = {option.flag: option.key for option in _options(header.game)}
        for flag, value in self.options.items():
            if flag not in keys or header.options.get(keys[flag]) != value:
                found.append(_argument(flag, value))
        return found


def _options(game: str) -> tuple[Option, ...]:
    """The options of ``game`` that ``aces record`` takes."""
    from aces.games import declared

    return tuple(option for option in declared().get(game, ()) if option.drawn_only is None)


def _argument(flag: str, value: OptionValue) -> str:
    return flag if value is True else f"{flag} {value}"
