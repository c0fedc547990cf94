"""The package as a user gets it: its wheel and sdist built from this checkout, and
new virtual environments outside the checkout that install them as a user does.

A new environment is made without pip of its own (``venv --without-pip``)
and filled by this environment's pip (``pip --python``), which finds the
dependencies where the suite's own install found them: pip's cache, so the
suite does not download them again.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import typing as t
import zipfile
from pathlib import Path

ROOT: t.Final = Path(__file__).resolve().parent.parent
#: The name the package is installed by, and its wheel's files are named by.
DISTRIBUTION: t.Final = "aces-dice"
WHEEL_PREFIX: t.Final = DISTRIBUTION.replace("-", "_")


def build_wheel(source: Path, out: Path) -> Path:
    """The wheel of the project at ``source``, built into ``out`` with this
    environment's hatchling (no download)."""
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--no-index", "--quiet", str(source), "-w", str(out)],
        capture_output=True, text=True, check=False, cwd=out)
    assert done.returncode == 0, done.stderr
    [wheel] = out.glob(f"{WHEEL_PREFIX}-*.whl")
    return wheel


def build_sdist(out: Path) -> Path:
    """The sdist of this checkout, built into ``out`` (no download)."""
    done = subprocess.run([sys.executable, "-m", "build", "--sdist", "--no-isolation",
                           "--outdir", str(out), str(ROOT)],
                          capture_output=True, text=True, check=False, cwd=out)
    assert done.returncode == 0, done.stderr + done.stdout
    [sdist] = out.glob(f"{WHEEL_PREFIX}-*.tar.gz")
    return sdist


def unpack(sdist: Path, into: Path) -> Path:
    """The folder the sdist unpacks to."""
    with tarfile.open(sdist) as archive:
        archive.extractall(into, filter="data")
    [folder] = into.iterdir()
    return folder


def wheel_files(wheel: Path) -> list[str]:
    """Every file a wheel holds, by its path in the wheel."""
    with zipfile.ZipFile(wheel) as archive:
        return sorted(archive.namelist())


class Venv(t.NamedTuple):
    """A virtual environment: its folder, and where its commands are."""

    root: Path

    @property
    def bin(self) -> Path:
        return self.root / ("Scripts" if os.name == "nt" else "bin")

    @property
    def python(self) -> Path:
        return self.bin / ("python.exe" if os.name == "nt" else "python")

    def env(self) -> dict[str, str]:
        """The environment a user's shell has with it activated, speaking English."""
        env = {name: value for name, value in os.environ.items()
               if name not in ("PYTHONPATH", "VIRTUAL_ENV", "LANGUAGE", "LC_ALL",
                               "LC_MESSAGES", "LANG")}
        env["PATH"] = f"{self.bin}{os.pathsep}{env.get('PATH', '')}"
        env["VIRTUAL_ENV"] = str(self.root)
        return env

    def run(self, *args: str | Path, cwd: Path, stdin: str | None = None,
            ) -> subprocess.CompletedProcess[str]:
        """A command run in the environment, its output kept."""
        return subprocess.run([str(arg) for arg in args], cwd=cwd, env=self.env(),
                              input=stdin, capture_output=True, text=True, check=False)


def new_venv(root: Path, *requirements: str | Path) -> Venv:
    """A new virtual environment at ``root`` with ``requirements`` installed by pip,
    as a user installs them (a wheel's file, or a distribution's name)."""
    made = subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)],
                          capture_output=True, text=True, check=False)
    assert made.returncode == 0, made.stderr
    venv = Venv(root)
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(venv.python),
                           "install", "--quiet", "--disable-pip-version-check",
                           *map(str, requirements)],
                          capture_output=True, text=True, check=False, cwd=root)
    assert done.returncode == 0, done.stderr + done.stdout
    return venv
