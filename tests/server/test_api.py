"""The JSON API of the live class, through httpx, against a real ``aces class serve``:
every answer a pupil's page or a school's tool relies on, and every refusal."""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
import typing as t
import zipfile
from io import BytesIO

import pytest

from classtest import Player, Server, join, quiet_server

if t.TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    import httpx


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from quiet_server(tmp_path_factory.mktemp("class") / "7b", "--lang", "nb")


#: «Bo» in Cyrillic letters, which looks like the Latin one.
CYRILLIC_BO: t.Final = "\u0412\u043e"


def lines(path: Path) -> list[dict[str, t.Any]]:
    return [json.loads(line) for line in path.read_bytes().splitlines()]


def test_a_group_joins_by_the_code_and_records_in_its_language(
        server: Server, client: httpx.Client) -> None:
    group, token, state = join(client, server.code.lower(), "Ulvene", ["Kari", "Ola", "Per"],
                               "nb")
    assert state["request"] == {"player": "Kari", "dice": 1, "stage": "opening",
                                "prompt": "Kari kaster én terning (åpningskast)"}
    assert state["story"][0].startswith("Ess i potten, parti 1: Kari, Ola og Per")
    answer = client.post(f"/api/v1/groups/{group}/rolls",
                         headers={"authorization": f"Bearer {token}"},
                         json={"id": "first", "seq": state["seq"], "game": 1, "dice": "4"})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["narration"] == ["Kari kaster 4."]
    assert data["events"] == [{"type": "rolled", "player": "Kari", "dice": [4], "stage": "opening"}]
    assert data["group"]["request"]["player"] == "Ola"
    log = server.folder / "group-001.jsonl"
    assert [line["type"] for line in lines(log)] == ["game_started", "rolled"]


def test_a_retry_gets_the_first_answer_and_writes_nothing_twice(
        server: Server, client: httpx.Client) -> None:
    group, token, state = join(client, server.code, "Retry", ["Ada", "Bo"])
    player = Player(client, group, token, state, seed=1)
    body = player.submission()
    first = player.send(body)
    log = server.folder / f"group-{group:03d}.jsonl"
    count = len(lines(log))
    again = player.send(body)
    assert again.status_code == 200
    assert again.json()["events"] == first.json()["events"]
    assert again.json()["narration"] == first.json()["narration"]
    assert len(lines(log)) == count
    # The same id for another roll is refused, and writes nothing.
    other = player.send({**body, "dice": [7 - body["dice"][0]]})
    assert other.status_code == 422
    assert other.json()["error"]["code"] == "reused_id"
    assert len(lines(log)) == count
    # A submission for a moment that has passed: refused, with the game now.
    player.state = first.json()["group"]
    player.roll()
    stale = player.send({**player.submission(), "seq": body["seq"]})
    assert stale.status_code == 409
    assert stale.json()["error"]["code"] == "stale"
    assert stale.json()["group"]["seq"] == player.state["seq"]
    # The first submission, retried after others moved the log on, still
    # gets its first answer.
    late = player.send(body)
    assert late.status_code == 200
    assert late.json()["events"] == first.json()["events"]


def test_a_refused_roll_gets_the_message_of_aces_record(
        server: Server, client: httpx.Client) -> None:
    group, token, state = join(client, server.code, "Refused", ["Kari", "Ola"], "nb")
    auth = {"authorization": f"Bearer {token}"}
    sent = client.post(f"/api/v1/groups/{group}/rolls", headers=auth,
                       json={"id": "two", "seq": state["seq"], "game": 1, "dice": "16"})
    assert sent.status_code == 422
    assert sent.json()["error"] == {
        "code": "roll", "status": 422,
        "message": "Kari skal kaste én terning her, men linjen har 2"}
    faces = client.post(f"/api/v1/groups/{group}/rolls", headers=auth,
                        json={"id": "seven", "seq": state["seq"], "game": 1, "dice": [7]})
    assert faces.json()["error"]["message"] == (
        "«7» er ikke et gyldig antall øyne på en terning (1 til 6)")
    english = client.post(f"/api/v1/groups/{group}/rolls?lang=en", headers=auth,
                          json={"id": "x", "seq": state["seq"], "game": 1, "dice": "x"})
    assert english.json()["error"]["message"] == "'x' is not a face of a die (1 to 6)"
    # The word for undo is understood as in aces record, in the group's language
    # or another; nothing to take back yet (a word it did not know would be
    # refused as no face of a die).
    for word in ("angre", "undo"):
        undo = client.post(f"/api/v1/groups/{group}/rolls", headers=auth,
                           json={"id": "u", "seq": state["seq"], "game": 1, "dice": word})
        assert undo.json()["error"] == {
            "code": "roll", "status": 422,
            "message": "det er ikke noe kast i dette partiet å ta tilbake"}, word


