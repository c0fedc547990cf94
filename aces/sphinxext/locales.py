"""The documentation's translations, compiled where Sphinx can read them.

Sphinx reads compiled ``.mo`` catalogs and, left to itself, writes them
beside the ``.po`` files in the source tree. The repository keeps no
compiled files, so ``conf.py`` calls :func:`compiled`: every catalog under
``docs/locale`` is compiled with Babel into a temporary directory, which is
what ``locale_dirs`` names, and which is removed when the build ends.
Fuzzy entries are never used.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po


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
    return str(target)
