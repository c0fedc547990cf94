"""``aces record``: a game played with real dice, typed in roll by roll.

The edge around :class:`aces.record.Table`: it locks the log, resumes what
it holds, asks for each roll (or reads the rolls from standard input when
that is not a terminal), and appends every roll with all it settles in one
write, flushed and synced to disk before the next question. Nothing typed
is lost to a crash, a power cut or Ctrl-C, and the log is never rewritten:
a typing mistake is taken back by an ``undo``, itself a line of the log.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import sys
import typing as t
from pathlib import Path

import click

from aces.cli._common import lang_option, reported, stdin_closed, translations
from aces.cli._games import GAME_HELP, GameChoice, GameCommand
from aces.errors import N_, AcesError, OptionError, SaveError, os_reason, visible

if t.TYPE_CHECKING:
    import collections
    import gettext
    from collections.abc import Iterator

    from aces.cli._games import Given
    from aces.dice import Command
    from aces.events import GameStarted
    from aces.games import Option
    from aces.log import LogWriter
    from aces.narrate import Narrator
    from aces.rules import Game, OptionValue, Roll, RollRequest
    from aces.walk import Step

__all__ = ["record"]

#: Lines of the story so far shown when a game is resumed.
_STORY: t.Final = 12


@click.command(cls=GameCommand, typed=True)
# A plain string: the log is opened (and a folder refused) by _LockedLog, in
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
    from aces.cli.play import players_from
    from aces.files import target_name

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
        with _LockedLog.open(log) as book:
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


# -- The log on disk -------------------------------------------------------------


class _LockedLog:
    """A log opened for appending, locked against a second recorder."""

    def __init__(self, path: str, fd: int, created: bool) -> None:
        self.path = path
        self.fd = fd
        self.created = created

    @classmethod
    @contextlib.contextmanager
    def open(cls, path: str) -> Iterator[_LockedLog]:
        """The log at ``path``, created if need be, locked while the block runs.

        A recorder that created the file and wrote nothing removes it again,
        but only while it holds the lock: so the file is removed only when
        no other recorder can be writing to it, and a recorder that locks a
        file just removed (its name now gone, or naming a new file) opens
        the name again rather than write where nobody will look.
        """
        with _name_locked(path):
            yield from cls._opened(path)

    @classmethod
    def _opened(cls, path: str) -> Iterator[_LockedLog]:
        while True:
            fd, created = cls._open(path)
            try:
                cls._lock(path, fd)
                if not cls._still_named(path, fd):
                    continue
                try:
                    yield cls(path, fd, created)
                finally:
                    # A log this run created and never wrote to is no log at all.
                    if created and os.fstat(fd).st_size == 0:
                        with contextlib.suppress(OSError):
                            Path(path).unlink()
                return
            finally:
                os.close(fd)

    @staticmethod
    def _open(path: str) -> tuple[int, bool]:
        """A descriptor of the file at ``path``, and whether this call created it."""
        while True:
            try:
                return os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_EXCL,
                               0o644), True
            except FileExistsError:
                pass
            except OSError as exc:
                raise _cannot(path, exc) from None
            try:
                return os.open(path, os.O_RDWR | os.O_APPEND), False
            except FileNotFoundError as exc:
                if Path(path).is_symlink():
                    # A link to nowhere: nothing to open, and nothing to create.
                    raise _cannot(path, exc) from None
                # Removed in between (an empty log given up by another recorder).
                continue
            except OSError as exc:
                raise _cannot(path, exc) from None

    @staticmethod
    def _lock(path: str, fd: int) -> None:
        """Lock the open file, or refuse: it is not a file, or another recorder holds it."""
        import stat

        if not stat.S_ISREG(os.fstat(fd).st_mode):
            # Translators: an error of "aces record". {path}: what was
            # given as the log, such as a device or a pipe.
            raise OptionError("{path} is not a regular file, so it cannot be a log",
                              path=path)
        _exclusive(path, fd)

    @staticmethod
    def _still_named(path: str, fd: int) -> bool:
        """Whether ``path`` still names the file locked (another recorder may
        have removed the empty file it made between our opening and locking it)."""
        try:
            named = Path(path).stat()
        except FileNotFoundError:
            return False
        locked = os.fstat(fd)
        return (named.st_dev, named.st_ino) == (locked.st_dev, locked.st_ino)

    def reader(self) -> t.BinaryIO:
        """The log from its beginning, to read (the lock stays held)."""
        handle = os.fdopen(os.dup(self.fd), "rb")
        handle.seek(0)
        return handle

    def size(self) -> int:
        return os.fstat(self.fd).st_size

    def last_byte(self) -> bytes:
        size = self.size()
        return os.pread(self.fd, 1, size - 1) if size else b""

    def drop_torn_line(self) -> None:
        """Cut off a last line that was never written whole; it holds no event."""
        from aces.log import whole_length

        length = whole_length(self.fd)
        with _signals_held():
            os.ftruncate(self.fd, length)
            os.fsync(self.fd)

    def append(self, data: bytes) -> None:
        """Write ``data`` at the end, all of it, and sync it to disk.

        Ctrl-C waits until this is done, so that it cannot leave half a
        roll behind.
        """
        if not data:
            return
        with _signals_held():
            if not self._still_named(self.path, self.fd):
                raise self._swapped()
            size = self.size()
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(self.fd, view):]
                os.fsync(self.fd)
            except OSError as exc:
                # A full disk, say: take back what got written, so that the
                # log ends with the last roll saved whole.
                with contextlib.suppress(OSError):
                    os.ftruncate(self.fd, size)
                    os.fsync(self.fd)
                # Translators: an error of "aces record" when a roll cannot be
                # written. {log}: the log's file; {reason}: why, such as "no
                # space left on the disk".
                raise SaveError("cannot save this roll in {log}: {reason}; every roll before"
                                " it is saved", log=self.path, reason=os_reason(exc)) from None
            if self.created:
                # A new file is only safe once its directory says it exists.
                self.created = False
                _sync_directory(self.path)

    def _swapped(self) -> SaveError:
        """The error for a log removed or replaced (saved by rename, say) while
        recording: what was written is copied to a file beside it, so that
        every roll acknowledged can be found, and nothing more is written."""
        held = os.pread(self.fd, self.size(), 0)
        lines = held.count(b"\n")
        reason: object = None
        for number in range(1, 100):
            rescue = f"{self.path}.rescued-{number}"
            try:
                fd = os.open(rescue, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                continue
            except OSError as exc:
                reason = os_reason(exc)
                break
            try:
                with os.fdopen(fd, "wb") as out:
                    out.write(held)
                    out.flush()
                    os.fsync(out.fileno())
            except OSError as exc:
                reason = os_reason(exc)
                break
            # Translators: an error of "aces record": another program removed
            # or replaced the log while it was being recorded. {log}: the
            # log's file; {lines}: the lines it held, the last roll saved
            # among them; {rescue}: the new file they are copied to.
            return SaveError(
                "{log} was removed or replaced by another program while the game was recorded,"
                " so nothing more is written to it; its {lines} lines, up to the last roll"
                " saved, are copied to {rescue}", log=self.path, lines=lines, rescue=rescue)
        if reason is None:
            reason = os_reason(FileExistsError(errno.EEXIST, "exists"))
        # Translators: an error of "aces record": another program removed or
        # replaced the log while it was being recorded, and the lines
        # recorded could not be copied elsewhere. {log}: the log's file;
        # {lines}: the lines it held; {reason}: why they could not be copied.
        return SaveError(
            "{log} was removed or replaced by another program while the game was recorded, so"
            " nothing more is written to it; its {lines} lines could not be copied beside it:"
            " {reason}", log=self.path, lines=lines, reason=reason)


@contextlib.contextmanager
def _name_locked(path: str) -> Iterator[None]:
    """Hold the lock of the log's name while the block runs.

    The log's own lock goes with the file, and a file saved over by rename
    (as editors and sync tools save) is a new file, unlocked: a second
    recorder could start on it while the first still runs. So a recorder
    also locks a hidden file beside the log, named after it
    (``.game.jsonl.lock``), which nothing else replaces. It is removed
    again while locked, and a lock taken on a file just removed is taken
    again on the name, as for the log itself. In a folder where it cannot
    be made, the log's own lock is all there is, as before.
    """
    import fcntl

    named = Path(path)
    lock = str(named.with_name(f".{named.name}.lock"))
    while True:
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        except OSError:
            yield
            return
        try:
            _exclusive(path, fd)
            if not _LockedLog._still_named(lock, fd):
                continue
            try:
                yield
            finally:
                with contextlib.suppress(OSError):
                    Path(lock).unlink()
                fcntl.flock(fd, fcntl.LOCK_UN)
            return
        finally:
            os.close(fd)


def _exclusive(path: str, fd: int) -> None:
    """Lock ``fd`` for this recorder alone, or refuse: another one holds the log at ``path``."""
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        # Translators: an error of "aces record" run twice on one log.
        raise OptionError("{path} is being recorded by another aces record; only one"
                          " may write to a log at a time", path=path) from None


def _cannot(path: str, exc: OSError) -> OptionError:
    return OptionError("cannot write {path}: {reason}", path=path,
                       reason=os_reason(exc))


def _sync_directory(path: str) -> None:
    folder = os.open(Path(path).resolve().parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Hold Ctrl-C and termination back until the block is done."""
    held = {signal.SIGINT, signal.SIGTERM}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


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

    def __init__(self, book: _LockedLog, given: _Given, catalog: gettext.NullTranslations,
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
        self.writer: LogWriter | None = None
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
        assert self.writer is not None
        self.book.append(self.writer.encode(step.event for step in steps))
        self.tell(steps)

    # -- Resuming --------------------------------------------------------------

    def resume(self) -> None:
        from aces.errors import TruncatedLogError
        from aces.events import SCHEMA
        from aces.log import LogWriter, read
        from aces.record import Resumed
        from aces.walk import drive

        resumed = Resumed(self.table, self.narrator, _STORY)
        with self.book.reader() as handle:
            reader = read(handle, self.book.path)
            torn = None
            try:
                drive(reader, self.book.path, resumed, allow_unfinished=True)
            except TruncatedLogError as exc:
                torn = exc.line
        story = resumed.story
        tail = reader.tail
        if tail.schema is not None and tail.schema != SCHEMA:
            # Translators: an error of "aces record" on a log written by an
            # older aces. {path}: the log; {schema}: its schema version.
            raise OptionError("{path} is written in schema {schema} by an older aces, so"
                              " nothing can be added to it; record into a new file",
                              path=self.book.path, schema=tail.schema)
        self.writer = LogWriter(None, first_seq=tail.seq + 1, previous=tail.digest)
        self._carry_on(story, torn)

    def _repair(self, torn: int | None) -> None:
        """Make the end of the log fit to add to; a crash may have left it ragged."""
        if torn is not None:
            self.book.drop_torn_line()
            # Translators: a notice of "aces record". {log}: the log's file;
            # {line}: the line that was cut off.
            self.say(N_("The last line of {log} (line {line}) was cut short while it was"
                     " written, so it is dropped; if it was a roll, type it again."),
                     log=self.book.path, line=torn)
        elif self.book.last_byte() not in (b"", b"\n"):
            # A whole last line without its newline: finish it before adding.
            self.book.append(b"\n")

    def _carry_on(self, story: collections.deque[str], torn: int | None) -> None:
        table, path = self.table, self.book.path
        header = table.header
        if header is None:
            new = self.given.header(None)
            self._repair(torn)
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
        self._repair(torn)
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
        from aces.record import prompt

        return prompt(request, self.table.state, self.narrator.voice)

    def _stopped(self) -> None:
        # Translators: a notice of "aces record" when it stops before the game
        # is over. {log}: the log's file.
        self.say(N_("Stopped. Every roll typed is saved in {log}; run the same command to go"
                 " on."), log=self.book.path)

