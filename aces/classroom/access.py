"""The class's code, the groups' tokens and the teacher's secret; and guesses, limited.

The code admits to the class and is shown to everyone in the room, so it
is short and easy to type: six characters that cannot be mistaken for one
another (no 0 and O, no 1, I and L). Wrong codes are limited per device
(:class:`Guesses`), so that the code cannot be found by trying. A group's
token, and the teacher's secret, are never typed: 192 random bits each,
compared in constant time. The store keeps a token's digest, never the
token, so the folder of a class admits no one to a group.

>>> normal_code(" abc-23d ")
'ABC23D'
>>> len(new_code()), len(new_token()) >= 32
(6, True)
"""

from __future__ import annotations

import collections
import hashlib
import hmac
import secrets
import typing as t

from aces.errors import ClassError

__all__ = ["ALPHABET", "GUESSES", "WINDOW", "Guesses", "key_digest", "matches", "new_code",
           "new_token", "normal_code", "token_digest"]

#: The characters of a class code.
ALPHABET: t.Final = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
_LENGTH: t.Final = 6
#: Wrong codes (or tokens) a device may send within :data:`WINDOW` seconds.
GUESSES: t.Final = 10
WINDOW: t.Final = 60.0
#: Devices whose wrong guesses are counted at once; the oldest are forgotten.
_DEVICES: t.Final = 4096


def new_code() -> str:
    """A new class code."""
    return "".join(secrets.choice(ALPHABET) for _ in range(_LENGTH))


def normal_code(typed: str) -> str:
    """A code as typed, in capitals, without spaces or dashes."""
    return "".join(char for char in typed.upper() if not char.isspace() and char != "-")


def new_token() -> str:
    """A new unguessable token or secret, safe in an address."""
    return secrets.token_urlsafe(24)


def token_digest(token: str) -> str:
    """What a store keeps of a token: its SHA-256, in hexadecimal."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def key_digest(key: str) -> str:
    """What the school's server keeps of a teacher's key: its SHA-256, in
    hexadecimal, as of a token (:func:`token_digest`)."""
    return token_digest(key)


def matches(given: str, expected: str) -> bool:
    """Whether two codes, tokens or digests are the same, in constant time."""
    return hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))


class Guesses:
    """Wrong guesses by device, within a sliding window, in memory only.

    A device is named by its caller with a keyed digest (the server's own,
    never its address), and forgotten once its window has passed.

    >>> guesses = Guesses(limit=2, window=60.0)
    >>> guesses.wrong("device", 0.0); guesses.wrong("device", 1.0)
    >>> guesses.check("device", 2.0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    aces.errors.ClassError: too many wrong codes have come from this device; wait a minute, ...
    >>> guesses.check("device", 61.5)
    """

    def __init__(self, limit: int = GUESSES, window: float = WINDOW) -> None:
        self.limit = limit
        self.window = window
        self._seen: collections.OrderedDict[str, collections.deque[float]] = (
            collections.OrderedDict())

    def check(self, device: str, now: float) -> None:
        """Refuse a device that has guessed wrong too often of late.

        :raises ~aces.errors.ClassError: (``too_many_guesses``).
        """
        times = self._seen.get(device)
        if times is None:
            return
        while times and times[0] <= now - self.window:
            times.popleft()
        if not times:
            del self._seen[device]
            return
        if len(times) >= self.limit:
            # Translators: the live class refuses a device that has sent many
            # wrong class codes (or group tokens) in a short time.
            raise ClassError("too many wrong codes have come from this device; wait a minute,"
                             " then try again").coded("too_many_guesses")

    def wrong(self, device: str, now: float) -> None:
        """Count one wrong guess of ``device``."""
        times = self._seen.setdefault(device, collections.deque(maxlen=self.limit))
        times.append(now)
        self._seen.move_to_end(device)
        if len(self._seen) > _DEVICES:
            self._seen.popitem(last=False)
