"""The pages: a pupil's (join, then record), and the teacher's projector.

Every page works as plain HTML forms: a form posts, the server answers
with a redirect to the page (or the page again, with the refusal at its
top), so an old tablet without scripts records as well as any. A script
the server serves itself (``/static/pupil.js``, ``/static/projector.js``)
only makes the same forms quicker: it posts them in the background,
retries with the same submission id when the connection drops, swaps the
page's main part for the server's answer, and reads the narration out
through an ``aria-live`` region. No rule is in a script: every roll is
decided on the server.

Text from pupils (labels, names) reaches the markup only through
:func:`aces.escape.markup`, the package's one escaping path.
"""

from __future__ import annotations

import functools
import re
import typing as t
import uuid

from babel.core import Locale

from aces.classroom.service import Settings
from aces.classroom.views import group_view
from aces.errors import N_
from aces.escape import markup
from aces.games import registration
from aces.i18n import languages, translations
from aces.notebook import stats_html
from aces.page.replay import labels
from aces.voice import Voice

if t.TYPE_CHECKING:
    import gettext

    from aces.classroom.service import Classroom, Group
    from aces.errors import AcesError
    from aces.experiment.pool import Pooled

__all__ = ["group_page", "join_page", "page", "pool_html", "pool_voice", "projector_page",
           "row_html", "teacher_main"]

_e = markup

# The words of the pages, marked here for the catalogs and translated where
# they are shown.
# Translators: shown by the class's pages when the server does not answer
# (the Wi-Fi gone, the server restarting).
_NO_ANSWER_FROM_THE_CLASS_TRYING_AGAIN: t.Final = N_("No answer from the class; trying again...")
# Translators: a link at the top of the class's pages, for keyboards and
# screen readers, to the page's main part.
_SKIP_TO_THE_MAIN_PART: t.Final = N_("Skip to the main part")
_LANGUAGE: t.Final = N_("Language")
# Translators: the button beside the choice of language on the class's pages.
_CHANGE: t.Final = N_("Change")
# Translators: the label of a player's field on the page where a group
# joins. {number}: the seat, from 1.
_PLAYER_NUMBER: t.Final = N_("Player {number}")
# Translators: the label of the field of the class code, and on the
# projector before the code itself.
_CLASS_CODE: t.Final = N_("Class code")
# Translators: under the field of the class code on the pupils' page.
_THE_CODE_ON_THE_PROJECTOR: t.Final = N_("The code on the projector.")
# Translators: the label of the field of the group's name (a label the
# group chooses, not a pupil's name).
_NAME_OF_THE_GROUP: t.Final = N_("Name of the group")
# Translators: the heading of the players' fields on the pupils' page.
_THE_PLAYERS_IN_SEAT_ORDER: t.Final = N_("The players, in seat order")
# Translators: the button that joins a group to the live class.
_JOIN: t.Final = N_("Join")
# Translators: on a group's page once the teacher has closed the group.
_THE_TEACHER_HAS_CLOSED_THIS_GROUP: t.Final = N_("The teacher has closed this group.")
# Translators: on a group's page, and on the projector, when a game is over.
_THE_GAME_IS_OVER: t.Final = N_("The game is over.")
# Translators: the heading above the first roll of the next game, on a
# group's page. {number}: the game's number.
_NEXT_GAME_GAME_NUMBER: t.Final = N_("Next game: game {number}")
# Translators: the button on a group's page that takes back the last roll.
_TAKE_BACK_THE_LAST_ROLL: t.Final = N_("Take back the last roll")
# Translators: the label of the field on a group's page that takes the
# dice typed as in aces record.
_OR_TYPE_THE_DICE: t.Final = N_("Or type the dice")
# Translators: the button beside the field of typed dice on a group's page.
_RECORD: t.Final = N_("Record")
# Translators: the heading of the receivers of the 3s on a group's page
# (the five-dice game with threes).
_WHOM_THE_3S_GO_TO: t.Final = N_("Whom the 3s go to")
# Translators: the heading of the story of the game so far, on a group's page.
_THE_GAME_SO_FAR: t.Final = N_("The game so far")
# Translators: on the projector before any group has joined.
_NO_GROUP_HAS_JOINED_YET: t.Final = N_("No group has joined yet.")
# Translators: under the QR code on the projector.
_THE_ADDRESS_TO_JOIN_AS_A_QR_CODE: t.Final = N_("The address to join, as a QR code")
# Translators: the heading of the projector's column of the teacher's
# buttons, and the name of the part of the page that holds them.
_TEACHER: t.Final = N_("Teacher")
# Translators: on the projector while recording is paused.
_RECORDING_IS_PAUSED: t.Final = N_("Recording is paused.")
# Translators: the teacher's link that downloads the class's logs.
_DOWNLOAD_THE_LOGS_ZIP: t.Final = N_("Download the logs (zip)")
# Translators: the projector's link that loads it anew (without a script).
_REFRESH: t.Final = N_("Refresh")
# Translators: the heading of the projector's table of groups.
_THE_TABLES_NOW: t.Final = N_("The tables now")
# Translators: the heading of the class's results on the projector.
_THE_CLASS_AGAINST_THE_EXACT_ODDS: t.Final = N_("The class against the exact odds")
# Translators: the projector's link to a group's games as a replay page.
_REPLAY: t.Final = N_("Replay")
# Translators: on the projector, what opens the teacher's form that takes one
# of a group's games out of the class's results (a game played by other
# rules, say).
_TAKE_OUT: t.Final = N_("Take a game out of the results")
# Translators: the label of the number of the game to take out, on the projector.
_GAME_NUMBER: t.Final = N_("Game number")
# Translators: the button that takes the game out of the class's results.
_TAKE_IT_OUT: t.Final = N_("Take it out")
# Translators: on the projector, the games of a group taken out of the
# class's results. {games}: their numbers, as a list ("1 and 3").
_TAKEN_OUT: t.Final = N_("Taken out: {games}")


