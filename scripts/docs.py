"""Build the documentation in every language, and keep its translations in step.

    .venv/bin/python scripts/docs.py build [OUT]   # HTML in OUT/en, OUT/nb, OUT/nn..., doctests
    .venv/bin/python scripts/docs.py update        # extract the messages, merge into each .po
    .venv/bin/python scripts/docs.py init LANG     # start the catalogs of a new language
    .venv/bin/python scripts/docs.py check         # fail if a catalog is out of step

The languages are the catalogs that exist: English, the language of the
pages, and every ``docs/locale/LANG`` (see ``docs/sphinxext/locales.py``).
``build`` runs ``sphinx-build -W --keep-going`` once per language (English
from ``docs/`` as it is, the others with ``-D language=LANG``) and once
with the doctest builder, side by side in separate processes, and fails if
any of them has a warning. OUT defaults to ``build/docs``.

``update`` runs the gettext builder into a temporary folder and merges each
template into ``docs/locale/LANG/LC_MESSAGES/NAME.po`` with Babel: kept
translations stay, new messages come in untranslated (never fuzzy), and
messages the pages no longer have are dropped. ``check`` fails on a message
left untranslated, a fuzzy entry, a catalog missing a message of the pages
or holding one they no longer have, or a translation whose inline markup
(roles such as ``:aces:`try``` and ``literals``) differs from its message's,
in every language alike. ``init`` creates the catalogs of a new language,
every message untranslated, the theme's words included. The test suite
(tests/docs/test_build.py) runs the same build and checks.
"""

from __future__ import annotations

import argparse
import io
import re
import subprocess
import sys
import tempfile
import typing as t
from collections import Counter
from pathlib import Path

ROOT: t.Final = Path(__file__).resolve().parent.parent
DOCS: t.Final = ROOT / "docs"

HEADER: t.Final = """\
# {name} translations of the aces documentation.
# Copyright (C) 2026 The aces developers
# This file is distributed under the same license as the aces project.
#"""
#: Catalogs kept by hand: ``sphinx`` holds the theme's words as well as those
#: of our templates, which are all the gettext builder finds; update only
#: adds what is missing to it, and check does not mind its extra words.
THEME: t.Final = "sphinx"
KEPT_BY_HAND: t.Final = frozenset({THEME})

#: Inline markup a translation must keep as it is: roles, literals, references.
_MARKUP: t.Final = re.compile(r":[a-z-]+:`[^`]+`|``[^`]+``|`[^`]+`_")


class Build(t.NamedTuple):
    """One sphinx-build run: what it built, what it said, and what Sphinx warned of.

    ``warnings`` is Sphinx's own warning stream (its ``-w`` file), so that a
    library announcing its first run (matplotlib building its font cache, say)
    is never taken for a warning, and a warning never hides in such output.
    """

    name: str
    out: Path
    returncode: int
    output: str
    warnings: str

    @property
    def passed(self) -> bool:
        """Sphinx finished and warned of nothing."""
        return self.returncode == 0 and not self.warnings.strip()


def languages(docs: Path = DOCS) -> list[str]:
    """The languages of the site: English, the language of the pages, then each catalog's."""
    if str(DOCS) not in sys.path:
        # The documentation's own extensions, as its conf.py finds them.
        sys.path.insert(0, str(DOCS))
    from sphinxext.locales import languages as found

    return found(docs / "locale")


def translated(docs: Path = DOCS) -> list[str]:
    """The languages that have catalogs: every one but English."""
    return languages(docs)[1:]


def sphinx(builder: str, out: Path, *extra: str, source: Path = DOCS) -> list[str]:
    """The sphinx-build command line of one build, warnings as errors, written to a file."""
    return [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", builder,
            "-d", str(out / ".doctrees"), "-w", str(warning_file(out)), *extra,
            str(source), str(out)]


def warning_file(out: Path) -> Path:
    """Where the build into ``out`` writes its warnings: with its doctrees, not in the site."""
    return out / ".doctrees" / "warnings.txt"


def run(command: list[str]) -> subprocess.Popen[str]:
    """Start one build; its output is kept for the reader, its warnings go to their file."""
    warnings = warning_file(Path(command[-1]))
    warnings.parent.mkdir(parents=True, exist_ok=True)
    warnings.unlink(missing_ok=True)
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def finish(name: str, command: list[str], process: subprocess.Popen[str]) -> Build:
    """Wait for one build; what it built, said and warned of."""
    output, _ = process.communicate()
    out = Path(command[-1])
    warnings = warning_file(out)
    text = warnings.read_text(encoding="utf-8") if warnings.exists() else ""
    return Build(name, out, process.returncode, output, text)


