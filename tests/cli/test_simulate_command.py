"""``aces simulate``: estimates with intervals, reproducible, and bad input as one line."""

from __future__ import annotations

import json
import re
import sys
import typing as t

import pytest
from click.testing import CliRunner

from aces.cli import cli
from aces.cli.simulate import PROGRESS_FROM, _progress
from aces.exact import fivedice_lengths
from aces.i18n import translations

from clitest import ENGLISH, one_line_error

if t.TYPE_CHECKING:
    from pathlib import Path

    from click.testing import Result



def run(*args: str) -> Result:
    return CliRunner(env=ENGLISH).invoke(cli, ["simulate", *args])



def test_json_has_the_keys_of_odds_and_the_intervals() -> None:
    result = run("--players", "4", "--games", "20000", "--seed", "5", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 20000
    assert data["seed"] == 5
    assert len(data["win_by_seat"]) == 4
    assert sum(data["win_by_seat"]) == pytest.approx(1)
    for share, (low, high) in zip(data["win_by_seat"], data["win_by_seat_ci"], strict=True):
        assert low <= share <= high
    low, high = data["expected_rolls_ci"]
    assert low <= data["expected_rolls"] <= high
    assert data["exact"] is not None
    assert len(data["exact_inside"]["win_by_seat"]) == 4


def test_the_same_seed_gives_the_same_report() -> None:
    first = run("--players", "3", "--games", "5000", "--seed", "9")
    again = run("--players", "3", "--games", "5000", "--seed", "9")
    other = run("--players", "3", "--games", "5000", "--seed", "10")
    assert first.exit_code == 0, first.output
    assert first.stdout == again.stdout
    assert first.stdout != other.stdout


def test_no_exact_leaves_it_out() -> None:
    data = json.loads(run("--players", "3", "--games", "100", "--seed", "1", "--no-exact",
                          "--json").stdout)
    assert data["exact"] is None
    assert data["exact_inside"] is None


def test_the_readable_report() -> None:
    result = run("--players", "3", "--games", "3000", "--seed", "2", "--finish", "last-holder")
    assert result.exit_code == 0, result.output
    assert "3,000 simulated games" in result.stdout
    assert "finish when one player holds the chips (last-holder)" in result.stdout
    assert "seed 2" in result.stdout
    assert "95% interval" in result.stdout
    # No progress bar when standard error is not a terminal.
    assert result.stderr == ""


@pytest.mark.parametrize(("games", "terminal", "shown"), [
    (PROGRESS_FROM, True, True), (PROGRESS_FROM - 1, True, False), (PROGRESS_FROM, False, False)])
def test_a_progress_bar_on_long_runs_on_a_terminal(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        games: int, terminal: bool, shown: bool) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: terminal)
    with _progress(games, translations("en")) as progress:
        if progress is not None:
            progress(games)
    assert (progress is not None) is shown
    assert ("Simulating" in capsys.readouterr().err) is shown


def test_norwegian_numbers() -> None:
    result = run("--players", "3", "--games", "3000", "--seed", "2", "--lang", "nb")
    assert result.exit_code == 0, result.output
    assert "3\xa0000" in result.stdout
    assert "\xa0%" in result.stdout


@pytest.mark.parametrize("games", ["0", "-5"])
def test_games_must_be_positive(games: str) -> None:
    line = one_line_error(run("--players", "3", "--games", games))
    assert "--games must be at least 1" in line


def test_players_out_of_range() -> None:
    assert "--players must be at least 2" in one_line_error(run("--players", "1"))
    assert "at most 100 players, not 101" in one_line_error(run("--players", "101"))
    line = one_line_error(run("--players", "20", "--chips", "60"))
    assert "at most 1,000 chips in all, not 20 players with 60 each" in line


def test_huge_numbers_in_an_error_are_written_with_an_exponent() -> None:
    line = one_line_error(run("--players", "4", "--chips", "1" + "0" * 30))
    assert line.endswith("at most 1,000 chips in all, not 4 players with 1.0E30 each")


