"""Every public function and method of the API, called with wrong types and
extreme values: it answers, or it refuses with an :class:`~aces.errors.AcesError`
that says why. No ``TypeError`` from deep inside, no wrong answer in silence.

The bounds that keep a valid but huge call short (the events a call holds,
the games of a simulation, the states of an exact solve) are made small
here, so that an extreme value that passes runs into them at once, and the
error it meets is the same one a full-sized call meets.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import tempfile
import typing as t
from pathlib import Path

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

import aces
from aces.errors import AcesError

REPLAYS: t.Final = Path(__file__).resolve().parent.parent / "replays"

#: Values of the wrong kind, and extreme values of the right one.
WRONG: t.Final = st.one_of(
    st.none(), st.booleans(), st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, 1, 2, 3, 4, -1, 7, 100, 10**6, 2**31, 2**63, -(2**63)]),
    st.text(max_size=6), st.sampled_from(["", "no", "nb", "nn", "en", "pot", "five-dice",
                                          "Ada,Bo", "x.svg", "x.csv", "-", ".", "/"]),
    st.binary(max_size=4),
    st.lists(st.one_of(st.integers(-3, 9), st.text(max_size=3), st.none()), max_size=3),
    st.tuples(st.integers(0, 3), st.text(max_size=3)),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.builds(object), st.builds(io.StringIO, st.just("x")),
    st.builds(io.BytesIO, st.just(b"{}\n")), st.just(Path("nowhere.jsonl")),
    st.just(REPLAYS / "three-players.jsonl"),
)
#: Names an option may be given by: the games', another game's, none at all.
OPTIONS: t.Final = st.dictionaries(
    st.sampled_from(["chips", "finish", "dice_each", "threes", "threes_to", "dice", "bogus"]),
    WRONG, max_size=2)


def maybe(valid: object) -> st.SearchStrategy[object]:
    """A parameter's value: a valid one, or a wrong or extreme one."""
    return st.one_of(st.just(valid), WRONG)


@contextlib.contextmanager
def small_bounds() -> t.Iterator[None]:
    """The bounds of huge calls made small, in a folder of its own."""
    with pytest.MonkeyPatch.context() as patch, tempfile.TemporaryDirectory() as folder:
        # The modules by their full names: aces.simulate is also the function.
        for module, name, value in (("aces.api", "HELD_EVENTS", 3_000),
                                    ("aces.simulate", "MAX_GAMES", 2_000),
                                    ("aces.odds", "MAX_STATES", 3_000)):
            patch.setattr(importlib.import_module(module), name, value)
        patch.chdir(folder)
        yield


def answers_or_refuses(call: t.Callable[..., object], *args: object, **kwargs: object) -> None:
    """``call`` gives something that shows itself, or an AcesError: nothing else."""
    note(f"{getattr(call, '__qualname__', call)}(*{args!r}, **{kwargs!r})")
    with small_bounds():
        try:
            repr(call(*args, **kwargs))
        except AcesError as error:
            said = str(error)
        else:
            return
    assert said  # and it says why, in one line
    assert "\n" not in said


@given(players=maybe(3), game=maybe("pot"), seed=maybe(1), dice=maybe(None), games=maybe(1),
       lang=maybe("en"), options=OPTIONS.map(lambda given: {
           name: value for name, value in given.items() if name != "dice"}))
def test_play(players: object, game: object, seed: object, dice: object, games: object,
              lang: object, options: dict[str, object]) -> None:
    answers_or_refuses(aces.play, players, game=game, seed=seed, dice=dice, games=games,
                       lang=lang, **options)


@given(players=maybe(2), game=maybe("pot"), exact=maybe(False), lang=maybe("en"),
       options=OPTIONS)
def test_odds(players: object, game: object, exact: object, lang: object,
              options: dict[str, object]) -> None:
    answers_or_refuses(aces.odds, players, game=game, exact=exact, lang=lang, **options)


@given(players=maybe(3), game=maybe("pot"), games=maybe(100), seed=maybe(1),
       exact=maybe(None), lang=maybe("en"), options=OPTIONS)
def test_simulate(players: object, game: object, games: object, seed: object, exact: object,
                  lang: object, options: dict[str, object]) -> None:
    answers_or_refuses(aces.simulate, players, game=game, games=games, seed=seed, exact=exact,
                       lang=lang, **options)


@given(logs=maybe([str(REPLAYS / "three-players.jsonl")]), csv=maybe(None), rolls=maybe(False),
       by_log=maybe(False), decimal_comma=maybe(False), force=maybe(False), lang=maybe("en"),
       progress=maybe(None))
def test_stats(logs: object, csv: object, rolls: object, by_log: object, decimal_comma: object,
               force: object, lang: object, progress: object) -> None:
    answers_or_refuses(aces.stats, logs, csv=csv, rolls=rolls, by_log=by_log,
                       decimal_comma=decimal_comma, force=force, lang=lang, progress=progress)


