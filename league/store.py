"""The league database: one SQLite file holding every submitted log and its verdict.

Safety, in SQLite's own terms:

- WAL journal and a busy timeout, so two ``submit`` runs at once both land (a writer waits
  for the other's transaction instead of failing);
- every write is one ``BEGIN IMMEDIATE`` … ``COMMIT`` transaction (one log, or one batch of
  logs): a process killed at any point leaves each log either fully recorded or absent, and
  a rerun records what is missing (a log already there is a duplicate, not a second row);
- ``synchronous=NORMAL``: a killed process loses nothing committed; a power cut may lose the
  last transactions but never leaves a half-written one;
- the schema version is ``PRAGMA user_version`` and ``MIGRATIONS`` brings an older file up
  to date in one transaction per step; ``PRAGMA application_id`` marks the file as a league;
- every query is parameterised.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import struct
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from ..rules.errors import BGridError
from ..safeio.safe_output import SQLITE_MAGIC
from . import held_files

APPLICATION_ID = 0x62677264  # "bgrd"
BUSY_TIMEOUT_MS = 60_000

# Each step takes the schema from version i to i + 1; a new step is appended, never edited.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE entries (
        id INTEGER PRIMARY KEY,
        verification_id TEXT NOT NULL UNIQUE,
        log_sha256 TEXT NOT NULL,
        source TEXT NOT NULL,
        player TEXT NOT NULL,
        player_from_file INTEGER NOT NULL,
        challenge TEXT,
        ruleset TEXT,
        difficulty TEXT,
        verdict TEXT NOT NULL,
        assurance TEXT,
        outcome TEXT,
        cause TEXT,
        score INTEGER,
        bunkers INTEGER,
        artillery INTEGER,
        damage INTEGER,
        claim_outcome TEXT,
        claim_score INTEGER,
        turns INTEGER NOT NULL,
        error_code TEXT,
        error_line INTEGER,
        error_message TEXT,
        submitted_at TEXT NOT NULL,
        bgrid_version TEXT NOT NULL
    );
    CREATE TABLE logs (
        entry_id INTEGER PRIMARY KEY REFERENCES entries (id),
        log BLOB NOT NULL
    );
    CREATE INDEX entries_by_bytes ON entries (log_sha256);
    CREATE INDEX entries_by_player ON entries (challenge, player);
    CREATE INDEX entries_by_verdict ON entries (verdict, challenge);
    """,
    # Each player's best valid entry on each challenge, kept as entries are recorded, so
    # that standings read one challenge's rows in rank order from an index, sorting nothing.
    """
    CREATE TABLE best (
        challenge TEXT NOT NULL,
        player TEXT NOT NULL,
        entry_id INTEGER NOT NULL REFERENCES entries (id),
        score INTEGER NOT NULL,
        turns INTEGER NOT NULL,
        submitted_at TEXT NOT NULL,
        PRIMARY KEY (challenge, player)
    );
    CREATE INDEX best_ranking ON best (challenge, score DESC, turns, submitted_at, entry_id);
    INSERT INTO best (challenge, player, entry_id, score, turns, submitted_at)
        SELECT challenge, player, id, score, turns, submitted_at FROM (
            SELECT *, ROW_NUMBER() OVER (PARTITION BY challenge, player
                                         ORDER BY score DESC, turns, submitted_at, id) AS pick
            FROM entries WHERE verdict = 'valid')
        WHERE pick = 1;
    """,
    # ``results`` replaces ``best``: one row per player and challenge with their attempts
    # and a copy of their best valid entry's columns, so that standings are one index scan
    # of one table (no join, no count per row); and unranked entries get an index in the
    # order they are listed.
    """
    CREATE TABLE results (
        challenge TEXT NOT NULL,
        player TEXT NOT NULL,
        attempts INTEGER NOT NULL,
        entry_id INTEGER REFERENCES entries (id),
        score INTEGER,
        turns INTEGER,
        submitted_at TEXT,
        outcome TEXT,
        damage INTEGER,
        verification_id TEXT,
        player_from_file INTEGER,
        PRIMARY KEY (challenge, player)
    );
    INSERT INTO results
        SELECT tried.challenge, tried.player, tried.attempts, entries.id, entries.score, entries.turns,
               entries.submitted_at, entries.outcome, entries.damage, entries.verification_id,
               entries.player_from_file
        FROM (SELECT challenge, player, COUNT(*) AS attempts FROM entries
              WHERE challenge IS NOT NULL GROUP BY challenge, player) AS tried
        LEFT JOIN best ON best.challenge = tried.challenge AND best.player = tried.player
        LEFT JOIN entries ON entries.id = best.entry_id;
    DROP TABLE best;
    CREATE INDEX results_ranking ON results (challenge, score DESC, turns, submitted_at, entry_id)
        WHERE entry_id IS NOT NULL;
    CREATE INDEX entries_unranked ON entries (challenge, player, submitted_at, id)
        WHERE verdict != 'valid';
    """,
    # The par of a challenge (``bgrid league par``): the solver's best score with the
    # version of the portfolio that found it, or one the organiser gave (portfolio NULL).
    """
    CREATE TABLE pars (
        challenge TEXT PRIMARY KEY,
        par INTEGER NOT NULL,
        portfolio INTEGER,
        set_at TEXT NOT NULL
    );
    """,
    # The league server (``bgrid serve``): registered players (a name unique under its
    # ``name_key``, the hash of their key), the challenges the league runs (window, attempts
    # policy), integrity flags with their evidence, an append-only audit log of the
    # organiser's actions, the organiser key's hash; entries may be withdrawn (with the
    # reason) and carry the digest of their plays alone (``league.integrity``).
    """
    CREATE TABLE players (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        name_key TEXT NOT NULL UNIQUE,
        key_hash TEXT NOT NULL UNIQUE,
        registered_at TEXT NOT NULL,
        disqualified TEXT
    );
    CREATE TABLE challenges (
        code TEXT PRIMARY KEY,
        opens TEXT NOT NULL,
        closes TEXT NOT NULL,
        attempts TEXT NOT NULL DEFAULT 'best'
    );
    CREATE TABLE flags (
        id INTEGER PRIMARY KEY,
        entry_id INTEGER NOT NULL REFERENCES entries (id),
        kind TEXT NOT NULL,
        evidence TEXT NOT NULL,
        raised_at TEXT NOT NULL,
        UNIQUE (entry_id, kind)
    );
    CREATE TABLE audit (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        action TEXT NOT NULL,
        target TEXT NOT NULL,
        reason TEXT NOT NULL
    );
    CREATE TRIGGER audit_append_only_update BEFORE UPDATE ON audit
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
    CREATE TRIGGER audit_append_only_delete BEFORE DELETE ON audit
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
    CREATE TABLE settings (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    ALTER TABLE entries ADD COLUMN withdrawn TEXT;
    ALTER TABLE entries ADD COLUMN play_sha256 TEXT;
    ALTER TABLE pars ADD COLUMN play_sha256 TEXT;
    CREATE INDEX entries_by_play ON entries (challenge, play_sha256) WHERE play_sha256 IS NOT NULL;
    """,
    # The table companion's phone face (``web/play.py``): the mission a player is playing, one
    # row a player and challenge, the log as the companion has written it so far, and what
    # the companion last said (JSON: the steps on paper, or the refusal).
    """
    CREATE TABLE companion_games (
        player INTEGER NOT NULL REFERENCES players (id),
        code TEXT NOT NULL,
        log TEXT NOT NULL,
        said TEXT NOT NULL DEFAULT '{}',
        updated_at TEXT NOT NULL,
        PRIMARY KEY (player, code)
    );
    """,
    # Beside the open-deck par, the blind benchmark (R42, ``bgrid league par --blind``): the
    # strong player's median score drawing blind, its runs and the median's 95% interval.
    """
    ALTER TABLE pars ADD COLUMN blind_median REAL;
    ALTER TABLE pars ADD COLUMN blind_runs INTEGER;
    ALTER TABLE pars ADD COLUMN blind_low INTEGER;
    ALTER TABLE pars ADD COLUMN blind_high INTEGER;
    """,
    # Signed-in browsers (``league.sessions``): the cookie holds a random token, the league its
    # hash and the hash of the key it was opened with, so that sign-out and a key change end it.
    """
    CREATE TABLE sessions (
        token_sha256 TEXT PRIMARY KEY,
        player INTEGER REFERENCES players (id),
        key_sha256 TEXT NOT NULL,
        opened_at TEXT NOT NULL
    );
    CREATE INDEX sessions_by_player ON sessions (player);
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)

# The columns of a recorded entry, in insertion order (all but id); its bytes go to ``logs``,
# a table of their own, so that ranking reads only the small rows.
COLUMNS = ("verification_id", "log_sha256", "source", "player", "player_from_file", "challenge",
           "ruleset", "difficulty", "verdict", "assurance", "outcome", "cause", "score", "bunkers",
           "artillery", "damage", "claim_outcome", "claim_score", "turns", "error_code", "error_line",
           "error_message", "submitted_at", "bgrid_version")
# ``play_sha256`` (the digest of the plays alone) is given by the server's submissions only.
_INSERT = (f"INSERT INTO entries ({', '.join(COLUMNS)}, play_sha256) "
           f"VALUES ({', '.join('?' * (len(COLUMNS) + 1))}) ON CONFLICT (verification_id) DO NOTHING")
_COUNT_ATTEMPT = ("INSERT INTO results (challenge, player, attempts) VALUES (:challenge, :player, 1) "
                  "ON CONFLICT (challenge, player) DO UPDATE SET attempts = attempts + 1")
# The standings order, named once: the higher score (R24), then fewer turns, then the earlier
# submission, then the lower entry number (two entries stored in the same second). The
# standings' ORDER BY (RANK_SQL), the result kept as a player's best (_KEEP_BEST, rank_key)
# and the season's choice of a player's best results all read it.
RANK_ORDER = (("score", "DESC"), ("turns", "ASC"), ("submitted_at", "ASC"), ("entry_id", "ASC"))
RANK_SQL = ", ".join(f"{column} DESC" if way == "DESC" else column for column, way in RANK_ORDER)


def _ranks_before(order: tuple[tuple[str, str], ...], this: str = ":", that: str = "") -> str:
    """SQL true when the result in the parameters (``:score`` …) ranks before the row's; or,
    with ``this`` and ``that`` as table prefixes (``"other."``), one row's before another's."""
    (column, way), *rest = order
    a, b = f"{this}{column}", f"{that}{column}"
    first = f"{a} {'>' if way == 'DESC' else '<'} {b}"
    return first if not rest else f"{first} OR {a} = {b} AND ({_ranks_before(tuple(rest), this, that)})"


_KEEP_BEST = f"""UPDATE results SET entry_id = :entry_id, score = :score, turns = :turns,
    submitted_at = :submitted_at, outcome = :outcome, damage = :damage,
    verification_id = :verification_id, player_from_file = :player_from_file
    WHERE challenge = :challenge AND player = :player AND (entry_id IS NULL
        OR {_ranks_before(RANK_ORDER)})"""


_PLACE = f"""SELECT 1 + (SELECT COUNT(*) FROM results AS other WHERE other.challenge = mine.challenge
        AND other.entry_id IS NOT NULL AND ({_ranks_before(RANK_ORDER, "other.", "mine.")})),
    (SELECT COUNT(*) FROM results WHERE challenge = mine.challenge AND entry_id IS NOT NULL), mine.entry_id
    FROM results AS mine WHERE mine.challenge = ? AND mine.player = ? AND mine.entry_id IS NOT NULL"""


def place_of(conn: sqlite3.Connection, challenge: str, player: str) -> dict | None:
    """Where ``player``'s counted result stands in ``challenge``'s standings, in the standings'
    order (RANK_ORDER): ``{"rank": 3, "of": 12, "entry": 17}``, or None when they have none.
    Counted in SQL from the results' index: a receipt need not build the whole table."""
    row = conn.execute(_PLACE, (challenge, player)).fetchone()
    return None if row is None else {"rank": row[0], "of": row[1], "entry": row[2]}


