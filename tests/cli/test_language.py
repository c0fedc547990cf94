"""The command line in the user's language: help, usage, click's own errors, the version."""

from __future__ import annotations

import re
import typing as t

import click
import pytest
from click.testing import CliRunner

from aces.cli import cli
from aces.cli._language import chosen, commands, help_messages, requested, speaking, translated
from aces.i18n import translations

from clitest import NO_LOCALE

#: Every locale variable unset, so that only what a test sets counts.
NB: t.Final = translations("nb")


def run(*args: str, env: dict[str, str | None] | None = None) -> t.Any:
    return CliRunner().invoke(cli, list(args), env={**NO_LOCALE, **(env or {})},
                              prog_name="aces")


def flat(text: str) -> str:
    """Text as one line, however click wrapped it (even after a hyphen)."""
    return re.sub(r"-\s+", "-", " ".join(text.split()))


def test_the_help_of_aces_in_norwegian() -> None:
    result = run("--lang", "nb", "--help")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Bruk: aces [VALG] KOMMANDO [ARGUMENTER]...")
    for heading in ("Valg:", "Kommandoer:"):
        assert heading in result.stdout.splitlines()
    assert NB.gettext("Show this message and exit.") in result.stdout
    assert "Usage" not in result.stdout


def test_the_help_stays_english_by_default() -> None:
    result = run("--help")
    assert result.stdout.startswith("Usage: aces [OPTIONS] COMMAND [ARGS]...")
    assert "Show this message and exit." in result.stdout


@pytest.mark.parametrize("lang", ["nb", "nn"])
@pytest.mark.parametrize("command", sorted(cli.commands))
def test_every_command_helps_in_norwegian(command: str, lang: str) -> None:
    catalog = translations(lang)
    result = run(command, "--help", "--lang", lang)
    assert result.exit_code == 0, result.output
    usage, options = catalog.gettext("Usage:"), catalog.gettext("[OPTIONS]")
    assert result.stdout.startswith(f"{usage} aces {command} {options}")
    text = flat(result.stdout)
    assert "TEXT" not in text
    assert "INTEGER" not in text
    for param in cli.commands[command].params:
        help_text = getattr(param, "help", None)
        if help_text:
            shown = catalog.gettext(help_text)
            assert shown != help_text, param.name
            if param.name == "lang":
                shown = shown.format(languages="en, nb, nn")
            assert flat(shown) in text, param.name


@pytest.mark.parametrize(("lang", "quantile", "games"), [
    ("en", "[default: 0.99]", "[default: 100,000]"),
    ("nb", "[standard: 0,99]", "[standard: 100\xa0000]"),
    ("nn", "[standard: 0,99]", "[standard: 100\xa0000]"),
])
def test_a_default_number_is_written_as_the_language_writes_it(
    lang: str, quantile: str, games: str
) -> None:
    """The help shows a default as every other number aces prints, by Babel."""
    assert quantile in flat(run("odds", "--help", "--lang", lang).stdout)
    # Wrapped lines joined, the no-break space of a Norwegian thousand kept.
    assert games in re.sub("[ \n]+", " ", run("simulate", "--help", "--lang", lang).stdout)
    # The command still gets the number itself.
    result = run("odds", "--players", "2", "--chips", "1", "--json", "--lang", lang)
    assert '"quantile": 0.99,' in result.stdout


def test_the_help_of_aces_in_nynorsk() -> None:
    result = run("--lang", "nn", "--help")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "Bruk: aces [VAL] KOMMANDO [ARGUMENT]..."
    assert "Ess i potten og femterningspelet: spel, før inn, kontroller og attfortel" in lines[2]
    assert {"Val:", "Kommandoar:"} <= set(lines)
    text = flat(result.stdout)
    assert "Språket i utskrifta, eitt av desse: en, nb, nn" in text
    assert "Vis denne hjelpeteksten og avslutt." in text
    # Nothing of the Bokmål help on the way: Nynorsk stands on its own.
    for bokmal in ("Språket i utskriften", "Kommandoer", "Valg", "Spill hele"):
        assert bokmal not in text


