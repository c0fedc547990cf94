"""``aces odds``: exact chances of Aces in the Pot, for a lesson or a machine."""

from __future__ import annotations

import contextlib
import json
import math
import sys
import typing as t

import click

from aces.cli._common import finish_name, lang_option, reported, translations, writing
from aces.errors import N_

if t.TYPE_CHECKING:
    import gettext
    from collections.abc import Callable, Iterator

    from aces.odds import Odds

__all__ = ["LENGTH_ROWS", "OUTCOME_NAMES", "SHOWN", "as_dict", "length_rows", "odds", "report"]

#: What each outcome of a roll is called, in the order of aces.odds.outcomes.OUTCOMES.
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
#: Games with at least this many states show a progress bar while they are
#: solved (on a terminal): a second or more of work.
PROGRESS_FROM: t.Final = 20_000
#: Steps of the progress bar.
_STEPS: t.Final = 1000
#: Rows of the length table, at most.
LENGTH_ROWS: t.Final = 20
#: The smallest chance the length table shows (0.1 % with one decimal).
SHOWN: t.Final = 0.0005


@click.command()
@click.option("--players", type=int, required=True, metavar="N",
              help="Number of players (2 or more). The exact solver takes games of up to"
                   " 25 million states, which need up to about 10 GB of memory: 10 players"
                   " with 2 chips each, or 14 with 1.")
@click.option("--chips", type=int, default=2, show_default=True,
              help="Chips each player starts with.")
@click.option("--finish", type=click.Choice(["last-chip", "last-holder"]), default="last-chip",
              show_default=True,
              help="When the finish starts: one chip left, or one holder left.")
@click.option("--quantile", type=float, default=0.99, show_default=True,
              help="Show the game length distribution up to this chance of being over.")
@click.option("--json", "as_json", is_flag=True, help="Write the answers as JSON.")
@lang_option
def odds(players: int, chips: int, finish: str, quantile: float, as_json: bool,
         lang: str | None) -> None:
    """Exact chances of Aces in the Pot, never sampled.

    One roll of two dice, what a roll costs, the finish, and for the whole
    game each seat's chance to win (seat 1 rolls first after the opening),
    the expected number of rolls and how the length of a game is spread.

    The keys of --json: game, players, options; roll and roll_cost, each
    exact fraction as text ("4/9") beside its value; try_success and
    finish_from_holder, the finish with one chip, from the holder on to the
    left; win_by_seat, a chance for each seat, the first entry for seat 1
    (who rolls first after the opening); expected_rolls and sd_rolls; length_cdf, whose k-th entry
    (counted from 1) is the chance that the game is over within k rolls, up
    to quantile, reached after rolls_at_quantile rolls; states, the size of
    the chain solved.
    """
    from aces.odds import exact
    from aces.rules import pot

    with reported(lang):
        chosen, catalog = translations(lang)
        options = pot.options({"finish": finish, "chips": chips})
        with _progress(None if as_json else players, chips, catalog, chosen) as progress:
            answer = exact(players, chips, t.cast("pot.Finish", options["finish"]),
                           quantile, progress)
        text = json.dumps(as_dict(answer), indent=2) if as_json else report(answer, chosen,
                                                                           catalog)
        with writing(None):
            click.echo(text)


@contextlib.contextmanager
def _progress(players: int | None, chips: int, catalog: gettext.NullTranslations,
              lang: str) -> Iterator[Callable[[float], None] | None]:
    """A progress bar on standard error while a big game is solved: on a
    terminal only, and never for --json (``players`` is ``None``), so that
    what a program reads is only the answer."""
    if players is None or not sys.stderr.isatty():
        yield None
        return
    from aces.cli._numbers import integer
    from aces.odds import check_size, memory_needed

    states = check_size(players, chips)
    if states < PROGRESS_FROM:
        yield None
        return
    # Translators: the label of the progress bar while the exact odds are worked
    # out. {states}: how many states the game has; {memory}: about how much memory
    # the solve needs, such as "1.3 GB".
    label = catalog.gettext("Solving {states} states (needs about {memory})").format(
        states=integer(states, lang), memory=_bytes(memory_needed(players, states), lang))

    def in_use(_: object) -> str:
        used = _memory_in_use()
        # Translators: after the progress bar: the memory the solve holds now, "1.1 GB".
        return "" if used is None else catalog.gettext("{memory} in use").format(
            memory=_bytes(used, lang))

    with click.progressbar(length=_STEPS, file=sys.stderr, label=label,
                           item_show_func=in_use) as bar:
        def advance(done: float) -> None:
            bar.update(min(_STEPS, round(done * _STEPS)) - bar.pos, current_item=done)

        yield advance


