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

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..rules.errors import BGridError

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
    # Beside the open-deck par, the blind benchmark (R42, ``bgrid league par --blind``): the
    # strong player's median score drawing blind, its runs and the median's 95% interval.
    """
    ALTER TABLE pars ADD COLUMN blind_median REAL;
    ALTER TABLE pars ADD COLUMN blind_runs INTEGER;
    ALTER TABLE pars ADD COLUMN blind_low INTEGER;
    ALTER TABLE pars ADD COLUMN blind_high INTEGER;
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)

# The columns of a recorded entry, in insertion order (all but id); its bytes go to ``logs``,
# a table of their own, so that ranking reads only the small rows.
COLUMNS = ("verification_id", "log_sha256", "source", "player", "player_from_file", "challenge",
           "ruleset", "difficulty", "verdict", "assurance", "outcome", "cause", "score", "bunkers",
           "artillery", "damage", "claim_outcome", "claim_score", "turns", "error_code", "error_line",
           "error_message", "submitted_at", "bgrid_version")
_INSERT = (f"INSERT INTO entries ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))}) "
           "ON CONFLICT (verification_id) DO NOTHING")
_COUNT_ATTEMPT = ("INSERT INTO results (challenge, player, attempts) VALUES (:challenge, :player, 1) "
                  "ON CONFLICT (challenge, player) DO UPDATE SET attempts = attempts + 1")
# The standings order (league.standings): higher score, fewer turns, earlier submission.
_KEEP_BEST = """UPDATE results SET entry_id = :entry_id, score = :score, turns = :turns,
    submitted_at = :submitted_at, outcome = :outcome, damage = :damage,
    verification_id = :verification_id, player_from_file = :player_from_file
    WHERE challenge = :challenge AND player = :player AND (entry_id IS NULL
        OR :score > score OR :score = score AND (:turns < turns OR :turns = turns AND (
           :submitted_at < submitted_at OR :submitted_at = submitted_at AND :entry_id < entry_id)))"""


_RESULT_KEYS = ("challenge", "player", "score", "turns", "submitted_at", "outcome", "damage",
                "verification_id", "player_from_file")


class LeagueError(BGridError):
    """A league file that is missing, not a league, or from a newer bgrid."""


def _connect(path: Path) -> sqlite3.Connection:
    # Autocommit mode: transactions are opened by hand (BEGIN IMMEDIATE), so a writer takes
    # the write lock before reading and the busy timeout covers every wait.
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    conn.row_factory = sqlite3.Row
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    return conn


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
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute("COMMIT")
        migrate(conn, str(path))
    finally:
        conn.close()
    return True


def open_league(path: str | Path) -> sqlite3.Connection:
    """A connection to an existing league, migrated to this bgrid's schema.

    Raises :class:`LeagueError` naming the file and what is wrong with it."""
    path = Path(path)
    if not path.is_file():
        raise LeagueError(f"no league at '{path}': create it with 'bgrid league init {path}'")
    try:
        conn = _connect(path)
        application_id = conn.execute("PRAGMA application_id").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        raise LeagueError(f"'{path}' is not a league database ({exc})") from None
    if application_id != APPLICATION_ID:
        conn.close()
        raise LeagueError(f"'{path}' is not a league database (another program's SQLite file)")
    try:
        _prepare(conn)
        migrate(conn, str(path))
    except BaseException:
        conn.close()
        raise
    return conn


def migrate(conn: sqlite3.Connection, name: str = "league") -> None:
    """Apply the migration steps the file has not had, one transaction each.

    Raises :class:`LeagueError` for a file written by a newer schema."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise LeagueError(f"'{name}' has league schema version {version}; this bgrid knows up to "
                          f"{SCHEMA_VERSION}: a newer bgrid wrote it")
    while version < SCHEMA_VERSION:
        conn.execute("BEGIN IMMEDIATE")
        try:
            # another process may have migrated while this one waited for the lock
            if conn.execute("PRAGMA user_version").fetchone()[0] == version:
                for statement in MIGRATIONS[version].split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {version + 1}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        version = conn.execute("PRAGMA user_version").fetchone()[0]


@dataclass(frozen=True)
class Stored:
    """What recording one log did: a new entry, or the entry it duplicates."""

    entry_id: int
    is_new: bool


def record(conn: sqlite3.Connection, rows: Iterable[dict]) -> list[Stored]:
    """Insert entries (dicts keyed by ``COLUMNS`` and ``log``) in one transaction. A row whose
    verification id is already recorded is not inserted: its result names the entry there."""
    out = []
    conn.execute("BEGIN IMMEDIATE")
    try:
        for row in rows:
            cursor = conn.execute(_INSERT, [row[c] for c in COLUMNS])
            if cursor.rowcount == 1:
                entry_id = cursor.lastrowid
                assert entry_id is not None  # the INSERT above has just added a row
                conn.execute("INSERT INTO logs (entry_id, log) VALUES (?, ?)", (entry_id, row["log"]))
                if row["challenge"] is not None:
                    conn.execute(_COUNT_ATTEMPT, row)
                if row["verdict"] == "valid":
                    conn.execute(_KEEP_BEST, {k: row[k] for k in _RESULT_KEYS} | {"entry_id": entry_id})
                out.append(Stored(entry_id, True))
            else:
                found = conn.execute("SELECT id FROM entries WHERE verification_id = ?",
                                     (row["verification_id"],)).fetchone()
                out.append(Stored(found["id"], False))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
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


def set_par(conn: sqlite3.Connection, challenge: str, par: ChallengePar, set_at: str) -> None:
    """Record (or replace) the par of ``challenge``."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        low, high = par.blind_interval or (None, None)
        conn.execute("INSERT INTO pars (challenge, par, portfolio, set_at, blind_median, blind_runs, "
                     "blind_low, blind_high) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                     "ON CONFLICT (challenge) DO UPDATE SET par = excluded.par, "
                     "portfolio = excluded.portfolio, set_at = excluded.set_at, "
                     "blind_median = excluded.blind_median, blind_runs = excluded.blind_runs, "
                     "blind_low = excluded.blind_low, blind_high = excluded.blind_high",
                     (challenge, par.par, par.portfolio, set_at, par.blind_median, par.blind_runs,
                      low, high))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def challenge_pars(conn: sqlite3.Connection, challenges: Iterable[str] = ()) -> dict[str, ChallengePar]:
    """The pars recorded for the given challenges (all when none are given)."""
    where, args = where_clause(challenges, table="pars")
    return {row["challenge"]: ChallengePar(
                row["par"], row["portfolio"], row["blind_median"], row["blind_runs"],
                None if row["blind_low"] is None else (row["blind_low"], row["blind_high"]))
            for row in conn.execute("SELECT challenge, par, portfolio, blind_median, blind_runs, blind_low, "
                                    f"blind_high FROM pars {where}", args)}
