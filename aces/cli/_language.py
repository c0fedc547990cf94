"""The command line in the user's language: our help texts, and click's own words.

Two kinds of text reach the user besides what a command prints:

* the help of each command and option, written in English in the code.
  :func:`translated` copies the command tree with every help text looked up
  in the package's catalog, so ``aces --lang nb replay --help`` is Norwegian.
  The texts are found by :func:`help_messages`, which the catalog tool
  calls, so every help text is a message to translate without a marker in
  the command modules;
* click's own messages ("Usage:", "Missing argument 'LOG'."...). Click
  wraps them in the standard library's global ``gettext`` function, which
  can only read compiled ``.mo`` files from disk, and this package keeps no
  ``.mo`` files. :func:`speaking` instead points click's ``_`` and
  ``ngettext`` at a dispatcher that asks the catalog chosen for this run
  (a context variable), falling back to the standard library's own
  function when none is chosen, so click behaves as before for anyone
  else. Click's messages are in our catalog (:mod:`aces.cli._click_messages`).

The language is chosen before click parses anything (:func:`requested`
finds ``--lang`` wherever it is on the line; else the locale decides), so
that the help and the usage errors speak it too.

>>> requested(["replay", "game.jsonl", "--lang", "nb"]), requested(["--lang=en", "play"])
('nb', 'en')
>>> requested(["replay", "--", "--lang"]) is None
True
"""

from __future__ import annotations

import contextlib
import contextvars
import copy
import gettext as stdlib_gettext
import importlib
import inspect
import os
import re
import sys
import typing as t
from pathlib import Path

import click
from babel.numbers import format_decimal

import aces
from aces import __version__
from aces.cli._click_messages import MISSING, NUMBER_NAMES, RENAMED, TYPE_METAVARS
from aces.cli._common import INTERRUPTED, reader_gone
from aces.errors import N_, QUOTES, OptionError, fill
from aces.i18n import babel_locale, languages, negotiate, translations

if t.TYPE_CHECKING:
    from collections.abc import Iterator, Mapping, Sequence


Gettext = t.Callable[[str], str]

#: The catalog of the command now running; ``None`` outside the aces CLI.
_CATALOG: contextvars.ContextVar[stdlib_gettext.NullTranslations | None] = (
    contextvars.ContextVar("aces_cli_catalog", default=None))
#: Click's modules that show messages; imported here so that none is patched late.
_CLICK_MODULES: t.Final = ("core", "exceptions", "parser", "types", "formatting",
                           "decorators", "termui", "utils", "_termui_impl")


def requested(args: Sequence[str]) -> str | None:
    """The value of ``--lang`` anywhere on the command line, before a ``--``."""
    found = None
    arguments = iter(args)
    for arg in arguments:
        if arg == "--":
            break
        if arg == "--lang":
            found = next(arguments, None)
        elif arg.startswith("--lang="):
            found = arg.partition("=")[2]
    return found


def chosen(args: Sequence[str], environ: Mapping[str, str]) -> str:
    """The language of this run; the locale's when ``--lang`` names a language
    the package does not offer (:meth:`AcesGroup.main` then says so, in that
    language)."""

    try:
        return negotiate(requested(args), environ)
    except OptionError:
        return negotiate(None, environ)


def refused(args: Sequence[str]) -> OptionError | None:
    """The error for a ``--lang`` that names no language offered, if it does."""

    lang = requested(args)
    if lang is None:
        return None
    try:
        negotiate(lang, {})
    except OptionError as error:
        return error
    return None


# -- Our help texts ---------------------------------------------------------------------


def commands(command: click.Command) -> Iterator[click.Command]:
    """A command and all its subcommands, depth first, in name order."""
    yield command
    if isinstance(command, click.Group):
        for name in sorted(command.commands):
            yield from commands(command.commands[name])


def help_messages(root: click.Command) -> Iterator[tuple[str, str, str | None]]:
    """Every help text of the command line: the text, where it is shown, and
    the module that defines it (a path from the top of the repository; ``None``
    for a command defined outside the package, see :func:`_source`).

    The catalog tool adds these to the template, each with a comment for
    translators saying which command or option it helps with.

    >>> from aces.cli import cli
    >>> ("Language of the output, one of: {languages} (default: from the locale, else en).",
    ...  "the help of --lang of aces replay; {languages}: the languages offered",
    ...  "aces/cli/logs.py") in list(help_messages(cli))
    True
    """
    for command in commands(root):
        name = "aces" if command is root else f"aces {command.name}"
        path = _source(command)
        for attr in ("help", "short_help", "epilog"):
            text = getattr(command, attr)
            if text:
                yield inspect.cleandoc(text), f"the help of {name}", path
        for param in command.params:
            text = getattr(param, "help", None)
            if text:
                where = f"the help of {param.opts[0]} of {name}"
                if param.name == "lang":
                    where += "; {languages}: the languages offered"
                yield text, where, path


