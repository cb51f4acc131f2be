"""The one way bgrid puts a file or a folder on disk: whole or not at all.

A file is written to a fresh temporary name in its own folder (random, ``O_EXCL``, never
through a symlink, as ``tempfile.mkstemp`` makes one), flushed to the disk and renamed over the
target, so a crash, an interrupt or a full disk never leaves a half file under the real
name, and the temporary file is removed on every way out. Only a regular file (or nothing)
is ever replaced: a symlink, a FIFO or a device named as an output is refused, not
clobbered. A folder (a mission pack) is built beside its target and renamed into place.

Every failure is an :class:`OutputError`, one line naming the path and the reason (the CLI
answers it with exit status 2).
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
import stat
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO

from ..rules.errors import BGridError

TEMP_PREFIX = ".bgrid-"
TEMP_SUFFIX = ".tmp"


class OutputError(BGridError):
    """An output that cannot or must not be written."""


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def _temp_name(folder: Path) -> str:
    """A fresh temporary name in ``folder``, naming this process (:func:`sweep_temporaries`).
    The caller records it before :func:`_create` makes the file: a signal raised as the file
    is created (Python runs handlers when a call returns) then still finds the name on the way
    out, where ``mkstemp`` would have lost it."""
    return str(folder / f"{_temp_prefix()}{secrets.token_hex(6)}{TEMP_SUFFIX}")


def _temp_prefix() -> str:
    return f"{TEMP_PREFIX}{os.getpid()}-"


# ``.bgrid-PID-RANDOM.tmp`` (a file, or a folder being filled); without PID, an older bgrid's
_TEMPORARY = re.compile(rf"{re.escape(TEMP_PREFIX)}(?:(\d+)-)?[0-9a-z_]+{re.escape(TEMP_SUFFIX)}")
# a temporary file of an older bgrid (no PID in its name) is left alone until it is this old
OLD_TEMPORARY_SECONDS = 3600


def _is_running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's process, or a platform that cannot ask
    return True


def sweep_temporaries(folder: str | os.PathLike) -> int:
    """Remove from ``folder`` the temporary files and folders that bgrid runs killed before
    they could clean up left there (SIGKILL, a power cut: no way out runs): those naming a
    process that is no longer running, and unnamed ones (an older bgrid's) over an hour old.
    A run still writing keeps its own. Returns how many were removed; never raises."""
    removed = 0
    try:
        entries = list(os.scandir(os.fspath(folder)))
    except OSError:
        return 0
    now = time.time()
    for entry in entries:
        found = _TEMPORARY.fullmatch(entry.name)
        if found is None:
            continue
        try:
            if found.group(1) is not None:
                if os.name != "posix" or _is_running(int(found.group(1))):
                    continue
            elif now - entry.stat(follow_symlinks=False).st_mtime < OLD_TEMPORARY_SECONDS:
                continue
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path)
            else:
                os.unlink(entry.path)
            removed += 1
        except OSError:
            continue
    return removed


def _create(tmp: str) -> int:
    """Create ``tmp`` for writing, as ``mkstemp`` does: new (``O_EXCL``), never through a
    symlink, readable by its owner only until it is complete."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    return os.open(tmp, flags, 0o600)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


# The files SQLite keeps beside an open database: replacing one loses committed data.
DATABASE_COMPANIONS = ("-wal", "-shm", "-journal")
SQLITE_MAGIC = b"SQLite format 3\x00"


def check_target(path: str | os.PathLike, what: str = "the output",
                 inputs: Iterable[str | os.PathLike] = ()) -> Path:
    """``path`` if it may be written: absent, or a regular file, in an existing folder, that
    is neither one of ``inputs``, nor standard input, nor a database or a database's
    companion file.

    Raises :class:`OutputError` for a folder, a symlink, a FIFO, a device or a socket (the
    rename would replace them by a file), a missing folder, and an output that is also an
    input (:func:`refuse_input_as_output`)."""
    text = os.fspath(path)
    if not str(text).strip():
        raise OutputError(f"{what} needs a file name")
    if text == "-":
        raise OutputError(f"{what} needs a file name: '-' (standard output) cannot be written "
                          "through a temporary file")
    if str(text).endswith(("/", os.sep)):
        raise OutputError(f"cannot write {what} '{text}': the name ends in '/', a folder; give a file name")
    path = Path(path)
    folder = path.parent
    try:
        is_folder = folder.is_dir()
    except OSError as exc:
        raise OutputError(f"cannot write {what} '{path}': {_reason(exc)}") from None
    if not is_folder:
        raise OutputError(f"cannot write {what} '{path}': the folder '{folder}' does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):  # the rename needs it even over an old file
        raise OutputError(f"cannot write {what} '{path}': no permission to write in the folder '{folder}'")
    refuse_database_companion(path, what, inputs)  # a new name too: SQLite would delete it
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        refuse_input_as_output(path, what, inputs)  # an input yet to be made (league init's league)
        return path
    except OSError as exc:
        raise OutputError(f"cannot write {what} '{path}': {_reason(exc)}") from None
    if stat.S_ISLNK(mode):
        raise OutputError(f"will not write {what} '{path}': it is a symbolic link; give the file it "
                          "points to, or another name")
    if stat.S_ISDIR(mode):
        raise OutputError(f"cannot write {what} '{path}': it is a folder; give a file name")
    if not stat.S_ISREG(mode):
        raise OutputError(f"will not write {what} '{path}': it is not a regular file "
                          "(a FIFO, a device or a socket)")
    refuse_input_as_output(path, what, inputs)
    return path


def refuse_input_as_output(path: str | os.PathLike, what: str,
                           inputs: Iterable[str | os.PathLike] = ()) -> None:
    """The one guard for "an input is also an output": refuse writing ``path`` when it is one
    of ``inputs`` (through links, '..', other spellings), the file standard input reads
    (``bgrid verify - --html a.log < a.log``), a SQLite database, or the write-ahead log,
    shared memory or journal of one (``LEAGUE.db-wal``: replacing it loses committed entries).

    Raises :class:`OutputError`."""
    for given in inputs:
        if is_same_file(path, given) or os.path.abspath(path) == os.path.abspath(given):
            raise OutputError(f"{what} '{path}' is one of the inputs; it would be replaced. "
                              "Give the output another name")
    refuse_database_companion(path, what, inputs)
    try:
        target = os.stat(path)
    except (OSError, ValueError):
        return  # a new file: neither standard input nor a database
    try:
        stdin = os.fstat(0)
    except OSError:
        stdin = None
    if stdin is not None and os.path.samestat(stdin, target):
        raise OutputError(f"{what} '{path}' is the file standard input reads; it would be replaced. "
                          "Give the output another name")
    if not stat.S_ISREG(target.st_mode):
        return
    try:
        with open(path, "rb") as fh:
            head = fh.read(len(SQLITE_MAGIC))
    except OSError:
        return
    if head == SQLITE_MAGIC:
        raise OutputError(f"will not write {what} '{path}': it is a SQLite database (a league?); "
                          "give the output another name")


def refuse_database_companion(path: str | os.PathLike, what: str,
                              inputs: Iterable[str | os.PathLike] = ()) -> None:
    """Refuse ``path`` when it names the write-ahead log, shared memory or journal of a
    database (``LEAGUE.db-wal``, ``-shm``, ``-journal``), whether that file exists yet or not:
    SQLite deletes or rewrites such a file at the database's next open, so what was written
    there is lost (an organiser key), or it takes the place SQLite needs (a folder, and the
    league no longer opens). A database is a name that exists, or one of ``inputs`` (the
    league ``league init`` is about to create).

    Raises :class:`OutputError`."""
    name = os.path.abspath(os.fspath(path))
    named = {os.path.abspath(os.fspath(given)) for given in inputs}
    for suffix in DATABASE_COMPANIONS:
        base = name[:-len(suffix)]
        if name.endswith(suffix) and (base in named or os.path.lexists(base) or os.path.lexists(name)):
            given = os.fspath(path)
            raise OutputError(f"will not write {what} '{given}': it is the '{suffix}' file of the "
                              f"database '{given[:-len(suffix)]}'; give the output another name")


def is_same_file(a: str | os.PathLike, b: str | os.PathLike) -> bool:
    """True when both paths name one existing file (through links, '..', other spellings)."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def refuse_inputs_as_outputs(outputs: dict[str, str | os.PathLike],
                             inputs: list[str | os.PathLike]) -> None:
    """Refuse an output path that is one of the inputs, before anything is read or written.

    ``outputs`` maps the option (``--html``) to its path. Raises :class:`OutputError`."""
    for option, out in outputs.items():
        refuse_input_as_output(out, option, inputs)


@contextlib.contextmanager
def open_atomic(path: str | os.PathLike, what: str = "the output", *,
                text: bool = True) -> Iterator[IO]:
    """A handle to write ``path`` through; the file appears whole when the block ends without
    an exception, and not at all otherwise. Raises :class:`OutputError`."""
    path = check_target(path, what)
    sweep_temporaries(path.parent)
    tmp = _temp_name(path.parent)
    done = False
    try:
        try:
            fd = _create(tmp)
        except OSError as exc:
            done = True  # nothing of ours to remove: the name may even be another's
            raise OutputError(f"cannot write {what} '{path}': {_reason(exc)}") from None
        with os.fdopen(fd, "w", encoding="utf-8", newline="") if text else os.fdopen(fd, "wb") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o666 & ~_umask())  # created 0600; an output is an ordinary file
        check_target(path, what)  # it may have become a symlink or a FIFO meanwhile
        os.replace(tmp, path)
        done = True
    except OSError as exc:
        raise OutputError(f"cannot write {what} '{path}': {_reason(exc)}") from None
    finally:
        if not done:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def write_atomic(path: str | os.PathLike, data: bytes | str, what: str = "the output") -> Path:
    """Write ``data`` (bytes, or text as UTF-8) to ``path`` whole or not at all; returns the path.

    Raises :class:`OutputError`."""
    with open_atomic(path, what, text=isinstance(data, str)) as handle:
        handle.write(data)
    return Path(path)


def write_batch(items: Iterable[tuple[str | os.PathLike, bytes | str]], what: str = "the output", *,
                batch: int = 100) -> int:
    """Write each ``(path, data)`` whole or not at all, as :func:`write_atomic` does, with one
    flush to the disk for up to ``batch`` files instead of one each: a batch's files are
    written under temporary names, made durable by one ``sync``, renamed into place, and
    their folders synced once. A kill at any point leaves each file whole or absent (under
    its real name) and no temporary file on the ways out Python sees. Returns how many files
    were written. Raises :class:`OutputError`."""
    pending: list[tuple[str, Path]] = []
    written = 0
    swept: set[Path] = set()

    def commit() -> None:
        nonlocal pending, written
        if not pending:
            return
        if len(pending) == 1:
            tmp, path = pending[0]
            with open(tmp, "rb+") as fh:
                os.fsync(fh.fileno())
        else:
            os.sync()  # every temporary file of the batch on the disk at once
        folders = set()
        for tmp, path in pending:
            check_target(path, what)  # it may have become a symlink or a FIFO meanwhile
            os.replace(tmp, path)
            folders.add(path.parent)
        done, pending = pending, []
        written += len(done)
        for folder in folders:
            _sync_folder(folder)

    try:
        for target, data in items:
            path = check_target(target, what)
            if path.parent not in swept:
                swept.add(path.parent)
                sweep_temporaries(path.parent)
            tmp = _temp_name(path.parent)
            pending.append((tmp, path))
            try:
                fd = _create(tmp)
            except OSError as exc:
                pending.pop()  # nothing of ours to remove: the name may even be another's
                raise OutputError(f"cannot write {what} '{path}': {_reason(exc)}") from None
            with os.fdopen(fd, "wb") as handle:
                handle.write(data.encode("utf-8") if isinstance(data, str) else data)
            os.chmod(tmp, 0o666 & ~_umask())
            if len(pending) >= batch:
                commit()
        commit()
    except OSError as exc:
        raise OutputError(f"cannot write {what}: {_reason(exc)}") from None
    finally:
        for tmp, _ in pending:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    return written


def _sync_folder(folder: Path) -> None:
    """Make the renames in ``folder`` durable (where the platform can open a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def make_folder(path: str | os.PathLike, what: str = "the output folder") -> Path:
    """``path`` as an existing folder, created with its parents if missing.

    Raises :class:`OutputError` when it is a file or a symlink, or cannot be created."""
    path = Path(path)
    if not str(path).strip():
        raise OutputError(f"{what} needs a folder name")
    for folder in (path, *path.parents):  # each folder mkdir would make, none a database's file
        if os.path.lexists(folder):
            break
        refuse_database_companion(folder, what)
    try:
        if path.is_symlink() and not path.is_dir():
            raise OutputError(f"will not write into {what} '{path}': it is a broken symbolic link")
        if path.exists() and not path.is_dir():
            raise OutputError(f"{what} '{path}' is a file, not a folder")
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create {what} '{path}': {_reason(exc)}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise OutputError(f"cannot write in {what} '{path}': permission denied")
    return path


@contextlib.contextmanager
def atomic_folder(target: str | os.PathLike, replaceable: Callable[[str], bool],
                  what: str = "the folder") -> Iterator[Path]:
    """A fresh folder beside ``target`` to fill; when the block ends without an exception it
    takes ``target``'s place, else it is removed. So ``target`` is always complete or absent.

    An existing ``target`` is replaced only when every entry in it is a regular file whose
    name ``replaceable`` accepts (an earlier run's output); anything else there is the
    user's, and the folder is refused. Raises :class:`OutputError`."""
    target = Path(target)
    make_folder(target.parent if str(target.parent) else Path("."), f"the folder of {what}")
    _check_replaceable(target, replaceable, what)
    sweep_temporaries(target.parent)
    try:
        tmp = Path(tempfile.mkdtemp(prefix=_temp_prefix(), suffix=TEMP_SUFFIX, dir=target.parent))
    except OSError as exc:
        raise OutputError(f"cannot write {what} '{target}': {_reason(exc)}") from None
    old = None
    try:
        yield tmp
        os.chmod(tmp, 0o777 & ~_umask())
        if os.path.lexists(target):
            _check_replaceable(target, replaceable, what)
            old = Path(tempfile.mkdtemp(prefix=_temp_prefix(), suffix=TEMP_SUFFIX, dir=target.parent))
            os.replace(target, old)  # onto the empty folder just made
        try:
            os.replace(tmp, target)
        except BaseException:
            if old is not None:
                os.replace(old, target)
                old = None
            raise
    except OSError as exc:
        raise OutputError(f"cannot write {what} '{target}': {_reason(exc)}") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)


def _check_replaceable(target: Path, replaceable: Callable[[str], bool], what: str) -> None:
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise OutputError(f"cannot write {what} '{target}': {_reason(exc)}") from None
    if not stat.S_ISDIR(mode):
        raise OutputError(f"will not replace '{target}' by {what}: it is not a folder")
    try:
        entries = list(os.scandir(target))
    except OSError as exc:
        raise OutputError(f"cannot write {what} '{target}': {_reason(exc)}") from None
    for entry in entries:
        if not (entry.is_file(follow_symlinks=False) and replaceable(entry.name)):
            raise OutputError(f"will not replace '{target}' by {what}: it holds '{entry.name}', "
                              "which bgrid did not write; move it away or choose another --out")