_RESULT_KEYS = ("challenge", "player", "score", "turns", "submitted_at", "outcome", "damage",
                "verification_id", "player_from_file")


class LeagueError(BGridError):
    """A league file that is missing, not a league, or from a newer bgrid."""


class LeagueFileChanged(LeagueError):
    """The league file a connection opened is no longer the file under its name (removed,
    replaced, truncated): nothing more is written through that connection (a server answers
    503). ``problem`` is what happened to the file, without what it means for this write."""

    def __init__(self, problem: str, after: str) -> None:
        super().__init__(f"{problem}: {after}. See what happened to the file (restore it from a backup "
                         "if need be), then open the league again (restart the server)")
        self.problem, self.after = problem, after

    def __reduce__(self) -> tuple[type[LeagueFileChanged], tuple[str, str]]:
        return type(self), (self.problem, self.after)  # args holds the message, not these two


def failure_text(exc: sqlite3.Error) -> str:
    """What a database failure means, in plain words: a full disk and a read-only file are
    said as such, anything else as SQLite says it."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None and code & 0xFF == sqlite3.SQLITE_FULL:
        return "the disk is full: nothing of this write was kept; free some space and try again"
    if code is not None and code & 0xFF == sqlite3.SQLITE_READONLY:
        return ("the league file is read-only (a read-only disk or folder, or another user's file): "
                "nothing was written")
    return str(exc)


# A SQLite file's first 100 bytes: the magic, the page size (offset 16, big-endian; 1 means
# 65536), the change counter (24), the size in pages (28), valid when the counter is repeated
# at offset 92 (sqlite.org/fileformat.html, 1.3).
_HEADER = struct.Struct(">16sH6xI I60xI4x")
_WAL_HEADER_BYTES = 32  # a -wal file this long holds no frame (sqlite.org/fileformat.html, 4.1)


class FileWatch:
    """The league file a connection opened, held open by its own descriptor: whether the
    name still leads to it (device and inode), whether it still has a name at all (its link
    count), and whether it is still as long as its header says (a truncation)."""

    def __init__(self, path: Path) -> None:
        self.shown = path  # as the user named it; the watch itself holds the absolute path
        self.path = Path(os.path.abspath(path))
        # from held_files: closing a descriptor of its own would end the process's locks on the file
        self.fd, self._key = held_files.take(path)
        opened = os.fstat(self.fd)
        self.device, self.inode = opened.st_dev, opened.st_ino
        self.largest = opened.st_size

    def problem(self) -> str | None:
        """What changed, in one line naming the file, or None while it is the file opened."""
        held = os.fstat(self.fd)
        try:
            named = os.stat(self.path)
        except OSError:
            named = None
        if held.st_nlink == 0 or named is None:
            return (f"the league file '{self.shown}' was removed while in use"
                    + ("" if named is None else ", and another file put under its name"))
        if (named.st_dev, named.st_ino) != (self.device, self.inode):
            return (f"the league file '{self.shown}' is another file than the one opened (moved or "
                    "replaced while in use)")
        return self._truncation(held.st_size)

    def _truncation(self, size: int) -> str | None:
        """Whether the file was cut: shorter than 100 bytes or without its magic, shorter than
        this watch has seen it (a league is never vacuumed, so it never shrinks while open),
        or short of its header's size while no write-ahead log holds the missing pages. In WAL
        mode a file short of its header is normal while the ``-wal`` file has frames: a
        checkpoint, partial or running in another worker, writes page 1 before the pages that
        make the file that long, and a checkpoint that copies the whole log sets the size."""
        head = os.pread(self.fd, _HEADER.size, 0)
        if len(head) < _HEADER.size:
            return f"the league file '{self.shown}' was truncated to {size} bytes while in use"
        magic, page_size, counter, pages, valid_for = _HEADER.unpack(head)
        page_size = 65536 if page_size == 1 else page_size
        if magic != SQLITE_MAGIC:
            return f"the league file '{self.shown}' was overwritten while in use (no SQLite header)"
        if size < self.largest:
            return (f"the league file '{self.shown}' was truncated while in use ({size} bytes, "
                    f"it had {self.largest})")
        if counter == valid_for and size < pages * page_size and not self._log_has_frames():
            return (f"the league file '{self.shown}' was truncated while in use ({size} bytes, "
                    f"its header says {pages * page_size})")
        self.largest = max(self.largest, size)
        return None

    def _log_has_frames(self) -> bool:
        try:
            return os.stat(f"{self.path}-wal").st_size > _WAL_HEADER_BYTES
        except OSError:
            return False

    def close(self) -> None:
        if self.fd >= 0:
            held_files.give_back(self.fd, self._key)
            self.fd = -1


class LeagueConnection(sqlite3.Connection):
    """A connection to a league that may write, watching the file it opened
    (:class:`FileWatch`): each write transaction checks it when it begins and after its
    commit (:func:`begin`, :func:`commit`)."""

    watch: FileWatch | None = None

    def close(self) -> None:
        super().close()  # SQLite first: its locks end with its own close, not the watch's
        if self.watch is not None:
            self.watch.close()

    def __del__(self) -> None:
        if self.watch is not None:
            self.watch.close()


def foreign_log_problem(path: str | os.PathLike) -> str | None:
    """Why the ``-wal`` file beside ``path`` cannot be that file's, or None. A league in WAL
    mode says so in its header (bytes 18 and 19 are 2); a single-file copy, as ``league
    backup`` writes, says 1. Such a file beside a ``-wal`` holding pages is a copy put where a
    league was (a restored backup) with the old file's log of writes left beside it: SQLite,
    which keeps no mark of which file a ``-wal`` belongs to, would write those pages into the
    copy at its next open (rows the backup never held, or a damaged file)."""
    wal = f"{os.fspath(path)}-wal"
    try:
        if os.path.getsize(wal) <= _WAL_HEADER_BYTES:
            return None
        fd, key = held_files.take(path)  # never open()/close(): that would end this process's locks
    except OSError:
        return None
    try:
        header = os.pread(fd, 20, 0)
    except OSError:
        return None
    finally:
        held_files.give_back(fd, key)
    if len(header) < 20 or not header.startswith(b"SQLite format 3\0") or header[18:20] != b"\x01\x01":
        return None
    shown = os.fspath(path)
    return (f"'{wal}' beside it is not this file's: '{shown}' is a single-file copy (a restored "
            "backup, say) and that -wal is the log of writes of the file it replaced, which SQLite "
            f"would write into it. Put the backup in place with 'bgrid league restore {shown} BACKUP' "
            f"(it moves the old file's -wal and -shm aside), or move '{wal}' and '{shown}-shm' aside "
            "yourself")


def _connect(path: Path) -> sqlite3.Connection:
    # Autocommit mode: transactions are opened by hand (BEGIN IMMEDIATE), so a writer takes
    # the write lock before reading and the busy timeout covers every wait.
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                           factory=LeagueConnection)
    with contextlib.suppress(OSError):  # SQLite opened it; one that cannot be watched is written as before
        conn.watch = FileWatch(path)
    conn.row_factory = sqlite3.Row
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    return conn


def file_problem(conn: sqlite3.Connection) -> str | None:
    """What happened to the league file ``conn`` opened (removed, replaced, truncated), or
    None while it is the file under its name (or is not watched: a read-only connection)."""
    watch = getattr(conn, "watch", None)
    return watch.problem() if watch is not None else None


def _check_file(conn: sqlite3.Connection, after: str) -> None:
    problem = file_problem(conn)
    if problem is not None:
        raise LeagueFileChanged(problem, after)


def begin(conn: sqlite3.Connection) -> None:
    """``BEGIN IMMEDIATE``, the write lock held, and the league file checked to be the one
    opened. Raises :class:`LeagueFileChanged` (the transaction rolled back)."""
    refused = "nothing more is written through this connection"
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.Error:
        _check_file(conn, refused)  # SQLite's "file is not a database" from a file cut short
        raise
    try:
        _check_file(conn, refused)
    except BaseException:
        rollback(conn)
        raise


def commit(conn: sqlite3.Connection) -> None:
    """``COMMIT``, then the file checked again: a write committed into a file removed or
    replaced meanwhile is not in the league, and must not be answered as stored.
    Raises :class:`LeagueFileChanged`."""
    lost = "the last write went to the old file and is not in the league"
    try:
        conn.execute("COMMIT")
    except sqlite3.Error:
        _check_file(conn, lost)
        raise
    _check_file(conn, lost)


def rollback(conn: sqlite3.Connection) -> None:
    """``ROLLBACK`` of the transaction still open: SQLite has already rolled it back itself
    after some failures (a full disk), and a second ROLLBACK would replace the real error
    by "cannot rollback - no transaction is active"."""
    if conn.in_transaction:
        conn.execute("ROLLBACK")


def _prepare(conn: sqlite3.Connection) -> None:
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA foreign_keys = ON")


def create_league(path: str | Path) -> bool:
    """Create the league file, or bring an existing league up to date. Returns True when a
    new file was created. Raises :class:`LeagueError` for a file that is not a league."""
    path = Path(path)
    existed = path.exists()
    if existed:
        open_league(path).close()
        return False
    try:
        conn = _connect(path)
    except sqlite3.Error as exc:
        raise LeagueError(f"cannot create the league '{path}': {exc}") from None
    try:
        _prepare(conn)
        with transaction(conn):
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        migrate(conn, str(path))
    finally:
        conn.close()
    return True


def open_league(path: str | Path, *, write: bool = True) -> sqlite3.Connection:
    """A connection to an existing league, migrated to this bgrid's schema.

    ``write=False`` (list, show, standings) opens it for queries only; a league the user may
    only read (a 0644 file of another user, a read-only folder or disk) is opened read-only
    (``mode=ro``), so it can be read; only a league of an older schema is then opened for
    writing, to migrate it. A league opened for writing is
    checked first (``PRAGMA quick_check``), so that nothing is added to a damaged file.

    Raises :class:`LeagueError` naming the file and what is wrong with it."""
    path = Path(path)
    if not path.is_file():
        if path.is_dir():
            raise LeagueError(f"'{path}' is a folder, not a league: give the league's file, "
                              f"e.g. {path}/league.db")
        if path.exists():
            raise LeagueError(f"'{path}' is not a league: it is not a regular file (a FIFO, a device or "
                              "a socket); give a league file, or a new name to create one")
        raise LeagueError(f"no league at '{path}': create it with 'bgrid league init {path}'")
    foreign = foreign_log_problem(path)
    if foreign is not None:  # before SQLite reads the file, which would take that -wal in
        raise LeagueError(f"will not open the league '{path}': {foreign}")
    if not write and not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK | os.X_OK)):
        conn = _connect_read_only(path)
        if conn is not None:
            return conn
    try:
        conn = _connect(path)
        application_id = conn.execute("PRAGMA application_id").fetchone()[0]
    except sqlite3.OperationalError as exc:
        if not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK | os.X_OK)):
            raise LeagueError(f"the league file '{path}' is read-only (a read-only disk or folder, or "
                              "another user's file): it can be listed and its standings read, but "
                              "nothing can be added to it") from None
        raise LeagueError(f"cannot open the league '{path}': {failure_text(exc)}") from None
    except sqlite3.DatabaseError as exc:
        raise LeagueError(f"'{path}' is not a league database ({exc})") from None
    if application_id != APPLICATION_ID:
        conn.close()
        raise LeagueError(f"'{path}' is not a league database (another program's SQLite file)")
    try:
        _prepare(conn)
        if write:
            check_integrity(conn, path)
        migrate(conn, str(path))
        if not write:
            conn.execute("PRAGMA query_only = ON")
    except BaseException:
        conn.close()
        raise
    return conn


def _connect_read_only(path: Path) -> sqlite3.Connection | None:
    """A read-only connection to a league of this schema, or None when it is of an older
    schema (to be migrated by a writable open). Raises :class:`LeagueError`."""
    uri = path.absolute().as_uri()
    conn = None
    # mode=ro reads a WAL league where its -shm can be made or exists; a league in a folder
    # the user cannot write, and not open elsewhere, is read as an immutable file.
    for query in ("?mode=ro", "?mode=ro&immutable=1"):
        try:
            conn = sqlite3.connect(uri + query, uri=True, timeout=BUSY_TIMEOUT_MS / 1000,
                                   isolation_level=None)
            conn.row_factory = sqlite3.Row
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            application_id, version = (conn.execute("PRAGMA application_id").fetchone()[0],
                                       conn.execute("PRAGMA user_version").fetchone()[0])
            break
        except sqlite3.OperationalError:
            if conn is not None:
                conn.close()
            conn = None
        except sqlite3.DatabaseError as exc:
            if conn is not None:
                conn.close()
            raise LeagueError(f"'{path}' is not a league database ({exc})") from None
    if conn is None:
        return None  # the writable open says why
    if application_id != APPLICATION_ID:
        conn.close()
        raise LeagueError(f"'{path}' is not a league database (another program's SQLite file)")
    if version > SCHEMA_VERSION:
        conn.close()
        raise LeagueError(f"'{path}' has league schema version {version}; this bgrid knows up to "
                          f"{SCHEMA_VERSION}: a newer bgrid wrote it")
    if version < SCHEMA_VERSION:
        conn.close()
        return None
    return conn


def check_integrity(conn: sqlite3.Connection, path: Path) -> None:
    """Refuse a damaged league before anything is added to it (SQLite's quick check: every
    page and index readable and consistent, without comparing index contents to rows).

    Raises :class:`LeagueError` saying what to do."""
    try:
        problems = [row[0] for row in conn.execute("PRAGMA quick_check(3)")]
    except sqlite3.DatabaseError as exc:
        problems = [str(exc)]
    if problems != ["ok"]:
        raise LeagueError(f"the league '{path}' is damaged ({'; '.join(problems)[:200]}): nothing was "
                          f"added. Restore it from a backup, or save its entries with "
                          f"sqlite3 '{path}' .recover into a new file")


def migrate(conn: sqlite3.Connection, name: str = "league") -> None:
    """Apply the migration steps the file has not had, one transaction each.

    Raises :class:`LeagueError` for a file written by a newer schema."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise LeagueError(f"'{name}' has league schema version {version}; this bgrid knows up to "
                          f"{SCHEMA_VERSION}: a newer bgrid wrote it")
    while version < SCHEMA_VERSION:
        with transaction(conn):
            # another process may have migrated while this one waited for the lock
            if conn.execute("PRAGMA user_version").fetchone()[0] == version:
                for statement in statements(MIGRATIONS[version]):
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {version + 1}")
        version = conn.execute("PRAGMA user_version").fetchone()[0]


