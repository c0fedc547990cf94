"""A stand-in for Windows' ``msvcrt`` locks, to run the log store's Windows path here.

``msvcrt.locking(fd, mode, nbytes)`` locks ``nbytes`` from the file's
current position. On Windows such a lock belongs to the handle: another
handle of the same file, in this process or another, is refused it with
``EACCES`` until it is unlocked. The stand-in keeps that rule in this
process (a dictionary of the bytes held, by file and offset) and records
every call in :data:`CALLS`, so a test can say where the store locked.

Importable as ``msvcrt`` by a test (``sys.modules["msvcrt"] = fakemsvcrt``),
or by a child process that puts this folder on its path.
"""

from __future__ import annotations

import errno
import os
import typing as t

LK_UNLCK: t.Final = 0
LK_LOCK: t.Final = 1
LK_NBLCK: t.Final = 2
LK_RLCK: t.Final = 3
LK_NBRLCK: t.Final = 4

#: ``(mode, offset)`` of every call, in order.
CALLS: list[tuple[int, int]] = []
#: The descriptor holding each byte locked, by ``(device, inode, offset)``.
_HELD: dict[tuple[int, int, int], int] = {}


def locking(fd: int, mode: int, nbytes: int) -> None:
    offset = os.lseek(fd, 0, os.SEEK_CUR)
    CALLS.append((mode, offset))
    found = os.fstat(fd)
    keys = [(found.st_dev, found.st_ino, offset + n) for n in range(nbytes)]
    if mode == LK_UNLCK:
        if any(_HELD.get(key) != fd for key in keys):
            raise PermissionError(errno.EACCES, "Permission denied")
        for key in keys:
            del _HELD[key]
        return
    if mode != LK_NBLCK:
        raise AssertionError(f"the store only locks without waiting, not in mode {mode}")
    if any(key in _HELD for key in keys):
        raise PermissionError(errno.EACCES, "Permission denied")
    for key in keys:
        _HELD[key] = fd
