"""Sphinx configuration for the aces documentation (English and Bokmål)."""

from __future__ import annotations

project = "aces"
author = "The aces developers"
copyright = "2026, the aces developers"  # noqa: A001 - Sphinx's name

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
]

language = "en"
locale_dirs = ["locale/"]
gettext_compact = False
exclude_patterns = ["_build"]
html_theme = "alabaster"