def test_undo_takes_back_the_last_roll(server: Server, client: httpx.Client) -> None:
    group, token, state = join(client, server.code, "Undo", ["Kari", "Ola"])
    player = Player(client, group, token, state, seed=2)
    player.roll()
    rolled = player.roll()
    undone = client.post(f"/api/v1/groups/{group}/undo", headers=player.auth,
                         json={"id": "undo-1", "seq": rolled["seq"]})
    assert undone.status_code == 200, undone.text
    assert undone.json()["events"][0]["type"] == "roll_undone"
    assert undone.json()["group"]["request"]["player"] == "Ola"
    done = subprocess.run([sys.executable, "-m", "aces", "verify",
                           str(server.folder / f"group-{group:03d}.jsonl")], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("token", ["", "wrong", "other"])
def test_only_the_groups_own_token_writes_its_log(server: Server, client: httpx.Client,
                                                  token: str) -> None:
    group, _, state = join(client, server.code, f"Mine {token}", ["Kari", "Ola"])
    _, other, _ = join(client, server.code, f"Theirs {token}", ["Ada", "Bo"])
    headers = {"accept-language": "nn"}
    if token:
        given = {"wrong": "x" * 32, "other": other}[token]
        headers["authorization"] = f"Bearer {given}"
    answer = client.post(f"/api/v1/groups/{group}/rolls", headers=headers,
                         json={"id": "a", "seq": state["seq"], "game": 1, "dice": "4"})
    assert answer.status_code == 403
    assert answer.json()["error"]["code"] == "not_your_group"
    assert len(lines(server.folder / f"group-{group:03d}.jsonl")) == 1


def test_wrong_codes_are_refused_and_guesses_limited(tmp_path: Path) -> None:
    # A server of its own: every test comes from the same address.
    with Server(tmp_path / "class") as server, \
            server.client(**{"accept-language": "nn-NO,nn;q=0.9"}) as guesser:
        codes = []
        for number in range(12):
            answer = guesser.post("/api/v1/join", json={"code": f"ZZZZ{number:02d}",
                                                         "label": "x", "players": ["A", "B"]})
            codes.append(answer.status_code)
        assert codes[:10] == [403] * 10
        assert codes[10:] == [429, 429]
        assert answer.json()["error"] == {
            "code": "too_many_guesses", "status": 429,
            "message": "for mange feil kodar har kome frå denne eininga; vent eit minutt og"
                       " prøv igjen"}
        # Even the right code waits until the minute has passed.
        right = guesser.post("/api/v1/join", json={"code": server.code, "label": "x",
                                                    "players": ["A", "B"]})
        assert right.status_code == 429


def test_names_are_checked_as_a_logs_names_are(server: Server, client: httpx.Client) -> None:
    answer = client.post("/api/v1/join", json={"code": server.code, "label": "Look",
                                                "players": ["Bo", CYRILLIC_BO]})
    assert answer.status_code == 422
    assert answer.json()["error"]["message"].startswith(f"«Bo» og «{CYRILLIC_BO}» ser like ut")
    control = client.post("/api/v1/join", json={"code": server.code, "label": "Ctl",
                                                 "players": ["Bo\x1b[2J", "Cy"]})
    assert control.status_code == 422
    label = client.post("/api/v1/join", json={"code": server.code, "label": "a\u202eb",
                                               "players": ["Bo", "Cy"]})
    assert label.json()["error"]["code"] == "label"
    long = client.post("/api/v1/join", json={"code": server.code, "label": "Long",
                                              "players": ["B" * 25, "Cy"]})
    assert long.json()["error"]["code"] == "players"
    # Markup is a name like any other, kept as text.
    _group, _, state = join(client, server.code, "<b>Hi</b>", ["<script>", "Cy"])
    assert state["players"] == ["<script>", "Cy"]


def test_forged_cross_site_posts_and_other_hosts_are_refused(server: Server) -> None:
    with server.client(origin="http://evil.example") as forged:
        answer = forged.post("/api/v1/join", json={"code": server.code, "label": "Forged",
                                                    "players": ["A", "B"]})
        assert answer.status_code == 403
        assert answer.json()["error"]["code"] == "cross_site"
    with server.client(**{"sec-fetch-site": "cross-site"}) as forged:
        assert forged.post("/api/v1/join", json={}).status_code == 403
    with server.client(host="attacker.example") as renamed:
        answer = renamed.get("/api/v1/class", headers=server.teacher)
        assert answer.status_code == 421
        assert answer.json()["error"]["code"] == "wrong_host"


def test_oversized_and_malformed_bodies_are_refused(server: Server, client: httpx.Client) -> None:
    big = client.post("/api/v1/join", content=b"{" + b" " * 20_000 + b"}",
                      headers={"content-type": "application/json"})
    assert big.status_code == 413
    assert big.json()["error"]["code"] == "too_large"
    bad = client.post("/api/v1/join", content=b"not json")
    assert bad.status_code == 400
    assert bad.json()["error"]["code"] == "bad_request"


def test_the_teachers_results_are_the_numbers_of_aces_stats(
        server: Server, client: httpx.Client) -> None:
    group, token, state = join(client, server.code, "Stats", ["Ada", "Bo", "Cy"])
    player = Player(client, group, token, state, seed=3)
    while player.state["games_finished"] < 2:
        player.roll()
    player.roll()
    assert client.get("/api/v1/class/stats").status_code == 403
    pooled = client.get("/api/v1/class/stats", headers=server.teacher)
    assert pooled.status_code == 200
    logs = sorted(path.name for path in server.folder.glob("*.jsonl"))
    done = subprocess.run([sys.executable, "-m", "aces", "stats", "--json", *logs],
                          cwd=server.folder, capture_output=True, text=True, check=True)
    assert pooled.json() == json.loads(done.stdout)


def test_a_game_taken_out_of_the_pool_is_an_event_aces_stats_honours(
        server: Server, client: httpx.Client) -> None:
    group, token, state = join(client, server.code, "Excluded", ["Ada", "Bo"])
    player = Player(client, group, token, state, seed=6)
    while player.state["games_finished"] < 2:
        player.roll()
    url = f"/api/v1/class/groups/{group}/exclude"
    assert client.post(url, json={"game": 1}).status_code == 403
    taken = client.post(url, headers=server.teacher, json={"game": 1})
    assert taken.status_code == 200, taken.text
    assert taken.json()["excluded"] == [1]
    log = server.folder / f"group-{group:03d}.jsonl"
    assert lines(log)[-1]["type"] == "game_excluded"
    again = client.post(url, headers=server.teacher, json={"game": 1})
    assert again.status_code == 422
    assert again.json()["error"]["code"] == "no_game"
    assert client.post(url, headers=server.teacher, json={"game": 9}).status_code == 422
    # The group goes on recording after it.
    player.state = client.get(f"/api/v1/groups/{group}", headers=player.auth).json()
    player.roll()
    pooled = client.get("/api/v1/class/stats", headers=server.teacher).json()
    names = sorted(path.name for path in server.folder.glob("*.jsonl"))
    done = subprocess.run([sys.executable, "-m", "aces", "stats", "--json", *names],
                          cwd=server.folder, capture_output=True, text=True, check=True)
    assert pooled == json.loads(done.stdout)
    mine = next(entry for entry in pooled["logs"] if entry["log"] == log.name)
    assert mine["games"] == 1
    assert mine["excluded"] == [1]
    # aces stats and the projector say so, in the same words.
    said = f"Tatt ut av resultatene: parti 1 i {log.name}, så det slås ikke sammen med de andre."
    told = subprocess.run([sys.executable, "-m", "aces", "stats", "--lang", "nb", *names],
                          cwd=server.folder, capture_output=True, text=True, check=True)
    assert f"  {said}" in told.stdout.splitlines()
    projector = client.get(f"/teacher/{server.secret}").text
    assert f"<li>{html.escape(said)}</li>" in projector


def test_pause_and_close_stop_recording(server: Server, client: httpx.Client) -> None:
    group, token, state = join(client, server.code, "Paused", ["Ada", "Bo"])
    player = Player(client, group, token, state, seed=4)
    paused = client.post("/api/v1/class/pause", headers=server.teacher, json={"paused": True})
    assert paused.json()["paused"] is True
    try:
        refused = player.send(player.submission())
        assert refused.status_code == 423
        assert refused.json()["error"]["code"] == "paused"
    finally:
        client.post("/api/v1/class/pause", headers=server.teacher, json={"paused": False})
    player.roll()
    closed = client.post(f"/api/v1/class/groups/{group}/close", headers=server.teacher,
                         json={"closed": True})
    assert closed.json()["closed"] is True
    assert player.send(player.submission()).json()["error"]["code"] == "closed"


def test_the_class_downloads_as_a_zip_of_its_logs(server: Server, client: httpx.Client) -> None:
    answer = client.get("/api/v1/class/download", headers=server.teacher)
    assert answer.status_code == 200
    with zipfile.ZipFile(BytesIO(answer.content)) as archive:
        names = archive.namelist()
        assert "stats.csv" in names
        for name in names:
            if name.endswith(".jsonl"):
                assert archive.read(name) == (server.folder / name).read_bytes()
        assert archive.read("stats.csv").decode("utf-8-sig").startswith("logg;parti;")


def policy(text: str) -> dict[str, str]:
    """A Content-Security-Policy by its directives."""
    found = {}
    for part in filter(None, (part.strip() for part in text.split(";"))):
        name, _, value = part.partition(" ")
        found[name] = value
    return found


def test_a_groups_replay_is_held_by_the_pages_own_policy(server: Server,
                                                         client: httpx.Client) -> None:
    """The teacher's replay of a group sends the policy the page states in its
    head, with frame-ancestors (which a page cannot state) and nothing else: it
    once hashed every inline script and style of the page, which would have
    allowed whatever markup found its way in."""
    group, token, state = join(client, server.code, "Replayed", ["Ada", "<b>Bo</b>"])
    player = Player(client, group, token, state, seed=8)
    for _ in range(4):
        player.roll()
    answer = client.get(f"/teacher/{server.secret}/groups/{group}/replay")
    assert answer.status_code == 200, answer.text
    assert "&lt;b&gt;Bo&lt;/b&gt;" in answer.text
    stated = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">',
                       answer.text)
    assert stated is not None
    sent = policy(answer.headers["content-security-policy"])
    assert sent.pop("frame-ancestors") == "'none'"
    assert sent == policy(html.unescape(stated.group(1)))
    assert "unsafe-inline" not in answer.headers["content-security-policy"]
    assert client.get(f"/teacher/{server.secret}/groups/{group}/replay?game=1"
                      ).status_code == 200


