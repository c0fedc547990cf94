"""``aces stats``: pooling a class's logs from the command line.

The numbers are tested in tests/experiment; these tests hold what a user
relies on at the command line: what is printed and in which language,
the files written (and never overwritten), the exit status when a log is
left out.
"""

from __future__ import annotations

import csv
import json
import re
import typing as t

import pytest

from clitest import E1_DICE, ENGLISH, one_line_error, run

if t.TYPE_CHECKING:
    from pathlib import Path

    from click.testing import Result


def stats(*args: str, env: dict[str, str | None] | None = None) -> Result:
    return run("stats", *args, env=env or ENGLISH)


@pytest.fixture
def logs(tmp_path: Path) -> list[Path]:
    """Three groups' logs of four players, five games each."""
    made = []
    for group in (1, 2, 3):
        path = tmp_path / f"group-{group}.jsonl"
        result = run("play", "--players", "4", "--games", "5", "--seed", str(group * 10),
                     "-o", str(path))
        assert result.exit_code == 0, result.output
        made.append(path)
    return made


def test_the_report_pools_the_groups_and_shows_each_beside_it(logs: list[Path]) -> None:
    result = stats(*map(str, logs))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("The class experiment: 3 logs, 3 pooled, 0 left out.")
    assert "Games: 15; rolls after the opening: " in out
    assert "Chi-square test" in out or "Too few for a chi-square test" in out
    assert "dice are fair" not in out
    beside = out[out.index("Each log beside the pooled result"):]
    for log in logs:
        assert str(log) in beside
    assert "\n  pooled " in beside


def test_json_has_the_numbers_and_the_per_log_results(logs: list[Path]) -> None:
    result = stats("--json", *map(str, logs))
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    (group,) = data["groups"]
    assert group["games"] == 15
    assert sum(group["win_by_seat_counts"]) == 15
    assert [sum(log["win_by_seat_counts"][i] for log in group["logs"]) for i in range(4)] == \
        group["win_by_seat_counts"]
    assert len(group["exact"]["win_by_seat"]) == 4
    assert group["expected_rolls"] == pytest.approx(group["rolls"] / 15)
    low, high = group["moved_nothing"]["ci"]
    assert low <= group["moved_nothing"]["share"] <= high
    assert group["moved_nothing"]["exact"] == pytest.approx(16 / 36)
    assert group["tries_won"]["exact"] == pytest.approx((25 / 36) ** 3)


def test_the_table_of_games_is_read_back_by_the_csv_module(logs: list[Path],
                                                           tmp_path: Path) -> None:
    table = tmp_path / "games.csv"
    result = stats("--csv", str(table), *map(str, logs))
    assert result.exit_code == 0, result.output
    with table.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 15
    assert [row["game"] for row in rows[:5]] == ["1", "2", "3", "4", "5"]
    assert {row["log"] for row in rows} == {str(log) for log in logs}
    data = json.loads(stats("--json", *map(str, logs)).stdout)
    by_seat = [0, 0, 0, 0]
    for row in rows:
        assert row["kind"] == "pot"
        assert row["options"] == "chips=2 finish=last-chip"
        assert row["winner"] in {"Ada", "Bo", "Cy", "Dag"}
        by_seat[int(row["seat from starter"]) - 1] += 1
    assert by_seat == data["groups"][0]["win_by_seat_counts"]


def test_the_table_of_rolls_has_one_row_per_roll(tmp_path: Path, e1_log: Path) -> None:
    table = tmp_path / "rolls.csv"
    result = stats("--csv", str(table), "--rolls", str(e1_log))
    assert result.exit_code == 0, result.output
    with table.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == ["log", "game", "roll", "player", "seat", "stage", "dice", "held after"]
    assert len(rows) == 1 + len(E1_DICE.splitlines())
    assert rows[4] == [str(e1_log), "1", "4", "Cy", "3", "turn", "1 6", "0"]
    assert rows[-1][3:] == ["Bo", "2", "try", "5 2", "1"]


