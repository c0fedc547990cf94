"""The message catalogs stay honest: complete, never fuzzy, same placeholders, in step.

The checks use the functions of scripts/catalogs.py, the tool that keeps
the catalogs up to date, so the suite and the tool agree on what is sound.
"""

from __future__ import annotations

import re
import subprocess
import sys
import typing as t
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from aces.i18n import LANGUAGES, translations

from docsite import load_tool

ROOT: t.Final = Path(__file__).resolve().parent.parent


tool = load_tool("catalogs")


def ids(message: t.Any) -> tuple[str, ...]:
    return message.id if isinstance(message.id, tuple) else (message.id,)


def strings(message: t.Any) -> tuple[str, ...]:
    return message.string if isinstance(message.string, tuple) else (message.string,)


@pytest.fixture(scope="module")
def template() -> Catalog:
    return t.cast("Catalog", tool.load(tool.TEMPLATE))


@pytest.fixture(scope="module", params=LANGUAGES)
def language(request: pytest.FixtureRequest) -> tuple[str, Catalog]:
    lang = t.cast("str", request.param)
    return lang, t.cast("Catalog", tool.load(tool.catalog_paths()[lang], lang))


def test_every_language_has_a_catalog() -> None:
    assert sorted(tool.catalog_paths()) == sorted(LANGUAGES)


def test_the_template_is_in_step_with_the_source() -> None:
    fresh = tool.messages(tool.extract())
    kept = tool.messages(tool.load(tool.TEMPLATE))
    assert fresh - kept == set(), "new messages; run: python scripts/catalogs.py update"
    assert kept - fresh == set(), "stale messages; run: python scripts/catalogs.py update"


def test_every_location_is_a_file_of_the_package(template: Catalog,
                                                 language: tuple[str, Catalog]) -> None:
    # Never a venv or site-packages, wherever the venv is: the locations must
    # read the same on every machine, or each update rewrites them. The
    # documentation's own extensions speak through the package's catalogs too.
    lang, catalog = language
    for kept in (template, catalog):
        for message in kept:
            for path, _ in message.locations:
                assert path.startswith(("aces/", "docs/sphinxext/")), (lang, path)
                assert (ROOT / path).is_file(), (lang, path)


def test_the_template_keeps_its_date_when_no_message_changed(tmp_path: Path) -> None:
    # ``update`` copies the template's date into every catalog: a new date on
    # each run would change every catalog, and conflict in every merge.
    (tmp_path / "locales").mkdir()
    (tmp_path / "babel.cfg").write_text("[python: **.py]\n", encoding="utf-8")
    (tmp_path / "game.py").write_text("_('Roll')\n", encoding="utf-8")
    first = tool.write_template(tmp_path)
    first.creation_date = first.creation_date.replace(year=2000)
    (tmp_path / "locales" / "aces.pot").write_bytes(tool.render(first))
    assert tool.write_template(tmp_path).creation_date.year == 2000
    (tmp_path / "game.py").write_text("_('Roll')\n_('Pass')\n", encoding="utf-8")
    assert tool.write_template(tmp_path).creation_date.year != 2000


def test_a_merge_keeps_what_each_side_translated() -> None:
    # Two branches that each add messages conflict in the whole catalog;
    # ``resolve`` joins them, and names a message the two translate apart.
    ours, theirs = Catalog(locale="nb"), Catalog(locale="nb")
    ours.add("Roll", "Kast")
    ours.add("Pass", "Send")
    ours.add("Pot", "Pott")
    theirs.add("Pass", "")
    theirs.add("Chip", "Sjetong")
    theirs.add("Pot", "Potten")
    joined, apart = tool.join(ours, theirs)
    assert {m.id: m.string for m in joined if m.id} == {
        "Roll": "Kast", "Pass": "Send", "Chip": "Sjetong", "Pot": "Potten"}
    assert apart == ["Pot"]


def test_extraction_has_nothing_to_warn_about(capsys: pytest.CaptureFixture[str]) -> None:
    # Babel skips, with a warning on standard error, any message it cannot
    # extract as written: an f-string, say, where a template belongs.
    tool.extract()
    assert capsys.readouterr().err == ""


def test_plural_error_messages_are_extracted_with_both_forms(template: Catalog) -> None:
    message = template.get("{player} rolls {expected} die here, but the line has {count}")
    assert message is not None
    assert ids(message)[1] == "{player} rolls {expected} dice here, but the line has {count}"
    assert "aces/dice.py" in {path for path, _ in message.locations}
    assert " ".join(message.auto_comments).startswith("Translators:")


