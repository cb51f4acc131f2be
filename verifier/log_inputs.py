"""Reading the logs a command is given: files, folders of logs and standard input.

Folders come from strangers, so they are read defensively: symlinks inside a folder are not
followed, FIFOs and devices are never opened, and every entry that matches the pattern is
either read or listed as skipped with its reason. A log is read to at most one byte over the
verifier's cap (the verifier then says so). Names are shown through ``safe_text``.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..log.lexer import MAX_BYTES
from ..safeio.safe_text import display_name

LOG_SUFFIXES = (".log", ".txt")


class Unreadable(Exception):
    """An input that cannot be read at all (exit status 2)."""


@dataclass(frozen=True, slots=True)
class Input:
    """One log to verify: ``path`` as given or found ('-' is standard input), ``shown`` its
    safe display name; ``in_folder`` when it was found by listing a folder (then it is
    opened without following a symlink); ``skipped`` the reason it is not read at all."""

    path: str
    shown: str
    in_folder: bool = False
    skipped: str | None = None


def list_inputs(paths: Iterable[str]) -> tuple[list[Input], list[str]]:
    """The inputs in order, and the folders that could not be listed (one line each).

    A folder gives its entries named *.log or *.txt (any case), sorted, not recursive;
    a matching entry that is a symlink, a folder, a FIFO, a device or a socket is listed as
    skipped with the reason. Raises :class:`Unreadable` for a folder without any match."""
    out, failed = [], []
    for p in paths:
        if p == "-":
            out.append(Input("-", "<stdin>"))
        elif os.path.isdir(p):
            try:
                with os.scandir(p) as listing:
                    found = sorted((e for e in listing if e.name.lower().endswith(LOG_SUFFIXES)),
                                   key=lambda e: e.name)
            except OSError as exc:
                failed.append(f"{display_name(p)}: cannot list the folder ({exc.strerror or exc})")
                continue
            if not found:
                raise Unreadable(f"{display_name(p)}: the directory holds no *.log or *.txt file")
            out.extend(Input(e.path, display_name(e.path), True, _skip_reason(e)) for e in found)
        else:
            out.append(Input(p, display_name(p)))
    return out, failed


def _skip_reason(entry: os.DirEntry) -> str | None:
    """Why a folder entry is not read, or None for a regular file."""
    try:
        if entry.is_symlink():
            return "a symbolic link (not followed inside a folder; name the file itself to verify it)"
        if entry.is_dir(follow_symlinks=False):
            return "a folder, not a log"
        if not entry.is_file(follow_symlinks=False):
            return "not a regular file (a FIFO, a device or a socket)"
    except OSError as exc:
        return f"cannot be examined ({exc.strerror or exc})"
    return None


def read_input(item: Input) -> bytes:
    """The bytes of a log, at most one byte over the verifier's cap (it then says so)."""
    try:
        if item.path == "-":
            if sys.stdin is None:
                raise Unreadable("<stdin>: standard input is closed")
            return sys.stdin.buffer.read(MAX_BYTES + 1)
        if not item.in_folder:  # named by the user: a symlink or a FIFO (`<(...)`) is theirs to give
            with open(item.path, "rb") as fh:
                return _read_capped(fh.read, os.fstat(fh.fileno()).st_size)
        # Found in a folder: not through a symlink, and never block on a FIFO that replaced
        # the file since it was listed. Read through the descriptor itself: a file object
        # for it (os.fdopen) costs more than reading a log.
        fd = os.open(item.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        try:
            status = os.fstat(fd)
            if stat.S_ISDIR(status.st_mode):  # refused as a file object refuses it
                raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
            if not stat.S_ISREG(status.st_mode):
                raise Unreadable(f"{item.shown}: not a regular file")
            return _read_capped(lambda n: _read_fd(fd, n), status.st_size)
        finally:
            os.close(fd)
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        raise Unreadable(f"{item.shown}: cannot read the file ({reason})") from None


def _read_capped(read: Callable[[int], bytes], size: int) -> bytes:
    """The first ``MAX_BYTES + 1`` bytes that ``read`` gives (all of a log within the cap),
    asked for by the ``size`` the file had (0 for a pipe) and one byte more: a read of the
    cap at once allocates a 1 MiB buffer for a log of a few kilobytes, a twentieth of a
    folder's verification. A file that grew since is read on to the cap, so the bytes are the
    same. ``read(n)``: up to ``n`` bytes, fewer only at the end (a binary file's read)."""
    data = read(min(size, MAX_BYTES) + 1)
    if len(data) > size:
        data += read(MAX_BYTES + 1 - len(data))
    return data


def _read_fd(fd: int, n: int) -> bytes:
    """Up to ``n`` bytes of the file open as ``fd``, fewer only at its end, as a binary
    file's read gives them."""
    parts = []
    while n > 0:
        part = os.read(fd, n)
        if not part:
            break
        parts.append(part)
        n -= len(part)
    return b"".join(parts)