@pytest.mark.parametrize(("players", "extra", "note"), [
    ("4", [], None),
    ("4", ["--no-exact"], None),
    ("8", [], "add --exact to see them"),
    ("8", ["--no-exact"], None),
    ("9", [], "too many states to solve exactly"),
    ("9", ["--exact"], "too many states to solve exactly"),
])
def test_the_page_says_why_the_exact_answers_are_missing(
        players: str, extra: list[str], note: str | None) -> None:
    result = run("--players", players, "--games", "500", "--seed", "1", *extra)
    assert result.exit_code == 0, result.output
    last = result.stdout.rstrip("\n").splitlines()[-1]
    if note is None:
        assert last.startswith("Rolls in a game:") or last.startswith("Exact:"), last
    else:
        assert "inside?" not in result.stdout
        assert note in last


def test_many_players_without_an_exact_answer() -> None:
    result = run("--players", "12", "--games", "2000", "--seed", "4", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert len(data["win_by_seat"]) == 12
    assert data["exact"] is None


def test_a_negative_seed() -> None:
    assert "--seed" in one_line_error(run("--players", "3", "--seed", "-1"))


# -- Aces, the five-dice game -------------------------------------------------


def five_dice(*args: str) -> Result:
    return run("--game", "five-dice", *args)


def test_five_dice_json_counts_losses() -> None:
    result = five_dice("--players", "4", "--games", "3000", "--seed", "5", "--threes",
                       "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game"] == "five-dice"
    assert data["options"] == {"dice": 5, "threes": True, "threes_to": "random"}
    assert "win_by_seat" not in data
    assert len(data["loss_by_seat"]) == 4
    assert sum(data["loss_by_seat"]) == pytest.approx(1)
    for share, (low, high) in zip(data["loss_by_seat"], data["loss_by_seat_ci"], strict=True):
        assert low <= share <= high
    low, high = data["expected_rolls_ci"]
    assert low <= data["expected_rolls"] <= high
    assert data["sd_rolls"] > 0
    assert 1 < data["rolls_per_turn"] < data["expected_rolls"]
    # Five dice each, threes given at random: carried roll by roll, as aces stats has it.
    solved = fivedice_lengths.solved(4, 5, threes=True, threes_to="random")
    assert solved is not None
    assert solved.losses is not None
    assert data["exact"] == {"loss_by_seat": solved.losses, "expected_rolls": solved.mean,
                             "sd_rolls": solved.sd,
                             "rolls_per_turn": solved.mean / solved.turns}
    assert isinstance(data["exact_inside"]["expected_rolls"], bool)
    assert len(data["exact_inside"]["loss_by_seat"]) == 4


def test_five_dice_pub_version_has_an_exact_answer() -> None:
    data = json.loads(five_dice("--players", "3", "--dice-each", "1", "--games", "5000",
                                "--seed", "1", "--json").stdout)
    exact = data["exact"]
    assert sorted(exact) == ["expected_rolls", "loss_by_seat", "rolls_per_turn", "sd_rolls"]
    assert sum(exact["loss_by_seat"]) == pytest.approx(1)
    assert len(data["exact_inside"]["loss_by_seat"]) == 3
    assert isinstance(data["exact_inside"]["expected_rolls"], bool)


def test_five_dice_readable_report() -> None:
    result = five_dice("--players", "4", "--games", "2000", "--seed", "3", "--threes",
                       "--threes-to", "fewest")
    assert result.exit_code == 0, result.output
    page = result.stdout
    assert page.startswith("Aces: 2,000 simulated games")
    assert ("4 players, 5 dice each, with threes, each 3 to the player holding the fewest dice,"
            " seed 3") in page
    assert "share of losses" in page
    assert "Rolls in a turn:" in page
    assert "rolls again included" in page
    assert "no exact answer" not in page
    assert "inside?" in page


@pytest.mark.parametrize("lang", ["en", "nb", "nn"])
def test_a_full_game_is_reported_beside_its_exact_length(lang: str) -> None:
    from aces.numbers import decimal

    solved = fivedice_lengths.solved(4, 5)
    assert solved is not None
    assert f"{solved.mean:.2f}" == "48.58"
    page = five_dice("--players", "4", "--games", "3000", "--seed", "8", "--lang", lang).stdout
    _ = translations(lang).gettext
    assert decimal(solved.mean, lang) == ("48.58" if lang == "en" else "48,58")
    lines = [_(message).format(mean=decimal(solved.mean, lang), sd=decimal(solved.sd, lang))
             for message in ("Exact: {mean} on average, inside the interval;"
                             " standard deviation {sd}.",
                             "Exact: {mean} on average, outside the interval;"
                             " standard deviation {sd}.")]
    assert any(line in page for line in lines), page
    assert _("Exact: {mean}.").format(mean=decimal(solved.mean / solved.turns, lang)) in page
    assert _("inside?") in page
    assert _("There is no exact answer to compare with: this game has too many states to"
             " solve exactly.") not in page


def test_a_table_too_big_to_solve_still_says_so() -> None:
    page = five_dice("--players", "6", "--games", "2000", "--seed", "3", "--exact").stdout
    assert "There is no exact answer to compare with" in page
    assert "Exact:" not in page
    assert "inside?" not in page
    data = json.loads(five_dice("--players", "6", "--games", "200", "--seed", "3",
                                "--json").stdout)
    assert data["exact"] is None


def test_five_players_with_five_dice_are_worked_out_when_asked() -> None:
    # Several seconds of work: not by default; asked for, the length without the seats.
    page = five_dice("--players", "5", "--games", "200", "--seed", "3").stdout
    assert "add --exact to see them" in page
    assert "Exact:" not in page
    data = json.loads(five_dice("--players", "7", "--dice-each", "2", "--games", "2000",
                                "--seed", "3", "--json").stdout)
    solved = fivedice_lengths.solved(7, 2)
    assert solved is not None
    assert solved.losses is None
    assert data["exact"]["loss_by_seat"] is None
    assert data["exact"]["expected_rolls"] == solved.mean
    assert data["exact_inside"]["loss_by_seat"] is None
    page = five_dice("--players", "7", "--dice-each", "2", "--games", "2000", "--seed", "3").stdout
    assert "Exact:" in page
    assert "inside?" not in page
    assert "in twenty" not in page


@pytest.mark.parametrize("lang", ["en", "nb", "nn"])
def test_the_table_is_named_as_odds_and_stats_name_it(lang: str, tmp_path: Path) -> None:
    """Players, chips, then the finish, as aces odds heads its page and aces stats
    its groups; the five-dice threes as aces stats names them."""
    page = run("--players", "4", "--chips", "3", "--finish", "last-holder", "--games", "200",
               "--seed", "6", "--lang", lang).stdout
    odds = CliRunner(env=ENGLISH).invoke(cli, ["odds", "--players", "4", "--chips", "3",
                                               "--finish", "last-holder", "--lang", lang])
    table = odds.stdout.splitlines()[1]
    _ = translations(lang).gettext
    assert page.splitlines()[1] == f"{table}, {_('seed {seed}').format(seed=6)}"

    log = tmp_path / "threes.jsonl"
    played = CliRunner(env=ENGLISH).invoke(cli, [
        "play", "--game", "five-dice", "--players", "3", "--dice-each", "2", "--threes",
        "--threes-to", "most", "--seed", "4", "--output", str(log)])
    assert played.exit_code == 0, played.output
    stats = CliRunner(env=ENGLISH).invoke(cli, ["stats", str(log), "--lang", lang]).stdout
    page = five_dice("--players", "3", "--dice-each", "2", "--threes", "--threes-to", "most",
                     "--games", "200", "--seed", "6", "--lang", lang).stdout
    name = f"{_('Aces')}: {page.splitlines()[1][0].lower()}{page.splitlines()[1][1:]}"
    assert f"\n{name.removesuffix(', ' + _('seed {seed}').format(seed=6))}\n" in stats
    assert _("with threes") in name


BY_SEAT_MISSING: t.Final = ("There are no exact chances by seat to compare with: for a game"
                             " this size only its length is worked out exactly, as the chances by"
                             " seat would take that work once for each player.")


@pytest.mark.parametrize("lang", ["en", "nb", "nn"])
def test_the_page_says_why_the_exact_chances_by_seat_are_missing(lang: str) -> None:
    # Seven players with two dice each: the length is worked out, the seats are not,
    # as for five players with five dice each (which take seconds more).
    _ = translations(lang).gettext
    why = _(BY_SEAT_MISSING)
    assert lang == "en" or why != BY_SEAT_MISSING
    page = five_dice("--players", "7", "--dice-each", "2", "--games", "500", "--seed", "3",
                     "--lang", lang).stdout
    assert why in page.splitlines()
    assert _("inside?") not in page
    for smaller in (["--players", "4"], ["--players", "3", "--dice-each", "1"]):
        page = five_dice(*smaller, "--games", "500", "--seed", "3", "--lang", lang).stdout
        assert _("inside?") in page
        assert why not in page


def test_five_dice_exact_column_and_no_exact() -> None:
    page = five_dice("--players", "3", "--dice-each", "1", "--games", "2000",
                     "--seed", "3").stdout
    assert "1 die each" in page
    assert "inside?" in page
    assert "no exact answer" not in page
    page = five_dice("--players", "3", "--dice-each", "1", "--games", "2000", "--seed", "3",
                     "--no-exact").stdout
    assert "inside?" not in page
    assert "no exact answer" not in page


def test_five_dice_in_norwegian() -> None:
    result = five_dice("--players", "3", "--dice-each", "1", "--games", "3000", "--seed", "2",
                       "--lang", "nb")
    assert result.exit_code == 0, result.output
    page = result.stdout
    assert page.startswith("Femterningspillet: 3\xa0000 simulerte partier")
    assert "\nTre spillere, én terning hver, frø 2\n" in page
    assert "andel tap" in page
    assert "\xa0%" in page
    assert "share of" not in page
    assert "Rolls" not in page


def test_five_dice_same_seed_same_report() -> None:
    first = five_dice("--players", "3", "--games", "2000", "--seed", "4")
    again = five_dice("--players", "3", "--games", "2000", "--seed", "4")
    assert first.exit_code == 0, first.output
    assert first.stdout == again.stdout


@pytest.mark.parametrize(("option", "value"), [("--chips", "3"), ("--finish", "last-holder")])
def test_pot_options_are_refused_for_five_dice(option: str, value: str) -> None:
    line = one_line_error(five_dice("--players", "3", option, value))
    assert f"{option} is not an option of the game five-dice" in line


@pytest.mark.parametrize("options", [("--dice-each", "2"), ("--threes",),
                                     ("--threes", "--threes-to", "most")])
def test_five_dice_options_are_refused_for_pot(options: tuple[str, ...]) -> None:
    line = one_line_error(run("--players", "3", *options))
    assert f"{options[0]} is not an option of the game pot" in line


def test_five_dice_bad_input() -> None:
    assert "--players must be at least 3, not 2" in one_line_error(
        five_dice("--players", "2"))
    assert "--games must be at least 1, not 0" in one_line_error(
        five_dice("--players", "3", "--games", "0"))
    # The game's options are the same on every command that begins games, and
    # refused the same way: by click, naming the option (as aces play does).
    assert "'--dice-each'" in one_line_error(five_dice("--players", "3", "--dice-each", "0"))
    assert "needs --threes" in one_line_error(
        five_dice("--players", "3", "--threes-to", "most"))
    line = one_line_error(five_dice("--players", "30", "--dice-each", "50"))
    assert "at most 1,000 dice in all, not 30 players with 50 each" in line


def test_five_dice_bad_input_in_norwegian() -> None:
    line = one_line_error(five_dice("--players", "3", "--chips", "2", "--lang", "nb"))
    assert "--chips" in line
    assert "five-dice" in line
    assert "is not an option" not in line


def test_seats_are_counted_from_one_and_a_miss_is_expected_now_and_then() -> None:
    out = run("--players", "3", "--games", "3000", "--seed", "2").stdout
    assert "Seat 1 rolls first after the opening" in out
    assert re.findall(r"^  (\d)\s+\d", out, re.MULTILINE) == ["1", "2", "3"]
    table_end = out.index("  3 ")
    note = out.index("About one 95% interval in twenty misses the exact value by chance alone")
    assert note > table_end
    assert out[table_end:note].count("\n") == 1


def test_no_note_on_misses_without_exact_values() -> None:
    out = run("--players", "3", "--games", "3000", "--seed", "2", "--no-exact").stdout
    assert "in twenty" not in out


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "aces: --games may be at most 100,000,000, not 1.0E20"),
    ("nb", "aces: --games kan være høyst 100\u00a0000\u00a0000, ikke 1,0E20"),
])
def test_absurd_numbers_of_games_are_refused_in_the_languages_numbers(
        lang: str, expected: str) -> None:
    from clitest import run as run_aces

    result = run_aces("simulate", "--lang", lang, "--players", "3", "--games", str(10**20))
    assert result.exit_code == 2
    assert result.stderr == expected + "\n"
