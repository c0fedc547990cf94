"""Aces, the five-dice passing game: the rulings' reading as a pure decider.

Each player holds dice, not chips. A roll sends every 1 to the centre (out
of the game), every 2 to the player on the left and every 5 to the player
on the right; with the ``threes`` variation every 3 goes to a player the
roller names. A roll that moved any die is rolled again with the dice
still held. Whoever rolls the 1 that sends the last die in play to the
centre loses. :func:`settle` says what one roll moves; :func:`decide` and
:func:`evolve` are the decider, as in :mod:`aces.rules.pot`.

Worked example E3 of the rulings, one die each:

>>> from aces.rules import Roll
>>> from aces.events import GameStarted, SCHEMA
>>> header = GameStarted(schema=SCHEMA, game=NAME, players=("Ada", "Bo", "Cy"),
...                      options=options({"dice": 1}))
>>> state = start(header)
>>> for dice in ["5", "2", "1", "3", "4", "2", "51", "2", "31", "6", "1"]:
...     for event in decide(state, Roll(tuple(int(d) for d in dice))):
...         state = evolve(state, event)
>>> event
GameOver(winner=None, pot=None, loser='Cy')
"""

from __future__ import annotations

import typing as t

import msgspec

from aces.errors import N_, Names, OptionError, RollError
from aces.events import (
    DicePassed,
    DiceToCentre,
    GameOver,
    RollAgain,
    Rolled,
    TurnMissed,
)
from aces.holding import Holding
from aces.rules import (
    Decider,
    OptionValue,
    Roll,
    RollRequest,
    check_names,
    evolver,
    on,
    parse_options,
    started,
)
from aces.rules.opening import decided
from aces.rules.seats import Seats
from aces.rules.table import OpeningTable, opening_seating, shared_handlers

if t.TYPE_CHECKING:
    import random
    from collections.abc import Mapping, Sequence

    from aces.events import Event, GameStarted

__all__ = ["ACE", "FIVE", "GAME", "MIN_PLAYERS", "NAME", "POLICIES", "THREE", "TWO",
           "FiveDiceOptions", "FiveDiceState", "Phase", "Policy", "Settlement", "choose", "decide",
           "evolve", "holding", "next_roll", "options", "pieces", "settle", "start", "widest_roll"]

NAME: t.Final = "five-dice"
POLICIES: t.Final = ("random", "fewest", "most")
Policy = t.Literal["random", "fewest", "most"]
Phase = t.Literal["opening", "play", "over"]

ACE: t.Final = 1
TWO: t.Final = 2
THREE: t.Final = 3
FIVE: t.Final = 5
MIN_PLAYERS: t.Final = 3


class FiveDiceOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The options of Aces, as written in the log header."""

    #: Dice each player starts with; 1 is the quick pub version.
    dice: int = 5
    #: The variation where each 3 goes to a player of the roller's choice.
    threes: bool = False
    #: Who chooses for generated dice: see :func:`choose`.
    threes_to: Policy = "random"


def options(raw: Mapping[str, OptionValue]) -> dict[str, OptionValue]:
    """Check options and fill in the defaults.

    :raises ~aces.errors.OptionError: for an option the game does not have,
        or a value it cannot take.

    >>> options({"dice": 1})
    {'dice': 1, 'threes': False, 'threes_to': 'random'}
    """
    parsed = parse_options(raw, FiveDiceOptions,
                           N_("invalid option for Aces (five dice): {detail}"))
    if parsed.dice < 1:
        raise OptionError("each player needs at least 1 die, not {dice}", dice=parsed.dice)
    return msgspec.structs.asdict(parsed)


def widest_roll(header: GameStarted) -> tuple[int, int]:
    """Every die of the game in one hand, and with ``threes`` a receiver for each.

    >>> from aces.events import GameStarted
    >>> widest_roll(GameStarted(schema=2, game=NAME, players=("Ada", "Bo", "Cy"),
    ...                         options={"dice": 2, "threes": True}))
    (6, 6)
    """
    opts = options(header.options)
    dice = t.cast("int", opts["dice"]) * len(header.players)
    return dice, dice if opts["threes"] else 0


def pieces(header: GameStarted) -> int:
    """The dice at the table, which a game's length grows with."""
    return widest_roll(header)[0]


# -- Settling a roll ----------------------------------------------------------


class Settlement(t.NamedTuple):
    """Where the dice of one turn roll go."""

    to_centre: int
    to_left: int
    to_right: int
    #: 3s given to players of the roller's choice (``threes`` only).
    chosen: int

    @property
    def leaving(self) -> int:
        """Dice that leave the roller's hand; any at all means rolling again."""
        return self.to_centre + self.to_left + self.to_right + self.chosen


def settle(dice: Sequence[int], *, threes: bool) -> Settlement:
    """What a turn roll moves: 1s to the centre, 2s left, 5s right, 3s by choice.

    Every die is paid, whatever the roller holds: the roll is of the dice
    held, so there is never a die too many.

    >>> settle((1, 2, 2, 4, 5), threes=False)
    Settlement(to_centre=1, to_left=2, to_right=1, chosen=0)
    >>> settle((3, 3, 6), threes=False).leaving
    0
    >>> settle((3, 3, 6), threes=True).leaving
    2
    """
    return Settlement(
        to_centre=dice.count(ACE),
        to_left=dice.count(TWO),
        to_right=dice.count(FIVE),
        chosen=dice.count(THREE) if threes else 0,
    )


