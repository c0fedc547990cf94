"""The asides of a walkthrough: each rule explained in a few sentences, the
first time it comes into play, in the reader's language.
"""

from __future__ import annotations

import typing as t

if t.TYPE_CHECKING:
    from collections.abc import Callable

    from aces.voice import Voice


__all__ = ["RULES", "TURNING_POINTS", "explain"]


#: The key of the aside that names a game's turning points.
TURNING_POINTS: t.Final = "turning-points"


def explain(voice: Voice, rule: str, state: t.Any) -> str:
    """The aside for ``rule``, in the voice's language; ``state`` is the game's now."""
    _ = voice.gettext
    # A game played with the threes variation explains some rules its own way.
    threes = getattr(state, "threes", False) is True
    texts: dict[str, Callable[[], str]] = {
        # Translators: the rule asides of "aces walkthrough": each explains a rule
        # of the games the first time it comes into play, in a sentence or three.
        "opening-tie": lambda: _(
            "When several players share the highest opening roll, only they roll again,"
            " in seat order, until one of them is highest."),
        # Translators: a rule aside of "aces walkthrough".
        "left": lambda: _(
            "Play passes to the left: to the next player in seat order, and from the last"
            " seat back to the first."),
        # Translators: a rule aside of "aces walkthrough" (Aces in the Pot).
        "nothing": lambda: _(
            "Only aces (ones) and sixes move chips. Every other number does nothing, so a"
            " roll without a 1 or a 6 costs nothing at all."),
        # Translators: a rule aside of "aces walkthrough" (Aces in the Pot).
        "ace": lambda: _(
            "Each ace, a rolled 1, sends one of the roller's chips into the pot, and there"
            " it stays until someone wins the game."),
        # Translators: a rule aside of "aces walkthrough" (Aces in the Pot).
        "six": lambda: _(
            "Each six hands one of the roller's chips to the player on the left. A chip"
            " passed on is still in play."),
        # Translators: a rule aside of "aces walkthrough" (Aces in the Pot).
        "doubles": lambda: _(
            "Each die counts on its own, so a double counts twice: 1-1 sends two chips to"
            " the pot and 6-6 passes two to the left, as far as the roller's chips go."),
        # Translators: a rule aside of "aces walkthrough" (Aces in the Pot).
        "ace-and-six": lambda: _(
            "A roll is paid aces first, then sixes. With two chips or more, 1-6 costs two:"
            " one to the pot and one to the left."),
        # Translators: a rule aside of "aces walkthrough" (Aces in the Pot).
        "one-chip": lambda: _(
            "Nobody pays more than they hold. With one chip the aces are paid first: 1-6 or"
            " 1-1 sends the chip to the pot, 6-6 passes it left, and the rest of the roll"
            " goes unpaid."),
        # Translators: a rule aside of "aces walkthrough" (Aces in the Pot).
        "missed-turn": lambda: _(
            "A player with no chips misses the turn but keeps the seat, and is back in play"
            " as soon as the neighbour on the right rolls a six."),
        # Translators: a rule aside of "aces walkthrough" (Aces in the Pot).
        "comeback": lambda: _(
            "Empty hands never put anyone out of the game: a six from the neighbour on the"
            " right brings a chip, and the player is back in play."),
        # Translators: a rule aside of "aces walkthrough" (Aces in the Pot).
        "ignored-ace": lambda: _(
            "The last chip in play never goes to the pot. An ace that would send it there"
            " is ignored, but the roll's sixes are still paid."),
        # Translators: a rule aside of "aces walkthrough" (Aces in the Pot, finish
        # last-chip).
        "finish-last-chip": lambda: _(
            "The finish begins as soon as a roll leaves a single chip in play. Whoever"
            " holds it makes a try for the whole pot."),
        # Translators: a rule aside of "aces walkthrough" (Aces in the Pot, finish
        # last-holder).
        "finish-last-holder": lambda: _(
            "In this game the finish begins as soon as only one player holds chips, however"
            " many. That player makes a try for the pot."),
        # Translators: a rule aside of "aces walkthrough" (Aces in the Pot).
        "try": lambda: _(
            "A try is up to three rolls of both dice, and none of them may show a six. Aces"
            " count for nothing during a try. Three rolls without a six win the pot."),
        # Translators: a rule aside of "aces walkthrough" (Aces in the Pot, finish
        # last-chip).
        "failed-try-last-chip": lambda: _(
            "A six ends the try at once. The chip passes to the player on the left, who"
            " makes a fresh try of three rolls; round the table it goes until a try"
            " succeeds."),
        # Translators: a rule aside of "aces walkthrough" (Aces in the Pot, finish
        # last-holder).
        "failed-try-last-holder": lambda: _(
            "A six ends the try, and each six passes one of the holder's chips to the left."
            " A holder with chips left goes back to normal play, starting with the player on"
            " the left; a holder with none leaves the next try to that player."),
        # Translators: a rule aside of "aces walkthrough" (Aces in the Pot).
        "won": lambda: _("The winner takes every chip in the pot, and the game is over."),
        # Translators: a rule aside of "aces walkthrough" (Aces in the Pot).
        "session": lambda: _(
            "In a session every game starts level, with full hands and a fresh opening."
            " The tally counts the pots each player has won."),
        # Translators: a rule aside of "aces walkthrough" (Aces, the five-dice game).
        "fd-opening-tie": lambda: _(
            "Players who share the highest total roll again, only they, until one total is"
            " highest."),
        # Translators: a rule aside of "aces walkthrough" (Aces, the five-dice game).
        "centre": lambda: _(
            "Each 1 goes to the centre and is out of the game for good."),
        # Translators: a rule aside of "aces walkthrough" (Aces, the five-dice game).
        "two": lambda: _("Each 2 goes to the player on the left."),
        # Translators: a rule aside of "aces walkthrough" (Aces, the five-dice game).
        "five": lambda: _("Each 5 goes to the player on the right."),
        # Translators: a rule aside of "aces walkthrough" (Aces, the five-dice game
        # with the threes variation).
        "three": lambda: _(
            "In this game each 3 leaves the hand too, to a player the roller chooses, never"
            " the roller."),
        # Translators: a rule aside of "aces walkthrough" (Aces, the five-dice game).
        "roll-again": lambda: _(
            "A roll that sent a die away (a 1, 2 or 5) is rolled again at once, with the"
            " dice the roller still holds."),
        # Translators: a rule aside of "aces walkthrough" (Aces, the five-dice game
        # with the threes variation).
        "roll-again/threes": lambda: _(
            "A roll that sent a die away (a 1, 2, 3 or 5) is rolled again at once, with the"
            " dice the roller still holds."),
        # Translators: a rule aside of "aces walkthrough" (Aces, the five-dice game).
        "turn-over": lambda: _(
            "A roll without a 1, 2 or 5 ends the turn, and play passes to the left."),
        # Translators: a rule aside of "aces walkthrough" (Aces, the five-dice game
        # with the threes variation).
        "turn-over/threes": lambda: _(
            "A roll without a 1, 2, 3 or 5 ends the turn, and play passes to the left."),
        # Translators: a rule aside of "aces walkthrough" (Aces, the five-dice game).
        "empty-hand": lambda: _("A roller who has given away every die stops there: the"
                                " turn is over."),
        # Translators: a rule aside of "aces walkthrough" (Aces, the five-dice game).
        "fd-missed-turn": lambda: _(
            "A player holding no dice misses the turn but stays at the table: a 2 from the"
            " neighbour on the right or a 5 from the neighbour on the left brings a die"
            " back."),
        # Translators: a rule aside of "aces walkthrough" (Aces, the five-dice game
        # with the threes variation).
        "fd-missed-turn/threes": lambda: _(
            "A player holding no dice misses the turn but stays at the table: a 2 from the"
            " neighbour on the right, a 5 from the neighbour on the left or a 3 from anyone"
            " brings a die back."),
        # Translators: a rule aside of "aces walkthrough" (Aces, the five-dice game).
        "fd-lost": lambda: _(
            "The game ends when the last die goes to the centre. Whoever rolled that final"
            " 1 loses; everyone else wins."),
        # Translators: a rule aside of "aces walkthrough" (Aces, the five-dice game).
        "fd-session": lambda: _(
            "In a session every game starts level, with full hands and a fresh opening."
            " The tally counts the games each player has lost."),
    }
    return texts.get(f"{rule}/threes" if threes else rule, texts[rule])()


#: Every rule a walkthrough may explain, in no particular order.
RULES: t.Final = (
    "opening-tie", "left", "nothing", "ace", "six", "doubles", "ace-and-six", "one-chip",
    "missed-turn", "comeback", "ignored-ace", "finish-last-chip", "finish-last-holder", "try",
    "failed-try-last-chip", "failed-try-last-holder", "won", "session", "fd-opening-tie",
    "centre", "two", "five", "three", "roll-again", "turn-over", "empty-hand",
    "fd-missed-turn", "fd-lost", "fd-session",
)
