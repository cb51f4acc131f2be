"""Copies of a league taken while the server writes it, and the checks any league file passes.

:func:`backup_league` copies with SQLite's online backup API in one step: the copy is read in
one read transaction of the WAL league, so it is the league as it stood at one commit, however
many submissions land meanwhile (a writer never waits for it). The copy is made under a
temporary name beside the output, turned into a one-file database (rollback journal, no
``-wal``), checked (:func:`check_league`), flushed to the disk and only then given its name,
which must be new: the backup is complete under its name or absent, and never replaces a file,
the league or one of the files SQLite keeps beside a database.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import sqlite3
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..safeio.safe_output import (DATABASE_COMPANIONS, TEMP_PREFIX, TEMP_SUFFIX, OutputError, check_target,
                                  refuse_input_as_output)
from .store import APPLICATION_ID, BUSY_TIMEOUT_MS, SCHEMA_VERSION, LeagueError, foreign_log_problem

# What a check counts, table by table, in the words it prints, one and many (a table an older
# schema lacks is left out).
COUNTED = (("entries", "entry", "entries"), ("logs", "stored log", "stored logs"),
           ("players", "player", "players"), ("challenges", "challenge run", "challenges run"),
           ("audit", "audit line", "audit lines"))
MOST_PROBLEMS = 5  # integrity_check's first lines; a damaged file can list thousands


@dataclass(frozen=True)
class LeagueCheck:
    """What :func:`check_league` found in one file: its schema version, the rows of each
    counted table, its size, and the problems (none for a sound league)."""

    path: str
    schema: int
    counts: dict[str, int] = field(default_factory=dict)
    size: int = 0
    problems: tuple[str, ...] = ()
    # What makes the file unsafe to open where it lies though the file itself may be sound: a
    # -wal beside it that is another file's (store.foreign_log_problem).
    beside: str | None = None

    @property
    def is_sound(self) -> bool:
        return not self.problems and self.beside is None

    def contents(self) -> str:
        """``"2,000 entries, 2,000 stored logs, 200 players, 1 challenge run, 3 audit lines"``"""
        return ", ".join(f"{self.counts[table]:,} {one if self.counts[table] == 1 else many}"
                         for table, one, many in COUNTED if table in self.counts)

    def size_text(self) -> str:
        """``"3.1 MB"``, ``"86 kB"``"""
        return f"{self.size / 1_000_000:.1f} MB" if self.size >= 100_000 else f"{self.size / 1000:.0f} kB"

    def text(self) -> str:
        """One line a person reads: what the file holds and whether it is sound."""
        schema = f"schema {self.schema}"
        if self.schema < SCHEMA_VERSION:
            schema += f" (this bgrid brings it to {SCHEMA_VERSION} when it opens it)"
        if self.problems:
            text = f"{self.path}: damaged: {'; '.join(self.problems)}"
        else:
            text = (f"{self.path}: a league, {schema}, {self.size_text()}; {self.contents()}; "
                    "SQLite's integrity check: ok")
        return text if self.beside is None else f"{text}; but not safe to open where it lies: {self.beside}"


def _read_only(path: Path, *, file_alone: bool = False) -> sqlite3.Connection:
    """A connection that can only read ``path``: nothing migrated, nothing created beside it
    but the ``-shm`` a WAL reader needs. A league in a folder the user may not write is read
    as an immutable file, but only when no ``-wal`` file holds commits that way of reading
    would miss. ``file_alone`` reads the file as an immutable one whatever lies beside it
    (a -wal that is another file's). Raises :class:`sqlite3.Error`."""
    uri = path.absolute().as_uri()
    queries = [] if file_alone else ["?mode=ro"]
    if file_alone or not os.path.exists(f"{path}-wal") or os.path.getsize(f"{path}-wal") == 0:
        queries.append("?mode=ro&immutable=1")
    for number, query in enumerate(queries, 1):
        conn = sqlite3.connect(uri + query, uri=True, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        try:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            conn.execute("PRAGMA application_id").fetchone()
            return conn
        except sqlite3.OperationalError:
            conn.close()
            if number == len(queries):
                raise
        except BaseException:
            conn.close()
            raise
    raise AssertionError("unreachable: the last open raised")


def _existing_file(path: Path) -> None:
    if path.is_dir():
        raise LeagueError(f"'{path}' is a folder, not a league: give the league's file")
    if not path.exists():
        raise LeagueError(f"no league at '{path}'")
    if not path.is_file():
        raise LeagueError(f"'{path}' is not a league: it is not a regular file "
                          "(a FIFO, a device or a socket)")


def check_league(path: str | os.PathLike) -> LeagueCheck:
    """Check any file as a league: SQLite's full ``integrity_check``, the league's mark and
    schema version, every entry with its stored log and every log with its entry; count the
    rows of each table. Reads only. Raises :class:`LeagueError` for a missing file or a folder;
    a file that is no league is answered with its problem."""
    path = Path(path)
    _existing_file(path)
    size = path.stat().st_size
    # Read the normal way, that -wal would be taken for the file's own: the file is read alone
    foreign = foreign_log_problem(path)
    try:
        conn = _read_only(path, file_alone=foreign is not None)
    except sqlite3.OperationalError as exc:  # a file SQLite cannot open at all
        raise LeagueError(f"cannot read '{path}': {exc}") from None
    except sqlite3.DatabaseError as exc:
        return LeagueCheck(str(path), 0, size=size, problems=(f"not a database ({exc})",), beside=foreign)
    try:
        return replace(_checked(conn, str(path), size), beside=foreign)
    finally:
        conn.close()


def _checked(conn: sqlite3.Connection, shown: str, size: int) -> LeagueCheck:
    try:
        application_id = conn.execute("PRAGMA application_id").fetchone()[0]
        schema = conn.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        return LeagueCheck(shown, 0, size=size, problems=(f"not a database ({exc})",))
    if application_id != APPLICATION_ID:
        return LeagueCheck(shown, schema, size=size,
                           problems=("not a league database (another program's SQLite file)",))
    if schema > SCHEMA_VERSION:
        return LeagueCheck(shown, schema, size=size, problems=(
            f"league schema version {schema}; this bgrid knows up to {SCHEMA_VERSION}: "
            "a newer bgrid wrote it",))
    problems: list[str] = []
    try:
        found = [row[0] for row in conn.execute(f"PRAGMA integrity_check({MOST_PROBLEMS})")]
    except sqlite3.DatabaseError as exc:
        found = [str(exc)]
    if found != ["ok"]:
        problems.append("SQLite's integrity check: " + "; ".join(found)[:300])
        return LeagueCheck(shown, schema, size=size, problems=tuple(problems))
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")}
    counts = {table: conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
              for table, _, _ in COUNTED if table in tables}
    if {"entries", "logs"} <= tables:
        missing = conn.execute("SELECT COUNT(*) FROM entries WHERE id NOT IN (SELECT entry_id FROM logs)")
        orphans = conn.execute("SELECT COUNT(*) FROM logs WHERE entry_id NOT IN (SELECT id FROM entries)")
        if (count := missing.fetchone()[0]):
            problems.append(f"{count} entries without their stored log")
        if (count := orphans.fetchone()[0]):
            problems.append(f"{count} stored logs without their entry")
    return LeagueCheck(shown, schema, counts, size, tuple(problems))


def backup_league(source: str | os.PathLike, out: str | os.PathLike) -> LeagueCheck:
    """Copy the league ``source`` to the new file ``out`` while it may be served, check the
    copy and return its check. Raises :class:`LeagueError` (the league cannot be read, or
    its copy fails the check: nothing is written) and :class:`OutputError` (``out`` exists,
    is the league or a companion file of a database, or cannot be written)."""
    source, out = Path(source), Path(out)
    _existing_file(source)
    refuse_input_as_output(out, "the backup", [source])
    if os.path.lexists(out):
        raise OutputError(f"will not write the backup '{out}': it exists, and a backup never replaces a "
                          "file; give a new name (e.g. one with the date), or remove it first")
    for suffix in DATABASE_COMPANIONS:
        if os.path.lexists(f"{out}{suffix}"):
            raise OutputError(f"will not write the backup '{out}': '{out}{suffix}' is there, a database's "
                              f"'{suffix}' file that SQLite would read into the copy; move it away first")
    check_target(out, "the backup")  # the folder exists and may be written
    try:
        conn = _read_only(source)
    except sqlite3.Error as exc:
        raise LeagueError(f"'{source}' is not a league database ({exc})") from None
    try:
        if conn.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
            raise LeagueError(f"'{source}' is not a league database (another program's SQLite file)")
        return _copy(conn, out, "the backup", lambda tmp: _name_new(tmp, out))
    except sqlite3.Error as exc:
        raise LeagueError(f"cannot copy the league '{source}': {exc}") from None
    finally:
        conn.close()


def _copy(conn: sqlite3.Connection, out: Path, what: str, name: Callable[[Path], None]) -> LeagueCheck:
    """Copy ``conn``'s database under a temporary name beside ``out``, check it, flush it and
    let ``name`` give it its name; whatever fails, no temporary file is left."""
    tmp = out.parent / f"{TEMP_PREFIX}{secrets.token_hex(6)}{TEMP_SUFFIX}"
    leftovers = [tmp] + [Path(f"{tmp}{suffix}") for suffix in DATABASE_COMPANIONS]
    named = False
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        os.close(fd)
        copy = sqlite3.connect(tmp, isolation_level=None)
        try:
            conn.backup(copy)  # every page in one step: one read transaction, one commit's league
            copy.execute("PRAGMA journal_mode = DELETE")  # one file: no -wal beside the copy
        finally:
            copy.close()
        checked = _checked_copy(tmp, out)
        with open(tmp, "rb+") as handle:
            os.fsync(handle.fileno())
        name(tmp)
        named = True
        _sync_folder(out.parent)
        return checked
    except OSError as exc:
        raise OutputError(f"cannot write {what} '{out}': {exc.strerror or exc}") from None
    finally:
        for path in leftovers if not named else leftovers[1:]:
            with contextlib.suppress(OSError):
                path.unlink()


def _checked_copy(tmp: Path, out: Path) -> LeagueCheck:
    try:
        conn = _read_only(tmp)
    except sqlite3.Error as exc:
        raise LeagueError(f"the copy cannot be read back ({exc}); nothing was written") from None
    try:
        checked = _checked(conn, str(out), tmp.stat().st_size)
    finally:
        conn.close()
    if not checked.is_sound:
        raise LeagueError(f"the copy fails its check, so the league itself may be damaged "
                          f"({'; '.join(checked.problems)}); nothing was written")
    return checked


def _name_new(tmp: Path, out: Path) -> None:
    """Give the finished copy its name, which must still be free (a hard link fails on an
    existing name; where the file system has none, a rename after one more look)."""
    appeared = OutputError(f"will not write the backup '{out}': it appeared while the copy was made")
    try:
        os.link(tmp, out)
    except FileExistsError:
        raise appeared from None
    except OSError:
        if os.path.lexists(out):
            raise appeared from None
        os.replace(tmp, out)
        return
    tmp.unlink()


def _sync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


# Every connection to a WAL league holds a read lock on these bytes while it is open (SQLite's
# PENDING, RESERVED and SHARED bytes, at 1 GiB: sqlite.org/lockingv3.html, os_unix.c)
_LOCK_BYTES = (0x40000000, 512)


@dataclass(frozen=True)
class Restored:
    """What :func:`restore_league` did: the check of the league now in place, and where the
    files it replaced were moved (the old league first, then its -wal, -shm, -journal)."""

    checked: LeagueCheck
    moved: tuple[tuple[str, str], ...] = ()


def restore_league(backup: str | os.PathLike, league: str | os.PathLike, *, now: str) -> Restored:
    """Put the backup ``backup`` in place as ``league``: checked first (:func:`check_league`),
    copied beside the league with SQLite's backup API and checked again, and only then named
    ``league``. The league it replaces and every companion file of it (``-wal``, ``-shm``,
    ``-journal``: SQLite would read a stale one into the copy) are moved aside together under
    ``LEAGUE.replaced-NOW``, never deleted. Refused while a connection has the league open (a
    running bgrid serve). ``now`` is the UTC stamp of the names moved aside.

    Raises :class:`LeagueError` and :class:`OutputError`; nothing is changed then."""
    backup, league = Path(backup), Path(league)
    _existing_file(backup)
    if league.exists() and os.path.samefile(backup, league):
        raise LeagueError(f"'{backup}' is the league '{league}' itself: give the backup to put in its place")
    checked = check_league(backup)
    if not checked.is_sound:
        raise LeagueError(f"will not restore '{backup}': {checked.text()}; the league was not changed")
    if os.path.islink(league):
        raise OutputError(f"will not restore over '{league}': it is a symbolic link; "
                          "give the file it leads to")
    if os.path.lexists(league) and not league.is_file():
        raise OutputError(f"will not restore over '{league}': it is not a regular file")
    if league.is_file():
        _refuse_in_use(league)
    else:
        check_target(league, "the league")  # the folder exists and may be written
    aside = _aside_name(league, now)
    try:
        conn = _read_only(backup)
    except sqlite3.Error as exc:
        raise LeagueError(f"cannot read the backup '{backup}': {exc}") from None
    moved: list[tuple[str, str]] = []
    try:
        checked = _copy(conn, league, "the league",
                        lambda tmp: moved.extend(_put_in_place(tmp, league, aside)))
    except sqlite3.Error as exc:
        raise LeagueError(f"cannot copy the backup '{backup}': {exc}") from None
    finally:
        conn.close()
    return Restored(checked, tuple(moved))


def _refuse_in_use(league: Path) -> None:
    if sys.platform == "win32":  # no POSIX locks; a file open there cannot be renamed, so the move refuses
        return
    import fcntl

    # This process has no connection to the league, so closing this descriptor ends no lock of SQLite's
    try:
        fd = os.open(league, os.O_RDWR | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise OutputError(f"will not restore over '{league}': {exc.strerror or exc}") from None
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, _LOCK_BYTES[1], _LOCK_BYTES[0])
    except OSError:
        raise LeagueError(f"will not restore over '{league}': it is in use (bgrid serve, or another bgrid "
                          "command, has it open); stop the server first, then restore") from None
    else:
        fcntl.lockf(fd, fcntl.LOCK_UN, _LOCK_BYTES[1], _LOCK_BYTES[0])
    finally:
        os.close(fd)


def _aside_name(league: Path, now: str) -> Path:
    """``league.db.replaced-20261205T131500Z``, with ``-2``, ``-3`` ... when that name or one
    of its companions is taken."""
    for number in range(1, 1000):
        aside = league.parent / f"{league.name}.replaced-{now}{'' if number == 1 else f'-{number}'}"
        if not any(os.path.lexists(f"{aside}{suffix}") for suffix in ("", *DATABASE_COMPANIONS)):
            return aside
    raise OutputError(f"will not restore over '{league}': 999 files named '{league.name}.replaced-{now}*' "
                      "are there already")


def _put_in_place(tmp: Path, league: Path, aside: Path) -> list[tuple[str, str]]:
    """Give the copy the mode and owner of the league it replaces, move the league and its
    companions aside (the league first: a league name that leads nowhere is refused by every
    open, while an old league without its -wal would be opened), then give the copy the
    league's name."""
    moved: list[tuple[str, str]] = []
    with contextlib.suppress(OSError):  # the server's user keeps its league (a restore run by root)
        replaced = os.stat(league)
        os.chmod(tmp, replaced.st_mode & 0o777)
        if (replaced.st_uid, replaced.st_gid) != (os.getuid(), os.getgid()):
            os.chown(tmp, replaced.st_uid, replaced.st_gid)
    try:
        for suffix in ("", *DATABASE_COMPANIONS):
            if os.path.lexists(f"{league}{suffix}"):
                os.rename(f"{league}{suffix}", f"{aside}{suffix}")
                moved.append((f"{league}{suffix}", f"{aside}{suffix}"))
        os.rename(tmp, league)
    except OSError as exc:
        done = "; ".join(f"'{old}' is now '{new}'" for old, new in moved) or "nothing was moved"
        raise OutputError(f"cannot put the backup in place as '{league}': {exc.strerror or exc} ({done}); "
                          "run the restore again once that is fixed") from None
    return moved
