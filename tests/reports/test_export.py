"""The tables of ``aces stats --csv``: no cell a spreadsheet would run, under any delimiter."""

from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess
import typing as t

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aces.reports.export import COMMA, POINT, cell, text_of

from clitest import run

if t.TYPE_CHECKING:
    from pathlib import Path

#: What a spreadsheet reads as the start of a formula.
FORMULA: t.Final = ("=", "+", "-", "@")
#: The delimiters spreadsheets split a file at, whichever it was written with.
DELIMITERS: t.Final = (",", ";", "\t")


def fields(text: str, delimiter: str) -> list[str]:
    """Every cell of ``text`` as a spreadsheet splitting at ``delimiter`` reads it."""
    return [field for row in csv.reader(io.StringIO(text), delimiter=delimiter)
            for field in row]


def runnable(text: str) -> list[str]:
    """The cells of ``text`` that some spreadsheet would read as a formula."""
    return [field for delimiter in DELIMITERS for field in fields(text, delimiter)
            if field.lstrip(" ").startswith(FORMULA)]


@given(st.text(alphabet="=+-@,;\"' aB\t", max_size=12))
def test_no_cell_begins_a_formula_under_any_delimiter(name: str) -> None:
    for style in (POINT, COMMA):
        text = text_of([["seat", cell(name), "1"]], style)
        assert runnable(text) == [], text


def test_a_cell_keeps_what_it_says() -> None:
    assert cell("Ada") == "Ada"
    assert cell("Ada;=1+1;x") == "Ada;'=1+1;x"
    assert cell("x,=1+1,y") == "x,'=1+1,y"
    assert cell("@SUM(A1)") == "'@SUM(A1)"


@pytest.mark.parametrize(("players", "options"), [
    (["Ada;=1+1;x", "Bo", "Cy"], []),                    # Excel with Norwegian settings
    (["x,=1+1,y", "Bo", "Cy"], ["--decimal-comma"]),     # GeoGebra, after --decimal-comma
    (["Ada", "Bo", "+cmd|' /C calc'!A0"], []),
])
@pytest.mark.parametrize("table", [["--rolls"], [], ["--by-log"]])
def test_the_tables_of_hostile_names_and_file_names_run_nothing(
        tmp_path: Path, players: list[str], options: list[str], table: list[str]) -> None:
    """``aces play --players 'Ada;=1+1;x,Bo,Cy'`` once gave Excel a cell ``=1+1``."""
    import aces

    log = tmp_path / "=1+1;@x.jsonl"
    aces.play(players, seed=4).save(log)
    out = tmp_path / "d.csv"
    result = run("stats", str(log), "--csv", str(out), *table, *options)
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8-sig")
    assert runnable(text) == []
    # And nothing is lost: read as written, every name is there, marked as text.
    style = COMMA if options else POINT
    cells = set(fields(text, style.delimiter))
    assert any(str(log.name) in value or cell(str(log)) == value for value in cells)
    if table == ["--rolls"]:
        # Everyone rolls in the opening: every name is in the table of rolls.
        assert {cell(name) for name in players} <= cells


#: Set (as .ci/run sets it) where LibreOffice is installed, so that its tests
#: fail rather than skip when it cannot be found.
OFFICE_REQUIRED: t.Final = "ACES_OFFICE_REQUIRED"


@pytest.fixture
def soffice() -> str:
    """LibreOffice's command; skips without it, or fails where it is required."""
    found = shutil.which("soffice") or shutil.which("libreoffice")
    if found is None:
        reason = "LibreOffice is not installed (apt-get install libreoffice-calc-nogui)"
        if os.environ.get(OFFICE_REQUIRED):
            pytest.fail(f"{reason}, but {OFFICE_REQUIRED} is set: its tests must run here")
        pytest.skip(reason)
    return found


@pytest.mark.parametrize("delimiter", DELIMITERS)
def test_libreoffice_runs_no_formula_of_a_table(tmp_path: Path, delimiter: str,
                                                soffice: str) -> None:
    """LibreOffice opens the table with each delimiter and writes back what it
    computed: had it read a formula, a cell would hold its result, 2."""
    import aces

    log = tmp_path / "game.jsonl"
    aces.play(["Ada;=1+1;x", "x,=1+1,y", "=1+1"], seed=4).save(log)
    table = tmp_path / "d.csv"
    assert run("stats", str(log), "--csv", str(table), "--rolls").exit_code == 0
    separator = {",": "44", ";": "59", "\t": "9"}[delimiter]
    out = tmp_path / "out"
    subprocess.run([soffice, "--headless", f"-env:UserInstallation=file://{tmp_path}/profile",
                    f"--infilter=CSV:{separator},34,76,1", "--convert-to", "csv:Text - txt - csv"
                    " (StarCalc):44,34,76,1,,0,false,true,false,false", "--outdir", str(out),
                    str(table)], check=True, capture_output=True, timeout=120)
    computed = (out / "d.csv").read_text(encoding="utf-8", errors="replace")
    written = list(csv.reader(io.StringIO(table.read_text(encoding="utf-8-sig")),
                              delimiter=delimiter))
    shown = list(csv.reader(io.StringIO(computed)))
    assert len(shown) == len(written)
    for ours, theirs in zip(written, shown, strict=True):
        # Text stays the text written (LibreOffice keeps the ' that marks it).
        assert [field for field in ours if any(c in field for c in "=+-@")] == [
            field for field, kept in zip(theirs, ours, strict=False)
            if any(c in kept for c in "=+-@")]
