"""``aces --help`` starts at once: it imports only what the help needs.

The help is translated, so the catalog (and Babel, which reads it) is
needed; the log codec, NumPy, matplotlib and Sphinx are not.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = ("msgspec", "numpy", "matplotlib", "sphinx", "docutils", "hypothesis")
PROBE = """
import sys
from aces.cli import main
sys.argv = ["aces", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
print(" ".join(sorted({name.split(".")[0] for name in sys.modules})), file=sys.stderr)
"""


@pytest.mark.parametrize("args", [["--help"], ["--lang", "nb", "--help"], ["play", "--help"]])
def test_help_imports_nothing_heavy(args: list[str]) -> None:
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True,
                          text=True, check=True)
    imported = set(done.stderr.split())
    assert "aces" in imported
    assert imported.isdisjoint(HEAVY), sorted(imported & set(HEAVY))
