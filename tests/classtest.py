"""A class server for the tests: ``aces class serve`` as a real process on a
free loopback port, stopped by Ctrl-C (SIGINT) or killed (SIGKILL), and a
client that plays a group's game over the JSON API with random dice. Its
launcher (:class:`Launched`) starts the school's server too (tests/pgtest.py).
The pages of a class in a real Chromium are opened, joined and played by the
helpers at the end (tests/server/test_class_in_browser.py, test_class_pages.py)."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
import typing as t
from dataclasses import dataclass, field

import httpx

if t.TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from playwright.sync_api import Browser, BrowserContext, Page

_TEACHER: t.Final = re.compile(r"(http://127\.0\.0\.1:(\d+))/teacher/(\S+)")


class Launched:
    """``aces`` with ``args`` as a process of its own, ready once a line of its
    output matches ``ready``: its output kept line by line (:attr:`out`,
    :attr:`err`) by two threads that drain it, so that a full pipe never
    stops the server, and the address it serves on (:attr:`base`, :attr:`port`:
    the pattern's first two groups). The one launcher of the class's servers,
    the laptop's (:class:`Server`) and the school's (tests/pgtest.py)."""

    #: Seconds a server may take to stop after Ctrl-C.
    stopping: t.ClassVar[float] = 20.0

    def __init__(self, args: list[str], ready: re.Pattern[str], what: str, *,
                 env: dict[str, str] | None = None, wait: float = 30.0) -> None:
        # The language and the store are the arguments', never the caller's.
        environ = {name: value for name, value in os.environ.items()
                   if name not in ("LANGUAGE", "ACES_STORE")}
        environ.update({"LANG": "C.UTF-8", "PYTHONUNBUFFERED": "1", **(env or {})})
        self.process = subprocess.Popen([sys.executable, "-m", "aces", *args],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        env=environ)
        self.out: list[str] = []
        self.err: list[str] = []
        started = threading.Event()
        found: list[re.Match[str]] = []

        def drain(stream: t.IO[bytes], into: list[str], watch: bool) -> None:
            for raw in stream:
                line = raw.decode("utf-8", "replace").rstrip("\n")
                into.append(line)
                if watch and not found and (match := ready.search(line)):
                    found.append(match)
                    started.set()
            started.set()

        assert self.process.stdout is not None
        assert self.process.stderr is not None
        self._threads = [threading.Thread(target=drain, args=(self.process.stdout, self.out, True),
                                          daemon=True),
                         threading.Thread(target=drain, args=(self.process.stderr, self.err, False),
                                          daemon=True)]
        for thread in self._threads:
            thread.start()
        started.wait(wait)
        if not found:
            self.kill()
            raise AssertionError(f"{what} did not start:\n" + "\n".join(self.out + self.err))
        #: The line that said the server is ready, matched.
        self.ready = found[0]
        self.base = found[0].group(1)
        self.port = int(found[0].group(2))

    def client(self, **headers: str) -> httpx.Client:
        return httpx.Client(base_url=self.base, timeout=10, headers=headers)

    def stop(self) -> int:
        """Ctrl-C, as a teacher or an operator stops it; the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            status = self.process.wait(self.stopping)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise
        self._closed()
        return status

    def kill(self) -> None:
        """kill -9."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(10)
        self._closed()

    def _closed(self) -> None:
        for thread in self._threads:
            thread.join(5)
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()

    def __enter__(self) -> t.Self:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process.poll() is None:
            self.stop()


class Server(Launched):
    """``aces class serve FOLDER --host 127.0.0.1 --port 0``, as a process."""

    def __init__(self, folder: Path, *args: str, env: dict[str, str] | None = None) -> None:
        self.folder = folder
        super().__init__(["class", "serve", str(folder), "--host", "127.0.0.1", "--port", "0",
                          *args], _TEACHER, "the server", env=env)
        self.secret = self.ready.group(3)
        record = json.loads((folder / "class.json").read_text())
        self.code: str = record["code"]

    @property
    def teacher(self) -> dict[str, str]:
        return {"authorization": f"Bearer {self.secret}"}


def quiet_server(folder: Path, *args: str) -> Iterator[Server]:
    """A test module's server (``yield from`` it in a fixture): stopped at the
    end by Ctrl-C, which ends it as it ends every command of aces (status 130),
    having printed nothing on its standard error, no traceback above all."""
    with Server(folder, *args) as running:
        yield running
        assert running.stop() == 130
        assert [line for line in running.err if line] == [], running.err


def join(client: httpx.Client, code: str, label: str, players: list[str],
         lang: str = "en") -> tuple[int, str, dict[str, t.Any]]:
    answer = client.post("/api/v1/join", json={"code": code, "label": label,
                                                "players": players, "lang": lang})
    assert answer.status_code == 201, answer.text
    data = answer.json()
    return data["group"], data["token"], data["state"]


def due(state: dict[str, t.Any]) -> tuple[int, int]:
    """The game a roll goes to now and how many dice it has."""
    if state["request"] is not None:
        return state["game"], state["request"]["dice"]
    following = state["next_game"]
    return following["game"], following["request"]["dice"]


class Player:
    """One group, playing random dice over the API: every answer it got is
    remembered, so that a test can check each is in the log."""

    def __init__(self, client: httpx.Client, group: int, token: str,
                 state: dict[str, t.Any], seed: int) -> None:
        self.client = client
        self.group = group
        self.auth = {"authorization": f"Bearer {token}"}
        self.state = state
        self.random = random.Random(seed)
        self.acknowledged: list[dict[str, t.Any]] = []
        self.number = 0

    def submission(self) -> dict[str, t.Any]:
        game, dice = due(self.state)
        self.number += 1
        return {"id": f"g{self.group}-{self.number}-{self.random.getrandbits(32)}",
                "seq": self.state["seq"], "game": game,
                "dice": [self.random.randint(1, 6) for _ in range(dice)]}

    def send(self, body: dict[str, t.Any]) -> httpx.Response:
        return self.client.post(f"/api/v1/groups/{self.group}/rolls", json=body,
                                headers=self.auth)

    def roll(self) -> dict[str, t.Any]:
        body = self.submission()
        answer = self.send(body)
        assert answer.status_code == 200, answer.text
        data: dict[str, t.Any] = answer.json()
        self.acknowledged.append(data)
        self.state = data["group"]
        return data


def wait_until(condition: t.Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.02)


# -- The pages in a browser ------------------------------------------------------------


#: How long a page may take to answer a click, in milliseconds.
WAIT: t.Final = 10_000


@dataclass
class Pupil:
    """One group's browser: its page, and what it did that it must not."""

    page: Page
    context: BrowserContext
    outside: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)


