"""Languages: choosing one, and finding the catalogs wherever aces is installed."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import typing as t
import zipfile
from pathlib import Path

import pytest

from aces import i18n
from aces.errors import OptionError

ROOT: t.Final = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(("requested", "environ", "expected"), [
    ("nb", {}, "nb"),
    ("no", {}, "nb"),
    ("nb_NO.UTF-8", {}, "nb"),
    ("en", {"LANG": "nb_NO.UTF-8"}, "en"),
    (None, {"LANG": "nb_NO.UTF-8"}, "nb"),
    (None, {"LANGUAGE": "no"}, "nb"),
    (None, {"LANGUAGE": "sv:no:en"}, "nb"),
    (None, {"LC_ALL": "nb_NO.UTF-8", "LANG": "en_US.UTF-8"}, "nb"),
    (None, {"LC_MESSAGES": "en_GB.UTF-8", "LANG": "nb_NO.UTF-8"}, "en"),
    (None, {"LANG": "de_DE.UTF-8"}, "en"),
    (None, {"LANG": "C"}, "en"),
    ("nn", {}, "nn"),
    ("nn_NO.UTF-8", {"LANG": "nb_NO.UTF-8"}, "nn"),
    ("nno", {}, "nn"),
    (None, {"LANG": "nn_NO.UTF-8"}, "nn"),
    (None, {"LANGUAGE": "nn"}, "nn"),
    (None, {"LANGUAGE": "nn:nb"}, "nn"),
    (None, {"LC_ALL": "nn_NO.UTF-8", "LANG": "nb_NO.UTF-8"}, "nn"),
    # Norwegian without a written standard, and Bokmål's own names, stay Bokmål.
    (None, {"LANG": "no_NO.UTF-8"}, "nb"),
    (None, {"LANG": "nb_NO"}, "nb"),
    (None, {}, "en"),
])
def test_negotiate(requested: str | None, environ: dict[str, str], expected: str) -> None:
    assert i18n.negotiate(requested, environ) == expected


def test_an_unknown_language_is_refused_with_the_list() -> None:
    with pytest.raises(OptionError) as caught:
        i18n.negotiate("de", {"LANG": "nb_NO.UTF-8"})
    assert str(caught.value) == "unknown language 'de'; the languages are: en, nb, nn"


def test_the_languages_are_the_catalogs_shipped() -> None:
    assert i18n.languages() == ("en", "nb", "nn")
    assert i18n.languages() == i18n.LANGUAGES


def test_babel_formats_both_written_standards() -> None:
    from babel.lists import format_list
    from babel.numbers import format_decimal

    for lang in ("nb", "nn"):
        locale = i18n.babel_locale(lang)
        assert format_decimal(15625, locale=locale) == "15\xa0625"
        assert format_list(["Ada", "Bo", "Cy"], locale=locale) == "Ada, Bo og Cy"
    assert i18n.babel_locale("nn") == "nn_NO"


def test_nynorsk_catalog_translates() -> None:
    catalog = i18n.translations("nn")
    assert catalog.gettext("{source}, line {line}") == "{source}, linje {line}"
    assert catalog.gettext("Aces in the Pot") == "Ess i potten"


def test_norwegian_catalog_translates() -> None:
    catalog = i18n.translations("nb")
    assert catalog.gettext("{source}, line {line}") == "{source}, linje {line}"
    assert catalog.pgettext("standings", "{player} {count}") == "{player} {count}"


def test_english_speaks_the_source_messages() -> None:
    catalog = i18n.translations("en")
    assert catalog.gettext("{source}, line {line}") == "{source}, line {line}"
    assert catalog.ngettext("{count} game", "{count} games", 2) == "{count} games"


def test_errors_render_in_the_chosen_language() -> None:
    from aces.errors import LogError

    error = LogError("game.jsonl", 3, "the sequence number is {seq}, but {expected} comes next",
                     seq=5, expected=3)
    assert error.render(i18n.translations("nb").gettext) == \
        "game.jsonl, linje 3: løpenummeret er 5, men 3 skal komme nå"


def test_a_wrapped_error_is_translated_too() -> None:
    from aces.errors import LogError

    inner = OptionError("this game needs at least {minimum} players, not {count}",
                        minimum=2, count=1)
    outer = LogError("game.jsonl", 1, "{reason}", reason=inner)
    assert outer.render(i18n.translations("nb").gettext) == \
        "game.jsonl, linje 1: dette spillet trenger minst 2 spillere, ikke 1"


# -- Installed catalogs ---------------------------------------------------------

#: Run in a fresh interpreter: where the catalogs are, and a Norwegian line.
PROBE: t.Final = """
import io, sys
from aces import engine, i18n
from aces.dice import DiceFile
from aces.log import LogWriter, read
from aces.narrate import tell
from aces.games import game_named
import aces
game = game_named("pot")
log = io.BytesIO()
script = "2/3/5/1 6/3 5/6 6/1 1/1 6/1 4/2 5/6 6/1 1/3 4/5 2".split("/")
start = engine.header(game, ["Ada", "Bo", "Cy"], {})
LogWriter(log).write_all(engine.play(game, start, DiceFile(script, "E1")))
lines = tell(read(io.BytesIO(log.getvalue()), "E1"), "E1", i18n.translations("nb"), "nb")
print(aces.__file__)
print(i18n.locales_dir())
print(lines[-1])
"""


def probe(cwd: Path, *path: Path) -> list[str]:
    code = "import sys; sys.path[:0] = sys.argv[1:]\n" + PROBE
    result = subprocess.run([sys.executable, "-c", code, *map(str, path)], cwd=cwd,
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_catalogs_are_found_from_the_editable_install(tmp_path: Path) -> None:
    # Run from elsewhere, so only the installation can lead to the catalogs.
    package, locales, last = probe(tmp_path)
    assert Path(package).parent == ROOT / "aces"
    assert Path(locales) == ROOT / "locales"
    assert last == "Bo vinner potten på fem sjetonger."


def test_catalogs_are_found_from_a_wheel(tmp_path: Path, wheel: Path) -> None:
    unpacked = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(unpacked)
    assert (unpacked / "aces" / "locales" / "nb" / "LC_MESSAGES" / "aces.po").is_file()
    assert not list(unpacked.rglob("*.mo"))
    # The command travels as a script of its own (bin/aces.py), for the
    # installer to point at its Python.
    script = "aces_dice-0.1.0.data/scripts/aces"
    assert (unpacked / script).read_bytes().startswith(b"#!python\n")
    with zipfile.ZipFile(wheel) as archive:
        assert archive.getinfo(script).external_attr >> 16 & 0o111
    package, locales, last = probe(tmp_path, unpacked)
    assert Path(package).is_relative_to(unpacked)
    assert Path(locales) == unpacked / "aces" / "locales"
    assert last == "Bo vinner potten på fem sjetonger."


@pytest.mark.parametrize("lang", ["../../etc/passwd", "/etc/passwd", "nb/../../../etc/passwd",
                                  "..", "nb\x00", "en/../../locales"])
def test_a_language_that_looks_like_a_path_never_reaches_the_file_system(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[str] = []
    real_open = Path.open

    def watched(path: Path, *args: t.Any, **kwargs: t.Any) -> t.Any:
        opened.append(str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(Path, "open", watched)
    chosen = None
    with contextlib.suppress(OptionError):
        chosen = i18n.negotiate(lang, {})
    if chosen is not None:
        # Whatever is made of it is a language the package ships.
        assert chosen in i18n.LANGUAGES
        i18n.translations(chosen)
    with pytest.raises(OptionError):
        i18n.translations(lang)
    assert not any("passwd" in path or ".." in path for path in opened)
