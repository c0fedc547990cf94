"""A new language made from catalogs alone, for the tests that prove no code is needed.

:func:`throwaway_language` copies the package's catalogs to a folder and
adds one more language there, a copy of an existing catalog under a new
code, as a translator's ``pybabel init`` followed by a translation would.
Point aces at the folder with ``ACES_LOCALES`` (see :mod:`aces.i18n`).

Importable from every test module (pytest's ``pythonpath`` and mypy's
``mypy_path`` name this folder); the documentation's tests can use it for
the package's half of a new language.
"""

from __future__ import annotations

import shutil
import typing as t

from babel.messages.pofile import read_po, write_po

from aces.i18n import DOMAIN, locales_dir

if t.TYPE_CHECKING:
    from pathlib import Path


def throwaway_language(folder: Path, lang: str = "da", like: str = "nb") -> Path:
    """A copy of the shipped catalogs in ``folder/locales``, plus ``lang``
    translated as ``like`` is; the path of the new ``locales`` folder."""
    locales = folder / "locales"
    shutil.copytree(locales_dir(), locales)
    with (locales / like / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as handle:
        catalog = read_po(handle, locale=lang, domain=DOMAIN)
    catalog.language_team = f"{lang} (a test)"
    target = locales / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    target.parent.mkdir(parents=True)
    with target.open("wb") as handle:
        write_po(handle, catalog, width=96, sort_output=True, include_lineno=False)
    return locales
