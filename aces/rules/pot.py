"""Aces in the Pot: the rules of ../shared/RULINGS.md as a pure decider.

:func:`settle` is the heart of a normal roll; the engine, the exact odds and
the fast simulation all call it, so the rules exist once. :func:`decide`
turns a roll into events and :func:`evolve` folds one event into a state;
a game's state is only ever the fold of its events.

A worked example, E1 of the rulings, played from its dice:

>>> from aces.rules import Roll
>>> from aces.events import GameStarted, SCHEMA
>>> header = GameStarted(schema=SCHEMA, game="pot", players=("Ada", "Bo", "Cy"),
...                      options=options({}))
>>> state = start(header)
>>> for dice in ["2", "3", "5", "16", "35", "66", "11", "61", "41", "25", "66", "11", "34", "52"]:
...     for event in decide(state, Roll(tuple(int(d) for d in dice))):
...         state = evolve(state, event)
>>> event
GameOver(winner='Bo', pot=5, loser=None)
"""

from __future__ import annotations

import functools
import typing as t

import msgspec

from aces.errors import N_, Names, OptionError, RollError
from aces.events import (
    AceIgnored,
    ChipsPassed,
    ChipsToPot,
    FinishStarted,
    GameOver,
    PlayResumed,
    Rolled,
    TryFailed,
    TryStarted,
    TryWon,
    TurnMissed,
    Unpaid,
)
from aces.holding import Holding
from aces.memo import OBJECT, REF, weigh
from aces.rules import (
    Decider,
    OptionValue,
    Roll,
    RollRequest,
    check_names,
    decisions,
    evolver,
    on,
    parse_options,
    started,
)
from aces.rules.opening import Opening, decided
from aces.rules.seats import Seats
from aces.rules.table import OpeningTable, opening_seating, shared_handlers

if t.TYPE_CHECKING:
    from collections.abc import Mapping

    from aces.events import Event, GameStarted, Stage

__all__ = ["ACE", "FINISHES", "GAME", "MIN_PLAYERS", "NAME", "SIX", "TRY_ROLLS", "Finish", "Phase",
           "PotOptions", "PotState", "Settlement", "Situation", "decide", "decide_afresh", "evolve",
           "holding", "next_roll", "options", "pieces", "settle", "situation",
           "start", "widest_roll"]

NAME: t.Final = "pot"
FINISHES: t.Final = ("last-chip", "last-holder")
Finish = t.Literal["last-chip", "last-holder"]
Phase = t.Literal["opening", "play", "try", "over"]

ACE: t.Final = 1
SIX: t.Final = 6
#: Rolls in one try of the finish.
TRY_ROLLS: t.Final = 3
MIN_PLAYERS: t.Final = 2


class PotOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The options of Aces in the Pot, as written in the log header."""

    finish: Finish = "last-chip"
    chips: int = 2


def options(raw: Mapping[str, OptionValue]) -> dict[str, OptionValue]:
    """Check options and fill in the defaults.

    :raises ~aces.errors.OptionError: for an option the game does not have,
        or a value it cannot take.

    >>> options({"finish": "last-holder"})
    {'finish': 'last-holder', 'chips': 2}
    """
    parsed = parse_options(raw, PotOptions, N_("invalid option for Aces in the Pot: {detail}"))
    if parsed.chips < 1:
        raise OptionError("each player needs at least 1 chip, not {chips}", chips=parsed.chips)
    return msgspec.structs.asdict(parsed)


def widest_roll(header: GameStarted) -> tuple[int, int]:
    """Two dice at most, and never a receiver named."""
    return 2, 0


def pieces(header: GameStarted) -> int:
    """The chips at the table, which a game's length grows with."""
    return len(header.players) * t.cast("int", options(header.options)["chips"])


# -- Settling a roll ----------------------------------------------------------


class Settlement(t.NamedTuple):
    """What one normal roll costs its roller."""

    to_pot: int
    ignored_aces: int
    to_left: int
    unpaid_aces: int
    unpaid_sixes: int


