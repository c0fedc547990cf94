"""Shared test settings: Hypothesis profiles, and the worked example E1 as a log.

The property tests play hundreds of whole games, so the number of examples
is kept modest by default and can be raised for a thorough run:
``HYPOTHESIS_PROFILE=thorough .venv/bin/pytest``. The ``ci`` profile is
derandomized, so a CI run is repeatable and never flaky, and keeps no
example database; it is chosen by itself where ``CI`` is set, as CI sets it.
"""

from __future__ import annotations

import os
import signal
import typing as t

import pytest
from hypothesis import HealthCheck, settings

if t.TYPE_CHECKING:
    from pathlib import Path

# Whole games are slow examples by Hypothesis' standards; a deadline would
# only measure how busy the shared machine is. Every profile is this patient.
_PATIENT: t.Final = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("default", _PATIENT, max_examples=100)
settings.register_profile("ci", _PATIENT, max_examples=200, derandomize=True, database=None,
                          print_blob=True)
settings.register_profile("thorough", _PATIENT, max_examples=2_000)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "default"))



def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C as a terminal sends it, for the commands the tests stop with it.

    A run started in the background by a shell without job control (``cmd &``
    in a CI runner's script) inherits Ctrl-C ignored, and so would every
    command the tests start and then stop with Ctrl-C: each would run on, as
    no user's command does. Python's own handler is put back first.
    """
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)

@pytest.fixture
def e1_log(tmp_path: Path) -> Path:
    """Worked example E1 of the rulings, played from its dice by ``aces play``."""
    from clitest import E1_DICE, run

    dice = tmp_path / "e1.dice"
    dice.write_text(E1_DICE, encoding="utf-8")
    log = tmp_path / "e1.jsonl"
    result = run("play", "--players", "Ada,Bo,Cy", "--dice-file", str(dice), "-o", str(log))
    assert result.exit_code == 0, result.output
    return log


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel of this checkout, built once for the session (tests/installs.py)."""
    from installs import ROOT, build_wheel

    return build_wheel(ROOT, tmp_path_factory.mktemp("wheel"))


@pytest.fixture(scope="session")
def browser() -> t.Iterator[t.Any]:
    """Debian's Chromium under Playwright (see tests/browser.py); skips, or
    fails where ``ACES_BROWSER_REQUIRED`` is set, when there is none."""
    from browser import launch

    yield from launch()


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> dict[str, t.Any]:
    """The documentation built once for the whole run, every language and the
    doctests, by name, and the fresh message templates (tests/docs: the build's
    checks, and the browser's).

    Under pytest-xdist the first worker to ask builds it and the others wait for
    that build and read it (the recipe of pytest-xdist's docs, a lock in the
    folder the workers share), so the docs' tests are dealt out to every worker
    like any others, not queued on one, and the site is still built once.
    """
    import pickle
    import shutil

    from filelock import FileLock

    from docsite import load_tool

    tool = load_tool()
    base = tmp_path_factory.getbasetemp()
    shared = base if worker_id == "master" else base.parent
    built = shared / "docs.pickle"
    with FileLock(shared / "docs.lock"):
        if not built.exists():
            out = shared / "docs"
            shutil.rmtree(out, ignore_errors=True)  # what a worker that failed left
            out.mkdir()
            # Each build as its fields: the tool's own class is not importable by name.
            builds = {result.name: tuple(result) for result in tool.build(out)}
            built.write_bytes(pickle.dumps((builds, tool.extract(out / "gettext"))))
        fields, templates = pickle.loads(built.read_bytes())
    found: dict[str, t.Any] = {name: tool.Build(*build) for name, build in fields.items()}
    found["templates"] = templates
    return found


@pytest.fixture(scope="session")
def postgresql() -> t.Iterator[t.Any]:
    """Debian's PostgreSQL, initdb'd in a temporary folder and served on a Unix
    socket there (see tests/pgtest.py); skips, or fails where
    ``ACES_POSTGRESQL_REQUIRED`` is set, when there is none."""
    from pgtest import start

    yield from start()


#: The session's costly fixtures, and the group of tests that share each: under
#: pytest-xdist (``-n``, in the settings) a group runs on one worker, so that
#: what it shares is made once, not once on every worker (the release's
#: environments, one PostgreSQL cluster). The site is built once in another way
#: (``site`` above), since its tests are more than a worker's share of the run.
#: (A fixture's own fixtures are among a test's names: the release's
#: ``installed`` and ``writer`` are its ``environments``.)
_SHARED: t.Final = {"environments": "release", "sdist": "release",
                    "postgresql": "postgresql"}


# First, so that xdist's own hook, which deals out the groups, sees them.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        used = getattr(item, "fixturenames", ())
        group = next((_SHARED[name] for name in used if name in _SHARED), None)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
