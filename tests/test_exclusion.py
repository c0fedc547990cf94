"""A game taken out of the class's pool (``game_excluded``): an event appended
to the log, never a line taken out, which every reader of a log knows.

``aces verify`` checks it names a game begun before it, once; ``aces replay``
tells it in every language; ``aces stats`` leaves the game out, from a file
and from standard input alike; ``aces record`` goes on with such a log.
"""

from __future__ import annotations

import json
import typing as t

import pytest

from aces.events import GameExcluded
from aces.experiment.pool import pool
from aces.log import LogWriter, read

from clitest import ENGLISH, one_line_error, run

if t.TYPE_CHECKING:
    from pathlib import Path


def session(tmp_path: Path, games: int = 3) -> Path:
    path = tmp_path / "session.jsonl"
    result = run("play", "--players", "3", "--games", str(games), "--seed", "4", "-o", str(path))
    assert result.exit_code == 0, result.output
    return path


def with_lines(path: Path, *games: int) -> Path:
    """The log with a ``game_excluded`` appended for each of ``games``."""
    with path.open("rb") as handle:
        reader = read(handle, str(path))
        for _ in reader:
            pass
    tail = reader.tail
    writer = LogWriter(None, first_seq=tail.seq + 1, previous=tail.digest)
    out = path.with_name(f"excluded-{'-'.join(map(str, games))}.jsonl")
    out.write_bytes(path.read_bytes()
                    + writer.encode(GameExcluded(game=game) for game in games))
    return out


def test_a_game_taken_out_verifies_and_is_told(tmp_path: Path) -> None:
    log = with_lines(session(tmp_path), 2)
    assert run("verify", str(log), env=ENGLISH).exit_code == 0
    told = {lang: run("replay", str(log), "--lang", lang).stdout for lang in ("en", "nb", "nn")}
    assert ("The teacher takes game 2 out of the class's results; it stays in the log."
            in told["en"])
    assert ("Læreren tar parti 2 ut av resultatene til klassen; det blir stående i loggen."
            in told["nb"])
    assert ("Læraren tek parti 2 ut av resultata til klassen; det blir ståande i loggen."
            in told["nn"])


@pytest.mark.parametrize(("games", "message"), [
    ((4,), "game_excluded names game 4, but the log has begun only 3 games by then"),
    ((0,), "game_excluded names game 0, but the log has begun only 3 games by then"),
    ((2, 2), "game_excluded takes game 2 out of the pool a second time"),
])
def test_an_exclusion_of_no_game_is_refused_at_its_line(tmp_path: Path, games: tuple[int, ...],
                                                        message: str) -> None:
    log = with_lines(session(tmp_path), *games)
    result = run("verify", str(log), env=ENGLISH)
    assert result.exit_code == 1
    assert message in one_line_error(result)


def test_stats_leaves_the_game_out_from_a_file_and_from_standard_input(tmp_path: Path) -> None:
    whole = session(tmp_path)
    two = tmp_path / "two"
    two.mkdir()
    log = with_lines(whole, 2)
    pooled = pool([log])
    assert pooled.logs[0].games == 2
    # The same as the log's games 1 and 3 alone: pooled from two one-game logs.
    lines = whole.read_bytes().splitlines(keepends=True)
    starts = [n for n, line in enumerate(lines) if b'"game_started"' in line] + [len(lines)]
    # Each game as a log of its own, numbered and chained from its first line.
    events = [event for _, event in read(iter(lines), "whole").pairs()]
    parts = []
    for number in (1, 3):
        part = two / f"game-{number}.jsonl"
        part.write_bytes(LogWriter(None).encode(events[starts[number - 1]:starts[number]]))
        parts.append(part)
    assert pooled.groups[0].pooled == pool(parts).groups[0].pooled
    piped = run("stats", "--json", "-", input=log.read_bytes(), env=ENGLISH)
    assert piped.exit_code == 0, piped.output
    from_file = run("stats", "--json", str(log), env=ENGLISH)
    def pooled_only(out: str) -> list[dict[str, t.Any]]:
        return [{key: value for key, value in group.items() if key != "logs"}
                for group in json.loads(out)["groups"]]

    assert pooled_only(piped.stdout) == pooled_only(from_file.stdout)
    csv = tmp_path / "games.csv"
    assert run("stats", str(log), "--csv", str(csv), env=ENGLISH).exit_code == 0
    numbers = [row.split(",")[1] for row in csv.read_text(encoding="utf-8-sig").splitlines()[1:]]
    assert numbers == ["1", "3"]


def test_stats_says_which_games_a_log_took_out(tmp_path: Path) -> None:
    log = with_lines(session(tmp_path), 1, 3)
    said = {"en": "Taken out of the results: games 1 and 3 of {log}, so they are not pooled.",
            "nb": "Tatt ut av resultatene: partiene 1 og 3 i {log}, så de slås ikke sammen med"
                  " de andre.",
            "nn": "Teke ut av resultata: partia 1 og 3 i {log}, så dei blir ikkje slått saman"
                  " med dei andre."}
    for lang, line in said.items():
        result = run("stats", str(log), "--lang", lang)
        assert result.exit_code == 0, result.output
        assert "  " + line.format(log=log) in result.stdout.splitlines()
    one = run("stats", str(with_lines(log.with_name("session.jsonl"), 2)), env=ENGLISH)
    assert "of the results: game 2 of" in one.stdout
    data = json.loads(run("stats", "--json", str(log), env=ENGLISH).stdout)
    assert data["logs"][0]["excluded"] == [1, 3]
    assert data["logs"][0]["games"] == 1
    whole = json.loads(run("stats", "--json", str(log.with_name("session.jsonl")),
                           env=ENGLISH).stdout)
    assert whole["logs"][0]["excluded"] == []


def test_record_goes_on_with_a_log_that_took_a_game_out(tmp_path: Path) -> None:
    log = with_lines(session(tmp_path, games=1), 1)
    result = run("record", str(log), input="4\n", env=ENGLISH)
    assert result.exit_code == 0, result.output
    assert run("verify", str(log), env=ENGLISH).exit_code == 0
    assert json.loads(log.read_bytes().splitlines()[-1])["type"] == "rolled"
