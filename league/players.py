"""Registered players and the organiser's key: who may submit, and who may administer.

A player registers a display name (``identity.check_name``; unique under
``identity.name_key``) and receives a key, shown once; the league keeps its hash only.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from ..rules.errors import BGridError
from .identity import check_name, key_hash, name_key, new_key, same_hash
from .store import transaction

ADMIN_KEY = "admin_key_sha256"


class NameTaken(BGridError):
    """A name that folds to one already registered (case, confusables)."""


@dataclass(frozen=True)
class Player:
    id: int
    name: str
    name_key: str
    registered_at: str
    disqualified: str | None  # the reason, when the organiser disqualified the player

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> Player:
        return cls(row["id"], row["name"], row["name_key"], row["registered_at"], row["disqualified"])


def register(conn: sqlite3.Connection, raw_name: str, now: str) -> tuple[Player, str]:
    """Register ``raw_name``; returns the player and their key (the only time it is seen).

    Raises ``identity.RefusedName`` for a name refused, :class:`NameTaken` for one taken."""
    name = check_name(raw_name)
    fold = name_key(name)
    key = new_key()
    with transaction(conn):
        taken = conn.execute("SELECT name FROM players WHERE name_key = ?", (fold,)).fetchone()
        if taken is not None:
            same = "is taken" if taken["name"] == name else f"is taken: it reads as '{taken['name']}'"
            raise NameTaken(f"the name '{name}' {same}; choose another")
        cursor = conn.execute(
            "INSERT INTO players (name, name_key, key_hash, registered_at) VALUES (?, ?, ?, ?)",
            (name, fold, key_hash(key), now),
        )
    assert cursor.lastrowid is not None
    return Player(cursor.lastrowid, name, fold, now, None), key


def player_by_key(conn: sqlite3.Connection, key: str | None) -> Player | None:
    """The player holding ``key``, or None (no key, or a wrong one)."""
    if not key:
        return None
    wanted = key_hash(key)
    row = conn.execute("SELECT * FROM players WHERE key_hash = ?", (wanted,)).fetchone()
    # the lookup found a row by its hash; the comparison below is the constant-time check
    if row is None or not same_hash(row["key_hash"], wanted):
        return None
    return Player.from_row(row)


def player_named(conn: sqlite3.Connection, name: str) -> Player | None:
    """The registered player whose name folds to ``name``'s key, or None."""
    row = conn.execute("SELECT * FROM players WHERE name_key = ?", (name_key(name),)).fetchone()
    return None if row is None else Player.from_row(row)


def list_players(conn: sqlite3.Connection) -> list[Player]:
    return [Player.from_row(r) for r in conn.execute("SELECT * FROM players ORDER BY name_key")]


def set_admin_key(conn: sqlite3.Connection) -> str:
    """A new organiser key (returned once), replacing any held; its hash is stored, and every
    organiser session opened with the old one ends."""
    key = new_key()
    with transaction(conn):
        conn.execute(
            "INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE "
            "SET value = excluded.value",
            (ADMIN_KEY, key_hash(key)),
        )
        # the organiser's signed-in pages end with the key they were opened with (league.sessions)
        conn.execute("DELETE FROM sessions WHERE player IS NULL")
    return key


def is_admin_key(conn: sqlite3.Connection, key: str | None) -> bool:
    """Whether ``key`` is the organiser's key (compared as hashes, in constant time)."""
    row = conn.execute("SELECT value FROM settings WHERE name = ?", (ADMIN_KEY,)).fetchone()
    if row is None or not key:
        return False
    return same_hash(row["value"], key_hash(key))
