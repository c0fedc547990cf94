"""The options of the games, on the commands that begin games.

``aces play``, ``aces record`` and ``aces simulate`` each take, beside
their own options, those that every registered game declares
(:class:`aces.games.Option`): ``--finish`` and ``--chips`` for Aces in the
Pot, ``--dice-each`` and the threes for the five-dice game, and whatever a
game registered later brings. A :class:`GameCommand` reads them from the
registry whenever its options are asked for, so none is written into a
command, and the help, the parsing and the catalog all see the same ones.
"""

from __future__ import annotations

import typing as t

import click

from aces.errors import OptionError
from aces.games import declared

if t.TYPE_CHECKING:
    from collections.abc import Mapping

    from aces.games import Option
    from aces.rules import Decider, OptionValue

__all__ = ["GAME_HELP", "GameChoice", "GameCommand", "Given", "header_options"]

#: The game options given on a command line, by flag (``--chips``); only
#: those given are there.
Given: t.TypeAlias = "dict[str, OptionValue]"


#: The help of ``--game``: each game by its name, with the value that
#: chooses it in brackets, as the finishes are named («sluttspelet «siste
#: sjetong» (last-chip)»), so that no value stands in a sentence as a noun.
GAME_HELP: t.Final = "Which game: Aces in the Pot (pot) or Aces, the five-dice game (five-dice)."


class GameChoice(click.Choice[str]):
    """What ``--game`` takes: one of the games registered when the command
    line is read or its help shown, not when the module was imported, so
    that a game registered later (the test suite's third game) is offered
    too. The built-in games are named without loading their rules
    (:func:`aces.games.declared`), so ``aces --help`` stays quick.
    """

    def __init__(self) -> None:
        super().__init__(())

    @property
    def choices(self) -> tuple[str, ...]:
        return tuple(sorted(declared()))

    @choices.setter
    def choices(self, value: tuple[str, ...]) -> None:
        """Click sets the choices once, when the type is made: they are read instead."""


def _click_option(option: Option) -> click.Option:
    """The click option of a game's option."""
    if option.takes == "flag":
        return click.Option([option.flag], is_flag=True, default=False, help=option.help)
    kind: click.ParamType[t.Any] = (click.Choice(option.choices) if option.takes == "choice"
                             else click.IntRange(min=1))
    return click.Option([option.flag], type=kind, default=None, help=option.help)


class GameCommand(click.Command):
    """A command that begins games: its own options, and after ``--game``
    the options every registered game declares.

    The callback gets the game options given as one argument,
    ``game_options`` (a :data:`Given`), to be checked against the game
    chosen by :func:`header_options`. ``typed``: the dice are typed in
    (``aces record``), so options for drawn dice are not offered.
    """

    def __init__(self, *args: t.Any, typed: bool = False, **kwargs: t.Any) -> None:
        self._typed = typed
        self._declared: tuple[Option, ...] | None = None
        self._games: list[click.Option] = []
        self._params: list[click.Parameter] = []
        super().__init__(*args, **kwargs)

    @property
    def params(self) -> list[click.Parameter]:
        """The command's own options, with the games' after ``--game``.

        One list, the same object every time (click appends its help option
        to it and takes it off again); the games' part of it is made again
        only when a game is registered or taken away, so that what is done
        to the options (their help translated) stays.
        """

        options = tuple(option for options in declared().values() for option in options
                        if not (self._typed and option.drawn_only))
        if options != self._declared:
            own = [param for param in self._params
                   if not any(param is option for option in self._games)]
            # One option a flag, should two games share one.
            self._games = [_click_option(option) for option
                           in {option.flag: option for option in options}.values()]
            self._declared = options
            at = next(i for i, param in enumerate(own) if param.name == "game_name") + 1
            self._params[:] = [*own[:at], *self._games, *own[at:]]
        return self._params

    @params.setter
    def params(self, value: list[click.Parameter]) -> None:
        self._params = list(value)
        self._declared = None

    def invoke(self, ctx: click.Context) -> t.Any:
        given: Given = {}
        for param in self._games:
            value = ctx.params.pop(param.name)
            if value is not None and value is not False:
                given[param.opts[0]] = value
        ctx.params["game_options"] = given
        return super().invoke(ctx)


def header_options(game: Decider[t.Any], given: Mapping[str, OptionValue], *,
                   typed: bool = False) -> dict[str, OptionValue]:
    """The options of a header of ``game``, from the game options given by flag.

    :raises ~aces.errors.OptionError: for an option the game does not have
        (named, rather than silently ignored), one given without the option
        it needs, or, with dice ``typed`` in, one for drawn dice only.
    """

    own = {option.flag: option for option in declared().get(game.name, ())}
    options: dict[str, OptionValue] = {}
    for flag, value in given.items():
        option = own.get(flag)
        if option is None:
            raise OptionError("{option} is not an option of the game {game}",
                              option=flag, game=game.name)
        if option.needs is not None and option.needs[0] not in given:
            raise OptionError(option.needs[1])
        if typed and option.drawn_only is not None:
            raise OptionError(option.drawn_only)
        options[option.key] = value
    return options
