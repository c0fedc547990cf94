"""Click's own messages, as our catalog translates them.

Click writes its usage lines, help headings and parsing errors through
gettext (see :mod:`aces.cli._language`). These are the ones a user of
``aces`` can meet, copied exactly from click so that the lookup finds
them; the test suite checks that click still uses every one. Listing them
here puts them in the template with the package's own messages.
"""

from __future__ import annotations

import typing as t

from aces.errors import N_


def ngettext(singular: str, plural: str) -> tuple[str, str]:
    """Mark a message with a plural for extraction (a marker, translating nothing)."""
    return singular, plural


#: Click's messages with a plural whose two forms name different placeholders
#: (click fills in both), and the ones aces translates instead, with one
#: placeholder name in both forms as the catalogs require.
RENAMED: t.Final[dict[tuple[str, str], tuple[str, str]]] = {
    ("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)"):
        ("Did you mean {possibilities}?", "(Did you mean one of: {possibilities}?)"),
    ("Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments."):
        ("Option {name!r} requires {nargs} argument.",
         "Option {name!r} requires {nargs} arguments."),
    ("{value!r} is not {choice}.", "{value!r} is not one of {choices}."):
        ("{value!r} is not {choices}.", "{value!r} is not one of {choices}."),
}

#: Every message of click that aces translates, singular or with its plural.
MESSAGES: t.Final[tuple[str | tuple[str, str], ...]] = (
    # Translators: click's heading of a command's usage line, as in "Usage: aces
    # replay [OPTIONS] LOG".
    N_("Usage:"),
    # Translators: click's heading of the list of options in a command's help.
    N_("Options"),
    # Translators: click's heading of the list of commands in the help of aces.
    N_("Commands"),
    # Translators: click's help of the --help option.
    N_("Show this message and exit."),
    # Translators: click's help of the --version option.
    N_("Show the version and exit."),
    # Translators: what aces --version prints. Keep %(prog)s (the program's
    # name) and %(version)s (its version number) as they are.
    N_("%(prog)s, version %(version)s"),
    # Translators: click, in the help of an option: its default value.
    N_("default: {default}"),
    # Translators: click, in the help of an option: the option must be given.
    N_("required"),
    # Translators: click's prefix of an error line. {message}: the error.
    N_("Error: {message}"),
    # Translators: click, after a usage error. {command}: the command, like
    # "aces replay"; {option}: its help option, like "--help".
    N_("Try '{command} {option}' for help."),
    # Translators: click's error when the user gives no command to aces.
    N_("Missing command."),
    # Translators: click's error. {name}: the command the user typed, quoted.
    N_("No such command {name!r}."),
    # Translators: click's error. {name}: the option the user typed, quoted.
    N_("No such option {name!r}."),
    # Translators: click, after an unknown option or command: a suggestion.
    # {possibilities}: the closest known name, or several, as a list.
    ngettext("Did you mean {possibilities}?", "(Did you mean one of: {possibilities}?)"),
    # Translators: click's error: arguments the command does not take. {args}:
    # what was left over.
    ngettext("Got unexpected extra argument ({args})",
             "Got unexpected extra arguments ({args})"),
    # Translators: click's error. {param_name}: the missing parameter, like 'LOG'.
    N_("Missing parameter: {param_name}"),
    # Translators: click's error. {message}: why the value is refused.
    N_("Invalid value: {message}"),
    # Translators: click's error. {param_hint}: the option, like '--players';
    # {message}: why the value is refused.
    N_("Invalid value for {param_hint}: {message}"),
    # Translators: click's error. {name}: an option that takes no value.
    N_("Option {name!r} does not take a value."),
    # Translators: click's error. {name}: an option; {nargs}: how many values.
    ngettext("Option {name!r} requires {nargs} argument.",
             "Option {name!r} requires {nargs} arguments."),
    # Translators: click's error. {value}: what the user typed; {choices}: the
    # allowed value, or values as a list.
    ngettext("{value!r} is not {choices}.", "{value!r} is not one of {choices}."),
    # Translators: click's error. {value}: what the user typed; {number_type}:
    # the kind of number wanted, "integer" or "float", as translated below.
    N_("{value!r} is not a valid {number_type}."),
    # Translators: click's error. {value}: what the user typed; {range}: the
    # range allowed, like "x>=1".
    N_("{value} is not in the range {range}."),
    # Translators: click's error. {value}: what the user typed; {states}: the
    # words click understands as yes and no.
    N_("{value!r} is not a valid boolean. Recognized values: {states}"),
    # Translators: click's error. {filename}: a file; {message}: the system's reason.
    N_("Could not open file {filename!r}: {message}"),
    # Translators: click's message when the user interrupts a command (Ctrl-C).
    N_("Aborted!"),
)

