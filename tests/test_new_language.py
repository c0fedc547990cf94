"""A new language needs no code: its catalog alone makes aces offer it."""

from __future__ import annotations

import typing as t

import pytest
from click.testing import CliRunner

from aces import i18n
from aces.cli import cli

from clitest import NO_LOCALE
from docsite import load_tool
from languages import throwaway_language

if t.TYPE_CHECKING:
    from pathlib import Path


@pytest.fixture
def danish(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """aces pointed at its own catalogs plus a Danish one (a copy of Bokmål's)."""
    locales = throwaway_language(tmp_path, "da", like="nb")
    monkeypatch.setenv(i18n.LOCALES_VARIABLE, str(locales))
    return locales


def run(*args: str, env: dict[str, str | None] | None = None) -> t.Any:
    return CliRunner().invoke(cli, list(args), env={**NO_LOCALE, **(env or {})},
                              prog_name="aces")


def test_a_catalog_makes_a_language(danish: Path) -> None:
    assert i18n.languages() == ("en", "da", "nb", "nn")
    assert i18n.negotiate("da", {}) == "da"
    assert i18n.negotiate(None, {"LANG": "da_DK.UTF-8"}) == "da"
    assert i18n.negotiate(None, {"LANGUAGE": "da:en"}) == "da"
    assert i18n.babel_locale("da") == "da"


def test_lang_accepts_the_new_language(danish: Path, e1_log: Path) -> None:
    result = run("replay", str(e1_log), "--lang", "da")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == "Bo vinner potten på fem sjetonger."
    helped = run("--lang", "da", "--help")
    assert helped.stdout.startswith("Bruk: aces [VALG]")
    assert "en, da, nb, nn" in " ".join(helped.stdout.split())


def test_the_locale_chooses_the_new_language(danish: Path, e1_log: Path) -> None:
    result = run("replay", str(e1_log), env={"LANG": "da_DK.UTF-8"})
    assert result.exit_code == 0, result.output
    assert "sjetonger" in result.stdout


def test_the_catalog_checks_cover_the_new_language(danish: Path) -> None:
    tool = load_tool("catalogs")
    paths = tool.catalog_paths(danish)
    assert set(paths) == {"en", "da", "nb", "nn"}
    template = tool.load(danish / "aces.pot")
    catalog = tool.load(paths["da"], "da")
    assert list(tool.translation_problems("da", catalog, template)) == []
    # Left half done, it fails the check like any shipped language.
    next(m for m in catalog if m.id == "Aborted!").string = ""
    assert list(tool.translation_problems("da", catalog, template)) == [
        "da: 'Aborted!' is not translated"]


def test_without_the_catalog_the_language_is_refused(e1_log: Path) -> None:
    result = run("replay", str(e1_log), "--lang", "da")
    assert result.exit_code == 2
    assert result.stderr == "aces: unknown language 'da'; the languages are: en, nb, nn\n"