def statements(script: str) -> list[str]:
    """A script's statements, one by one (a trigger's body keeps its own semicolons): each is
    run with ``execute`` inside the step's transaction, which ``executescript`` would commit."""
    out, pending = [], ""
    for piece in script.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if pending.strip(" \n;"):
                out.append(pending.strip())
            pending = ""
    return out


@dataclass(frozen=True)
class Stored:
    """What recording one log did: a new entry, or the entry it duplicates."""

    entry_id: int
    is_new: bool


def record(conn: sqlite3.Connection, rows: Iterable[dict],
           then: Callable[[sqlite3.Connection, int, dict], object] | None = None) -> list[Stored]:
    """Insert entries (dicts keyed by ``COLUMNS`` and ``log``) in one transaction. A row whose
    verification id is already recorded is not inserted: its result names the entry there.
    ``then(conn, entry_id, row)`` runs for each new entry inside the transaction (the
    server's integrity flags are stored with their entry or not at all)."""
    out = []
    with transaction(conn):
        for row in rows:
            cursor = conn.execute(_INSERT, [row[c] for c in COLUMNS] + [row.get("play_sha256")])
            if cursor.rowcount == 1:
                entry_id = cursor.lastrowid
                assert entry_id is not None  # the INSERT above has just added a row
                conn.execute("INSERT INTO logs (entry_id, log) VALUES (?, ?)", (entry_id, row["log"]))
                if row["challenge"] is not None and needs_rebuild(conn, row["challenge"], row["player"]):
                    rebuild_result(conn, row["challenge"], row["player"])
                else:
                    if row["challenge"] is not None:
                        conn.execute(_COUNT_ATTEMPT, row)
                    if row["verdict"] == "valid":
                        conn.execute(_KEEP_BEST, {k: row[k] for k in _RESULT_KEYS} | {"entry_id": entry_id})
                if then is not None:
                    then(conn, entry_id, row)
                out.append(Stored(entry_id, True))
            else:
                found = conn.execute("SELECT id FROM entries WHERE verification_id = ?",
                                     (row["verification_id"],)).fetchone()
                out.append(Stored(found["id"], False))
    return out


