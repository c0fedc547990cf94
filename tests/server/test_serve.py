"""``aces class serve`` where the package was installed without its ``class`` extra
(a plain ``pip install aces-dice``): one line that names the install, in the
teacher's language, and nothing of the class made."""

from __future__ import annotations

import sys
import typing as t

import pytest

from aces.server.serve import EXTRA_MODULES

from clitest import one_line_error, run

if t.TYPE_CHECKING:
    from pathlib import Path


@pytest.mark.parametrize("names", EXTRA_MODULES, ids=lambda names: names[0])
@pytest.mark.parametrize(("lang", "said"), [
    ("en", "aces: aces class serve needs the server that comes with the class extra:"
           " pip install 'aces-dice[class]'"),
    ("nb", "aces: aces class serve trenger tjeneren som følger med tillegget «class»:"
           " pip install 'aces-dice[class]'"),
    ("nn", "aces: aces class serve treng tenaren som følgjer med tillegget «class»:"
           " pip install 'aces-dice[class]'"),
])
def test_serving_without_the_class_extra_says_how_to_install_it(
    names: tuple[str, ...], lang: str, said: str, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in names:
        # A module set to None in sys.modules is one that cannot be imported.
        monkeypatch.setitem(sys.modules, name, None)
    result = run("class", "serve", str(tmp_path / "lesson-3"), "--lang", lang)
    assert one_line_error(result) == said
    assert not (tmp_path / "lesson-3").exists()