def test_error_messages_of_every_module_are_extracted(template: Catalog) -> None:
    files = {path for message in template for path, _ in message.locations}
    for module in ["aces/errors.py", "aces/log.py", "aces/walk.py", "aces/dice.py",
                   "aces/rules/__init__.py", "aces/rules/pot.py", "aces/cli/_common.py",
                   "aces/cli/play.py", "aces/cli/logs.py", "aces/i18n.py"]:
        assert module in files, module
    assert "the sequence number is {seq}, but {expected} comes next" in template  # LogError:3
    assert "{source} is empty: it holds no events" in template  # EmptyLogError


def test_each_language_holds_exactly_the_template(template: Catalog,
                                                  language: tuple[str, Catalog]) -> None:
    lang, catalog = language
    wanted = {(m.context, ids(m)) for m in template if m.id}
    held = {(m.context, ids(m)) for m in catalog if m.id}
    assert held == wanted, lang


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != tool.SOURCE])
def test_every_language_but_the_source_translates_every_message(template: Catalog,
                                                                 lang: str) -> None:
    # No silent fallback: a Nynorsk text must never show Bokmål or English.
    catalog = tool.load(tool.catalog_paths()[lang], lang)
    for message in template:
        if message.id:
            found = catalog.get(ids(message)[0], context=message.context)
            assert found is not None, message.id
            assert all(strings(found)), f"{lang} untranslated: {message.id!r}"
            assert len(strings(found)) == (2 if message.pluralizable else 1)


def test_no_entry_is_fuzzy(language: tuple[str, Catalog]) -> None:
    lang, catalog = language
    assert [m.id for m in catalog if m.id and m.fuzzy] == [], lang


def test_translations_keep_the_placeholders(language: tuple[str, Catalog]) -> None:
    lang, catalog = language
    for message in catalog:
        if not message.id or not any(strings(message)):
            continue
        wanted = set().union(*(tool.fields(i) for i in ids(message)))
        for number, form in enumerate(strings(message)):
            assert tool.placeholders_fit(catalog, wanted, number, form,
                                         plural=message.pluralizable), (lang, message.id, form)


def test_a_singular_may_write_its_count_in_words_only_where_it_means_one() -> None:
    wanted = {"{player}", "{count}"}
    nn = Catalog(locale="nn")
    assert tool.placeholders_fit(nn, wanted, 0, "{player} legg éin sjetong i potten.",
                                 plural=True)
    # Not the plural form, not a message without a plural, not two fields
    # left out, never a field of its own.
    assert not tool.placeholders_fit(nn, wanted, 1, "{player} legg sjetongar i potten.",
                                     plural=True)
    assert not tool.placeholders_fit(nn, wanted, 0, "{player} legg éin sjetong i potten.",
                                     plural=False)
    assert not tool.placeholders_fit(nn, wanted, 0, "Éin sjetong i potten.", plural=True)
    assert not tool.placeholders_fit(nn, wanted, 0, "{spelar} legg éin sjetong i potten.",
                                     plural=True)
    # French says "0 jeton" with its first form too: the number must stay.
    fr = Catalog(locale="fr")
    assert not tool.placeholders_fit(fr, wanted, 0, "{player} met un jeton au pot.",
                                     plural=True)


def test_plurals_keep_the_same_placeholders_in_both_forms(template: Catalog) -> None:
    # English too may say "a six" for one, leaving out the count it names.
    english = Catalog(locale="en")
    for message in template:
        if message.pluralizable:
            singular, plural = ids(message)
            assert tool.placeholders_fit(english, tool.fields(plural), 0, singular,
                                         plural=True), message.id


@pytest.mark.parametrize("lang", ["nb", "nn"])
def test_norwegian_has_two_plural_forms(lang: str) -> None:
    assert tool.load(tool.catalog_paths()[lang], lang).num_plurals == 2


def test_bokmal_plurals() -> None:
    assert translations("nb").ngettext("{count} game", "{count} games", 1) == "ett parti"
    assert translations("nb").ngettext("{count} game", "{count} games", 2) == "{count} partier"
    assert translations("nb").ngettext("{count} event", "{count} events", 2) == \
        "{count} hendelser"


def test_messages_have_only_named_placeholders(template: Catalog) -> None:
    for message in template:
        for text in ids(message) if message.id else ():
            for field in tool.fields(text):
                assert re.fullmatch(r"\{[a-z_]+(![rs])?\}", field), (message.id, field)


#: Where every message says, for translators, who speaks and what each
#: placeholder holds.
COMMENTED: t.Final = ("aces/narrate/", "aces/summary.py", "aces/cli/logs.py")