def opened(browser: Browser, server: Server, path: str, *, width: int = 1280,
           script: bool = True, touch: bool = False) -> Pupil:
    """A fresh context on ``path`` of the server that lets no request leave it
    (``touch``: a tablet's, which taps)."""
    context = browser.new_context(viewport={"width": width, "height": 900},
                                  java_script_enabled=script, base_url=server.base,
                                  has_touch=touch, is_mobile=touch)
    page = context.new_page()
    pupil = Pupil(page, context)
    own = server.base

    def route(route: t.Any) -> None:
        if route.request.url.startswith(own):
            route.continue_()
        else:
            pupil.outside.append(route.request.url)
            route.abort()

    context.route("**/*", route)
    page.on("console", lambda message: pupil.errors.append(message.text)
            if message.type in ("error", "warning") else None)
    page.on("pageerror", lambda error: pupil.errors.append(str(error)))

    def dialog(shown: t.Any) -> None:
        pupil.dialogs.append(shown.message)
        shown.dismiss()

    page.on("dialog", dialog)
    page.goto(path)
    return pupil


def join_on_page(pupil: Pupil, server: Server, label: str, players: list[str],
                 lang: str = "nb") -> None:
    """The group joins on the join page, in ``lang``, its players in seat order."""
    page = pupil.page
    # The page's language first (the browser's is English): the group's.
    page.select_option("header select[name=lang]", lang)
    page.locator("header form.lang button").click()
    page.wait_for_url(lambda url: url.endswith(f"?lang={lang}"), timeout=WAIT)
    page.fill("#code", server.code.lower())
    page.fill("#label", label)
    for seat, name in enumerate(players):
        page.fill(f"#player-{seat}", name)
    page.locator("form.join button[type=submit]").click()
    page.wait_for_url("**/group**", timeout=WAIT)