def _catalog(lang: str) -> gettext.NullTranslations:
    return translations(lang)


def page(lang: str, title: str, body: str, *, script: str | None = None,
         kind: str = "pupil") -> str:
    """A whole page: its head (style and script from this server only), a link
    past the header for keyboards, and ``body``."""
    _ = _catalog(lang).gettext
    script_tag = f'<script src="/static/{script}.js" defer></script>\n' if script else ""
    return (f'<!DOCTYPE html>\n<html lang="{_e(lang)}">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<title>{_e(title)}</title>\n<link rel="stylesheet" href="/static/class.css">\n'
            # No icon: a browser asks for /favicon.ico otherwise.
            '<link rel="icon" href="data:,">\n'
            f'{script_tag}</head>\n<body class="{kind}"'
            f' data-offline="{_e(_(_NO_ANSWER_FROM_THE_CLASS_TRYING_AGAIN))}">\n'
            f'<a class="skip" href="#main">{_e(_(_SKIP_TO_THE_MAIN_PART))}</a>\n'
            f'{body}\n</body>\n</html>\n')


def _languages(lang: str, action: str, extra: str = "") -> str:
    """A small form that switches the page's language."""

    _ = _catalog(lang).gettext
    options = "".join(
        f'<option value="{_e(code)}"{" selected" if code == lang else ""}>'
        f'{_e(Locale.parse(code).display_name or code)}</option>' for code in languages())
    return (f'<form class="lang" method="post" action="{_e(action)}">{extra}'
            f'<label>{_e(_(_LANGUAGE))} <select name="lang">{options}</select></label> '
            f'<button type="submit">{_e(_(_CHANGE))}</button></form>')


def _refused(error: AcesError | None, lang: str) -> str:
    if error is None:
        return ""
    return f'<p class="refused" role="alert" id="refused">{_e(error.spoken(lang))}</p>'


# -- Joining --------------------------------------------------------------------


