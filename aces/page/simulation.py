"""The simulation page: games played in the browser, beside their exact values.

A pupil chooses the players and the finish, presses Run, and watches each
seat's share of wins and the mean length of a game settle on the exact
values as 1, 10, 100 ... 100,000 games are played. The page plays them by
walking the transition table that :func:`aces.odds.chain.build` makes from
the rules (the next state and the seat of the next roller for each state
and outcome of a roll), and the outcome of each of the 36 rolls of two dice
from :mod:`aces.odds.outcomes`: both exported here, with the chain's exact
solution. The script only looks things up in those tables, so no rule of
the game is written again in JavaScript.

The five-dice game (Aces) is played the same way from the chain
:func:`aces.simulate.fivedice_chain.build` settles through its rules: for
each state, every way the roll can go (the *branches*), with its chance,
the next state and the next roller; the page picks a branch by its chance
and counts each seat's share of the games *lost*.

Without a script the page shows the exact values alone.
"""

from __future__ import annotations

import typing as t
from fractions import Fraction

from babel.core import Locale

from aces.errors import OptionError
from aces.i18n import LANGUAGES, translations

if t.TYPE_CHECKING:
    from aces.rules import fivedice, pot

__all__ = ["CHECKPOINTS", "FORMAT", "MOST_BRANCHES", "MOST_STATES", "collect",
           "collect_fivedice", "fivedice_table", "labels", "table"]

#: The version of the page's data.
FORMAT: t.Final = 1
#: The largest table a page carries: every count of players up to it is
#: offered (two chips each: two to five players, some 2,000 states).
MOST_STATES: t.Final = 2_500
#: The counts of games the page reports, in order.
CHECKPOINTS: t.Final = (1, 10, 100, 1_000, 10_000, 100_000)
#: The most branches a five-dice page carries, its tables together: three
#: players with five dice each (some 54,000, a page of about 400 KB and a
#: second or two to build through the rules), or more players with fewer dice.
MOST_BRANCHES: t.Final = 60_000
#: The most states of one five-dice table: the exact solution holds a
#: square matrix of them for every seat.
MOST_FIVEDICE_STATES: t.Final = 1_000


def labels(lang: str, game: str = "pot", dice: int = 5) -> dict[str, str]:
    """The page's own words in one language, for the game of the page
    (``dice``: each player's dice, in the five-dice game)."""
    from aces.cli._common import finish_name
    from aces.narrate.voice import Voice

    catalog = translations(lang)
    _ = catalog.gettext
    words = {
        "language_name": Locale.parse(lang).display_name or lang,
        "numbers": _number_locales(lang),
        # Translators: the title of the simulation page, for a class.
        "title": _("Aces in the Pot: which seat wins most often?"),
        # Translators: on the simulation page; seat 1 is the first to roll.
        "intro": _("Choose the players and the finish, and press Run: the browser plays"
                   " game after game, and the share of games each seat wins settles on"
                   " the exact chance. Seat 1 rolls first after the opening."),
        "setup": "",
        "players": _("Players"),
        "finish": _("Finish"),
        "last-chip": finish_name("last-chip", _),
        "last-holder": finish_name("last-holder", _),
        "run": _("Run"),
        # Translators: the simulation page's button that pauses the games being
        # played, and plays on when pressed again (the replay page's word).
        "pause": _("Pause"),
        "language": _("Language"),
        "games": _("Games played"),
        "rolls": _("Mean length (rolls)"),
        "exact": _("Exact"),
        "share": _("Share of wins"),
        # Translators: under the bars of the simulation page.
        "bars_hint": _("Each bar is a seat's share of the games played so far; the black"
                       " line across it is the exact chance."),
        # Translators: shown on the simulation page when scripts are off.
        "no_script": _("The simulation needs JavaScript; here are the exact values."),
    }
    if game == "five-dice":
        words.update(
            # Translators: the title of the simulation page of the five-dice
            # game (Aces), where one player loses, for a class.
            title=_("Aces: which seat loses most often?"),
            # Translators: on the simulation page of the five-dice game; seat 1
            # is the first to roll.
            intro=_("Choose the players and press Run: the browser plays game after game,"
                    " and the share of games each seat loses settles on the exact chance."
                    " Seat 1 rolls first after the opening."),
            setup=catalog.ngettext("{count} die each", "{count} dice each",
                                   dice).format(count=Voice(catalog, lang).count(dice)),
            # Translators: the caption of the simulation page's table of the
            # five-dice game: each seat's share of the games lost.
            share=_("Share of losses"),
            # Translators: under the bars of the simulation page of the five-dice game.
            bars_hint=_("Each bar is a seat's share of the games lost so far; the black"
                        " line across it is the exact chance."),
        )
    return words


