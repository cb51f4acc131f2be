"""The organiser's actions, each in one transaction with its line in the audit log.

The audit log (table ``audit``) is append-only: the database refuses to change or delete a
line (triggers), and every action here writes when, what, on what and why.
"""

from __future__ import annotations

import sqlite3

from ..rules.errors import BGridError
from .identity import check_name, name_key
from .store import rebuild_result, transaction


class AdminError(BGridError):
    """An action that cannot be done: no such entry or player, no reason given."""


class NotFound(AdminError):
    """The entry or player an action names does not exist."""


def _reason(reason: str | None) -> str:
    text = (reason or "").strip()
    if not text:
        raise AdminError("give the reason (it goes into the audit log)")
    if len(text) > 500:
        raise AdminError("a reason is at most 500 characters")
    return text


def audit(conn: sqlite3.Connection, now: str, action: str, target: str, reason: str) -> None:
    conn.execute(
        "INSERT INTO audit (at, action, target, reason) VALUES (?, ?, ?, ?)", (now, action, target, reason)
    )


def refused_organiser_key(conn: sqlite3.Connection, now: str, where: str, address: str) -> None:
    """A wrong organiser key, said in the audit log (the rate limits bound how many lines one
    address can add)."""
    with transaction(conn):
        audit(conn, now, "organiser key refused", where, f"a wrong organiser key from {address}")


def audit_log(conn: sqlite3.Connection) -> list[dict]:
    return [dict(r) for r in conn.execute("SELECT id, at, action, target, reason FROM audit ORDER BY id")]


def _entry(conn: sqlite3.Connection, entry_id: int) -> sqlite3.Row:
    row = conn.execute(
        "SELECT id, player, challenge, withdrawn FROM entries WHERE id = ?", (entry_id,)
    ).fetchone()
    if row is None:
        raise NotFound(f"no entry #{entry_id}")
    return row


def withdraw(conn: sqlite3.Connection, entry_id: int, reason: str | None, now: str) -> None:
    """Take an entry out of the standings (it stays stored, marked with the reason)."""
    why = _reason(reason)
    with transaction(conn):
        row = _entry(conn, entry_id)
        conn.execute("UPDATE entries SET withdrawn = ? WHERE id = ?", (why, entry_id))
        if row["challenge"] is not None:
            rebuild_result(conn, row["challenge"], row["player"])
        audit(conn, now, "withdraw", f"entry #{entry_id}", why)


def restore(conn: sqlite3.Connection, entry_id: int, reason: str | None, now: str) -> None:
    """Put a withdrawn entry back into the standings."""
    why = _reason(reason)
    with transaction(conn):
        row = _entry(conn, entry_id)
        conn.execute("UPDATE entries SET withdrawn = NULL WHERE id = ?", (entry_id,))
        if row["challenge"] is not None:
            rebuild_result(conn, row["challenge"], row["player"])
        audit(conn, now, "restore", f"entry #{entry_id}", why)


def _player_row(conn: sqlite3.Connection, name: str) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM players WHERE name_key = ?", (name_key(name),)).fetchone()
    if row is None:
        raise NotFound(f"no registered player '{name}'")
    return row


def _rebuild_player(conn: sqlite3.Connection, name: str) -> None:
    for (challenge,) in conn.execute(
        "SELECT DISTINCT challenge FROM entries WHERE player = ? AND challenge IS NOT NULL", (name,)
    ).fetchall():
        rebuild_result(conn, challenge, name)


def disqualify(
    conn: sqlite3.Connection, name: str, reason: str | None, now: str, *, undo: bool = False
) -> None:
    """Disqualify a player (no result of theirs is ranked), or with ``undo`` reinstate them."""
    why = _reason(reason)
    with transaction(conn):
        row = _player_row(conn, name)
        conn.execute("UPDATE players SET disqualified = ? WHERE id = ?", (None if undo else why, row["id"]))
        _rebuild_player(conn, row["name"])
        audit(conn, now, "reinstate" if undo else "disqualify", f"player {row['name']}", why)


def rename(conn: sqlite3.Connection, name: str, new_name: str, reason: str | None, now: str) -> str:
    """Rename a player (their entries follow); the new name must be free. Returns it."""
    why = _reason(reason)
    new = check_name(new_name)
    with transaction(conn):
        row = _player_row(conn, name)
        clash = conn.execute(
            "SELECT name FROM players WHERE name_key = ? AND id != ?", (name_key(new), row["id"])
        ).fetchone()
        if clash is not None:
            raise AdminError(f"the name '{new}' is taken by '{clash['name']}': merge the players instead")
        if new != row["name"] and conn.execute("SELECT 1 FROM entries WHERE player = ? LIMIT 1",
                                               (new,)).fetchone() is not None:
            # entries submitted from the command line under that name, by no registered player
            raise AdminError(f"entries are already recorded under the name '{new}' (submitted with "
                             "'bgrid league submit'); choose another name")
        conn.execute(
            "UPDATE players SET name = ?, name_key = ? WHERE id = ?", (new, name_key(new), row["id"])
        )
        conn.execute("UPDATE entries SET player = ? WHERE player = ?", (new, row["name"]))
        conn.execute("UPDATE results SET player = ? WHERE player = ?", (new, row["name"]))
        audit(conn, now, "rename", f"player {row['name']} -> {new}", why)
    return new


def merge(conn: sqlite3.Connection, name: str, into: str, reason: str | None, now: str) -> None:
    """Move every entry of player ``name`` to player ``into`` and remove ``name`` (its key
    stops working); ``into``'s results are worked out again from both players' entries."""
    why = _reason(reason)
    with transaction(conn):
        gone, kept = _player_row(conn, name), _player_row(conn, into)
        if gone["id"] == kept["id"]:
            raise AdminError(f"'{name}' and '{into}' are the same player")
        conn.execute("UPDATE entries SET player = ? WHERE player = ?", (kept["name"], gone["name"]))
        conn.execute("DELETE FROM results WHERE player = ?", (gone["name"],))
        # a game in progress on the phone (web/play.py) follows the player, unless the kept
        # player is playing the same challenge: theirs is kept
        conn.execute(
            "UPDATE companion_games SET player = ? WHERE player = ? AND code NOT IN "
            "(SELECT code FROM companion_games WHERE player = ?)",
            (kept["id"], gone["id"], kept["id"]),
        )
        conn.execute("DELETE FROM companion_games WHERE player = ?", (gone["id"],))
        conn.execute("DELETE FROM sessions WHERE player = ?", (gone["id"],))  # its key is gone with it
        conn.execute("DELETE FROM players WHERE id = ?", (gone["id"],))
        _rebuild_player(conn, kept["name"])
        audit(conn, now, "merge", f"player {gone['name']} -> {kept['name']}", why)


def set_given_par(conn: sqlite3.Connection, code: str, par: int, reason: str | None, now: str) -> None:
    """Record a par the organiser gives for a challenge (as ``bgrid league par --par N``)."""
    why = _reason(reason)
    with transaction(conn):
        conn.execute(
            "INSERT INTO pars (challenge, par, portfolio, set_at) VALUES (?, ?, NULL, ?) "
            "ON CONFLICT (challenge) DO UPDATE SET par = excluded.par, portfolio = NULL, "
            "set_at = excluded.set_at, play_sha256 = NULL",
            (code, par, now),
        )
        audit(conn, now, "set par", f"challenge {code}: par {par}", why)
