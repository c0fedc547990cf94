"""A class's logs are ``aces record``'s: a game recorded through the API is
byte for byte the log ``aces record`` writes for the same players and dice
(a roll taken back included), ``aces replay`` narrates it as the group's
page told it, and the table in the class's zip is ``aces stats --csv`` on
the logs, in the projector's language."""

from __future__ import annotations

import subprocess
import sys
import typing as t
import zipfile
from io import BytesIO

import pytest

from classtest import Player, Server, join, quiet_server
from recordtest import run

if t.TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    import httpx

PLAYERS: t.Final = ["Kari", "Ola", "Per"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from quiet_server(tmp_path_factory.mktemp("class") / "9a", "--lang", "nb")


class Recorded(t.NamedTuple):
    log: Path
    #: Each roll as typed at ``aces record``, the word for undo for one taken
    #: back, with the number of its game.
    typed: list[tuple[int, str]]
    #: The lines the group's page was told, roll by roll, the undone roll's left out.
    told: list[str]


def recorded(server: Server, client: httpx.Client, label: str, seed: int,
             games: int) -> Recorded:
    """A group of :data:`PLAYERS` that plays ``games`` games through the API
    and one roll of the next, taking its fourth roll back once."""
    group, token, state = join(client, server.code, label, PLAYERS, "nb")
    player = Player(client, group, token, state, seed=seed)
    typed: list[tuple[int, str]] = []
    told: list[list[str]] = []
    while player.state["games_finished"] < games or not typed or player.state["request"] is None:
        body = player.submission()
        answer = player.send(body)
        assert answer.status_code == 200, answer.text
        player.state = answer.json()["group"]
        typed.append((body["game"], " ".join(map(str, body["dice"]))))
        told.append(answer.json()["narration"])
        if len(typed) == 4:
            undone = client.post(f"/api/v1/groups/{group}/undo", headers=player.auth,
                                 json={"id": f"undo-{seed}", "seq": player.state["seq"]})
            assert undone.status_code == 200, undone.text
            player.state = undone.json()["group"]
            typed.append((body["game"], "angre"))
            told.pop()
    return Recorded(server.folder / f"group-{group:03d}.jsonl", typed,
                    [line for lines in told for line in lines])


def test_a_game_recorded_through_the_api_is_the_log_aces_record_writes(
        server: Server, client: httpx.Client, tmp_path: Path) -> None:
    made = recorded(server, client, "Record", seed=21, games=2)
    games = sorted({game for game, _ in made.typed})
    assert games == [1, 2, 3]
    assert [line for _, line in made.typed].count("angre") == 1
    log = tmp_path / "record.jsonl"
    # A game a run, as at the table: the same command again begins the next.
    for game in games:
        done = run("record", str(log), "--players", ",".join(PLAYERS), "--lang", "nb",
                   stdin="".join(f"{line}\n" for number, line in made.typed if number == game))
        assert done.exit_code == 0, done.output
    assert log.read_bytes() == made.log.read_bytes()


def test_aces_replay_narrates_a_groups_log_as_its_page_told_it(
        server: Server, client: httpx.Client) -> None:
    made = recorded(server, client, "Replay", seed=22, games=1)
    done = subprocess.run([sys.executable, "-m", "aces", "replay", "--lang", "nb",
                           str(made.log)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    narrated = iter(done.stdout.splitlines())
    # Every line the page told, in the order it told them.
    for line in made.told:
        assert any(line in said for said in narrated), line
    assert "Ess i potten, parti 1: Kari, Ola og Per" in done.stdout


def test_the_zips_table_is_aces_stats_csv_in_the_projectors_language(
        server: Server, client: httpx.Client, tmp_path: Path) -> None:
    log = recorded(server, client, "Table", seed=23, games=2).log.name
    for lang, comma in [("nb", ["--decimal-comma"]), ("en", [])]:
        spoken = client.post("/api/v1/class/lang", headers=server.teacher, json={"lang": lang})
        assert spoken.status_code == 200, spoken.text
        answer = client.get("/api/v1/class/download", headers=server.teacher)
        assert answer.status_code == 200
        with zipfile.ZipFile(BytesIO(answer.content)) as archive:
            table = archive.read("stats.csv")
            logs = sorted(name for name in archive.namelist() if name.endswith(".jsonl"))
            folder = tmp_path / lang
            folder.mkdir()
            for name in logs:
                (folder / name).write_bytes(archive.read(name))
        csv = tmp_path / f"stats-{lang}.csv"
        done = subprocess.run([sys.executable, "-m", "aces", "stats", "--lang", lang, *logs,
                               "--csv", str(csv), *comma], cwd=folder, capture_output=True,
                              text=True, check=False)
        assert done.returncode == 0, done.stderr
        assert table == csv.read_bytes(), lang
        # A row for each of the group's two finished games, whatever other
        # tests of the module (on this worker's server, or not) have played.
        assert sum(row.startswith(log.encode()) for row in table.splitlines()) == 2
    client.post("/api/v1/class/lang", headers=server.teacher, json={"lang": "nb"})