def test_translators_are_told_who_speaks_and_what_placeholders_hold(template: Catalog) -> None:
    checked = 0
    for message in template:
        if not message.id or not any(path.startswith(COMMENTED)
                                     for path, _ in message.locations):
            continue
        checked += 1
        comment = " ".join(message.auto_comments)
        assert comment.startswith("Translators:"), message.id
        for field in tool.fields(" ".join(ids(message))):
            name = field.strip("{}").split("!")[0]
            assert f"{{{name}}}" in comment, (message.id, name)
    assert checked > 30


@pytest.mark.parametrize("lang", [*LANGUAGES, "da"])
def test_the_checks_catch_a_broken_catalog(template: Catalog, lang: str) -> None:
    # Any language, shipped or new: a wrong placeholder, a fuzzy entry and a
    # missing plural form each fail the check.
    broken = Catalog(locale=lang, domain="aces")
    broken.add("{player} rolls {dice}.", "{spiller} kaster {dice}.")
    broken.add("{player} rolls {value}.", "{player} kaster {value}.", flags=["fuzzy"])
    broken.add(("{count} game", "{count} games"), ("{count} spill", ""))
    broken.add("a message the code no longer has", "en melding koden ikke lenger har")
    problems = list(tool.translation_problems(lang, broken, template))
    assert any("form 0 has" in p and "{spiller}" in p for p in problems)
    assert any("is fuzzy" in p for p in problems)
    assert any("is missing" in p for p in problems)
    assert any("'{count} game': a plural form is missing" in p for p in problems)
    assert any("'a message the code no longer has' (context None) is no longer used" in p
               for p in problems)


def test_the_maintenance_script_finds_nothing_to_fix() -> None:
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "catalogs.py"), "check"],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


# Forms a Nynorsk spelling dictionary (hunspell nn_NO, built from Norsk
# ordbank) rejects, once in the catalogs: the verb «anslå» (Nynorsk says
# «rekne ut om lag»), «angring» (a log's undo is «ei retting», the player
# «angrar»), the participle «halden» (a log left out is «forkasta») and the
# non-word «tilfeldet». Whole words, so «anslag» and «haldne» stay free.
NOT_NYNORSK: t.Final = re.compile(
    r"\b(anslå|anslår|anslått|angring\w*|halden|tilfeldet)\b", re.IGNORECASE)


def test_nynorsk_text_keeps_to_the_nynorsk_norm() -> None:
    catalogs = [tool.catalog_paths()["nn"],
                *sorted((ROOT / "docs" / "locale" / "nn").rglob("*.po"))]
    found = [f"{path.relative_to(ROOT)}: {word}"
             for path in catalogs
             for message in tool.load(path, "nn") if message.id
             for text in strings(message)
             for word in NOT_NYNORSK.findall(text or "")]
    assert len(catalogs) > 1
    assert found == []


def _marked(po: Path) -> t.Iterator[tuple[set[str], str]]:
    """Each entry of a catalog as a translator's tool reads it: its format
    marks, and its text from the first ``msgid`` on."""
    for entry in po.read_text(encoding="utf-8").split("\n\n"):
        marks = {mark.strip() for line in entry.splitlines() if line.startswith("#,")
                 for mark in line[2:].split(",")}
        yield marks, entry[entry.find("msgid"):]


@pytest.mark.parametrize("po", sorted((ROOT / "locales").glob("*/LC_MESSAGES/*.po")),
                         ids=lambda path: path.parent.parent.name)
def test_only_messages_formatted_with_percent_are_marked_so(po: Path) -> None:
    # ``msgfmt -c`` and Poedit check a python-format message's translation as
    # a % template, and would refuse «95 %-konfidensintervall» for "95% interval".
    named = tool.NAMED_CONVERSION.findall
    marked = 0
    for marks, text in _marked(po):
        if "python-format" in marks:
            msgid, _, msgstr = text.partition("\nmsgstr")
            assert tool.NAMED_CONVERSION.search(msgid), text
            if msgstr.strip() != '""':  # English leaves its own messages empty
                assert set(named(msgstr)) == set(named(msgid)), text
            marked += 1
    assert marked >= 1  # click's "%(prog)s, version %(version)s"


def test_no_page_of_the_docs_is_marked_as_a_format() -> None:
    # A page's text is never formatted: «95 % av» is no broken % template.
    pages = sorted((ROOT / "docs" / "locale").glob("*/LC_MESSAGES/**/*.po"))
    assert len(pages) > 20
    for po in pages:
        for marks, text in _marked(po):
            assert not marks & {"python-format", "python-brace-format"}, (po, text)