def table(players: int, chips: int, finish: pot.Finish) -> dict[str, t.Any]:
    """One game's transition table and exact values, as the page carries them."""
    from aces.odds.chain import build
    from aces.odds.solve import solve

    chain = build(players, chips, finish)
    answer = solve(chain)
    return {
        "players": players,
        "finish": finish,
        "size": chain.size,
        "start": chain.start,
        "next": chain.nxt.ravel().tolist(),
        "turn": chain.rot.ravel().tolist(),
        "exact": {"by_seat": [round(p, 6) for p in answer.win_by_seat],
                  "rolls": round(answer.expected_rolls, 4)},
    }


def collect(players: int, chips: int, finish: pot.Finish, lang: str) -> dict[str, t.Any]:
    """The page's data: a table for every count of players that fits, both finishes.

    :raises ~aces.errors.OptionError: for a table too big for a page.
    """
    from aces.odds.chain import state_count
    from aces.odds.outcomes import OUTCOME_INDEX, OUTCOMES
    from aces.rules import pot

    if state_count(players, chips) > MOST_STATES:
        # Translators: an error of "aces simulate --html". {players} and
        # {chips}: the game asked for; {states}: the most states a page carries.
        raise OptionError("a simulation page takes games of at most {states} states; --players"
                          " {players} --chips {chips} has more: try fewer players or chips",
                          states=MOST_STATES, players=players, chips=chips)
    counts = list(range(pot.MIN_PLAYERS, players + 1))
    while state_count(counts[-1] + 1, chips) <= MOST_STATES:
        counts.append(counts[-1] + 1)
    return {
        "format": FORMAT,
        "game": pot.NAME,
        "chips": chips,
        "players": players,
        "finish": finish,
        "rolls": len(OUTCOME_INDEX),
        "outcomes": len(OUTCOMES),
        "outcome_of_roll": list(OUTCOME_INDEX),
        "checkpoints": list(CHECKPOINTS),
        "tables": [table(n, chips, f) for n in counts for f in pot.FINISHES],
        "lang": lang,
        "languages": list(LANGUAGES),
        "labels": {code: labels(code) for code in LANGUAGES},
        "seats": {code: _seats(code, counts[-1]) for code in LANGUAGES},
    }


def fivedice_table(players: int, dice: int, threes: bool,
                   threes_to: fivedice.Policy) -> dict[str, t.Any]:
    """One five-dice game's branches and exact values, as the page carries them.

    ``first[s]`` is where state ``s``'s branches begin in ``step``, and
    ``chances[roll[s]]`` their chances, added up (the branches of every state
    whose roller holds as many dice share them); ``step[b]`` is the next
    state times the players, plus the seats to the left where the next
    roller sits; a state of ``size`` ends the game, lost by the roller.
    """
    from aces.simulate import fivedice_chain

    chain = fivedice_chain.build(players, dice, threes, threes_to)
    answer = fivedice_chain.solve(chain)
    assert answer.win_by_seat is not None  # the chain works out every seat
    size = len(chain.states)
    profiles: dict[tuple[Fraction, ...], int] = {}
    first: list[int] = []
    roll: list[int] = []
    step: list[int] = []
    for out in chain.branches:
        first.append(len(step))
        roll.append(profiles.setdefault(tuple(b.chance for b in out), len(profiles)))
        step += [(size if b.state < 0 else b.state) * players + b.rotation for b in out]
    chances = []
    for profile in profiles:
        running, total = [], Fraction(0)
        for chance in profile:
            total += chance
            running.append(round(float(total), 12))
        running[-1] = 1.0
        chances.append(running)
    return {
        "players": players,
        "finish": None,
        "size": size,
        "start": chain.start,
        "first": first,
        "roll": roll,
        "chances": chances,
        "step": step,
        "exact": {"by_seat": [round(p, 6) for p in answer.win_by_seat],
                  "rolls": round(answer.expected_rolls, 4)},
    }