def entry_by_bytes(conn: sqlite3.Connection, sha256: str) -> sqlite3.Row | None:
    """The entry holding exactly these bytes, if any (a resubmitted file skips verifying)."""
    return conn.execute("SELECT id, verification_id, verdict FROM entries WHERE log_sha256 = ? "
                        "ORDER BY id LIMIT 1", (sha256,)).fetchone()


def find_entry(conn: sqlite3.Connection, ref: str) -> sqlite3.Row | None:
    """An entry, with its log, by its number or its verification id."""
    ref = ref.strip()
    query = "SELECT entries.*, logs.log FROM entries JOIN logs ON logs.entry_id = entries.id WHERE "
    if ref.isascii() and ref.isdigit():
        if len(ref) > 18:  # past SQLite's 64-bit integers (and Python's digit limit): no such entry
            return None
        return conn.execute(query + "entries.id = ?", (int(ref),)).fetchone()
    return conn.execute(query + "verification_id = ?", (ref.lower(),)).fetchone()


def league_challenges(conn: sqlite3.Connection) -> list[str]:
    """Every challenge the league holds an entry for or runs (``bgrid league open``), sorted
    (logs naming no map left out)."""
    return [row[0] for row in conn.execute(
        "SELECT challenge FROM entries WHERE challenge IS NOT NULL UNION SELECT code FROM challenges "
        "ORDER BY 1")]