def test_a_damaged_log_is_named_left_out_and_said_in_the_exit_status(
        logs: list[Path], tmp_path: Path) -> None:
    damaged = tmp_path / "damaged.jsonl"
    lines = logs[0].read_bytes().splitlines(keepends=True)
    damaged.write_bytes(b"".join(lines[:7]) + b"not a log\n" + b"".join(lines[8:]))
    table = tmp_path / "games.csv"
    result = stats("--csv", str(table), str(damaged), *map(str, logs[1:]))
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    errors = result.stderr.splitlines()
    assert errors[0].startswith(f"aces: {damaged}, line 8: ")
    assert errors[-1] == "aces: 1 log was left out; the others were pooled"
    assert result.stdout.startswith("The class experiment: 3 logs, 2 pooled, 1 left out.")
    assert f"Left out: {damaged}, line 8: " in result.stdout
    with table.open(encoding="utf-8-sig", newline="") as handle:
        assert {row["log"] for row in csv.DictReader(handle)} == {str(p) for p in logs[1:]}


@pytest.mark.parametrize(("lang", "last"), [
    ("en", "aces: 2 logs were left out; there was nothing to pool"),
    ("nb", "aces: 2 logger ble utelatt; det var ingenting å slå sammen"),
    ("nn", "aces: 2 loggar vart forkasta; det var ingenting å slå saman"),
])
def test_logs_that_cannot_be_read_are_not_said_to_leave_others_pooled(
        lang: str, last: str, tmp_path: Path) -> None:
    # As a class that types the README's names of its own files where none exist.
    missing = [str(tmp_path / "group-1.jsonl"), str(tmp_path / "group-2.jsonl")]
    result = stats("--lang", lang, *missing)
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    errors = result.stderr.splitlines()
    assert len(errors) == 3, errors
    assert all(missing[number] in errors[number] for number in range(2))
    assert errors[-1] == last


def test_files_are_never_overwritten(logs: list[Path], tmp_path: Path) -> None:
    for option, name in (("--csv", "games.csv"), ("--plot", "plot.svg")):
        taken = tmp_path / name
        taken.write_text("mine", encoding="utf-8")
        error = one_line_error(stats(option, str(taken), str(logs[0])))
        assert "already exists" in error
        assert taken.read_text(encoding="utf-8") == "mine"


@pytest.mark.parametrize("suffix", [".svg", ".png"])
def test_the_plot_is_written_in_the_format_of_its_name(logs: list[Path], tmp_path: Path,
                                                       suffix: str) -> None:
    plot = tmp_path / f"plot{suffix}"
    result = stats("--plot", str(plot), *map(str, logs))
    assert result.exit_code == 0, result.output
    head = plot.read_bytes()[:200]
    assert head.startswith(b"\x89PNG") if suffix == ".png" else b"<svg" in head


def test_each_log_has_its_own_intervals_beside_the_pooled_one(logs: list[Path]) -> None:
    from aces.inference import wilson

    out = stats(*map(str, logs)).stdout
    table = out[out.index("Each log's 95% interval for the share of wins by seat"):]
    rows = table.splitlines()
    assert rows[1].split() == ["log", "seat", "1", "seat", "2", "seat", "3", "seat", "4"]
    data = json.loads(stats("--json", *map(str, logs)).stdout)
    (group,) = data["groups"]
    for log, row in zip(group["logs"], rows[2:], strict=False):
        assert row.split()[0] == log["log"]
        for count, ends in zip(log["win_by_seat_counts"], log["win_by_seat_ci"], strict=True):
            low, high = wilson(count, log["games"])
            assert ends == pytest.approx([low, high])
            assert f"{100 * low:.1f}% to {100 * high:.1f}%" in row
        low, high = log["expected_rolls_ci"]
        assert low < log["expected_rolls"] < high
        low, high = log["moved_nothing"]["ci"]
        assert low <= log["moved_nothing"]["share"] <= high
    assert rows[2 + len(logs)].split()[0] == "pooled"
    assert rows[3 + len(logs)].split()[0] == "exact"
    # Five games a log scatter widely; the pool of fifteen is narrower.
    widths = [high - low for low, high in group["logs"][0]["win_by_seat_ci"]]
    pooled = [high - low for low, high in group["win_by_seat_ci"]]
    assert all(p < w for p, w in zip(pooled, widths, strict=True))


