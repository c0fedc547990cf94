"""Click still says every message our catalog translates for it, in the same words."""

from __future__ import annotations

import typing as t
from pathlib import Path

import click
import pytest
from babel.messages.extract import extract_from_file

from aces.cli import cli
from aces.cli._click_messages import (
    MESSAGES,
    METAVARS,
    MISSING,
    NUMBER_NAMES,
    PLACEHOLDERS,
    RENAMED,
    TYPE_METAVARS,
)
from aces.cli._language import commands, translated, usage_reason
from aces.i18n import translations

#: A message click looks up through a variable (``_(extra["required"])``),
#: so extraction does not find it.
DYNAMIC: t.Final = ("required",)


def clicks_messages() -> set[str | tuple[str, ...]]:
    """Every message click's own source wraps in gettext."""
    found: set[str | tuple[str, ...]] = set()
    for source in Path(click.__file__).parent.glob("*.py"):
        for _, message, _, _ in extract_from_file(
                "python", str(source), keywords={"_": None, "ngettext": (1, 2)}):
            found.add(message)
    return found


def test_click_still_has_every_message_we_translate() -> None:
    theirs = clicks_messages()
    ours_to_theirs = {ours: theirs for theirs, ours in RENAMED.items()}
    for message in MESSAGES:
        if message in DYNAMIC:
            continue
        assert ours_to_theirs.get(t.cast("tuple[str, str]", message), message) in theirs, message


def test_every_message_is_translated_to_norwegian() -> None:
    nb = translations("nb")
    for message in MESSAGES:
        if isinstance(message, tuple):
            assert nb.ngettext(*message, 1) != message[0], message
            assert nb.ngettext(*message, 2) != message[1], message
        else:
            assert nb.gettext(message) != message, message


def test_the_default_metavars_are_clicks() -> None:
    assert (click.Command("x").options_metavar, click.Group("y").subcommand_metavar) == METAVARS


def test_the_names_of_values_are_clicks_types() -> None:
    types = [click.STRING, click.INT, click.IntRange(0), click.FLOAT, click.FloatRange(0),
             click.File(), click.Path(), click.BOOL]
    names = {kind.name for kind in types}
    assert names <= set(TYPE_METAVARS)
    for name, metavar in TYPE_METAVARS.items():
        assert metavar == name.upper()
    nb = translations("nb")
    for metavar in (*METAVARS, *TYPE_METAVARS.values()):
        assert nb.gettext(metavar) != metavar, metavar


def test_the_names_of_numbers_are_clicks_number_types() -> None:
    numbers: list[click.ParamType[t.Any]] = [click.INT, click.IntRange(0), click.FLOAT,
                                             click.FloatRange(0)]
    assert {kind.name for kind in numbers} == set(NUMBER_NAMES)
    nb = translations("nb")
    for name in NUMBER_NAMES.values():
        assert nb.gettext(name) != name, name


def test_every_placeholder_aces_names_is_translated() -> None:
    """A placeholder left in English would stand in a Norwegian usage line and in
    click's "missing argument" error ("manglar argumentet «LOG»")."""
    nn = translations("nn")
    placeholders = {p.metavar for command in commands(cli) for p in command.params
                    if p.metavar and p.name != "lang"}
    assert placeholders <= {*PLACEHOLDERS, *TYPE_METAVARS.values()}
    shown = {p.metavar for command in commands(translated(cli, nn.gettext))
             for p in command.params if p.metavar}
    assert {"LOGG", "LOGG...", "NAMN|N"} <= shown
    assert not {"LOG", "LOG...", "NAMES|N"} & shown


@pytest.mark.parametrize("kind", sorted(MISSING))
def test_a_missing_parameter_is_said_in_clicks_english_words(kind: str) -> None:
    """Aces says click's "Missing option '--players'." in its own message, so that
    Norwegian can put the name first; in English the words stay click's."""
    parameters: list[click.Parameter] = (
        [click.Argument(["log"], metavar="LOG")] if kind == "argument" else
        [click.Option(["--players"]), click.Option(["--game"], type=click.Choice(["a", "b"]))])
    with click.Context(cli) as ctx:
        for parameter in parameters:
            for error in (click.MissingParameter(ctx=ctx, param=parameter, param_type=kind),
                          click.MissingParameter("Say so.", ctx=ctx, param=parameter,
                                                 param_type=kind),
                          click.MissingParameter(ctx=ctx, param_hint=["-p", "--players"],
                                                 param_type=kind)):
                assert usage_reason(error) == error.format_message()


def test_a_missing_parameter_is_said_name_first_in_norwegian() -> None:
    from aces.cli._language import speaking

    with speaking(translations("nn")), click.Context(cli) as ctx:
        error = click.MissingParameter(ctx=ctx, param=click.Option(["--players"]))
        assert usage_reason(error) == "valet '--players' manglar."