@pytest.mark.parametrize("game", ["\u00b2", "0", "-1", "x", "9" * 5000, "1e3"])
def test_a_replay_of_a_game_that_is_no_number_is_no_page(server: Server, client: httpx.Client,
                                                         game: str) -> None:
    """``?game=²`` passed ``isdigit`` and ended in ``int``'s ValueError, and a
    number of 5,000 digits too: an internal error, where the teacher reads why."""
    group, _, _ = join(client, server.code, f"Asked {len(game)}{game[:3]}", ["Ada", "Bo"])
    answer = client.get(f"/teacher/{server.secret}/groups/{group}/replay",
                        params={"game": game})
    assert answer.status_code == 404, answer.text
    assert 'role="alert"' in answer.text


def test_the_stream_resumes_from_last_event_id(server: Server, client: httpx.Client) -> None:
    group, token, state = join(client, server.code, "Stream", ["Ada", "Bo"])
    player = Player(client, group, token, state, seed=5)
    for _ in range(3):
        player.roll()

    def blocks(after: int, count: int) -> list[tuple[int, dict[str, t.Any]]]:
        got: list[tuple[int, dict[str, t.Any]]] = []
        headers = {**server.teacher, "last-event-id": str(after)}
        with client.stream("GET", "/api/v1/class/events", headers=headers) as stream:
            assert stream.headers["content-type"].startswith("text/event-stream")
            event: dict[str, str] = {}
            for line in stream.iter_lines():
                if line:
                    key, _, value = line.partition(":")
                    event[key] = value.strip()
                    continue
                if event.get("event") == "block":
                    got.append((int(event["id"]), json.loads(event["data"])))
                    if len(got) == count:
                        break
                event = {}
        return got

    position = client.get("/api/v1/class", headers=server.teacher).json()["position"]
    seen = blocks(position - 3, 3)
    assert [block["group"] for _, block in seen] == [group] * 3
    assert [position for position, _ in seen] == list(range(position - 2, position + 1))
    for _ in range(2):
        player.roll()
    following = blocks(seen[-1][0], 2)
    assert [position for position, _ in following] == [position + 1, position + 2]
    written = lines(server.folder / f"group-{group:03d}.jsonl")
    streamed = [line for _, block in seen + following for line in block["lines"]]
    assert streamed == written[-len(streamed):]


def test_open_streams_are_bounded(tmp_path: Path) -> None:
    with Server(tmp_path / "class", "--max-projectors", "1") as server, \
            server.client(**server.teacher) as client, \
            client.stream("GET", "/api/v1/class/events") as first:
        assert first.status_code == 200
        second = client.get("/api/v1/class/events", headers={"accept-language": "nb"})
        assert second.status_code == 503
        assert second.json()["error"] == {
            "code": "too_many_streams", "status": 503,
            "message": "én projektor er åpen allerede, så mange som klassen har plass til"}
