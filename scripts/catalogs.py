"""Keep the message catalogs in step with the source: extract, update, check.

The one way to refresh the translations::

    .venv/bin/python scripts/catalogs.py extract   # locales/aces.pot from aces/
    .venv/bin/python scripts/catalogs.py update    # extract, then merge into each .po
    .venv/bin/python scripts/catalogs.py check     # fail if anything is out of step
    .venv/bin/python scripts/catalogs.py resolve   # in a merge: join both sides' catalogs

``update`` keeps every translation whose message is unchanged, adds new
messages untranslated (no fuzzy guesses: a changed message is a new one to
translate) and drops messages the code no longer uses; ``check`` then lists
what is left to translate. It fails on a template older than the source, a
message left untranslated in any language but English, a fuzzy entry, a
plural with a form missing, or a translation whose ``{placeholders}``
differ from its message's. English is the language of the source, so its
catalog may leave messages empty. A new language is a new catalog
(``pybabel init -D aces -i locales/aces.pot -d locales -l LANG``), checked
like the others from the moment it exists.

It does what ``pybabel extract -F babel.cfg --add-comments Translators: -k
Plural:1,2 -k NP_:1c,2 -k AcesError -k OptionError -k LogError:3 -k DiceFileError:3 ...``
(every error class of aces.errors) and ``pybabel update --no-fuzzy-matching`` would;
messages are sorted, locations carry no line numbers and name only the
package's own files (never click's, wherever the venv is), and the
template's date stays, so the files change only when a message does.
The test suite (tests/test_catalogs.py) runs the same checks.
"""

from __future__ import annotations

import argparse
import io
import re
import string
import subprocess
import sys
import typing as t
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

if t.TYPE_CHECKING:
    from collections.abc import Iterator

ROOT: t.Final = Path(__file__).resolve().parent.parent
# The command line's help is read from the package beside this script, not from
# whichever aces is installed: an unpacked sdist checks its own catalogs.
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
LOCALES: t.Final = ROOT / "locales"
TEMPLATE: t.Final = LOCALES / "aces.pot"
DOMAIN: t.Final = "aces"
#: The language of the source, whose catalog may leave messages empty; every
#: other language must translate every message.
SOURCE: t.Final = "en"
HEADER: t.Final = """\
# Messages of aces, the dice games, for translators.
# Copyright (C) 2026 The aces developers
# This file is distributed under the same license as the aces project.
#"""
#: The tag that marks a comment for translators in the source.
COMMENT_TAGS: t.Final = ("Translators:",)

#: Every call whose argument is a message: gettext's own functions, the
#: marks of aces.errors (``N_``, and ``NP_`` with a context), its plural
#: error messages (``Plural``), and every error class of aces.errors (see
#: :func:`error_keywords`).
GETTEXT_KEYWORDS: t.Final[dict[str, t.Any]] = {
    "N_": None,
    "NP_": ((1, "c"), 2),
    "Plural": (1, 2),
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
}


def error_keywords() -> dict[str, t.Any]:
    """The error classes, as extraction keywords: ``AcesError``, ``LogError:3``...

    An error takes its message first, or third when it is located in a
    file (after the file's name and the line number). Reading the classes
    from :mod:`aces.errors` means a new error class needs no change here.

    >>> keywords = error_keywords()
    >>> keywords["OptionError"], keywords["LogError"], keywords["DiceFileError"]
    (None, (3,), (3,))
    """
    from aces import errors

    return {name: (3,) if issubclass(cls, errors.LocatedError) else None
            for name, cls in vars(errors).items()
            if isinstance(cls, type) and issubclass(cls, errors.AcesError)}


def keywords() -> dict[str, t.Any]:
    """All extraction keywords."""
    return {**GETTEXT_KEYWORDS, **error_keywords()}




def extract(root: Path = ROOT) -> Catalog:
    """The template: every message of the package's source."""
    from aces import __version__

    catalog = Catalog(project="aces", version=__version__, domain=DOMAIN,
                      copyright_holder="The aces developers", fuzzy=False,
                      header_comment=HEADER)
    with (root / "babel.cfg").open(encoding="utf-8") as config:
        methods, options = parse_mapping_cfg(config, "babel.cfg")  # type: ignore[no-untyped-call]
    found = extract_from_dir(root, methods, options, keywords=keywords(),
                             comment_tags=COMMENT_TAGS)
    for filename, lineno, message, comments, context in found:
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments,
                    context=context)
    # The help texts of the commands and options, read from the command line itself.
    from aces.cli import cli
    from aces.cli._language import help_messages

    for message, where, module in help_messages(cli):
        catalog.add(message, None, [] if module is None else [(module, 0)],
                    auto_comments=[f"Translators: {where}."])
    return catalog