#: Click's error for a required parameter left out, by the kind of parameter
#: (click's ``param_type``). Click puts its heading and the parameter's name
#: side by side in English order ("Missing option '--players'."); aces says
#: each as one message, so that a language orders the words as it does
#: («valget «--players» mangler»). The English is click's own.
MISSING: t.Final = {
    # Translators: a usage error: a required option was not given. {name}: the
    # option, quoted, like '--players' (the quotes become the language's own).
    "option": N_("Missing option {name}"),
    # Translators: a usage error: a required argument was not given. {name}:
    # its placeholder, quoted, like 'LOG'.
    "argument": N_("Missing argument {name}"),
    # Translators: a usage error: a required value was not given. {name}: the
    # parameter, quoted.
    "parameter": N_("Missing parameter {name}"),
}

#: Click's placeholders in usage lines and option lists: not gettext
#: messages in click, so :func:`aces.cli._language.translated` sets them.
METAVARS: t.Final = (
    # Translators: click, in a usage line: where the options go ("Usage: aces
    # replay [OPTIONS] LOG"). Keep the brackets; capitals are the custom.
    N_("[OPTIONS]"),
    # Translators: click, in the usage line of aces: a command and its arguments
    # go here. Keep the brackets and the dots; capitals are the custom.
    N_("COMMAND [ARGS]..."),
)

#: The placeholders aces gives its own arguments and options ("LOG", "NAMES|N"):
#: messages here so that :func:`aces.cli._language.translated` finds them in the
#: catalog, and a usage line or a "missing argument" error reads in one language.
PLACEHOLDERS: t.Final = (
    # Translators: in a usage line and an option list, the placeholder for a game
    # log, a JSON Lines file ("Usage: aces replay [OPTIONS] LOG"). Capitals.
    N_("LOG"),
    # Translators: the placeholder for one or more game logs ("aces stats LOG...").
    N_("LOG..."),
    # Translators: the placeholder of --players: names separated by commas, or a
    # number of players ("--players NAMES|N"). Keep the bar and the N.
    N_("NAMES|N"),
    # Translators: the placeholder for a number ("--players N").
    N_("N"),
    # Translators: the placeholder for the names of examples, which may be left
    # out ("aces examples [NAME]..."). Keep the brackets and the dots.
    N_("[NAME]..."),
    # Translators: the placeholder for a folder ("aces class serve DIR"). Capitals.
    N_("DIR"),
    # Translators: the placeholder for the address of a database or a web
    # page ("--store URL", "--public-url URL"). Capitals.
    N_("URL"),
    # Translators: the placeholder for the network address of a reverse proxy
    # ("--trusted-proxy ADDRESS"). Capitals.
    N_("ADDRESS"),
    # Translators: the placeholder for a class of a school's server, its
    # number or its code ("aces class export CLASS DIR"). Capitals.
    N_("CLASS"),
    # Translators: the placeholder for the label of a teacher ("aces class
    # teacher add LABEL"). Capitals.
    N_("LABEL"),
)

#: Click's names for the kinds of value an option takes, as its help shows
#: them ("--seed INTEGER"), by the name of click's type.
TYPE_METAVARS: t.Final = {
    # Translators: click, in an option's help: the option takes text. Capitals
    # are the custom for these placeholders.
    "text": N_("TEXT"),
    # Translators: click, in an option's help: the option takes a whole number.
    "integer": N_("INTEGER"),
    # Translators: click, in an option's help: a whole number within limits,
    # which the help shows after it (like x>=1).
    "integer range": N_("INTEGER RANGE"),
    # Translators: click, in an option's help: the option takes a decimal number.
    "float": N_("FLOAT"),
    # Translators: click, in an option's help: a decimal number within limits.
    "float range": N_("FLOAT RANGE"),
    # Translators: click, in an option's help: the option takes a file's name.
    "filename": N_("FILENAME"),
    # Translators: click, in an option's help: the option takes a file.
    "file": N_("FILE"),
    # Translators: click, in an option's help: the option takes a path.
    "path": N_("PATH"),
    # Translators: click, in an option's help: the option takes yes or no.
    "boolean": N_("BOOLEAN"),
}

#: Click's names for the kinds of number, as its error for a value that is
#: not one says them ("'x' is not a valid integer."), by the name of click's
#: type. A range is named by its kind of number: the help shows the range.
NUMBER_NAMES: t.Final = {
    # Translators: click, in the error "'x' is not a valid integer.": a whole
    # number. The word goes where {number_type} is in that error.
    "integer": N_("integer"),
    "integer range": N_("integer"),
    # Translators: click, in the error "'x' is not a valid float.": a decimal
    # number. The word goes where {number_type} is in that error.
    "float": N_("float"),
    "float range": N_("float"),
}
