"""``--game``: the same choice of the registered games on every command that begins games."""

from __future__ import annotations

import typing as t

import pytest

from clitest import one_line_error, run

if t.TYPE_CHECKING:
    from pathlib import Path

BEGIN_GAMES = ("play", "record", "simulate")
#: click's error for a game nobody registered, as each language words it.
UNKNOWN_GAME = {
    "en": "aces: Invalid value for '--game': 'yatzy' is not one of 'five-dice', 'pot'.",
    "nb": "aces: ugyldig verdi for «--game»: «yatzy» er ikke en av «five-dice», «pot»;",
    "nn": "aces: ugyldig verdi for «--game»: «yatzy» er ikkje ein av «five-dice», «pot»;",
}


@pytest.mark.parametrize("command", BEGIN_GAMES)
@pytest.mark.parametrize("lang", sorted(UNKNOWN_GAME))
def test_every_command_names_the_games_in_its_help(command: str, lang: str) -> None:
    # Not a placeholder ("TEXT", "TEKST"): the games themselves.
    helped = run("--lang", lang, command, "--help")
    assert helped.exit_code == 0, helped.output
    assert "--game [five-dice|pot]" in helped.output


@pytest.mark.parametrize("command", BEGIN_GAMES)
@pytest.mark.parametrize("lang", sorted(UNKNOWN_GAME))
def test_an_unknown_game_is_refused_on_one_line_in_the_users_language(
    command: str, lang: str, tmp_path: Path,
) -> None:
    args = {"play": ["--players", "2"], "record": [str(tmp_path / "new.jsonl")],
            "simulate": ["--players", "2"]}[command]
    refused = run("--lang", lang, command, *args, "--game", "yatzy", input="")
    assert one_line_error(refused).startswith(UNKNOWN_GAME[lang])
    assert refused.exit_code == 2
    assert not (tmp_path / "new.jsonl").exists()