def test_the_table_of_logs_has_a_row_per_log_and_seat(logs: list[Path], tmp_path: Path) -> None:
    table = tmp_path / "logs.csv"
    result = stats("--csv", str(table), "--by-log", *map(str, logs))
    assert result.exit_code == 0, result.output
    with table.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 3 * 4
    data = json.loads(stats("--json", *map(str, logs)).stdout)
    (group,) = data["groups"]
    by_seat = [0, 0, 0, 0]
    for row in rows:
        seat = int(row["seat from starter"]) - 1
        by_seat[seat] += int(row["wins"])
        assert row["losses"] == ""
        assert int(row["games"]) == 5
        assert float(row["share"]) == pytest.approx(int(row["wins"]) / 5, abs=1e-6)
        assert float(row["95% from"]) <= float(row["share"]) <= float(row["95% to"])
        assert float(row["exact"]) == pytest.approx(group["exact"]["win_by_seat"][seat],
                                                    abs=1e-6)
    assert by_seat == group["win_by_seat_counts"]
    assert [row["log"] for row in rows[::4]] == [str(log) for log in logs]


def read_table(path: Path, delimiter: str) -> list[list[str]]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return list(csv.reader(handle, delimiter=delimiter))


#: A share as each style writes it: six decimals after a point, or after a comma.
SHARE: t.Final = {",": re.compile(r"\d\.\d{6}"), ";": re.compile(r"\d,\d{6}")}


@pytest.mark.parametrize("args", [[], ["--rolls"], ["--by-log"]])
def test_the_decimal_comma_table_is_the_same_table_split_by_semicolons(
        logs: list[Path], tmp_path: Path, args: list[str]) -> None:
    # A log's name holding both separators stays one cell in either style.
    odd = tmp_path / "group;1,a.jsonl"
    odd.write_bytes(logs[0].read_bytes())
    sources = [str(odd), *map(str, logs[1:])]
    point, comma = tmp_path / "point.csv", tmp_path / "comma.csv"
    assert stats("--lang", "nb", "--csv", str(point), *args, *sources).exit_code == 0
    assert stats("--lang", "nb", "--csv", str(comma), "--decimal-comma", *args,
                 *sources).exit_code == 0
    by_point, by_comma = read_table(point, ","), read_table(comma, ";")
    assert len(by_comma) > 1
    assert all(len(row) == len(by_comma[0]) for row in by_comma)
    assert by_comma[1][0] == by_point[1][0] == str(odd)
    assert ";" not in point.read_text(encoding="utf-8-sig").replace(str(odd), "")
    for row_point, row_comma in zip(by_point, by_comma, strict=True):
        for at_point, at_comma in zip(row_point, row_comma, strict=True):
            if SHARE[","].fullmatch(at_point):
                # The same number, with the decimal sign of its style.
                assert SHARE[";"].fullmatch(at_comma)
                assert float(at_comma.replace(",", ".")) == float(at_point)
            else:
                assert at_comma == at_point


def test_shares_parse_in_the_convention_the_table_declares(logs: list[Path],
                                                           tmp_path: Path) -> None:
    table = tmp_path / "logs.csv"
    assert stats("--csv", str(table), "--by-log", "--decimal-comma",
                 *map(str, logs)).exit_code == 0
    with table.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter=";"))
    assert len(rows) == 3 * 4
    for row in rows:
        wins, games = int(row["wins"]), int(row["games"])
        shares = [row[key] for key in ("share", "95% from", "95% to", "exact")]
        assert all(SHARE[";"].fullmatch(share) for share in shares)
        share, low, high, _ = (float(cell.replace(",", ".")) for cell in shares)
        assert share == pytest.approx(wins / games, abs=1e-6)
        assert low <= share <= high


