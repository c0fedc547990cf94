"""A big log read on two cores (:mod:`aces.split`): whatever the log, what
``aces verify`` and ``aces replay`` print, and every error, are those of one
walk; the second core is used only where the walks meet as one walk would.

Each test lowers :data:`aces.split.SPLIT_FROM` so that a log of some dozens
of games is cut in two, and holds the output against the same command with
the log walked whole, and counts the later parts taken.
"""

from __future__ import annotations

import io
import os
import tempfile
import threading
import typing as t

import pytest

from aces import engine, split
from aces.dice import RandomDice
from aces.events import Event, GameExcluded, Rolled, RollUndone
from aces.games import game_named
from aces.log import LogWriter, seam

from clitest import ENGLISH, resigned, run

if t.TYPE_CHECKING:
    from pathlib import Path

    from click.testing import Result


def games(count: int, game: str = "pot", first: int = 1) -> list[Event]:
    """``count`` games in a row at one table, of seeds from ``first`` on."""
    rules = game_named(game)
    players = ["Ada", "Bo", "Cy", "Dag"]
    events: list[Event] = []
    for number in range(first, first + count):
        header = engine.header(rules, players, {}, seed=number)
        events += engine.play(rules, header, RandomDice(number))
    return events


def log_of(events: t.Sequence[Event]) -> bytes:
    out = io.BytesIO()
    LogWriter(out).write_all(events)
    return out.getvalue()


class Counted:
    """How many times the later part's walk was taken."""

    def __init__(self) -> None:
        self.taken = 0


@pytest.fixture
def taken(monkeypatch: pytest.MonkeyPatch) -> Counted:
    """Logs of any size read in two parts, counting the later parts taken."""
    counted = Counted()

    class Taken(split._Taken):
        def __init__(self, result: object) -> None:
            counted.taken += 1
            super().__init__(result)

    monkeypatch.setattr(split, "SPLIT_FROM", 1)
    monkeypatch.setattr(split, "_Taken", Taken)
    monkeypatch.setattr(split, "_spare_core", lambda: True)
    # The suite's own threads (Playwright's, in a worker that ran a browser
    # test before) take none of the locks the later part's walk takes: a
    # command run as a process of its own has no thread but its main one.
    monkeypatch.setattr(split, "_alone", lambda: True)
    return counted


def both(monkeypatch: pytest.MonkeyPatch, path: Path, *args: str) -> tuple[Result, Result]:
    """``aces ARGS`` on ``path``, in two parts (as the fixture set it) and whole."""
    command, *rest = args
    parts = run(command, str(path), *rest, env=ENGLISH)
    with monkeypatch.context() as whole:
        whole.setattr(split, "SPLIT_FROM", 1 << 62)
        alone = run(command, str(path), *rest, env=ENGLISH)
    return parts, alone


def same(parts: Result, alone: Result) -> None:
    assert (parts.exit_code, parts.stdout, parts.stderr) == \
        (alone.exit_code, alone.stdout, alone.stderr)


COMMANDS: t.Final = [("verify",), ("replay", "--lang", "nb"), ("replay", "--lang", "nn"),
                     ("replay", "--lang", "en")]


@pytest.mark.parametrize("game", ["pot", "five-dice"])
@pytest.mark.parametrize("command", COMMANDS)
def test_a_sound_log_is_told_in_two_parts_as_in_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, taken: Counted, game: str,
        command: tuple[str, ...]) -> None:
    path = tmp_path / "session.jsonl"
    path.write_bytes(log_of(games(40, game)))
    parts, alone = both(monkeypatch, path, *command)
    assert parts.exit_code == 0, parts.output
    same(parts, alone)
    assert taken.taken == 1


def test_a_last_game_unfinished_is_told_in_two_parts_as_in_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, taken: Counted) -> None:
    path = tmp_path / "session.jsonl"
    path.write_bytes(log_of(games(40)[:-5]))
    for command in COMMANDS:
        parts, alone = both(monkeypatch, path, *command)
        same(parts, alone)
        assert parts.exit_code == 0, parts.output
    assert "not finished yet" in parts.stdout
    assert taken.taken == len(COMMANDS)


def second_half(events: t.Sequence[Event], share: float) -> int:
    """The index of the first roll at ``share`` of the log and after."""
    return next(i for i in range(int(len(events) * share), len(events))
                if type(events[i]) is Rolled)


