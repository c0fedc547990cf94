"""Languages: choosing one, loading its catalog, formatting for it.

The package ships gettext catalogs (``.po``), one per language, in
``locales/LANG/LC_MESSAGES/aces.po``; the languages it offers are exactly
the catalogs there, so adding a language is adding its catalog, with no
change to the code. They are compiled in memory with Babel when first
needed, so a wheel, an editable install and a source checkout all read the
very same files, and no compiled ``.mo`` is ever kept in the repository.

>>> negotiate(None, {"LANG": "nb_NO.UTF-8"})
'nb'
>>> negotiate(None, {"LANGUAGE": "no:en"})
'nb'
>>> negotiate(None, {"LANG": "nn_NO.UTF-8"})
'nn'
>>> negotiate("en", {"LANG": "nb_NO.UTF-8"})
'en'
>>> negotiate(None, {})
'en'
"""

from __future__ import annotations

import functools
import gettext
import io
import os
import re
import typing as t
from pathlib import Path

from aces.errors import OptionError

if t.TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["DEFAULT", "DOMAIN", "LOCALES_VARIABLE", "babel_locale", "languages", "locales_dir",
           "negotiate", "translations", "unknown_language"]

#: The language of the source: always offered, with or without a catalog.
DEFAULT: t.Final = "en"
DOMAIN: t.Final = "aces"
#: The environment variable that points aces at another folder of catalogs
#: (a translator trying a new language before it is shipped).
LOCALES_VARIABLE: t.Final = "ACES_LOCALES"
#: Other names of the shipped languages: Norwegian without a written
#: standard named means Bokmål; ISO 639-2 names the two standards too.
_ALIASES: t.Final = {"no": "nb", "nob": "nb", "nno": "nn"}
_ENVIRONMENT: t.Final = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
#: What a catalog's folder may be called: a language code, perhaps with a region.
_TAG: t.Final = re.compile(r"[a-z]{2,3}(_[A-Z]{2})?")
#: The Babel locale that formats numbers and lists for a language, where
#: it is not the language's own code.
_BABEL: t.Final = {"nb": "nb_NO", "nn": "nn_NO"}


def languages() -> tuple[str, ...]:
    """The languages offered: English, then every language with a catalog.

    >>> {"en", "nb", "nn"} <= set(languages())
    True
    """
    return _languages_in(locales_dir())


@functools.cache
def _languages_in(folder: Path) -> tuple[str, ...]:
    found = {path.parent.parent.name for path in folder.glob(f"*/LC_MESSAGES/{DOMAIN}.po")}
    return (DEFAULT, *sorted(name for name in found - {DEFAULT} if _TAG.fullmatch(name)))


def __getattr__(name: str) -> t.Any:
    # ``i18n.LANGUAGES``: read from the catalogs each time, like languages().
    if name == "LANGUAGES":
        return languages()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def unknown_language(requested: str) -> OptionError:
    """The error for a language the package does not offer, naming those it does."""
    return OptionError("unknown language {lang!r}; the languages are: {known}",
                       lang=requested, known=", ".join(languages()))


def negotiate(requested: str | None, environ: Mapping[str, str]) -> str:
    """The language to speak: ``requested``, else the locale variables, else English.

    A requested language must be one the package offers; the environment is
    only a preference and falls back to English.

    :raises ~aces.errors.OptionError: for a requested language not offered,
        naming those that are.
    """
    if requested is not None:
        chosen = _match(requested)
        if chosen is None:
            raise unknown_language(requested)
        return chosen
    for variable in _ENVIRONMENT:
        value = environ.get(variable, "")
        if not value:
            continue
        # LANGUAGE may list several, in order of preference.
        for preference in value.split(":"):
            chosen = _match(preference)
            if chosen is not None:
                return chosen
        if variable != "LANGUAGE":
            break
    return DEFAULT


def _match(tag: str) -> str | None:
    """``nb``, ``nb_NO.UTF-8``, ``no``, ``nn-NO``, ``en-GB``... to an offered language."""
    language = tag.split(".", 1)[0].split("@", 1)[0].replace("-", "_").split("_", 1)[0].lower()
    language = _ALIASES.get(language, language)
    return language if language in languages() else None


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


def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of an offered language.

    :raises ~aces.errors.OptionError: for a language not offered.
    """
    if lang not in languages():
        raise unknown_language(lang)
    return _translations_in(locales_dir(), lang)


@functools.cache
def _translations_in(folder: Path, lang: str) -> gettext.NullTranslations:
    path = folder / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not path.is_file():
        # English, the source, speaks its own messages without a catalog.
        return gettext.NullTranslations()
    return _compiled(path, lang)


@functools.cache
def _compiled(path: Path, lang: str) -> gettext.NullTranslations:
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with path.open("rb") as handle:
        catalog = read_po(handle, locale=lang, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog, use_fuzzy=False)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def babel_locale(lang: str) -> str:
    """The Babel locale used to format numbers and lists for ``lang``; English
    for a language Babel does not know."""
    from babel import localedata

    locale = _BABEL.get(lang, lang)
    return locale if localedata.exists(locale) else DEFAULT
