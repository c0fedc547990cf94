"""The refusals of the live class that a pupil's page or a program meets least
often, through httpx against a real ``aces class serve``: a full class, a
label taken, a table too large, a group or a path the class does not have;
the limit of wrong guesses for group tokens and the teacher's secret, not only
class codes; a post that carries a cookie but says nowhere that it comes from
the server's own page; the headers of every answer (a strict policy that
names no other source) and the group's cookie. And what a server writes to
its output through a session of requests: never a line for a request, never
the address of any device.

The limit of wrong guesses counts each device by its address: the guessing
tests each send from an address of their own on loopback (Linux answers to
the whole of 127.0.0.0/8), so that the module's other tests, from 127.0.0.1,
are not held back by them.
"""

from __future__ import annotations

import json
import sys
import typing as t
from http.cookies import SimpleCookie

import httpx
import pytest

from aces.classroom.access import GUESSES

from classtest import Player, Server, join, quiet_server

if t.TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from quiet_server(tmp_path_factory.mktemp("class") / "8c")


def device(server: Server, address: str, **headers: str) -> httpx.Client:
    """A client of ``server`` that connects from ``address`` (on loopback)."""
    if not sys.platform.startswith("linux"):
        pytest.skip("a device of its own is an address of Linux's loopback")
    return httpx.Client(base_url=server.base, timeout=10, headers=headers,
                        transport=httpx.HTTPTransport(local_address=address))


def refused(answer: httpx.Response, status: int, code: str) -> str:
    """The message of a refusal of the JSON API, after its status and code."""
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith("application/json")
    error = answer.json()["error"]
    assert (error["status"], error["code"]) == (status, code)
    message: str = error["message"]
    return message


def groups(server: Server) -> int:
    return len(json.loads((server.folder / "class.json").read_text())["groups"])


def test_a_full_class_takes_no_more_groups(tmp_path: Path) -> None:
    with Server(tmp_path / "class", "--max-groups", "2") as server, server.client() as client:
        join(client, server.code, "One", ["Ada", "Bo"])
        join(client, server.code, "Two", ["Ada", "Bo"])
        answer = client.post("/api/v1/join?lang=nb", json={
            "code": server.code, "label": "Three", "players": ["Ada", "Bo"]})
        assert refused(answer, 409, "class_full") == (
            "klassen har 2 grupper, så mange som den tar imot")
        assert groups(server) == 2
        assert sorted(path.name for path in server.folder.glob("*.jsonl")) == [
            "group-001.jsonl", "group-002.jsonl"]
        # The page's form says so too, on the page.
        page = client.post("/join", data={"code": server.code, "label": "Three",
                                          "player": ["Ada", "Bo"], "lang": "en"},
                           headers={"origin": server.base})
        assert page.status_code == 200
        assert "the class has 2 groups, as many as it takes" in page.text
        assert "set-cookie" not in page.headers
        assert groups(server) == 2


def test_a_label_another_group_has_is_refused(server: Server, client: httpx.Client) -> None:
    join(client, server.code, "Ulvene", ["Kari", "Ola"])
    before = groups(server)
    answer = client.post("/api/v1/join", headers={"accept-language": "nb"}, json={
        "code": server.code, "label": "  ULVENE ", "players": ["Per", "Pål"]})
    assert refused(answer, 409, "label_taken") == (
        "en annen gruppe heter «ULVENE»; velg et annet navn på gruppen")
    assert groups(server) == before


def test_a_table_holds_at_most_ten_players(server: Server, client: httpx.Client) -> None:
    eleven = [f"P{number}" for number in range(1, 12)]
    before = groups(server)
    answer = client.post("/api/v1/join", json={"code": server.code, "label": "Eleven",
                                                "players": eleven})
    assert refused(answer, 422, "players") == "a table has at most 10 players"
    assert groups(server) == before
    _, _, state = join(client, server.code, "Ten", eleven[:10])
    assert state["players"] == eleven[:10]


def test_a_group_the_class_does_not_have(server: Server, client: httpx.Client) -> None:
    group, _, _ = join(client, server.code, "Present", ["Ada", "Bo"])
    absent = group + 1000
    teacher = {**server.teacher, "accept-language": "nn"}
    closed = client.post(f"/api/v1/class/groups/{absent}/close", headers=teacher,
                         json={"closed": True})
    assert refused(closed, 404, "no_group") == "klassen har inga slik gruppe"
    excluded = client.post(f"/api/v1/class/groups/{absent}/exclude", headers=teacher,
                           json={"game": 1})
    assert refused(excluded, 404, "no_group") == "klassen har inga slik gruppe"
    # The page of the teacher: the same, on a page.
    page = client.post(f"/teacher/{server.secret}/groups/{absent}/close",
                       data={"closed": "1"}, headers={"origin": server.base,
                                                      "accept-language": "nn"})
    assert page.status_code == 404
    assert 'role="alert">klassen har inga slik gruppe</p>' in page.text


@pytest.mark.parametrize(("method", "path"), [
    ("GET", "/api/v1/nothing"), ("GET", "/api/v2/class"), ("POST", "/api/v1/class/stats"),
    ("GET", "/api/v1/join"), ("GET", "/api/v1/groups/x")])
