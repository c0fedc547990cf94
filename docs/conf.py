"""Sphinx configuration for the aces documentation, in English, Bokmål and Nynorsk.

Build every language, with warnings as errors, with ``scripts/docs.py``; or
one at a time with ``sphinx-build -W -b html docs OUT/en`` and
``sphinx-build -W -b html -D language=nn docs OUT/nn``. Every number, table,
plot and walkthrough in the pages is computed while the pages are built,
by the package's extension for writers (``aces.sphinxext``) and by the
documentation's own machinery beside this file (``sphinxext/``: the
lessons, their numbers, plots and sheets), which never travels with the
package.
"""

from __future__ import annotations

import sys
from pathlib import Path

from aces import __version__

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sphinxext.locales import compiled, languages

project = "aces"
author = "The aces developers"
copyright = "2026, the aces developers"
version = release = __version__

extensions = [
    "sphinxext",
    "sphinx.ext.doctest",
]

language = "en"
# The site's languages are the catalogs that exist: English, and every
# docs/locale/LANG (see sphinxext.locales); each page links to itself in
# every one of them. The catalogs are compiled outside the source tree.
LOCALE = Path(__file__).parent / "locale"
aces_languages = languages(LOCALE)
locale_dirs = [compiled(LOCALE)]
gettext_auto_build = False
gettext_compact = False
gettext_uuid = False
gettext_location = False
gettext_last_translator = "The aces developers"
gettext_language_team = "The aces developers"

# Curly quotes and ellipses, but "--option" stays two hyphens in the help texts.
smartquotes_action = "qe"
exclude_patterns = ["_build", "_templates", "locale"]
# Logs for the walkthroughs are found from here: the top of the repository.
aces_log_root = ".."

html_theme = "furo"
# The language switcher lives in furo's announcement bar (see _templates/page.html),
# a quiet bar at the top of every page when the site has more than one language.
_BAR = {"color-announcement-background": "var(--color-background-secondary)",
        "color-announcement-text": "var(--color-foreground-primary)"}
# No shortcut of a single character key (WCAG 2.1.4): Sphinx's "/" to the search box
# would take a speech user's "slash", and a school could not turn it off.
html_theme_options = {"light_css_variables": _BAR, "dark_css_variables": _BAR,
                      "enable_search_shortcuts": False,
                      **({"announcement": "languages"} if len(aces_languages) > 1 else {})}
# Furo's icons with their titles translatable (the theme writes them in English).
templates_path = ["_templates"]
# The lessons' facts box, plots as wide as the text, tables that scroll on a phone.
html_static_path = ["_static"]
html_css_files = ["aces.css"]
html_title = "aces"
html_last_updated_fmt = None
html_show_sourcelink = False
# The theme's "Made with Sphinx and @pradyunsg's Furo" has English that no
# catalog reaches; "Made with Furo" translates.
html_show_sphinx = False
html_show_copyright = False
html_copy_source = False
doctest_global_setup = f"""
from fractions import Fraction
from pathlib import Path
REPLAYS = Path({str(Path(__file__).resolve().parent.parent / "replays")!r})
"""
