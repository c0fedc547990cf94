"""``aces class``: the live class, on the teacher's machine or a school's server.

Only the options are read here; the server is :mod:`aces.server`, imported
when the command runs, so that ``aces --help`` never loads the web stack.
"""

from __future__ import annotations

import typing as t

import click

from aces.cli._common import lang_option, reported, translations
from aces.cli._games import GAME_HELP, GameChoice, GameCommand
from aces.errors import OptionError, visible

if t.TYPE_CHECKING:
    from aces.classroom.database import Database
    from aces.classroom.transfer import Exported
    from aces.cli._games import Given

F = t.TypeVar("F", bound=t.Callable[..., t.Any])
R = t.TypeVar("R")

__all__ = ["classroom"]


@click.group("class")
@lang_option
@click.pass_context
def classroom(ctx: click.Context, lang: str | None) -> None:
    """The live class: groups record their games in a browser, and the projector
    pools the class against the exact odds as the dice fall."""
    if lang is not None:
        # ``aces class --lang nb serve DIR``: the command speaks that language.
        ctx.default_map = {name: _given(command, lang)
                           for name, command in classroom.commands.items()}


def _store_option(required: bool) -> t.Callable[[F], F]:
    return click.option(
        "--store", envvar="ACES_STORE", default=None, required=required, metavar="URL",
        help="The school's PostgreSQL, as postgresql://user:password@host/database (or"
             " ACES_STORE).")


def _school_setting(name: str, envvar: str, kind: click.ParamType[t.Any], default: float,
                    help: str) -> t.Callable[[F], F]:
    """A setting of the school's server (``--store``): from its option or its
    environment variable, as an operator's unit file sets them."""
    return click.option(name, envvar=envvar, type=kind, default=default, show_default=True,
                        help=help)


def _given(command: click.Command, lang: str) -> dict[str, t.Any]:
    """``--lang`` for a command, and for every command of a group."""
    given: dict[str, t.Any] = {"lang": lang}
    if isinstance(command, click.Group):
        given.update({name: _given(sub, lang) for name, sub in command.commands.items()})
    return given


@classroom.command("serve", cls=GameCommand, typed=True,
                   short_help="Serve a class in a browser.")
@click.argument("folder", metavar="DIR", required=False)
@_store_option(required=False)
@click.option("--host", envvar="ACES_HOST", default="0.0.0.0", show_default=True,
              help="The address to serve at; the default serves every network of this"
                   " machine, 127.0.0.1 this machine alone.")
@click.option("--port", envvar="ACES_PORT", type=click.IntRange(0, 65535), default=8000,
              show_default=True, help="The port to serve at (0: any free one).")
@click.option("--public-url", envvar="ACES_PUBLIC_URL", default=None, metavar="URL",
              help="With --store: the address pupils open, through the school's proxy, as"
                   " https://klasse.skolen.no (or ACES_PUBLIC_URL).")
@click.option("--trusted-proxy", "proxies", envvar="ACES_TRUSTED_PROXIES", multiple=True,
              metavar="ADDRESS",
              help="With --store: a reverse proxy whose X-Forwarded-For names the device;"
                   " may be given more than once (or ACES_TRUSTED_PROXIES, separated by"
                   " spaces).")
@click.option("--game", "game_name", type=GameChoice(), default=None, help=GAME_HELP)
@click.option("--max-groups", type=click.IntRange(1, 1000), default=100, show_default=True,
              help="The most groups that may join the class.")
@click.option("--max-projectors", type=click.IntRange(1, 1000), default=32, show_default=True,
              help="The most projectors (streams of the class) open at once.")
@_school_setting("--retention-days", "ACES_RETENTION_DAYS", click.IntRange(1, 3650), 30,
                 "With --store: days a closed class is kept before it is deleted (or"
                 " ACES_RETENTION_DAYS).")
@_school_setting("--idle-days", "ACES_IDLE_DAYS", click.IntRange(1, 3650), 14,
                 "With --store: days without a roll after which a class is closed (or"
                 " ACES_IDLE_DAYS).")
@_school_setting("--max-classes", "ACES_MAX_CLASSES", click.IntRange(1, 1000), 30,
                 "With --store: the most open classes one teacher may have (or"
                 " ACES_MAX_CLASSES).")
@_school_setting("--pool", "ACES_STORE_POOL", click.IntRange(1, 1000), 10,
                 "With --store: the most connections to the database this process opens"
                 " (or ACES_STORE_POOL).")
@_school_setting("--store-timeout", "ACES_STORE_TIMEOUT", click.FloatRange(0.1, 600), 5.0,
                 "With --store: seconds a request waits for the database before it is"
                 " answered 503 (or ACES_STORE_TIMEOUT).")