def test_the_tables_are_headed_in_the_language_asked_for(logs: list[Path],
                                                         tmp_path: Path) -> None:
    for name, args in (("games", []), ("logs", ["--by-log"])):
        table = tmp_path / f"{name}.csv"
        assert stats("--lang", "nn", "--csv", str(table), *args, str(logs[0])).exit_code == 0
        with table.open(encoding="utf-8-sig", newline="") as handle:
            heading = next(csv.reader(handle))
        assert heading[0] == "logg"
        assert "log" not in heading


@pytest.mark.parametrize("table", [["--players", "3", "--dice-each", "1"],
                                   ["--players", "4"],  # a full game: too big for the chain
                                   ["--players", "4", "--threes"],
                                   ["--players", "4", "--threes", "--threes-to", "fewest"]])
def test_five_dice_lengths_are_held_against_the_exact_quantiles(tmp_path: Path,
                                                               table: list[str]) -> None:
    log = tmp_path / "five-dice.jsonl"
    run("play", "--game", "five-dice", *table, "--games", "40", "--seed", "2", "-o", str(log))
    data = json.loads(stats("--json", str(log)).stdout)
    (group,) = data["groups"]
    quantiles = group["exact"]["rolls_quantiles"]
    assert all(isinstance(q, int) for q in quantiles)
    assert quantiles == sorted(quantiles)
    assert quantiles[0] <= group["exact"]["expected_rolls"] <= quantiles[-1]
    assert group["tests"]["length"] is not None
    out = stats(str(log)).stdout
    length = out[out.index("Length of a game"):out.index("Rolls followed by a roll again")]
    for q, exact in zip(("25%", "50%", "75%", "90%"), quantiles, strict=True):
        (row,) = [line for line in length.splitlines() if line.strip().startswith(q)]
        assert row.split()[-1] == str(exact)
    assert "The test compares" in length


def test_a_table_too_big_to_work_out_says_it_has_no_exact_length(tmp_path: Path) -> None:
    log = tmp_path / "six.jsonl"
    run("play", "--game", "five-dice", "--players", "6", "--games", "3", "--seed", "2",
        "-o", str(log))
    data = json.loads(stats("--json", str(log)).stdout)
    (group,) = data["groups"]
    assert group["exact"]["expected_rolls"] is None
    assert group["tests"]["length"] is None
    out = stats(str(log)).stdout
    length = out[out.index("Length of a game"):out.index("Rolls followed by a roll again")]
    assert "No exact odds for this table: it has too many states to solve exactly" in length


@pytest.mark.parametrize(("args", "reason"), [
    (["--rolls"], "--rolls says what the table of --csv holds, so it needs --csv"),
    (["--by-log"], "--by-log says what the table of --csv holds, so it needs --csv"),
    (["--csv", "t.csv", "--rolls", "--by-log"],
     "--rolls and --by-log cannot be used together: a table has one row per roll or one per"
     " log"),
    (["--decimal-comma"],
     "--decimal-comma says how the table of --csv is written, so it needs --csv"),
    (["--plot", "x.pdf"], "--plot draws .svg or .png files, and x.pdf is neither"),
    (["-", "-"], "standard input ('-') can be read only once"),
])
def test_bad_options_are_one_line(args: list[str], reason: str, e1_log: Path) -> None:
    assert one_line_error(stats(*args, str(e1_log))) == f"aces: {reason}"


def test_different_rules_are_reported_apart(tmp_path: Path, logs: list[Path]) -> None:
    other = tmp_path / "five-dice.jsonl"
    run("play", "--game", "five-dice", "--players", "3", "--dice-each", "1", "--seed", "2",
        "-o", str(other))
    out = stats(str(other), *map(str, logs)).stdout
    assert "each is pooled and tested on its own, never mixed with another" in out
    assert "Aces in the Pot: 4 players" in out
    assert "Aces: 3 players, 1 die each" in out
    assert "Losses by seat" in out


