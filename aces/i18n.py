"""Languages: choosing one, loading its catalog, formatting for it.

The package ships gettext catalogs (``.po``) for English and Norwegian
Bokmål. They are compiled in memory with Babel when first needed, so a
wheel, an editable install and a source checkout all read the very same
files, and no compiled ``.mo`` is ever kept in the repository.

>>> negotiate(None, {"LANG": "nb_NO.UTF-8"})
'nb'
>>> negotiate(None, {"LANGUAGE": "no:en"})
'nb'
>>> negotiate("en", {"LANG": "nb_NO.UTF-8"})
'en'
>>> negotiate(None, {})
'en'
"""

from __future__ import annotations

import functools
import gettext
import io
import typing as t
from pathlib import Path

from aces.errors import OptionError

if t.TYPE_CHECKING:
    from collections.abc import Mapping

#: The languages the package ships, as accepted by ``--lang``.
LANGUAGES: t.Final = ("en", "nb")
DEFAULT: t.Final = "en"
DOMAIN: t.Final = "aces"
#: Norwegian without a written standard named means Bokmål here.
_ALIASES: t.Final = {"no": "nb", "nb": "nb", "en": "en"}
_ENVIRONMENT: t.Final = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def negotiate(requested: str | None, environ: Mapping[str, str]) -> str:
    """The language to speak: ``requested``, else the locale variables, else English.

    A requested language must be one the package ships; the environment is
    only a preference and falls back to English.
    """
    if requested is not None:
        chosen = _match(requested)
        if chosen is None:
            raise OptionError(
                "unknown language {lang!r}; the languages are: {known}",
                lang=requested,
                known=", ".join(LANGUAGES),
            )
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
    """``nb``, ``nb_NO.UTF-8``, ``no``, ``en-GB``... to a shipped language."""
    language = tag.split(".", 1)[0].split("@", 1)[0].replace("-", "_").split("_", 1)[0]
    return _ALIASES.get(language.lower())


def locales_dir() -> Path:
    """Where the catalogs are: inside the package when installed from a wheel,
    at the top of the repository in a checkout or editable install."""
    package = Path(__file__).resolve().parent
    for candidate in (package / "locales", package.parent / "locales"):
        if (candidate / "nb" / "LC_MESSAGES" / f"{DOMAIN}.po").is_file():
            return candidate
    raise FileNotFoundError(f"no message catalogs found beside {package}")


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of a shipped language."""
    if lang not in LANGUAGES:
        raise OptionError("unknown language {lang!r}", lang=lang)
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    path = locales_dir() / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=lang, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog, use_fuzzy=False)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def babel_locale(lang: str) -> str:
    """The Babel locale used to format numbers and lists for ``lang``."""
    return {"en": "en", "nb": "nb_NO"}[lang]