def join_page(room: Classroom | None, lang: str, code: str = "", label: str | None = None,
              players: t.Sequence[str] = (), error: AcesError | None = None, *,
              settings: Settings | None = None) -> str:
    """The page a pupil opens first: the class's code, the group, its players.
    Before the class is known (a school's server, without a code in the
    link), nothing is suggested for the group's name."""
    _ = _catalog(lang).gettext
    bounds = room.settings if room is not None else settings or Settings()
    if label is None:
        label = room.suggested_label(lang) if room is not None else ""
    seats = max(6, len(players))
    fields = "".join(
        f'<li><label for="player-{i}">{_e(_(_PLAYER_NUMBER).format(number=i + 1))}</label>'
        f'<input id="player-{i}" name="player" maxlength="{bounds.name}"'
        f' autocomplete="off" value="{_e(players[i] if i < len(players) else "")}"></li>'
        for i in range(min(seats, bounds.players)))
    # Translators: the heading of the page where a group joins the live class.
    title = _("Join the class")
    # Translators: under the heading of the players' fields: no personal data is needed.
    seats_hint = _("First names or seats (Seat 1, Seat 2) are enough; leave the fields you do"
                   " not need empty.")
    # The code of the QR code's link is kept when the page's language is switched.
    keep = f'<input type="hidden" name="code" value="{_e(code)}">' if code else ""
    body = (
        f'<header><h1>{_e(title)}</h1>{_languages(lang, "/lang", keep)}</header>\n'
        f'<main id="main">\n{_refused(error, lang)}\n'
        f'<form method="post" action="/join" class="join">\n'
        f'<p><label for="code">{_e(_(_CLASS_CODE))}</label>\n'
        f'<input id="code" name="code" required autocomplete="off" autocapitalize="characters"'
        f' spellcheck="false" maxlength="12" value="{_e(code)}"'
        ' aria-describedby="code-hint">\n'
        f'<span class="hint" id="code-hint">{_e(_(_THE_CODE_ON_THE_PROJECTOR))}</span></p>\n'
        f'<p><label for="label">{_e(_(_NAME_OF_THE_GROUP))}</label>\n'
        f'<input id="label" name="label" required maxlength="{bounds.label}"'
        f' autocomplete="off" value="{_e(label)}"></p>\n'
        f'<fieldset><legend>{_e(_(_THE_PLAYERS_IN_SEAT_ORDER))}</legend>\n'
        f'<p class="hint">{_e(seats_hint)}</p>\n'
        f'<ol class="players">{fields}</ol></fieldset>\n'
        f'<input type="hidden" name="lang" value="{_e(lang)}">\n'
        f'<p><button type="submit" class="primary">{_e(_(_JOIN))}</button></p>\n'
        '</form>\n</main>')
    return page(lang, title, body)


# -- A group's table ------------------------------------------------------------------


def group_page(room: Classroom, group: Group, lang: str, error: AcesError | None = None,
               told: t.Sequence[str] = ()) -> str:
    """A group's page: the roll asked for, with a button for every face of
    every die, the story so far, and what the table holds."""

    _ = _catalog(lang).gettext
    view = group_view(room, group, lang)
    # Translators: the title of a group's page in the live class. {label}:
    # the group's name; {number}: the game's number.
    title = _("{label}: game {number}").format(label=view["label"], number=view["game"])
    # What the page asks for: the roll of this game, or the first of the next.
    due = view["request"] or (view["next_game"] or {}).get("request") or {}
    due_game = view["game"] if view["request"] is not None else view["game"] + 1
    due_dice = due.get("dice", 0)
    body = (f'<header><h1>{_e(title)}</h1>'
            f'{_languages(lang, "/group/lang")}</header>\n'
            f'<main id="main" data-seq="{view["seq"]}" data-game="{due_game}"'
            f' data-dice="{due_dice}" data-over="{"1" if view["request"] is None else "0"}">\n'
            f'{_refused(error, lang)}\n{_recording(room, group, view, lang)}\n'
            f'{_story(view, told, lang)}\n{_holding(group, lang)}\n</main>\n'
            # The one place the narration is read out, kept across the page's updates.
            '<div id="announce" class="visually-hidden" aria-live="polite"></div>')
    return page(lang, title, body, script="pupil")


def _recording(room: Classroom, group: Group, view: dict[str, t.Any], lang: str) -> str:
    _ = _catalog(lang).gettext
    parts = []
    if view["closed"]:
        parts.append(f'<p class="notice">{_e(_(_THE_TEACHER_HAS_CLOSED_THIS_GROUP))}</p>')
    elif view["paused"]:
        # Translators: on a group's page while the teacher has paused recording.
        notice = _("The teacher has paused recording; the page goes on by itself when it"
                   " resumes.")
        parts.append(f'<p class="notice">{_e(notice)}</p>')
    request = view["request"]
    game = view["game"]
    if request is None and view["next_game"] is not None:
        parts.append(f'<p class="notice">{_e(_(_THE_GAME_IS_OVER))}</p>')
        request = view["next_game"]["request"]
        game = view["next_game"]["game"]
        parts.append(f'<h2>{_e(_(_NEXT_GAME_GAME_NUMBER).format(number=game))}</h2>')
    if request is not None and not view["closed"]:
        parts.append(_roll_form(group, view, request, game, lang))
    if view["can_undo"]:
        parts.append(
            '<form method="post" action="/group/undo" class="undo">'
            f'<input type="hidden" name="id" value="{uuid.uuid4().hex}">'
            f'<input type="hidden" name="seq" value="{view["seq"]}">'
            f'<button type="submit">{_e(_(_TAKE_BACK_THE_LAST_ROLL))}</button></form>')
    return "\n".join(parts)