def broken(events: list[Event], *shares: float) -> bytes:
    """The log of ``events``, each roll at one of ``shares`` of it given other
    dice, and signed again: only the rules catch it."""
    for share in shares:
        at = second_half(events, share)
        roll = t.cast("Rolled", events[at])
        dice = (3 if 1 in roll.dice else 1,) * len(roll.dice)
        events[at] = Rolled(player=roll.player, dice=dice, stage=roll.stage, to=roll.to)
    return resigned(log_of(events))


@pytest.mark.parametrize("command", COMMANDS[:2])
@pytest.mark.parametrize("shares", [(0.8,), (0.6, 0.9), (0.2,), (0.3, 0.8)])
def test_the_first_fault_of_the_rules_is_the_one_a_walk_in_one_part_names(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, taken: Counted,
        shares: tuple[float, ...], command: tuple[str, ...]) -> None:
    path = tmp_path / "broken.jsonl"
    path.write_bytes(broken(games(40), *shares))
    parts, alone = both(monkeypatch, path, *command)
    assert parts.exit_code == 1
    assert "the rules give" in run("verify", str(path), env=ENGLISH).stderr
    same(parts, alone)
    assert taken.taken == 0


@pytest.mark.parametrize("command", COMMANDS[:2])
@pytest.mark.parametrize("share", [0.3, 0.75])
def test_a_changed_line_is_named_where_a_walk_in_one_part_names_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, taken: Counted, share: float,
        command: tuple[str, ...]) -> None:
    log = log_of(games(40))
    at = log.index(b'"Bo"', int(len(log) * share))
    path = tmp_path / "changed.jsonl"
    path.write_bytes(log[:at] + b'"Cy"' + log[at + 4:])
    parts, alone = both(monkeypatch, path, *command)
    assert "the digest does not match" in run("verify", str(path), env=ENGLISH).stderr
    same(parts, alone)
    assert taken.taken == 0


def test_a_log_followed_by_itself_is_refused_as_in_one_part(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, taken: Counted) -> None:
    log = log_of(games(20))
    path = tmp_path / "twice.jsonl"
    path.write_bytes(log + log)
    for command in COMMANDS[:2]:
        parts, alone = both(monkeypatch, path, *command)
        same(parts, alone)
    assert "the sequence number is 1," in run("verify", str(path), env=ENGLISH).stderr
    assert taken.taken == 0


def undone(events: list[Event], share: float) -> list[Event]:
    """``events`` with the roll at ``share`` (or the next one that settles only
    chips) taken back once settled, and rolled again."""
    at = second_half(events, share)
    while True:
        end = next(i for i in range(at + 1, len(events)) if type(events[i]) is Rolled)
        if all(type(e).__name__.startswith("Chips") for e in events[at + 1:end]):
            break
        at = end
    roll = t.cast("Rolled", events[at])
    undo = RollUndone(undoes=at + 1, player=roll.player, dice=roll.dice, to=roll.to)
    return [*events[:end], undo, *events[at:]]


@pytest.mark.parametrize(("share", "parted"), [(0.2, 0), (0.8, 1)])
def test_a_roll_taken_back_before_the_seam_keeps_the_log_in_one_part(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, taken: Counted, share: float,
        parted: int) -> None:
    path = tmp_path / "undone.jsonl"
    path.write_bytes(log_of(undone(games(40), share)))
    for command in COMMANDS[:3]:
        parts, alone = both(monkeypatch, path, *command)
        assert parts.exit_code == 0, parts.output
        same(parts, alone)
    assert taken.taken == 3 * parted


@pytest.mark.parametrize(("excluded", "fault"), [
    ((3, 35), None), ((3, 3), "a second time"), ((99,), "begun only"),
])
def test_games_taken_out_of_the_pool_on_both_sides_of_the_seam(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, taken: Counted,
        excluded: tuple[int, ...], fault: str | None) -> None:
    events = games(40)
    first, *later = excluded
    starts = [i for i, e in enumerate(events) if type(e).__name__ == "GameStarted"]
    # One exclusion after game 10, the others at the end.
    events = [*events[:starts[10]], GameExcluded(game=first), *events[starts[10]:],
              *(GameExcluded(game=game) for game in later)]
    path = tmp_path / "excluded.jsonl"
    path.write_bytes(log_of(events))
    for command in COMMANDS[:2]:
        parts, alone = both(monkeypatch, path, *command)
        same(parts, alone)
        assert (fault is None) == (parts.exit_code == 0)
    if fault is not None:
        assert fault in run("verify", str(path), env=ENGLISH).stderr
    assert taken.taken == (2 if fault is None else 0)