def list_entries(conn: sqlite3.Connection, challenges: Iterable[str] = (),
                 player: str | None = None) -> list[sqlite3.Row]:
    """Entries in submission order, optionally for some challenges and one player."""
    where, args = where_clause(challenges, player)
    return conn.execute("SELECT id, verification_id, source, player, player_from_file, challenge, "
                        "verdict, outcome, score, turns, damage, error_code, error_line, submitted_at "
                        f"FROM entries {where} ORDER BY id", args).fetchall()


def where_clause(challenges: Iterable[str], player: str | None = None,
                 table: str = "entries") -> tuple[str, list]:
    """A WHERE clause (and its arguments) keeping some challenges and one player."""
    clauses, args = [], []
    challenges = list(challenges)
    if challenges:
        clauses.append(f"{table}.challenge IN ({', '.join('?' * len(challenges))})")
        args.extend(challenges)
    if player is not None:
        clauses.append(f"{table}.player = ?")
        args.append(player)
    return ("WHERE " + " AND ".join(clauses)) if clauses else "", args


@dataclass(frozen=True)
class ChallengePar:
    """A challenge's open-deck par: the solver's (``portfolio`` its version) or given
    (``portfolio`` None); with its blind benchmark when measured (R42): the median, the runs
    and the median's 95% interval."""

    par: int
    portfolio: int | None
    blind_median: float | None = None
    blind_runs: int | None = None
    blind_interval: tuple[int, int] | None = None


