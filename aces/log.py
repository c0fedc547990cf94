"""Reading and writing game logs: JSON Lines, one event a line.

Every line is one event object with a ``"seq"`` number (1, 2, 3... through
the whole file) and a ``"type"``. A file holds one game or several in a
row, each opening with ``game_started``. Reading is streamed: a log of a
million events is never held in memory, and the first bad line stops the
reader with a :class:`~aces.errors.LogError` that names it.

>>> import io
>>> out = io.BytesIO()
>>> writer = LogWriter(out)
>>> writer.write(Rolled(player="Ada", dice=(3, 5), stage="turn"))
>>> out.getvalue()
b'{"seq":1,"type":"rolled","player":"Ada","dice":[3,5],"stage":"turn"}\\n'
"""

from __future__ import annotations

import typing as t

import msgspec

from aces.errors import LogError, TruncatedLogError
from aces.events import EVENT_TYPES, SCHEMA, Event, GameStarted, Rolled

if t.TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

__all__ = ["LogWriter", "Record", "Rolled", "read"]

_TYPES: t.Final = frozenset(
    tag for cls in EVENT_TYPES if isinstance(tag := cls.__struct_config__.tag, str)
)


class _Envelope(msgspec.Struct):
    """What every line carries whatever its type: checked before the rest."""

    seq: int
    type: str


_ENVELOPE: t.Final = msgspec.json.Decoder(_Envelope)
_EVENT: t.Final = msgspec.json.Decoder(Event)
_ENCODER: t.Final = msgspec.json.Encoder()


class Record(t.NamedTuple):
    """One event and the line it was read from."""

    line: int
    event: Event


def read(lines: Iterable[bytes], source: str) -> Iterator[Record]:
    """Decode a log line by line, checking its shape but not its rules.

    ``lines`` is any iterable of raw lines, such as a file opened in binary
    mode. Sequence numbers must run 1, 2, 3...; the first event must be a
    ``game_started`` and no game may come from a newer schema.
    """
    expected = 1
    number = 0
    for number, raw in enumerate(lines, start=1):
        complete = raw.endswith(b"\n")
        try:
            envelope = _ENVELOPE.decode(raw)
            event = _EVENT.decode(raw)
        except msgspec.DecodeError as exc:
            # A last line that is whole JSON but a bad event was not cut short.
            if not complete and not isinstance(exc, msgspec.ValidationError):
                raise TruncatedLogError(
                    source, number, "the last line stops part-way: the log was cut short"
                ) from None
            if not raw.strip():
                raise LogError(source, number, "the line is empty") from None
            if isinstance(exc, msgspec.ValidationError):
                _raise_invalid(raw, source, number, exc)
            raise LogError(source, number, "this line is not a JSON object") from None
        if envelope.seq != expected:
            raise LogError(
                source,
                number,
                "the sequence number is {seq}, but {expected} comes next",
                seq=envelope.seq,
                expected=expected,
            )
        if expected == 1 and not isinstance(event, GameStarted):
            raise LogError(source, number, "a log must begin with a game_started event")
        if isinstance(event, GameStarted) and event.schema != SCHEMA:
            _raise_schema(event.schema, source, number)
        expected += 1
        yield Record(number, event)


def _raise_invalid(raw: bytes, source: str, number: int, exc: msgspec.ValidationError) -> None:
    try:
        kind = msgspec.json.decode(raw, type=dict[str, t.Any]).get("type")
    except msgspec.ValidationError:
        raise LogError(source, number, "this line is not a JSON object") from None
    if isinstance(kind, str) and kind not in _TYPES:
        raise LogError(source, number, "unknown event type {type!r}", type=kind) from None
    raise LogError(source, number, "invalid event: {detail}", detail=str(exc)) from None


def _raise_schema(schema: int, source: str, number: int) -> t.NoReturn:
    if schema > SCHEMA:
        raise LogError(
            source,
            number,
            "this log uses schema {schema}, newer than this version of aces reads ({known});"
            " upgrade aces to read it",
            schema=schema,
            known=SCHEMA,
        )
    raise LogError(source, number, "unknown schema version {schema}", schema=schema)


class LogWriter:
    """Appends events to a binary stream, numbering them as it goes."""

    def __init__(self, stream: t.BinaryIO, *, first_seq: int = 1) -> None:
        self._stream = stream
        self._seq = first_seq - 1

    @property
    def written(self) -> int:
        """The sequence number of the last event written."""
        return self._seq

    def write(self, event: Event) -> None:
        self._seq += 1
        body = _ENCODER.encode(event)
        self._stream.write(b'{"seq":%d,%s\n' % (self._seq, body[1:]))

    def write_all(self, events: Iterable[Event]) -> None:
        for event in events:
            self.write(event)