def _source(command: click.Command) -> str | None:
    """The module that defines a command, as a path from the top of the repository;
    ``None`` when its callback is not the package's own.

    The callback is unwrapped first: ``@click.pass_context`` wraps it in a
    function of click's, whose file is wherever click is installed (a venv
    inside the repository or anywhere else), which is no place for a
    translator to look and no location that stays the same between machines.

    >>> from aces.cli import cli
    >>> _source(cli), _source(cli.commands["replay"])
    ('aces/cli/__init__.py', 'aces/cli/logs.py')
    >>> _source(click.Command("bare")) is None
    True
    """

    if command.callback is None:
        return None
    source = inspect.getsourcefile(inspect.unwrap(command.callback))
    package = Path(aces.__file__).resolve().parent
    if source is None or not Path(source).resolve().is_relative_to(package):
        return None
    return Path(source).resolve().relative_to(package.parent).as_posix()


def translated(root: click.Command, gettext: Gettext, lang: str | None = None) -> click.Command:
    """A copy of the command tree whose help texts are in the catalog's language,
    with the numbers its help shows written as ``lang`` writes them."""
    tree = copy.deepcopy(root)
    for command in commands(tree):
        if command.options_metavar:
            command.options_metavar = gettext(command.options_metavar)
        if isinstance(command, click.Group) and command.subcommand_metavar:
            command.subcommand_metavar = gettext(command.subcommand_metavar)
        for attr in ("help", "short_help", "epilog"):
            text = getattr(command, attr)
            if text:
                setattr(command, attr, gettext(inspect.cleandoc(text)))
        for param in command.params:
            text = getattr(param, "help", None)
            if text:
                param.help = gettext(text)
                if param.name == "lang":
                    param.help = param.help.format(languages=_offered())
            # Every placeholder aces names itself ("LOG", "NAMES|N", "--lang"'s) is a
            # message, so a usage line and click's "missing argument" read in one language.
            if param.metavar:
                param.metavar = gettext(param.metavar)
            _name_the_value(param, gettext)
            _name_the_number(param, gettext)
            if lang is not None:
                _show_the_default(param, lang)
    return tree


def _offered() -> str:
    """The languages offered, as ``--lang`` takes them: ``en, nb, nn``."""

    return ", ".join(languages())


def _name_the_value(param: click.Parameter, gettext: Gettext) -> None:
    """Give an option the translated name of its kind of value ("--seed HELTALL")."""

    if (isinstance(param, click.Option) and param.metavar is None and not param.is_flag
            and param.nargs == 1 and param.type.name in TYPE_METAVARS):
        param.metavar = gettext(TYPE_METAVARS[param.type.name])


def _name_the_number(param: click.Parameter, gettext: Gettext) -> None:
    """Give a number's type its translated name, for click's error about a value
    that is not one ("'x' er ikke et gyldig heltall"); after :func:`_name_the_value`,
    which finds the metavar by the English name."""

    name = NUMBER_NAMES.get(param.type.name)
    if name is not None:
        # The type may be one of click's shared instances (click.INT): a copy.
        param.type = copy.copy(param.type)
        param.type.name = gettext(name)


class _ShownInt(int):
    """A whole number that shows itself as a language writes it; click shows a
    default with ``str`` and passes it to the command as a plain ``int``."""

    text: str

    def __str__(self) -> str:
        return self.text

    # The command reference (sphinx-click) shows a default with ``repr``.
    __repr__ = __str__


class _ShownFloat(float):
    """A decimal number that shows itself as a language writes it (see :class:`_ShownInt`)."""

    text: str

    def __str__(self) -> str:
        return self.text

    __repr__ = __str__


#: The options whose number is a name, not a quantity: never grouped ("8 000").
NAMES: t.Final = frozenset({"port"})


