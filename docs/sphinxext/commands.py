"""What the command line says, on the pages: a command's output, and the command reference.

``.. aces-output:: odds --players 3`` runs the command at build time, in
the build's language, and shows it below the command line that makes it.
``.. aces-commands::`` is the command reference, sphinx-click's pages in
the language of the build.

sphinx-click documents a click command from its help texts; this hands it
a copy of ``aces`` whose help is already translated (the same copy the
command line shows, :func:`aces.cli._language.translated`), with each
option's placeholder and its default as ``aces COMMAND --help`` shows
them (``0,99``, ``100 000`` on the Norwegian sites), then puts
sphinx-click's own few English words (its headings and notes) into the
build's language. The result is left out of the translation catalogs:
its words come from the package's catalog, not the documentation's.
"""

from __future__ import annotations

import shlex
import typing as t

from docutils import nodes
from docutils.parsers.rst import directives

from aces.sphinxext.build import AcesDirective, registered

if t.TYPE_CHECKING:
    import gettext

    import click
    from sphinx.application import Sphinx
    from sphinx.util.docutils import SphinxDirective
    from sphinx.util.typing import ExtensionMetadata

__all__ = ["CLI", "CommandsDirective", "OutputDirective", "placeholders", "reference", "setup"]

#: The command tree sphinx-click is documenting now (see :func:`reference`).
CLI: click.Command | None = None


def _words(catalog: gettext.NullTranslations) -> dict[str, str]:
    """sphinx-click's English headings and notes, in the catalog's language."""
    return {
        # Translators: a heading of the command reference in the documentation.
        "Usage": catalog.pgettext("command reference", "Usage"),
        # Translators: a heading of the command reference in the documentation.
        "Options": catalog.pgettext("command reference", "Options"),
        # Translators: a heading of the command reference in the documentation.
        "Arguments": catalog.pgettext("command reference", "Arguments"),
        # Translators: a heading of the command reference in the documentation.
        "Commands": catalog.pgettext("command reference", "Commands"),
        # Translators: the command reference: an argument that must be given.
        "Required argument": catalog.pgettext("command reference", "Required argument"),
        # Translators: the command reference: an argument that may be left out.
        "Optional argument": catalog.pgettext("command reference", "Optional argument"),
        # Translators: the command reference: an argument that may be given
        # several times, at least once (like LOG... of aces stats).
        "Required argument(s)": catalog.pgettext("command reference",
                                                 "Required argument(s)"),
        # Translators: the command reference: an argument that may be given
        # several times, or not at all.
        "Optional argument(s)": catalog.pgettext("command reference",
                                                 "Optional argument(s)"),
        # Translators: the command reference: an option that must be given.
        "Required": catalog.pgettext("command reference", "Required"),
        # Translators: a heading of the command reference: the environment
        # variables a command reads (ACES_STORE for --store, say).
        "Environment variables": catalog.pgettext("command reference",
                                                  "Environment variables"),
        # Translators: the command reference, before an option, under an
        # environment variable: the variable gives the option's value when
        # the option is not given. Keep the space at the end.
        "Provide a default for ": catalog.pgettext("command reference",
                                                   "Provide a default for "),
    }


def _labels(catalog: gettext.NullTranslations) -> dict[str, str]:
    """The labels of an option's fields, as Sphinx writes them, in the catalog's language."""
    return {
        # Translators: the command reference: the label before an option's default.
        "Default": catalog.pgettext("command reference", "Default"),
        # Translators: the command reference: the label before an option's allowed values.
        "Options": catalog.pgettext("command reference", "Allowed values"),
    }


def placeholders(tree: click.Command) -> click.Command:
    """Give every option that takes a value the placeholder its help shows.

    sphinx-click writes an option's metavar, or else the name of its Python
    parameter: ``--finish <finish>``, English on every site, where
    ``aces odds --help`` says ``--finish [last-chip|last-holder]``. Click
    chooses the same placeholder for the help (the type's, already in the
    catalog's language: ``--seed HELTALL``), so the reference and the help agree.
    """
    import click

    from aces.cli._language import commands

    for command in commands(tree):
        context = click.Context(command, info_name=command.name)
        for param in command.params:
            if (isinstance(param, click.Option) and param.metavar is None
                    and not (param.is_flag or param.count)):
                param.metavar = param.make_metavar(context)
    return tree


