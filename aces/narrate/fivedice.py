"""Aces, the five-dice game, in words: the phrasebook of the ``five-dice`` game.

The same machinery as :mod:`aces.narrate.pot`: every sentence a gettext
message with named placeholders, counts of dice through ``ngettext``,
numbers and lists through Babel. What differs is the game: dice go to the
centre, to the left, to the right or (``threes``) to a player of the
roller's choice, a roll that moves dice is rolled again, and a game ends
with a loser rather than a winner, so a session counts games lost.

>>> from aces.i18n import translations
>>> from aces.voice import Voice
>>> from aces.events import DicePassed
>>> from aces.walk import Step
>>> book = FiveDicePhrasebook(Voice(translations("nb"), "nb"))
>>> book.say(Step(9, DicePassed(player="Ada", to="Cy", count=2, face=5), None, None))
('Ada sender to terninger til høyre, til Cy.',)
"""

from __future__ import annotations

import typing as t

from aces import events
from aces.errors import N_, Plural
from aces.narrate.phrasebook import Lines, Phrasebook
from aces.rules import fivedice

if t.TYPE_CHECKING:

    from aces.events import Event, GameStarted
    from aces.rules.fivedice import FiveDiceState
    from aces.walk import Step

__all__ = ["FiveDicePhrasebook"]

