"""The one reader of logs: a checked fold of events through the rules.

:func:`walk` folds each game of a log through its game's ``evolve``, and
re-runs ``decide`` on every recorded roll: a consequence the rules would
not give, a roll by the wrong player, a die out of range, each stops the
walk at that line. Every consumer (verification, narration, statistics)
is a loop over the :class:`Step` values it yields, so nothing is ever
narrated or counted past a bad event.

A ``roll_undone`` takes back the last roll of the game still standing:
the walk keeps the state before each roll of the current game, and the
step of the undo carries the state from before the roll it cancels.
"""

from __future__ import annotations

import collections
import typing as t

import msgspec

from aces.errors import N_, AcesError, LogError, OptionError, Plural, RollError
from aces.events import GameStarted, Rolled, RollUndone
from aces.log import Reader, shorten
from aces.rules import Game, Roll, game_named

if t.TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from aces.events import Event
    from aces.log import Record

#: How many rolls of one game an undo can reach back: far more than a
#: table ever takes back, few enough that a hostile log costs little memory.
UNDO_DEPTH: t.Final = 1000

_ENCODER: t.Final = msgspec.json.Encoder()
_FACES: t.Final = frozenset(range(1, 7))
#: The longest event quoted in an error.
_QUOTE: t.Final = 200
_tuple_new: t.Final = tuple.__new__
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


#: A roll of the current game that an undo may still take back: its line,
#: the roll, and the game's state before it.
Standing = tuple[int, Rolled, t.Any]


def walk(
    records: Iterable[Record], source: str, *, allow_unfinished: bool = False
) -> Iterator[Step]:
    """Yield every event of the log once it is known to follow the rules.

    Raises :class:`~aces.errors.LogError` at the first line that does not.
    A last game that stops before it is over is an error too, unless
    ``allow_unfinished`` (a game still being recorded).
    """
    # A reader hands over plain (line, event) pairs, cheaper than records.
    pairs = records.pairs() if type(records) is Reader else iter(records)
    new = _tuple_new
    record = next(pairs, None)
    while record is not None:
        line, header = record
        if type(header) is not GameStarted:
            raise LogError(source, line, "a {type} event cannot follow a finished game;"
                           " a new game must begin with game_started", type=_tag(header))
        try:
            game = game_named(header.game)
            state = game.start(header)
        except OptionError as exc:
            raise LogError(source, line, "{reason}", reason=_bounded(exc)) from None
        yield new(Step, (line, header, state, game))
        next_roll, decide, evolve = game.next_roll, game.decide, game.evolve
        standing: collections.deque[Standing] = collections.deque(maxlen=UNDO_DEPTH)
        last_line = line
        while True:
            request = next_roll(state)
            record = next(pairs, None)
            if record is None:
                if request is None or allow_unfinished:
                    return
                raise LogError(source, last_line, "the log ends before the game is over:"
                               " {player} should roll next", player=shorten(request.player))
            line, event = record
            last_line = line
            kind = type(event)
            if kind is not Rolled:
                if kind is RollUndone:
                    state = _undo(standing, t.cast("RollUndone", event), source, line)
                    yield new(Step, (line, event, state, game))
                    continue
                if request is None:
                    break
                raise LogError(source, line, "{player} should roll here, but the log has"
                               " a {type} event", player=shorten(request.player),
                               type=_tag(event))
            if request is None:
                break
            roll: Rolled = event  # type: ignore[assignment]  # checked above, for free
            player, count, stage = request
            dice = roll.dice
            if not (roll.player == player and roll.stage == stage and len(dice) == count
                    and _FACES.issuperset(dice)):
                _refuse_roll(roll, player, count, stage, source, line)
            try:
                expected = decide(state, Roll(dice, roll.to))
            except (OptionError, RollError) as exc:
                raise LogError(source, line, "{reason}", reason=_bounded(exc)) from None
            consequences = iter(expected)
            if next(consequences) != roll:
                raise LogError(source, line, "the rules give {expected} here, not {found}",
                               expected=_show(expected[0]), found=_show(roll))
            standing.append((line, roll, state))
            state = evolve(state, roll)
            yield new(Step, (line, roll, state, game))
            for consequence in consequences:
                record = next(pairs, None)
                if record is None:
                    # A log being written may be read between a roll and its
                    # consequences: that too is a game still being recorded.
                    if allow_unfinished:
                        return
                    raise LogError(source, last_line, "the log ends before the roll is"
                                   " settled: {expected} comes next",
                                   expected=_show(consequence))
                line, event = record
                last_line = line
                if event is not consequence and event != consequence:
                    raise LogError(source, line, "the rules give {expected} here,"
                                   " not {found}", expected=_show(consequence),
                                   found=_show(event))
                state = evolve(state, consequence)
                yield new(Step, (line, consequence, state, game))