def collect_fivedice(players: int, dice: int, threes: bool, threes_to: fivedice.Policy,
                     lang: str) -> dict[str, t.Any]:
    """The page of the five-dice game: a table for every count of players
    from three that fits, the game asked for among them.

    :raises ~aces.errors.OptionError: for a game too big for a page.
    """
    from aces.rules import fivedice
    from aces.simulate.fivedice_chain import branch_count, state_count

    def cost(n: int) -> int:
        return branch_count(n, dice, threes, threes_to)

    fits = state_count(players, dice) <= MOST_FIVEDICE_STATES and cost(players) <= MOST_BRANCHES
    if not fits:
        # Translators: an error of "aces simulate --html --game five-dice".
        # {players} and {dice}: the game asked for; {branches}: the most ways
        # a roll can go that a page carries, its games together.
        raise OptionError("a simulation page of Aces takes games of at most {branches} ways"
                          " for the rolls to go; --players {players} --dice-each {dice} has"
                          " more: try fewer players or dice", branches=MOST_BRANCHES,
                          players=players, dice=dice)
    counts = [players]
    total = cost(players)
    for n in range(fivedice.MIN_PLAYERS, 100):
        if n == players:
            continue
        if state_count(n, dice) > MOST_FIVEDICE_STATES or total + cost(n) > MOST_BRANCHES:
            if n > players:
                break
            continue
        counts.append(n)
        total += cost(n)
    counts.sort()
    return {
        "format": FORMAT,
        "game": fivedice.NAME,
        "dice": dice,
        "threes": threes,
        "threes_to": threes_to,
        "players": players,
        "finish": None,
        "checkpoints": list(CHECKPOINTS),
        "tables": [fivedice_table(n, dice, threes, threes_to) for n in counts],
        "lang": lang,
        "languages": list(LANGUAGES),
        "labels": {code: labels(code, fivedice.NAME, dice) for code in LANGUAGES},
        "seats": {code: _seats(code, counts[-1]) for code in LANGUAGES},
    }


def _number_locales(lang: str) -> str:
    """The locales the page's script may write numbers with for ``lang``: its
    own, then the package's languages Babel says write numbers the same way.

    A browser may not know a language's numbers (Chromium has no Nynorsk
    ones) and would fall back to English; Bokmål writes them alike.

    >>> _number_locales("nn"), _number_locales("en")
    ('nn nb', 'en')
    """
    from babel.numbers import get_decimal_symbol, get_group_symbol

    from aces.i18n import babel_locale

    def shape(code: str) -> tuple[str, str, str]:
        locale = babel_locale(code)
        return (get_decimal_symbol(locale), get_group_symbol(locale),
                str(Locale.parse(locale).percent_formats[None].pattern))

    own = shape(lang)
    return " ".join([lang, *(code for code in LANGUAGES if code != lang and shape(code) == own)])


def _seats(lang: str, most: int) -> list[str]:
    from babel.numbers import format_decimal

    from aces.i18n import babel_locale

    catalog = translations(lang)
    # Translators: a seat on the simulation page, counted from 1 (the first
    # to roll after the opening).
    name = catalog.gettext("Seat {number}")
    return [name.format(number=format_decimal(n, locale=babel_locale(lang)))
            for n in range(1, most + 1)]