def test_the_report_speaks_norwegian(logs: list[Path]) -> None:
    result = stats("--lang", "nb", *map(str, logs))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("Klasseforsøket: 3 logger, 3 slått sammen, 0 utelatt.")
    assert "Ess i potten" in out
    assert "The " not in out


def test_one_log_is_counted_in_the_singular(e1_log: Path) -> None:
    assert stats(str(e1_log)).stdout.startswith(
        "The class experiment: 1 log, 1 pooled, 0 left out.")
    # One log in words, as Norwegian counts it; not "read", for a log may not open.
    assert stats("--lang", "nb", str(e1_log)).stdout.startswith(
        "Klasseforsøket: én logg, 1 slått sammen, 0 utelatt.")
    # Nynorsk: «forkasta» agrees with any count, where «1 haldne utanfor» did not.
    assert stats("--lang", "nn", str(e1_log)).stdout.startswith(
        "Klasseforsøket: éin logg, 1 slått saman, 0 forkasta.")


@pytest.mark.parametrize(("lang", "said"), [
    ("nb", "Partiene følger to ulike regelsett"),
    ("nn", "Partia følgjer to ulike regelsett"),
    ("en", "The games follow 2 different sets of rules"),
])
def test_small_counts_in_the_report_are_words_in_norwegian(
    tmp_path: Path, logs: list[Path], lang: str, said: str
) -> None:
    """Running text counts as Norwegian prose does («to ulike regelsett»), and
    a log of five games is one «med fem partier»."""
    other = tmp_path / "five-dice.jsonl"
    run("play", "--game", "five-dice", "--players", "3", "--dice-each", "1", "--seed", "2",
        "-o", str(other))
    out = stats("--lang", lang, str(other), *map(str, logs)).stdout
    assert said in out
    five = {"nb": "for en logg med fem partier", "nn": "for ein logg med fem parti",
            "en": "for a log of 5 games"}[lang]
    assert five in out
    # The headings of the groups count in words too, as the simulation page does.
    headings = {"nb": ["Ess i potten: fire spillere, to sjetonger hver,",
                       "Femterningspillet: tre spillere, én terning hver\n"],
                "nn": ["Ess i potten: fire spelarar, to sjetongar kvar,",
                       "Femterningspelet: tre spelarar, éin terning kvar\n"],
                "en": ["Aces in the Pot: 4 players, 2 chips each,",
                       "Aces: 3 players, 1 die each\n"]}[lang]
    for heading in headings:
        assert heading in out


@pytest.mark.parametrize(("lang", "said"), [
    ("nb", "for de ti partiene samlet."),
    ("nn", "for dei ti partia samla."),
    ("en", "for all 10 pooled."),
])
def test_the_pooled_games_beside_the_smallest_log_are_counted_as_prose(
    logs: list[Path], lang: str, said: str
) -> None:
    """Two logs of five games pool ten: «for de ti partiene samlet», not
    «for alle 10 samlet» (which, with two games, read «for alle 2»)."""
    out = stats("--lang", lang, *map(str, logs[:2])).stdout
    assert said in out


def test_a_log_from_standard_input_is_pooled(e1_log: Path) -> None:
    result = run("stats", "--json", "-", input=e1_log.read_bytes(), env=ENGLISH)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["logs"][0]["log"] == "<stdin>"
    assert data["groups"][0]["games"] == 1


def test_no_control_character_of_a_file_name_reaches_the_terminal(tmp_path: Path,
                                                                  e1_log: Path) -> None:
    steering = tmp_path / "group\x1b[2J.jsonl"
    steering.write_bytes(e1_log.read_bytes())
    damaged = tmp_path / "bad\x1b]0;x\x07.jsonl"
    damaged.write_bytes(b"not a log\n")
    result = stats(str(steering), str(damaged))
    assert result.exit_code == 1
    assert "\x1b" not in result.stdout
    assert "\x1b" not in result.stderr
    assert "\x07" not in result.stdout + result.stderr
    assert "group\\x1b[2J.jsonl" in result.stdout


