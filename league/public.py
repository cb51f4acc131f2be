"""What a league shows anyone, as plain data: its challenges, the standings of one, an
entry's receipt and its stored log. The server's pages and its JSON API both read these, so
they cannot disagree; ``standings_of`` is also what ``bgrid league standings --json`` prints.
"""

from __future__ import annotations

import sqlite3

from ..rules.errors import ChallengeCodeError
from .integrity import entry_flags
from .standings import Standings, compute_standings
from .store import challenge_pars, place_of
from .windows import league_windows, standard_code


def challenge_list(conn: sqlite3.Connection, now: str) -> list[dict]:
    """``[{code, opens, closes, open, par, attempts}]``, the latest window first."""
    pars = challenge_pars(conn)
    return [w.as_dict(now, pars[w.code].par if w.code in pars else None) for w in league_windows(conn)]


def runs_challenge(conn: sqlite3.Connection, code: str) -> str | None:
    """The code as the league stores it when the league runs it (opened, or with entries)."""
    try:
        code = standard_code(code)
    except ChallengeCodeError:
        return None
    if (
        conn.execute(
            "SELECT 1 FROM challenges WHERE code = ? UNION ALL SELECT 1 FROM entries WHERE challenge = ? "
            "LIMIT 1",
            (code, code),
        ).fetchone()
        is None
    ):
        return None
    return code


def standings_of(conn: sqlite3.Connection, codes: list[str], best: int | None = None) -> Standings:
    """The standings of some challenges (all when none): ``bgrid league standings`` and the
    server's ``/api/standings/CODE`` both call this."""
    return compute_standings(conn, codes, best)


def entry_record(conn: sqlite3.Connection, number: int) -> dict | None:
    """An entry's receipt: number, player, challenge, time, verdict, score, its first error,
    whether it counts in the standings, the place of the player's counted result in the
    challenge's standings (``{"rank", "of", "entry"}``, or None), whether it was withdrawn, and
    its flags."""
    row = conn.execute(
        "SELECT entries.*, results.entry_id AS counted FROM entries LEFT JOIN results "
        "ON results.challenge = entries.challenge AND results.player = entries.player "
        "WHERE entries.id = ?",
        (number,),
    ).fetchone()
    if row is None:
        return None
    error = (
        None
        if row["error_code"] is None
        else {"code": row["error_code"], "line": row["error_line"], "message": row["error_message"]}
    )
    return {
        "entry": row["id"],
        "challenge": row["challenge"],
        "player": row["player"],
        "submitted_at": row["submitted_at"],
        "verdict": row["verdict"],
        "outcome": row["outcome"],
        "score": row["score"],
        "turns": row["turns"],
        "verification_id": row["verification_id"],
        "error": error,
        "ranked": row["counted"] == row["id"],
        "place": place_of(conn, row["challenge"], row["player"]) if row["counted"] is not None else None,
        "withdrawn": row["withdrawn"],
        "flags": entry_flags(conn, number),
    }


def stored_log(conn: sqlite3.Connection, number: int) -> bytes | None:
    """The entry's log, byte for byte as it was submitted."""
    row = conn.execute("SELECT log FROM logs WHERE entry_id = ?", (number,)).fetchone()
    return None if row is None else bytes(row["log"])


def player_entries(conn: sqlite3.Connection, name: str) -> list[sqlite3.Row]:
    return conn.execute(
        "SELECT id, challenge, submitted_at, verdict, outcome, score, turns, withdrawn "
        "FROM entries WHERE player = ? ORDER BY id DESC",
        (name,),
    ).fetchall()
