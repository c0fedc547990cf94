"""Walkthroughs: the replay's words, each rule explained once where it first applies."""

from __future__ import annotations

import io
import re
import typing as t
from pathlib import Path

import pytest
from docutils import nodes
from docutils.core import publish_doctree
from docutils.utils import Reporter

from aces import engine
from aces.dice import DiceFile
from aces.errors import AcesError, LogError
from aces.games import game_named
from aces.i18n import LANGUAGES, translations
from aces.log import LogWriter, read
from aces.narrate import tell
from aces.rules import fivedice
from aces.voice import Voice
from aces.walkthrough import (
    RULES,
    TURNING_POINTS,
    Aside,
    Standings,
    Told,
    explain,
    render,
    stream,
    walkthrough,
)

if t.TYPE_CHECKING:
    from collections.abc import Sequence

    from aces.walkthrough import Part

REPLAYS: t.Final = Path(__file__).resolve().parent.parent / "replays"
#: The rulings' worked examples, one roll per "/".
E1: t.Final = "2/3/5/1 6/3 5/6 6/1 1/1 6/1 4/2 5/6 6/1 1/3 4/5 2"
E2: t.Final = "4/4/2/1/3/1 1/1 1/6 6/1 5/6 3/2 4/1 1/6 2/4 4/2 2/3 3"
E3: t.Final = "5/2/1/3/4/2/5 1/2/3 1/6/1"


def log_of(game_name: str, *scripts: str, players: Sequence[str] = ("Ada", "Bo", "Cy"),
           **options: int | str | bool) -> bytes:
    """A log of one game per dice script, played by the engine."""
    game = game_named(game_name)
    out = io.BytesIO()
    writer = LogWriter(out)
    for script in scripts:
        start = engine.header(game, players, options)
        writer.write_all(engine.play(game, start, DiceFile(script.split("/"), "script")))
    return out.getvalue()


ROOT: t.Final = Path(__file__).resolve().parent.parent


def parts_of(log: bytes, lang: str = "en") -> list[Part]:
    return walkthrough(read(io.BytesIO(log), "test.jsonl"), "test.jsonl", translations(lang),
                       lang)


def rules(parts: Sequence[Part]) -> list[str]:
    """The rules explained, in order (the turning points of a game are no rule)."""
    return [part.rule for part in parts
            if isinstance(part, Aside) and part.rule != TURNING_POINTS]


def told(parts: Sequence[Part]) -> list[str]:
    return [line for part in parts if isinstance(part, Told) for line in part.lines]


def test_e1_explains_each_rule_where_it_first_applies() -> None:
    assert rules(parts_of(log_of("pot", E1))) == [
        "left",          # Cy opens; play passes to the left
        "ace", "six", "ace-and-six",   # Cy 1-6 with two chips
        "nothing",       # Ada 3-5
        "doubles",       # Bo 6-6, both chips paid...
        "comeback",      # ...brings Cy, with empty hands, back into play
        # Nothing in E1 goes unpaid (Bo's 1-4 with one chip costs exactly that
        # chip), so "nobody pays more than they hold" has no place in it.
        "finish-last-chip", "try", "failed-try-last-chip", "won",
    ]


def test_the_note_on_holding_too_little_stands_at_a_roll_that_goes_unpaid() -> None:
    parts = parts_of(log_of("pot", E2, finish="last-holder"))
    position = next(i for i, part in enumerate(parts)
                    if isinstance(part, Aside) and part.rule == "one-chip")
    before = parts[position - 1]
    assert isinstance(before, Told)
    # Bo's 1-1 with one chip: the second ace goes unpaid.
    assert before.lines[-3:-1] == ("Bo rolls 1-1.", "Bo puts 1 chip in the pot.")


def test_the_doubles_note_waits_for_a_double_paid_in_full() -> None:
    # Ada, Bo and Cy hold one chip each: Ada's 1-1 sends one chip, Bo's 6-6 passes one.
    script = "6/2/1/1 1/6 6/3 4/1 5/2 3/4 5/2 2"
    found = rules(parts_of(log_of("pot", script, chips=1)))
    assert "doubles" not in found
    assert "one-chip" in found