@lang_option
def serve(folder: str | None, store: str | None, host: str, port: int, public_url: str | None,
          proxies: tuple[str, ...], game_name: str | None, max_groups: int,
          max_projectors: int, retention_days: int, idle_days: int, max_classes: int,
          pool: int, store_timeout: float, lang: str | None, game_options: Given) -> None:
    """Serve a class whose groups record their games in a browser.

    Prints the address pupils open with the class's code and a QR code,
    and the teacher's private address of the projector. Every table of the
    class plays one set of rules: --game and the game's options, as aces
    play takes them. Each group's games go into its own log in DIR, an
    ordinary log for aces verify, replay and stats. --lang is the
    projector's first language. Ctrl-C stops the server; the same command
    on the same DIR serves the class again, where it stopped.

    With --store in place of DIR, serves every class of a school's
    PostgreSQL: each teacher makes classes at the address the operator gave
    them (aces class teacher add), and any number of these processes may
    serve the same database.
    """
    with reported(lang):
        chosen, catalog = translations(lang)
        from aces.classroom.service import Settings

        settings = Settings(groups=max_groups, streams=max_projectors)
        if (folder is None) == (store is None):
            # Translators: "aces class serve" with both DIR and --store, or neither.
            raise OptionError("aces class serve takes a folder (DIR) or --store, one of them")
        if store is not None:
            if game_name is not None or game_options:
                # Translators: "aces class serve --store" with --game: on a
                # school's server, each teacher chooses the game of a class.
                raise OptionError("with --store, each teacher chooses the game of a class as"
                                  " they make it; serve without --game and its options")
            from aces.classroom.database import StoreSettings
            from aces.classroom.school import SchoolSettings
            from aces.server.school import Listening, serve_school

            listening = Listening(host, port, public_url,
                                  tuple(part for given in proxies for part in given.split()))
            serve_school(store, listening, settings,
                         SchoolSettings(retention_days=retention_days, idle_days=idle_days,
                                        classes_per_teacher=max_classes, lang=chosen),
                         StoreSettings(pool=pool, timeout=store_timeout), catalog,
                         say=click.echo)
            return
        assert folder is not None
        from aces.cli._games import header_options
        from aces.games import game_named
        from aces.server.serve import serve as serving

        options = None
        if game_name is not None or game_options:
            options = header_options(game_named(game_name or "pot"), game_options, typed=True)
        serving(folder, host, port, game_name, options, chosen, settings, catalog,
                say=click.echo)


# -- The school's server ------------------------------------------------------------


def _with_database(store: str, work: t.Callable[[Database], t.Awaitable[R]]) -> R:
    """Run ``work`` on the school's database, opened (and migrated) for it."""
    import asyncio

    async def run() -> R:
        from aces.classroom.database import Database

        database = Database(store)
        await database.open()
        try:
            return await work(database)
        finally:
            await database.close()

    return asyncio.run(run())


@classroom.group("teacher", short_help="The teachers of a school's server.")
@lang_option
@click.pass_context
def teacher(ctx: click.Context, lang: str | None) -> None:
    """The teachers of a school's class server: each has a key, the address of
    their own page, where they make classes and see only their own."""
    if lang is not None:
        ctx.default_map = {name: {"lang": lang} for name in teacher.commands}


@teacher.command("add", short_help="Give a teacher a key.")
@click.argument("label", metavar="LABEL")
@click.option("--public-url", envvar="ACES_PUBLIC_URL", default=None, metavar="URL",
              help="The address pupils open, to print the teacher's whole address (or"
                   " ACES_PUBLIC_URL).")
@_store_option(required=True)
@lang_option
def teacher_add(label: str, public_url: str | None, store: str, lang: str | None) -> None:
    """Give a teacher a key: prints the address of their own page, to hand to
    them alone. LABEL names the teacher for the operator (initials or a
    room will do); it is never shown to pupils."""
    with reported(lang):
        _, catalog = translations(lang)
        from aces.classroom.teachers import add_teacher

        key = _with_database(store, lambda database: add_teacher(database, label))
        address = f"{(public_url or '').rstrip('/')}/teach/{key}"
        # Translators: "aces class teacher add": the teacher's private address.
        # {label}: the teacher, as the operator named them; {address}: the address.
        click.echo(catalog.gettext("The page of {label}, to give to them alone: {address}")
                   .format(label=visible(label), address=address))


@teacher.command("list", short_help="List the teachers.")
@_store_option(required=True)
@lang_option
def teacher_list(store: str, lang: str | None) -> None:
    """List the teachers of the school's server, with their open classes."""
    with reported(lang):
        _, catalog = translations(lang)
        from aces.classroom.teachers import teachers

        found = _with_database(store, teachers)
        for label, open_classes, all_classes in found:
            # Translators: "aces class teacher list": one teacher. {label}:
            # the teacher; {open}: their open classes; {count}: all of them.
            click.echo(catalog.ngettext("{label}: {count} class, open now: {open}",
                                        "{label}: {count} classes, open now: {open}",
                                        all_classes).format(
                label=visible(label), open=open_classes, count=all_classes))