def test_an_unknown_path_of_the_api_is_not_found(server: Server, client: httpx.Client,
                                                  method: str, path: str) -> None:
    answer = client.request(method, path, headers={**server.teacher, "accept-language": "nb"})
    assert refused(answer, 404, "not_found") == "klassen har ingen slik side"


def test_an_unknown_page_is_a_page_that_says_so(client: httpx.Client) -> None:
    answer = client.get("/nothing", headers={"accept-language": "en"})
    assert answer.status_code == 404
    assert answer.headers["content-type"].startswith("text/html")
    assert '<p class="refused" role="alert">there is no such page in the class</p>' in answer.text


def test_guessed_group_tokens_are_limited(server: Server, client: httpx.Client) -> None:
    group, token, state = join(client, server.code, "Guessed", ["Ada", "Bo"])
    with device(server, "127.0.0.2", **{"accept-language": "en"}) as guesser:
        answers = [guesser.get(f"/api/v1/groups/{group}",
                               headers={"authorization": f"Bearer {'x' * 31}{number}"})
                   for number in range(GUESSES)]
        for answer in answers:
            refused(answer, 403, "not_your_group")
        limited = guesser.get(f"/api/v1/groups/{group}",
                              headers={"authorization": f"Bearer {'y' * 32}"})
        assert refused(limited, 429, "too_many_guesses") == (
            "too many wrong codes have come from this device; wait a minute, then try again")
        # Even the group's own token waits, on that device; it may not roll.
        auth = {"authorization": f"Bearer {token}"}
        assert guesser.get(f"/api/v1/groups/{group}", headers=auth).status_code == 429
        rolled = guesser.post(f"/api/v1/groups/{group}/rolls", headers=auth, json={
            "id": "after-guesses", "seq": state["seq"], "game": 1, "dice": "4"})
        refused(rolled, 429, "too_many_guesses")
    # Another device is not held back by it.
    assert client.get(f"/api/v1/groups/{group}", headers=auth).status_code == 200
    Player(client, group, token, state, seed=3).roll()


