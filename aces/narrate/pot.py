"""Aces in the Pot in words: the phrasebook of the ``pot`` game.

Every sentence is a gettext message with named placeholders, so the
English and Norwegian narrations (and any language added later) come from
the same code. Counts of chips go through ``ngettext``, small ones in words;
numbers and lists through Babel (see :class:`~aces.voice.Voice`).

>>> from aces.i18n import translations
>>> from aces.voice import Voice
>>> from aces.events import ChipsPassed
>>> from aces.walk import Step
>>> book = PotPhrasebook(Voice(translations("nb"), "nb"))
>>> book.say(Step(9, ChipsPassed(player="Ada", to="Bo", count=2), None, None))
('Ada sender to sjetonger til venstre, til Bo.',)
"""

from __future__ import annotations

import typing as t

from aces import events
from aces.errors import N_, Plural
from aces.narrate.phrasebook import Lines, Phrasebook
from aces.rules import pot

if t.TYPE_CHECKING:

    from aces.events import Event, GameStarted
    from aces.rules.pot import PotState
    from aces.voice import Voice
    from aces.walk import Step

__all__ = ["PotPhrasebook"]


class PotPhrasebook(Phrasebook):
    """The narration of Aces in the Pot."""

    game = pot.NAME
    settling = frozenset({events.ChipsToPot, events.AceIgnored, events.ChipsPassed, events.Unpaid})
    moving = frozenset({events.ChipsToPot, events.ChipsPassed})
    milestones = frozenset({events.FinishStarted})
    contextual = frozenset({events.Rolled, events.TryFailed, events.PlayResumed})
    contextual_stages = frozenset({"try"})

    # Translators: the standings after a roll. {players}: every player
    # with the chips held, as a list ("Ada 2, Bo 1, and Cy 0"); {pot}:
    # the chips in the pot.
    standings_line = N_("Standings: {players}; in the pot: {pot}.")
    # Translators: the standings after a roll at a table of many players,
    # where only the players whose chips changed are named. {players}:
    # those players with the chips each now holds, as a list ("Ada 2 and
    # Bo 1"); {pot}: the chips in the pot.
    changed_line = N_("Standings, for those whose chips changed: {players}; in the pot:"
                      " {pot}.")
    # Translators: the standings of a table of many players when the
    # finish begins, when only a few hold chips (one, as a rule).
    # {players}: those players with the chips each holds, as a list ("Cy
    # 3"); {pot}: the chips in the pot.
    holders_line = N_("Standings: {players}; no one else holds chips; in the pot: {pot}.")
    out_name = "pot"
    # Translators: the last column of the standings table of "aces walkthrough"
    # (Aces in the Pot): the chips in the pot.
    out_heading = N_("Pot")
    # Translators: a session's tally after each game. {count}: the games
    # played so far; {players}: each player with the pots won, as a list.
    tally_line = Plural("Pots won after {count} game: {players}.",
                        "Pots won after {count} games: {players}.", by="count")
    # Translators: the last line of a session. {player}: who won the
    # most pots; {count}: how many; {games}: the games in the session.
    verdict_line = N_("{player} won the most pots: {count} of {games}.")
    # Translators: the last line of a session with a tie. {players}: the
    # players sharing the most pots, as a list; {count}: pots won by each.
    shared_verdict_line = Plural("{players} share the most pots, {count} pot each.",
                                 "{players} share the most pots, {count} pots each.",
                                 by="count")

    def __init__(self, voice: Voice) -> None:
        super().__init__(voice)
        #: The sixes of the last roll of a try: a failed try counts them.
        self._sixes = 0

    def context(self, step: Step[PotState]) -> t.Hashable:
        event = step.event
        if type(event) is events.Rolled:
            # A roll of a try is told with its number in the try; a failed
            # try, after it, with the sixes that ended it.
            self._sixes = event.dice.count(pot.SIX)
            return step.state.try_rolls
        if type(event) is events.TryFailed:
            return self._sixes
        if type(event) is events.PlayResumed:
            # Told with the holder whose try failed: the player on the right.
            state = step.state
            return state.players[(state.seats[event.player] - 1) % len(state.players)]
        return None

    def header(self, number: int, event: GameStarted) -> Lines:
        v = self.voice
        chips = int(event.options.get("chips", 2))
        # Translators: the first line of a replayed game of Aces in the Pot.
        # {number}: the game's number in the log (1, 2, 3...); {players}: the
        # players in seat order, as a list; {count}: the chips each starts with.
        opening = v.ngettext(
            "Aces in the Pot, game {number}: {players} have {count} chip each.",
            "Aces in the Pot, game {number}: {players} have {count} chips each.",
            chips,
        ).format(number=v.number(number), players=v.names(event.players),
                 count=v.count(chips))
        if event.options.get("finish") == "last-holder":
            # Translators: the narrator explains the finish of this game.
            rule = v.gettext("The finish starts when only one player still holds chips.")
        else:
            # Translators: the narrator explains the finish of this game.
            rule = v.gettext("The finish starts when only one chip is left in play.")
        return (opening, rule, self.opening_rule(1))

    def tell(self, event: Event, context: t.Any) -> Lines:
        v = self.voice
        match event:
            case events.Rolled():
                return (self._roll(event, context),)
            case events.ChipsToPot():
                # Translators: the narrator; aces cost a player chips. {player}:
                # the roller; {count}: the chips that go into the pot.
                return (v.ngettext("{player} puts {count} chip in the pot.",
                                   "{player} puts {count} chips in the pot.",
                                   event.count).format(player=event.player,
                                                       count=v.count(event.count)),)
            case events.AceIgnored():
                # Translators: the narrator; an ace would have sent the last chip
                # in play to the pot, which the rules never allow.
                return (v.gettext("The ace is ignored: the last chip in play never goes to"
                                  " the pot."),)
            case events.ChipsPassed():
                # Translators: the narrator; sixes pass chips to the left.
                # {player}: who passes; {count}: the chips passed; {receiver}: the
                # player on the left who gets them.
                return (v.ngettext("{player} passes {count} chip to {receiver} on the left.",
                                   "{player} passes {count} chips to {receiver} on the left.",
                                   event.count).format(player=event.player, receiver=event.to,
                                                       count=v.count(event.count)),)
            case events.Unpaid():
                # Translators: the narrator; the roller has run out of chips
                # part-way through a roll. {player}: the roller.
                return (v.gettext("{player} is broke, so the rest of the roll costs nothing.")
                        .format(player=event.player),)
            case events.TurnMissed():
                # Translators: the narrator; a player without chips cannot roll.
                # {player}: that player.
                return (v.gettext("{player} has empty hands and misses the turn.")
                        .format(player=event.player),)
            case events.FinishStarted():
                return (self._finish(event),)
            case events.TryStarted():
                # Translators: the narrator; the finish. {player}: who makes the
                # try (three rolls, none of which may show a six).
                return (v.gettext("{player} makes a try and needs three rolls without a six"
                                  " to win the pot.").format(player=event.player),)
            case events.TryFailed():
                sixes = max(context, 1)
                # Translators: the narrator; sixes ended a try. {roll}: which roll
                # of the try it was (1, 2 or 3); {count}: the sixes it shows.
                return (v.ngettext("The try is over: roll {roll} shows a six.",
                                   "The try is over: roll {roll} shows {count} sixes.",
                                   sixes).format(roll=v.number(event.roll),
                                                 count=v.count(sixes)),)
            case events.PlayResumed():
                # Translators: the narrator; the finish of the last-holder game,
                # where the failed holder still has chips. {holder}: who made the
                # try; {player}: who rolls next, the player on the holder's left.
                return (v.gettext("{holder} still has chips, so normal play goes on."
                                  " {player} rolls next.").format(holder=context,
                                                                  player=event.player),)
            case events.TryWon():
                # Translators: the narrator; a try succeeded. {player}: who made it.
                return (v.gettext("Three rolls without a six: {player} has done it!")
                        .format(player=event.player),)
            case events.GameOver():
                return (self._won(event),)
        return self.tell_shared(event)

    def _roll(self, event: events.Rolled, try_rolls: int | None) -> str:
        """A roll; ``try_rolls``, the rolls made in a try with this one."""
        v = self.voice
        dice = v.dice(event.dice)
        if event.stage == "opening":
            return self.opening_roll(event)
        if try_rolls is not None:
            values = {"player": event.player, "dice": dice,
                      "number": v.number(try_rolls), "total": v.number(pot.TRY_ROLLS)}
            aces = event.dice.count(pot.ACE)
            if aces and pot.SIX not in event.dice:
                # Translators: the narrator; a roll of a try with an ace in it,
                # which counts for nothing there. {player}: who rolls; {dice}:
                # the dice, like "1-5"; {number}: which roll of the try;
                # {total}: the rolls in a try (3).
                return v.ngettext(
                    "{player} rolls {dice} (roll {number} of {total} in the try);"
                    " the ace counts for nothing.",
                    "{player} rolls {dice} (roll {number} of {total} in the try);"
                    " the aces count for nothing.",
                    aces,
                ).format(**values)
            # Translators: the narrator; a roll of a try. {player}: who rolls;
            # {dice}: the dice, like "4-2"; {number}: which roll of the try;
            # {total}: the rolls in a try (3).
            return v.gettext("{player} rolls {dice} (roll {number} of {total} in the try)."
                             ).format(**values)
        if pot.ACE in event.dice or pot.SIX in event.dice:
            # Translators: the narrator; a roll of two dice in a turn, whose
            # consequences follow. {player}: who rolls; {dice}: like "1-6".
            return v.gettext("{player} rolls {dice}.").format(player=event.player, dice=dice)
        # Translators: the narrator; a roll without aces or sixes. {player}:
        # who rolls; {dice}: the dice, like "3-5".
        return v.gettext("{player} rolls {dice}, and nothing happens.").format(
            player=event.player, dice=dice)

    def _finish(self, event: events.FinishStarted) -> str:
        v = self.voice
        if event.chips == 1:
            # Translators: the narrator; the finish begins. {player}: who
            # holds the one chip left outside the pot.
            return v.gettext("Only one chip is left in play, and {player} holds it:"
                             " the finish begins.").format(player=event.player)
        # Translators: the narrator; the finish of the last-holder game
        # begins. {player}: the only player holding chips; {count}: how many.
        return v.ngettext(
            "Only {player} still holds chips, {count} chip in all: the finish begins.",
            "Only {player} still holds chips, {count} chips in all: the finish begins.",
            event.chips,
        ).format(player=event.player, count=v.count(event.chips))

    def _won(self, event: events.GameOver) -> str:
        v = self.voice
        chips = event.pot or 0
        if not chips:
            # Translators: the narrator; the end of a game in which no chip
            # reached the pot. {player}: the winner.
            return v.gettext("{player} wins, but the pot is empty.").format(
                player=event.winner)
        # Translators: the narrator; the end of a game. {player}: the winner;
        # {count}: the chips in the pot.
        return v.ngettext("{player} wins the pot of {count} chip.",
                          "{player} wins the pot of {count} chips.",
                          chips).format(player=event.winner, count=v.count(chips))
