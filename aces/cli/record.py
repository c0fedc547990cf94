"""``aces record``: a game played with real dice, typed in roll by roll.

The edge around :class:`aces.record.Table`: it opens the log in the
:class:`~aces.logstore.LogStore` (locked, resumed, repaired), asks for each
roll (or reads the rolls from standard input when that is not a terminal),
and appends every roll with all it settles in one write, synced to disk
before the next question. Nothing typed is lost to a crash, a power cut or
Ctrl-C, and the log is never rewritten: a typing mistake is taken back by
an ``undo``, itself a line of the log.
"""

from __future__ import annotations

import contextlib
import sys
import typing as t

import click

from aces.cli._common import lang_option, reported, stdin_closed, translations
from aces.cli._games import GAME_HELP, GameChoice, GameCommand
from aces.errors import N_, AcesError, OptionError, SaveError, visible

if t.TYPE_CHECKING:
    import collections
    import gettext

    from aces.cli._games import Given
    from aces.dice import Command
    from aces.events import GameStarted
    from aces.games import Option
    from aces.logstore import LogStore
    from aces.narrate import Narrator
    from aces.rules import Game, OptionValue, Roll, RollRequest
    from aces.walk import Step

__all__ = ["record"]

#: Lines of the story so far shown when a game is resumed.
_STORY: t.Final = 12


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
    # The store reads logs (msgspec): imported to record, not for --help.
    from aces.cli.play import players_from
    from aces.files import target_name
    from aces.logstore import LogStore

    with reported(lang):
        chosen, catalog = translations(lang)
        if log == "-":
            # Translators: an error of "aces record". Keep LOG and '-' as they are.
            raise OptionError("aces record needs a file for LOG, not '-': the rolls may come"
                              " from standard input, but the log must be kept on disk")
        target_name(log)
        given = _Given(game_name, None if players is None else players_from(players),
                       game_options)
        given.check()
        if sys.stdin is None:
            raise stdin_closed()
        interactive = sys.stdin.isatty()
        with LogStore.open(log) as book:
            session = _Session(book, given, catalog, chosen, interactive)
            session.run()


class _Given(t.NamedTuple):
    """The game the command line asks for; ``None`` for what it leaves out."""

    game: str | None
    players: list[str] | None
    #: The game options given, by flag.
    options: Given

    def rules(self, default: str = "pot") -> Game[t.Any]:
        from aces.rules import game_named

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
        """The header of a new game: as given, the rest as in the last game."""
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


def _arguments(header: GameStarted) -> str:
    """The arguments of ``aces record`` that begin the game of ``header``."""
    words = [f"--game {header.game}", f"--players {','.join(header.players)}"]
    for option in _options(header.game):
        value = header.options.get(option.key, False)
        if value is not False:
            words.append(_argument(option.flag, value))
    return " ".join(words)


# -- A session at the table --------------------------------------------------------


#: How to name whom a 3 goes to, for the start and for the help.
# Translators: how to type a roll of the five-dice game with the threes
# variation, shown by "aces record". Keep the example as it is.
_THREES: t.Final = N_("Name whom each 3 goes to after '>', in the order of the 3s: 3 6 3 > Bo Cy;"
                      " the start of a name is enough, in any case.")


def _next_line(stream: t.BinaryIO) -> bytes:
    """The next line of standard input (``b""`` at its end), read as a line
    whatever its length, never more than a line may hold.

    A line too long is read to its end and refused as a whole, so that
    nothing in it (a comment of 5,000 bytes, then ``1 6``) is taken for a
    line of its own.
    """
    from aces.dice import TOO_LONG
    from aces.errors import DiceFileError
    from aces.log import LINE_LIMIT

    raw = stream.readline(LINE_LIMIT + 1)
    if len(raw) <= LINE_LIMIT:
        return raw
    while raw and not raw.endswith(b"\n"):
        raw = stream.readline(LINE_LIMIT)
    raise DiceFileError(TOO_LONG, limit=LINE_LIMIT)


def _text(raw: bytes) -> str:
    """A line of standard input as text, read as UTF-8 whatever the locale says."""
    from aces.errors import DiceFileError

    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        # Translators: an error of a line of rolls given to "aces record"
        # with bytes that are not UTF-8 text.
        raise DiceFileError("the line is not UTF-8 text") from None


