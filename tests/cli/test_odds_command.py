"""``aces odds``: exact answers as a table or JSON, and bad input as one line."""

from __future__ import annotations

import json
import re
import typing as t

import pytest
from click.testing import CliRunner

from aces.cli import cli
from aces.exact.chain import build
from aces.exact.solve import solve
from aces.reports.odds import length_rows

from clitest import ENGLISH, one_line_error

if t.TYPE_CHECKING:
    from click.testing import Result

#: English whatever the machine's locale.


def run(*args: str) -> Result:
    return CliRunner(env=ENGLISH).invoke(cli, ["odds", *args])



@pytest.mark.parametrize("finish", ["last-chip", "last-holder"])
def test_json_holds_the_solution(finish: str) -> None:
    result = run("--players", "4", "--finish", finish, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    expected = solve(build(4, 2, t.cast("t.Any", finish)))
    assert data["win_by_seat"] == pytest.approx(expected.win_by_seat, abs=1e-12)
    assert sum(data["win_by_seat"]) == pytest.approx(1, abs=1e-12)
    assert data["expected_rolls"] == pytest.approx(expected.expected_rolls)
    assert data["sd_rolls"] == pytest.approx(expected.sd_rolls)
    assert data["options"] == {"finish": finish, "chips": 2}


def test_the_help_names_every_key_of_the_json() -> None:
    data = json.loads(run("--players", "3", "--json").stdout)
    keys = run("--help").stdout.split("The keys of --json:", 1)[1]
    assert set(re.findall(r"[a-z_]+", keys)) >= set(data)


def test_the_length_distribution_counts_rolls_from_one() -> None:
    # Two players with a chip each: an ace and then a try of three rolls is
    # the shortest game, four rolls.
    data = json.loads(run("--players", "2", "--chips", "1", "--json").stdout)
    cdf = data["length_cdf"]
    assert cdf[:3] == [0, 0, 0]
    assert cdf[3] > 0
    assert len(cdf) == data["rolls_at_quantile"]
    assert cdf[-1] >= data["quantile"] > cdf[-2]


def test_json_gives_closed_forms_as_fractions() -> None:
    data = json.loads(run("--players", "3", "--json").stdout)
    nothing = next(r for r in data["roll"] if r["aces"] == 0 and r["sixes"] == 0)
    assert nothing["chance"] == "4/9"
    assert data["try_success"]["chance"] == "15625/46656"
    assert [c["held"] for c in data["roll_cost"]] == [1, 2]
    assert data["roll_cost"][0]["total"] == "5/9"
    assert len(data["finish_from_holder"]) == 3


def test_the_length_distribution_stops_at_the_quantile() -> None:
    data = json.loads(run("--players", "3", "--quantile", "0.9", "--json").stdout)
    cdf = data["length_cdf"]
    assert cdf[-1] >= 0.9 > cdf[-2]
    assert cdf == sorted(cdf)
    assert data["rolls_at_quantile"] == len(cdf)


def test_the_readable_table_in_english() -> None:
    result = run("--players", "3")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "4/9" in out
    assert "44.4%" in out
    # Digits grouped, and a rounded value is only about equal.
    assert "15,625/46,656 \u2248 33.5%" in out
    assert "99% of games are over within" in out
    # Two 1-1 rolls and a 1-1 with its second ace ignored, then a try.
    assert "The shortest games take 6 rolls." in out


@pytest.mark.parametrize("lang", ["nb", "nn"])
def test_norwegian_numbers_have_a_decimal_comma(lang: str) -> None:
    result = run("--players", "3", "--lang", lang)
    assert result.exit_code == 0, result.output
    assert "44,4\xa0%" in result.stdout
    assert "44.4" not in result.stdout
    assert "15\xa0625/46\xa0656 \u2248 33,5\xa0%" in result.stdout


def test_the_report_in_bokmal_words() -> None:
    out = run("--players", "3", "--lang", "nb").stdout
    # Small counts in words, the line's first word with a capital.
    assert "\nTre spillere, to sjetonger hver, sluttspillet «siste sjetong» (last-chip)\n" in out
    assert "\n    to plasser til venstre " in out
    assert ("Et forsøk (tre kast uten sekser) lykkes med sannsynligheten"
            " 15\xa0625/46\xa0656 \u2248 33,5\xa0%.") in out
    assert "Hele partiet" in out


def test_the_report_in_nynorsk_words() -> None:
    out = run("--players", "3", "--finish", "last-holder", "--lang", "nn").stdout
    assert out.startswith("Eksakte sannsyn i Ess i potten\n"
                          "Tre spelarar, to sjetongar kvar, sluttspelet «siste med sjetongar»"
                          " (last-holder)\n")
    assert ("Eit forsøk (tre kast utan seksar) lukkast med sannsynet"
            " 15\xa0625/46\xa0656 \u2248 33,5\xa0%.") in out
    assert "Heile partiet" in out
    assert "sannsynlighet" not in out


@pytest.mark.parametrize("players", ["1", "0", "-3"])
def test_too_few_players(players: str) -> None:
    line = one_line_error(run("--players", players))
    assert "--players must be at least 2" in line


def test_a_game_too_big_suggests_the_simulation() -> None:
    line = one_line_error(run("--players", "11"))
    assert "129,024,546 states" in line
    assert "limit of 25,000,000" in line
    assert "aces simulate" in line


def test_a_game_of_few_states_but_thousands_of_rolls_is_refused_for_its_work() -> None:
    # Two players with 705 chips each: under a million states, but a game
    # lasts thousands of rolls, each carried over every state.
    line = one_line_error(run("--players", "2", "--chips", "705"))
    assert "would take too long" in line
    assert "4,230 rolls" in line
    assert "998,985 states" in line
    assert "aces simulate" in line


def test_the_help_gives_the_limit_in_states_and_memory() -> None:
    from aces.exact import MAX_STATES, check_size, memory_needed

    text = " ".join(run("--help").stdout.split())
    assert f"{MAX_STATES // 10**6} million states" in text
    assert "10 GB of memory: 10 players with 2 chips each, or 14 with 1" in text
    # What the help says is what the solver takes.
    assert memory_needed(10, check_size(10, 2)) < 10 * 10**9
    assert check_size(14, 1) <= MAX_STATES


@pytest.mark.parametrize("players", ["15", "40", "1000000", "9" * 4000])
def test_too_many_players_for_any_chips_are_refused_at_once(players: str) -> None:
    line = one_line_error(run("--players", players))
    assert line.startswith("aces: exact odds can be worked out for at most 14 players, not ")
    assert "aces simulate" in line


@pytest.mark.parametrize("chips", [10**9, 10**40])
def test_a_count_of_states_too_long_to_write_out_is_written_with_an_exponent(
        chips: int) -> None:
    from aces.exact.chain import state_count

    line = one_line_error(run("--players", "4", "--chips", str(chips)))
    found = re.search(r"need (\d)\.(\d)E(\d+) states", line)
    assert found is not None, line
    states = state_count(4, chips)
    assert int(found[3]) == len(str(states)) - 1
    assert found[1] == str(states)[0]


def test_a_bad_quantile_and_chips() -> None:
    assert "--quantile" in one_line_error(run("--players", "3", "--quantile", "1"))
    assert "at least 1 chip" in one_line_error(run("--players", "3", "--chips", "0"))


def test_length_rows_end_at_the_quantile() -> None:
    cdf = [0.0] * 4 + [0.0001] + [i / 100 for i in range(1, 100)]
    rows = length_rows(cdf, most=10)
    assert rows[0] == 6
    assert rows[-1] == len(cdf)
    assert len(rows) <= 12


def test_seats_are_counted_from_one_and_json_keeps_its_list() -> None:
    out = run("--players", "3").stdout
    assert "Seat 1 rolls first after the opening" in out
    seats = re.findall(r"^    (\d)\s+\d+\.\d\d%$", out, re.MULTILINE)
    assert seats == ["1", "2", "3"]
    data = json.loads(run("--players", "3", "--json").stdout)
    assert len(data["win_by_seat"]) == 3
    assert data["win_by_seat"][0] == pytest.approx(solve(build(3, 2, "last-chip")).win_by_seat[0])


def on_a_terminal(*args: str) -> tuple[str, str]:
    """``aces`` with standard error on a terminal (a pty): what it printed to
    standard output, and what it drew on the terminal."""
    import os
    import pty
    import subprocess
    import sys

    master, slave = pty.openpty()
    env = {**os.environ, "LANG": "C", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""}
    process = subprocess.Popen([sys.executable, "-m", "aces", *args], stdout=subprocess.PIPE,
                               stderr=slave, env=env)
    os.close(slave)
    drawn = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        drawn += chunk
    out, _ = process.communicate(timeout=120)
    os.close(master)
    assert process.returncode == 0
    return out.decode(), drawn.decode(errors="replace")


def test_a_big_game_shows_a_progress_bar_on_a_terminal_only() -> None:
    out, drawn = on_a_terminal("odds", "--players", "7", "--quantile", "0.5")
    # The bar says how big the solve is, and how much memory it holds as it goes.
    assert "Solving 77,562 states (needs about 35\xa0MB)" in drawn
    assert re.search(r"\d+\xa0MB in use", drawn), drawn
    assert "100%" in drawn
    assert "Solving" not in out
    assert "Seat 1 rolls first" in out


def test_no_progress_bar_for_json_even_on_a_terminal() -> None:
    out, drawn = on_a_terminal("odds", "--players", "7", "--quantile", "0.5", "--json")
    assert drawn == ""
    assert json.loads(out)["players"] == 7


def test_no_progress_bar_in_a_pipe() -> None:
    # CliRunner's standard error is no terminal.
    result = run("--players", "7", "--quantile", "0.5")
    assert result.exit_code == 0
    assert result.stderr == ""


def test_a_small_game_shows_no_progress_bar_on_a_terminal() -> None:
    _, drawn = on_a_terminal("odds", "--players", "3")
    assert drawn == ""


def test_a_tiny_quantile_still_reaches_the_first_game_over() -> None:
    runner = CliRunner(env={"LANG": "C", "LANGUAGE": None, "LC_ALL": None})
    text = runner.invoke(cli, ["odds", "--players", "3", "--quantile", "1e-20"])
    assert text.exit_code == 0, text.output
    assert "The shortest games take 6 rolls." in text.stdout
    data = runner.invoke(cli, ["odds", "--players", "3", "--quantile", "1e-20", "--json"])
    cdf = json.loads(data.stdout)["length_cdf"]
    assert cdf[-1] > 0
    assert all(p == 0 for p in cdf[:-1])
