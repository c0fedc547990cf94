"""The simulation page: games played in the browser, beside their exact values.

A pupil chooses the players and the finish, presses Run, and watches each
seat's share of wins and the mean length of a game settle on the exact
values as 1, 10, 100 ... 100,000 games are played. The page plays them by
walking the transition table that :func:`aces.exact.chain.build` makes from
the rules (the next state and the seat of the next roller for each state
and outcome of a roll), and the outcome of each of the 36 rolls of two dice
from :mod:`aces.exact.outcomes`: both exported here, with the chain's exact
solution. The script only looks things up in those tables, so no rule of
the game is written again in JavaScript.

The five-dice game (Aces) is played the same way from the chain
:func:`aces.exact.fivedice_chain.build` settles through its rules: for
each state, every way the roll can go (the *branches*), with its chance,
the next state and the next roller; the page picks a branch by its chance
and counts each seat's share of the games *lost* (:mod:`aces.page.fivedice`).

Without a script the page shows the exact values alone.
"""

from __future__ import annotations

import typing as t

from babel.core import Locale
from babel.numbers import format_decimal, get_decimal_symbol, get_group_symbol

from aces.errors import OptionError
from aces.exact import check_players
from aces.exact.chain import build, state_count
from aces.exact.outcomes import OUTCOME_INDEX, OUTCOMES
from aces.exact.solve import solve
from aces.i18n import LANGUAGES, babel_locale, translations
from aces.narrate.names import finish_name
from aces.rules import pot

if t.TYPE_CHECKING:
    from collections.abc import Mapping

    from aces.rules import OptionValue

__all__ = ["CHECKPOINTS", "FORMAT", "MOST_BRANCHES", "MOST_FIVEDICE_STATES", "MOST_STATES",
           "collect", "labels", "pot_page", "seats", "table"]

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


def labels(lang: str) -> dict[str, str]:
    """The page's own words in one language, as Aces in the Pot says them (the
    five-dice game's page puts its own in their places, :mod:`aces.page.fivedice`)."""

    catalog = translations(lang)
    _ = catalog.gettext
    return {
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


def table(players: int, chips: int, finish: pot.Finish) -> dict[str, t.Any]:
    """One game's transition table and exact values, as the page carries them."""

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
        "seats": {code: seats(code, counts[-1]) for code in LANGUAGES},
    }


def _number_locales(lang: str) -> str:
    """The locales the page's script may write numbers with for ``lang``: its
    own, then the package's languages Babel says write numbers the same way.

    A browser may not know a language's numbers (Chromium has no Nynorsk
    ones) and would fall back to English; Bokmål writes them alike.

    >>> _number_locales("nn"), _number_locales("en")
    ('nn nb', 'en')
    """

    def shape(code: str) -> tuple[str, str, str]:
        locale = babel_locale(code)
        return (get_decimal_symbol(locale), get_group_symbol(locale),
                str(Locale.parse(locale).percent_formats[None].pattern))

    own = shape(lang)
    return " ".join([lang, *(code for code in LANGUAGES if code != lang and shape(code) == own)])


def seats(lang: str, most: int) -> list[str]:
    catalog = translations(lang)
    # Translators: a seat on the simulation page, counted from 1 (the first
    # to roll after the opening).
    name = catalog.gettext("Seat {number}")
    return [name.format(number=format_decimal(n, locale=babel_locale(lang)))
            for n in range(1, most + 1)]


def pot_page(players: int, options: Mapping[str, OptionValue], lang: str) -> dict[str, t.Any]:
    """The page of a table of Aces in the Pot (``aces simulate --html``), its
    options complete.

    :raises ~aces.errors.OptionError: for fewer than two players, or a table
        too big for a page.
    """

    check_players(players)
    return collect(players, t.cast("int", options["chips"]),
                   t.cast("pot.Finish", options["finish"]), lang)