def build(out: Path, docs: Path = DOCS, only: t.Sequence[str] | None = None,
          doctest: bool = True) -> list[Build]:
    """Build each language (``only`` those, if given) and run the doctests, in parallel."""
    jobs = {f"html-{lang}": sphinx("html", out / lang, *(() if lang == "en" else
                                                          ("-D", f"language={lang}")),
                                   source=docs)
            for lang in languages(docs) if only is None or lang in only}
    if doctest:
        jobs["doctest"] = sphinx("doctest", out / "doctest", source=docs)
    running = {name: run(command) for name, command in jobs.items()}
    return [finish(name, jobs[name], process) for name, process in running.items()]


def extract(out: Path, docs: Path = DOCS) -> dict[str, t.Any]:
    """Run the gettext builder into ``out``; the template of each page, by name."""
    from babel.messages.pofile import read_po

    warning_file(out).parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(sphinx("gettext", out, source=docs), check=True)
    templates = {}
    for pot in sorted(out.rglob("*.pot")):
        with pot.open("rb") as handle:
            templates[pot.relative_to(out).with_suffix("").as_posix()] = read_po(handle)
    return templates


def _load(path: Path, lang: str) -> t.Any:
    from babel.messages.pofile import read_po

    with path.open("rb") as handle:
        return read_po(handle, locale=lang, abort_invalid=True)


def _render(catalog: t.Any) -> bytes:
    """A page's catalog as kept, with no format marks.

    Babel marks text as ``python-format`` or ``python-brace-format`` when it
    looks like a placeholder ("95% of" reads as ``% o``). A page's text is
    never formatted, and the marks make translators' tools (``msgfmt -c``,
    Poedit) refuse right translations such as «95 % av».
    """
    from babel.messages.pofile import write_po

    for message in catalog:
        message.flags -= {"python-format", "python-brace-format"}
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=96, sort_output=False, include_lineno=False,
             ignore_obsolete=True, omit_header=False)
    return buffer.getvalue()


def _write(path: Path, catalog: t.Any) -> None:
    """Write a catalog, unless only its dates would change (files change with their messages)."""
    new = _render(catalog)
    if path.exists():
        old = path.read_bytes()
        if _messages_part(old) == _messages_part(new):
            return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(new)


def _messages_part(po: bytes) -> bytes:
    """A catalog without its header: what changes when a message does."""
    return po.split(b"\n\n", 1)[-1]


def _name(lang: str) -> str:
    """A language's English name, for the first line of its catalogs."""
    from babel import Locale, UnknownLocaleError

    try:
        return str(Locale.parse(lang).english_name or lang)
    except (ValueError, UnknownLocaleError):
        return lang


def init(lang: str, docs: Path = DOCS) -> None:
    """Start the catalogs of a new language: every message, none translated yet.

    The theme's words (kept by hand) are those the other languages' ``sphinx.po`` hold.
    """
    from babel.messages.catalog import Catalog

    folder = docs / "locale" / lang / "LC_MESSAGES"
    if folder.exists():
        raise SystemExit(f"{folder} exists already: run update to bring it in step")
    theme = Catalog(locale=lang, project="aces", copyright_holder="The aces developers",
                    fuzzy=False, header_comment=HEADER.format(name=_name(lang)))
    for other in sorted((docs / "locale").glob(f"*/LC_MESSAGES/{THEME}.po")):
        for message in _load(other, other.parent.parent.name):
            if message.id and message.id not in theme:
                theme.add(message.id, ("", "") if isinstance(message.id, tuple) else "",
                          flags=message.flags - {"fuzzy"})
    folder.mkdir(parents=True)
    _write(folder / f"{THEME}.po", theme)
    update(docs)