@pytest.mark.parametrize("env", [{"LANG": "nn_NO.UTF-8"}, {"LANGUAGE": "nn"},
                                 {"LC_ALL": "nn_NO.UTF-8"}])
def test_the_locale_chooses_nynorsk(env: dict[str, str | None]) -> None:
    result = run("replay", "--help", env=env)
    assert result.stdout.startswith("Bruk: aces replay [VAL] LOGG")


@pytest.mark.parametrize("env", [{"LANG": "nb_NO.UTF-8"}, {"LANG": "no_NO.UTF-8"},
                                 {"LANGUAGE": "no"}])
def test_norwegian_without_nynorsk_named_is_bokmal(env: dict[str, str | None]) -> None:
    result = run("replay", "--help", env=env)
    assert result.stdout.startswith("Bruk: aces replay [VALG] LOGG")


def test_the_locale_chooses_norwegian_without_lang() -> None:
    result = run("replay", "--help", env={"LANG": "nb_NO.UTF-8"})
    assert result.stdout.startswith("Bruk: aces replay [VALG] LOGG")


def test_lang_before_the_command_reaches_the_command(tmp_path: t.Any) -> None:
    log = tmp_path / "game.jsonl"
    assert run("play", "--players", "3", "--seed", "3", "-o", str(log)).exit_code == 0
    result = run("--lang", "nb", "replay", str(log))
    assert result.exit_code == 0, result.output
    assert "kaster" in result.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["replay"], "argumentet «LOGG» mangler; prøv «aces replay --help» for å få hjelp"),
    (["odds"], "valget «--players» mangler; prøv «aces odds --help» for å få hjelp"),
    (["walkthrough", "x", "--format", "html"],
     "ugyldig verdi for «--format»: «html» er ikke en av «markdown», «rst», «text»;"
     " prøv «aces walkthrough --help» for å få hjelp"),
    (["frobnicate"], "kommandoen «frobnicate» finnes ikke; prøv «aces --help» for å få hjelp"),
    (["replay", "x", "--quux"],
     "valget «--quux» finnes ikke; prøv «aces replay --help» for å få hjelp"),
    (["replay", "x", "--lnag", "nb"],
     "valget «--lnag» finnes ikke (mente du «--lang»?); prøv «aces replay --help» for å få"
     " hjelp"),
    (["play", "--seed"],
     "valget «--seed» trenger én verdi; prøv «aces play --help» for å få hjelp"),
    (["play", "--chips", "x"], "ugyldig verdi for «--chips»: «x» er ikke et gyldig heltall;"
     " prøv «aces play --help» for å få hjelp"),
    (["odds", "--players", "3", "--quantile", "x"],
     "ugyldig verdi for «--quantile»: «x» er ikke et gyldig desimaltall;"
     " prøv «aces odds --help» for å få hjelp"),
])
def test_usage_errors_in_norwegian(args: list[str], message: str) -> None:
    """A usage error is one line, like every other error, in the chosen language:
    «» quotes, a small letter first and no full stop, as every Norwegian error."""
    result = run("--lang", "nb", *args)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [f"aces: {message}"]
    assert "Usage" not in result.stderr
    assert "Error" not in result.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["play", "--seed"],
     "aces: Option '--seed' requires an argument. Try 'aces play --help' for help."),
    (["play", "--chips", "x"],
     "aces: Invalid value for '--chips': 'x' is not a valid integer."
     " Try 'aces play --help' for help."),
    (["walkthrough", "x", "--format", "html"],
     "aces: Invalid value for '--format': 'html' is not one of 'markdown', 'rst', 'text'."
     " Try 'aces walkthrough --help' for help."),
    (["odds"], "aces: Missing option '--players'. Try 'aces odds --help' for help."),
    (["replay"], "aces: Missing argument 'LOG'. Try 'aces replay --help' for help."),
])
def test_usage_errors_in_english_are_clicks_own(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [message]


def test_the_version_in_both_languages() -> None:
    assert run("--version").stdout.startswith("aces, version ")
    assert run("--lang", "nb", "--version").stdout.startswith("aces, versjon ")


@pytest.mark.parametrize(("args", "message"), [
    (["replay"], "argumentet «LOGG» manglar; prøv «aces replay --help» for å få hjelp"),
    (["simulate"], "valet «--players» manglar; prøv «aces simulate --help» for å få hjelp"),
    (["stats"], "argumentet «LOGG...» manglar; prøv «aces stats --help» for å få hjelp"),
    (["play", "--chips", "x"], "ugyldig verdi for «--chips»: «x» er ikkje eit gyldig heiltal;"
     " prøv «aces play --help» for å få hjelp"),
    (["frobnicate"], "kommandoen «frobnicate» finst ikkje; prøv «aces --help» for å få hjelp"),
])
def test_usage_errors_in_nynorsk(args: list[str], message: str) -> None:
    result = run("--lang", "nn", *args)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [f"aces: {message}"]


def test_a_usage_error_leaves_out_the_usage_block() -> None:
    """The usage is one --help away; the error itself stays on one line."""
    result = run("--lang", "nb", "replay")
    assert "Bruk:" not in result.stderr
    assert result.stderr.endswith("; prøv «aces replay --help» for å få hjelp\n")


@pytest.mark.parametrize(("env", "line"), [
    ({}, "aces: unknown language 'xx'; the languages are: en, nb, nn\n"),
    ({"LANG": "nb_NO.UTF-8"}, "aces: ukjent språk «xx»; språkene er: en, nb, nn\n"),
    ({"LANGUAGE": "nn"}, "aces: ukjent språk «xx»; språka er: en, nb, nn\n"),
])
@pytest.mark.parametrize("args", [["--lang", "xx", "verify", "-"], ["verify", "-", "--lang=xx"],
                                  ["--lang", "xx", "--help"], ["replay", "--help", "--lang", "xx"]])
def test_an_unknown_language_is_one_line_in_the_users_language(
    args: list[str], env: dict[str, str | None], line: str
) -> None:
    # Even --help is refused: the user asked for a language there is none of.
    result = run(*args, env=env)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == line


def test_requested_finds_lang_anywhere_before_a_double_dash() -> None:
    assert requested(["--lang", "nb", "replay"]) == "nb"
    assert requested(["replay", "--lang=nb"]) == "nb"
    assert requested(["replay", "--", "--lang", "nb"]) is None
    assert requested(["replay", "--lang"]) is None


def test_chosen_falls_back_to_the_locale_for_an_unknown_language() -> None:
    assert chosen(["--lang", "xx"], {"LANG": "nb_NO.UTF-8"}) == "nb"
    assert chosen(["--lang", "xx"], {}) == "en"
    assert chosen([], {"LANG": "nb_NO.UTF-8"}) == "nb"


def test_the_translated_tree_is_a_copy() -> None:
    tree = translated(cli, NB.gettext)
    assert tree is not cli
    assert tree.help == NB.gettext("Aces in the Pot and Aces: play, record, verify and narrate"
                                   " dice games.")
    assert cli.help == "Aces in the Pot and Aces: play, record, verify and narrate dice games."
    assert [c.name for c in commands(tree)] == [c.name for c in commands(cli)]
    # Click's shared types keep their names for everyone else.
    assert (click.INT.name, click.FLOAT.name) == ("integer", "float")
    assert {p.type.name for c in commands(cli) for p in c.params} >= {"integer", "float"}


def test_every_help_text_is_translated() -> None:
    texts = list(help_messages(cli))
    assert len(texts) > 20
    for text, where, path in texts:
        assert NB.gettext(text) != text, (where, path)


def test_help_texts_are_located_in_the_package_not_in_clicks_wrappers() -> None:
    # ``@click.pass_context`` wraps ``aces`` in a function of click's, in the venv.
    where = {w: path for _, w, path in help_messages(cli)}
    assert where["the help of aces"] == "aces/cli/__init__.py"
    assert where["the help of --version of aces"] == "aces/cli/__init__.py"
    assert where["the help of --players of aces play"] == "aces/cli/play.py"


def test_a_command_defined_outside_the_package_has_no_location(tmp_path: t.Any) -> None:
    # As click's own files are when the venv is outside the repository: no
    # path from the top of the repository exists, and that is no error.
    import importlib.util

    module_file = tmp_path / "site-packages" / "plugin.py"
    module_file.parent.mkdir()
    module_file.write_text(
        "import click\n\n"
        "@click.command()\n"
        "@click.option('--size', help='How big.')\n"
        "@click.pass_context\n"
        "def plugin(ctx, size):\n"
        "    'A command from elsewhere.'\n", encoding="utf-8")
    spec = importlib.util.spec_from_file_location("plugin", module_file)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    group = click.Group("aces", commands={"plugin": module.plugin, "play": cli.commands["play"]})
    found = {text: path for text, _, path in help_messages(group)}
    assert found["A command from elsewhere."] is None
    assert found["How big."] is None
    assert {path for path in found.values() if path is not None} == {"aces/cli/play.py"}


def test_clicks_messages_are_english_outside_a_run() -> None:
    with speaking(NB):
        assert click.core._("Usage:") == "Bruk:"  # type: ignore[attr-defined]
    assert click.core._("Usage:") == "Usage:"  # type: ignore[attr-defined]


# -- Files, numbers and bare aces, in the user's language --------------------------------


@pytest.mark.parametrize("kind", ["missing", "folder"])
@pytest.mark.parametrize("args", [["play", "--players", "3", "--dice-file"], ["verify"],
                                  ["replay"], ["walkthrough"]])
def test_a_file_that_cannot_be_read_gets_the_same_norwegian_reason_everywhere(
    tmp_path: t.Any, args: list[str], kind: str
) -> None:
    path = tmp_path / "nofile" if kind == "missing" else tmp_path
    reason = ("filen eller mappen finnes ikke" if kind == "missing"
              else "det er en mappe, ikke en fil")
    result = run("--lang", "nb", *args, str(path))
    assert result.exit_code != 0
    assert result.stderr == f"aces: kan ikke lese {path}: {reason}\n"


@pytest.mark.parametrize("args", [["play", "--players", "3", "-o"], ["record"]])
def test_a_folder_is_no_file_to_write_in_norwegian(tmp_path: t.Any, args: list[str]) -> None:
    result = run("--lang", "nb", *args, str(tmp_path), "--players", "3")
    assert result.exit_code == 2
    assert result.stderr == f"aces: kan ikke skrive {tmp_path}: det er en mappe, ikke en fil\n"


def test_a_decimal_in_an_error_is_written_the_languages_way() -> None:
    result = run("odds", "--players", "3", "--quantile", "2", "--lang", "nb")
    assert result.exit_code == 2
    assert result.stderr == "aces: --quantile må være mellom 0 og 1, ikke 2,0\n"


@pytest.mark.parametrize(("args", "usage"), [([], "Usage: aces [OPTIONS] COMMAND [ARGS]..."),
                                             (["--lang", "nb"], "Bruk: aces [VALG] KOMMANDO")])
def test_bare_aces_prints_its_help_and_succeeds(args: list[str], usage: str) -> None:
    result = run(*args)
    assert result.exit_code == 0
    assert result.stdout.startswith(usage)
    assert "replay" in result.stdout
    assert result.stderr == ""
