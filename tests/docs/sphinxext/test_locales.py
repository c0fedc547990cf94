"""The documentation's catalogs are compiled outside the source tree, every one of them."""

from __future__ import annotations

import gettext
import typing as t
from pathlib import Path

from sphinxext.locales import compiled

from docsite import DOCS

LOCALE: t.Final = DOCS / "locale"


def test_every_catalog_is_compiled_outside_the_sources() -> None:
    target = Path(compiled(LOCALE))
    assert not target.is_relative_to(LOCALE.parent)
    sources = sorted(p.relative_to(LOCALE).with_suffix("") for p in LOCALE.rglob("*.po"))
    made = sorted(p.relative_to(target).with_suffix("") for p in target.rglob("*.mo"))
    assert made == sources
    assert list(LOCALE.rglob("*.mo")) == []


def test_the_compiled_catalogs_translate() -> None:
    target = compiled(LOCALE)
    lessons = gettext.translation("lessons/nothing", target, languages=["nb"])
    assert lessons.gettext("The question") == "Spørsmålet"
    theme = gettext.translation("sphinx", target, languages=["nb"])
    assert theme.gettext("Back to top") == "Til toppen"
