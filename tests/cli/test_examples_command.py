"""``aces examples`` and ``--example``: the example logs, reachable without a checkout."""

from __future__ import annotations

import typing as t
from pathlib import Path

import pytest

from aces import examples

from clitest import one_line_error, run

REPLAYS: t.Final = Path(__file__).resolve().parents[2] / "replays"


def test_every_example_is_listed_with_what_it_holds() -> None:
    result = run("examples")
    assert result.exit_code == 0, result.output
    first, *listed, last = result.stdout.splitlines()
    assert first == f"The examples that come with aces, in {examples.folder()}:"
    names = [line.split()[0] for line in listed]
    assert names == list(examples.names())
    assert sorted(names) == sorted([path.stem for path in REPLAYS.glob("*.jsonl")]
                                   + [path.name for path in REPLAYS.glob("*.dice")])
    shown = dict(line.split(None, 1) for line in listed)
    assert shown["session"] == "Aces in the Pot, 5 games: Kari, Ola, Per, and Siri"
    assert shown["three-players"] == "Aces in the Pot, 1 game: Ada, Bo, and Cy"
    assert shown["e1.dice"] == "the rolls of a game typed in, for aces play --dice-file"
    assert last.endswith("aces replay --example three-players")


@pytest.mark.parametrize(("lang", "session", "one"), [
    ("nb", "Ess i potten, fem partier: Kari, Ola, Per og Siri",
     "Ess i potten, ett parti: Ada, Bo og Cy"),
    ("nn", "Ess i potten, fem parti: Kari, Ola, Per og Siri",
     "Ess i potten, eitt parti: Ada, Bo og Cy"),
])
def test_the_list_counts_in_words_in_norwegian(lang: str, session: str, one: str) -> None:
    result = run("examples", "--lang", lang)
    assert result.exit_code == 0, result.output
    shown = dict(line.split(None, 1) for line in result.stdout.splitlines()[1:-1])
    assert shown["session"] == session
    assert shown["three-players"] == one


def test_an_examples_path_is_printed_for_a_script() -> None:
    result = run("examples", "e1.dice", "session", "three-players.jsonl")
    assert result.exit_code == 0, result.output
    paths = [Path(line) for line in result.stdout.splitlines()]
    assert [path.name for path in paths] == ["e1.dice", "session.jsonl", "three-players.jsonl"]
    assert all(path.is_file() for path in paths)
    assert paths[0].read_bytes() == (REPLAYS / "e1.dice").read_bytes()


@pytest.mark.parametrize("name", ["nope", "e1", "session.dice", "../replays/session",
                                  "make-replays.sh"])
def test_a_name_that_is_no_examples_is_one_line(name: str) -> None:
    result = run("examples", name, "--lang", "nb")
    assert result.exit_code == 2
    assert one_line_error(result) == (f"aces: det finnes ikke noe eksempel som heter «{name}»:"
                                      " aces examples viser dem")


@pytest.mark.parametrize("command", [["verify"], ["replay"], ["replay", "--odds"],
                                     ["walkthrough", "--format", "rst"], ["stats"]])
def test_an_example_reads_as_its_file_does(command: list[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    by_name = run(*command, "--example", "session", "--lang", "nn")
    # The example is named by its file's name, not by where the package keeps it.
    monkeypatch.chdir(REPLAYS)
    by_file = run(*command, "session.jsonl", "--lang", "nn")
    assert by_name.exit_code == by_file.exit_code == 0, by_name.output
    assert by_name.stdout == by_file.stdout


def test_stats_pools_several_examples() -> None:
    result = run("stats", "--example", "class-group-1", "class-group-2", "--json")
    assert result.exit_code == 0, result.output
    assert '"games": 40' in result.stdout


def test_a_replay_page_of_an_example(tmp_path: Path) -> None:
    page = tmp_path / "game.html"
    result = run("replay", "--example", "four-players", "--html", str(page), "--lang", "nb")
    assert result.exit_code == 0, result.output
    assert '<html lang="nb"' in page.read_text(encoding="utf-8")


def test_an_unknown_example_is_refused_before_anything_is_read() -> None:
    result = run("verify", "--example", "evening", "--lang", "nn")
    assert result.exit_code == 2
    assert one_line_error(result) == ("aces: det finst ikkje noko døme som heiter «evening»:"
                                      " aces examples viser dei")
