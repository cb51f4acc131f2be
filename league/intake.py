"""One submission from a registered player, as the league server takes it.

The checks, in order, each a :class:`Refusal` with the HTTP status it maps to: the key
(401), the size (413), UTF-8 and a readable log (422), the ``player:`` line (422: it must
name the key's player, or be absent), the challenge and its window (403), a disqualified
player (403). Then the log is verified, recorded and flagged in one transaction; the same
log sent again by the same player is answered as a duplicate and stores nothing.
"""

from __future__ import annotations

import sqlite3
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field

from ..rules.errors import BGridError
from ..verifier.verify import Verifier
from .identity import name_key
from .integrity import entry_flags, raise_flags
from .players import Player, player_by_key
from .store import record
from .submit import bgrid_version, challenge_key, entry_row
from .windows import Window, window_of

MAX_LOG_BYTES = 256 * 1024
_NO_LOCK = nullcontext()


class Refusal(BGridError):
    """A submission refused before anything is stored; ``status`` is the HTTP answer,
    ``message`` the API's words. ``reason`` names the refusals a page words in its own way
    (``no-key``, ``wrong-key``, ``not-a-challenge``, ``closed``, ``not-open-yet``; empty for the
    others), with the ``challenge`` and its ``window`` where they matter."""

    def __init__(self, status: int, message: str, *, reason: str = "", challenge: str | None = None,
                 window: Window | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.reason = reason
        self.challenge = challenge
        self.window = window


@dataclass
class Receipt:
    entry: int
    challenge: str
    player: str
    verdict: str
    score: int | None
    verification_id: str
    duplicate: bool
    ranked: bool
    flags: list[dict] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {
            "entry": self.entry,
            "challenge": self.challenge,
            "player": self.player,
            "verdict": self.verdict,
            "score": self.score,
            "verification_id": self.verification_id,
            "duplicate": self.duplicate,
            "ranked": self.ranked,
            "flags": self.flags,
        }


def authenticate(conn: sqlite3.Connection, key: str | None) -> Player:
    player = player_by_key(conn, key)
    if player is None and key:
        raise Refusal(401, "a submission needs a player's key (Authorization: Bearer KEY); this one is "
                           "missing or wrong", reason="wrong-key")
    if player is None:
        raise Refusal(401, "a submission needs a player's key (Authorization: Bearer KEY): register a "
                           "name to get one", reason="no-key")
    return player


def submit_entry(
    conn: sqlite3.Connection,
    verifier: Verifier,
    data: bytes,
    key: str | Player | None,
    now: str,
    submitted_at: str,
    writing: AbstractContextManager = _NO_LOCK,
) -> Receipt:
    """Check, verify and record one log for the player holding ``key`` (or that player, already
    known from their session). ``now``: the moment
    the windows are compared with; ``submitted_at``: the entry's time (to the microsecond).
    ``writing`` is held around the write transaction (a server's threads take turns there
    instead of waiting on SQLite's lock, whose busy handler sleeps in steps of milliseconds).

    Raises :class:`Refusal`."""
    player = key if isinstance(key, Player) else authenticate(conn, key)
    if len(data) > MAX_LOG_BYTES:
        raise Refusal(
            413,
            f"the log is {len(data)} bytes; the most a submission takes is {MAX_LOG_BYTES} "
            "(256 KiB), and a mission log is a few kilobytes",
        )
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Refusal(422, f"the log is not UTF-8 text (byte {exc.start + 1} cannot be read)") from None
    verdict = verifier.verify(data, source=f"{player.name}.log")
    challenge = challenge_key(verdict)
    if challenge is None:
        first = verdict.errors[0] if verdict.errors else None
        where = (
            f" (line {first.line}: {first.message})"
            if first is not None and first.line
            else f" ({first.message})"
            if first is not None
            else ""
        )
        raise Refusal(422, f"this is not a mission log naming a challenge{where}")
    if (
        verdict.player is not None
        and verdict.player.strip()
        and name_key(verdict.player.strip()) != player.name_key
    ):
        raise Refusal(
            422,
            f"the log's player: line names '{verdict.player.strip()}', but the key is "
            f"{player.name}'s: submit your own logs with your own key",
        )
    window = window_of(conn, challenge)
    if window is None:
        raise Refusal(403, f"'{challenge}' is not a challenge of this league; see GET /api/challenges",
                      reason="not-a-challenge", challenge=challenge)
    if not window.is_open(now):
        raise Refusal(403, f"challenge {challenge} is {window.text()}; it is now {now}",
                      reason="closed" if now >= window.closes else "not-open-yet", challenge=challenge,
                      window=window)
    if player.disqualified is not None:
        raise Refusal(403, f"{player.name} is disqualified from this league ({player.disqualified})")
    known = conn.execute(
        "SELECT id, player FROM entries WHERE verification_id = ?", (verdict.verification_id,)
    ).fetchone()
    if known is not None:
        if known["player"] != player.name:
            raise Refusal(
                422,
                f"this log is entry #{known['id']} of another player; add your own "
                f"'player: {player.name}' line to a log you played",
            )
        return _receipt(conn, known["id"], duplicate=True)
    row = entry_row(data, f"{player.name}.log", verdict, submitted_at, bgrid_version())
    row |= {"player": player.name, "player_from_file": 0, "play_sha256": verdict.play_digest}
    raised: list[dict] = []

    def flag(c: sqlite3.Connection, entry_id: int, r: dict) -> None:
        raised.extend(f | {"raised_at": submitted_at} for f in raise_flags(c, entry_id, r, submitted_at))

    with writing:
        stored = record(conn, [row], then=flag)[0]
    # a new entry's flags are the ones just raised: no need to read them back
    return _receipt(conn, stored.entry_id, duplicate=not stored.is_new,
                    flags=raised if stored.is_new else None)


def _receipt(conn: sqlite3.Connection, entry_id: int, *, duplicate: bool,
             flags: list[dict] | None = None) -> Receipt:
    row = conn.execute(
        "SELECT entries.id, entries.challenge, entries.player, entries.verdict, entries.score, "
        "entries.verification_id, results.entry_id AS counted FROM entries LEFT JOIN results "
        "ON results.challenge = entries.challenge AND results.player = entries.player "
        "WHERE entries.id = ?",
        (entry_id,),
    ).fetchone()
    return Receipt(
        row["id"],
        row["challenge"],
        row["player"],
        row["verdict"],
        row["score"],
        row["verification_id"],
        duplicate,
        row["counted"] == row["id"],
        entry_flags(conn, entry_id) if flags is None else flags,
    )
