"""Where dice come from: the seeded generator and typed-in dice files."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aces.dice import DiceFile, DiceLine, RandomDice, parse_entry, parse_lines
from aces.errors import DiceFileError
from aces.i18n import translations
from aces.rules import Roll, RollRequest

OPENING = RollRequest("Ada", 1, "opening")
TURN = RollRequest("Bo", 2, "turn")


def test_values_are_separated_by_spaces_or_commas() -> None:
    lines = ["1 6", "1,6", "1, 6", "1\t6", " 1 ,  6 ", "1,,6"]
    assert [line.values for line in parse_lines(lines, "f")] == [(1, 6)] * len(lines)


def test_blank_lines_and_comments_are_skipped_and_lines_keep_their_numbers() -> None:
    lines = ["# the opening", "", "4", "   ", "3  # Bo", "# Cy next", "5"]
    assert list(parse_lines(lines, "f")) == [
        DiceLine(3, (4,), ()), DiceLine(5, (3,), ()), DiceLine(7, (5,), ())]


def test_names_after_a_chevron_are_receivers() -> None:
    assert list(parse_lines(["3 3 1 > Bo, Cy"], "f")) == [DiceLine(1, (3, 3, 1), ("Bo", "Cy"))]


@pytest.mark.parametrize("bad", ["7", "0", "x", "67", "1.5", "6+6", "½", "²", "\uff17", "1e0"])
def test_a_value_outside_1_to_6_is_refused_with_its_line(bad: str) -> None:
    lines = ["# table", "1 6", f"3 {bad}", "2 2"]
    read = parse_lines(lines, "table.txt")
    assert next(read).line == 2
    with pytest.raises(DiceFileError, match="not a face of a die") as caught:
        next(read)
    assert (caught.value.source, caught.value.line) == ("table.txt", 3)
    assert str(caught.value).startswith("table.txt, line 3: ")


def test_a_line_without_dice_is_refused() -> None:
    with pytest.raises(DiceFileError, match="names no dice") as caught:
        list(parse_lines(["1 6", ", # nothing"], "f"))
    assert caught.value.line == 2


def test_lines_read_as_bytes_are_decoded() -> None:
    lines = [b"# Ada\n", b"1, 6\r\n", "3 3 > Bo \u00c5se\n".encode()]
    assert list(parse_lines(lines, "f")) == [
        DiceLine(2, (1, 6), ()), DiceLine(3, (3, 3), ("Bo", "\u00c5se"))]


@pytest.mark.parametrize("bad", [b"1 \xff\n", b"\xc3\n", "1 6 # \u00e6".encode("latin-1")])
def test_a_line_that_is_not_utf_8_is_refused_with_its_line(bad: bytes) -> None:
    read = parse_lines([b"2\n", b"# Bo\n", bad, b"5\n"], "table.txt")
    assert next(read).line == 1
    with pytest.raises(DiceFileError, match="not UTF-8 text") as caught:
        next(read)
    assert (caught.value.source, caught.value.line) == ("table.txt", 3)


@pytest.mark.parametrize("first", [b"\xef\xbb\xbf2\n", "\ufeff2\n"])
def test_a_byte_order_mark_before_the_first_line_is_skipped(first: bytes | str) -> None:
    assert [line.values for line in parse_lines([first, "3"], "f")] == [(2,), (3,)]


def test_a_byte_order_mark_later_on_is_no_face() -> None:
    with pytest.raises(DiceFileError, match="not a face") as caught:
        list(parse_lines(["2", "\ufeff3"], "f"))
    assert caught.value.line == 2


def test_a_dice_file_answers_each_request_with_the_next_roll() -> None:
    dice = DiceFile(["# Ada", "4", "", "2 5"], "f")
    assert dice.roll(OPENING) == Roll((4,))
    assert dice.last_line == 2
    assert dice.roll(TURN) == Roll((2, 5))
    assert dice.last_line == 4
    dice.check_finished()


def test_a_line_with_the_wrong_number_of_dice_is_refused() -> None:
    dice = DiceFile(["4", "2 5 1"], "table.txt")
    dice.roll(OPENING)
    with pytest.raises(DiceFileError, match="Bo rolls 2 dice here, but the line has 3") as caught:
        dice.roll(TURN)
    assert caught.value.line == 2


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "table.txt, line 1: Ada rolls 1 die here, but the line has 2"),
    ("nb", "table.txt, linje 1: Ada skal kaste én terning her, men linjen har 2"),
    ("nn", "table.txt, linje 1: Ada skal kaste éin terning her, men linja har 2"),
])
def test_one_die_is_said_in_the_singular(lang: str, expected: str) -> None:
    with pytest.raises(DiceFileError) as caught:
        DiceFile(["4 4"], "table.txt").roll(OPENING)
    catalog = translations(lang)
    assert caught.value.render(catalog.gettext, catalog.ngettext) == expected


def test_too_few_rolls_are_refused_at_the_last_roll() -> None:
    dice = DiceFile(["4", "2 5", "# the end"], "table.txt")
    dice.roll(OPENING)
    dice.roll(TURN)
    with pytest.raises(DiceFileError, match=r"dice run out here.*Ada rolls next") as caught:
        dice.roll(OPENING)
    assert caught.value.line == 2


@pytest.mark.parametrize("lines", [[], ["# nothing yet", ""]])
def test_a_file_without_rolls_is_refused_at_its_first_line(lines: list[str]) -> None:
    with pytest.raises(DiceFileError, match="dice run out") as caught:
        DiceFile(lines, "table.txt").roll(OPENING)
    assert caught.value.line == 1


def test_rolls_left_over_are_refused_from_the_first_one_on() -> None:
    dice = DiceFile(["4", "# spare:", "", "2 5", "3 3"], "table.txt")
    dice.roll(OPENING)
    with pytest.raises(DiceFileError, match="rolls are left") as caught:
        dice.check_finished()
    assert caught.value.line == 4


def test_comments_after_the_last_roll_are_not_left_over() -> None:
    dice = DiceFile(["4", "# that was all", ""], "f")
    dice.roll(OPENING)
    dice.check_finished()


@given(st.integers(min_value=0, max_value=2**64), st.integers(min_value=1, max_value=6))
def test_generated_dice_are_faces_and_the_same_seed_rolls_the_same(seed: int, count: int) -> None:
    request = RollRequest("Ada", count, "turn")
    first, second = RandomDice(seed), RandomDice(seed)
    rolls = [first.roll(request) for _ in range(20)]
    assert rolls == [second.roll(request) for _ in range(20)]
    assert all(len(r.dice) == count and set(r.dice) <= set(range(1, 7)) for r in rolls)


def test_different_seeds_roll_differently() -> None:
    def rolls(seed: int) -> tuple[Roll, ...]:
        dice = RandomDice(seed)
        return tuple(dice.roll(TURN) for _ in range(10))

    assert len({rolls(seed) for seed in range(20)}) == 20


def test_generated_dice_show_every_face() -> None:
    dice = RandomDice(1)
    faces = {value for _ in range(200) for value in dice.roll(TURN).dice}
    assert faces == set(range(1, 7))


def test_a_typed_line_is_refused_before_anyone_knows_where_it_came_from() -> None:
    # The reader of a line cannot know its file; the error waits to be placed.
    with pytest.raises(DiceFileError, match="not a face of a die") as caught:
        parse_entry("7")
    assert (caught.value.source, caught.value.line) == (None, None)
    assert str(caught.value) == "'7' is not a face of a die (1 to 6)"


def test_a_roll_the_rules_refuse_in_a_dice_file_stays_a_roll_error_at_its_line() -> None:
    from aces import engine
    from aces.errors import RollError
    from aces.rules import pot

    # Aces in the Pot gives nothing by choice: the rules refuse the receiver.
    dice = DiceFile(["2", "3", "5", "1 6 > Bo"], "table.txt")
    with pytest.raises(RollError) as caught:
        list(engine.play(pot.GAME, engine.header(pot.GAME, ["Ada", "Bo", "Cy"], {}), dice))
    assert not isinstance(caught.value, DiceFileError)
    assert (caught.value.source, caught.value.line) == ("table.txt", 4)