#: A ``%`` conversion with a name, the one kind of ``%`` placeholder among the
#: messages (click's ``%(prog)s``); everything else is formatted with ``str.format``.
NAMED_CONVERSION: t.Final = re.compile(r"%\([a-z_]+\)[a-z]")


def render(catalog: Catalog) -> bytes:
    """A catalog as the repository keeps it: sorted, no line numbers, no obsolete.

    Babel marks as ``python-format`` any message where a ``%`` is followed by
    something that could be a conversion: "95% interval" reads as ``% i``.
    Translators' tools (``msgfmt -c``, Poedit) then refuse a right translation,
    «95 %-konfidensintervall». Only the messages with a named conversion keep
    the mark, since no other message is ever formatted with ``%``.
    """
    for message in catalog:
        if not any(NAMED_CONVERSION.search(text) for text in forms(message.id)):
            message.flags.discard("python-format")
    out = io.BytesIO()
    write_po(out, catalog, width=96, sort_output=True, include_lineno=False,
             ignore_obsolete=True)
    return out.getvalue()


def catalog_paths(locales: Path = LOCALES) -> dict[str, Path]:
    """Each language's ``.po`` file, by language."""
    return {path.parent.parent.name: path
            for path in sorted(locales.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))}


def load(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=lang, domain=DOMAIN, abort_invalid=True)


def write_template(root: Path = ROOT) -> Catalog:
    """Extract the template and write it; its date stays when nothing else changed.

    The date is copied into every catalog by ``update``, so a new date on
    each run would change four files (and make merges conflict) when no
    message did.
    """
    template = extract(root)
    path = root / "locales" / "aces.pot"
    if path.exists():
        fresh = template.creation_date
        template.creation_date = load(path).creation_date
        if render(template) != path.read_bytes():
            template.creation_date = fresh
    path.write_bytes(render(template))
    return template


def update(root: Path = ROOT) -> None:
    """Extract the template and merge it into every language's catalog."""
    template = write_template(root)
    for lang, path in catalog_paths(root / "locales").items():
        catalog = load(path, lang)
        catalog.update(template, no_fuzzy_matching=True)
        path.write_bytes(render(catalog))


def unmerged(root: Path = ROOT) -> list[Path]:
    """The catalogs (``.po``, ``.pot``) that a merge left in conflict."""
    names = subprocess.run(["git", "diff", "--name-only", "--diff-filter=U"], cwd=root,
                           capture_output=True, text=True, check=True).stdout.split()
    return [root / name for name in names if name.endswith((".po", ".pot"))]


def _side(root: Path, path: Path, stage: int) -> Catalog | None:
    """One side of a conflicted catalog (2: ours, 3: theirs), or None if it lacks it."""
    shown = subprocess.run(["git", "show", f":{stage}:{path.relative_to(root).as_posix()}"],
                           cwd=root, capture_output=True, check=False)
    if shown.returncode != 0:
        return None
    return read_po(io.BytesIO(shown.stdout), domain=DOMAIN, abort_invalid=True)


def join(ours: Catalog, theirs: Catalog) -> tuple[Catalog, list[str]]:
    """Both sides' messages in one catalog, and the messages they translate apart.

    Two branches that each add messages conflict in the whole file (its date
    and its sorted entries); what each translated is kept. Where both sides
    translate one message differently, theirs (the branch merged in) stays,
    and the message is named so that a person can decide.
    """
    joined = theirs
    apart = []
    for message in ours:
        if not message.id:
            continue
        kept = joined.get(message.id, context=message.context)
        if kept is None:
            joined[message.id] = message
        elif not any(forms(kept.string)) and any(forms(message.string)):
            kept.string = message.string
        elif any(forms(message.string)) and forms(kept.string) != forms(message.string):
            apart.append(forms(message.id)[0])
    return joined, apart


def resolve(root: Path = ROOT) -> list[str]:
    """Join both sides of every conflicted catalog; the messages translated apart.

    Run ``update`` (and ``scripts/docs.py update`` for the documentation's
    catalogs) afterwards, so that the catalogs hold exactly the messages the
    merged source uses.
    """
    apart: list[str] = []
    for path in unmerged(root):
        ours, theirs = _side(root, path, 2), _side(root, path, 3)
        if ours is None or theirs is None:
            continue
        joined, differ = join(ours, theirs)
        path.write_bytes(render(joined))
        apart.extend(f"{path.relative_to(root)}: {msgid!r} is translated apart on the two"
                     " sides; theirs is kept" for msgid in differ)
    return apart


# -- Checks -------------------------------------------------------------------


