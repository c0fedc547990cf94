"""``aces simulate --html``: the page carries the chain the package builds from
its rules, and plays it in a real Chromium to the exact values."""

from __future__ import annotations

import re
import typing as t

import pytest

from aces.exact import fivedice_chain
from aces.exact.chain import build
from aces.exact.outcomes import OUTCOME_INDEX
from aces.exact.solve import solve
from aces.i18n import LANGUAGES

from browser import page_data, visit
from clitest import one_line_error, run

if t.TYPE_CHECKING:
    from pathlib import Path

    from playwright.sync_api import Browser


def write(page: Path, *options: str) -> dict[str, t.Any]:
    result = run("simulate", "--html", str(page), *options)
    assert result.exit_code == 0, result.output
    return page_data(page)


def test_the_page_carries_the_chain_of_the_rules(tmp_path: Path) -> None:
    data = write(tmp_path / "sim.html", "--players", "3", "--finish", "last-holder")
    assert data["players"] == 3
    assert data["finish"] == "last-holder"
    assert data["outcome_of_roll"] == list(OUTCOME_INDEX)
    assert data["languages"] == list(LANGUAGES)
    offered = {(table["players"], table["finish"]) for table in data["tables"]}
    assert {(n, f) for n in (2, 3, 4, 5) for f in ("last-chip", "last-holder")} == offered
    for table in data["tables"]:
        chain = build(table["players"], 2, table["finish"])
        assert table["next"] == chain.nxt.ravel().tolist()
        assert table["turn"] == chain.rot.ravel().tolist()
        assert table["start"] == chain.start
        exact = solve(chain)
        assert table["exact"]["by_seat"] == pytest.approx(exact.win_by_seat, abs=1e-6)
        assert table["exact"]["rolls"] == pytest.approx(exact.expected_rolls, abs=1e-4)
    text = (tmp_path / "sim.html").read_text(encoding="utf-8")
    assert "default-src 'none'" in text
    assert not re.search(r"(src|href)=\"", text)


def test_games_too_large_for_a_page_and_other_games_are_refused(tmp_path: Path) -> None:
    page = tmp_path / "sim.html"
    assert "2,500" in one_line_error(run("simulate", "--players", "9", "--html", str(page)))
    error = one_line_error(run("simulate", "--players", "4", "--game", "five-dice", "--html",
                               str(page), "--lang", "nb"))
    assert "60\xa0000" in error
    assert "--dice-each 5" in error
    error = one_line_error(run("simulate", "--players", "2", "--game", "five-dice", "--html",
                               str(page)))
    assert "at least 3" in error
    assert not page.exists()


def _near_the_exact_values(last: list[str], table: dict[str, t.Any]) -> None:
    """The last row of the page's table (100,000 games, with decimal commas), its
    shares and mean length beside the exact values."""
    seats = table["players"]
    shares = [float(cell.replace("\u00a0%", "").replace(",", ".")) / 100
              for cell in last[1:1 + seats]]
    for share, exact in zip(shares, table["exact"]["by_seat"], strict=True):
        assert abs(share - exact) < 0.01
    mean = float(last[1 + seats].replace(",", "."))
    assert abs(mean - table["exact"]["rolls"]) < 0.02 * table["exact"]["rolls"]


def test_the_page_plays_to_the_exact_values(browser: Browser, tmp_path: Path) -> None:
    page = tmp_path / "sim.html"
    data = write(page, "--players", "4", "--lang", "nb")
    opened = visit(browser, page)
    tab = opened.page
    tab.click("#run")
    tab.wait_for_selector("body[data-done='100000']", timeout=120_000)
    rows = [[cell.inner_text() for cell in row.query_selector_all("th, td")]
            for row in tab.query_selector_all("#rows tr")]
    assert [row[0] for row in rows] == ["1", "10", "100", "1\u00a0000", "10\u00a0000",
                                        "100\u00a0000"]
    table = next(entry for entry in data["tables"]
                 if entry["players"] == 4 and entry["finish"] == "last-chip")
    _near_the_exact_values(rows[-1], table)
    exact_row = [cell.inner_text() for cell in tab.query_selector_all("#exact-row th, "
                                                                       "#exact-row td")]
    assert exact_row[0] == "Eksakt"
    assert len(tab.query_selector_all(".bar")) == 4
    # Another table, another language: the words change, nothing is composed.
    tab.select_option("#players", "5")
    tab.select_option("#language", "en")
    assert tab.inner_text("#run") == "Run"
    assert len(tab.query_selector_all("#head th")) == 5 + 2
    assert opened.requests == []
    assert opened.errors == []