def _bytes(count: int, lang: str) -> str:
    """A size in megabytes or gigabytes, as ``lang`` writes numbers: "200 MB", "1.3 GB".

    >>> _bytes(1_277_963_036, "en"), _bytes(200_067_696, "nb")
    ('1.3\xa0GB', '200\xa0MB')
    """
    from aces.cli._numbers import decimal

    if count >= 10**9:
        return f"{decimal(count / 1e9, lang, 1)}\xa0GB"
    return f"{decimal(count / 1e6, lang, 0)}\xa0MB"


def _memory_in_use() -> int | None:
    """Bytes this process holds in memory now (its resident set), where the
    system tells (Linux); ``None`` elsewhere."""
    import os
    from pathlib import Path

    try:
        pages = int(Path("/proc/self/statm").read_text(encoding="ascii").split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE")


def as_dict(answer: Odds) -> dict[str, t.Any]:
    """The answers for machines; chances that are closed forms also as exact fractions."""
    from aces.odds.finish import finish_by_seat, try_success
    from aces.odds.outcomes import CHANCES, OUTCOMES, roll_cost

    solution = answer.solution
    success = try_success()
    return {
        "game": "pot",
        "players": answer.players,
        "options": {"finish": answer.finish, "chips": answer.chips},
        "roll": [{"aces": o.aces, "sixes": o.sixes, "chance": str(CHANCES[o]),
                  "value": float(CHANCES[o])} for o in OUTCOMES],
        "roll_cost": [{"held": held, "to_pot": str(cost.to_pot), "to_left": str(cost.to_left),
                       "total": str(cost.total), "value": float(cost.total)}
                      for held, cost in ((1, roll_cost(1)), (2, roll_cost(2)))],
        "try_success": {"chance": str(success), "value": float(success)},
        "finish_from_holder": [{"chance": str(c), "value": float(c)}
                               for c in finish_by_seat(answer.players)],
        "win_by_seat": solution.win_by_seat,
        "expected_rolls": solution.expected_rolls,
        "sd_rolls": solution.sd_rolls,
        "quantile": answer.quantile,
        "rolls_at_quantile": len(answer.length_cdf),
        "length_cdf": answer.length_cdf,
        "states": answer.states,
    }


def report(answer: Odds, lang: str, catalog: gettext.NullTranslations) -> str:
    """The answers as a readable page, in the catalog's language."""
    from aces.cli._numbers import decimal, fraction, integer, percent, table
    from aces.narrate.voice import Voice, line_start
    from aces.odds.finish import finish_by_seat, try_success
    from aces.odds.outcomes import CHANCES, OUTCOMES, roll_cost

    _ = catalog.gettext
    count = Voice(catalog, lang).count
    lines = [
        _("Exact odds of Aces in the Pot"),
        # Translators: {players}: "4 players"; {chips}: "2 chips each", each with
        # its count in words where your language writes small counts so; {finish}:
        # which finish, e.g. "finish at the last chip (last-chip)". The line's
        # first letter is made a capital.
        line_start(_("{players}, {chips}, {finish}").format(
            players=catalog.ngettext("{count} player", "{count} players",
                                     answer.players).format(count=count(answer.players)),
            chips=catalog.ngettext("{count} chip each", "{count} chips each",
                                   answer.chips).format(count=count(answer.chips)),
            finish=finish_name(answer.finish, _))),
        "",
        _("One roll of two dice"),
    ]
    # Translators: column headings: what a roll shows, and its exact chance (a fraction).
    rows = [[_("outcome"), _("chance"), ""]]
    for name, outcome in zip(OUTCOME_NAMES, OUTCOMES, strict=True):
        chance = CHANCES[outcome]
        rows.append([_(name), fraction(chance, lang), percent(float(chance), lang)])
    lines += [table(rows, "  "), ""]

    lines.append(_("What a normal roll costs, on average, in chips"))
    # Translators: column headings: the roller's chips, then the chips a roll sends to the
    # pot, to the player on the left, and both together.
    rows = [[_("chips held"), _("to the pot"), _("to the left"), _("in all")]]
    for label, held in (("1", 1), (_("2 or more"), 2)):
        cost = roll_cost(held)
        rows.append([label] + [
            f"{fraction(part, lang)} ({decimal(float(part), lang)})"
            for part in (cost.to_pot, cost.to_left, cost.total)])
    lines += [table(rows, "  "), ""]

    success = try_success()
    lines.append(_("The finish"))
    # Translators: {fraction}: an exact fraction such as 15,625/46,656; {percent}: the
    # same chance as a percentage, rounded (hence "about equal to").
    lines.append("  " + _("One try (three rolls without a six) succeeds with chance"
                          " {fraction} \u2248 {percent}.").format(
        fraction=fraction(success, lang), percent=percent(float(success), lang)))
    lines.append("  " + _("With one chip left, each player's chance to win, counted from"
                          " the holder who tries first:"))
    # Translators: column headings: a player, named by seat from the holder, and the chance.
    rows = [[_("player"), _("chance to win")]]
    for seat, chance in enumerate(finish_by_seat(answer.players)):
        label = _("the holder") if seat == 0 else catalog.ngettext(
            "{count} seat to the left", "{count} seats to the left", seat).format(count=count(seat))
        rows.append([label, percent(float(chance), lang)])
    lines += [table(rows, "    "), ""]

    solution = answer.solution
    lines.append(_("The whole game"))
    lines.append("  " + _("Seat 1 rolls first after the opening; the others follow to the left."))
    # Translators: column headings: a seat number (1 rolls first) and its chance to win.
    rows = [[_("seat"), _("chance to win")]]
    rows += [[integer(seat, lang), percent(chance, lang, 2)]
             for seat, chance in enumerate(solution.win_by_seat, start=1)]
    lines.append(table(rows, "    "))
    # Translators: rolls count every roll of two dice after the opening, tries included.
    lines.append("  " + _("Rolls in a game: {mean} on average, standard deviation {sd}.").format(
        mean=decimal(solution.expected_rolls, lang), sd=decimal(solution.sd_rolls, lang)))
    lines.append("")

    lines.append(_("How long a game lasts"))
    shortest = next(k for k, p in enumerate(answer.length_cdf, start=1) if p > 0)
    # Translators: {rolls}: the fewest rolls (after the opening) a game can take.
    lines.append("  " + _("The shortest games take {rolls} rolls.").format(
        rolls=integer(shortest, lang)))
    # Translators: column headings: a number of rolls, and the chance a game is that short.
    rows = [[_("rolls"), _("chance the game is over by then")]]
    rows += [[integer(k, lang), percent(answer.length_cdf[k - 1], lang)]
             for k in length_rows(answer.length_cdf)]
    lines.append(table(rows, "  "))
    # Translators: {percent}: a share of games such as 99 %; {rolls}: a number of rolls.
    lines.append("  " + _("{percent} of games are over within {rolls} rolls.").format(
        percent=percent(answer.quantile, lang, _digits(answer.quantile)),
        rolls=integer(len(answer.length_cdf), lang)))
    lines.append("  " + _("Solved exactly over {states} states of the game.").format(
        states=integer(answer.states, lang)))
    return "\n".join(lines)


def _digits(share: float) -> int:
    """Decimals enough to show a share as given: 99 %, 99.5 %, 99.95 %..."""
    for digits in range(6):
        if abs(share * 100 * 10**digits - round(share * 100 * 10**digits)) < 1e-6:
            return digits
    return 6


def length_rows(cdf: list[float], most: int = LENGTH_ROWS) -> list[int]:
    """Which game lengths to show, evenly spaced up to the quantile: from the
    first that a table can show (0.1 %), or the shortest possible.

    >>> length_rows([0.0, 0.0, 0.0001, 0.7, 0.8, 0.9, 0.95, 0.97, 0.99], most=2)
    [4, 7, 9]
    """
    first = next((k for k, p in enumerate(cdf, start=1) if p >= SHOWN), None)
    if first is None:
        first = next(k for k, p in enumerate(cdf, start=1) if p > 0)
    last = len(cdf)
    step = max(1, math.ceil((last - first) / most))
    shown = list(range(first, last, step))
    return [*shown, last]