def state(page: Page) -> dict[str, str]:
    main = page.locator("#main")
    return {name: main.get_attribute(f"data-{name}") or ""
            for name in ("seq", "game", "over", "dice")}


def moved(page: Page, before: str) -> None:
    """Wait until the page shows the log past ``before`` (a CSS selector: the
    page's policy forbids the scripts Playwright's own waits would run)."""
    page.locator(f'#main[data-seq]:not([data-seq="{before}"])').wait_for(timeout=WAIT)


def poll(condition: t.Callable[[], bool]) -> None:
    """:func:`wait_until` ``condition``, as long as a page may take (:data:`WAIT`)."""
    wait_until(condition, WAIT / 1000)


def choose_and_send(page: Page, dice: list[int]) -> None:
    """Record ``dice`` on a group's page: a one-die roll's face button, or each
    die's face and then the button that sends them."""
    if len(dice) == 1 and page.locator("#main button.face").count():
        page.locator(f"#main button.face[value='{dice[0]}']").click()
    else:
        for die, face in enumerate(dice):
            page.locator(f"#main input[name='die-{die}'][value='{face}']").check(force=True)
        page.locator("#main form.roll button.primary").click()


def roll_by_buttons(page: Page, dice: list[int]) -> None:
    before = state(page)["seq"]
    choose_and_send(page, dice)
    moved(page, before)


def roll_without_script(page: Page, dice: list[int]) -> None:
    choose_and_send(page, dice)
    page.wait_for_load_state()


def play_a_game(page: Page, roll: t.Callable[[Page, list[int]], None], seed: int,
                undo_at: int | None = None) -> int:
    """Roll random dice until the game is over; the rolls it took."""
    dice = random.Random(seed)
    rolls = 0
    while state(page)["over"] != "1":
        count = int(state(page)["dice"])
        roll(page, [dice.randint(1, 6) for _ in range(count)])
        rolls += 1
        if rolls == undo_at:
            undo(page)
        assert rolls < 400, "a game of Aces in the Pot ends long before"
    return rolls


def undo(page: Page) -> None:
    before = state(page)["seq"]
    page.locator("#main form.undo button").click()
    moved(page, before)



def aces_stats(folder: Path) -> dict[str, t.Any]:
    logs = sorted(path.name for path in folder.glob("*.jsonl"))
    done = subprocess.run([sys.executable, "-m", "aces", "stats", "--json", *logs], cwd=folder,
                          capture_output=True, text=True, check=True)
    found: dict[str, t.Any] = json.loads(done.stdout)
    return found



def due_roll(pupil: Pupil, server: Server) -> dict[str, t.Any]:
    """The roll the group's page asks for, read through the API with the
    group's own token (the cookie the page holds)."""
    cookie = next(found["value"] for found in pupil.context.cookies()
                  if found["name"] == "aces_group")
    group, _, token = cookie.partition(".")
    with server.client(authorization=f"Bearer {token}") as client:
        view: dict[str, t.Any] = client.get(f"/api/v1/groups/{group}").json()
    request = view["request"] if view["request"] is not None else view["next_game"]["request"]
    return {**request, "players": view["players"]}