def _undo(standing: collections.deque[Standing], undo: RollUndone, source: str,
          line: int) -> t.Any:
    """The state before the roll ``undo`` takes back, once it is the right one."""
    if not standing:
        # Translators: an error of a log. {depth}: how many rolls back an
        # undo may reach; keep roll_undone as it is.
        raise LogError(source, line, "roll_undone, but no roll of this game is left to take"
                       " back (an undo reaches back at most {depth} rolls)", depth=UNDO_DEPTH)
    undoes, roll, before = standing[-1]
    expected = RollUndone(undoes=undoes, player=roll.player, dice=roll.dice, to=roll.to)
    if undo != expected:
        raise LogError(source, line, "the rules give {expected} here, not {found}",
                       expected=_show(expected), found=_show(undo))
    standing.pop()
    return before


#: The stages of a game by the names a log gives them, in words to translate.
_STAGES: t.Final = {
    # Translators: in an error of a log, the stage a roll belongs to: the
    # opening, where everyone rolls to see who starts.
    "opening": N_("opening"),
    # Translators: in an error of a log, the stage a roll belongs to: a
    # player's turn in normal play.
    "turn": N_("turn"),
    # Translators: in an error of a log, the stage a roll belongs to: a try
    # for the pot (three rolls without a six).
    "try": N_("try"),
}


def _stage(name: str) -> AcesError | str:
    """A stage of the game in words of the user's language."""
    words = _STAGES.get(name)
    return shorten(name) if words is None else AcesError(words)


def _refuse_roll(roll: Rolled, player: str, dice: int, stage: str, source: str,
                 line: int) -> t.NoReturn:
    if roll.player != player or roll.stage != stage:
        # Translators: an error of a log. {player} and {stage}: who should
        # roll and in which stage of the game (opening, turn or try); {found}
        # and {found_stage}: the roll the log has instead.
        raise LogError(source, line, "{player} should roll here ({stage}), not {found}"
                       " ({found_stage})", player=shorten(player), stage=_stage(stage),
                       found=shorten(roll.player), found_stage=_stage(roll.stage))
    if len(roll.dice) != dice:
        raise LogError(source, line, _WRONG_COUNT, player=shorten(player), expected=dice,
                       count=len(roll.dice))
    value = next(v for v in roll.dice if v not in _FACES)
    raise LogError(source, line, "{value} is not a face of a die (1 to 6)", value=shorten(value))


def _bounded(error: AcesError) -> AcesError:
    """``error`` with every value short enough for a one-line message."""
    values = {name: shorten(value) if isinstance(value, str) else value
              for name, value in error.values.items()}
    return type(error)(error.message, **values)


def _tag(event: Event) -> str:
    return t.cast("str", type(event).__struct_config__.tag)


def _show(event: Event) -> str:
    """An event as the log writes it, cut short if it is long."""
    text = _ENCODER.encode(event).decode()
    return text if len(text) <= _QUOTE else text[:_QUOTE] + "..."
