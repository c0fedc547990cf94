"""The sdist is whole: it holds what its tests need, a wheel built from it is the
wheel built from the checkout, and its own tests run from it unpacked."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import typing as t

import pytest

from installs import build_wheel, unpack, wheel_files

if t.TYPE_CHECKING:
    from pathlib import Path


@pytest.fixture(scope="module")
def unpacked(sdist: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return unpack(sdist, tmp_path_factory.mktemp("unpacked"))


def test_the_sdist_holds_the_tools_its_tests_load(sdist: Path) -> None:
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    for needed in ("scripts/catalogs.py", "scripts/docs.py", "scripts/outputs.py",
                   "hatch_build.py", "LICENSE", "babel.cfg", "pyproject.toml",
                   "docs/conf.py", "docs/sphinxext/lessons.py", "locales/aces.pot",
                   "replays/three-players.jsonl", "tests/conftest.py", ".ci/run"):
        assert needed in names, needed
    assert not [name for name in names if name.startswith((".venv/", ".git/"))]
    assert not [name for name in names if name.endswith((".mo", ".pyc"))]


def test_a_wheel_built_from_the_sdist_is_the_checkouts(unpacked: Path, wheel: Path,
                                                       tmp_path: Path) -> None:
    again = build_wheel(unpacked, tmp_path)
    assert wheel_files(again) == wheel_files(wheel)


def test_the_tests_run_from_the_unpacked_sdist(unpacked: Path) -> None:
    # python -m puts the current folder first: the sdist's aces, not the checkout's.
    env = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    where = subprocess.run([sys.executable, "-c", "import aces; print(aces.__file__)"],
                           cwd=unpacked, env=env, capture_output=True, text=True, check=False)
    assert where.stdout.strip() == str(unpacked / "aces" / "__init__.py")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
         "tests/test_catalogs.py", "tests/test_log.py", "tests/cli/test_verify.py",
         "tests/docs/sphinxext/test_quantities.py", "aces/examples.py",
         "tests/release/test_readme.py::test_the_second_command_is_what_ci_runs"],
        cwd=unpacked, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert " passed" in done.stdout.splitlines()[-1]
    assert "failed" not in done.stdout.splitlines()[-1]
