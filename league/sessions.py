"""Signed-in browsers: the organiser's pages (``/admin``) and a player's phone (``/play``).

A session is a random token the browser keeps in its cookie; the league keeps the token's
hash, whose session it is (a player, or the organiser) and the hash of the key it was
opened with. Every request checks that key is still the one in force, so a key replaced
(``league init --admin-key-file``, a player's new key) ends every session opened with the
old one, and a sign-out ends the session here, not only in that browser: a copy of the
cookie taken before is worth nothing after. No key is ever in the cookie.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

from .identity import key_hash, new_key, same_hash
from .players import ADMIN_KEY, Player
from .store import transaction
from .submit import STAMP

SESSION_DAYS = 31  # a sign-in lasts this long at most, then the key is asked again


def _oldest_kept(now: str) -> str:
    opened = datetime.strptime(now, STAMP).replace(tzinfo=UTC)
    return (opened - timedelta(days=SESSION_DAYS)).strftime(STAMP)


def _admin_hash(conn: sqlite3.Connection) -> str | None:
    row = conn.execute("SELECT value FROM settings WHERE name = ?", (ADMIN_KEY,)).fetchone()
    return None if row is None else row["value"]


def open_session(conn: sqlite3.Connection, player: Player | None, now: str) -> str:
    """A new session for ``player`` (None: the organiser), bound to the key they hold now;
    returns its token, for the cookie only. Sessions past their days are dropped here."""
    token = new_key()
    with transaction(conn):
        if player is None:
            held = _admin_hash(conn)
        else:
            row = conn.execute("SELECT key_hash FROM players WHERE id = ?", (player.id,)).fetchone()
            held = None if row is None else row["key_hash"]
        if held is None:
            raise LookupError("no key to bind the session to")
        conn.execute("DELETE FROM sessions WHERE opened_at < ?", (_oldest_kept(now),))
        conn.execute(
            "INSERT INTO sessions (token_sha256, player, key_sha256, opened_at) VALUES (?, ?, ?, ?)",
            (key_hash(token), None if player is None else player.id, held, now),
        )
    return token


def _session_row(conn: sqlite3.Connection, token: object, now: str) -> sqlite3.Row | None:
    if not isinstance(token, str) or not token:
        return None
    wanted = key_hash(token)
    row = conn.execute("SELECT * FROM sessions WHERE token_sha256 = ?", (wanted,)).fetchone()
    if row is None or not same_hash(row["token_sha256"], wanted) or row["opened_at"] < _oldest_kept(now):
        return None
    return row


def is_organiser_session(conn: sqlite3.Connection, token: object, now: str) -> bool:
    """Whether ``token`` is a live organiser session opened with the organiser key in force."""
    row = _session_row(conn, token, now)
    if row is None or row["player"] is not None:
        return False
    held = _admin_hash(conn)
    return held is not None and same_hash(row["key_sha256"], held)


def session_player(conn: sqlite3.Connection, token: object, now: str) -> Player | None:
    """The player of a live session opened with the key they hold now, or None."""
    row = _session_row(conn, token, now)
    if row is None or row["player"] is None:
        return None
    found = conn.execute("SELECT * FROM players WHERE id = ?", (row["player"],)).fetchone()
    if found is None or not same_hash(row["key_sha256"], found["key_hash"]):
        return None
    return Player.from_row(found)


def end_session(conn: sqlite3.Connection, token: object) -> None:
    """Sign-out: the session is gone here, whatever copies of its cookie exist."""
    if isinstance(token, str) and token:
        with transaction(conn):
            conn.execute("DELETE FROM sessions WHERE token_sha256 = ?", (key_hash(token),))


def replace_player_key(conn: sqlite3.Connection, player: Player) -> str:
    """A new key for ``player`` (returned once; its hash stored): the old key stops working
    and every session opened with it ends."""
    key = new_key()
    with transaction(conn):
        conn.execute("UPDATE players SET key_hash = ? WHERE id = ?", (key_hash(key), player.id))
        conn.execute("DELETE FROM sessions WHERE player = ?", (player.id,))
    return key