def _roll_form(group: Group, view: dict[str, t.Any], request: dict[str, t.Any], game: int,
               lang: str) -> str:
    _ = _catalog(lang).gettext
    dice = request["dice"]
    hidden = (f'<input type="hidden" name="id" value="{uuid.uuid4().hex}">'
              f'<input type="hidden" name="seq" value="{view["seq"]}">'
              f'<input type="hidden" name="game" value="{game}">')
    prompt = f'<h2 id="prompt" tabindex="-1">{_e(request["prompt"])}</h2>'
    if dice == 1 and not view["threes"]:
        faces = "".join(f'<button type="submit" name="dice" value="{face}" class="face"'
                        f' aria-label="{face}">{face}</button>' for face in range(1, 7))
        chooser = f'<div class="faces" role="group" aria-labelledby="prompt">{faces}</div>'
    else:
        sets = []
        for die in range(dice):
            faces = "".join(
                f'<label class="face"><input type="radio" name="die-{die}" value="{face}">'
                f'<span>{face}</span></label>' for face in range(1, 7))
            # Translators: the legend of the faces of one die on a group's page.
            # {number}: which die.
            legend = _("Die {number}").format(number=die + 1)
            sets.append(f'<fieldset class="die"><legend>{_e(legend)}'
                        f'</legend><div class="faces">{faces}</div></fieldset>')
        chooser = "".join(sets)
        if view["threes"] and request["stage"] != "opening":
            # An opening roll gives no 3 away: it only decides who begins.
            chooser += _receivers(group, dice, lang)
        # Translators: the button that sends the dice chosen on a group's page.
        send = _("Record the roll")
        chooser += f'<p><button type="submit" class="primary">{_e(send)}</button></p>'
    typed = (f'<p class="typed"><label for="notation">{_e(_(_OR_TYPE_THE_DICE))}</label> '
             f'<input id="notation" name="notation" autocomplete="off" inputmode="text"'
             ' aria-describedby="notation-hint"> '
             f'<button type="submit">{_e(_(_RECORD))}</button><br>'
             f'<span class="hint" id="notation-hint">{_e(_notation_hint(group, lang))}</span></p>')
    return (f'<form method="post" action="/group/roll" class="roll">{hidden}{prompt}'
            f'{chooser}{typed}</form>')


def _notation_hint(group: Group, lang: str) -> str:
    _ = _catalog(lang).gettext
    return _(registration(group.table.header.game).notation)


def _receivers(group: Group, dice: int, lang: str) -> str:
    """A choice of receiver for each 3 that may come up, in the order of the 3s."""
    _ = _catalog(lang).gettext
    players = group.table.header.players
    choices = []
    for number in range(1, dice + 1):
        options = '<option value=""></option>' + "".join(
            f'<option value="{_e(name)}">{_e(name)}</option>' for name in players)
        # Translators: the choice, on a group's page of the five-dice game
        # with threes, of whom a 3 goes to. {number}: which 3, in order.
        which = _("3 number {number} goes to").format(number=number)
        choices.append(f'<li><label>{_e(which)} <select name="to">{options}</select></label></li>')
    return (f'<fieldset class="receivers"><legend>{_e(_(_WHOM_THE_3S_GO_TO))}</legend>'
            f'<ol>{"".join(choices)}</ol></fieldset>')


def _story(view: dict[str, t.Any], told: t.Sequence[str], lang: str) -> str:
    _ = _catalog(lang).gettext
    lines = "".join(f"<li>{_e(line)}</li>" for line in view["story"])
    last = "".join(f"<p>{_e(line)}</p>" for line in told)
    return (f'<section class="story" aria-labelledby="story-head"><h2 id="story-head">'
            f'{_e(_(_THE_GAME_SO_FAR))}</h2><div id="told" hidden>{last}</div>'
            f'<ol>{lines}</ol></section>')