def settle(held: int, in_play: int, aces: int, sixes: int, *, protect_last: bool) -> Settlement:
    """Settle a normal roll: every ace first, then every six.

    ``held`` is the roller's chips and ``in_play`` all chips outside the pot.
    Each ace sends one chip to the pot, each six one chip to the left; a
    roller who runs out pays nothing more. With ``protect_last`` (the
    ``last-chip`` finish) an ace that would send the last chip in play to the
    pot is ignored, and the sixes are still paid.

    >>> settle(2, 6, 1, 1, protect_last=True)    # 1-6 costs two chips
    Settlement(to_pot=1, ignored_aces=0, to_left=1, unpaid_aces=0, unpaid_sixes=0)
    >>> settle(1, 6, 1, 1, protect_last=True)    # with one chip, the ace takes it
    Settlement(to_pot=1, ignored_aces=0, to_left=0, unpaid_aces=0, unpaid_sixes=1)
    >>> settle(2, 2, 2, 0, protect_last=True)    # 1-1 on the last two chips
    Settlement(to_pot=1, ignored_aces=1, to_left=0, unpaid_aces=0, unpaid_sixes=0)
    """
    to_pot = ignored = 0
    for _ in range(aces):
        if held == 0:
            break
        if protect_last and in_play == 1:
            ignored += 1
            continue
        held -= 1
        in_play -= 1
        to_pot += 1
    to_left = min(sixes, held)
    return Settlement(to_pot, ignored, to_left, aces - to_pot - ignored, sixes - to_left)


# -- State --------------------------------------------------------------------


class PotState(OpeningTable, frozen=True, kw_only=True):
    """Everything the rules need to know at one point of a game (the seat
    to roll is ``turn``, or the holder making a try)."""

    finish: Finish
    #: Each seat's chips: a persistent vector, so that a chip moved copies
    #: a few entries, not the whole table (:class:`~aces.rules.seats.Seats`).
    chips: Seats
    pot: int = 0
    phase: Phase = "opening"
    #: Rolls already made in the current try.
    try_rolls: int = 0
    winner: int | None = None

    @property
    def in_play(self) -> int:
        """Chips outside the pot."""
        return self.chips.total

    def holders(self) -> tuple[int, ...]:
        """Seats that hold at least one chip."""
        return tuple(seat for seat, held in enumerate(self.chips) if held)


#: Made as a plain tuple is: standings are asked for after every roll.
_holding: t.Final = tuple.__new__


def holding(state: PotState) -> Holding:
    """Each player's chips, and the chips in the pot: the chips as a plain
    tuple at a table of up to 32 players (free: the vector is that tuple),
    the vector itself at a larger one."""
    chips = state.chips
    flat = chips.flat
    return _holding(Holding, (state.players, chips if flat is None else flat, state.pot))


@started
def start(players: tuple[str, ...], raw: Mapping[str, OptionValue]) -> PotState:
    """The state before the opening: everyone holds the same chips (made
    once for each table: see :func:`aces.rules.started`)."""
    check_names(players, MIN_PLAYERS)
    opts = options(raw)
    chips = opts["chips"]
    assert isinstance(chips, int)
    return PotState(**opening_seating(players), finish=t.cast("Finish", opts["finish"]),
                    chips=Seats((chips,) * len(players)))


def next_roll(state: PotState) -> RollRequest | None:
    """Who rolls next and how many dice; ``None`` once the game is over."""
    # Asked before every roll of a log: the commonest phase first, and the
    # request made here rather than through _request.
    phase = state.phase
    stage: Stage
    if phase == "play":
        player, dice, stage = state.players[state.turn], 2, "turn"
    elif phase == "try":
        player, dice, stage = state.players[state.turn], 2, "try"
    elif phase == "opening":
        player, dice, stage = state.players[state.opening.roller()], 1, "opening"
    else:
        return None
    if len(player) > _SHORT_NAME:
        return RollRequest(player, dice, stage)
    return _short_request(player, dice, stage)


def _request(player: str, dice: int, stage: Stage) -> RollRequest:
    """The same few requests, asked for once per roll of every game, made once.

    Only for short names: a thousand names of 60 KB each are not worth keeping.
    """
    if len(player) > _SHORT_NAME:
        return RollRequest(player, dice, stage)
    return _short_request(player, dice, stage)


