"""The wheel installs like a release: by its own name, with its licence, its
catalogs and its examples, and without what only the repository needs."""

from __future__ import annotations

import email.parser
import re
import typing as t
import zipfile

from installs import DISTRIBUTION, ROOT, WHEEL_PREFIX, wheel_files

if t.TYPE_CHECKING:
    from pathlib import Path

    from installs import Venv


def metadata(wheel: Path) -> t.Any:
    with zipfile.ZipFile(wheel) as archive:
        [name] = [name for name in archive.namelist() if name.endswith(".dist-info/METADATA")]
        return email.parser.Parser().parsestr(archive.read(name).decode("utf-8"))


def test_the_wheel_is_named_for_the_index_and_imports_as_aces(wheel: Path) -> None:
    # «aces» on the package index is another project: pip install --upgrade
    # aces would put its code over ours.
    found = metadata(wheel)
    assert found["Name"] == DISTRIBUTION
    assert wheel.name.startswith(f"{WHEEL_PREFIX}-")
    files = wheel_files(wheel)
    assert "aces/__init__.py" in files
    assert f"{WHEEL_PREFIX}-0.1.0.data/scripts/aces" in files


def test_the_wheel_carries_its_licence_urls_and_classifiers(wheel: Path) -> None:
    found = metadata(wheel)
    assert found["License-Expression"] == "MIT"
    assert found["License-File"] == "LICENSE"
    assert f"{WHEEL_PREFIX}-0.1.0.dist-info/licenses/LICENSE" in wheel_files(wheel)
    urls = dict(value.split(", ", 1) for value in found.get_all("Project-URL"))
    assert {"Homepage", "Documentation", "Source", "Issues"} <= set(urls)
    assert all(url.startswith("https://") for url in urls.values())
    classifiers = found.get_all("Classifier")
    assert "Framework :: Sphinx :: Extension" in classifiers
    assert "Natural Language :: Norwegian" in classifiers
    assert found["Requires-Python"] == ">=3.11"


def test_the_wheel_carries_the_catalogs_but_not_the_template_or_the_empty_english(
    wheel: Path,
) -> None:
    catalogs = [name for name in wheel_files(wheel) if "/locales/" in name]
    shipped = sorted(path.parent.parent.name
                     for path in (ROOT / "locales").glob("*/LC_MESSAGES/aces.po"))
    assert sorted(name.split("/")[2] for name in catalogs) == [lang for lang in shipped
                                                               if lang != "en"]
    assert {"nb", "nn"} <= {name.split("/")[2] for name in catalogs}
    assert all(name.endswith("/LC_MESSAGES/aces.po") for name in catalogs)
    assert not [name for name in wheel_files(wheel) if name.endswith((".pot", ".mo"))]


def test_the_wheel_carries_every_example_and_nothing_else_of_replays(wheel: Path) -> None:
    examples = {name.removeprefix("aces/examples/") for name in wheel_files(wheel)
                if name.startswith("aces/examples/")}
    expected = {path.name for path in (ROOT / "replays").iterdir()
                if path.suffix in (".jsonl", ".dice")}
    assert examples == expected
    assert {"three-players.jsonl", "session.jsonl", "e1.dice"} <= examples


def test_the_wheel_leaves_out_the_documentations_own_extensions(wheel: Path) -> None:
    files = wheel_files(wheel)
    assert "aces/sphinxext/__init__.py" in files
    for module in ("lessons", "quantities", "teaching", "sheets", "plots", "tables",
                   "mathjax", "commands"):
        assert f"aces/sphinxext/{module}.py" not in files
        assert not [name for name in files if name.endswith(f"sphinxext/{module}.py")]


def test_the_installed_package_finds_its_examples_and_catalogs(installed: Venv,
                                                               tmp_path: Path) -> None:
    done = installed.run(installed.python, "-c",
                         "import aces.examples, aces.i18n;"
                         " print(aces.examples.folder()); print(aces.i18n.languages())",
                         cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    folder, languages = done.stdout.splitlines()
    assert folder.endswith("site-packages/aces/examples")
    assert languages == "('en', 'nb', 'nn')"


#: What a user types to install the other project on the index named «aces»:
#: ``pip install aces``, ``pip install --upgrade aces``, ``'aces[class]'``.
OTHER_PROJECT: t.Final = re.compile(
    r"pip install (?:-\S+ )*['\"]?aces(?![\w-])|(?<![\w.-])aces\[")


def test_no_text_a_user_reads_installs_the_other_project_named_aces() -> None:
    texts = [ROOT / "README.md", ROOT / "pyproject.toml",
             *(ROOT / "docs").rglob("*.rst"), *(ROOT / "docs" / "locale").rglob("*.po"),
             *(ROOT / "locales").rglob("*.po"), *(ROOT / "aces").rglob("*.py")]
    found = [f"{path.relative_to(ROOT)}: {hit.group()}" for path in texts
             for hit in OTHER_PROJECT.finditer(path.read_text(encoding="utf-8"))]
    assert found == []