# -- State --------------------------------------------------------------------


class FiveDiceState(OpeningTable, frozen=True, kw_only=True):
    """Everything the rules need to know at one point of a game."""

    dice_each: int
    threes: bool
    threes_to: Policy
    #: Dice held, by seat: a persistent vector, so that a die passed copies a
    #: few entries, not the whole table (:class:`~aces.rules.seats.Seats`).
    held: Seats
    #: Dice out of the game.
    centre: int = 0
    phase: Phase = "opening"
    loser: int | None = None

    @property
    def total(self) -> int:
        """Dice in the game: in play and in the centre."""
        return self.dice_each * len(self.players)

    def right_of(self, seat: int) -> int:
        return (seat - 1) % len(self.players)


#: Made as a plain tuple is: standings are asked for after every roll.
_holding: t.Final = tuple.__new__


def holding(state: FiveDiceState) -> Holding:
    """Each player's dice, and the dice in the centre (the dice as a plain
    tuple at a table of up to 32 players, as :func:`aces.rules.pot.holding`)."""
    held = state.held
    flat = held.flat
    return _holding(Holding, (state.players, held if flat is None else flat, state.centre))


@started
def start(players: tuple[str, ...], raw: Mapping[str, OptionValue]) -> FiveDiceState:
    """The state before the opening: everyone holds the same dice (made
    once for each table: see :func:`aces.rules.started`)."""
    check_names(players, MIN_PLAYERS)
    opts = options(raw)
    dice = opts["dice"]
    assert isinstance(dice, int)
    return FiveDiceState(**opening_seating(players), dice_each=dice,
                         threes=bool(opts["threes"]), threes_to=t.cast("Policy", opts["threes_to"]),
                         held=Seats((dice,) * len(players)))


def next_roll(state: FiveDiceState) -> RollRequest | None:
    """Who rolls next, with every die they hold; ``None`` once the game is over."""
    if state.phase == "opening":
        seat = state.opening.roller()
        return RollRequest(state.players[seat], state.held[seat], "opening")
    if state.phase == "play":
        return RollRequest(state.players[state.turn], state.held[state.turn], "turn")
    return None


# -- Choosing (generated dice) ------------------------------------------------


def choose(state: FiveDiceState, dice: tuple[int, ...], rng: random.Random) -> tuple[str, ...]:
    """Whom each 3 of a generated roll goes to, by the ``threes_to`` policy.

    A table decides by itself, and a dice file records the choice; generated
    dice need a policy. The candidates are the other players in seat order
    from the roller's left, whether they hold dice or not. ``random`` picks
    one of them with ``rng``; ``fewest`` the one holding the fewest dice and
    ``most`` the one holding the most, the first in that order on a tie.
    Holdings are counted after the roll's 1s, 2s and 5s have moved, and each
    3 counts the 3s given before it. Pure but for ``rng``, which only
    ``random`` uses.

    >>> import random
    >>> from aces.events import GameStarted
    >>> header = GameStarted(schema=1, game=NAME, players=("Ada", "Bo", "Cy", "Dag"),
    ...                      options={"dice": 2, "threes": True, "threes_to": "fewest"})
    >>> state = msgspec.structs.replace(start(header), phase="play", held=Seats((2, 2, 1, 2)))
    >>> choose(state, (3, 3), random.Random(0))  # Cy has fewest, then Bo is first of a tie
    ('Cy', 'Bo')
    """
    threes = dice.count(THREE)
    if not (state.threes and state.phase == "play" and threes):
        return ()
    seat = state.turn
    # Generated dice only, one roll with 3s at a time: a copy of the table is fine here.
    held = list(_after_fixed(state, seat, settle(dice, threes=True)))
    others = [(seat + step) % len(state.players) for step in range(1, len(state.players))]
    chosen: list[str] = []
    for _ in range(threes):
        if state.threes_to == "random":
            receiver = rng.choice(others)
        elif state.threes_to == "fewest":
            receiver = min(others, key=held.__getitem__)
        else:
            receiver = max(others, key=held.__getitem__)
        held[receiver] += 1
        chosen.append(state.players[receiver])
    return tuple(chosen)


def _after_fixed(state: FiveDiceState, seat: int, paid: Settlement,
                 given: dict[int, int] | None = None) -> Seats:
    """Holdings once the roller's dice have left and the 2s and 5s arrived
    (and the 3s ``given``, by seat), a few seats changed whatever the table."""
    deltas = {seat: -paid.leaving}
    for receiver, count in ((state.left_of(seat), paid.to_left),
                            (state.right_of(seat), paid.to_right), *(given or {}).items()):
        deltas[receiver] = deltas.get(receiver, 0) + count
    return state.held.moved(deltas)


