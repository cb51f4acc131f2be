"""Submitting logs: verify each one and record it with its verdict.

A log is identified by its verification id (``verifier.verdict``): the same log sent again,
even reformatted, is a duplicate and recorded once; an edited log has another id and is a
new attempt. A file whose exact bytes are already recorded is answered from the database
without replaying it, which makes a rerun after an interrupted submit quick.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from datetime import UTC, datetime
from importlib import metadata

from ..log.lexer import MAX_BYTES
from ..verifier.verdict import Verdict
from ..verifier.verify import Verifier
from .store import entry_by_bytes, record

# Of a file refused for its size (E001: over the verifier's 1 MiB), the league keeps this much,
# enough to see what was sent; the refusal is told again from it (:func:`replay`).
JUNK_KEPT = 4096
TOO_LARGE = "E001"


@dataclass(frozen=True)
class Submission:
    """The answer for one submitted log."""

    source: str
    entry_id: int
    is_new: bool
    verification_id: str
    verdict: str
    player: str
    player_from_file: bool
    challenge: str | None
    summary: str  # the verdict's one line, or the duplicate's


@cache
def bgrid_version() -> str:
    """The installed bgrid's version (read once: the package metadata is parsed on each call)."""
    try:
        return metadata.version("bgrid")
    except metadata.PackageNotFoundError:
        return "unknown"


# The league's moments: UTC, ISO 8601 to the microsecond, so the order of two submissions in
# one second is kept (the earlier one wins a tie).
STAMP = "%Y-%m-%dT%H:%M:%S.%fZ"


def utc_now() -> str:
    """Now, as the league writes its moments (``STAMP``)."""
    return datetime.now(UTC).strftime(STAMP)


def challenge_key(verdict: Verdict) -> str | None:
    """What the entry was played on, as standings group it: the challenge code, or for a log
    on the player's own deck its map source and difficulty (``seed 1944, 2 ridges, hard``);
    None when the log names no map that could be read."""
    if verdict.challenge is not None:
        return verdict.challenge
    source = verdict.map_source
    if source is None:
        return None
    return f"{source}, {verdict.difficulty}" if verdict.difficulty else source


def unnamed_player(source: str, verification_id: str) -> str:
    """The player of a log without a ``player:`` line: its file name (never its folder: a local
    path) and the start of its verification id, so that two players' ``mission.log`` from two
    folders stay two players instead of one player with two attempts."""
    return f"{os.path.basename(source) or 'log'} ({verification_id[:8]})"


def entry_row(data: bytes, source: str, verdict: Verdict, submitted_at: str, version: str) -> dict:
    """The database row of one verified log."""
    player = (verdict.player or "").strip()
    challenge = challenge_key(verdict)
    err = verdict.errors[0] if verdict.errors else None
    score = verdict.score
    return {
        "verification_id": verdict.verification_id,
        "log_sha256": hashlib.sha256(data).hexdigest(),
        # an oversized file is junk: its first bytes show what it was, the rest is not stored
        "log": data[:JUNK_KEPT] if err is not None and err.code == TOO_LARGE else data,
        "source": source,
        "player": player or unnamed_player(source, verdict.verification_id),
        "player_from_file": 0 if player else 1,
        "challenge": challenge,
        "ruleset": verdict.ruleset,
        "difficulty": verdict.difficulty,
        "verdict": verdict.verdict,
        "assurance": verdict.assurance,
        "outcome": verdict.outcome,
        "cause": verdict.cause,
        "score": None if score is None else score.total,
        "bunkers": None if score is None else score.bunkers,
        "artillery": None if score is None else score.artillery,
        "damage": None if score is None else score.damage,
        "claim_outcome": None if verdict.claim is None else verdict.claim[0],
        "claim_score": None if verdict.claim is None else verdict.claim[1],
        "turns": verdict.turns,
        "error_code": None if err is None else err.code,
        "error_line": None if err is None else err.line,
        "error_message": None if err is None else err.message,
        "submitted_at": submitted_at,
        "bgrid_version": version,
    }


def replay(row: sqlite3.Row, *, source: str | None = None, history: bool = False,
           verifier: Verifier | None = None) -> Verdict:
    """The verdict of a recorded entry (a row with ``log``, ``source``, ``error_code`` and
    ``verification_id``), replayed from its stored bytes: how ``league show`` and the
    published reports tell it. An entry refused for its size kept only its first bytes
    (``JUNK_KEPT``); its refusal is told again, with its recorded id."""
    memo = verifier if verifier is not None else Verifier()
    data = bytes(row["log"])
    if row["error_code"] == TOO_LARGE:
        data = data.ljust(MAX_BYTES + 1, b"\0")  # the size is all E001 looks at
    verdict = memo.verify(data, source=row["source"] if source is None else source, history=history)
    verdict.verification_id = row["verification_id"]
    return verdict


def submit_logs(conn: sqlite3.Connection, logs: Iterable[tuple[str, bytes]], *, batch: int = 1,
                clock: Callable[[], str] = utc_now) -> Iterator[Submission]:
    """Verify and record ``logs`` ((source name, bytes) pairs), ``batch`` logs per
    transaction, yielding one :class:`Submission` per log in order once its batch is
    committed. ``clock`` gives the submitted-at text of each log."""
    version = bgrid_version()
    verifier = Verifier()  # the missions of a batch of one challenge are built once
    pending: list[tuple[dict, Verdict]] = []
    for source, data in logs:
        known = entry_by_bytes(conn, hashlib.sha256(data).hexdigest())
        if known is not None:
            yield from _commit(conn, pending)
            pending = []
            yield Submission(source, known["id"], False, known["verification_id"], known["verdict"],
                             "", False, None, f"{source}: duplicate of entry {known['id']} "
                             f"[id {known['verification_id']}]")
            continue
        verdict = verifier.verify(data, source=source)
        pending.append((entry_row(data, source, verdict, clock(), version), verdict))
        if len(pending) >= batch:
            yield from _commit(conn, pending)
            pending = []
    yield from _commit(conn, pending)


def _commit(conn: sqlite3.Connection, pending: list[tuple[dict, Verdict]]) -> Iterator[Submission]:
    if not pending:
        return
    stored = record(conn, [row for row, _ in pending])
    for (row, verdict), done in zip(pending, stored, strict=True):
        summary = verdict.summary() if done.is_new else \
            f"{row['source']}: duplicate of entry {done.entry_id} [id {row['verification_id']}]"
        yield Submission(row["source"], done.entry_id, done.is_new, row["verification_id"],
                         row["verdict"], row["player"], bool(row["player_from_file"]),
                         row["challenge"], summary)
