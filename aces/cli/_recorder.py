"""The session at the table behind ``aces record``: resume, then ask, check, append and tell.

A :class:`Recorder` walks the log it is given (a :class:`~aces.logstore.LogStore`,
locked) into an :class:`aces.record.Recording`, says where the game stands and
repairs what a crash left, then reads the rolls one line at a time, from a
terminal or a script on standard input. Each line is a roll, or ``undo``,
``help`` or ``quit`` in the user's language; what a roll or an undo settles
is appended to the store, synced to disk, and only then narrated.

It handles no signal: Ctrl-C reaches the command (:mod:`aces.cli.record`)
as :class:`KeyboardInterrupt`, which stops it, and the store holds Ctrl-C
back while a roll is written.
"""

from __future__ import annotations

import contextlib
import sys
import typing as t

import click

from aces.cli._common import message
from aces.dice import TOO_LONG, Command, check_count, command_words, parse_entry
from aces.errors import (
    N_,
    AcesError,
    DiceFileError,
    OptionError,
    SaveError,
    TruncatedLogError,
    visible,
)
from aces.games import POT, registration
from aces.log import LINE_LIMIT
from aces.narrate import Narrator
from aces.numbers import written
from aces.record import Recording, Resumed, prompt
from aces.walk import drive

if t.TYPE_CHECKING:
    import collections
    import gettext

    from aces.cli.record import Arguments
    from aces.logstore import LogStore
    from aces.rules import Roll, RollRequest
    from aces.walk import Step

__all__ = ["Recorder"]

#: Lines of the story so far shown when a game is resumed.
_STORY: t.Final = 12


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
    raw = stream.readline(LINE_LIMIT + 1)
    if len(raw) <= LINE_LIMIT:
        return raw
    while raw and not raw.endswith(b"\n"):
        raw = stream.readline(LINE_LIMIT)
    raise DiceFileError(TOO_LONG, limit=LINE_LIMIT)


def _text(raw: bytes) -> str:
    """A line of standard input as text, read as UTF-8 whatever the locale says."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        # Translators: an error of a line of rolls given to "aces record"
        # with bytes that are not UTF-8 text.
        raise DiceFileError("the line is not UTF-8 text") from None


class Recorder:
    """One run of ``aces record``: resume, then ask, check, append and tell."""

    def __init__(self, book: LogStore, given: Arguments, catalog: gettext.NullTranslations,
                 lang: str, interactive: bool) -> None:
        self.book = book
        self.given = given
        self.catalog = catalog
        self.interactive = interactive
        self.lang = lang
        self.table = Recording()
        self.narrator: Narrator = Narrator(catalog, lang)
        self.line = 0
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
        its numbers written as an error's are (:func:`aces.numbers.written`)."""
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
                              log=path, found=self.given.begun(header),
                              given=" ".join(different))
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
        """Resume the log, then record until the game is over or the input ends.

        Ctrl-C comes through as :class:`KeyboardInterrupt`, to the command
        (:mod:`aces.cli.record`), which calls :meth:`stopped`; while a roll is
        written the store holds it back.
        """
        self.resume()
        if self.interactive:
            self._explain()
        self._loop()

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
        # How the dice of a roll are typed, as the game says (Aces in the Pot's
        # before a game has begun).
        self.say((POT if header is None else registration(header.game)).typing)
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
            self.stopped()

    def _command(self, text: str, request: RollRequest | None) -> Roll | Command | None:
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
        return prompt(request, self.table.state, self.narrator.voice)

    def stopped(self) -> None:
        """Say that recording stopped before the game is over, and how to go on."""
        # Translators: a notice of "aces record" when it stops before the game
        # is over. {log}: the log's file.
        self.say(N_("Stopped. Every roll typed is saved in {log}; run the same command to go"
                 " on."), log=self.book.path)