def _show_the_default(param: click.Parameter, lang: str) -> None:
    """Show a number's default as the language writes it ("[standard: 0,99]",
    "100\xa0000"), as every other number aces prints, not as Python does.

    >>> option = click.Option(["--quantile"], default=0.99, show_default=True)
    >>> _show_the_default(option, "nb")
    >>> str(option.default), repr(option.default), float(option.default) == 0.99
    ('0,99', '0,99', True)

    A number that names something, as a port does, is shown as written:

    >>> port = click.Option(["--port"], default=8000, show_default=True)
    >>> _show_the_default(port, "nb")
    >>> str(port.default)
    '8000'
    """

    default = param.default
    if (not isinstance(param, click.Option) or param.show_default is not True
            or param.name in NAMES or isinstance(default, bool)
            or not isinstance(default, (int, float))):
        return
    shown: _ShownInt | _ShownFloat = (_ShownInt(default) if isinstance(default, int)
                                      else _ShownFloat(default))
    shown.text = format_decimal(default, locale=babel_locale(lang))
    param.default = shown


# -- Click's own messages ------------------------------------------------------------------


class _Message(str):
    """One of click's messages, translated: its ``format`` quotes a ``{name!r}``
    in the language's quotation marks, as every message of aces does
    (:func:`aces.errors.fill`)."""

    __slots__ = ()

    def format(self, *args: object, **kwargs: object) -> str:
        return fill(str(self), current(), **kwargs) if not args else super().format(*args)


def _gettext(message: str) -> str:
    catalog = _CATALOG.get()
    if catalog is None:
        return stdlib_gettext.gettext(message)
    return _Message(catalog.gettext(message))


def _ngettext(singular: str, plural: str, n: int) -> str:
    catalog = _CATALOG.get()
    if catalog is None:
        return stdlib_gettext.ngettext(singular, plural, n)
    ours = RENAMED.get((singular, plural))
    if ours is None:
        return _Message(catalog.ngettext(singular, plural, n))
    # Translated under our name; untranslated (English), click's own words.
    text = catalog.ngettext(*ours, n)
    return stdlib_gettext.ngettext(singular, plural, n) if text in ours else _Message(text)


def _install() -> None:
    """Point click's ``_`` and ``ngettext`` at the dispatchers (once; idempotent)."""

    for name in _CLICK_MODULES:
        module = importlib.import_module(f"click.{name}")
        if getattr(module, "_", None) is stdlib_gettext.gettext:
            module._ = _gettext  # type: ignore[attr-defined]
        if getattr(module, "ngettext", None) is stdlib_gettext.ngettext:
            module.ngettext = _ngettext  # type: ignore[attr-defined]


@contextlib.contextmanager
def speaking(catalog: stdlib_gettext.NullTranslations) -> Iterator[None]:
    """Let click's own messages speak the catalog's language while the block runs."""
    _install()
    token = _CATALOG.set(catalog)
    try:
        yield
    finally:
        _CATALOG.reset(token)


def current() -> Gettext:
    """The translation function of the command now running (English outside one)."""
    catalog = _CATALOG.get()
    return stdlib_gettext.gettext if catalog is None else catalog.gettext


class AcesGroup(click.Group):
    """The ``aces`` group: chooses the language first, then runs in it."""

    def invoke(self, ctx: click.Context) -> t.Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            # ``aces play | head``: whoever read the output has enough.
            reader_gone()

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             windows_expand_args: bool = True, **extra: t.Any) -> t.Any:
        arguments = list(sys.argv[1:] if args is None else args)
        lang = chosen(arguments, os.environ)
        catalog = translations(lang)
        error = refused(arguments)
        if error is not None:
            # Before click, so that even ``--help`` is refused: a usage error,
            # in the language the locale asks for.
            if not standalone_mode:
                raise error
            click.echo(f"aces: {error.render(catalog.gettext, catalog.ngettext)}", err=True)
            sys.exit(error.exit_code)
        tree = translated(self, catalog.gettext, lang)
        with speaking(catalog):
            if not standalone_mode:
                return click.Group.main(tree, arguments, prog_name, complete_var, False,
                                        windows_expand_args=windows_expand_args, **extra)
            try:
                code = click.Group.main(tree, arguments, prog_name, complete_var, False,
                                        windows_expand_args=windows_expand_args, **extra)
            except click.UsageError as exc:
                # One line, like every other error: what is wrong and where
                # to read more, without click's usage block.
                command = (exc.ctx.command_path if exc.ctx
                           else _command_path(tree, arguments, prog_name or "aces"))
                click.echo(f"aces: {usage_error(usage_reason(exc), command)}", err=True)
                sys.exit(exc.exit_code)
            except click.ClickException as exc:
                exc.show()
                sys.exit(exc.exit_code)
            except click.Abort as exc:
                if isinstance(exc.__cause__, KeyboardInterrupt):
                    # Ctrl-C in a command, which click has turned into an
                    # abort, having ended the line already: it ends as
                    # Ctrl-C does anywhere (see aces.cli.main).

                    sys.exit(INTERRUPTED)
                click.echo(current()("Aborted!"), err=True)
                sys.exit(1)
            sys.exit(code if isinstance(code, int) else 0)


