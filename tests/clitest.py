"""What the command-line tests share: a locale that speaks English, the
check that an error is one line without a traceback, and a forged log.

Importable from every test module (pytest's ``pythonpath`` and mypy's
``mypy_path`` name this folder).
"""

from __future__ import annotations

import typing as t

if t.TYPE_CHECKING:
    from click.testing import Result

#: Every locale variable cleared but LANG=C, so that a run speaks English
#: whatever the machine's locale.
ENGLISH: t.Final[dict[str, str | None]] = {
    "LANGUAGE": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": "C"}


def one_line_error(result: Result) -> str:
    """The error of a failed run: one line on standard error, no traceback."""
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("aces: ")
    return lines[0]

#: Every locale variable unset, so that only what a test sets counts.
NO_LOCALE: t.Final[dict[str, str | None]] = {
    "LANGUAGE": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": None}

#: Worked example E1 of the rulings, one roll per line.
E1_DICE: t.Final = "2\n3\n5\n1 6\n3 5\n6 6\n1 1\n6 1\n4 1\n2 5\n6 6\n1 1\n3 4\n5 2\n"


def run(*args: str, input: str | bytes | None = None,
        env: dict[str, str | None] | None = None) -> Result:
    """``aces ARGS`` with no locale but what ``env`` sets."""
    from click.testing import CliRunner

    from aces.cli import cli

    return CliRunner().invoke(cli, list(args), input=input, env={**NO_LOCALE, **(env or {})})


def resigned(log: bytes) -> bytes:
    """``log`` with its digests made to fit again, as a careful forger would:
    what is left to catch it is the rules."""
    import io
    import json

    import msgspec

    from aces.events import Event
    from aces.log import LogWriter

    out = io.BytesIO()
    writer = LogWriter(out)
    for line in log.splitlines():
        fields = json.loads(line)
        del fields["seq"], fields["digest"]
        writer.write(msgspec.convert(fields, Event))
    return out.getvalue()
