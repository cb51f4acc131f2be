"""One league connection and one verifier per worker thread, opened on first use."""

from __future__ import annotations

import sqlite3
import threading

from flask import current_app, g

from ..league.store import open_league
from ..verifier.verify import Verifier

_local = threading.local()
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
    """This thread's verifier (its memo of missions and lines serves the next submission)."""
    mine = getattr(_local, "verifier", None)
    if mine is None:
        mine = _local.verifier = Verifier()
    return mine


def close_connection(exc=None) -> None:
    """End of a request: a transaction left open by a failure is rolled back."""
    conn = g.pop("league", None)
    if conn is not None and conn.in_transaction:
        conn.rollback()