def test_without_a_script_the_exact_values(browser: Browser, tmp_path: Path) -> None:
    page = tmp_path / "sim.html"
    write(page, "--players", "3")
    opened = visit(browser, page, script=False)
    tab = opened.page
    assert not tab.is_visible("#controls")
    exact = [cell.inner_text() for cell in tab.query_selector_all("#exact-row td")]
    assert len(exact) == 3 + 1
    assert "JavaScript" in tab.inner_text("body")
    assert opened.requests == []


def test_the_fivedice_page_carries_the_branches_of_the_rules(tmp_path: Path) -> None:
    """Each state's branches, in the chain's order, with their chances added up
    and their next state and roller in one number: what the rules settled."""
    data = write(tmp_path / "sim.html", "--game", "five-dice", "--players", "4",
                 "--dice-each", "1")
    assert data["game"] == "five-dice"
    assert data["players"] == 4
    assert [table["players"] for table in data["tables"]] == [3, 4, 5, 6]
    for table in data["tables"]:
        n = table["players"]
        chain = fivedice_chain.build(n, 1, threes=False, threes_to="random")
        assert table["size"] == len(chain.states)
        assert table["start"] == chain.start
        assert len(table["first"]) == len(chain.states)
        for state, out in enumerate(chain.branches):
            first = table["first"][state]
            steps = table["step"][first:first + len(out)]
            assert steps == [(b.state if b.state >= 0 else len(chain.states)) * n + b.rotation
                             for b in out]
            running = table["chances"][table["roll"][state]]
            assert len(running) == len(out)
            total = 0.0
            for branch, upto in zip(out, running, strict=True):
                total += float(branch.chance)
                assert upto == pytest.approx(total, abs=1e-11)
        exact = fivedice_chain.solve(chain)
        assert table["exact"]["by_seat"] == pytest.approx(exact.win_by_seat, abs=1e-6)
        assert table["exact"]["rolls"] == pytest.approx(exact.expected_rolls, abs=1e-4)


def test_the_fivedice_page_plays_to_the_exact_values(browser: Browser, tmp_path: Path) -> None:
    """Three players with five dice each, the real game: the shares of losses
    after 100,000 games in the browser stand by the exact chances."""
    page = tmp_path / "sim.html"
    data = write(page, "--game", "five-dice", "--players", "3", "--lang", "nn")
    opened = visit(browser, page)
    tab = opened.page
    assert not tab.is_visible("#finish-box")
    assert tab.inner_text("#setup") == "fem terningar kvar"
    assert tab.inner_text("h1") == data["labels"]["nn"]["title"]
    tab.click("#run")
    tab.wait_for_selector("body[data-done='100000']", timeout=300_000)
    rows = [[cell.inner_text() for cell in row.query_selector_all("th, td")]
            for row in tab.query_selector_all("#rows tr")]
    table = data["tables"][0]
    _near_the_exact_values(rows[-1], table)
    assert tab.inner_text("#caption") == data["labels"]["nn"]["share"]
    for lang in LANGUAGES:
        tab.select_option("#language", lang)
        assert tab.inner_text("h1") == data["labels"][lang]["title"]
        assert tab.inner_text("#setup") == data["labels"][lang]["setup"]
    assert opened.requests == []
    assert opened.errors == []


def test_the_fivedice_page_without_a_script(browser: Browser, tmp_path: Path) -> None:
    page = tmp_path / "sim.html"
    data = write(page, "--game", "five-dice", "--players", "3", "--dice-each", "2")
    opened = visit(browser, page, script=False)
    tab = opened.page
    exact = [cell.inner_text() for cell in tab.query_selector_all("#exact-row td")]
    table = next(t for t in data["tables"] if t["players"] == 3)
    assert exact[:3] == [f"{100 * p:.1f}%" for p in table["exact"]["by_seat"]]
    assert "loses most often" in tab.inner_text("h1")
    assert opened.requests == []
