"""One league connection and one verifier per worker thread, opened on first use; what the
verifiers remember (body lines, missions) is shared by the process's threads."""

from __future__ import annotations

import sqlite3
import threading

from flask import current_app, g

from ..league.store import open_league
from ..league.windows import league_windows, utc_moment
from ..log.notation import Header
from ..log.writer import header_text
from ..verifier.verify import Verifier

_local = threading.local()
# The process's memo of missions and their starts: building a challenge's mission costs as
# much as verifying a few hundred logs, so it is built once a process, not once a thread.
_missions = Verifier()
# Writers of this process take turns here before SQLite's own lock (see league.intake).
write_lock = threading.Lock()


def connection() -> sqlite3.Connection:
    """This thread's connection to the app's league (kept between requests: opening one
    and setting its pragmas costs more than a small request)."""
    path = current_app.config["DATABASE"]
    held = getattr(_local, "connections", None)
    if held is None:
        held = _local.connections = {}
    conn = held.get(path)
    if conn is None:
        conn = held[path] = open_league(path)
    g.league = conn
    return conn


def verifier() -> Verifier:
    """This thread's verifier, sharing the process's memos (body lines, missions)."""
    mine = getattr(_local, "verifier", None)
    if mine is None:
        mine = _local.verifier = _missions.sharing_missions()
    return mine


def warm_missions(database: str) -> list[str]:
    """Build the mission of every challenge the league runs that has not closed yet, before
    the first submission waits for it (a server started with workers builds them once, in
    the parent). Returns the codes."""
    conn = open_league(database, write=False)
    try:
        now = utc_moment()
        codes = [w.code for w in league_windows(conn) if w.closes > now]
    finally:
        conn.close()
    for code in codes:
        # a header alone: the mission is built (and remembered) before the empty body ends it
        _missions.verify(header_text(Header(challenge=code)).encode(), source="warm-up")
    return codes


def close_held_connections() -> None:
    """Close this thread's connections (the parent of forked workers: a SQLite connection
    must not be carried into a child process)."""
    held = getattr(_local, "connections", None) or {}
    while held:
        held.popitem()[1].close()


def close_connection(exc: BaseException | None = None) -> None:
    """End of a request: a transaction left open by a failure is rolled back."""
    conn = g.pop("league", None)
    if conn is not None and conn.in_transaction:
        conn.rollback()
