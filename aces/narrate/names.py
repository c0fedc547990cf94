"""What the reports call things: the outcomes of a roll, the finishes, a table.

The reports of ``aces odds``, ``aces simulate`` and ``aces stats``, the
notebook and the lessons name these the same way, so each name is written
once, here, as a message of the catalog.

>>> from aces.voice import Voice
>>> finish_name("last-holder", Voice.of("en").gettext)
'finish when one player holds the chips (last-holder)'
"""

from __future__ import annotations

import typing as t

from aces.errors import N_

if t.TYPE_CHECKING:
    from collections.abc import Mapping

    from aces.rules import OptionValue
    from aces.voice import Voice

__all__ = ["OUTCOME_NAMES", "finish_name", "table_words"]

#: What each outcome of a roll is called, in the order of aces.exact.outcomes.OUTCOMES.
OUTCOME_NAMES: t.Final = (
    # Translators: an outcome of one roll of two dice: neither die shows 1 or 6.
    N_("nothing happens (no 1 and no 6)"),
    # Translators: an outcome of one roll: exactly one die shows 1 (an ace), none shows 6.
    N_("one ace"),
    # Translators: an outcome of one roll: both dice show 1.
    N_("two aces"),
    # Translators: an outcome of one roll: exactly one die shows 6, none shows 1.
    N_("one six"),
    # Translators: an outcome of one roll: both dice show 6.
    N_("two sixes"),
    # Translators: an outcome of one roll: one die shows 1 and the other 6.
    N_("an ace and a six"),
)


def finish_name(finish: str, gettext: t.Callable[[str], str]) -> str:
    """A finish as a report heading names it: in words, with the option's value."""
    if finish == "last-holder":
        # Translators: the finish that starts when one player holds all the
        # chips left; the option's value stays in brackets as typed.
        return gettext("finish when one player holds the chips (last-holder)")
    # Translators: the finish that starts when one chip is left in play; the
    # option's value stays in brackets as typed.
    return gettext("finish at the last chip (last-chip)")


def table_words(game: str, seats: int, options: Mapping[str, OptionValue],
                voice: Voice) -> list[str]:
    """The table in words, as every report names it: the players, then the options
    in the order of their names (chips before the finish, as ``aces odds`` and
    ``aces stats`` say them), the five-dice threes named before whom they go to.
    ``game`` is the game's name, for an option only it names.

    >>> from aces.i18n import translations
    >>> from aces.voice import Voice
    >>> voice = Voice(translations("nn"), "nn")
    >>> table_words("pot", 4, {"finish": "last-chip", "chips": 2}, voice)[:2]
    ['fire spelarar', 'to sjetongar kvar']
    """
    # Translators: the players at a table, in a report's heading. {count}: how
    # many, in words where your language writes small counts so.
    words = [voice.ngettext("{count} player", "{count} players",
                            seats).format(count=voice.count(seats))]
    for name, value in sorted(options.items()):
        if name == "threes" and value:
            # Before whom the 3s go to: «med treere, hver treer til ...».
            # Translators: the variation of the five-dice game where 3s leave the hand too.
            words.append(voice.gettext("with threes"))
        elif text := _option(name, value, options, voice):
            words.append(text)
    return words


def _option(name: str, value: OptionValue, options: Mapping[str, OptionValue],
            voice: Voice) -> str | None:
    """A game option as the report names it; ``None`` for one that goes unsaid."""
    _ = voice.gettext
    if name == "chips" and isinstance(value, int):
        # Translators: the chips each player starts Aces in the Pot with, in a
        # report's heading. {count}: how many, in words where your language
        # writes small counts so.
        return voice.ngettext("{count} chip each", "{count} chips each",
                              value).format(count=voice.count(value))
    if name == "finish":
        return finish_name(str(value), _)
    if name == "dice" and isinstance(value, int):
        # Translators: the dice each player starts the five-dice game with, in a
        # report's heading. {count}: how many, in words where your language
        # writes small counts so.
        return voice.ngettext("{count} die each", "{count} dice each",
                              value).format(count=voice.count(value))
    if name == "threes":
        # Without the variation, neither it nor whom the 3s would go to is worth a word.
        return None
    if name == "threes_to":
        if not options.get("threes"):
            return None
        # Translators: the threes variation of Aces, and whom each 3 goes to.
        return {"fewest": _("each 3 to the player holding the fewest dice"),
                # Translators: the threes variation of Aces, and whom each 3 goes to.
                "most": _("each 3 to the player holding the most dice"),
                # Translators: the threes variation of Aces, and whom each 3 goes to.
                }.get(str(value), _("each 3 to a random other player"))
    return f"{name} {value}"
