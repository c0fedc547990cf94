"""The public API: what a pupil's program and a notebook rely on."""

from __future__ import annotations

import html
import subprocess
import sys
import typing as t
from html.parser import HTMLParser
from pathlib import Path

import pytest

import aces
from aces.errors import AcesError, LogError, OptionError

from clitest import E1_DICE, one_line_error, run

E1: t.Final = "/".join(E1_DICE.splitlines())


class Markup(HTMLParser):
    """Every tag of a piece of HTML, and its text, checked to be well nested."""

    VOID: t.ClassVar = frozenset({"br", "hr", "img", "meta", "input", "line", "rect"})

    def __init__(self, text: str) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.open: list[str] = []
        self.text: list[str] = []
        self.feed(text)
        self.close()
        assert not self.open, f"unclosed: {self.open}"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        assert not any(name.startswith("on") for name, _ in attrs), attrs
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID and (not self.open or self.open[-1] != tag):
            return
        assert self.open, tag
        assert self.open[-1] == tag, (tag, self.open)
        self.open.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def shown(thing: object) -> Markup:
    html = thing._repr_html_()  # type: ignore[attr-defined]
    assert "<script" not in html.lower()
    assert "javascript:" not in html.lower()
    markup = Markup(html)
    assert "script" not in markup.tags
    return markup