def set_par(conn: sqlite3.Connection, challenge: str, par: ChallengePar, set_at: str,
            play_sha256: str | None = None) -> None:
    """Record (or replace) the par of ``challenge``; ``play_sha256``: the digest of the
    solver's par line (``league.integrity.play_digest``), so an entry playing it is flagged."""
    low, high = par.blind_interval or (None, None)
    with transaction(conn):
        conn.execute("INSERT INTO pars (challenge, par, portfolio, set_at, play_sha256, blind_median, "
                     "blind_runs, blind_low, blind_high) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                     "ON CONFLICT (challenge) DO UPDATE SET par = excluded.par, "
                     "portfolio = excluded.portfolio, set_at = excluded.set_at, "
                     "play_sha256 = excluded.play_sha256, "
                     "blind_median = excluded.blind_median, blind_runs = excluded.blind_runs, "
                     "blind_low = excluded.blind_low, blind_high = excluded.blind_high",
                     (challenge, par.par, par.portfolio, set_at, play_sha256, par.blind_median,
                      par.blind_runs, low, high))


def challenge_pars(conn: sqlite3.Connection, challenges: Iterable[str] = ()) -> dict[str, ChallengePar]:
    """The pars recorded for the given challenges (all when none are given)."""
    where, args = where_clause(challenges, table="pars")
    return {row["challenge"]: ChallengePar(
                row["par"], row["portfolio"], row["blind_median"], row["blind_runs"],
                None if row["blind_low"] is None else (row["blind_low"], row["blind_high"]))
            for row in conn.execute("SELECT challenge, par, portfolio, blind_median, blind_runs, blind_low, "
                                    f"blind_high FROM pars {where}", args)}


