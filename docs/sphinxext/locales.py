"""The documentation's languages and translations, read from the catalogs that exist.

A language of the site is a folder ``docs/locale/LANG/LC_MESSAGES`` of
catalogs: :func:`languages` lists them, so adding a language is adding its
catalogs, with no code to change.

Sphinx reads compiled ``.mo`` catalogs and, left to itself, writes them
beside the ``.po`` files in the source tree. The repository keeps no
compiled files, so ``conf.py`` calls :func:`compiled`: every catalog under
``docs/locale`` is compiled with Babel into a temporary directory, which is
what ``locale_dirs`` names, and which is removed when the build ends.
Fuzzy entries are never used. The theme's catalog (``sphinx.po``) is also
written as the ``sphinx.js`` the search page reads its words from, since
Sphinx ships none for some languages (``nn``) and an empty one for others.
"""

from __future__ import annotations

import atexit
import json
import shutil
import tempfile
import typing as t
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

if t.TYPE_CHECKING:
    from babel.messages.catalog import Catalog

__all__ = ["SOURCE", "compiled", "languages", "script"]


#: The language the pages are written in.
SOURCE: t.Final = "en"


def languages(source: Path) -> list[str]:
    """The site's languages: English, then every ``LANG`` with catalogs under ``source``.

    >>> languages(Path("/nowhere"))
    ['en']
    """
    found = sorted(folder.parent.name for folder in source.glob("*/LC_MESSAGES")
                   if folder.is_dir() and any(folder.rglob("*.po")))
    return [SOURCE, *(lang for lang in found if lang != SOURCE)]


def compiled(source: Path) -> str:
    """Compile every ``LANG/LC_MESSAGES/**/*.po`` under ``source``; the folder of the results."""
    target = Path(tempfile.mkdtemp(prefix="aces-docs-locale-"))
    atexit.register(shutil.rmtree, target, True)
    for po in sorted(source.glob("*/LC_MESSAGES/**/*.po")):
        lang = po.relative_to(source).parts[0]
        mo = target / po.relative_to(source).with_suffix(".mo")
        mo.parent.mkdir(parents=True, exist_ok=True)
        with po.open("rb") as handle:
            catalog = read_po(handle, locale=lang, abort_invalid=True)
        with mo.open("wb") as handle:
            write_mo(handle, catalog, use_fuzzy=False)
        if po.name == "sphinx.po":
            mo.with_suffix(".js").write_text(script(catalog, lang), encoding="utf-8")
    return str(target)


def script(catalog: Catalog, lang: str) -> str:
    """A theme catalog as the ``sphinx.js`` of Sphinx's search page (as Sphinx writes its own)."""
    messages = {}
    for message in catalog:
        if not message.id or message.fuzzy or not message.string:
            continue
        key = message.id[0] if isinstance(message.id, tuple) else message.id
        messages[key] = (list(message.string) if isinstance(message.string, tuple)
                         else message.string)
    # Sphinx indexes a plural's forms with this expression: a number, never a boolean.
    body = json.dumps({"locale": lang, "messages": messages,
                       "plural_expr": f"Number({catalog.plural_expr})"},
                      sort_keys=True, indent=4)
    return f"Documentation.addTranslations({body});\n"
