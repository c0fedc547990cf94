"""The site between its languages: a switcher on every page, ``hreflang`` alternates,
and Norwegian search.

Each language is built into its own folder side by side (``OUT/en``,
``OUT/nb``, ``OUT/nn``...), so the same page in another language is the
same path under a sibling folder. ``aces_languages`` in ``conf.py`` names
the languages (read from the catalogs that exist, see
:func:`sphinxext.locales.languages`); every page's template context
gets ``aces_languages``: each language's own name, a relative link to the
page in it, and whether it is the page's language.
"""

from __future__ import annotations

import posixpath
import re
import typing as t
from html import escape, unescape

from aces.sphinxext.build import AcesDirective, registered

if t.TYPE_CHECKING:
    from docutils import nodes
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.util.typing import ExtensionMetadata

__all__ = ["SEARCH_LANGUAGE", "Alternate", "LanguageDirective", "alternates", "own_name", "setup",
           "theme_words"]


#: Sphinx names the Norwegian search language (its stemmer and stop words)
#: ``no``; both written standards are searched with it.
SEARCH_LANGUAGE: t.Final = {"nb": "no", "nn": "no"}


class Alternate(t.NamedTuple):
    """The page in one language, as the switcher and the ``<head>`` link to it."""

    code: str
    name: str
    href: str
    current: bool


def own_name(code: str) -> str:
    """A language's name in the language itself, as a switcher shows it.

    >>> [own_name(code) for code in ("en", "nb", "nn")]
    ['English', 'Norsk bokmål', 'Norsk nynorsk']
    """
    from babel import Locale, UnknownLocaleError

    from aces.voice import line_start

    try:
        name = Locale.parse(code).get_display_name(code)
    except (ValueError, UnknownLocaleError):
        name = None
    return line_start(name) if name else code


def alternates(page: str, current: str, codes: t.Sequence[str]) -> list[Alternate]:
    """The page ``page`` (a path under one language's folder) in each language.

    >>> [a.href for a in alternates("rules/pot.html", "nb", ["en", "nb", "nn"])]
    ['../../en/rules/pot.html', 'pot.html', '../../nn/rules/pot.html']
    """
    here = posixpath.dirname(posixpath.join(current, page))
    return [Alternate(code, own_name(code),
                      posixpath.relpath(posixpath.join(code, page), here or "."),
                      code == current)
            for code in codes]


#: Accessible names furo writes in English, in its templates and its Python, which
#: no catalog reaches; the ``aces_theme_words`` filter of ``_templates/page.html``
#: translates them through the theme's catalog (``sphinx.po``).
_FURO_LABELS: t.Final = ("Toggle site navigation sidebar", "Toggle table of contents sidebar",
                         "Toggle Light / Dark / Auto color theme")
_NAVIGATION_LABEL: t.Final = "Toggle navigation of %(title)s"
_FURO_NAVIGATION: t.Final = re.compile(r'aria-label="Toggle navigation of ([^"]*)"')


def theme_words(html: str) -> str:
    """A rendered page with furo's English accessible names in the build's language."""
    from markupsafe import Markup
    from sphinx.locale import get_translation

    # Not "_": these words are the theme's (docs/locale/*/sphinx.po), not the package's.
    theme = get_translation("sphinx")
    for label in _FURO_LABELS:
        html = html.replace(f'aria-label="{label}"', f'aria-label="{escape(theme(label))}"')
    navigation = theme(_NAVIGATION_LABEL)
    html = _FURO_NAVIGATION.sub(
        lambda found: 'aria-label="{}"'.format(escape(
            navigation % {"title": unescape(found[1])})), html)
    return Markup(html)


def _filters(app: Sphinx) -> None:
    templates = getattr(app.builder, "templates", None)
    if templates is not None and hasattr(templates, "environment"):
        templates.environment.filters["aces_theme_words"] = theme_words


def _search_language(app: Sphinx, config: Config) -> None:
    if config.html_search_language is None and config.language in SEARCH_LANGUAGE:
        config.html_search_language = SEARCH_LANGUAGE[config.language]


def _context(app: Sphinx, pagename: str, templatename: str, context: dict[str, t.Any],
             doctree: object) -> None:
    codes = list(app.config.aces_languages)
    current = app.config.language or "en"
    if len(codes) < 2 or current not in codes:
        context["aces_languages"] = []
        return
    context["aces_languages"] = alternates(app.builder.get_target_uri(pagename), current, codes)


class LanguageDirective(AcesDirective):
    """``.. aces-language:: nb``: text written for one language, shown in its build only.

    For a passage that reads better written afresh than translated: the
    other languages have their own block, and neither enters the catalogs.
    """

    required_arguments = 1
    has_content = True

    def run(self) -> list[nodes.Node]:
        if self.builder == "gettext" or self.arguments[0] != (self.config.language or "en"):
            return []
        return self.parse_content_to_nodes(allow_section_headings=True)


def setup(app: Sphinx) -> ExtensionMetadata:
    """The switcher, the alternates, Norwegian search, and ``.. aces-language::``."""
    app.add_config_value("aces_languages", [], "html", types=[list, tuple])
    return registered(app, {"aces-language": LanguageDirective}, events=[
        ("config-inited", _search_language), ("html-page-context", _context),
        ("builder-inited", _filters)])