# -- the attempts policy (``bgrid league open``): which entries count ----------------------

BEST, FIRST = "best", "first"


def needs_rebuild(conn: sqlite3.Connection, challenge: str, player: str) -> bool:
    """Whether a new entry's result must be worked out from all of the player's entries
    (an attempts policy other than best-of-all, or a disqualified player) rather than by
    comparing the entry with the best one held."""
    policy = conn.execute("SELECT attempts FROM challenges WHERE code = ?", (challenge,)).fetchone()
    if policy is not None and policy[0] != BEST:
        return True
    return conn.execute("SELECT 1 FROM players WHERE name = ? AND disqualified IS NOT NULL",
                        (player,)).fetchone() is not None


def counted_entries(entries: list, policy: str) -> list:
    """The entries (in submission order, withdrawn ones left out) that the policy lets count
    toward a result: all of them (``best``), the first valid one (``first``), or the first N
    (``"N"``: the later ones are attempts over the limit)."""
    if policy == FIRST:
        return [e for e in entries if e["verdict"] == "valid"][:1]
    if policy.isdigit():
        return entries[:int(policy)]
    return entries


def rank_key(result: Mapping[str, Any]) -> tuple[Any, ...]:
    """``RANK_ORDER`` as a sort key: the result that ranks first sorts first."""
    return tuple(-result[column] if way == "DESC" else result[column] for column, way in RANK_ORDER)


