"""Descriptors of league files this process reads beside SQLite, closed only when none of its
watched connections has that file open.

POSIX ends every lock a process holds on a file when the process closes *any* descriptor
of that file. SQLite defers its own closes for that reason; a descriptor opened beside it
(a connection's FileWatch, a read of the header) and closed while another connection of the
process is open would end that connection's SHARED lock on the league. Another process then
takes itself for the last connection when it closes, checkpoints and deletes the ``-wal``
this one is still writing to: commits answered 201 were lost that way (3 of 3 runs of the
kill-and-delete test when ``open_league`` read the header with ``open``/``close``).

So a descriptor given back here is kept, for the next user of the same file (device and
inode) or until the last one gives its own back; only then are they all closed.
"""

from __future__ import annotations

import os
import threading

_lock = threading.Lock()
# (device, inode) -> [descriptors in use, spare descriptors]
_files: dict[tuple[int, int], list] = {}


def take(path: str | os.PathLike) -> tuple[int, tuple[int, int]]:
    """A read-only descriptor of the file ``path`` names now, and its key for :func:`give_back`.
    Raises :class:`OSError` (no such file, not readable)."""
    with _lock:
        try:
            named = os.stat(path)
        except OSError:
            named = None
        if named is not None:
            key = (named.st_dev, named.st_ino)
            held = _files.get(key)
            if held is not None and held[1]:
                held[0] += 1
                return held[1].pop(), key
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    opened = os.fstat(fd)
    key = (opened.st_dev, opened.st_ino)
    with _lock:
        _files.setdefault(key, [0, []])[0] += 1
    return fd, key


def give_back(fd: int, key: tuple[int, int]) -> None:
    """Done with ``fd``: kept while another user of the file is left, else closed with the
    spares."""
    with _lock:
        held = _files[key]
        held[0] -= 1
        held[1].append(fd)
        if held[0] > 0:
            return
        del _files[key]
    for spare in held[1]:
        os.close(spare)


def kept() -> int:
    """How many descriptors are open here (in use and spare): for tests."""
    with _lock:
        return sum(held[0] + len(held[1]) for held in _files.values())