def test_guessed_teacher_secrets_are_limited(server: Server, client: httpx.Client) -> None:
    with device(server, "127.0.0.3", **{"accept-language": "nb"}) as guesser:
        for number in range(GUESSES // 2):
            answer = guesser.get("/api/v1/class/stats",
                                 headers={"authorization": f"Bearer guess{number}"})
            refused(answer, 403, "teacher_only")
        # Guessed in the address of the projector's page, as in the API.
        for number in range(GUESSES - GUESSES // 2):
            page = guesser.get(f"/teacher/guess{number}")
            assert page.status_code == 403
            assert "lærerens egen adresse" in page.text
        limited = guesser.get("/api/v1/class", headers={"authorization": "Bearer guess"})
        refused(limited, 429, "too_many_guesses")
        # The right secret waits too, on that device: on the page as in the API.
        assert guesser.get("/api/v1/class", headers=server.teacher).status_code == 429
        page = guesser.get(f"/teacher/{server.secret}")
        assert page.status_code == 429
        assert "for mange feil koder" in page.text
    assert client.get("/api/v1/class", headers=server.teacher).status_code == 200


def test_a_post_with_a_cookie_that_says_not_where_it_comes_from_is_refused(
        server: Server, client: httpx.Client) -> None:
    """A browser sends Origin or Sec-Fetch-Site with every post; a program that
    sends neither holds no cookie of a page. A post with the cookie and
    neither is no page of this server's, and writes nothing."""
    joined = client.post("/join", data={"code": server.code, "label": "Cookie",
                                        "player": ["Ada", "Bo"], "lang": "en"},
                         headers={"origin": server.base})
    assert joined.status_code == 303
    cookie = joined.headers["set-cookie"].partition(";")[0]
    group = int(cookie.partition("=")[2].partition(".")[0])
    log = server.folder / f"group-{group:03d}.jsonl"
    written = log.read_bytes()
    state = client.get("/api/v1/groups/" + str(group), headers={"cookie": cookie}).json()
    form = {"id": "cookie-1", "seq": str(state["seq"]), "game": "1", "dice": "4"}
    for path, body in [("/group/roll", form), ("/group/undo", form),
                       ("/group/lang", {"lang": "nb"})]:
        answer = client.post(path, data=body, headers={"cookie": cookie})
        assert answer.status_code == 403, path
        assert "a request from a page of another site is refused" in answer.text
    rolls = client.post(f"/api/v1/groups/{group}/rolls", headers={"cookie": cookie}, json={
        "id": "cookie-2", "seq": state["seq"], "game": 1, "dice": "4"})
    refused(rolls, 403, "cross_site")
    assert log.read_bytes() == written
    # The same post from the server's own page is taken.
    for number, own in enumerate([{"origin": server.base}, {"sec-fetch-site": "same-origin"}]):
        taken = client.post("/group/roll", data={**form, "id": f"own-{number}"},
                            headers={"cookie": cookie, **own})
        assert taken.status_code == 303, taken.text
        form["seq"] = str(client.get(f"/api/v1/groups/{group}",
                                     headers={"cookie": cookie}).json()["seq"])
    assert len(log.read_bytes().splitlines()) > len(written.splitlines())


#: The headers every answer of the server carries, beside its policy.
SECURITY: t.Final = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
}


def strict(policy: str) -> None:
    """A Content-Security-Policy that lets nothing come from another host, and
    no script or style that is not a file of the server's."""
    directives = {}
    for part in filter(None, (part.strip() for part in policy.split(";"))):
        name, *sources = part.split()
        directives[name] = sources
    assert directives["default-src"] == ["'none'"], policy
    assert directives["frame-ancestors"] == ["'none'"], policy
    assert directives["base-uri"] == ["'none'"], policy
    for name in ("script-src", "style-src"):
        assert directives[name] == ["'self'"], policy
    for name, sources in directives.items():
        allowed = {"'self'", "'none'"} | ({"data:"} if name == "img-src" else set())
        assert set(sources) <= allowed, (name, sources)


def test_every_answer_of_the_server_carries_a_strict_policy(
        server: Server, client: httpx.Client) -> None:
    joined = client.post("/join", data={"code": server.code, "label": "Headers",
                                        "player": ["Ada", "Bo"], "lang": "en"},
                         headers={"origin": server.base})
    cookie = joined.headers["set-cookie"].partition(";")[0]
    answers = {
        "join": client.get("/"), "join-link": client.get(f"/join/{server.code}"),
        "joined": joined,
        "group": client.get("/group", headers={"cookie": cookie}),
        "projector": client.get(f"/teacher/{server.secret}"),
        "style": client.get("/static/class.css"), "script": client.get("/static/pupil.js"),
        "api": client.get("/api/v1/class", headers=server.teacher),
        "missing": client.get("/nothing"),
        "refused": client.get("/api/v1/class"),
        "guard": client.get("/", headers={"host": "attacker.example"}),
        "health": client.get("/health"),
    }
    for name, answer in answers.items():
        assert answer.status_code < 500, name
        strict(answer.headers["content-security-policy"])
        for header, value in SECURITY.items():
            assert answer.headers.get(header) == value, (name, header)
        assert "camera=()" in answer.headers["permissions-policy"], name
        assert answer.headers["cache-control"], name
    assert answers["guard"].status_code == 421
    assert answers["group"].status_code == 200
    assert "no-store" in answers["group"].headers["cache-control"]


def test_the_groups_cookie_is_for_this_site_and_no_script(
        server: Server, client: httpx.Client) -> None:
    joined = client.post("/join", data={"code": server.code, "label": "Biscuit",
                                        "player": ["Ada", "Bo"], "lang": "en"},
                         headers={"origin": server.base})
    assert joined.status_code == 303
    assert joined.headers["location"] == "/group"
    [raw] = joined.headers.get_list("set-cookie")
    morsel = SimpleCookie(raw)["aces_group"]
    assert morsel["httponly"] is True
    assert morsel["samesite"].lower() == "strict"
    assert morsel["path"] == "/"
    assert int(morsel["max-age"]) == 12 * 3600
    assert not morsel["domain"]
    group, _, token = morsel.value.partition(".")
    assert group.isdigit()
    assert len(token) >= 32


def test_no_request_and_no_address_of_a_device_is_written(tmp_path: Path) -> None:
    """A session of requests of every kind, from devices at addresses of their
    own: the server's output is its announcement and its last line, and names
    none of them."""
    with Server(tmp_path / "class") as server:
        pupils = device(server, "127.0.0.4")
        teacher = device(server, "127.0.0.5", **server.teacher)
        with pupils, teacher:
            group, token, state = join(pupils, server.code, "Private", ["Ada", "Bo"])
            player = Player(pupils, group, token, state, seed=9)
            for _ in range(4):
                player.roll()
            pupils.post(f"/api/v1/groups/{group}/undo", headers=player.auth,
                        json={"id": "undo", "seq": player.state["seq"]})
            pupils.get("/")
            pupils.get("/nothing")
            pupils.post("/api/v1/join", json={"code": "WRONG1", "label": "x",
                                              "players": ["A", "B"]})
            pupils.post("/api/v1/join", content=b"not json")
            pupils.get("/", headers={"host": "attacker.example"})
            pupils.post("/api/v1/join", json={}, headers={"origin": "http://evil.example"})
            teacher.get(f"/teacher/{server.secret}")
            teacher.get("/api/v1/class/stats")
            teacher.get("/api/v1/class/download")
            with teacher.stream("GET", "/api/v1/class/events") as events:
                next(events.iter_lines())
        announced = len(server.out)
        assert server.stop() == 130
    assert [line for line in server.err if line] == []
    assert len(server.out) == announced + 1  # "Stopped. The class is kept in …"
    for line in server.out:
        for address in ("127.0.0.4", "127.0.0.5"):
            assert address not in line, line
        for word in ("GET ", "POST ", "HTTP/1.1", " 200", " 403", "/api/v1/"):
            assert word not in line, line