def _default(field: nodes.field) -> None:
    """An option's default as its help shows it (``[standard: pot]``), without
    the quotes of Python's repr that sphinx-click puts round a text (``'pot'``)."""
    for literal in field.findall(nodes.literal):
        text = literal.astext()
        if len(text) > 1 and text[0] == text[-1] == "'":
            literal.replace(literal.children[0], nodes.Text(text[1:-1]))


def reference(directive: SphinxDirective, lang: str) -> list[nodes.Node]:
    """Every command of ``aces``, documented by sphinx-click in ``lang``."""
    from docutils.statemachine import StringList

    from aces.cli import cli
    from aces.cli._language import speaking, translated
    from aces.i18n import translations

    # sphinx-click finds the tree by its import path.
    global CLI
    catalog = translations(lang)
    CLI = placeholders(translated(cli, catalog.gettext, lang))
    source, line = directive.get_source_info()
    text = StringList([f".. click:: {__name__}:CLI", "   :prog: aces",
                       f"   :nested: {directive.options.get('nested', 'full')}"],
                      source, items=[(source, line)] * 3)
    box = nodes.container(classes=["aces-commands"])
    with speaking(catalog):
        directive.state.nested_parse(text, directive.content_offset, box)
    words, labels = _words(catalog), _labels(catalog)
    for node in list(box.findall(nodes.Text)):
        parent = node.parent
        english = node.astext()
        if isinstance(parent, nodes.field_name):
            parent.replace(node, nodes.Text(labels.get(english, english)))
            if english == "Default" and isinstance(parent.parent, nodes.field):
                _default(parent.parent)
        elif english in words and isinstance(parent, (nodes.rubric, nodes.paragraph,
                                                      nodes.strong)):
            parent.replace(node, nodes.Text(words[english]))
    for element in box.findall(nodes.TextElement):
        # Already in the build's language: not a message for the documentation's catalog.
        element["translatable"] = False
    return [box]


class OutputDirective(AcesDirective):
    """``.. aces-output:: odds --players 3``: a command's output, run now, in the build's
    language, below the command line that makes it."""

    required_arguments = 1
    final_argument_whitespace = True

    def run(self) -> list[nodes.Node]:
        from click.testing import CliRunner

        from aces.cli import cli

        args = shlex.split(self.arguments[0])
        if self.lang != "en":
            args += ["--lang", self.lang]
        shown = "$ " + shlex.join(["aces", *args])
        if self.text_only:
            return []
        result = CliRunner().invoke(cli, args, env={"LANG": None, "LANGUAGE": None,
                                                    "LC_ALL": None, "LC_MESSAGES": None})
        if result.exit_code != 0:
            self.fail(f"{shown} failed ({result.exit_code}): {result.output.strip()}")
        text = f"{shown}\n{result.stdout.rstrip()}"
        block = nodes.literal_block(text, text, classes=["aces-output"])
        block["language"] = "text"
        return [block]


class CommandsDirective(AcesDirective):
    """``.. aces-commands::``: every command of ``aces``, by sphinx-click, in the
    build's language (the help texts come from the package's catalogs)."""

    option_spec: t.ClassVar[dict[str, t.Callable[[str], t.Any]]] = {
        "nested": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        if self.builder == "gettext":
            return []
        return reference(self, self.lang)


def setup(app: Sphinx) -> ExtensionMetadata:
    """Register ``.. aces-output::`` and ``.. aces-commands::`` (with sphinx-click's own)."""
    app.setup_extension("sphinx_click")
    return registered(app, {"aces-output": OutputDirective, "aces-commands": CommandsDirective})