def update(docs: Path = DOCS) -> None:
    """Merge freshly extracted templates into every language's catalogs."""
    from babel.messages.catalog import Catalog

    with tempfile.TemporaryDirectory(prefix="aces-docs-pot-") as scratch:
        templates = extract(Path(scratch), docs)
    for lang in translated(docs):
        folder = docs / "locale" / lang / "LC_MESSAGES"
        for name, template in templates.items():
            path = folder / f"{name}.po"
            catalog = _load(path, lang) if path.exists() else Catalog(
                locale=lang, project="aces", copyright_holder="The aces developers",
                fuzzy=False, header_comment=HEADER.format(name=_name(lang)))
            catalog.project, catalog.version = "aces", template.version
            catalog.last_translator = catalog.language_team = "The aces developers"
            catalog.msgid_bugs_address = ""
            if name in KEPT_BY_HAND:
                for message in template:
                    if message.id and message.id not in catalog:
                        catalog.add(message.id, "")
                _write(path, catalog)
                continue
            catalog.update(template, no_fuzzy_matching=True)
            catalog.fuzzy = False
            catalog.project, catalog.version = "aces", template.version
            catalog.last_translator = catalog.language_team = "The aces developers"
            catalog.msgid_bugs_address = ""
            _write(path, catalog)
        for stale in sorted(folder.rglob("*.po")):
            name = stale.relative_to(folder).with_suffix("").as_posix()
            if name not in templates and name not in KEPT_BY_HAND:
                stale.unlink()


def markup(text: str) -> Counter[str]:
    """The inline markup of a message, which its translation must keep.

    >>> sorted(markup("Roll :aces:`try` with ``aces odds`` and :doc:`rules`."))
    [':aces:`try`', ':doc:`rules`', '``aces odds``']
    """
    return Counter(_MARKUP.findall(text))


def problems(templates: dict[str, t.Any], docs: Path = DOCS) -> list[str]:
    """What is out of step between the pages and the catalogs, in every language;
    empty when sound."""
    found = []
    for lang in translated(docs):
        folder = docs / "locale" / lang / "LC_MESSAGES"
        for name, template in templates.items():
            path = folder / f"{name}.po"
            if not path.exists():
                found.append(f"{lang}: {name}.po is missing; run update")
                continue
            catalog = _load(path, lang)
            wanted = {message.id for message in template if message.id}
            held = {message.id for message in catalog if message.id}
            found += [f"{lang}/{name}: lacks {m!r}; run update" for m in sorted(wanted - held)]
            if name not in KEPT_BY_HAND:
                found += [f"{lang}/{name}: still has {m!r}; run update"
                          for m in sorted(held - wanted)]
            for message in catalog:
                if not message.id:
                    continue
                # A plural message (the theme's search results) has a form for each count.
                source = message.id[0] if isinstance(message.id, tuple) else message.id
                forms = message.string if isinstance(message.string, tuple) else (
                    message.string,)
                where = f"{lang}/{name}: {source[:60]!r}"
                if message.fuzzy:
                    found.append(f"{where} is fuzzy")
                if not all(forms):
                    found.append(f"{where} is not translated")
                elif any(markup(form) != markup(source) for form in forms):
                    found.append(f"{where}: the markup differs in the translation")
    return found


def check(docs: Path = DOCS) -> list[str]:
    """Extract the pages' messages now and compare them with the catalogs."""
    with tempfile.TemporaryDirectory(prefix="aces-docs-pot-") as scratch:
        return problems(extract(Path(scratch), docs), docs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["build", "update", "init", "check"])
    parser.add_argument("out", nargs="?", default=str(ROOT / "build" / "docs"),
                        help="where build writes the sites (default: build/docs);"
                             " for init, the new language (nn, sv...)")
    options = parser.parse_args(argv)
    if options.command == "init":
        if options.out == parser.get_default("out") or not options.out.isidentifier():
            parser.error("init needs the code of the new language, such as sv")
        init(options.out)
        print(f"docs/locale/{options.out}: translate every message, then run check")
        return 0
    if options.command == "build":
        failed = False
        for result in build(Path(options.out)):
            status = "ok" if result.passed else "FAILED"
            print(f"{result.name}: {status} ({result.out})")
            if not result.passed:
                print(result.output, file=sys.stderr)
                failed = True
        return 1 if failed else 0
    try:
        if options.command == "update":
            update()
            return 0
        found = check()
    except subprocess.CalledProcessError:
        print("the gettext build failed; its errors are above", file=sys.stderr)
        return 1
    for problem in found:
        print(problem, file=sys.stderr)
    if found:
        return 1
    print("the documentation's catalogs are complete and in step with the pages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
