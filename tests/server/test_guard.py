"""What every request passes (aces.server.guard), against a real ``aces class
serve``: a body too large however it is sent, refusals in the caller's
language as every answer chooses it, and no traceback in the server's output."""

from __future__ import annotations

import typing as t

import pytest

from aces.i18n import unknown_language
from aces.server.guard import BODY_LIMIT, Guard, too_large

import loops
from classtest import Server, join, quiet_server

if t.TYPE_CHECKING:
    from collections.abc import Iterator

    import httpx
    from starlette.types import Receive, Scope, Send

    from aces.errors import ClassError


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # Nothing the tests send makes the server print anything: no traceback.
    yield from quiet_server(tmp_path_factory.mktemp("guard") / "class", "--lang", "nb")


def chunks(size: int) -> Iterator[bytes]:
    """A body sent in chunks, with no Content-Length for the guard to read first."""
    for _ in range(size // 1024):
        yield b"x" * 1024


@pytest.mark.parametrize("path", ["/join", "/lang", "/group/lang", "/group/roll",
                                  "/api/v1/join"])
def test_a_body_too_large_sent_in_chunks_is_refused_in_a_line(
        server: Server, client: httpx.Client, path: str) -> None:
    answer = client.post(path, content=chunks(BODY_LIMIT + 8192),
                         headers={"content-type": "application/x-www-form-urlencoded",
                                  "accept-language": "nn"})
    if path.startswith("/group/"):
        # No group's cookie: the page sends the device to join first, unread.
        assert answer.status_code == 303
        return
    assert answer.status_code == 413, answer.text
    message = too_large().spoken("nn")
    assert message != too_large().spoken("en")
    if path.startswith("/api/"):
        assert answer.json()["error"] == {"code": "too_large", "message": message,
                                          "status": 413}
    else:
        assert message in answer.text


def test_a_groups_body_too_large_is_refused_in_the_groups_language(
        server: Server, client: httpx.Client) -> None:
    group, token, _ = join(client, server.code, "Store", ["Ada", "Bo"], "nn")
    origin = {"origin": server.base, "content-type": "application/x-www-form-urlencoded"}
    with server.client(cookie=f"aces_group={group}.{token}") as device:
        # A roll refused is the group's page again, the refusal at its top.
        for path, status in (("/group/lang", 413), ("/group/roll", 200)):
            answer = device.post(path, content=chunks(BODY_LIMIT + 8192),
                                 headers={**origin, "accept-language": "en"})
            assert answer.status_code == status, answer.text
            assert too_large().spoken("nn") in answer.text


def test_an_unknown_language_is_named_so(server: Server, client: httpx.Client) -> None:
    joined = client.post("/api/v1/join", json={"code": server.code, "label": "Tyskarane",
                                               "players": ["Ada", "Bo"], "lang": "de"})
    assert joined.status_code == 422
    assert joined.json()["error"]["code"] == "unknown_language"
    assert joined.json()["error"]["message"] == unknown_language("de").spoken("nb")
    group, token, _ = join(client, server.code, "Svenskane", ["Ada", "Bo"], "nb")
    changed = client.post(f"/api/v1/groups/{group}/lang", json={"lang": "sv"},
                          headers={"authorization": f"Bearer {token}"})
    assert changed.status_code == 422
    assert changed.json()["error"]["code"] == "unknown_language"
    projector = client.post("/api/v1/class/lang", json={"lang": "sv"}, headers=server.teacher)
    assert projector.status_code == 422
    assert projector.json()["error"]["code"] == "unknown_language"


def test_the_guards_refusals_speak_the_callers_language(
        server: Server, client: httpx.Client) -> None:
    """Asked for (``?lang=``), else the group's, else the browser's, else the
    class's, as every other answer is (docs/class/api.rst)."""
    group, token, state = join(client, server.code, "Ulvane", ["Ada", "Bo"], "nn")
    roll = {"id": "forged", "seq": state["seq"], "game": 1, "dice": "4"}
    path = f"/api/v1/groups/{group}/rolls"
    bearer = {"authorization": f"Bearer {token}"}

    def refused(url: str, **headers: str) -> dict[str, t.Any]:
        answer = client.post(url, json=roll, headers={**bearer, **headers})
        assert answer.status_code == 403, answer.text
        error: dict[str, t.Any] = answer.json()["error"]
        assert error["code"] == "cross_site"
        return error

    forged = {"origin": "http://evil.example"}
    in_nn = refused(path, **forged, **{"accept-language": "en"})["message"]
    in_en = refused(f"{path}?lang=en", **forged)["message"]
    in_nb = refused("/api/v1/join", **forged)["message"]  # no group: the class's
    in_browsers = refused("/api/v1/join", **forged, **{"accept-language": "nn"})["message"]
    assert len({in_nn, in_en, in_nb}) == 3
    assert in_browsers == in_nn
    with server.client(host="attacker.example") as renamed:
        answer = renamed.get(f"/api/v1/groups/{group}", headers=bearer)
        assert answer.status_code == 421
        assert answer.json()["error"]["message"] != renamed.get(
            f"/api/v1/groups/{group}?lang=en", headers=bearer).json()["error"]["message"]


def test_an_error_of_the_servers_own_is_one_line_and_a_plain_answer(
        capsys: pytest.CaptureFixture[str]) -> None:
    """No route turned it into an answer: the caller gets a 500, the server's
    output one line with nothing a terminal would act on, never a traceback;
    and an answer already begun is left as it is."""
    import httpx

    async def failing(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["path"] == "/begun":
            await send({"type": "http.response.start", "status": 200, "headers": []})
        raise RuntimeError("gone wrong \x1b[2J here")

    async def refuse(scope: Scope, error: ClassError, status: int
                     ) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        raise AssertionError("nothing to refuse")

    async def ask() -> tuple[httpx.Response, httpx.Response]:
        transport = httpx.ASGITransport(app=Guard(failing, ["testserver"], refuse))
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as asks:
            return await asks.get("/"), await asks.get("/begun")

    plain, begun = loops.run(ask())
    assert plain.status_code == 500
    assert plain.json() == {"error": {"code": "server", "message": "internal error",
                                      "status": 500}}
    assert plain.headers["content-security-policy"]
    assert begun.status_code == 200
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == ["aces class serve: RuntimeError: gone wrong \\x1b[2J here"] * 2