def _holding(group: Group, lang: str) -> str:
    words = labels(lang)
    table = group.table
    header = table.header
    holding = registration(header.game).holding(table.recording.state)
    held, out_of_hand = registration(header.game).holds
    unit, out = words[held], words[out_of_hand]
    request = table.request()
    turn = f' <span class="turn">({_e(words["to_roll"])})</span>'
    rows = "".join(
        f'<tr><th scope="row">{_e(name)}'
        f'{turn if request is not None and request.player == name else ""}'
        f'</th><td class="num">{held}</td></tr>'
        for name, held in zip(holding.players, holding.held, strict=True))
    return (f'<section class="holding" aria-labelledby="holding-head"><h2 id="holding-head">'
            f'{_e(words["table"])}</h2><table><thead><tr><th scope="col">{_e(words["player"])}'
            f'</th><th scope="col" class="num">{_e(unit)}</th></tr></thead><tbody>{rows}'
            f'<tr><th scope="row">{_e(out)}</th><td class="num">{holding.out}</td></tr>'
            '</tbody></table></section>')


# -- The projector ------------------------------------------------------------------


def projector_page(room: Classroom, base: str, join_url: str, lang: str,
                   error: AcesError | None = None) -> str:
    """The teacher's page: how to join, every table now, the class pooled."""
    _ = _catalog(lang).gettext
    # Translators: the title of the teacher's page in the live class.
    title = _("The class experiment, live")
    body = (f'<header><h1>{_e(title)}</h1>'
            f'{_languages(lang, base + "/lang")}</header>\n'
            f'<main id="main" data-events="{_e(base)}/events">\n{_refused(error, lang)}\n'
            f'{teacher_main(room, base, join_url, lang)}\n</main>')
    return page(lang, title, body, script="projector", kind="projector")


def teacher_main(room: Classroom, base: str, join_url: str, lang: str) -> str:
    """The projector's main part, which its script swaps for a fresh one when
    the class changes (a group joins or closes, recording pauses)."""
    import segno

    _ = _catalog(lang).gettext
    record = room.class_record
    qr = segno.make(join_url, error="m").svg_inline(scale=6, dark="#000", light="#fff",
                                                    title=None)
    qr = qr.replace("<svg ", '<svg role="img" aria-labelledby="qr-caption" ', 1)
    # Translators: on the projector, how pupils join. {address}: the address to open.
    joining = _("Open {address} and type the code, or scan the picture.").format(
        address=join_url[:join_url.rindex("/join/")])
    paused = record.paused
    # Translators: the teacher's buttons that pause and resume recording.
    toggle = _("Go on recording") if paused else _("Pause recording")
    rows = "".join(row_html(room, group, base, lang) for group in room.groups.values())
    if not rows:
        rows = (f'<tr><td colspan="6">{_e(_(_NO_GROUP_HAS_JOINED_YET))}</td></tr>')
    heads = "".join(f'<th scope="col">{_e(head)}</th>' for head in (
        # Translators: the headings of the projector's table of groups.
        _("Group"), _("Game"), _("To roll"), _("At the table"), _("Games over"), _("Teacher")))
    return (
        '<section class="join-box" aria-labelledby="code-head">'
        f'<h2 id="code-head">{_e(_(_CLASS_CODE))}: <span class="code">{_e(record.code)}</span>'
        f'</h2><p>{_e(joining)}</p><figure class="qr">{qr}<figcaption id="qr-caption">'
        f'{_e(_(_THE_ADDRESS_TO_JOIN_AS_A_QR_CODE))}</figcaption></figure></section>\n'
        f'<section class="controls" aria-label="{_e(_(_TEACHER))}">'
        + (f'<p class="notice">{_e(_(_RECORDING_IS_PAUSED))}</p>' if paused else "")
        + f'<form method="post" action="{_e(base)}/pause">'
        f'<input type="hidden" name="paused" value="{"0" if paused else "1"}">'
        f'<button type="submit">{_e(toggle)}</button></form> '
        f'<a class="button" href="{_e(base)}/download">{_e(_(_DOWNLOAD_THE_LOGS_ZIP))}</a> '
        f'<a class="button" href="{_e(base)}">{_e(_(_REFRESH))}</a></section>\n'
        '<section class="tables" aria-labelledby="tables-head">'
        f'<h2 id="tables-head">{_e(_(_THE_TABLES_NOW))}</h2><div class="scroll"><table>'
        f'<thead><tr>{heads}</tr></thead><tbody id="rows">{rows}</tbody></table></div>'
        '</section>\n'
        '<section class="pool" aria-labelledby="pool-head">'
        f'<h2 id="pool-head">{_e(_(_THE_CLASS_AGAINST_THE_EXACT_ODDS))}</h2>'
        f'<div id="pool">{pool_html(room.pooled(), lang)}</div></section>')


