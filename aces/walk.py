"""The one reader of logs: a checked fold of events through the rules.

:func:`walk` folds each game of a log through its game's ``evolve``, and
re-runs ``decide`` on every recorded roll: a consequence the rules would
not give, a roll by the wrong player, a die out of range, each stops the
walk at that line. Every consumer (verification, narration, statistics)
is a loop over the :class:`Step` values it yields, so nothing is ever
narrated or counted past a bad event.
"""

from __future__ import annotations

import typing as t

import msgspec

from aces.errors import LogError, OptionError, Plural, RollError
from aces.events import GameStarted, Rolled
from aces.rules import Game, Roll, game_named

if t.TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from aces.events import Event
    from aces.log import Record

_ENCODER: t.Final = msgspec.json.Encoder()
# Translators: an error of a log. {player}: who should roll; {expected}: the
# dice that player holds and must roll; {count}: the dice in the log's roll.
_WRONG_COUNT: t.Final = Plural("{player} rolls {expected} die here, not {count}",
                               "{player} rolls {expected} dice here, not {count}",
                               by="expected")


class Step(t.NamedTuple):
    """An event that fits the rules, with the state it leads to."""

    line: int
    event: Event
    #: The game's state after ``event``.
    state: t.Any
    game: Game[t.Any]


def walk(
    records: Iterable[Record], source: str, *, allow_unfinished: bool = False
) -> Iterator[Step]:
    """Yield every event of the log once it is known to follow the rules.

    Raises :class:`~aces.errors.LogError` at the first line that does not.
    A last game that stops before it is over is an error too, unless
    ``allow_unfinished`` (a game still being recorded).
    """
    records = iter(records)
    record = next(records, None)
    while record is not None:
        header = record.event
        if not isinstance(header, GameStarted):
            raise LogError(source, record.line, "a {type} event cannot follow a finished game;"
                           " a new game must begin with game_started", type=_tag(header))
        try:
            game = game_named(header.game)
            state = game.start(header)
        except OptionError as exc:
            raise LogError(source, record.line, "{reason}", reason=exc) from None
        yield Step(record.line, header, state, game)
        last_line = record.line
        while (request := game.next_roll(state)) is not None:
            record = next(records, None)
            if record is None:
                if allow_unfinished:
                    return
                raise LogError(source, last_line, "the log ends before the game is over:"
                               " {player} should roll next", player=request.player)
            last_line = record.line
            roll = record.event
            if not isinstance(roll, Rolled):
                raise LogError(source, record.line, "{player} should roll here, but the log has"
                               " a {type} event", player=request.player, type=_tag(roll))
            _check_roll(roll, request.player, request.dice, request.stage, source, record.line)
            try:
                expected = game.decide(state, Roll(roll.dice, roll.to))
            except (OptionError, RollError) as exc:
                raise LogError(source, record.line, "{reason}", reason=exc) from None
            if expected[0] != roll:
                raise LogError(source, record.line, "the rules give {expected} here, not {found}",
                               expected=_show(expected[0]), found=_show(roll))
            state = game.evolve(state, roll)
            yield Step(record.line, roll, state, game)
            for consequence in expected[1:]:
                record = next(records, None)
                if record is None:
                    # A log being written may be read between a roll and its
                    # consequences: that too is a game still being recorded.
                    if allow_unfinished:
                        return
                    raise LogError(source, last_line, "the log ends before the roll is"
                                   " settled: {expected} comes next",
                                   expected=_show(consequence))
                last_line = record.line
                if record.event != consequence:
                    raise LogError(source, record.line, "the rules give {expected} here,"
                                   " not {found}", expected=_show(consequence),
                                   found=_show(record.event))
                state = game.evolve(state, consequence)
                yield Step(record.line, consequence, state, game)
        record = next(records, None)


def _check_roll(roll: Rolled, player: str, dice: int, stage: str, source: str, line: int) -> None:
    if roll.player != player or roll.stage != stage:
        # Translators: an error of a log. {player} and {stage}: who should
        # roll and in which stage of the game (opening, turn or try); {found}
        # and {found_stage}: the roll the log has instead.
        raise LogError(source, line, "{player} should roll here ({stage}), not {found}"
                       " ({found_stage})", player=player, stage=stage, found=roll.player,
                       found_stage=roll.stage)
    if len(roll.dice) != dice:
        raise LogError(source, line, _WRONG_COUNT, player=player, expected=dice,
                       count=len(roll.dice))
    for value in roll.dice:
        if not 1 <= value <= 6:
            raise LogError(source, line, "{value} is not a face of a die (1 to 6)", value=value)


def _tag(event: Event) -> str:
    return t.cast("str", type(event).__struct_config__.tag)


def _show(event: Event) -> str:
    return _ENCODER.encode(event).decode()