def test_a_plot_of_a_small_pool_with_a_seat_that_never_won(tmp_path: Path) -> None:
    """``aces stats s3.jsonl --plot p.svg`` once ended in matplotlib's ValueError:
    the interval of a share of 0 began a hair above 0."""
    log = tmp_path / "s3.jsonl"
    assert run("play", "--players", "4", "--games", "3", "--seed", "1", "-o", str(log)
               ).exit_code == 0
    plot = tmp_path / "p.svg"
    result = stats(str(log), "--plot", str(plot), "--json")
    assert result.exit_code == 0, result.output
    assert plot.read_bytes().lstrip().startswith(b"<?xml")
    group = json.loads(result.stdout)["groups"][0]
    for share, (low, high) in zip(group["win_by_seat"], group["win_by_seat_ci"], strict=True):
        assert low <= share <= high


def test_a_log_given_twice_is_pooled_once_and_the_report_says_so(logs: list[Path],
                                                                tmp_path: Path) -> None:
    import shutil

    copy = tmp_path / "copy.jsonl"
    shutil.copy(logs[0], copy)
    result = stats(str(logs[0]), str(logs[1]), str(logs[0]), str(copy), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [log["same_as"] for log in data["logs"]] == [None, None, str(logs[0]), str(logs[0])]
    assert data["groups"][0]["games"] == 10
    report = stats(str(logs[0]), str(logs[1]), str(logs[0]), str(copy)).stdout
    assert report.splitlines()[:3] == [
        "The class experiment: 4 logs, 2 pooled, 0 left out.",
        f"  Pooled once: {logs[0]} holds the same games as {logs[0]}.",
        f"  Pooled once: {copy} holds the same games as {logs[0]}."]
    table = tmp_path / "games.csv"
    assert stats(str(logs[0]), str(copy), "--csv", str(table)).exit_code == 0
    with table.open(encoding="utf-8-sig", newline="") as handle:
        assert len(list(csv.DictReader(handle))) == 5


def test_a_log_still_being_recorded_gives_its_finished_games(logs: list[Path],
                                                             tmp_path: Path) -> None:
    lines = logs[0].read_bytes().splitlines(keepends=True)
    last = max(n for n, line in enumerate(lines) if b'"game_started"' in line)
    rolled = [n for n, line in enumerate(lines) if n > last and b'"rolled"' in line]
    going = tmp_path / "going.jsonl"
    going.write_bytes(b"".join(lines[:rolled[6]]))
    result = stats(str(going), str(logs[1]), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["logs"][0]["unfinished"] is True
    assert data["logs"][0]["games"] == 4
    assert data["groups"][0]["games"] == 9
    words = stats(str(going), str(logs[1]), env={"LANG": "nn_NO.UTF-8"}).stdout.splitlines()
    assert words[0] == "Klasseforsøket: 2 loggar, 2 slått saman, 0 forkasta."
    assert words[1].startswith(f"  Ikkje ferdig: det siste partiet i {going}")


def test_a_plot_of_more_sets_of_rules_than_it_draws_names_the_others(tmp_path: Path) -> None:
    from aces.reports.plot import MOST_GROUPS

    logs = []
    for chips in range(1, MOST_GROUPS + 3):
        log = tmp_path / f"chips-{chips}.jsonl"
        assert run("play", "--players", "2", "--chips", str(chips), "--seed", "1", "-o",
                   str(log)).exit_code == 0
        logs.append(str(log))
    plot = tmp_path / "plot.svg"
    result = stats(*logs, "--plot", str(plot))
    assert result.exit_code == 0, result.output
    svg = plot.read_text(encoding="utf-8")
    # matplotlib writes each text of the figure in a comment beside its drawing.
    assert "Not drawn, for want of room (the report gives them all): Aces in the Pot:" \
        " 2 players, 9 chips each" in svg
    assert "10 chips each" in svg
