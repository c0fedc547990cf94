"""The evolve handlers are typed by the event they take, so the type checker
sees every field they read and every handler filed under the wrong event."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import typing as t

if t.TYPE_CHECKING:
    from pathlib import Path

#: Three mistakes ``mypy --strict`` must name: a handler filed under another
#: kind of event, a field the event does not have, and a result that may be
#: missing (``GameOver.winner`` is ``None`` in the five-dice game).
MISTAKES: t.Final = textwrap.dedent("""
    import msgspec

    from aces.events import ChipsPassed, ChipsToPot, GameOver
    from aces.rules import on
    from aces.rules.pot import PotState

    def _passed(state: PotState, event: ChipsPassed) -> PotState:
        return state

    def _to_pot(state: PotState, event: ChipsToPot) -> PotState:
        return msgspec.structs.replace(state, pot=state.pot + event.chips)

    def _over(state: PotState, event: GameOver) -> PotState:
        return msgspec.structs.replace(state, winner=state.seats[event.winner])

    TABLE = dict([on(ChipsToPot, _passed), on(ChipsToPot, _to_pot), on(GameOver, _over)])
""")


def test_mypy_names_a_misfiled_handler_a_wrong_field_and_a_missing_winner(
    tmp_path: Path,
) -> None:
    module = tmp_path / "handlers.py"
    module.write_text(MISTAKES)
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path),
         str(module)], capture_output=True, text=True, check=False)
    assert result.returncode == 1, result.stdout
    assert 'Argument 2 to "on" has incompatible type "Callable[[PotState, ChipsPassed]' in \
        result.stdout
    assert '"ChipsToPot" has no attribute "chips"' in result.stdout
    assert 'Invalid index type "str | None"' in result.stdout
