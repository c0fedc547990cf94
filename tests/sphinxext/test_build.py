"""What the extension keeps per document survives parallel and incremental builds.

Sphinx reads documents in parallel processes and merges what each kept,
and forgets what a changed document kept before reading it again: a store
that missed either would show a lesson's old facts, or fail a build for a
page already mended. Every store is a ByDocument, purged and merged by the
same two handlers.
"""

from __future__ import annotations

import typing as t
from types import SimpleNamespace

import aces.sphinxext.build as ext
from aces.sphinxext import pages
from aces.sphinxext.build import ByDocument

#: A store of an extension that builds on the package's (as the documentation's own do).
_another: t.Final = ByDocument[str]("aces_another_extensions")


def _filled(docnames: t.Iterable[str]) -> t.Any:
    """An environment where every store kept something for each of ``docnames``."""
    env: t.Any = SimpleNamespace()
    for store in ByDocument.made:
        for docname in docnames:
            store(env)[docname] = f"kept by {docname}"
    return env


def test_every_store_of_the_extensions_is_purged_and_merged() -> None:
    names = {store.name for store in ByDocument.made}
    assert {"aces_failures", pages.pages.name, _another.name} <= names


def test_a_document_read_again_forgets_what_it_kept_in_every_store() -> None:
    env = _filled(["lessons/try", "index"])
    ext._purge(t.cast("t.Any", None), env, "lessons/try")
    for store in ByDocument.made:
        assert store(env) == {"index": "kept by index"}, store.name


def test_a_parallel_reader_gives_what_it_kept_for_the_documents_it_read_only() -> None:
    env = _filled(["index"])
    other = _filled(["lessons/try", "lessons/finish", "index"])
    for store in ByDocument.made:
        store(other)["index"] = "an older reading"
    ext._merge(t.cast("t.Any", None), env, {"lessons/try"}, other)
    for store in ByDocument.made:
        assert store(env) == {"index": "kept by index", "lessons/try": "kept by lessons/try"}, \
            store.name


def test_a_store_is_made_empty_on_first_use_and_kept_with_the_environment() -> None:
    env: t.Any = SimpleNamespace()
    assert ext._failures(env) == {}
    ext.failed(env, "index", "aces-table: no such table")
    assert env.aces_failures == {"index": ["aces-table: no such table"]}
