"""Languages: choosing one among those offered, and its catalog.

The languages are those whose catalogs ship with the package
(:mod:`aces.catalogs`); a language asked for by name must be one of them,
while the locale's variables are only a preference that falls back to
English.

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

__all__ = ["DEFAULT", "DOMAIN", "LOCALES_VARIABLE", "babel_locale", "languages", "locales_dir",
           "negotiate", "translations", "unknown_language"]

import typing as t

from aces.catalogs import (
    DEFAULT,
    DOMAIN,
    LOCALES_VARIABLE,
    babel_locale,
    catalog,
    languages,
    locales_dir,
)
from aces.errors import OptionError

if t.TYPE_CHECKING:
    import gettext
    from collections.abc import Mapping


#: Other names of the shipped languages: Norwegian without a written
#: standard named means Bokmål; ISO 639-2 names the two standards too.
_ALIASES: t.Final = {"no": "nb", "nob": "nb", "nno": "nn"}
_ENVIRONMENT: t.Final = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


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


def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of an offered language.

    :raises ~aces.errors.OptionError: for a language not offered.
    """
    if lang not in languages():
        raise unknown_language(lang)
    return catalog(lang)