def test_e2_explains_the_last_holder_finish() -> None:
    found = rules(parts_of(log_of("pot", E2, finish="last-holder")))
    assert found[:2] == ["opening-tie", "left"]
    for rule in ["finish-last-holder", "failed-try-last-holder", "missed-turn", "one-chip"]:
        assert rule in found
    assert "finish-last-chip" not in found
    assert "failed-try-last-chip" not in found


def test_the_asides_follow_the_roll_once_it_is_settled() -> None:
    parts = parts_of(log_of("pot", E1))
    position = next(i for i, part in enumerate(parts)
                    if isinstance(part, Aside) and part.rule == "ace")
    before = parts[position - 1]
    assert isinstance(before, Told)
    # Cy's 1-6 is told in full, its two consequences included, before any aside.
    assert before.lines[-3:] == ("Cy rolls 1-6.", "Cy puts 1 chip in the pot.",
                                 "Cy passes 1 chip to Ada on the left.")
    # The standings come after the asides, before the next roll.
    after = [part for part in parts[position:position + 5] if not isinstance(part, Aside)]
    assert after[0] == Standings(("Ada", "Bo", "Cy", "Pot"), ("3", "2", "0", "1"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_narration_is_the_replays_own(lang: str) -> None:
    log = log_of("pot", E1, E2)
    replay = tell(read(io.BytesIO(log), "test.jsonl"), "test.jsonl", translations(lang), lang)
    parts = parts_of(log, lang)
    standings = [line for line in replay if line not in told(parts)]
    assert told(parts) == [line for line in replay if line not in standings]
    # Each standings line of the replay is a table, with the same numbers, in the same order.
    tables = [tuple(part.row) for part in parts if isinstance(part, Standings)]
    assert tables == [tuple(re.findall(r"\d+", line)) for line in standings]


def test_a_table_between_games_belongs_to_the_game_before() -> None:
    parts = parts_of(log_of("pot", E1, E1))
    second = next(i for i, part in enumerate(parts)
                  if isinstance(part, Told) and part.opens_game and i > 0)
    assert not any(isinstance(part, Standings) for part in parts[second:second + 2])


def test_each_rule_is_explained_once_in_a_session() -> None:
    found = rules(parts_of(log_of("pot", E1, E1, E1)))
    assert len(found) == len(set(found))
    assert "session" in found
    assert found.index("session") > found.index("won")


def test_five_dice_e3_explains_where_the_dice_go() -> None:
    assert rules(parts_of(log_of("five-dice", E3, dice=1))) == [
        "left",                  # Ada opens
        "turn-over",             # Ada 3
        "two",                   # Cy 2, to Ada
        "empty-hand",            # Cy has given away her only die
        "centre", "five",        # Ada 5-1
        "roll-again",            # Cy 3-1
        "fd-missed-turn",        # Ada and Bo hold nothing
        "fd-lost",               # Cy's last 1
    ]


def test_five_dice_threes_explains_the_chosen_receiver() -> None:
    # The table's dice of replays/threes.dice, receivers of the 3s included.
    dice = (REPLAYS / "threes.dice").read_text(encoding="utf-8").splitlines()
    game = game_named("five-dice")
    out = io.BytesIO()
    start = engine.header(game, ["Ada", "Bo", "Cy"], {"dice": 2, "threes": True})
    LogWriter(out).write_all(engine.play(game, start, DiceFile(dice, "threes.dice")))
    log = out.getvalue()
    asides = {part.rule: part.text for part in parts_of(log) if isinstance(part, Aside)}
    assert "three" in asides
    assert "1, 2, 3 or 5" in asides["roll-again"]
    assert "1, 2, 3 or 5" in asides["turn-over"]


def test_an_empty_hand_ends_the_turn() -> None:
    # Ada opens with 5 and rolls 2: her only die goes left to Bo, and her turn is over.
    # Bo's 1-1 empties his hand too, and Cy rolls the last 1.
    log = log_of("five-dice", "5/3/4/2/1 1/1", dice=1)
    found = rules(parts_of(log))
    assert "empty-hand" in found
    assert found.index("two") < found.index("empty-hand")


@pytest.mark.parametrize("rule", RULES)
def test_every_rule_is_explained_in_both_languages(rule: str) -> None:
    state = fivedice.start(engine.header(game_named("five-dice"), ["Ada", "Bo", "Cy"], {}))
    english = explain(Voice(translations("en"), "en"), rule, state)
    norwegian = explain(Voice(translations("nb"), "nb"), rule, state)
    assert english.endswith(".")
    assert norwegian.endswith(".")
    assert english != norwegian


def test_a_walkthrough_in_norwegian() -> None:
    parts = parts_of(log_of("pot", E1), "nb")
    asides = {part.rule: part for part in parts if isinstance(part, Aside)}
    assert asides["ace"].label == "Regel"
    assert "potten" in asides["ace"].text
    tables = [part for part in parts if isinstance(part, Standings)]
    assert tables[0].header[-1] == "Potten"


def test_a_bad_log_stops_at_its_line() -> None:
    log = log_of("pot", E1).replace(b'"dice":[3,5]', b'"dice":[1,5]')
    with pytest.raises(LogError) as caught:
        parts_of(log)
    assert "test.jsonl, line" in str(caught.value)


# -- Rendering -------------------------------------------------------------------------

PARTS: t.Final[list[Part]] = [
    Told(("Aces in the Pot, game 1: *Ada* and Bo_ have 2 chips each.",), opens_game=True),
    Told(("Ada rolls 1-3.", "Ada puts 1 chip in the pot.")),
    Aside("ace", "Rule", "Each ace sends a chip to the pot | for good."),
    Standings(("*Ada*", "Bo_", "Pot"), ("1", "2", "1")),
    Told(("Aces in the Pot, game 2: *Ada* and Bo_ have 2 chips each.",), opens_game=True),
]


def test_markdown_escapes_names_and_draws_a_table() -> None:
    text = render(PARTS, "markdown")
    assert "## Aces in the Pot, game 1: \\*Ada\\* and Bo\\_ have 2 chips each." in text
    assert "> **Rule:** Each ace sends a chip to the pot \\| for good." in text
    assert "| \\*Ada\\* | Bo\\_ | Pot |\n|---:|---:|---:|\n| 1 | 2 | 1 |" in text
    assert text.count("## ") == 2  # a heading for each game


def commonmark(text: str) -> t.Any:
    """The tokens a CommonMark reader (with tables, as GitHub's) makes of ``text``."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable("table").parse(text)


def inline_text(token: t.Any) -> str:
    """What a reader sees of an inline token: its text, line breaks as spaces."""
    return "".join(child.content if child.type == "text" else " "
                   for child in token.children if child.type in ("text", "softbreak"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_markdown_reads_as_markdown_to_a_commonmark_parser(lang: str) -> None:
    """What the parser sees is what a reader sees: a heading per game, the
    narration as paragraphs of the replay's own words, rules as quoted notes,
    the standings as tables, and no bullet lists or stray backslashes."""
    log = ROOT / "replays" / "session.jsonl"
    with log.open("rb") as handle:
        parts = walkthrough(read(handle, log.name), log.name, translations(lang), lang)
    with log.open("rb") as handle:
        story = tell(read(handle, log.name), log.name, translations(lang), lang)
    tokens = commonmark(render(parts, "markdown"))
    kinds = [token.type for token in tokens]
    headings = [inline_text(tokens[i + 1]) for i, kind in enumerate(kinds)
                if kind == "heading_open"]
    games = [line for line in story if line in {inline_text(t) for t in tokens
                                                if t.type == "inline"}]
    assert len(headings) == sum(isinstance(p, Told) and p.opens_game for p in parts) > 1
    assert all(heading in story for heading in headings)
    assert "bullet_list_open" not in kinds
    assert kinds.count("blockquote_open") == sum(isinstance(p, Aside) for p in parts)
    assert kinds.count("table_open") == sum(isinstance(p, Standings) for p in parts)
    paragraphs = " ".join(inline_text(tokens[i + 1]) for i, kind in enumerate(kinds)
                          if kind == "paragraph_open")
    # Every line told is read as told, in a heading or a paragraph.
    told = [line for part in parts if isinstance(part, Told) for line in part.lines]
    assert all(line in paragraphs or line in headings for line in told)
    assert games
    assert "\\" not in paragraphs


def test_markdown_shows_hostile_names_as_they_are() -> None:
    name = "*Bo_* <b>x</b> [y](z) & `c` | ~~d~~ &amp;"
    parts: list[Part] = [Told((f"Game 1: {name} and Cy.",), opens_game=True),
                         Told((f"{name} rolls 1-6!", "# 2. - + > not markup", "1. nor this")),
                         Aside("ace", "Rule", f"{name} (really)."),
                         Standings((name, "Pot"), ("1", "2"))]
    tokens = commonmark(render(parts, "markdown"))
    texts = [inline_text(token) for token in tokens if token.type == "inline"]
    assert texts == [f"Game 1: {name} and Cy.",
                     f"{name} rolls 1-6! # 2. - + > not markup 1. nor this",
                     f"Rule: {name} (really).", name, "Pot", "1", "2"]
    markup = {child.type for token in tokens if token.type == "inline"
              for child in token.children}
    assert markup <= {"text", "softbreak", "strong_open", "strong_close"}


def _doctree_problems(source: str) -> list[str]:
    problems: list[str] = []
    tree = publish_doctree(source, settings_overrides={
        "report_level": Reporter.SEVERE_LEVEL + 1, "halt_level": Reporter.SEVERE_LEVEL + 1})
    for message in tree.findall(nodes.system_message):
        problems.append(message.astext())
    return problems


def test_rst_is_valid_restructuredtext() -> None:
    text = render(PARTS, "rst")
    assert _doctree_problems(text) == []
    tree = publish_doctree(text)
    assert "*Ada* and Bo_ have 2 chips each." in tree.astext()
    assert len(list(tree.findall(nodes.table))) == 1
    assert len(list(tree.findall(nodes.admonition))) == 1
    assert len(list(tree.findall(nodes.transition))) == 1


def test_rst_of_a_whole_game_is_valid() -> None:
    text = render(parts_of(log_of("pot", E1, E2)), "rst")
    assert _doctree_problems(text) == []


def test_text_lines_up_the_table_and_indents_the_asides() -> None:
    lines = render(PARTS, "text").splitlines()
    assert "    Rule: Each ace sends a chip to the pot | for good." in lines
    assert "    *Ada*  Bo_  Pot" in lines
    assert "        1    2    1" in lines


def test_a_roll_taken_back_and_rolled_again_is_told_once_with_its_correction() -> None:
    from aces.events import Rolled, RollUndone

    game = game_named("pot")
    events = list(engine.play(game, engine.header(game, ["Ada", "Bo", "Cy"], {}),
                              DiceFile(E1.split("/"), "E1")))
    roll = next(i for i, event in enumerate(events)
                if isinstance(event, Rolled) and event.dice == (1, 6))
    # Cy's 1-6 and its two consequences, taken back, then rolled again.
    undo = RollUndone(undoes=roll + 1, player="Cy", dice=(1, 6))
    out = io.BytesIO()
    LogWriter(out).write_all([*events[:roll + 3], undo, *events[roll:]])
    parts = parts_of(out.getvalue())
    plain = io.BytesIO()
    LogWriter(plain).write_all(events)
    plain_parts = parts_of(plain.getvalue())
    assert ([part.row for part in parts if isinstance(part, Standings)]
            == [part.row for part in plain_parts if isinstance(part, Standings)])
    assert rules(parts) == rules(plain_parts)
    told = [line for part in parts if isinstance(part, Told) for line in part.lines]
    assert told.count("Cy rolls 1-6.") == 1
    assert sum(line.startswith("Correction: Cy's roll of 1-6") for line in told) == 1


# -- Corrected games: a roll taken back is told only as its correction ----------------


def _recorded(tmp_path: Path, rolls: list[str], name: str) -> Path:
    from click.testing import CliRunner

    from aces.cli import cli

    log = tmp_path / name
    result = CliRunner(env={"LANG": "C", "LANGUAGE": None, "LC_ALL": None}).invoke(
        cli, ["record", str(log), "--players", "Ada,Bo,Cy"],
        input="".join(f"{roll}\n" for roll in rolls))
    assert result.exit_code == 0, result.output
    return log


def _text(log: Path, lang: str = "en") -> list[str]:
    with log.open("rb") as handle:
        parts = walkthrough(read(handle, log.name), log.name, translations(lang), lang)
    return render(parts, "text").splitlines()


E1_ROLLS: t.Final = ["2", "3", "5", "1 6", "3 5", "6 6", "1 1", "6 1", "4 1", "2 5", "6 6",
                     "1 1", "3 4", "5 2"]


@pytest.mark.parametrize("at", [1, 2, 3, 5, 8, 12, 13])
@pytest.mark.parametrize("taken_back", [1, 2])
def test_a_corrected_game_reads_as_the_game_played_with_one_sentence_per_correction(
    tmp_path: Path, at: int, taken_back: int,
) -> None:
    wrong = ["6" if at + n < 3 else "6 6" for n in range(taken_back)]
    # The wrong rolls may not all be playable (a game may end): keep those that are.
    rolls = [*E1_ROLLS[:at], *wrong, *["undo"] * taken_back, *E1_ROLLS[at:]]
    corrected = _text(_recorded(tmp_path, rolls, "corrected.jsonl"))
    plain = _text(_recorded(tmp_path, E1_ROLLS, "plain.jsonl"))
    corrections = [line for line in corrected if line.startswith("Correction: ")]
    assert len(corrections) == taken_back
    assert all(line.endswith("goes on from before it.") for line in corrections)
    # Without the corrections, the walkthrough is the game's as it was meant:
    # the same story, the same tables, each rule explained at the same roll.
    assert [line for line in corrected if not line.startswith("Correction: ")] == plain


def test_rolls_taken_back_far_back_are_left_out_as_well(tmp_path: Path) -> None:
    # Twenty rolls that move nothing, then all twenty taken back: deeper than
    # any fixed window a streaming walkthrough might hold, within the walk's
    # own reach for undo.
    rolls = [*E1_ROLLS[:5], *["3 4"] * 20, *["undo"] * 20, *E1_ROLLS[5:]]
    corrected = _text(_recorded(tmp_path, rolls, "deep.jsonl"))
    plain = _text(_recorded(tmp_path, E1_ROLLS, "plain.jsonl"))
    assert sum(line.startswith("Correction: ") for line in corrected) == 20
    # Bo's own 3-4 in the finish is told; none of the twenty taken back is.
    assert [line for line in corrected if not line.startswith("Correction: ")] == plain


def test_a_tie_taken_back_is_explained_where_a_tie_stands(tmp_path: Path) -> None:
    # Ada 4, Bo 4, Cy 3 ties Ada and Bo: taken back; Cy's 5 wins the opening.
    # Later nothing ties, so the rule for a tie is never explained.
    undone = _text(_recorded(tmp_path, ["4", "4", "3", "undo", "5", "1 6", "quit"],
                             "undone.jsonl"))
    assert not any("share the highest opening roll" in line for line in undone)
    assert "Cy rolls 3." not in undone
    assert sum(line.startswith("Correction: Cy's roll of 3") for line in undone) == 1
    # A tie that stands is explained right after it.
    stands = _text(_recorded(tmp_path, ["4", "4", "3", "undo", "2", "5", "1", "quit"],
                             "stands.jsonl"))
    tie = stands.index("Ada and Bo tie with 4 and roll again.")
    assert "share the highest opening roll" in " ".join(stands[tie + 1:tie + 4])


def test_a_game_over_taken_back_is_never_won(tmp_path: Path) -> None:
    # The last roll ends the game; it is taken back and Bo ends it again.
    rolls = [*E1_ROLLS[:-1], "3 3", "undo", E1_ROLLS[-1]]
    told = _text(_recorded(tmp_path, rolls, "again.jsonl"))
    assert sum("wins the pot" in line for line in told) == 1
    assert told.count("Correction: Bo's roll of 3-3 is taken back, with everything it"
                      " settled, and play goes on from before it.") == 1


# -- No name becomes markup ------------------------------------------------------

#: Names that are markup in reStructuredText, Markdown or HTML, each a name
#: the rules accept.
MARKUP_NAMES: t.Final = (
    ".. include:: /etc/passwd", "|evil|", ":raw-html:`<b>x</b>`", "`site <http://x.example>`_",
    "[a](javascript:alert(1))", "<script>alert(1)</script>", "1.", "- x", "&amp;", "**bold**",
    "![i](x.png)", "[#]_",
)


def marked_up_parts() -> list[Part]:
    game = game_named("pot")
    start = engine.header(game, MARKUP_NAMES, {})
    out = io.BytesIO()
    from aces.dice import RandomDice

    LogWriter(out).write_all(engine.play(game, start, RandomDice(5)))
    return parts_of(out.getvalue())


def test_no_name_becomes_a_directive_role_or_substitution_in_rst() -> None:
    text = render(marked_up_parts(), "rst")
    tree = publish_doctree(text, settings_overrides={
        "report_level": Reporter.SEVERE_LEVEL + 1, "halt_level": Reporter.SEVERE_LEVEL + 1,
        "file_insertion_enabled": True, "raw_enabled": True})
    shown = tree.astext()
    assert "root:" not in shown
    for kind in (nodes.system_message, nodes.substitution_reference, nodes.problematic,
                 nodes.raw, nodes.reference, nodes.target, nodes.footnote_reference,
                 nodes.enumerated_list, nodes.bullet_list, nodes.literal_block, nodes.emphasis,
                 nodes.strong, nodes.image):
        assert not list(tree.findall(kind)), kind
    for name in MARKUP_NAMES:
        assert name in shown


def test_no_name_becomes_markup_in_markdown() -> None:
    from markdown_it import MarkdownIt

    parts = marked_up_parts()
    asides = sum(isinstance(part, Aside) for part in parts)
    tokens = MarkdownIt("commonmark").enable("table").parse(render(parts, "markdown"))
    kinds = [token.type for token in tokens]
    kinds += [child.type for token in tokens for child in token.children or []]
    for kind in ("link_open", "image", "html_inline", "html_block", "code_inline",
                 "ordered_list_open", "bullet_list_open", "em_open"):
        assert kind not in kinds, kind
    assert kinds.count("strong_open") == asides   # the label of each aside alone
    assert kinds.count("heading_open") == 1       # the game's own heading, no name's
    html = MarkdownIt("commonmark").enable("table").render(render(parts, "markdown"))
    for name in MARKUP_NAMES:
        assert html_escape(name) in html


def html_escape(text: str) -> str:
    import html

    return html.escape(text, quote=False)


def test_no_name_becomes_markup_in_the_documentations_html() -> None:
    from docutils.core import publish_from_doctree
    from docutils.frontend import get_default_settings
    from docutils.utils import new_document
    from docutils.writers.html5_polyglot import Writer

    from aces.sphinxext import walkthrough_nodes

    document = new_document("walkthrough", get_default_settings(Writer))
    document += walkthrough_nodes(marked_up_parts())
    html = publish_from_doctree(document, writer=Writer()).decode()
    for markup in ("<script>", "<b>", 'href="javascript'):
        assert markup not in html
    for name in MARKUP_NAMES:
        assert html_escape(name) in html


@pytest.mark.parametrize(("lang", "others", "pot"), [
    ("en", "Everyone else", "Pot"), ("nb", "Alle andre", "Potten"), ("nn", "Alle andre", "Potten")])
def test_a_large_tables_finish_is_a_table_of_its_holder_and_everyone_else(
        tmp_path: Path, lang: str, others: str, pot: str) -> None:
    """Each time a last-holder finish starts at a large table, its table has a
    column for the one holder and one for everyone else, not one per seat."""
    from worstcases import restarts

    path = tmp_path / "restarts.jsonl"
    restarts(path, 40, 4)
    parts = parts_of(path.read_bytes(), lang)
    tables = [part for part in parts if isinstance(part, Standings)]
    assert max(len(table.header) for table in tables) == 3
    starts = [number for number, part in enumerate(parts)
              if isinstance(part, Standings) and others in part.header]
    assert [parts[number] for number in starts] == [
        Standings(("P40", others, pot), (str(chips), "0", f"{156 + 4 - chips}"))
        for chips in (4, 3, 2, 1)]
    for number in starts:  # the finish begins: only P40 holds chips
        told = parts[number + 1]
        assert isinstance(told, Told)
        assert "P40" in told.lines[0]


# -- One game, the chances, the turning points ----------------------------------------


def _session(lang: str = "en", **asked: t.Any) -> list[Part]:
    with (REPLAYS / "session.jsonl").open("rb") as log:
        return walkthrough(read(log, "session.jsonl"), "session.jsonl", translations(lang),
                           lang, **asked)


def _openings(parts: Sequence[Part]) -> list[str]:
    return [part.lines[0] for part in parts if isinstance(part, Told) and part.opens_game]


def test_one_game_of_a_session_is_told_alone_with_its_rules_explained_again() -> None:
    whole = _session()
    second = _session(game=2)
    assert [opening.split(":")[0] for opening in _openings(second)] == [
        "Aces in the Pot, game 2"]
    # Its rules are explained as if it stood alone: those of the first game too.
    first_rules = [part.rule for part in whole[:whole.index(next(
        part for part in whole[1:] if isinstance(part, Told) and part.opens_game))]
        if isinstance(part, Aside)]
    second_rules = {part.rule for part in second if isinstance(part, Aside)}
    assert {"left", "ace", "try"} <= set(first_rules) <= second_rules
    # Told as in the whole log, from its opening to the next game's.
    told = [line for part in second if isinstance(part, Told) for line in part.lines]
    everything = [line for part in whole if isinstance(part, Told) for line in part.lines]
    start = everything.index(told[0])
    assert everything[start:start + len(told)] == told


def test_a_game_the_log_does_not_hold_is_refused_naming_how_many_it_holds() -> None:
    with pytest.raises(AcesError) as refused:
        _session(game=6)
    assert str(refused.value) == "there is no game 6 in session.jsonl: it holds 5 games"
    assert refused.value.spoken("nb") == ("det er ikke noe parti 6 i session.jsonl:"
                                          " loggen har 5 partier")


def test_a_game_alone_streams_as_it_is_told_whole() -> None:
    with (REPLAYS / "session.jsonl").open("rb") as log:
        streamed = render(stream(read(log, "session.jsonl"), "session.jsonl",
                                 translations("nn"), "nn", game=3), "text")
    assert streamed == render(_session("nn", game=3), "text")


def test_the_chances_after_each_roll_are_told_when_asked_for() -> None:
    plain = [line for part in _session(game=1) if isinstance(part, Told) for line in part.lines]
    told = [line for part in _session(game=1, odds=True) if isinstance(part, Told)
            for line in part.lines]
    chances = [line for line in told if line.startswith("The chances to win the pot: ")]
    assert chances
    assert [line for line in told if line not in chances] == plain


def test_the_turning_points_are_left_out_when_not_asked_for() -> None:
    assert any(isinstance(part, Aside) and part.rule == TURNING_POINTS for part in _session())
    without = _session(turning_points=False)
    assert not any(isinstance(part, Aside) and part.rule == TURNING_POINTS for part in without)
    def told(parts: Sequence[Part]) -> list[str]:
        return [line for part in parts if isinstance(part, Told) for line in part.lines]

    assert told(without) == told(_session())


def test_a_numbers_point_stays_as_it_reads_in_markdown() -> None:
    """Only a dot before a letter can end a domain: the Markdown of every
    chance once read ``59\\.1%``, a backslash in every number for the writer
    whose docs hold it."""
    text = render([Told(("Ada's chance went from 59.1% to 21.0%.",), opens_game=True)],
                  "markdown")
    assert "59.1% to 21.0%" in text


@pytest.mark.parametrize("name", ["https://evil.example/p", "www.evil.example", "evil.com",
                                  "ada@evil.no", "mailto:ada@evil.no", "http://x.no/a?b=c",
                                  "WWW.1.2", "www.1.2", "x.1b.no", "evil.co.uk", "Evil.Com",
                                  "http://10.0.0.1/a"])
def test_no_name_becomes_a_link_in_githubs_markdown(name: str) -> None:
    """GitHub makes links of bare addresses, without any markup: a player named
    ``https://evil.example/p`` or ``www.evil.example`` once became one."""
    from markdown_it import MarkdownIt

    parts: list[Part] = [Told((f"Game 1: {name} and Cy.",), opens_game=True),
                         Told((f"{name} rolls 1-6!",)),
                         Aside("ace", "Rule", f"{name} (really)."),
                         Standings((name, "Pot"), ("1", "2"))]
    gfm = MarkdownIt("gfm-like")
    tokens = gfm.parse(render(parts, "markdown"))
    kinds = [child.type for token in tokens for child in token.children or []]
    assert "link_open" not in kinds
    texts = [inline_text(token) for token in tokens if token.type == "inline"]
    assert texts[:3] == [f"Game 1: {name} and Cy.", f"{name} rolls 1-6!",
                         f"Rule: {name} (really)."]
    assert name in texts
