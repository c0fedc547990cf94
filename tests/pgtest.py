"""A real PostgreSQL for the tests: Debian's server, ``initdb`` in a temporary folder.

The server listens on a Unix socket in that folder alone (no TCP port),
with a password for its one user, and is started once for a test session
(the ``postgresql`` fixture of tests/conftest.py) and stopped at its end.
PostgreSQL refuses to run as root, and CI runs as root: there the server
runs as ``nobody`` (``setpriv``), in a folder given to it. Each test takes
a database of its own (:meth:`Cluster.database`), or a class of its own in
a shared one.

Without PostgreSQL's programs the tests that need it skip and say why;
where ``ACES_POSTGRESQL_REQUIRED`` is set (as .ci/run sets it), they fail.

The server is a stand-in for a school's: it does not sync its files to
disk (``fsync=off``), since the tests kill aces's processes and never the
database's, and every commit is still one the database acknowledged.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import typing as t
import urllib.parse
from pathlib import Path

import pytest

from classtest import Launched

if t.TYPE_CHECKING:
    from collections.abc import Generator

    import httpx

__all__ = ["REQUIRED", "Cluster", "SchoolServer", "binaries", "new_class", "start",
           "teacher_key"]

REQUIRED: t.Final = "ACES_POSTGRESQL_REQUIRED"
#: The user the server runs as when the tests run as root.
_UNPRIVILEGED: t.Final = "nobody"


def binaries() -> Path | None:
    """The folder of PostgreSQL's server programs, the newest installed."""
    found = shutil.which("initdb")
    if found is not None and shutil.which("pg_ctl") is not None:
        return Path(found).resolve().parent

    def version(folder: Path) -> int:
        name = folder.parent.name
        return int(name) if name.isdigit() else 0

    for folder in sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=version, reverse=True):
        if (folder / "initdb").exists():
            return folder
    return None


def unavailable(reason: str) -> t.NoReturn:
    if os.environ.get(REQUIRED):
        pytest.fail(f"PostgreSQL is required here ({REQUIRED}) but {reason}")
    pytest.skip(f"PostgreSQL is not here: {reason}")


class Cluster:
    """A running server: its folder, its user's password, and its databases."""

    def __init__(self, programs: Path, folder: Path, runner: list[str]) -> None:
        self.programs = programs
        self.folder = folder
        self.runner = runner
        self.user = "aces"
        self.password = secrets.token_urlsafe(12)
        self._count = 0

    def url(self, database: str = "postgres", *, user: str | None = None,
            password: str | None = None) -> str:
        """The address of ``database``, as ``--store`` takes it."""
        return (f"postgresql://{user or self.user}:"
                f"{urllib.parse.quote(password or self.password, safe='')}@/{database}"
                f"?host={urllib.parse.quote(str(self.folder), safe='')}")

    def database(self, prefix: str = "aces") -> str:
        """A new, empty database; its address."""
        self._count += 1
        name = f"{prefix}_{os.getpid()}_{self._count}"
        self.sql(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def sql(self, statement: str, database: str = "postgres") -> str:
        """Run one statement as the server's superuser; what it prints."""
        done = subprocess.run(
            [str(self.programs / "psql"), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
             "-h", str(self.folder), "-U", self.user, "-d", database, "-c", statement],
            capture_output=True, text=True, check=False,
            env={**os.environ, "PGPASSWORD": self.password})
        if done.returncode != 0:
            raise AssertionError(f"{statement}: {done.stderr}")
        return done.stdout.strip()

    def _run(self, program: str, *arguments: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*self.runner, str(self.programs / program), *arguments],
                              capture_output=True, text=True, check=False)

    def start(self) -> None:
        pwfile = self.folder / "password"
        pwfile.write_text(self.password + "\n", encoding="utf-8")
        self._own(pwfile)
        done = self._run("initdb", "-D", str(self.folder / "data"), "-U", self.user,
                         f"--pwfile={pwfile}", "--auth=scram-sha-256", "-E", "UTF8",
                         "--locale=C.UTF-8", "--no-sync", "--no-instructions")
        pwfile.unlink()
        if done.returncode != 0:
            raise AssertionError("initdb failed:\n" + done.stdout + done.stderr)
        self.resume()

    def log(self) -> str:
        with contextlib.suppress(OSError):
            return (self.folder / "server.log").read_text("utf-8", errors="replace")[-4000:]
        return ""

    def halt(self) -> None:
        """Stop the server at once, as a crash would; :meth:`resume` starts it again."""
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop")

    def resume(self) -> None:
        options = (f"-k {self.folder} -c listen_addresses='' -c fsync=off"
                   " -c full_page_writes=off -c max_connections=200 -c shared_buffers=32MB")
        done = self._run("pg_ctl", "-D", str(self.folder / "data"), "-o", options, "-l",
                         str(self.folder / "server.log"), "-w", "-t", "60", "start")
        if done.returncode != 0:
            raise AssertionError("the server did not start:\n" + done.stdout + done.stderr
                                 + self.log())

    def _own(self, path: Path) -> None:
        if os.geteuid() == 0:
            user = pwd.getpwnam(_UNPRIVILEGED)
            os.chown(path, user.pw_uid, user.pw_gid)


def start() -> Generator[Cluster, None, None]:
    """A server for a whole test session (see the module)."""
    found = binaries()
    if found is None:
        unavailable("no initdb on this machine (apt-get install postgresql)")
    runner: list[str] = []
    if os.geteuid() == 0:
        # PostgreSQL will not run as root: as nobody, in a folder of its own.
        try:
            user = pwd.getpwnam(_UNPRIVILEGED)
        except KeyError:
            unavailable(f"the tests run as root and there is no user {_UNPRIVILEGED!r}"
                        " to run the server as")
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            unavailable("the tests run as root and there is no setpriv to run the server"
                        f" as {_UNPRIVILEGED}")
        runner = [setpriv, f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}",
                  "--clear-groups", "--"]
    # In /tmp (or TMPDIR), never under a folder only root may enter.
    folder = Path(tempfile.mkdtemp(prefix="aces-pg-"))
    cluster = Cluster(found, folder, runner)
    try:
        cluster._own(folder)
        cluster.start()
        yield cluster
    finally:
        cluster.halt()
        shutil.rmtree(folder, ignore_errors=True)


_SERVING: t.Final = re.compile(r"(http://127\.0\.0\.1:(\d+))\b")


class SchoolServer(Launched):
    """``aces class serve --store URL --host 127.0.0.1 --port 0``, as a process."""

    stopping = 30.0

    def __init__(self, url: str, *args: str) -> None:
        super().__init__(["class", "serve", "--store", url, "--host", "127.0.0.1", "--port",
                          "0", *args], _SERVING, "the school's server", wait=60.0)


def teacher_key(url: str, label: str) -> str:
    """A new teacher's key, as ``aces class teacher add`` gives it."""
    done = subprocess.run([sys.executable, "-m", "aces", "class", "teacher", "add", label,
                           "--store", url], capture_output=True, text=True, check=False,
                          env={**os.environ, "LANG": "C.UTF-8"})
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().rsplit("/teach/", 1)[1]


def new_class(client: httpx.Client, key: str, **body: t.Any) -> dict[str, t.Any]:
    """A new class of the teacher holding ``key``, as the API answers it."""
    made = client.post("/api/v1/classes", json={"game": "pot", "lang": "en", **body},
                       headers={"authorization": f"Bearer {key}"})
    assert made.status_code == 201, made.text
    data: dict[str, t.Any] = made.json()
    return data