# -- Deciding -----------------------------------------------------------------


def decide(state: FiveDiceState, roll: Roll) -> tuple[Event, ...]:
    """The events a roll produces, up to the point where the next roll is due.

    The first event is always the :class:`Rolled` itself, with the receivers
    of 3s in ``to``; then the dice moved, in the order 1s, 2s, 5s, 3s; then
    either a roll again, or the turn passing (missed turns), or the end.
    The caller has checked the number of dice; the receivers are checked
    here and refused with :class:`RollError`.
    """
    request = next_roll(state)
    assert request is not None, "the game is over"
    _check_receivers(state, request.player, roll)
    events: list[Event] = [
        Rolled(player=request.player, dice=roll.dice, stage=request.stage, to=roll.to)
    ]
    if state.phase == "opening":
        opening = state.opening.record(sum(roll.dice))
        if (outcome := decided(opening, state.players)) is not None:
            events.append(outcome)
    else:
        _decide_turn(state, roll, events)
    return tuple(events)


def _check_receivers(state: FiveDiceState, player: str, roll: Roll) -> None:
    gives = roll.dice.count(THREE) if state.threes and state.phase == "play" else 0
    if not gives and roll.to:
        raise RollError("this roll gives no die by choice, so it names no receivers,"
                        " but it names {names}", names=Names(roll.to))
    if len(roll.to) != gives:
        raise RollError("each 3 needs exactly one receiver"
                        " (3s rolled: {threes}, receivers named: {count})",
                        threes=gives, count=len(roll.to))
    for name in roll.to:
        if name == player:
            raise RollError("{player} cannot give a 3 to themselves", player=player)
        if name not in state.seats:
            raise RollError("{name} is not at the table, so cannot receive a 3", name=name)


def _decide_turn(state: FiveDiceState, roll: Roll, events: list[Event]) -> None:
    seat = state.turn
    name = state.players[seat]
    paid = settle(roll.dice, threes=state.threes)
    if paid.to_centre:
        events.append(DiceToCentre(player=name, count=paid.to_centre))
    if paid.to_left:
        events.append(DicePassed(player=name, to=state.players[state.left_of(seat)],
                                 count=paid.to_left, face=TWO))
    if paid.to_right:
        events.append(DicePassed(player=name, to=state.players[state.right_of(seat)],
                                 count=paid.to_right, face=FIVE))
    given: dict[str, int] = {}
    for receiver in roll.to:
        given[receiver] = given.get(receiver, 0) + 1
    for receiver, count in given.items():
        events.append(DicePassed(player=name, to=receiver, count=count, face=THREE))

    if state.centre + paid.to_centre == state.total:
        events.append(GameOver(loser=name))
        return
    held = _after_fixed(state, seat, paid,
                        {state.seats[receiver]: count for receiver, count in given.items()})
    if paid.leaving and held[seat]:
        events.append(RollAgain(player=name))
        return
    # Someone holds a die (the game is not over), so this stops.
    nxt = state.left_of(seat)
    while held[nxt] == 0:
        events.append(TurnMissed(player=state.players[nxt]))
        nxt = state.left_of(nxt)


# -- Evolving -----------------------------------------------------------------


def _rolled(state: FiveDiceState, event: Rolled) -> FiveDiceState:
    if state.phase == "opening":
        return msgspec.structs.replace(state, opening=state.opening.record(sum(event.dice)))
    # The turn passes unless a roll_again follows.
    return msgspec.structs.replace(state, turn=state.left_of(state.turn))


def _dice_to_centre(state: FiveDiceState, event: DiceToCentre) -> FiveDiceState:
    held = state.held.moved({state.seats[event.player]: -event.count})
    return msgspec.structs.replace(state, held=held, centre=state.centre + event.count)


def _dice_passed(state: FiveDiceState, event: DicePassed) -> FiveDiceState:
    giver, taker = state.seats[event.player], state.seats[event.to]
    deltas = {giver: -event.count}
    deltas[taker] = deltas.get(taker, 0) + event.count
    return msgspec.structs.replace(state, held=state.held.moved(deltas))


def _roll_again(state: FiveDiceState, event: RollAgain) -> FiveDiceState:
    return msgspec.structs.replace(state, turn=state.seats[event.player])


def _game_over(state: FiveDiceState, event: GameOver) -> FiveDiceState:
    loser = None if event.loser is None else state.seats[event.loser]
    return msgspec.structs.replace(state, phase="over", loser=loser)


#: The state after one event (see :func:`aces.rules.evolver`).
evolve: t.Final = evolver(
    *shared_handlers(FiveDiceState),
    on(Rolled, _rolled),
    on(DiceToCentre, _dice_to_centre),
    on(DicePassed, _dice_passed),
    on(RollAgain, _roll_again),
    on(GameOver, _game_over),
)


GAME: t.Final = Decider[FiveDiceState](
    name=NAME,
    options=options,
    min_players=MIN_PLAYERS,
    start=start,
    next_roll=next_roll,
    decide=decide,
    evolve=evolve,
    widest_roll=widest_roll,
    choose=choose,
    pieces=pieces,
)
