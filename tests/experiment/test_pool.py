"""Pooling logs: what is counted, what is added up, what is left out."""

from __future__ import annotations

import typing as t

from aces.experiment.observe import Counts, Rules
from aces.experiment.pool import pool, records

from clitest import E1_DICE, run

if t.TYPE_CHECKING:
    from pathlib import Path

E1_ROLLS: t.Final = E1_DICE.splitlines()


def played(path: Path, *args: str) -> Path:
    result = run("play", *args, "-o", str(path))
    assert result.exit_code == 0, result.output
    return path


def recorded(path: Path, rolls: list[str]) -> Path:
    typed = "".join(f"{roll}\n" for roll in rolls)
    result = run("record", str(path), "--players", "Ada,Bo,Cy", input=typed,
                 env={"LANG": "C"})
    assert result.exit_code == 0, result.output
    return path


def test_worked_example_e1_is_counted_as_the_rulings_tell_it(e1_log: Path) -> None:
    with e1_log.open("rb") as stream:
        (game,) = records(stream, str(e1_log), keep_rows=True)
    assert game.players[game.starter] == "Cy"
    assert game.players[game.result] == "Bo"
    assert game.result_seat == 2  # Cy starts, Ada sits on her left, then Bo
    assert game.rolls == 11  # 14 rolls, 3 of them opening rolls
    assert (game.normal, game.nothing) == (6, 1)  # only Ada's 3-5 moved nothing
    assert game.tries == (0, 1, 0, 1)  # Ada's try ends on its second roll; Bo's is won
    assert game.pot == 5
    assert [row.number for row in game.rows] == list(range(1, 15))
    assert game.rows[3] == (4, "Cy", 3, "turn", (1, 6), 0)  # Cy's two chips leave her


def test_an_undone_roll_is_not_counted(tmp_path: Path, e1_log: Path) -> None:
    # Cy's first roll typed as 1-1, taken back and typed again as 1-6.
    corrected = recorded(tmp_path / "corrected.jsonl",
                         [*E1_ROLLS[:3], "1 1", "undo", *E1_ROLLS[3:]])
    with e1_log.open("rb") as plain, corrected.open("rb") as fixed:
        assert list(records(plain, "x", True)) == list(records(fixed, "x", True))


def test_pooled_counts_are_the_sums_of_each_logs_counts(tmp_path: Path) -> None:
    logs = [played(tmp_path / f"group-{seed}.jsonl", "--players", "3", "--games", "7",
                   "--seed", str(seed)) for seed in (1, 100, 200)]
    pooled = pool(logs)
    (group,) = pooled.groups
    assert [log.source for log in group.logs] == [str(log) for log in logs]
    by_hand = Counts(3)
    for log in logs:
        part = Counts(3)
        with log.open("rb") as stream:
            for game in records(stream, str(log)):
                part.add(game)
        by_hand += part
    assert group.pooled.games == by_hand.games == 21
    assert [s.hits for s in group.pooled.seats.shares] == by_hand.wins
    assert [sum(log.wins[i] for log in group.logs) for i in range(3)] == by_hand.wins
    assert group.pooled.rolls == sum(log.rolls for log in group.logs) == by_hand.rolls
    assert group.pooled.nothing is not None
    assert sum(log.nothing[0] for log in group.logs if log.nothing) == group.pooled.nothing.hits
    assert group.pooled.nothing is not None
    assert group.pooled.nothing.hits == by_hand.nothing
    assert sum(log.games for log in pooled.logs) == 21
    assert group.pooled.length.mean == by_hand.rolls / 21


def test_different_rules_or_table_sizes_are_never_pooled(tmp_path: Path) -> None:
    three = played(tmp_path / "three.jsonl", "--players", "3", "--games", "2", "--seed", "1")
    four = played(tmp_path / "four.jsonl", "--players", "4", "--games", "2", "--seed", "1")
    holder = played(tmp_path / "holder.jsonl", "--players", "3", "--finish", "last-holder",
                    "--seed", "1")
    dice = played(tmp_path / "dice.jsonl", "--game", "five-dice", "--players", "3",
                  "--dice-each", "1", "--seed", "1")
    again = played(tmp_path / "again.jsonl", "--players", "3", "--games", "2", "--seed", "7")
    pooled = pool([three, four, holder, dice, again])
    assert [(g.rules.game, g.rules.players, g.pooled.games) for g in pooled.groups] == [
        ("pot", 3, 4), ("pot", 4, 2), ("pot", 3, 1), ("five-dice", 3, 1)]
    assert pooled.groups[2].rules == Rules("pot", 3, (("chips", 2), ("finish", "last-holder")))