def test_a_small_log_is_walked_whole_in_one_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refused() -> int:
        raise AssertionError("a small log is never read in parts")

    monkeypatch.setattr(os, "fork", refused)
    path = tmp_path / "session.jsonl"
    path.write_bytes(log_of(games(40)))
    assert path.stat().st_size < split.SPLIT_FROM
    for command in COMMANDS:
        assert run(command[0], str(path), *command[1:], env=ENGLISH).exit_code == 0


def test_standard_input_is_walked_whole_in_one_process(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def refused() -> int:
        raise AssertionError("standard input is never read in parts")

    monkeypatch.setattr(split, "SPLIT_FROM", 1)
    monkeypatch.setattr(os, "fork", refused)
    done = run("verify", "-", input=log_of(games(40)), env=ENGLISH)
    assert done.exit_code == 0, done.output


def test_a_log_of_one_long_game_has_no_seam(tmp_path: Path) -> None:
    log = log_of(games(1))
    path = tmp_path / "one.jsonl"
    path.write_bytes(log)
    with path.open("rb") as handle:
        assert seam(handle.fileno(), len(log)) is None
    path.write_bytes(log_of(games(3)))
    with path.open("rb") as handle:
        found = seam(handle.fileno(), path.stat().st_size)
    assert found is not None
    offset, number, _ = found
    lines = path.read_bytes()[:offset].count(b"\n")
    assert number == lines
    assert path.read_bytes()[offset:].startswith(b'{"seq":%d,' % (number + 1))


def test_the_help_says_from_what_size_a_log_is_read_on_two_cores() -> None:
    from aces.cli.logs import REPLAY_EPILOG, VERIFY_EPILOG

    size = f"A log of {split.SPLIT_FROM >> 20} MiB or more"
    assert VERIFY_EPILOG.startswith(size)
    assert REPLAY_EPILOG.startswith(size)
    for lang in ("en", "nb", "nn"):
        for command in ("verify", "replay"):
            shown = run(command, "--help", "--lang", lang).stdout
            assert f"{split.SPLIT_FROM >> 20} MiB" in shown


@pytest.mark.parametrize("failing", ["fork", "spill"])
def test_a_log_is_walked_in_one_process_where_no_second_can_be_started(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, taken: Counted, failing: str) -> None:
    path = tmp_path / "session.jsonl"
    path.write_bytes(log_of(games(40)))
    expected = [run(c[0], str(path), *c[1:], env=ENGLISH).stdout for c in COMMANDS[:2]]
    assert taken.taken == 2

    def refused(*args: object, **kwargs: object) -> t.NoReturn:
        raise OSError(11, "Resource temporarily unavailable")

    if failing == "fork":
        monkeypatch.setattr(os, "fork", refused)
    else:
        monkeypatch.setattr(tempfile, "TemporaryFile", refused)
    for command, told in zip(COMMANDS[:2], expected, strict=True):
        done = run(command[0], str(path), *command[1:], env=ENGLISH)
        assert (done.exit_code, done.stdout) == (0, told)
    assert taken.taken == (2 if failing == "fork" else 3)


def test_a_log_is_walked_in_one_process_where_no_core_is_idle(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, taken: Counted) -> None:
    path = tmp_path / "session.jsonl"
    path.write_bytes(log_of(games(40)))
    monkeypatch.setattr(split, "_spare_core", lambda: False)
    assert run("verify", str(path), env=ENGLISH).exit_code == 0
    assert taken.taken == 0


def test_a_process_of_several_threads_is_never_forked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "session.jsonl"
    path.write_bytes(log_of(games(40)))
    monkeypatch.setattr(split, "SPLIT_FROM", 1)
    monkeypatch.setattr(split, "_spare_core", lambda: True)
    monkeypatch.setattr(os, "fork", lambda: pytest.fail("forked beside another thread"))
    stop = threading.Event()
    beside = threading.Thread(target=stop.wait)
    beside.start()
    try:
        assert not split._alone()
        assert run("verify", str(path), env=ENGLISH).exit_code == 0
    finally:
        stop.set()
        beside.join()


@pytest.mark.parametrize(("load", "cores", "spare"), [(0.5, 2, True), (1.9, 2, True),
                                                     (2.0, 2, False), (8.0, 2, False),
                                                     (3.5, 4, True), (0.0, 1, False)])
def test_a_core_is_spare_while_the_load_is_below_the_cores(
        monkeypatch: pytest.MonkeyPatch, load: float, cores: int, spare: bool) -> None:
    monkeypatch.setattr(os, "getloadavg", lambda: (load, load, load))
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(cores)))
    assert split._spare_core() is spare
