"""Every writer's limits walked against the readers': whatever a command or the
API writes, aces reads back, and no short argument fills a disk or the memory.

The reader refuses a line longer than :data:`aces.log.LINE_LIMIT` and a log of
more than :data:`aces.log.EVENT_LIMIT` events. Each writer is taken to its
edge here: just inside, what it writes is read back; just outside, it
refuses at once, before a line is written. The event limit is made small
for the walk (it is read where it is used, by writer and reader alike), so
that its edge is reached in a moment.
"""

from __future__ import annotations

import typing as t

import pytest

import aces
import aces.log
from aces import engine
from aces.errors import AcesError, OptionError
from aces.games import game_named
from aces.log import LINE_LIMIT, LogWriter, read
from aces.walk import Visitor, drive

from clitest import one_line_error, run

if t.TYPE_CHECKING:
    from pathlib import Path

#: The event limit of the walk.
SMALL: t.Final = 2_000


@pytest.fixture
def small(monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(aces.log, "EVENT_LIMIT", SMALL)
    return SMALL


def verified(log: Path) -> str:
    """``aces verify LOG``: the log reads back."""
    result = run("verify", str(log))
    assert result.exit_code == 0, result.output
    return result.stdout


class _Count(Visitor[int]):
    def __init__(self) -> None:
        self.steps = 0

    def visit(self, step: t.Any) -> None:
        self.steps += 1

    def end(self) -> None:
        pass

    def result(self) -> int:
        return self.steps


def events_of(log: Path) -> int:
    with log.open("rb") as stream:
        return drive(read(stream, str(log)), str(log), _Count(), allow_unfinished=True)


# -- Events: games, chips, dice ---------------------------------------------------------


def test_play_refuses_at_once_a_session_longer_than_a_log_holds(small: int,
                                                                tmp_path: Path) -> None:
    """``aces play --players 2 --games 700000`` once wrote 26.5 million lines that
    verify then refused; ``--chips 1000000000`` filled the disk."""
    for args in (["--games", "700000"], ["--chips", "1000000000"], ["--games", "10" * 5]):
        log = tmp_path / "refused.jsonl"
        error = one_line_error(run("play", "--players", "2", "--seed", "1", *args,
                                   "-o", str(log)))
        assert f"more than the {small:,} a log may hold" in error
        assert not log.exists()


def test_play_writes_the_longest_session_it_allows_and_verify_reads_it(
        small: int, tmp_path: Path) -> None:
    rules = game_named("pot")
    start = engine.header(rules, ["Ada", "Bo"], {})
    most = max(games for games in range(1, small) if
               engine.expected_events(rules, start, games) <= small)
    log = tmp_path / "most.jsonl"
    assert run("play", "--players", "Ada,Bo", "--games", str(most), "--seed", "1", "-o",
               str(log)).exit_code == 0
    assert verified(log).startswith(f"{log} follows the rules: {most} games")
    assert "more than" in one_line_error(run("play", "--players", "Ada,Bo", "--games",
                                             str(most + 1), "--seed", "1"))


def test_a_session_longer_than_its_estimate_stops_at_what_a_log_holds(
        small: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Should the games run longer than the estimate says, the writer stops at the
    reader's limit: the log holds what a reader reads, its last game unfinished."""
    monkeypatch.setattr(engine, "EVENTS_PER_PIECE", 1)
    log = tmp_path / "long.jsonl"
    error = one_line_error(run("play", "--players", "2", "--games", "200", "--seed", "1",
                               "-o", str(log)))
    assert f"the log holds {small:,} events, the most a log may hold" in error
    # It stops before the roll that would pass the limit, once the roll before
    # it is settled: what is written is a game to be carried on.
    assert small - 10 < events_of(log) <= small
    assert "is not finished yet" in verified(log)


def test_a_writer_carrying_a_log_on_stops_at_the_limit(small: int) -> None:
    from aces.events import TryWon
    from aces.log import full_log

    writer = LogWriter(None, first_seq=small)
    writer.encode([TryWon(player="Bo")])
    with pytest.raises(OptionError) as raised:
        writer.encode([TryWon(player="Bo")])
    assert str(raised.value) == str(full_log())
    assert writer.written == small


def test_the_api_holds_no_more_than_it_can_save(tmp_path: Path) -> None:
    """``aces.play(..., chips=10**9)`` once grew memory without end."""
    from aces.api import HELD_EVENTS

    assert HELD_EVENTS < aces.log.EVENT_LIMIT
    calls: list[t.Callable[[], object]] = [
        lambda: aces.play(2, chips=10**9), lambda: aces.play(2, games=10**6),
        lambda: aces.play(2, seed=1, games=HELD_EVENTS)]
    for call in calls:
        with pytest.raises(OptionError, match=r"that aces\.play keeps in memory"):
            call()


def test_the_api_stops_past_its_estimate_too(monkeypatch: pytest.MonkeyPatch) -> None:
    import aces.api

    monkeypatch.setattr(engine, "EVENTS_PER_PIECE", 0)
    monkeypatch.setattr(aces.api, "HELD_EVENTS", 500)
    with pytest.raises(OptionError, match=r"more than the 500 that aces\.play keeps in memory"):
        aces.play(2, seed=1, games=100)


# -- Lines: names, players, dice, seeds ---------------------------------------------------


def _edge(fits: t.Callable[[int], bool], low: int, high: int) -> int:
    """The largest ``n`` from ``low`` to ``high`` that ``fits``, which holds up to it."""
    while low < high:
        middle = (low + high + 1) // 2
        if fits(middle):
            low = middle
        else:
            high = middle - 1
    return low


def _header_fits(players: list[str], seed: int | None = 1) -> bool:
    rules = game_named("pot")
    try:
        engine.header(rules, players, {}, seed)
    except OptionError:
        return False
    return True


def test_the_longest_names_a_game_allows_read_back(tmp_path: Path) -> None:
    fits = _edge(lambda n: _header_fits(["A" * n, "B" * n]), 1, LINE_LIMIT)
    log = tmp_path / "long-names.jsonl"
    aces.play(["A" * fits, "B" * fits], seed=1).save(log)
    verified(log)
    with pytest.raises(OptionError, match="could be longer than the 65,536 bytes"):
        aces.play(["A" * (fits + 1), "B" * (fits + 1)], seed=1)


def test_the_most_players_a_game_allows_read_back(tmp_path: Path) -> None:
    """The header and the tie of every player are the widest lines: at the
    most players the writer allows, a reader reads the log's first line."""
    names = [f"P{n}" for n in range(1, 20_000)]
    most = _edge(lambda n: _header_fits(names[:n]), 2, len(names))
    assert not _header_fits(names[:most + 1])
    log = tmp_path / "table.jsonl"
    with log.open("wb") as out:
        LogWriter(out).write(engine.header(game_named("pot"), names[:most], {}, 1))
    assert "is not finished yet" in verified(log)
    error = one_line_error(run("play", "--players", str(10**9)))
    assert "could be longer than the 65,536 bytes" in error


@pytest.mark.parametrize("seed", [-(2**63), 2**64 - 1, 0])
def test_any_whole_seed_the_writer_takes_reads_back(seed: int, tmp_path: Path) -> None:
    log = tmp_path / "seeded.jsonl"
    aces.play(2, seed=seed).save(log)
    assert verified(log).startswith(f"{log} follows the rules: 1 game")


@pytest.mark.parametrize("seed", [1.5, True, "1", 2**64, -(2**63) - 1,
                                  pytest.param(10**5000, id="5001 digits")])
def test_a_seed_a_reader_would_refuse_is_refused_by_the_writer(seed: object) -> None:
    """``aces.play(..., seed=1.5).save(...)`` once wrote a log verify refused, and a
    seed of 5,000 digits was a ValueError of Python's."""
    with pytest.raises(AcesError, match="seed="):
        aces.play(2, seed=t.cast("t.Any", seed))


def test_the_seeds_of_a_session_stay_in_range_to_its_last_game(tmp_path: Path) -> None:
    log = tmp_path / "late.jsonl"
    error = one_line_error(run("play", "--players", "2", "--seed", str(2**64 - 2), "--games",
                               "3", "-o", str(log)))
    assert error == f"aces: --seed must be at most {2**64 - 1}, not {2**64}"
    assert not log.exists()


def test_a_header_option_the_reader_refuses_is_refused_by_the_writer() -> None:
    for options in ({"chips": 0}, {"chips": 2.5}, {"chips": True}, {"finish": "never"}):
        with pytest.raises(OptionError):
            aces.play(2, **t.cast("t.Any", options))