@given(path=maybe(str(REPLAYS / "session.jsonl")), lang=maybe("en"), index=WRONG)
def test_load_and_a_logs_games(path: object, lang: object, index: object) -> None:
    answers_or_refuses(aces.load, path, lang=lang)
    log = aces.load(REPLAYS / "session.jsonl")
    answers_or_refuses(log.__getitem__, index)
    answers_or_refuses(setattr, log, "lang", index)


#: The API as a program that ignores its types calls it.
API: t.Any = aces
GAME: t.Any = aces.play(["Ada", "Bo", "Cy"], seed=3)
SESSION: t.Any = aces.play(["Ada", "Bo"], seed=1, games=3)
POOLED: t.Any = aces.stats([REPLAYS / "session.jsonl"])
ODDS: t.Any = aces.odds(2, chips=1)
SIMULATED: t.Any = aces.simulate(2, games=100, seed=1)


@given(value=WRONG, other=WRONG)
def test_the_methods_of_what_the_functions_return(value: object, other: object) -> None:
    answers_or_refuses(GAME.seat, value)
    answers_or_refuses(GAME.narrate, value)
    answers_or_refuses(GAME.page, value)
    answers_or_refuses(GAME.save, value)
    answers_or_refuses(SESSION.__getitem__, value)
    answers_or_refuses(SESSION.save, value)
    answers_or_refuses(POOLED.report, value)
    answers_or_refuses(POOLED.plot, value, other)
    for shown in (GAME, SESSION, POOLED, ODDS, SIMULATED):
        answers_or_refuses(setattr, shown, "lang", value)


@pytest.mark.parametrize(("call", "names"), [
    (lambda: API.play(3.5), ["players=", "3.5"]),
    (lambda: API.play(None), ["players=", "None"]),
    (lambda: API.play("Ada,Bo"), ["players=", "['Ada', 'Bo']"]),
    (lambda: API.play(["Ada", 5]), ["players=", "5"]),
    (lambda: API.play(2, seed="x"), ["seed=", "'x'"]),
    (lambda: API.play(2, seed=1.5), ["seed=", "1.5"]),
    (lambda: API.play(2, seed=True), ["seed=", "True"]),
    (lambda: API.play(2, games="2"), ["games=", "'2'"]),
    (lambda: API.play(2, games=2.5), ["games=", "2.5"]),
    (lambda: API.play(2, dice=[1, 2]), ["dice=", "1"]),
    (lambda: API.play(2, lang=5), ["lang=", "5"]),
    (lambda: API.play(2, dice_each=3), ["dice_each=", "pot"]),
    (lambda: API.odds(2, game="chess"), ["chess"]),
    (lambda: API.odds("3"), ["players=", "'3'"]),
    (lambda: API.simulate(2, games=1.5), ["games=", "1.5"]),
    (lambda: API.simulate("3"), ["players=", "'3'"]),
    (lambda: API.load(5), ["path=", "5"]),
    (lambda: API.stats(None), ["logs=", "None"]),
    (lambda: API.stats("x.jsonl"), ["logs=", "['x.jsonl']"]),
    (lambda: API.stats([5]), ["logs=", "5"]),
    (lambda: API.stats([(io.StringIO("x"), "class.jsonl")]), ["class.jsonl", "'rb'"]),
    (lambda: GAME.seat("Zed"), ["'Zed'", "Ada, Bo, and Cy"]),
    (lambda: API.load(REPLAYS / "session.jsonl")["a"], ["log[...]", "'a'"]),
    (lambda: API.load(REPLAYS / "session.jsonl")[9], ["log[...]", "5 games", "9"]),
    (lambda: SESSION[-9], ["session[...]", "3 games", "-9"]),
])
def test_a_wrong_argument_is_named_as_python_spells_it(call: t.Callable[[], object],
                                                       names: list[str]) -> None:
    """Each of these once raised a raw TypeError or ValueError from deep inside,
    or gave a wrong answer: Aces in the Pot labelled "chess", six players named
    A, d, a, ",", B and o, "30 logs (30 left out)" for one log."""
    with pytest.raises(AcesError) as raised:
        call()
    said = str(raised.value)
    for name in names:
        assert name in said, said


def test_a_log_counts_from_the_end_as_python_does() -> None:
    log: t.Any = aces.load(REPLAYS / "session.jsonl")
    assert log[-1].winner == log[4].winner == "Per"
    assert SESSION[-1] is SESSION[2]
    with pytest.raises(IndexError):
        log[5]
    assert [game.winner for game in log] == [log[k].winner for k in range(len(log))]


def test_a_game_name_is_checked_against_the_registry() -> None:
    with pytest.raises(AcesError, match="unknown game 'chess'"):
        aces.odds(2, game="chess")
    with pytest.raises(AcesError, match="unknown game 'chess'"):
        aces.simulate(2, game="chess")
