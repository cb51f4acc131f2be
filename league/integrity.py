"""Integrity flags: evidence for the organiser to judge, never an automatic disqualification.

- ``identical_play``: the plays (the log's body, canonically: comments, spacing and the
  header do not count) are those of another player's entry on the same challenge;
- ``par_line``: the plays are the solver's par line of the challenge (``bgrid league par``);
- ``many_attempts``: the player has more than ``MANY_ATTEMPTS`` entries on the challenge.
"""

from __future__ import annotations

import sqlite3

from ..verifier.verify import verify_log

MANY_ATTEMPTS = 10


def play_digest(data: bytes | str) -> str | None:
    """The SHA-256 of a log's plays alone (its body's canonical lines, as the verifier reads
    them), or None for a log whose map cannot be read."""
    return verify_log(data).play_digest


def raise_flags(conn: sqlite3.Connection, entry_id: int, row: dict, now: str) -> list[dict]:
    """Record the flags a new entry earns (inside the caller's transaction) and return them."""
    flags = []
    challenge, player, digest = row["challenge"], row["player"], row.get("play_sha256")
    if challenge is not None and digest is not None:
        twin = conn.execute(
            "SELECT id, player FROM entries WHERE challenge = ? AND play_sha256 = ? "
            "AND player != ? AND id != ? ORDER BY id LIMIT 1",
            (challenge, digest, player, entry_id),
        ).fetchone()
        if twin is not None:
            flags.append(
                {
                    "kind": "identical_play",
                    "evidence": f"the same plays as entry #{twin['id']} by {twin['player']} on {challenge}",
                }
            )
        par = conn.execute(
            "SELECT par FROM pars WHERE challenge = ? AND play_sha256 = ?", (challenge, digest)
        ).fetchone()
        if par is not None:
            flags.append(
                {
                    "kind": "par_line",
                    "evidence": f"the plays are the solver's par line of {challenge} (par {par['par']})",
                }
            )
    if challenge is not None:
        attempts = conn.execute(
            "SELECT COUNT(*) FROM entries WHERE challenge = ? AND player = ?", (challenge, player)
        ).fetchone()[0]
        if attempts > MANY_ATTEMPTS:
            flags.append(
                {
                    "kind": "many_attempts",
                    "evidence": f"attempt {attempts} of {player} on {challenge} (more than {MANY_ATTEMPTS})",
                }
            )
    for flag in flags:
        conn.execute(
            "INSERT INTO flags (entry_id, kind, evidence, raised_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (entry_id, kind) DO NOTHING",
            (entry_id, flag["kind"], flag["evidence"], now),
        )
    return flags


def entry_flags(conn: sqlite3.Connection, entry_id: int) -> list[dict]:
    return [
        {"kind": r["kind"], "evidence": r["evidence"], "raised_at": r["raised_at"]}
        for r in conn.execute(
            "SELECT kind, evidence, raised_at FROM flags WHERE entry_id = ? ORDER BY id", (entry_id,)
        )
    ]


def all_flags(conn: sqlite3.Connection) -> list[sqlite3.Row]:
    return conn.execute(
        "SELECT flags.*, entries.player, entries.challenge FROM flags "
        "JOIN entries ON entries.id = flags.entry_id ORDER BY flags.id"
    ).fetchall()