@teacher.command("remove", short_help="Take a teacher's key away.")
@click.argument("label", metavar="LABEL")
@_store_option(required=True)
@lang_option
def teacher_remove(label: str, store: str, lang: str | None) -> None:
    """Take a teacher's key away: their page answers no more. Their classes
    stay, and are closed and deleted as any other."""
    with reported(lang):
        _, catalog = translations(lang)
        from aces.classroom.teachers import remove_teacher

        _with_database(store, lambda database: remove_teacher(database, label))
        # Translators: "aces class teacher remove": done. {label}: the teacher.
        click.echo(catalog.gettext("{label} has no key any more.").format(
            label=visible(label)))


@classroom.command("list", short_help="List the classes of a school's server.")
@_store_option(required=True)
@lang_option
def list_classes(store: str, lang: str | None) -> None:
    """List every class of the school's server: its number, code, teacher,
    groups and state, for aces class export."""
    with reported(lang):
        _, catalog = translations(lang)
        from aces.classroom.teachers import overview

        for number, code, label, groups, closed in _with_database(store, overview):
            # Translators: "aces class list": the state of an open class, and of
            # a closed one ({date}: when it was closed).
            state = (catalog.gettext("open") if closed is None
                     else catalog.gettext("closed {date}").format(date=closed))
            # Translators: "aces class list": one class. {number}: its number;
            # {code}: its code; {teacher}: its teacher; {count}: its groups;
            # {state}: "open" or "closed" and when.
            click.echo(catalog.ngettext("{number}  {code}  {teacher}: {count} group, {state}",
                                        "{number}  {code}  {teacher}: {count} groups, {state}",
                                        groups).format(
                number=number, code=code, teacher=visible(label or "-"), count=groups,
                state=state))


@classroom.command("export", short_help="Write a class of a school's server as its logs.")
@click.argument("name", metavar="CLASS")
@click.argument("folder", metavar="DIR")
@_store_option(required=True)
@lang_option
def export(name: str, folder: str, store: str, lang: str | None) -> None:
    """Write class CLASS (its number, or the code of an open class) of the
    school's server into the new folder DIR: each group's log as an ordinary
    log, byte for byte with its digests, for aces verify, replay and stats;
    aces class serve DIR goes on with the class."""
    with reported(lang):
        _, catalog = translations(lang)
        from pathlib import Path

        from aces.classroom.transfer import export_class, find_class

        async def work(database: Database) -> Exported:
            return await export_class(database, await find_class(database, name), Path(folder))

        done = _with_database(store, work)
        # Translators: "aces class export": done. {count}: the logs written;
        # {folder}: where.
        click.echo(catalog.ngettext("{count} log written into {folder}.",
                                    "{count} logs written into {folder}.",
                                    len(done.logs)).format(count=len(done.logs),
                                                           folder=folder))


@classroom.command("delete", short_help="Delete a class of a school's server now.")
@click.argument("name", metavar="CLASS")
@_store_option(required=True)
@lang_option
def delete(name: str, store: str, lang: str | None) -> None:
    """Delete class CLASS (its number, or the code of an open class) of the
    school's server now, with every log in it, without waiting for its
    retention: for a request to delete a pupil's data. Export it first if
    it is to be kept."""
    with reported(lang):
        _, catalog = translations(lang)
        from aces.classroom.teachers import delete_class
        from aces.classroom.transfer import find_class

        async def work(database: Database) -> str:
            return await delete_class(database, await find_class(database, name))

        code = _with_database(store, work)
        # Translators: "aces class delete": done. {code}: the class's code.
        click.echo(catalog.gettext("The class {code} is deleted, with every log in it.")
                   .format(code=code))


@classroom.command("import", short_help="Bring a laptop's class into a school's server.")
@click.argument("folder", metavar="DIR")
@click.option("--teacher", "label", required=True,
              help="The teacher whose class it becomes, as aces class teacher add named them.")
@_store_option(required=True)
@lang_option
def import_(folder: str, label: str, store: str, lang: str | None) -> None:
    """Bring the class that aces class serve DIR kept on a laptop into the
    school's server, as a class of the teacher named: every log is verified
    first, and the class comes whole, with its groups and their games."""
    with reported(lang):
        _, catalog = translations(lang)
        from pathlib import Path

        from aces.classroom.teachers import teacher_named
        from aces.classroom.transfer import import_class

        async def work(database: Database) -> tuple[int, str]:
            owner = await teacher_named(database, label)
            return await import_class(database, Path(folder), owner)

        number, code = _with_database(store, work)
        # Translators: "aces class import": done. {folder}: the folder;
        # {number}: the class's number on the server; {code}: its code.
        click.echo(catalog.gettext("The class of {folder} is class {number} on the server,"
                                   " with the code {code}.").format(
            folder=folder, number=number, code=code))
