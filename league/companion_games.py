"""Games in progress on the league server's table companion (``/play/CODE``): one a player
and challenge, kept as the log the companion wrote (the log is the save file, as on the
terminal: reopening it anywhere replays it) and what it last said."""

from __future__ import annotations

import json
import sqlite3

from .store import transaction


def load_game(conn: sqlite3.Connection, player: int, code: str) -> tuple[str, dict] | None:
    """The stored log and the last reply of ``player``'s game of ``code``, or None."""
    row = conn.execute("SELECT log, said FROM companion_games WHERE player = ? AND code = ?",
                       (player, code)).fetchone()
    return None if row is None else (row["log"], json.loads(row["said"]))


def save_game(conn: sqlite3.Connection, player: int, code: str, log: str, said: dict, now: str) -> None:
    """Keep the game's log and last reply (one transaction)."""
    with transaction(conn):
        conn.execute(
            "INSERT INTO companion_games (player, code, log, said, updated_at) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (player, code) DO UPDATE SET log = excluded.log, said = excluded.said, "
            "updated_at = excluded.updated_at",
            (player, code, log, json.dumps(said, ensure_ascii=False), now))


def drop_game(conn: sqlite3.Connection, player: int, code: str) -> None:
    """Forget the game (the player starts the mission again)."""
    with transaction(conn):
        conn.execute("DELETE FROM companion_games WHERE player = ? AND code = ?", (player, code))