class _Session:
    """One run of ``aces record``: resume, then ask, check, append and tell."""

    def __init__(self, book: LogStore, given: _Given, catalog: gettext.NullTranslations,
                 lang: str, interactive: bool) -> None:
        from aces.narrate import Narrator
        from aces.record import Table

        self.book = book
        self.given = given
        self.catalog = catalog
        self.interactive = interactive
        self.lang = lang
        self.table = Table()
        self.narrator: Narrator = Narrator(catalog, lang)
        self.line = 0
        from aces.dice import Command, command_words

        c = catalog
        self.words = command_words({
            # Translators: the word typed at the table to take back the last
            # roll; "undo" and "angre" are understood in every language too.
            # One word, in lower case.
            Command.UNDO: c.pgettext("command", "undo"),
            # Translators: the word typed at the table for what can be typed;
            # "help", "hjelp" and "?" are understood in every language too.
            # One word, in lower case.
            Command.HELP: c.pgettext("command", "help"),
            # Translators: the word typed at the table to stop recording;
            # "quit" and "avslutt" are understood in every language too. One
            # word, in lower case.
            Command.QUIT: c.pgettext("command", "quit"),
        })

    def say(self, message: str, **values: object) -> None:
        """A notice about the recording (a message marked with ``N_``), on standard error,
        its numbers written as an error's are (:func:`aces.cli._numbers.shown`)."""
        from aces.cli._numbers import shown as written

        shown = {name: visible(value) if isinstance(value, str) else written(value, self.lang)
                 for name, value in values.items()}
        click.echo(self.catalog.gettext(message).format(**shown), err=True)

    def tell(self, steps: list[Step[t.Any]]) -> None:
        """Narrate what was appended, with the standings it leaves."""
        for step in steps:
            self.narrator.visit(step)
        self.narrator.settle()
        for line in self.narrator.take():
            click.echo(line)
        sys.stdout.flush()

    def append(self, steps: list[Step[t.Any]]) -> None:
        self.book.append(step.event for step in steps)
        self.tell(steps)

    # -- Resuming --------------------------------------------------------------

    def resume(self) -> None:
        from aces.errors import TruncatedLogError
        from aces.record import Resumed
        from aces.walk import drive

        resumed = Resumed(self.table, self.narrator, _STORY)
        # A last line cut short stops the walk; the store cuts it off (_repair).
        with contextlib.suppress(TruncatedLogError):
            drive(self.book.read(), self.book.path, resumed, allow_unfinished=True)
        self.book.check()
        self._carry_on(resumed.story)

    def _repair(self) -> None:
        """Make the end of the log fit to add to; a crash may have left it ragged."""
        torn = self.book.repair()
        if torn is not None:
            # Translators: a notice of "aces record". {log}: the log's file;
            # {line}: the line that was cut off.
            self.say(N_("The last line of {log} (line {line}) was cut short while it was"
                     " written, so it is dropped; if it was a roll, type it again."),
                     log=self.book.path, line=torn)

    def _carry_on(self, story: collections.deque[str]) -> None:
        table, path = self.table, self.book.path
        header = table.header
        if header is None:
            new = self.given.header(None)
            self._repair()
            table.begin(new)
            self.append(table.start())
            return
        unfinished = table.unsettled or table.request() is not None
        different = self.given.differences(header) if unfinished else []
        if different:
            # Translators: an error of "aces record". {log}: the log's file;
            # {found}: the arguments its unfinished game was begun with;
            # {given}: the arguments given now that differ. Keep the
            # arguments as they are.
            raise OptionError("{log} holds an unfinished game begun with {found}, not"
                              " {given}; to go on with it, give the same or leave them out",
                              log=path, found=_arguments(header), given=" ".join(different))
        following = None if unfinished else self.given.header(header)
        self._repair()
        if following is None:
            # Translators: a notice of "aces record" going on with a game, before
            # the last lines of its story so far. {number}: the game's number
            # in the log; {log}: the log's file.
            self.say(N_("Going on with game {number} in {log}, where it stopped:"),
                     number=table.games, log=path)
            # The story as far as the log goes; the standings are due once
            # the last roll is settled.
            if not table.unsettled:
                self.narrator.settle()
            for line in [*story, *self.narrator.take()]:
                click.echo(line)
            if table.unsettled:
                # Translators: a notice of "aces record": the last roll in the log
                # was written without all its consequences. {log}: the log's file.
                self.say(N_("The last roll in {log} was not written whole; the rest of what"
                         " it settles is added now."), log=path)
                self.append(table.settle())
            return
        table.begin(following)
        # Translators: a notice of "aces record" on a log whose last game is
        # over. {log}: the log's file; {number}: the number of the new game.
        # "undo": the word for it in the "command" context.
        self.say(N_("The last game in {log} is over, so game {number} begins. (To take back"
                 " the last roll of the game before instead, type undo first.)"),
                 log=path, number=table.games)

    # -- At the table ----------------------------------------------------------

    def run(self) -> None:
        try:
            # Ctrl-C while the log is read is a stop like any other: what
            # is on disk stays as it is.
            self.resume()
            if self.interactive:
                self._explain()
            self._loop()
        except KeyboardInterrupt:
            click.echo("", err=True)
            self._stopped()
            from aces.cli import INTERRUPTED

            sys.exit(INTERRUPTED)

    def _explain(self) -> None:
        # Translators: shown when "aces record" starts at a terminal. The
        # words undo, ? and quit are the ones for these commands in the
        # "command" context.
        self.say(N_("Type the dice of each roll as they fall, like 1-6 or 16; undo takes back"
                 " the last roll, ? shows what else can be typed, and quit or Ctrl-D stops:"
                 " the same command goes on later."))
        if self._gives_threes():
            self.say(_THREES)

    def _gives_threes(self) -> bool:
        header = self.table.header
        return header is not None and bool(header.options.get("threes"))

    def _help(self) -> None:
        """What can be typed at the table, for this game, in the reader's language."""
        header = self.table.header
        if header is not None and header.game == "five-dice":
            # Translators: the help of "aces record" for the five-dice game:
            # how dice are typed. Keep the examples as they are.
            self.say(N_("Type the dice of a roll as they fall, one digit a die, together or"
                     " apart: 31425, 3-1-4-2-5, 3 1 4 2 5 or 3,1,4,2,5."))
        else:
            # Translators: the help of "aces record" for Aces in the Pot: how
            # dice are typed. Keep the examples as they are.
            self.say(N_("Type the dice of a roll as they fall, one digit a die, together or"
                     " apart: 1-6, 16, 1 6 or 1,6."))
        if self._gives_threes():
            self.say(_THREES)
        # Translators: the help of "aces record". The words are the ones for
        # these commands in the "command" context, with the English ones.
        self.say(N_("undo (or angre): take back the last roll, also after the roll that"
                 " ended the game."))
        # Translators: the help of "aces record". {log}: the log's file.
        self.say(N_("quit (or avslutt), or Ctrl-D: stop; every roll typed is saved in {log},"
                 " and the same command goes on later."), log=self.book.path)
        # Translators: the help of "aces record".
        self.say(N_("? or help (hjelp): show this again."))

    def _loop(self) -> None:
        from aces.dice import Command

        while True:
            request = self.table.request()
            if self.interactive:
                click.echo(self._prompt(request), err=True, nl=False)
            try:
                raw = _next_line(sys.stdin.buffer)
            except AcesError as exc:
                self.line += 1
                self._refuse(exc)
                continue
            if not raw:
                if self.interactive:
                    click.echo("", err=True)
                break
            self.line += 1
            try:
                command = self._command(_text(raw), request)
                if command is None:
                    if request is None and self.interactive:
                        break
                    continue
                if command is Command.QUIT:
                    break
                if command is Command.HELP:
                    self._help()
                elif command is Command.UNDO:
                    self.append(self.table.undo())
                else:
                    self.append(self.table.play(command))
            except AcesError as exc:
                self._refuse(exc)
        if self.table.request() is None and not self.table.unwritten:
            self.narrator.end()
            for line in self.narrator.take():
                click.echo(line)
        else:
            self._stopped()

    def _command(self, text: str, request: RollRequest | None) -> Roll | Command | None:
        from aces.dice import Command, check_count, parse_entry

        header = self.table.header
        roll = parse_entry(text, () if header is None else header.players, self.words)
        if roll is None or isinstance(roll, Command):
            return roll
        if request is None:
            # Translators: why a roll is refused by "aces record" once the game
            # is over. "undo": the word for it in the "command" context.
            raise AcesError("the game is over, so no roll is due; undo takes back its last"
                            " roll")
        check_count(roll, request)
        return roll

    def _refuse(self, exc: AcesError) -> None:
        """A line that cannot be played: ask again at a terminal, else stop."""
        if isinstance(exc, SaveError):
            raise exc
        if self.interactive:
            from aces.cli._common import message

            click.echo(message(exc, self.lang), err=True)
            return
        # Placed at its line of standard input, and of its own kind still.
        raise exc.at("<stdin>", self.line) from None

    def _prompt(self, request: RollRequest | None) -> str:
        c = self.catalog
        if request is None:
            # Translators: the prompt of "aces record" once a game is over.
            # "undo": the word for it in the "command" context.
            return c.gettext("The game is over. Type undo to take back the last roll, or"
                             " press Enter to stop: ")
        # A small count in words, as the narration writes it («to terninger»).
        values = {"player": request.player, "count": self.narrator.voice.count(request.dice)}
        if request.stage == "opening":
            # Translators: the prompt of "aces record" for an opening roll.
            # {player}: who rolls; {count}: how many dice.
            return c.ngettext("{player} rolls {count} die for the opening: ",
                              "{player} rolls {count} dice for the opening: ",
                              request.dice).format(**values)
        if request.stage == "try":
            from aces.rules.pot import TRY_ROLLS

            # Translators: the prompt of "aces record" for a roll of a try.
            # {player}: who rolls; {count}: how many dice; {number}: which
            # roll of the try; {total}: the rolls in a try (3).
            return c.ngettext("{player} rolls {count} die, roll {number} of {total} of the"
                              " try: ",
                              "{player} rolls {count} dice, roll {number} of {total} of the"
                              " try: ", request.dice).format(
                number=getattr(self.table.state, "try_rolls", 0) + 1, total=TRY_ROLLS, **values)
        # Translators: the prompt of "aces record" for a roll in a turn.
        # {player}: who rolls; {count}: how many dice.
        return c.ngettext("{player} rolls {count} die: ", "{player} rolls {count} dice: ",
                          request.dice).format(**values)

    def _stopped(self) -> None:
        # Translators: a notice of "aces record" when it stops before the game
        # is over. {log}: the log's file.
        self.say(N_("Stopped. Every roll typed is saved in {log}; run the same command to go"
                 " on."), log=self.book.path)

