"""The refusals' codes (aces.server.answers): each error names itself by the
code the API's page lists, with the status it gives, and no code is
answered that the page does not list."""

from __future__ import annotations

import re
import typing as t
from pathlib import Path

from aces.errors import AcesError, ClassError, DiceFileError, OptionError, RollError, SaveError
from aces.i18n import unknown_language
from aces.log import full_log
from aces.server.answers import STATUS, code_of, status_of

#: The page of the API, whose table lists every code and its status.
API_PAGE: t.Final = Path(__file__).resolve().parents[2] / "docs" / "class" / "api.rst"


def documented() -> dict[str, int]:
    """The codes of the page's table, each with its status."""
    table = API_PAGE.read_text(encoding="utf-8").split("``code`` is one of:", 1)[1]
    rows = re.findall(r"^   \* - (.+)\n     - (.+)\n", table, re.MULTILINE)
    found: dict[str, int] = {}
    for codes, statuses in rows[1:]:  # the first row is the header
        names = re.findall(r"``([a-z_]+)``", codes)
        numbers = [int(number) for number in statuses.split(",")]
        if len(numbers) == 1:
            numbers *= len(names)
        assert len(numbers) == len(names), codes
        found.update(zip(names, numbers, strict=True))
    return found


def test_the_api_page_lists_every_code_with_its_status() -> None:
    assert documented() == STATUS


def test_each_error_is_answered_by_its_own_code() -> None:
    assert code_of(unknown_language("de").coded("unknown_language")) == "unknown_language"
    assert code_of(full_log().coded("log_full")) == "log_full"
    assert code_of(ClassError("the group has no game {game}", game=3).coded("no_game")) == (
        "no_game")
    assert code_of(SaveError("cannot write {path}: {reason}", path="x", reason="full")) == (
        "saving")
    assert status_of(SaveError("cannot write {path}: {reason}", path="x", reason="full")) == 503
    assert code_of(OptionError("names")) == "names"
    assert code_of(RollError("no")) == code_of(DiceFileError("no")) == "roll"
    assert code_of(AcesError("other")) == "roll"