def rebuild_result(conn: sqlite3.Connection, challenge: str, player: str) -> None:
    """Work out the ``results`` row of one player on one challenge again from their entries:
    attempts (withdrawn entries do not count), and the best valid entry the attempts policy
    counts (none for a disqualified player). Runs inside the caller's transaction."""
    entries = conn.execute("SELECT id AS entry_id, verdict, score, turns, submitted_at, outcome, damage, "
                           "verification_id, player_from_file FROM entries "
                           "WHERE challenge = ? AND player = ? AND withdrawn IS NULL ORDER BY id",
                           (challenge, player)).fetchall()
    conn.execute("DELETE FROM results WHERE challenge = ? AND player = ?", (challenge, player))
    if not entries:
        return
    row = conn.execute("SELECT attempts FROM challenges WHERE code = ?", (challenge,)).fetchone()
    counted = counted_entries(entries, row[0] if row is not None else BEST)
    if conn.execute("SELECT 1 FROM players WHERE name = ? AND disqualified IS NOT NULL",
                    (player,)).fetchone() is not None:
        counted = []
    valid = [e for e in counted if e["verdict"] == "valid"]
    best = min(valid, key=rank_key) if valid else None
    conn.execute("INSERT INTO results (challenge, player, attempts, entry_id, score, turns, submitted_at, "
                 "outcome, damage, verification_id, player_from_file) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (challenge, player, len(entries), *((best["entry_id"], best["score"], best["turns"],
                  best["submitted_at"], best["outcome"], best["damage"], best["verification_id"],
                  best["player_from_file"]) if best is not None else (None,) * 8)))


def transaction(conn: sqlite3.Connection) -> _Transaction:
    """``with transaction(conn):`` one ``BEGIN IMMEDIATE`` … ``COMMIT``, rolled back on any error."""
    return _Transaction(conn)


class _Transaction:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> sqlite3.Connection:
        begin(self.conn)
        return self.conn

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        if kind is None:
            try:
                commit(self.conn)
            except BaseException:  # a COMMIT refused (busy, disk full) leaves it open
                rollback(self.conn)
                raise
        else:
            rollback(self.conn)