_SHORT_NAME: t.Final = 64


@functools.lru_cache(maxsize=1024)
def _short_request(player: str, dice: int, stage: Stage) -> RollRequest:
    return RollRequest(player, dice, stage)


# -- Deciding -----------------------------------------------------------------


#: The chips of a situation that reads none (the opening's).
_NOBODY: t.Final = Seats(())


class Situation(t.NamedTuple):
    """All that a decision may read of a state: the key of the memo.

    :func:`decide` hands the rules a situation, never the whole state, so a
    rule cannot read a field the memo does not key on: a new rule that needs
    another field must add it here first, and then the memo keys on it too.
    Fields a phase does not read are left at their defaults, so that the
    situations a game returns to (the same chips, the same seat to roll)
    are equal whatever came before them.
    """

    players: tuple[str, ...]
    phase: Phase
    finish: Finish = "last-chip"
    #: The seat to roll, or the holder making a try.
    turn: int = 0
    chips: Seats = _NOBODY
    opening: Opening | None = None
    #: Rolls already made in the current try.
    try_rolls: int = 0
    pot: int = 0

    @property
    def in_play(self) -> int:
        """Chips outside the pot."""
        return self.chips.total

    def left_of(self, seat: int) -> int:
        return (seat + 1) % len(self.players)


def situation(state: PotState) -> Situation:
    """What the rules of ``state``'s phase read of it.

    >>> from aces.events import GameStarted, SCHEMA
    >>> state = start(GameStarted(schema=SCHEMA, game="pot", players=("Ada", "Bo"),
    ...                           options={}))
    >>> situation(msgspec.structs.replace(state, phase="play", pot=3))
    Situation(players=('Ada', 'Bo'), phase='play', finish='last-chip', turn=0, \
chips=Seats((2, 2)), opening=None, try_rolls=0, pot=0)
    """
    phase = state.phase
    if phase == "opening":
        return _situation(Situation, (state.players, phase, "last-chip", 0, _NOBODY,
                                      state.opening, 0, 0))
    if phase == "play":
        return _situation(Situation, (state.players, phase, state.finish, state.turn,
                                      state.chips, None, 0, 0))
    return _situation(Situation, (state.players, phase, state.finish, state.turn, state.chips,
                                  None, state.try_rolls, state.pot))


_situation: t.Final = tuple.__new__

#: Decisions already made, by situation and dice. Games revisit the same
#: situations over and over (a checked session of 20,000 games decides each
#: one thousands of times; the memo makes ``aces verify`` about 15% faster),
#: and both the key and the events are immutable, so remembering them keeps
#: decide pure. The memo is bounded in bytes, and a table of many players is
#: not remembered at all: its key holds every seat's chips and it never
#: comes back. Its budget holds about 40,000 decisions at a table of four,
#: more than the situations a session of 15,000 games visits (32,426): a
#: memo that starts afresh part-way decides every one of them again.
_DECIDED: t.Final = decisions(20 << 20)


def decide(state: PotState, roll: Roll) -> tuple[Event, ...]:
    """The events a roll produces, up to the point where the next roll is due.

    The first event is always the :class:`Rolled` itself; after it come its
    consequences and whatever follows without dice (missed turns, the start
    of the finish, the end of the game). The caller has checked the dice.

    :raises ~aces.errors.RollError: for receivers named in ``roll.to``, as
        no die or chip is ever given by choice here.
    """
    # The memo's key: the phase, the fields of the situation that the
    # phase's rules read (the others are left at their defaults, so these
    # say the whole situation), then the dice; the chips as the plain tuple
    # a table of up to 32 players keeps (Seats.flat). A larger table, whose
    # chips are no such tuple, is decided afresh, and so is a roll that
    # names receivers, which is refused.
    chips = state.chips.flat
    phase = state.phase
    if chips is None or roll.to:
        return decide_afresh(situation(state), roll)
    if phase == "play":
        key: tuple[t.Any, ...] = (state.players, phase, state.finish, state.turn, chips,
                                  roll.dice)
    elif phase == "try":
        key = (state.players, phase, state.finish, state.turn, chips, state.try_rolls,
               state.pot, roll.dice)
    elif phase == "opening":
        key = (state.players, phase, state.opening, roll.dice)
    else:
        return decide_afresh(situation(state), roll)
    events = _DECIDED.get(key)
    if events is None:
        events = decide_afresh(situation(state), roll)
        _DECIDED.keep(key, events, _weight(key, events))
    return events