def fields(text: str) -> set[str]:
    """The replacement fields of a ``str.format`` template, as written.

    >>> sorted(fields("{player} passes {count} chip {name!r} {{not}}"))
    ['{count}', '{name!r}', '{player}']
    """
    found = set()
    for _, name, spec, conversion in string.Formatter().parse(text):
        if name is not None:
            found.add("{" + name + (f"!{conversion}" if conversion else "")
                      + (f":{spec}" if spec else "") + "}")
    return found


def _key(message: t.Any) -> tuple[str | None, str, str | None, tuple[str, ...]]:
    ids = forms(message.id)
    plural = ids[1] if len(ids) > 1 else None
    return (message.context, ids[0], plural, tuple(message.auto_comments))


def messages(catalog: Catalog) -> set[tuple[str | None, str, str | None, tuple[str, ...]]]:
    """What a template says, without dates or locations: ids, plurals, contexts, comments."""
    return {_key(m) for m in catalog if m.id}


def stale_template(root: Path = ROOT) -> list[str]:
    """How the kept template differs from a fresh extraction of the source."""
    fresh = messages(extract(root))
    kept = messages(load(root / "locales" / "aces.pot"))
    return ([f"aces.pot lacks {m[1]!r} (context {m[0]!r})" for m in sorted(fresh - kept, key=str)]
            + [f"aces.pot still has {m[1]!r} (context {m[0]!r})"
               for m in sorted(kept - fresh, key=str)])


def forms(value: t.Any) -> tuple[str, ...]:
    """A message's id or string as a tuple: one form, or one per plural form."""
    if isinstance(value, (tuple, list)):
        return tuple(str(v or "") for v in value)
    return (str(value or ""),)


def one_alone(catalog: Catalog) -> bool:
    """Whether the language's first plural form is for the number 1 and no other.

    >>> one_alone(Catalog(locale="nb")), one_alone(Catalog(locale="fr"))
    (True, False)
    """
    from gettext import c2py

    form = c2py(catalog.plural_expr)
    return form(1) == 0 and not any(form(n) == 0 for n in range(1001) if n != 1)


def placeholders_fit(catalog: Catalog, wanted: set[str], form: int, text: str, *,
                     plural: bool) -> bool:
    """Whether a translation keeps its message's placeholders.

    Every form names exactly the message's fields, with one exception: in a
    language whose first plural form is for 1 alone, that form may leave out
    one of them, so that the count is written in words, gender and all
    («éin sjetong», «eitt ess»), as running text wants it.
    """
    found = fields(text)
    if found == wanted:
        return True
    return (plural and form == 0 and found < wanted and len(wanted - found) == 1
            and one_alone(catalog))


def translation_problems(lang: str, catalog: Catalog, template: Catalog) -> Iterator[str]:
    """Untranslated, fuzzy, missing or mismatched entries of one language."""
    expected = {(m.context, forms(m.id)[0]) for m in template if m.id}
    present = set()
    for message in catalog:
        if not message.id:
            continue
        ids = forms(message.id)
        strings = forms(message.string)
        present.add((message.context, ids[0]))
        where = f"{lang}: {ids[0]!r}"
        if message.fuzzy:
            yield f"{where} is fuzzy"
        if len(ids) > 1 and any(strings) and (not all(strings)
                                             or len(strings) != catalog.num_plurals):
            yield f"{where}: a plural form is missing"
            continue
        if not all(strings):
            if lang != SOURCE:
                yield f"{where} is not translated"
            continue
        wanted = set().union(*(fields(i) for i in ids))
        for number, text in enumerate(strings):
            if not placeholders_fit(catalog, wanted, number, text, plural=len(ids) > 1):
                yield (f"{where}: form {number} has {sorted(fields(text))},"
                       f" the message {sorted(wanted)}")
    for context, msgid in sorted(expected - present, key=str):
        yield f"{lang}: {msgid!r} (context {context!r}) is missing; run update"
    for context, msgid in sorted(present - expected, key=str):
        yield f"{lang}: {msgid!r} (context {context!r}) is no longer used; run update"


def problems(root: Path = ROOT) -> list[str]:
    """Everything ``check`` reports; empty when the catalogs are sound."""
    found = stale_template(root)
    template = load(root / "locales" / "aces.pot")
    for lang, path in catalog_paths(root / "locales").items():
        found.extend(translation_problems(lang, load(path, lang), template))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["extract", "update", "check", "resolve"])
    command = parser.parse_args(argv).command
    if command == "extract":
        write_template()
    elif command == "resolve":
        for line in resolve():
            print(line, file=sys.stderr)
    elif command == "update":
        update()
    else:
        found = problems()
        for problem in found:
            print(problem, file=sys.stderr)
        if found:
            return 1
        print("catalogs are complete and in step with the source")
    return 0


if __name__ == "__main__":
    sys.exit(main())
