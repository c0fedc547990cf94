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


def test_a_command_leaves_the_collector_as_it_found_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # The command collects seldom while it runs; a caller that goes on in
    # the same process (this test) gets Python's collector back.
    import gc
    from pathlib import Path

    from aces.cli import main

    log = Path(__file__).resolve().parents[2] / "replays" / "three-players.jsonl"
    thresholds = gc.get_threshold()
    monkeypatch.setattr(sys, "argv", ["aces", "verify", str(log)])
    with pytest.raises(SystemExit) as stop:
        main()
    assert stop.value.code == 0
    assert "follows the rules" in capsys.readouterr().out
    assert gc.get_threshold() == thresholds
    assert gc.get_freeze_count() == 0