#: The names of the last table weighed, and what they weigh.
_weighed: list[t.Any] = [None, 0]


def _weight(key: tuple[t.Any, ...], events: tuple[Event, ...]) -> int:
    """The bytes a remembered decision keeps alive, roughly.

    The players' names are shared by every decision of a table (and by the
    events, which name players with the very same strings), so they are
    counted in full once a table, with the first decision of a table that
    was not the last one weighed, and as a reference after that. Counting
    them in every entry would make the budget hold a third of what it
    should, and the memo would start afresh before it paid.
    """
    players = key[0]
    if players is _weighed[0]:
        names = REF
    else:
        names = weigh(players)
        _weighed[:] = [players, names]
    # Objects of their own: the key, the tuple of events and each event (a
    # small struct, its few fields within the header's count), and the
    # chips or the opening the key holds, then the references the tuples
    # hold. The dice are the log's own event's (the decided roll holds the
    # very same), and the names, the phase and small numbers are shared by
    # everything. Counting these once more, as the memo once did, weighed a
    # decision at half as much again as it keeps (measured with
    # tracemalloc), so the memo started afresh before it held a long
    # session's situations, and decided them all over again.
    if key[1] == "opening":
        opening = key[2]
        held = 2 * OBJECT + REF * (len(opening.contenders) + len(opening.leading))
    else:
        held = OBJECT + REF * len(key[4])
    return names + held + OBJECT * (2 + len(events)) + REF * (len(key) + len(events))


def decide_afresh(seen: Situation, roll: Roll) -> tuple[Event, ...]:
    """:func:`decide` without the memo: the rules themselves, from a situation.

    :raises ~aces.errors.RollError: as :func:`decide`.
    """
    if seen.phase == "opening":
        assert seen.opening is not None
        request = _request(seen.players[seen.opening.roller()], 1, "opening")
    else:
        assert seen.phase != "over", "the game is over"
        request = _request(seen.players[seen.turn], 2, "turn" if seen.phase == "play" else "try")
    if roll.to:
        # Translators: an error of a roll of Aces in the Pot typed with
        # receivers after '>'. {names}: the names typed, as a list.
        raise RollError("in Aces in the Pot nothing is ever given by choice, so a roll names"
                        " no receivers, but this one names {names}", names=Names(roll.to))
    dice = roll.dice
    events: list[Event] = [Rolled(player=request.player, dice=dice, stage=request.stage)]
    if seen.phase == "opening":
        _decide_opening(seen, dice[0], events)
    elif seen.phase == "play":
        _decide_turn(seen, dice, events)
    else:
        _decide_try(seen, dice, events)
    return tuple(events)


def _decide_opening(state: Situation, value: int, events: list[Event]) -> None:
    assert state.opening is not None
    if (outcome := decided(state.opening.record(value), state.players)) is not None:
        events.append(outcome)