def test_a_damaged_log_is_left_out_with_its_line_and_the_others_pooled(
        tmp_path: Path) -> None:
    good = played(tmp_path / "good.jsonl", "--players", "3", "--games", "3", "--seed", "4")
    lines = good.read_bytes().splitlines(keepends=True)
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_bytes(b"".join(lines[:5]) + lines[5].replace(b'"dice":[', b'"dice":[6,')
                        + b"".join(lines[6:]))
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    before = {path: path.read_bytes() for path in (good, damaged, empty)}
    pooled = pool([good, damaged, empty, tmp_path / "missing.jsonl"])
    assert [log.error is None for log in pooled.logs] == [True, False, False, False]
    assert str(pooled.logs[1].error).startswith(f"{damaged}, line 6: ")
    assert str(pooled.logs[2].error) == f"{empty} is empty: it holds no events"
    assert "missing.jsonl" in str(pooled.logs[3].error)
    (group,) = pooled.groups
    assert group.pooled.games == 3
    assert [log.source for log in group.logs] == [str(good)]
    assert {path: path.read_bytes() for path in before} == before  # no log is changed


def test_a_log_given_twice_is_pooled_once_and_said(tmp_path: Path) -> None:
    """The same log twice once weighed double in every test, without a word."""
    import shutil

    log = played(tmp_path / "group.jsonl", "--players", "3", "--games", "4", "--seed", "2")
    copy = tmp_path / "copy.jsonl"
    shutil.copy(log, copy)
    other = played(tmp_path / "other.jsonl", "--players", "3", "--games", "2", "--seed", "9")
    once = pool([log, other])
    pooled = pool([log, other, log, copy, str(tmp_path / "." / "group.jsonl")])
    assert pooled.groups[0].pooled == once.groups[0].pooled
    assert [group.logs for group in pooled.groups] == [group.logs for group in once.groups]
    assert [(s.source, s.same_as) for s in pooled.repeated] == [
        (str(log), str(log)), (str(copy), str(log)), (str(tmp_path / "group.jsonl"), str(log))]
    assert pooled.left_out == []


def test_the_finished_games_of_a_log_still_being_recorded_are_pooled(tmp_path: Path) -> None:
    """A log whose last game is unfinished was once left out whole."""
    log = played(tmp_path / "whole.jsonl", "--players", "3", "--games", "3", "--seed", "5")
    lines = log.read_bytes().splitlines(keepends=True)
    starts = [n for n, line in enumerate(lines) if b'"game_started"' in line]
    # Cut before a roll, where the rules wait for the next one: game 3 is under way.
    rolls = [n for n, line in enumerate(lines) if b'"rolled"' in line]
    going = tmp_path / "going.jsonl"
    going.write_bytes(b"".join(lines[:[n for n in rolls if n > starts[2]][5]]))
    (summary,) = pool([going]).logs
    assert summary.error is None
    assert summary.unfinished
    assert summary.games == 2
    two = tmp_path / "two.jsonl"
    two.write_bytes(b"".join(lines[:starts[2]]))
    assert pool([going]).groups[0].pooled == pool([two]).groups[0].pooled
    only = tmp_path / "only.jsonl"
    only.write_bytes(b"".join(lines[:rolls[5]]))
    (alone,) = pool([only]).logs
    assert (alone.error, alone.unfinished, alone.games) == (None, True, 0)


def test_a_log_that_stops_between_a_roll_and_what_it_settles_is_still_damaged(
        tmp_path: Path) -> None:
    log = played(tmp_path / "whole.jsonl", "--players", "3", "--seed", "5")
    lines = log.read_bytes().splitlines(keepends=True)
    cut = next(n for n, line in enumerate(lines) if b'"opening_won"' in line)
    torn = tmp_path / "torn.jsonl"
    torn.write_bytes(b"".join(lines[:cut]))
    (summary,) = pool([torn]).logs
    assert summary.error is not None


def test_a_log_still_being_recorded_pools_its_finished_games(tmp_path: Path) -> None:
    """A class's log fetched during the lesson: its last game is still being
    played, so the games before it count and that one does not yet."""
    whole = played(tmp_path / "whole.jsonl", "--players", "3", "--games", "3", "--seed", "9")
    lines = whole.read_bytes().splitlines(keepends=True)
    third = [n for n, line in enumerate(lines) if b'"game_started"' in line][2]
    # Cut where the log rests: just before a roll of the third game.
    rests = [n for n in range(third + 1, len(lines)) if b'"rolled"' in lines[n]]
    for cut in (third + 1, rests[2], rests[-1]):
        playing = tmp_path / f"playing-{cut}.jsonl"
        playing.write_bytes(b"".join(lines[:cut]))
        pooled = pool([playing])
        assert pooled.left_out == []
        assert pooled.logs[0].games == 2
        two = played(tmp_path / f"two-{cut}.jsonl", "--players", "3", "--games", "2",
                     "--seed", "9")
        assert pooled.groups[0].pooled == pool([two]).groups[0].pooled
    # A log cut between a roll and what it settles is damaged, as before.
    settled = next(n for n in range(third + 1, len(lines))
                   if b'"rolled"' in lines[n - 1] and b'"rolled"' not in lines[n]
                   and b'"game_started"' not in lines[n])
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_bytes(b"".join(lines[:settled]))
    assert len(pool([damaged]).left_out) == 1