def row_html(room: Classroom, group: Group, base: str, lang: str,
             view: dict[str, t.Any] | None = None) -> str:
    """One group's row on the projector (from its ``view`` in ``lang``, if made already)."""

    _ = _catalog(lang).gettext
    if view is None:
        view = group_view(room, group, lang)
    table = group.table
    book = registration(table.header.game).phrasebook(table.narrators[lang].voice)
    standing = book.standings(table.recording.state, None, full=True) or ""
    request = view["request"]
    # Translators: on the projector, a group whose game is over.
    turn = request["prompt"] if request is not None else _("The game is over.")
    if view["closed"]:
        # Translators: on the projector, a group the teacher has closed.
        turn = _("Closed")
    number = group.record.id
    # Translators: the teacher's buttons that close a group and open it again.
    action = _("Open again") if view["closed"] else _("Close")
    replay = ""
    if view["games_finished"] or table.seq > 1:
        replay = (f' <a href="{_e(base)}/groups/{number}/replay">'
                  f'{_e(_(_REPLAY))}</a>')
    taken = ""
    if view["excluded"]:
        listed = Voice(_catalog(lang), lang).names([str(game) for game in view["excluded"]])
        taken = f'<br><span class="hint">{_e(_(_TAKEN_OUT).format(games=listed))}</span>'
    exclude = ""
    if view["game"] > 1 or view["games_finished"]:
        exclude = (f'<details class="exclude"><summary>{_e(_(_TAKE_OUT))}</summary>'
                   f'<form method="post" action="{_e(base)}/groups/{number}/exclude">'
                   f'<label>{_e(_(_GAME_NUMBER))} <input name="game" inputmode="numeric"'
                   f' pattern="[0-9]+" size="3" value="{view["game"]}" required></label> '
                   f'<button type="submit">{_e(_(_TAKE_IT_OUT))}</button></form></details>')
    return (f'<tr id="group-{number}"><th scope="row">{_e(view["label"])}</th>'
            f'<td class="num">{view["game"]}</td><td>{_e(turn)}</td><td>{_e(standing)}</td>'
            f'<td class="num">{view["games_finished"]}{taken}</td><td>'
            f'<form method="post" action="{_e(base)}/groups/{number}/close">'
            f'<input type="hidden" name="closed" value="{"0" if view["closed"] else "1"}">'
            f'<button type="submit">{_e(action)}</button></form>{replay}{exclude}</td></tr>')


_SIZED: t.Final = re.compile(r'<svg xmlns="http://www.w3.org/2000/svg" width="(\d+)"'
                             r' height="(\d+)"')


def pool_html(pooled: Pooled, lang: str) -> str:
    """The class ``pooled``, as ``aces stats`` words and numbers it, with its charts,
    which the projector's style scales to its width (for the back row): each
    drawn at its own size, its box kept as a view box."""

    return _SIZED.sub(lambda found: f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0'
                      f' {found.group(1)} {found.group(2)}" class="chart"',
                      stats_html(pooled, lang, voice=pool_voice(lang)))


@functools.cache
def pool_voice(lang: str) -> Voice:
    """The one voice a process writes the pools of ``lang`` with: a class is
    pooled twice a second, and its numbers, nearly all the same as the last
    pool's (the shares and intervals of groups that finished no game since),
    are written through Babel once and then found in the voice's memos
    (bounded in bytes), about a third of a pool's time. In the pooling
    process of :mod:`aces.server.pooling`, for every class of the server."""
    return Voice(translations(lang), lang)
