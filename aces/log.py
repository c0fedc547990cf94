"""Reading and writing game logs: JSON Lines, one event a line, chained by digests.

Every line is one event object: a ``"seq"`` number (1, 2, 3... through the
whole file), a ``"digest"`` that chains the line to the one before it, then
the event's ``"type"`` and fields. A changed, removed or reordered line is
named by the first digest that does not fit (docs/log-format.rst has the
exact definition). A file holds one game or several in a row, each opening
with ``game_started``.

Reading is streamed and budgeted: a line may be at most :data:`LINE_LIMIT`
bytes and a file at most :data:`EVENT_LIMIT` events, so a broken or hostile
file costs bounded memory and time, and the first bad line stops the reader
with a :class:`~aces.errors.LogError` that names it. Logs of schema 1 (no
digests) are upgraded line by line through the chain :data:`UPCASTS`.

This module is the wire format, all of it: the envelope of a line
(:func:`envelope`), the digest and its width (:data:`DIGEST_WIDTH`),
reading, writing, and repairing a log whose last line was torn by a crash
(:func:`whole_length`). Everything else hands it events and takes events
back.

>>> import io
>>> from aces.events import Rolled
>>> out = io.BytesIO()
>>> writer = LogWriter(out)
>>> writer.write(Rolled(player="Ada", dice=(3, 5), stage="turn"))
>>> print(out.getvalue().decode())
{"seq":1,"digest":"c66aa8f48996bcaabbf07159b1b7659f","type":"rolled","player":"Ada","dice":[3,5],"stage":"turn"}
<BLANKLINE>
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import operator
import os
import typing as t

import msgspec

from aces.errors import LogError, OptionError, TruncatedLogError, shorten
from aces.events import EVENT_TYPES, SCHEMA, Event, GameExcluded, GameOver, GameStarted
from aces.files import read_at
from aces.upgrade import TYPES, UPCASTS, upcast

if t.TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

__all__ = ["BATCH", "DIGEST_WIDTH", "ENVELOPE_WIDTH", "EVENT_LIMIT", "LINE_LIMIT", "SCHEMAS",
           "Batch", "LogWriter", "Reader", "Record", "Tail", "digest", "envelope", "full_log",
           "lines_at", "milestones", "read", "resume", "seam", "shorten", "whole_length"]

#: The longest line read, in bytes, its newline included: far more than any
#: event needs (a header of a hundred long names), little enough to hold.
LINE_LIMIT: t.Final = 65_536
#: The most events read from one file: seven times a 20,000-game session,
#: about half a minute of ``aces verify``.
EVENT_LIMIT = 10_000_000
#: Schema versions this version of aces reads; the last is the one it writes.
SCHEMAS: t.Final = (*UPCASTS, SCHEMA)
#: The hexadecimal digits of a digest: BLAKE2b of 16 bytes, two digits a byte.
DIGEST_WIDTH: t.Final = 32
#: The bytes a line holds beyond its event's own, at the most: the sequence
#: number (ten digits, more than a reader counts to), the digest and the
#: newline; the line shares its opening brace with the event.
ENVELOPE_WIDTH: t.Final = len(b'"seq":1234567890,"digest":"",\n') + DIGEST_WIDTH

_TYPES: t.Final = frozenset(
    tag for cls in EVENT_TYPES if isinstance(tag := cls.__struct_config__.tag, str)
)
_EVENT: t.Final = msgspec.json.Decoder(Event)
_ENCODER: t.Final = msgspec.json.Encoder()
_BOM: t.Final = b"\xef\xbb\xbf"
_HEX: t.Final = frozenset("0123456789abcdef")
#: The bytes of distinct lines (but for their number and digest) whose
#: events a reader remembers, counting each twice, for the line and its
#: event: a log of many games repeats a few hundred short lines, and a log
#: of long lines must not fill the memory with them.
_CACHE_BUDGET: t.Final = 4 << 20
#: What remembering one line costs besides its bytes, roughly.
_ENTRY: t.Final = 256
_HASH: t.Final = hashlib.blake2b(digest_size=DIGEST_WIDTH // 2)
#: The lines a walk reads in one batch (:meth:`Reader.batches`): enough that
#: handing a batch on costs nothing beside its lines, few enough to hold.
BATCH = 512
#: The longest detail of a bad line quoted in an error.
_DETAIL: t.Final = 160
_tuple_new: t.Final = tuple.__new__


class Record(t.NamedTuple):
    """One event and the line it was read from."""

    line: int
    event: Event


class Tail:
    """Where a reader stopped: what an appender needs to carry the log on."""

    def __init__(self) -> None:
        #: The schema of the log; ``None`` until its first line is read.
        self.schema: int | None = None
        #: The number of the last line read whole and sound.
        self.seq = 0
        #: Its digest (:data:`DIGEST_WIDTH` hexadecimal digits as bytes; empty
        #: before any line).
        self.digest = b""
        #: Whether reading got to the end of the log: every line read sound,
        #: or all but a last line cut short (:attr:`torn`). A reader stopped
        #: anywhere else (a bad line, a walk that refused an event) has not.
        self.ended = False
        #: The number of a last line cut short while it was written (the
        #: reader refused it with :class:`~aces.errors.TruncatedLogError`).
        self.torn: int | None = None
        #: Where reading stood as it came to the line ``stop`` of
        #: :meth:`Reader.batches`: the number and digest of the line before,
        #: and the position in the file there (-1 where it cannot be told).
        self.stopped: tuple[int, bytes, int] | None = None


def digest(previous: bytes, line: bytes) -> bytes:
    """The digest of a line: BLAKE2b-128, in hexadecimal, over the previous
    line's digest and the line itself with its digest left empty.

    ``previous`` is empty for the first line of a file; ``line`` is the
    whole line, its newline included, with ``"digest":""``.

    >>> digest(b"", b'{"seq":1,"digest":"","type":"try_won","player":"Bo"}\\n')
    b'6bcb283ff31f8675f5e9bb3557cca03d'
    """
    h = _HASH.copy()
    h.update(previous)
    h.update(line)
    return h.hexdigest().encode()


class Batch(t.NamedTuple):
    """Lines of a log read in one go (:meth:`Reader.batches`), checked but
    not yet decoded."""

    #: The number of the first line.
    first: int
    #: One key for each line, from the first on: two lines with equal keys
    #: hold equal events (a line's bytes after its number and digest, say).
    keys: t.Sequence[t.Hashable]
    #: The event of the line ``keys[index]`` stands for, decoded as it is
    #: asked for: it raises the error that names a line not written as
    #: aces writes it (:func:`read`).
    event: t.Callable[[int], Event]


class Reader:
    """The records of a log, decoded one line at a time as they are asked for.

    An iterator of :class:`Record`; :meth:`pairs` gives plain ``(line,
    event)`` tuples, and :func:`aces.walk.walk` takes the lines a batch at
    a time (:meth:`batches`), keyed by their bytes, and decodes only those
    it has not met before. Either way the lines are read only as they are
    asked for, a batch's worth at a time, and :attr:`tail` says where
    reading stopped.
    """

    def __init__(self, lines: Iterable[bytes], source: str) -> None:
        self.source = source
        self.tail = Tail()
        #: The position in the file read, where it can be told.
        self._tell: t.Callable[[], int] | None = getattr(lines, "tell", None)
        readline = getattr(lines, "readline", None)
        if readline is not None:
            lines = iter(functools.partial(readline, LINE_LIMIT), b"")
        self._lines = iter(lines)
        self._batches: Iterator[Batch] | None = None
        self._pairs: Iterator[tuple[int, Event]] | None = None
        #: For a reader of the later part of a log (:func:`resume`): the
        #: number and digest of the line before its first.
        self._after: tuple[int, bytes] | None = None

    def __iter__(self) -> Reader:
        return self

    def __next__(self) -> Record:
        return _tuple_new(Record, next(self.pairs()))

    def pairs(self) -> Iterator[tuple[int, Event]]:
        """The same records, as plain tuples, from where reading has got to."""
        if self._pairs is None:
            self._pairs = _pairs(self._start(1))
        return self._pairs

    @property
    def started(self) -> bool:
        """Whether reading has begun (:meth:`batches` is only for a reader that has not)."""
        return self._batches is not None

    def batches(self, size: int | None = None, stop: int | None = None) -> Iterator[Batch]:
        """The lines of the log in batches of ``size`` (:data:`BATCH`), read as
        each batch is asked for, each line's number, digest and place in the chain checked.

        A bad line ends the batch before it: the lines before it are handed
        on first, and asking for the next batch raises the error that names
        it (:func:`read`). A line whose rest is not an event written as aces
        writes it raises its error when its event is asked for
        (:attr:`Batch.event`). Either way, whoever walks the batches in
        order meets every sound line before the first bad one, and none after.
        With ``stop``, a batch begins at that line: whoever walks the batches
        knows when every line before it is walked.
        """
        return self._start(BATCH if size is None else size, stop)

    def _start(self, size: int, stop: int | None = None) -> Iterator[Batch]:
        if self._batches is not None:
            raise RuntimeError("a log's reader reads its lines once")
        if self._after is None:
            self._batches = _read(self._lines, self.source, self.tail, size, stop, self._tell)
        else:
            number, previous = self._after
            self.tail.schema = SCHEMA
            self._batches = _read_current(self._lines, self.source, self.tail, size, number,
                                          previous, stop, None)
        return self._batches


def _pairs(batches: Iterator[Batch]) -> Iterator[tuple[int, Event]]:
    for first, keys, event in batches:
        for index in range(len(keys)):
            yield first + index, event(index)


class _Decoder:
    """The events of a log's lines, each distinct rest of a line (its bytes
    after the digest) decoded and checked once, then remembered."""

    __slots__ = ("_cache", "_held", "known", "source")

    def __init__(self, source: str) -> None:
        self.source = source
        self._cache: dict[bytes, Event] = {}
        #: Each rest decoded and kept, by itself: the reader hands on this
        #: one object for every line with the same rest, so that whoever
        #: looks lines up by their keys finds them by identity, at once.
        self.known: dict[bytes, bytes] = {}
        self._held = 0

    def events(self, first: int, rests: list[bytes],
               raws: list[bytes]) -> t.Callable[[int], Event]:
        """The events of a batch of lines, by their index in it."""

        def event(index: int) -> Event:
            rest = rests[index]
            found = self._cache.get(rest)
            if found is not None:
                return found
            number = first + index
            _, found = _decode_line(raws[index], _HEAD % number, self.source, number)
            if type(found) is not GameStarted:
                # Headers are one of a kind (their seeds differ): not kept.
                weight = 2 * len(rest) + _ENTRY
                self._held += weight
                if self._held > _CACHE_BUDGET:
                    self._cache.clear()
                    self.known.clear()
                    self._held = weight
                self._cache[rest] = found
                self.known[rest] = rest
            return found

        return event


def read(lines: Iterable[bytes], source: str) -> Reader:
    """Decode a log line by line, checking its shape and digests but not its rules.

    ``lines`` is a file opened in binary mode (read with a bounded
    ``readline``) or any iterable of raw lines. Sequence numbers must run 1,
    2, 3...; the first event must be a ``game_started``; every game of a
    file shares one schema, and none may be newer than this version reads.

    The reader decodes lazily: the errors come from iterating it.

    :raises ~aces.errors.TruncatedLogError: the last line stops part-way (a
        recorder resumes such a log, cutting the line off: :func:`whole_length`).
    :raises ~aces.errors.LogError: at the first line that is not sound.
    """
    return Reader(lines, source)


def resume(lines: Iterable[bytes], source: str, number: int, previous: bytes) -> Reader:
    """Read the lines of a log of the current schema that follow its line
    ``number``, of digest ``previous``, as :func:`read` reads them there: the
    later part of a log, read on its own (:mod:`aces.split`)."""
    reader = Reader(lines, source)
    reader._after = (number, previous)
    return reader


def _read(lines: Iterator[bytes], source: str, tail: Tail, size: int, stop: int | None,
          tell: t.Callable[[], int] | None) -> Iterator[Batch]:
    """The lines of a log in batches of ``size`` (see :meth:`Reader.batches`);
    the first line says its schema."""
    first = next(lines, None)
    if first is None:
        tail.ended = True
        return
    try:
        header = _parse_object(first, source, 1)
    except TruncatedLogError as exc:
        _torn(tail, exc)
    if header.get("type") != "game_started":
        raise LogError(source, 1, "a log must begin with a game_started event")
    schema = header.get("schema")
    if type(schema) is not int or schema not in SCHEMAS:
        _raise_schema(schema, source, 1)
    tail.schema = schema
    lines = itertools.chain((first,), lines)
    if schema != SCHEMA:
        # Keyed by the event as this version writes it, so that equal
        # events of an old log share a key as its lines cannot.
        for number, event in _read_old(lines, schema, source, tail):
            yield Batch(number, (_ENCODER.encode(event),), (event,).__getitem__)
        return
    yield from _read_current(lines, source, tail, size, 0, b"", stop, tell)


def _read_current(lines: Iterator[bytes], source: str, tail: Tail, size: int, number: int,
                  previous: bytes, stop: int | None,
                  tell: t.Callable[[], int] | None) -> Iterator[Batch]:
    """The lines of a log of the current schema in batches of ``size``, from
    the line after ``number``, whose digest is ``previous`` (see
    :meth:`Reader.batches`); a batch ends before the line ``stop``, and
    ``tail`` notes where reading stood there (``tell``: the file's position)."""
    # A line written as aces writes it is checked with one comparison of its
    # start and one hash, and joins the batch keyed by its rest (its bytes
    # after the digest), one object for every line with the same rest:
    # whoever walks the batch decodes only the rests it has not met before
    # (:class:`_Decoder`), and a full batch is handed on in one go.
    limit = EVENT_LIMIT
    decoder = _Decoder(source)
    known = decoder.known.get
    copy = _HASH.copy
    width = DIGEST_WIDTH
    head = _HEAD
    #: The last line of the batch that ends before ``stop`` (none: -1).
    seam = -1 if stop is None else stop - 1
    rests: list[bytes] = []
    raws: list[bytes] = []
    keep, hold = rests.append, raws.append
    #: The line that fills the batch, or the first past the limit.
    cut = _batch_end(number, size, limit, seam)
    take = itertools.islice
    try:
        # A batch of lines all written as aces writes them, the commonest
        # by far, is checked in one go, line by line in C: their numbers,
        # then their digests (:func:`_chain_fits`). Any other batch is read
        # line by line below, which names the first bad line.
        while True:
            if number == seam:
                tail.stopped = (number, previous, -1 if tell is None else tell())
            batch = list(take(lines, cut - number))
            if not batch:
                break
            count = len(batch)
            begin = number + 1
            prefixes = list(map(head.__mod__, range(begin, begin + count)))
            start = len(prefixes[0])
            if (number + count <= limit and len(prefixes[-1]) == start
                    and all(map(bytes.startswith, batch, prefixes))):
                digests = list(map(operator.itemgetter(slice(start, start + width)), batch))
                after = list(map(operator.itemgetter(slice(start + width, None)), batch))
                if _chain_fits(previous, prefixes, after, digests):
                    number += count
                    previous = digests[-1]
                    tail.seq, tail.digest = number, previous
                    # Each rest as the one object of its bytes, where there is one.
                    keys = t.cast("list[bytes]", list(map(known, after, after)))
                    yield Batch(begin, keys, decoder.events(begin, keys, batch))
                    cut = _batch_end(number, size, limit, seam)
                    continue
            for raw in batch:
                number += 1
                prefix = head % number
                start = len(prefix)
                rest = raw[start + width:]
                if not raw.startswith(prefix):
                    raw, _ = _decode_line(raw, prefix, source, number)
                    rest = raw[start + width:]
                h = copy()
                h.update(previous)
                h.update(prefix)
                h.update(rest)
                found = h.hexdigest().encode()
                if not raw.startswith(found, start):
                    # Name what else is wrong with the line first, if anything is
                    # (a last line that only lacks its newline is whole with one).
                    whole, _ = _decode_line(raw, prefix, source, number)
                    if whole == raw or not _digest_fits(previous, whole, prefix):
                        # Translators: an error of a log whose digests do not chain:
                        # the line, or the one before it, is not as it was written.
                        raise LogError(source, number, "the digest does not match: this line was"
                                       " changed after it was written, or the line before it is not"
                                       " the one it followed")
                    raw = whole
                    rest = raw[start + width:]
                    found = raw[start:start + width]
                if number < cut:
                    previous = found
                    keep(known(rest, rest))
                    hold(raw)
                    continue
                if number > limit:
                    _decode_line(raw, prefix, source, number)  # whatever else is wrong first
                    _raise_too_many(source, number, limit)
                previous = found
                keep(known(rest, rest))
                hold(raw)
                tail.seq, tail.digest = number, previous
                yield Batch(number + 1 - len(rests), rests, decoder.events(number + 1 - len(rests),
                                                                          rests, raws))
                rests, raws = [], []
                keep, hold = rests.append, raws.append
                cut = _batch_end(number, size, limit, seam)
    except LogError as exc:
        # The sound lines before the bad one go first; then the error.
        if rests:
            tail.seq, tail.digest = number - 1, previous
            yield Batch(number - len(rests), rests, decoder.events(number - len(rests), rests,
                                                                  raws))
        if isinstance(exc, TruncatedLogError):
            _torn(tail, exc)
        raise
    if rests:
        tail.seq, tail.digest = number, previous
        yield Batch(number + 1 - len(rests), rests, decoder.events(number + 1 - len(rests),
                                                                  rests, raws))
    tail.ended = True


def _batch_end(number: int, size: int, limit: int, seam: int) -> int:
    """The last line of the batch after line ``number``: ``size`` lines on,
    the first past the limit, or ``seam`` where the batch would go past it."""
    cut = min(number + size, limit + 1)
    return seam if number < seam < cut else cut


#: A digest from the bytes it is made of: the hash with its width, made in C.
_DIGEST_OF: t.Final = functools.partial(hashlib.blake2b, digest_size=DIGEST_WIDTH // 2)
_HEXDIGEST: t.Final = type(_HASH).hexdigest


def _chain_fits(previous: bytes, prefixes: list[bytes], rests: list[bytes],
                found: list[bytes]) -> bool:
    """Whether a run of lines, each its prefix, the digest ``found`` and its
    rest, chains on from the line of digest ``previous``: every line's digest
    that of the line before it and the line itself (:func:`digest`), all
    hashed and compared in C, with no Python call for each line."""
    # Each line's previous digest: the one before the run, then the run's
    # own but its last (zip stops with the prefixes).
    before = itertools.chain((previous,), found)
    made = map(_DIGEST_OF, map(b"".join, zip(before, prefixes, rests, strict=False)))
    return "".join(map(_HEXDIGEST, made)).encode() == b"".join(found)


def _digest_fits(previous: bytes, raw: bytes, prefix: bytes) -> bool:
    """Whether the digest of ``raw`` chains it to the line of digest ``previous``."""
    start = len(prefix)
    return digest(previous, prefix + raw[start + DIGEST_WIDTH:]) == raw[start:start + DIGEST_WIDTH]


def _torn(tail: Tail, error: TruncatedLogError) -> t.NoReturn:
    """Note in ``tail`` that the log ends in a line cut short, then refuse it."""
    tail.ended = True
    tail.torn = error.line
    raise error


def _decode_line(raw: bytes, prefix: bytes, source: str, number: int) -> tuple[bytes, Event]:
    """A line not seen before: checked in full, and decoded the slow way.

    Returns the line (with its newline, should a last line lack it) and its
    event, or raises the error that names what is wrong with it.
    """
    start = len(prefix)
    end = start + DIGEST_WIDTH
    rest = raw[end:]
    if not (raw.startswith(prefix) and rest.startswith(b'",') and rest.endswith(b"}\n")
            and _HEX.issuperset(raw[start:end].decode("latin-1"))
            and len(raw) < LINE_LIMIT):
        raw = _diagnose_v2(raw, source, number)
        rest = raw[end:]
    text = b"{" + rest[2:-1]
    event = _decode_event(text, source, number)
    if _ENCODER.encode(event) != text:
        _raise_not_canonical(raw, source, number)
    if type(event) is GameStarted and event.schema != SCHEMA:
        _raise_mixed(event.schema, SCHEMA, source, number)
    return raw, event


def _decode_event(text: bytes, source: str, number: int) -> Event:
    try:
        return _EVENT.decode(text)
    except msgspec.ValidationError as exc:
        _raise_invalid(text, source, number, exc)
    except msgspec.DecodeError:
        _raise_malformed(text, source, number)
    except RecursionError:
        _raise_nested(source, number)


def _diagnose_v2(raw: bytes, source: str, number: int) -> bytes:
    """Name what is wrong with a line off the fast path, or return it whole.

    A last line that lacks only its newline is sound: it comes back with one.
    """
    fields = _parse_object(raw, source, number)
    _check_seq(fields, source, number)
    _check_type(fields, source, number)
    content = {name: value for name, value in fields.items() if name not in ("seq", "digest")}
    try:
        event = msgspec.convert(content, Event)
    except msgspec.ValidationError as exc:
        _raise_invalid(_ENCODER.encode(content), source, number, exc)
    found = fields.get("digest")
    if found is None:
        # Translators: an error of a log of schema 2, each of whose lines has
        # a "digest" after its "seq"; keep the fields' names as they are.
        raise LogError(source, number, 'the line has no "digest"; every line of a schema'
                       ' {schema} log has one, after its "seq"', schema=SCHEMA)
    if not isinstance(found, str) or len(found) != DIGEST_WIDTH or not _HEX.issuperset(found):
        # Translators: an error of a log; keep "digest" as it is. {width}: how
        # many hexadecimal digits a digest has.
        raise LogError(source, number, 'the "digest" is not {width} lowercase hexadecimal'
                       ' digits', width=DIGEST_WIDTH)
    whole = raw if raw.endswith(b"\n") else raw + b"\n"
    if envelope(number, found.encode()) + _ENCODER.encode(event)[1:] + b"\n" != whole:
        _raise_not_canonical(raw, source, number)
    return whole


def _read_old(lines: Iterator[bytes], schema: int, source: str,
              tail: Tail) -> Iterator[tuple[int, Event]]:
    """An older schema: no digests, unknown fields ignored; every line is
    upgraded through the chain of :data:`UPCASTS`."""
    limit = EVENT_LIMIT
    for number, raw in enumerate(lines, start=1):
        if number > limit:
            _raise_too_many(source, number, limit)
        try:
            fields = _parse_object(raw, source, number)
        except TruncatedLogError as exc:
            _torn(tail, exc)
        _check_seq(fields, source, number)
        kind = _check_type(fields, source, number, TYPES[schema])
        found = fields.get("schema")
        if kind == "game_started" and (type(found) is not int or found != schema):
            _raise_mixed(found, schema, source, number)
        try:
            event = msgspec.convert(upcast(fields, schema), Event)
        except msgspec.ValidationError as exc:
            _raise_invalid(_ENCODER.encode(fields), source, number, exc)
        tail.seq = number
        yield number, event
    tail.ended = True


# -- In parts -------------------------------------------------------------------
# A log read on two cores (:mod:`aces.split`) is cut where a line begins a
# game. What is found here by the bytes alone is what the lines say of
# themselves, not yet checked: whoever reads a part on the strength of it
# checks it against the walk of the part before.

#: How much of a log is read at a time where it is read in parts.
_CHUNK: t.Final = 1 << 20
#: How far past where a log is to be cut a game's start is looked for.
_SEAM_WITHIN: t.Final = 8 << 20
#: A line's event type, where a line written as aces writes it has it.
_TYPE_AT: t.Final = b'","type":"'


def seam(fd: int, size: int, share: float = 0.5) -> tuple[int, int, bytes] | None:
    """Where a log of ``size`` bytes, open at ``fd``, may be cut in two: at
    the first line past ``share`` of it that begins a game, as the lines say.

    Returns the cut's offset, the number of the line before it and that
    line's digest; ``None`` if no such line is found soon after.
    """
    offset = middle = int(size * share)
    start = _TYPE_AT + b'game_started"'
    while offset < min(size, middle + _SEAM_WITHIN):
        chunk = read_at(fd, _CHUNK, offset)
        found = chunk.find(start)
        while found >= 0:
            begin = chunk.rfind(b"\n", 0, found) + 1
            before = chunk.rfind(b"\n", 0, max(0, begin - 1)) + 1
            if begin and before:
                place = _seam_of(chunk[before:begin], chunk[begin:found])
                if place is not None:
                    return (offset + begin, *place)
            found = chunk.find(start, found + 1)
        offset += len(chunk) - LINE_LIMIT if len(chunk) > LINE_LIMIT else len(chunk) or size
    return None


def _seam_of(before: bytes, head: bytes) -> tuple[int, bytes] | None:
    """The number and digest of the line ``before`` the one that begins with
    ``head`` (its bytes up to its type), if both are written as aces writes them."""
    mark = head.find(b',"digest":"')
    digits = head[7:mark]
    if not (head.startswith(b'{"seq":') and digits.isdigit() and len(digits) < 11
            and len(head) == mark + 11 + DIGEST_WIDTH):
        return None
    number = int(digits) - 1
    prefix = _HEAD % number
    found = before[len(prefix):len(prefix) + DIGEST_WIDTH]
    if number < 1 or not before.startswith(prefix) or not _HEX.issuperset(found.decode()):
        return None
    return number, found


def milestones(fd: int, end: int) -> Iterator[Event]:
    """The starts, ends and exclusions of games on the lines of the log open
    at ``fd`` before the offset ``end``, in order, as the lines say.

    :raises ValueError: where they cannot say all that the walk of those lines
        carries to the next game: a roll taken back among them, or a line of
        one of these kinds that cannot be read.
    """
    offset = 0
    rest = b""
    games = _TYPE_AT + b"game_"
    undone = _TYPE_AT + b"roll_undone"
    while offset < end:
        chunk = rest + read_at(fd, min(_CHUNK, end - offset), offset)
        if len(chunk) == len(rest):
            raise ValueError("the log is shorter than it was")
        offset += len(chunk) - len(rest)
        cut = chunk.rfind(b"\n") + 1 if offset < end else len(chunk)
        chunk, rest = chunk[:cut], chunk[cut:]
        if len(rest) > LINE_LIMIT or undone in chunk:
            raise ValueError("a line too long, or a roll taken back")
        found = chunk.find(games)
        while found >= 0:
            begin = chunk.rfind(b"\n", 0, found) + 1
            stop = chunk.find(b"\n", found) + 1 or len(chunk)
            line = chunk[begin:stop]
            mark = line.find(b',"digest":"') + 11 + DIGEST_WIDTH
            if mark == found - begin:
                event = _EVENT.decode(b"{" + line[mark + 2:].removesuffix(b"\n"))
                if type(event) not in (GameStarted, GameOver, GameExcluded):
                    raise ValueError("not a game's start, end or exclusion")
                yield event
            found = chunk.find(games, stop)


def lines_at(fd: int, offset: int) -> Iterator[bytes]:
    """The lines of the log open at ``fd`` from ``offset`` on, read in large
    chunks at their own offset (the file's own is left as it is).

    :raises ValueError: at a carriage return or a line too long to read:
        lines a walk of a part does not read as :func:`read` would.
    """
    rest = b""
    while chunk := read_at(fd, _CHUNK, offset):
        offset += len(chunk)
        chunk = rest + chunk
        cut = chunk.rfind(b"\n") + 1
        rest = chunk[cut:]
        if len(rest) > LINE_LIMIT or b"\r" in chunk:
            raise ValueError("a line too long, or a carriage return")
        yield from chunk[:cut].splitlines(keepends=True)
    if rest:
        yield rest


# -- Naming what is wrong -----------------------------------------------------


def _parse_object(raw: bytes, source: str, number: int) -> dict[str, t.Any]:
    """A line as a JSON object, or the one-line error that says why it is not."""
    complete = raw.endswith(b"\n")
    if len(raw) > LINE_LIMIT or (len(raw) >= LINE_LIMIT and not complete):
        _raise_too_long(source, number)
    if number == 1 and raw.startswith(_BOM):
        # Translators: an error of a log saved by an editor that put a
        # byte-order mark (BOM) at its start.
        raise LogError(source, number, "the file begins with a byte-order mark; a log is UTF-8"
                       " without one")
    if raw.endswith(b"\r\n"):
        # Translators: an error of a log saved with Windows line ends.
        raise LogError(source, number, "the line ends in CR LF, a Windows line end; the lines"
                       " of a log end in LF alone")
    if not raw.strip():
        raise LogError(source, number, "the line is empty")
    try:
        fields = msgspec.json.decode(raw)
    except msgspec.ValidationError as exc:
        # Only a number too large for any field gets here.
        raise LogError(source, number, "invalid event: {detail}",
                       detail=_cut(exc, _DETAIL)) from None
    except msgspec.DecodeError:
        if not complete:
            # A last line that is whole JSON was not cut short, whatever
            # else is wrong with it.
            raise TruncatedLogError(
                source, number, "the last line stops part-way: the log was cut short"
            ) from None
        _raise_malformed(raw, source, number)
    except RecursionError:
        _raise_nested(source, number)
    if not isinstance(fields, dict):
        raise LogError(source, number, "this line is not a JSON object")
    return fields


def _check_seq(fields: dict[str, t.Any], source: str, number: int) -> None:
    seq = fields.get("seq")
    if type(seq) is not int:
        # Translators: an error of a log; keep "seq" as it is.
        raise LogError(source, number, 'the line has no sequence number ("seq"), a whole number')
    if seq != number:
        raise LogError(source, number, "the sequence number is {seq}, but {expected} comes next",
                       seq=_cut(seq), expected=number)


def _check_type(fields: dict[str, t.Any], source: str, number: int,
                known: frozenset[str] = _TYPES) -> str:
    kind = fields.get("type")
    if not isinstance(kind, str):
        # Translators: an error of a log; keep "type" as it is.
        raise LogError(source, number, 'the line has no event "type"')
    if kind not in known:
        raise LogError(source, number, "unknown event type {type!r}", type=_cut(kind))
    return kind


def _raise_invalid(text: bytes, source: str, number: int,
                   exc: msgspec.ValidationError) -> t.NoReturn:
    try:
        kind = msgspec.json.decode(text, type=dict[str, t.Any]).get("type")
    except (msgspec.DecodeError, RecursionError):
        kind = None
    if isinstance(kind, str) and kind not in _TYPES:
        raise LogError(source, number, "unknown event type {type!r}", type=_cut(kind)) from None
    raise LogError(source, number, "invalid event: {detail}", detail=_cut(exc, _DETAIL)) from None


def _raise_malformed(raw: bytes, source: str, number: int) -> t.NoReturn:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        # Translators: an error of a log with bytes that are not UTF-8 text.
        raise LogError(source, number, "the line is not UTF-8 text") from None
    raise LogError(source, number, "this line is not a JSON object") from None


def _raise_nested(source: str, number: int) -> t.NoReturn:
    # Translators: an error of a log line of lists in lists (or objects in
    # objects) thousands deep, which no event has.
    raise LogError(source, number, "the line nests values too deeply to be an event") from None


def _raise_too_long(source: str, number: int) -> t.NoReturn:
    # Translators: an error of a log. {limit}: the most bytes a line may hold.
    raise LogError(source, number, "the line is longer than {limit} bytes, the most a log line"
                   " may be", limit=LINE_LIMIT) from None


def _raise_too_many(source: str, number: int, limit: int) -> t.NoReturn:
    # Translators: an error of a log. {limit}: the most events read from one file.
    raise LogError(source, number, "the log holds more than {limit} events, the most aces reads"
                   " from one file", limit=limit)


def _raise_not_canonical(raw: bytes, source: str, number: int) -> t.NoReturn:
    repeated = _repeated_key(raw)
    if repeated is not None:
        # Translators: an error of a log line whose object has a key twice.
        raise LogError(source, number, "the key {key!r} appears twice in the line",
                       key=_cut(repeated))
    # Translators: an error of a log of schema 2, each of whose events aces
    # writes in exactly one way.
    raise LogError(source, number, "the line is not written the one way aces writes it"
                   " (spacing, order of fields or escapes differ)")


def _repeated_key(raw: bytes) -> str | None:
    found: list[str] = []

    def pairs(items: list[tuple[str, t.Any]]) -> dict[str, t.Any]:
        keys = [k for k, _ in items]
        if len(set(keys)) != len(keys) and not found:
            found.append(next(k for k in keys if keys.count(k) > 1))
        return dict(items)

    try:
        json.loads(raw, object_pairs_hook=pairs)
    except (ValueError, RecursionError):
        return None
    return found[0] if found else None


def _raise_schema(schema: object, source: str, number: int) -> t.NoReturn:
    if type(schema) is int and schema > SCHEMA:
        raise LogError(
            source,
            number,
            "this log uses schema {schema}, newer than this version of aces reads ({known});"
            " upgrade aces to read it",
            schema=_cut(schema),
            known=SCHEMA,
        )
    raise LogError(source, number, "unknown schema version {schema}", schema=_cut(repr(schema)))


def _raise_mixed(schema: object, first: int, source: str, number: int) -> t.NoReturn:
    if type(schema) is int and schema > SCHEMA:
        _raise_schema(schema, source, number)
    # Translators: an error of a log whose games are written in different
    # versions of the format. {schema}: this game's; {first}: the first game's.
    raise LogError(source, number, "this game is written in schema {schema}, but the log began"
                   " in schema {first}; a log keeps one schema", schema=_cut(repr(schema)),
                   first=first)


_cut = shorten


# -- Writing ------------------------------------------------------------------


def envelope(seq: int, digest: bytes = b"") -> bytes:
    """The start of every line, before the event's own fields.

    With the digest left empty it is what the digest is computed over.

    >>> envelope(7)
    b'{"seq":7,"digest":"",'
    """
    return _HEAD % seq + digest + b'",'


#: The envelope up to its digest, to be given the line's number.
_HEAD: t.Final = b'{"seq":%d,"digest":"'


def full_log() -> OptionError:
    """The error of a log that holds as many events as a reader reads."""
    # Translators: an error of "aces play" or "aces record" at a log that holds the most
    # events a log may; what was written before stays, and reads back.
    return OptionError("the log holds {limit} events, the most a log may hold, so it stops"
                       " here; play fewer games, or start a new log", limit=EVENT_LIMIT)


class LogWriter:
    """Appends events to a binary stream, numbering and chaining them as it goes.

    To carry on an existing log, give the number and digest of its last
    line (see :class:`Tail`).
    """

    def __init__(self, stream: t.BinaryIO | None, *, first_seq: int = 1,
                 previous: bytes = b"") -> None:
        self._stream = stream
        self._seq = first_seq - 1
        self._digest = previous

    @property
    def written(self) -> int:
        """The sequence number of the last event written."""
        return self._seq

    @property
    def digest(self) -> bytes:
        """The digest of the last line written."""
        return self._digest

    def encode(self, events: Iterable[Event]) -> bytes:
        """The lines of ``events``, numbered and chained, as one block of bytes.

        The writer counts them as written: the caller writes the block, in
        one call, so that a crash cannot leave half of it behind.
        """
        return b"".join(map(self._encode, events))

    def _encode(self, event: Event) -> bytes:
        if self._seq >= EVENT_LIMIT:
            raise full_log()
        self._seq += 1
        body = b"%s\n" % _ENCODER.encode(event)[1:]
        self._digest = digest(self._digest, envelope(self._seq) + body)
        return envelope(self._seq, self._digest) + body

    def write(self, event: Event) -> None:
        assert self._stream is not None, "a writer without a stream only encodes"
        self._stream.write(self._encode(event))

    def write_all(self, events: Iterable[Event]) -> None:
        """Write events one by one, as they come: an error in the middle of
        ``events`` leaves every line before it written."""
        for event in events:
            self.write(event)


# -- Repairing ----------------------------------------------------------------


def whole_length(fd: int) -> int:
    """The length of the log open at ``fd`` without a torn last line.

    A crash while a line was written leaves part of it; that part holds no
    event (the reader refuses it with :class:`~aces.errors.TruncatedLogError`),
    so a recorder that carries the log on cuts the file to this length. Only
    the last :data:`LINE_LIMIT` bytes are read: no whole line is longer.
    """
    size = os.fstat(fd).st_size
    start = max(0, size - LINE_LIMIT - 1)
    end = read_at(fd, size - start, start).rfind(b"\n")
    return 0 if end < 0 else start + end + 1
