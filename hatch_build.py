"""What the wheel carries beside the code, chosen when it is built.

The catalogs and the example logs live at the top of the repository, where
translators and readers find them (``locales/``, ``replays/``); in a wheel
they travel inside the package, where :mod:`aces.i18n` and
:mod:`aces.examples` look for them:

- every language's catalog, ``locales/LANG/LC_MESSAGES/aces.po``, as
  ``aces/locales/...``, but neither the template (``aces.pot``, for
  translators only) nor English's: English is the language of the source
  and speaks without a catalog. So a new language is shipped the moment its
  catalog exists, with nothing to change here;
- every example log and dice file of ``replays/`` as ``aces/examples/``,
  without the script that makes them.

Nothing is compiled: the package compiles a catalog in memory when it is
first needed, so a wheel, an editable install and a checkout read the very
same files.
"""

from __future__ import annotations

import typing as t
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: The language of the source, which needs no catalog.
SOURCE: t.Final = "en"
#: What an example is: a log, or the dice of a game typed in.
EXAMPLES: t.Final = (".jsonl", ".dice")


class CatalogsAndExamples(BuildHookInterface):  # type: ignore[type-arg]
    """Put the catalogs and the example logs inside the package of the wheel."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, t.Any]) -> None:
        if self.target_name != "wheel":
            return
        root = Path(self.root)
        carried = build_data["force_include"]
        for catalog in sorted(root.glob("locales/*/LC_MESSAGES/aces.po")):
            if catalog.parent.parent.name != SOURCE:
                carried[str(catalog)] = f"aces/{catalog.relative_to(root).as_posix()}"
        for example in sorted((root / "replays").iterdir()):
            if example.suffix in EXAMPLES:
                carried[str(example)] = f"aces/examples/{example.name}"