class FiveDicePhrasebook(Phrasebook):
    """The narration of Aces, the five-dice game."""

    game = fivedice.NAME
    # The end of the game settles the last roll too: the standings of a
    # game with every die in the centre would say nothing the loser's line
    # does not.
    settling = frozenset({events.DiceToCentre, events.DicePassed, events.GameOver})
    moving = frozenset({events.DiceToCentre, events.DicePassed})
    contextual = frozenset({events.Rolled, events.OpeningTied, events.OpeningWon,
                            events.RollAgain, events.GameOver})
    contextual_stages = frozenset({"turn"})

    # Translators: the standings after a roll of the five-dice game.
    # {players}: every player with the dice held, as a list ("Ada 2, Bo
    # 1, and Cy 0"); {centre}: the dice in the centre.
    standings_line = N_("Standings: {players}; in the centre: {centre}.")
    # Translators: the standings after a roll of the five-dice game at a
    # table of many players, where only the players whose dice changed are
    # named. {players}: those players with the dice each now holds, as a
    # list ("Ada 2 and Bo 1"); {centre}: the dice in the centre.
    changed_line = N_("Standings, for those whose dice changed: {players}; in the"
                      " centre: {centre}.")
    out_name = "centre"
    # Translators: the last column of the standings table of "aces walkthrough"
    # (five-dice game): the dice in the centre, out of the game.
    out_heading = N_("Centre")
    # Translators: a session's tally after each game of the five-dice
    # game. {count}: the games played so far; {players}: each player with
    # the games lost, as a list.
    tally_line = Plural("Losses after {count} game: {players}.",
                        "Losses after {count} games: {players}.", by="count")
    # Translators: the last line of a session of the five-dice game.
    # {player}: who lost the most games; {count}: how many; {games}:
    # the games in the session.
    verdict_line = N_("{player} lost the most games: {count} of {games}.")
    # Translators: the last line of a session of the five-dice game with a
    # tie. {players}: the players sharing the most losses, as a list;
    # {count}: the games each of them lost.
    shared_verdict_line = Plural("{players} lost the most games, {count} game each.",
                                 "{players} lost the most games, {count} games each.",
                                 by="count")

    def context(self, step: Step[FiveDiceState]) -> t.Hashable:
        event = step.event
        state: FiveDiceState = step.state
        if type(event) is events.Rolled:
            # Whether a roll moves a die depends on the threes variation.
            return state.threes
        if type(event) is events.RollAgain:
            return state.held[state.seats[event.player]]
        if type(event) is events.GameOver:
            # Everyone but the loser wins.
            return state.players
        # The opening: with more than one die each, its values are totals.
        return state.dice_each > 1

    def header(self, number: int, event: GameStarted) -> Lines:
        v = self.voice
        dice = int(event.options.get("dice", 5))
        # Translators: the first line of a replayed game of Aces, the
        # five-dice game. {number}: the game's number in the log (1, 2, 3...);
        # {players}: the players in seat order, as a list; {count}: the dice
        # each starts with.
        opening = v.ngettext(
            "Aces, game {number}: {players} have {count} die each.",
            "Aces, game {number}: {players} have {count} dice each.",
            dice,
        ).format(number=v.number(number), players=v.names(event.players),
                 count=v.count(dice))
        if event.options.get("threes"):
            # Translators: the narrator explains the rules of this game, with
            # the threes variation: where the dice of each face go, and who
            # loses. "The roller's choice": the player who rolled the 3 chooses.
            rule = v.gettext("Each 1 goes to the centre, each 2 to the left, each 5 to the right,"
                             " and each 3 to another player of the roller's choice; whoever"
                             " rolls the last 1 loses.")
        else:
            # Translators: the narrator explains the rules of this game: where
            # the dice of each face go, and who loses.
            rule = v.gettext("Each 1 goes to the centre, each 2 to the left, and each 5 to the"
                             " right; whoever rolls the last 1 loses.")
        return (opening, rule, self.opening_rule(dice))

    def tell(self, event: Event, context: t.Any) -> Lines:
        v = self.voice
        match event:
            case events.Rolled():
                return (self._roll(event, threes=bool(context)),)
            case events.DiceToCentre():
                # Translators: the narrator; a roller's 1s go to the centre, out
                # of the game. {player}: the roller; {count}: the dice.
                return (v.ngettext("{player} puts {count} die in the centre.",
                                   "{player} puts {count} dice in the centre.",
                                   event.count).format(player=event.player,
                                                       count=v.count(event.count)),)
            case events.DicePassed():
                return (self._passed(event),)
            case events.RollAgain():
                held: int = context
                # Translators: the narrator; the roll moved dice, so the same
                # player rolls again. {player}: who rolls; {count}: the dice
                # still held, all of which are rolled.
                return (v.ngettext("{player} rolls again with {count} die.",
                                   "{player} rolls again with {count} dice.",
                                   held).format(player=event.player, count=v.count(held)),)
            case events.TurnMissed():
                # Translators: the narrator; a player without dice cannot roll,
                # but stays in the game. {player}: that player.
                return (v.gettext("{player} holds no dice and misses the turn.")
                        .format(player=event.player),)
            case events.GameOver():
                return (self._lost(event, context),)
        return self.tell_shared(event, total=bool(context))

    def _roll(self, event: events.Rolled, *, threes: bool) -> str:
        v = self.voice
        if event.stage == "opening":
            return self.opening_roll(event)
        dice = v.dice(event.dice)
        if fivedice.settle(event.dice, threes=threes).leaving:
            # Translators: the narrator; a roll whose moves follow.
            # {player}: who rolls; {dice}: the dice, like "1-6".
            return v.gettext("{player} rolls {dice}.").format(player=event.player, dice=dice)
        # Translators: the narrator; a roll of the five-dice game that moves
        # no die, which ends the turn. {player}: who rolls; {dice}: the dice,
        # like "3-4-6".
        return v.gettext("{player} rolls {dice}; nothing moves, and the turn passes.").format(
            player=event.player, dice=dice)

    def _passed(self, event: events.DicePassed) -> str:
        v = self.voice
        values = {"player": event.player, "receiver": event.to, "count": v.count(event.count)}
        if event.face == fivedice.TWO:
            # Translators: the narrator; 2s go to the player on the left.
            # {player}: who passes; {count}: the dice; {receiver}: who gets them.
            template = v.ngettext("{player} passes {count} die to {receiver} on the left.",
                                  "{player} passes {count} dice to {receiver} on the left.",
                                  event.count)
        elif event.face == fivedice.FIVE:
            # Translators: the narrator; 5s go to the player on the right.
            # {player}: who passes; {count}: the dice; {receiver}: who gets them.
            template = v.ngettext("{player} passes {count} die to {receiver} on the right.",
                                  "{player} passes {count} dice to {receiver} on the right.",
                                  event.count)
        else:
            # Translators: the narrator; the threes variation, where the
            # roller gives each 3 to a player of their choice. {player}: who
            # gives; {count}: the dice; {receiver}: the player chosen.
            template = v.ngettext("{player} chooses to give {count} die to {receiver}.",
                                  "{player} chooses to give {count} dice to {receiver}.",
                                  event.count)
        return template.format(**values)

    def _lost(self, event: events.GameOver, players: tuple[str, ...]) -> str:
        v = self.voice
        winners = [name for name in players if name != event.loser]
        # Translators: the narrator; the end of a game of the five-dice game.
        # {player}: the loser, who rolled the last 1; {winners}: everyone
        # else, as a list ("Ada and Bo").
        return v.gettext("All the dice are in the centre: {player} loses, and {winners}"
                         " win.").format(player=event.loser, winners=v.names(winners))

    def score(self, event: events.GameOver) -> str | None:
        """A session of the five-dice game counts games lost."""
        return event.loser