def _decide_turn(state: Situation, dice: tuple[int, ...], events: list[Event]) -> None:
    seat = state.turn
    name = state.players[seat]
    held = state.chips[seat]
    left = state.left_of(seat)
    paid = settle(held, state.in_play, dice.count(ACE), dice.count(SIX),
                  protect_last=state.finish == "last-chip")
    if paid.to_pot:
        events.append(ChipsToPot(player=name, count=paid.to_pot))
    if paid.ignored_aces:
        events.append(AceIgnored(player=name))
    if paid.to_left:
        events.append(ChipsPassed(player=name, to=state.players[left], count=paid.to_left))
    if paid.unpaid_aces or paid.unpaid_sixes:
        events.append(Unpaid(player=name, aces=paid.unpaid_aces, sixes=paid.unpaid_sixes))

    # A few seats changed, whatever the size of the table: the chips in
    # play and the seats holding any are kept by the vector.
    chips = state.chips.shifted(seat, paid.to_pot + paid.to_left, left, paid.to_left)
    in_play = chips.total
    if (state.finish == "last-chip" and in_play == 1) or (
        state.finish == "last-holder" and chips.holders == 1
    ):
        holder = chips.holder()
        events.append(FinishStarted(player=state.players[holder], chips=in_play))
        events.append(TryStarted(player=state.players[holder]))
        return
    nxt = left
    while chips[nxt] == 0:
        events.append(TurnMissed(player=state.players[nxt]))
        nxt = state.left_of(nxt)


def _decide_try(state: Situation, dice: tuple[int, ...], events: list[Event]) -> None:
    seat = state.turn
    name = state.players[seat]
    sixes = dice.count(SIX)
    rolls = state.try_rolls + 1
    if not sixes:
        if rolls == TRY_ROLLS:
            events.append(TryWon(player=name))
            events.append(GameOver(winner=name, pot=state.pot))
        return
    events.append(TryFailed(player=name, roll=rolls))
    left = state.left_of(seat)
    held = state.chips[seat]
    # last-chip: the six ends the try and the one chip goes left, however
    # many sixes; last-holder: each six passes one chip, while any are held.
    passed = 1 if state.finish == "last-chip" else min(sixes, held)
    events.append(ChipsPassed(player=name, to=state.players[left], count=passed))
    if state.finish == "last-holder" and sixes > passed:
        events.append(Unpaid(player=name, sixes=sixes - passed))
    if held - passed:
        events.append(PlayResumed(player=state.players[left]))
    else:
        events.append(TryStarted(player=state.players[left]))


# -- Evolving -----------------------------------------------------------------


def _rolled(state: PotState, event: Rolled) -> PotState:
    # Half the events of a log: the commonest phase first.
    phase = state.phase
    if phase == "play":
        return msgspec.structs.replace(state, turn=state.left_of(state.turn))
    if phase == "opening":
        return msgspec.structs.replace(state, opening=state.opening.record(event.dice[0]))
    return msgspec.structs.replace(state, try_rolls=state.try_rolls + 1)


def _chips_to_pot(state: PotState, event: ChipsToPot) -> PotState:
    seat = state.seats[event.player]
    chips = state.chips.shifted(seat, event.count, seat, 0)
    return msgspec.structs.replace(state, chips=chips, pot=state.pot + event.count)


def _chips_passed(state: PotState, event: ChipsPassed) -> PotState:
    seats = state.seats
    chips = state.chips.shifted(seats[event.player], event.count, seats[event.to], event.count)
    return msgspec.structs.replace(state, chips=chips)


def _try_started(state: PotState, event: TryStarted) -> PotState:
    return msgspec.structs.replace(state, phase="try", turn=state.seats[event.player], try_rolls=0)


def _play_resumed(state: PotState, event: PlayResumed) -> PotState:
    return msgspec.structs.replace(state, phase="play", turn=state.seats[event.player],
                                   try_rolls=0)


def _game_over(state: PotState, event: GameOver) -> PotState:
    winner = None if event.winner is None else state.seats[event.winner]
    return msgspec.structs.replace(state, phase="over", winner=winner)


#: The state after one event (see :func:`aces.rules.evolver`).
evolve: t.Final = evolver(
    *shared_handlers(PotState),
    on(Rolled, _rolled),
    on(ChipsToPot, _chips_to_pot),
    on(ChipsPassed, _chips_passed),
    on(TryStarted, _try_started),
    on(PlayResumed, _play_resumed),
    on(GameOver, _game_over),
)


GAME: t.Final = Decider[PotState](
    name=NAME,
    options=options,
    min_players=MIN_PLAYERS,
    start=start,
    next_roll=next_roll,
    decide=decide,
    evolve=evolve,
    widest_roll=widest_roll,
    pieces=pieces,
)
