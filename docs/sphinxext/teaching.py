"""What a teacher needs from a lesson page: its facts at the top, and the lessons in a table.

``.. aces-lesson::`` holds a lesson's facts as a field list, in a fixed order
(:data:`FIELDS`): for whom, how long, what it needs, what pupils should know
first, what they should learn and which competence aims of the Norwegian
curriculum it serves. The words are the page's own, so they are translated
with it. ``.. aces-lessons::`` on another page (the front page) becomes a
table of every lesson with its level, time and needs, read from those same
fields after the lessons were translated: the facts are written once.
"""

from __future__ import annotations

import typing as t

from docutils import nodes

from aces.i18n import translations
from aces.sphinxext.build import AcesDirective, ByDocument, failed, language, registered

if t.TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata

__all__ = ["FIELDS", "SHOWN", "LessonDirective", "LessonsDirective", "lessons_table", "setup"]

#: The fields of a lesson's facts, in order, as the English page names them.
FIELDS: t.Final = ("Level", "Time", "Needs", "Prerequisites", "Goals", "Competence aims")
#: The facts the table of lessons shows, beside the lesson's title.
SHOWN: t.Final = ("Level", "Time", "Needs")


def _key(field: str) -> str:
    return "aces-" + field.lower().replace(" ", "-")


class LessonDirective(AcesDirective):
    """``.. aces-lesson::`` with a field list: a lesson's facts, in a box at its top."""

    has_content = True

    def run(self) -> list[nodes.Node]:
        parsed = self.parse_content_to_nodes()
        lists = [node for node in parsed if isinstance(node, nodes.field_list)]
        if len(parsed) != 1 or len(lists) != 1:
            self.fail("the content must be one field list: " + ", ".join(FIELDS))
        fields = [t.cast("nodes.field", field) for field in lists[0].children]
        found = [field[0].astext() for field in fields]
        if tuple(found) != FIELDS:
            self.fail(f"the fields must be {', '.join(FIELDS)}, in that order;"
                      f" found {', '.join(found)}")
        for field, name in zip(fields, FIELDS, strict=True):
            field["classes"].append(_key(name))
            if name in SHOWN and list(field.children[1].findall(nodes.reference)):
                self.fail(f"{name}: the front page's table shows it, so it must be plain text")
        lists[0]["classes"].append("aces-lesson-facts")
        return [nodes.container("", lists[0], classes=["aces-lesson"])]


class lessons_table(nodes.General, nodes.Element):  # noqa: N801 (docutils names nodes so)
    """Where ``.. aces-lessons::`` stands, until every lesson's facts are known."""


class LessonsDirective(AcesDirective):
    """``.. aces-lessons::``: every lesson with its level, time and needs, as a table."""

    def run(self) -> list[nodes.Node]:
        _with_table(self.env)[self.env.docname] = True
        return [] if self.text_only else [lessons_table()]


#: Each lesson's facts, by field.
_facts: t.Final = ByDocument[dict[str, nodes.Element]]("aces_lessons")
#: The pages that show the table of lessons.
_with_table: t.Final = ByDocument[bool]("aces_with_lessons")


def _read(app: Sphinx, doctree: nodes.document) -> None:
    """Keep each lesson's facts, translated, for the table on another page."""
    env = app.env
    _facts(env).pop(env.docname, None)
    for box in doctree.findall(nodes.container):
        if "aces-lesson" not in box["classes"]:
            continue
        _facts(env)[env.docname] = {
            name: t.cast("nodes.Element", field.children[1].deepcopy())
            for field in box.findall(nodes.field)
            for name in FIELDS if _key(name) in field["classes"]}


def _outdated(app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str],
              removed: set[str]) -> list[str]:
    """A page with the table of lessons is rebuilt whenever a lesson is."""
    if set(_facts(env)) & (added | changed | removed):
        return sorted(set(_with_table(env)) - added - changed)
    return []


def _order(env: BuildEnvironment) -> list[str]:
    """The lessons in the order of the table of contents, then any others by name."""
    ordered: list[str] = []

    def walk(docname: str) -> None:
        for child in env.toctree_includes.get(docname, []):
            if child not in ordered:
                ordered.append(child)
                walk(child)

    walk(env.config.root_doc)
    lessons = _facts(env)
    return [name for name in ordered if name in lessons] + sorted(set(lessons) - set(ordered))


def _resolve(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Put the table of lessons where ``.. aces-lessons::`` asked for it."""
    from aces.sphinxext.build import table_node

    places = list(doctree.findall(lessons_table))
    if not places:
        return
    lessons = _order(app.env)
    if not lessons:
        failed(app.env, docname, "aces-lessons: no page has an aces-lesson directive")
    catalog = translations(language(app.config.language))
    _ = catalog.gettext
    # Translators: column headings of the table of lessons on the front page of the
    # documentation: the lesson's title, its school level, the time it takes, and
    # what the class needs (dice, computers, the package).
    header = (_("Lesson"), _("Level"), _("Time"), _("What you need"))
    table = table_node(header, [["", "", "", ""] for _lesson in lessons], stub=4,
                       classes=["aces-lessons"])
    for row, lesson in zip(table.findall(nodes.row), [None, *lessons], strict=False):
        if lesson is None:
            continue
        cells = list(row.findall(nodes.entry))
        title = app.env.titles[lesson].astext()
        link = nodes.reference("", title, internal=True,
                               refuri=app.builder.get_relative_uri(docname, lesson))
        cells[0].children = [nodes.paragraph("", "", link)]
        for cell, name in zip(cells[1:], SHOWN, strict=True):
            cell.children = _facts(app.env)[lesson][name].deepcopy().children
    for place in places:
        place.replace_self(table.deepcopy())


def setup(app: Sphinx) -> ExtensionMetadata:
    """Register the lesson facts and the table of lessons."""
    app.add_node(lessons_table)
    return registered(app, {"aces-lesson": LessonDirective, "aces-lessons": LessonsDirective},
                      events=[("doctree-read", _read), ("doctree-resolved", _resolve),
                              ("env-get-outdated", _outdated)])