def usage_reason(exc: click.UsageError) -> str:
    """What a usage error says, in the run's language: click's own message,
    except for a required parameter left out.

    Click puts "Missing option" and the option's name side by side in
    English order ("Missing option '--players'."); aces says that in one
    message of its own per kind of parameter (see
    :data:`aces.cli._click_messages.MISSING`), so that Norwegian can say
    «valget «--players» mangler». The name is quoted as click quotes it, and
    whatever click adds after it (the choices of a value) follows as click
    has it.

    >>> from aces.cli import cli
    >>> with click.Context(cli) as ctx:
    ...     usage_reason(click.MissingParameter(ctx=ctx, param=click.Option(["--players"])))
    "Missing option '--players'."
    """
    if not isinstance(exc, click.MissingParameter):
        return exc.format_message()

    param = exc.param
    hint = exc.param_hint
    if hint is None and param is not None:
        hint = param.get_error_hint(exc.ctx)
    if hint is not None and not isinstance(hint, str):
        hint = " / ".join(repr(name) for name in hint)  # several names, as click joins them
    if not hint:
        return exc.format_message()
    kind = exc.param_type or (param.param_type_name if param is not None else "parameter")
    said = current()(MISSING.get(kind, MISSING["parameter"])).format(name=hint)
    extra = ". ".join(text for text in (
        exc.message,
        param.type.get_missing_message(param=param, ctx=exc.ctx) if param is not None else None,
    ) if text)
    return f"{said}. {extra}" if extra else f"{said}."


def usage_error(reason: str, command: str) -> str:
    """A usage error and where to read more, as one sentence of the language.

    ``reason`` is click's, which may end in a full stop of its own (click
    adds one to some messages, whatever the language); it is left out, so
    that the translation alone decides how the sentence is punctuated.

    Click quotes some values itself, outside its messages (an option's
    name, the choices of a value: ``'--format'``, ``'rst'``); they are
    quoted again in the language's quotation marks.

    >>> usage_error("No such option '--x'.", "aces play")
    "No such option '--x'. Try 'aces play --help' for help."
    """

    gettext = current()
    quotes = gettext(QUOTES)
    if quotes != QUOTES:
        reason = re.sub(r"'([^'\s][^']*)'", lambda m: quotes.format(text=m.group(1)), reason)
    return gettext(_USAGE_ERROR).format(
        reason=reason.removesuffix("."), command=command, option="--help")


# Translators: a usage error on one line. {reason}: click's error, without a
# full stop at the end; {command}: the command, like "aces replay"; {option}:
# its help option, "--help".
_USAGE_ERROR: t.Final = N_("{reason}. Try '{command} {option}' for help.")


def _command_path(root: click.Command, args: Sequence[str], prog: str) -> str:
    """The command a usage error is about, when click does not say.

    Click raises some parsing errors of a command's options (a value left
    out: ``aces play --players``) without their context; the command is
    then the first argument that names one.

    >>> from aces.cli import cli
    >>> _command_path(cli, ["--lang", "nb", "play", "--players"], "aces")
    'aces play'
    >>> _command_path(cli, ["--lang"], "aces")
    'aces'
    """
    names = root.commands if isinstance(root, click.Group) else {}
    name = next((arg for arg in args if arg in names), None)
    return prog if name is None else f"{prog} {name}"


def _show_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    # Click's own message, looked up now rather than when the option was made.
    click.echo(current()("%(prog)s, version %(version)s")
               % {"prog": ctx.find_root().info_name, "version": __version__})
    ctx.exit()


def version_option(function: t.Callable[..., t.Any]) -> t.Callable[..., t.Any]:
    """``--version``, saying so in the language of the run."""
    return click.option("--version", is_flag=True, expose_value=False, is_eager=True,
                        callback=_show_version,
                        help="Show the version and exit.")(function)