def test_importing_aces_loads_nothing_but_the_package() -> None:
    # The old paths of the moved packages are names in sys.modules, not modules
    # loaded (aces._moved): they load nothing until asked for a name.
    probe = ("import sys, aces; from aces._moved import Moved;"
             " print(' '.join(sorted(m for m, module in sys.modules.items()"
             " if m.startswith(('aces', 'numpy', 'msgspec', 'babel', 'click'))"
             " and not isinstance(module, Moved))))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == ["aces", "aces._moved"]


def test_a_game_played_from_dice_is_the_worked_example(tmp_path: Path) -> None:
    game = aces.play(["Ada", "Bo", "Cy"], dice=E1)
    assert repr(game) == ("<Game pot, Ada, Bo and Cy: Cy starts, Bo wins the pot of 5"
                          " after 11 rolls>")
    assert (game.winner, game.loser, game.pot, game.length) == ("Bo", None, 5, 11)
    assert len(game.rolls) == 14
    assert game.states[-1].winner == 1
    game.save(tmp_path / "e1.jsonl")
    assert [g.winner for g in aces.load(tmp_path / "e1.jsonl")] == ["Bo"]
    with pytest.raises(OptionError, match="already exists"):
        game.save(tmp_path / "e1.jsonl")
    assert game.narrate("nb")[-1] == "Bo vinner potten på fem sjetonger."


def test_a_session_is_the_same_as_the_command_plays(tmp_path: Path) -> None:
    from clitest import run

    session = aces.play(["Kari", "Ola", "Per", "Siri"], seed=7, games=5)
    assert isinstance(session, aces.api.Session)
    path = tmp_path / "session.jsonl"
    session.save(path)
    out = run("play", "--players", "Kari,Ola,Per,Siri", "--games", "5", "--seed", "7")
    assert path.read_bytes() == out.stdout_bytes
    assert sum(session.results().values()) == 5


# -- One play loop: the API plays as aces play does ---------------------------------------

#: The five-dice game with the threes, as replays/five-dice-threes.jsonl was played.
THREES: t.Final = ("--game", "five-dice", "--players", "Ada,Bo,Cy", "--dice-each", "2",
                   "--threes")


def receivers_cut_short(dice: str) -> str:
    """``dice`` with each receiver after ``>`` typed as a table types it: the start
    of the name, in lower case (``> ad bo`` for ``> Ada Bo``)."""
    lines = []
    for line in dice.splitlines():
        roll, hash_, comment = line.partition("#")
        dice_part, chevron, names = roll.partition(">")
        if chevron:
            roll = f"{dice_part}> {' '.join(name[:2].lower() for name in names.split())} "
        lines.append(roll + hash_ + comment)
    return "\n".join(lines) + "\n"


def test_receivers_typed_by_a_beginning_in_any_case_play_alike_on_both_faces(
        tmp_path: Path) -> None:
    dice = receivers_cut_short(Path("replays/threes.dice").read_text(encoding="utf-8"))
    assert "> ad bo" in dice
    played = run("play", *THREES, "--dice-file", "-", input=dice)
    assert played.exit_code == 0, played.output
    game = aces.play(["Ada", "Bo", "Cy"], game="five-dice", dice_each=2, threes=True, dice=dice)
    assert game.loser == "Bo"
    # The same log, byte for byte, as the one the dice named in full make.
    expected = Path("replays/five-dice-threes.jsonl").read_bytes()
    assert played.stdout_bytes == expected
    game.save(tmp_path / "game.jsonl")
    assert (tmp_path / "game.jsonl").read_bytes() == expected


def test_whom_the_3s_go_to_is_refused_with_typed_dice_on_both_faces() -> None:
    dice = Path("replays/threes.dice").read_text(encoding="utf-8")
    reason = ("--threes-to is for generated dice; a dice file names whom each 3 goes to"
              " after '>'")
    refused = run("play", *THREES, "--threes-to", "most", "--dice-file", "-", input=dice)
    assert one_line_error(refused) == f"aces: {reason}"
    with pytest.raises(OptionError) as error:
        aces.play(["Ada", "Bo", "Cy"], game="five-dice", dice_each=2, threes=True,
                  threes_to="most", dice=dice)
    assert str(error.value) == reason


def test_a_log_walks_its_games_lazily_and_reports_damage(tmp_path: Path) -> None:
    log = aces.load("replays/session.jsonl")
    assert repr(log) == "<Log session.jsonl: 5 games>"
    assert len(log) == 5
    assert log[4].winner == [g.winner for g in log][4]
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(b"{}\n")
    with pytest.raises(AcesError, match=r"broken\.jsonl, line 1"):
        list(aces.load(broken))


def test_odds_of_a_table_and_of_a_moment() -> None:
    table = aces.odds(3, chips=1)
    assert sum(table.win_by_seat) == pytest.approx(1)
    game = aces.play(["Ada", "Bo", "Cy"], dice=E1)
    first = aces.odds(game.moments[0])
    # The first moment of the game is the table's start, seen from Cy who rolls first.
    start = aces.odds(3)
    assert first.by_player is not None
    assert list(first.by_player.values()) == pytest.approx(start.win_by_seat)
    assert first.expected_rolls == pytest.approx(start.expected_rolls)
    assert list(first.by_player) == ["Cy", "Ada", "Bo"]
    with pytest.raises(OptionError):
        aces.odds(20)


def test_a_simulation_agrees_with_the_odds() -> None:
    sim = aces.simulate(3, games=50_000, seed=2)
    exact = aces.odds(3)
    for share, (low, high), chance in zip(sim.win_by_seat, sim.summary.win_intervals,
                                          exact.win_by_seat, strict=True):
        assert low - 0.01 <= chance <= high + 0.01, share


def test_a_full_game_of_aces_has_its_exact_odds_and_simulation_beside_them() -> None:
    from aces.exact import fivedice_lengths

    solved = fivedice_lengths.solved(4, 5)
    assert solved is not None
    assert solved.losses is not None
    odds = aces.odds(4, game="five-dice")
    assert odds.win_by_seat == solved.losses
    assert odds.expected_rolls == solved.mean
    sim = aces.simulate(4, game="five-dice", games=2000, seed=4, lang="nb")
    assert sim.exact is not None
    assert sim.exact.expected_rolls == solved.mean
    assert "48,58" in sim._repr_html_()
    # Each seat's chance costs five times the length with five players: refused at once.
    with pytest.raises(OptionError, match="too big for exact chances by seat"):
        aces.odds(5, game="five-dice")
    page = aces.simulate(6, game="five-dice", games=200, seed=4)._repr_html_()
    assert "There is no exact answer to compare with" in page


# -- The exact answers come as quickly as on the command line ------------------------


@pytest.mark.parametrize(("game", "players", "options"), [
    ("pot", 4, {}), ("pot", 8, {}), ("pot", 9, {}), ("five-dice", 4, {}), ("five-dice", 5, {}),
    ("five-dice", 6, {}), ("five-dice", 3, {"dice": 1}),
])
def test_a_simulation_has_its_exact_answers_when_the_command_line_has_them(
        game: str, players: int, options: dict[str, t.Any]) -> None:
    import json

    from click.testing import CliRunner

    from aces.cli import cli

    flags = [f"--{'dice-each' if name == 'dice' else name}={value}"
             for name, value in options.items()]
    result = CliRunner().invoke(cli, ["simulate", "--game", game, "--players", str(players),
                                      "--games", "100", "--seed", "1", "--json", *flags])
    assert result.exit_code == 0, result.output
    sim = aces.simulate(players, game=game, games=100, seed=1, **options)
    assert (sim.exact is None) is (json.loads(result.stdout)["exact"] is None)
    assert (sim.unsolved is None) is (sim.exact is not None)


@pytest.mark.parametrize("lang", ["en", "nb", "nn"])
def test_five_players_with_five_dice_say_how_to_ask_for_the_exact_length(lang: str) -> None:
    """Not worked out by default (seconds of waiting in a lesson), and the view says
    so in its language, naming what Python takes, exact=True, not --exact."""
    from aces.i18n import translations

    sim = aces.simulate(5, game="five-dice", games=300, seed=1, lang=lang)
    assert (sim.exact, sim.unsolved) == (None, "slow")
    message = translations(lang).gettext(
        "The exact answers take a while to work out for a game this size; add {option} to see"
        " them beside the estimates.")
    page = html.unescape(sim._repr_html_())
    assert message.format(option="exact=True") in page
    assert "--exact" not in page
    quiet = aces.simulate(5, game="five-dice", games=300, seed=1, lang=lang, exact=False)
    assert quiet.exact is None
    assert quiet.unsolved is None
    assert message.format(option="exact=True") not in html.unescape(quiet._repr_html_())


def test_exact_true_works_out_what_the_quick_bound_leaves_out(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With a bound made small, three players with one die each are slow: exact=True
    works them out all the same, for aces.simulate and aces.odds alike."""
    import importlib

    from aces.exact import fivedice_chain
    from aces.simulation.fivedice import FiveDiceSimulation

    monkeypatch.setattr(importlib.import_module("aces.simulation"), "QUICK_EXACT_STATES", 5)
    solved = fivedice_chain.solve(fivedice_chain.build(3, 1, False, "random"))
    assert solved.win_by_seat is not None
    sim = aces.simulate(3, game="five-dice", dice_each=1, games=500, seed=2)
    assert (sim.exact, sim.unsolved) == (None, "slow")
    asked = aces.simulate(3, game="five-dice", dice_each=1, games=500, seed=2, exact=True)
    assert asked.exact == solved
    assert asked.unsolved is None
    assert "exact=True" not in asked._repr_html_()
    with pytest.raises(OptionError) as refused:
        aces.odds(3, game="five-dice", dice_each=1)
    assert str(refused.value) == ("the exact chances of this table of Aces take a while to work"
                                  " out; add exact=True to wait for them")
    odds = aces.odds(3, game="five-dice", dice_each=1, exact=True)
    assert odds.win_by_seat == solved.win_by_seat
    # Aces in the Pot is solved as aces odds solves it, without a quick bound.
    assert aces.odds(3).win_by_seat == aces.odds(3, exact=True).win_by_seat
    assert FiveDiceSimulation.create(3, {"dice": 1}).exact() == solved


# -- Errors name what Python takes ----------------------------------------------------


def _stats_plot(path: str) -> None:
    aces.stats(["replays/session.jsonl"]).plot(path)


#: Calls a pupil can get wrong, and the Python names their errors must give.
MISTAKES: t.Final[list[tuple[t.Callable[[], object], list[str]]]] = [
    (lambda: aces.play(3, games=0), ["games="]),
    (lambda: aces.play(3, seed=1, dice="1 2"), ["seed=", "dice="]),
    (lambda: aces.simulate(3, games=0), ["games="]),
    (lambda: aces.simulate(3, games=10**9), ["games="]),
    (lambda: aces.simulate(3, seed=-1), ["seed="]),
    (lambda: aces.simulate(1), ["players="]),
    (lambda: aces.simulate(2, game="five-dice"), ["players="]),
    (lambda: aces.odds(1), ["players="]),
    (lambda: aces.odds(12), ["aces.simulate"]),
    (lambda: aces.odds(9, chips=3), ["9 players with 3 chips each", "aces.simulate"]),
    (lambda: aces.odds(6, game="five-dice"), ["aces.simulate"]),
    (lambda: aces.stats([], decimal_comma=True), ["decimal_comma=True", "csv="]),
    (lambda: aces.stats([], rolls=True), ["rolls=True", "csv="]),
    (lambda: aces.stats([], by_log=True), ["by_log=True", "csv="]),
    (lambda: aces.stats([], csv="README.md", rolls=True, by_log=True),
     ["rolls=True", "by_log=True"]),
    (lambda: aces.stats([], csv="README.md"), ["README.md already exists", "force=True"]),
    (lambda: _stats_plot("plot.txt"), ["Stats.plot", "plot.txt"]),
    (lambda: _stats_plot("README.md"), ["Stats.plot", "README.md"]),
]


@pytest.mark.parametrize(("call", "names"), MISTAKES)
def test_an_error_from_python_names_the_python_parameters(
        call: t.Callable[[], object], names: list[str]) -> None:
    with pytest.raises(OptionError) as raised:
        call()
    said = str(raised.value)
    for name in names:
        assert name in said, said
    assert "--" not in said
    assert "aces simulate" not in said
    assert "aces stats" not in said


@pytest.mark.parametrize(("lang", "cli", "python"), [
    ("en", "--games must be at least 1, not 0", "games= must be at least 1, not 0"),
    ("nb", "--games må være minst 1, ikke 0", "games= må være minst 1, ikke 0"),
    ("nn", "--games må vere minst 1, ikkje 0", "games= må vere minst 1, ikkje 0"),
])
def test_the_same_error_names_the_option_where_it_is_shown(
        lang: str, cli: str, python: str) -> None:
    """One error, one catalog message: the command line shows its option, a program
    its parameter, in every language."""
    from aces.i18n import translations

    catalog = translations(lang)
    with pytest.raises(OptionError) as raised:
        aces.simulate(3, games=0)
    error = raised.value
    assert error.render(catalog.gettext, catalog.ngettext) == cli
    assert error.render(catalog.gettext, catalog.ngettext, python=True) == python


# -- Errors speak the language of the call -------------------------------------------


def _bad_log(folder: Path) -> str:
    """A log whose third line is not an event."""
    path = folder / "bad.jsonl"
    lines = Path("replays/session.jsonl").read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:2]) + b"not json\n")
    return str(path)


def _walked_in(lang: str, folder: Path) -> object:
    """A log's language set on the object, not in the call."""
    log = aces.load(_bad_log(folder))
    log.lang = lang
    return len(log)


def _plotted_in(lang: str) -> None:
    result = aces.stats(["replays/session.jsonl"])
    result.lang = lang
    result.plot("plot.txt")


#: Mistakes made in a language: the call, the command that makes the same
#: mistake, the command line's names for Python's, and the kind of error.
SPOKEN: t.Final[list[tuple[t.Callable[[str, Path], object], list[str], dict[str, str],
                           type[AcesError]]]] = [
    (lambda lang, _: aces.simulate(3, games=0, lang=lang),
     ["simulate", "--players", "3", "--games", "0"], {"--games": "games="}, OptionError),
    (lambda lang, _: aces.simulate(3, games=10**9, lang=lang),
     ["simulate", "--players", "3", "--games", "1000000000"], {"--games": "games="},
     OptionError),
    (lambda lang, _: aces.stats(["replays/session.jsonl"], rolls=True, lang=lang),
     ["stats", "replays/session.jsonl", "--rolls"], {"--rolls": "rolls=True", "--csv": "csv="},
     OptionError),
    (lambda lang, _: aces.stats([], by_log=True, lang=lang.upper()),
     ["stats", "replays/session.jsonl", "--by-log"], {"--by-log": "by_log=True", "--csv": "csv="},
     OptionError),
    (lambda lang, folder: list(aces.load(_bad_log(folder), lang=lang)),
     ["replay", "{bad}"], {}, LogError),
    (_walked_in, ["verify", "{bad}"], {}, LogError),
    (lambda lang, _: _plotted_in(lang),
     ["stats", "replays/session.jsonl", "--plot", "plot.txt"], {"--plot": "Stats.plot"},
     OptionError),
]

#: Words the languages share: names of formats and of events.
SHARED: t.Final = frozenset({"json", "svg", "png", "txt", "jsonl", "game_started"})


@pytest.mark.parametrize(("call", "command", "names", "kind"), SPOKEN)
def test_an_error_from_python_speaks_the_language_of_the_call(
        call: t.Callable[[str, Path], object], command: list[str], names: dict[str, str],
        kind: type[AcesError], tmp_path: Path) -> None:
    """What a notebook shows of an error is the command line's line in the same
    language, naming Python's parameters; the error is still of its kind."""
    bad = _bad_log(tmp_path)
    said: dict[str, str] = {}
    for lang in ("en", "nb", "nn"):
        with pytest.raises(AcesError) as raised:
            call(lang, tmp_path)
        assert type(raised.value) is kind
        args = [arg.format(bad=bad) for arg in command]
        line = one_line_error(run(*args, "--lang", lang)).removeprefix("aces: ")
        for cli, python in names.items():
            line = line.replace(cli, python)
        said[lang] = str(raised.value)
        assert said[lang] == line
        assert "--" not in said[lang]
    english = _words(said["en"])
    assert english, said["en"]
    for lang in ("nb", "nn"):
        assert not english & _words(said[lang]), said[lang]


def _words(said: str) -> set[str]:
    """The words of a message, but for names (of files, of Python's parameters)
    and the words the languages share."""
    import re

    return {word for token in said.lower().split() if not re.search(r"[./=]", token)
            for word in re.findall(r"[a-z_]{3,}", token)} - SHARED


def test_an_error_without_a_language_is_english() -> None:
    """An error raised outside a call in a language, or refusing the language
    itself, is shown as the message is written."""
    assert str(LogError("game.jsonl", 3, "this line is not a JSON object")) == (
        "game.jsonl, line 3: this line is not a JSON object")
    with pytest.raises(OptionError) as raised:
        aces.simulate(3, lang="xx")
    assert raised.value.lang is None
    assert "xx" in str(raised.value)


def test_stats_are_what_the_command_pools(tmp_path: Path) -> None:
    result = aces.stats(["replays/session.jsonl", "replays/four-players.jsonl",
                         str(tmp_path / "missing.jsonl")])
    assert repr(result) == "<Stats: 3 logs (1 left out), 6 games in 1 group of rules>"
    assert result.as_dict()["groups"][0]["games"] == 6
    assert result.report().startswith("The class experiment: 3 logs, 2 pooled")


def test_every_object_shows_itself_as_html_without_scripts() -> None:
    game = aces.play(["Ada", "<b>Bo</b>", "Cy"], dice=E1)
    markup = shown(game)
    assert "<b>Bo</b>" in "".join(markup.text)  # shown as text, not as markup
    assert "b" not in markup.tags
    assert "table" in markup.tags
    shown(aces.play(3, seed=1, games=3))
    shown(aces.load("replays/session.jsonl"))
    assert "svg" in shown(aces.odds(3)).tags
    assert "svg" in shown(aces.odds(game.moments[2])).tags
    shown(aces.simulate(3, games=1000, seed=1))
    stats = shown(aces.stats(["replays/session.jsonl", "README.md"]))
    assert "svg" in stats.tags
    assert any("README.md, line 1" in text for text in stats.text)


def test_reprs_are_one_short_line() -> None:
    things: list[object] = [aces.play(3, seed=1), aces.play(3, seed=1, games=2),
                            aces.load("replays/e1-last-chip.jsonl"), aces.odds(2),
                            aces.simulate(2, games=100, seed=1),
                            aces.stats(["replays/e1-last-chip.jsonl"])]
    for thing in things:
        text = repr(thing)
        assert "\n" not in text
        assert len(text) <= 160, text


def test_a_log_still_being_recorded_is_shown_as_verify_shows_it(tmp_path: Path) -> None:
    """``repr``, ``len`` and the notebook view of such a log once raised, where
    ``aces verify`` and ``aces replay`` accept it."""
    whole = tmp_path / "whole.jsonl"
    aces.play(["Ada", "Bo", "Cy"], seed=2, games=2).save(whole)
    lines = whole.read_bytes().splitlines(keepends=True)
    last = max(n for n, line in enumerate(lines) if b'"game_started"' in line)
    rolls = [n for n, line in enumerate(lines) if n > last and b'"rolled"' in line]
    going = tmp_path / "going.jsonl"
    going.write_bytes(b"".join(lines[:rolls[8]]))
    said = run("verify", str(going)).stdout.strip()
    waiting = said.rsplit(": ", 1)[1].removesuffix(" rolls next.")
    log = aces.load(going)
    assert len(log) == 2
    assert repr(log) == "<Log going.jsonl: 2 games>"
    first, second = log
    assert first.finished
    assert first.winner is not None
    assert not second.finished
    assert (second.winner, second.loser, second.pot, second.over) == (None, None, None, None)
    assert second.waiting == waiting
    assert repr(second).endswith(f"not finished yet, {waiting} rolls next after"
                                 f" {second.length} rolls>")
    shown = log._repr_html_()
    assert f"The game is not finished yet: {waiting} rolls next." in html.unescape(shown)
    assert f"{waiting} rolls next." in html.unescape(second._repr_html_())
    assert "Ada" in second.page()
