"""The shipped catalogs: where they are, which languages they offer, each compiled once.

The package ships gettext catalogs (``.po``), one per language, in
``locales/LANG/LC_MESSAGES/aces.po``; the languages it offers are exactly
the catalogs there, so adding a language is adding its catalog, with no
change to the code. They are compiled in memory with Babel when first
needed, so a wheel, an editable install and a source checkout all read the
very same files, and no compiled ``.mo`` is ever kept in the repository.

Choosing a language among them, and refusing one not offered, is
:mod:`aces.i18n`'s.

>>> {"en", "nb", "nn"} <= set(languages())
True
>>> catalog("nb").gettext("Aces in the Pot")
'Ess i potten'
"""

from __future__ import annotations

import functools
import gettext
import io
import os
import re
import typing as t
from pathlib import Path

from babel import localedata
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

__all__ = ["DEFAULT", "DOMAIN", "LOCALES_VARIABLE", "babel_locale", "catalog", "languages",
           "locales_dir"]

#: The language of the source: always offered, with or without a catalog.
DEFAULT: t.Final = "en"
DOMAIN: t.Final = "aces"
#: The environment variable that points aces at another folder of catalogs
#: (a translator trying a new language before it is shipped).
LOCALES_VARIABLE: t.Final = "ACES_LOCALES"
#: What a catalog's folder may be called: a language code, perhaps with a region.
_TAG: t.Final = re.compile(r"[a-z]{2,3}(_[A-Z]{2})?")
#: The Babel locale that formats numbers and lists for a language, where
#: it is not the language's own code.
_BABEL: t.Final = {"nb": "nb_NO", "nn": "nn_NO"}


def languages() -> tuple[str, ...]:
    """The languages offered: English, then every language with a catalog."""
    return _languages_in(locales_dir())


@functools.cache
def _languages_in(folder: Path) -> tuple[str, ...]:
    found = {path.parent.parent.name for path in folder.glob(f"*/LC_MESSAGES/{DOMAIN}.po")}
    return (DEFAULT, *sorted(name for name in found - {DEFAULT} if _TAG.fullmatch(name)))


def locales_dir() -> Path:
    """Where the catalogs are: the folder named by ``ACES_LOCALES`` if set; else
    inside the package when installed from a wheel, at the top of the
    repository in a checkout or editable install.

    :raises FileNotFoundError: where there are none: a broken install.
    """
    # Found once for each value of the variable: a server asks for every
    # sentence it words, and the search is four calls to the file system.
    return _locales_at(os.environ.get(LOCALES_VARIABLE) or None)


@functools.cache
def _locales_at(override: str | None) -> Path:
    if override:
        return Path(override).resolve()
    package = Path(__file__).resolve().parent
    for candidate in (package / "locales", package.parent / "locales"):
        if (candidate / "aces.pot").is_file() or any(candidate.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
            return candidate
    raise FileNotFoundError(f"no message catalogs found beside {package}")


def catalog(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of ``lang``, one of :func:`languages`; English,
    the source, and a language without a catalog speak the messages as
    written."""
    return _catalog_in(locales_dir(), lang)


@functools.cache
def _catalog_in(folder: Path, lang: str) -> gettext.NullTranslations:
    path = folder / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not path.is_file():
        return gettext.NullTranslations()
    return _compiled(path, lang)


@functools.cache
def _compiled(path: Path, lang: str) -> gettext.NullTranslations:
    with path.open("rb") as handle:
        read = read_po(handle, locale=lang, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, read, use_fuzzy=False)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def babel_locale(lang: str) -> str:
    """The Babel locale used to format numbers and lists for ``lang``; English
    for a language Babel does not know."""
    locale = _BABEL.get(lang, lang)
    return locale if localedata.exists(locale) else DEFAULT
