"""The challenges a league runs: each code with its window (UTC) and attempts policy.

A submission for a code the league does not run, or outside its window, is refused and
never stored; since nothing enters after the close, the standings freeze there.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime

from ..challenges.codes import decode_code, encode_code
from ..rules.errors import BGridError
from .admin import audit
from .store import BEST, FIRST, rebuild_result, transaction

MOST_ATTEMPTS = 999


class WindowError(BGridError):
    """A window or attempts policy that cannot be read."""


def parse_moment(text: str) -> str:
    """An ISO 8601 moment as stored: UTC, ``YYYY-MM-DDTHH:MM:SSZ``. A moment without an
    offset is taken as UTC; a date alone is its midnight.

    >>> parse_moment("2026-12-07")
    '2026-12-07T00:00:00Z'
    >>> parse_moment("2026-12-07T09:30+01:00")
    '2026-12-07T08:30:00Z'
    """
    raw = text.strip()
    try:
        moment = datetime.fromisoformat(raw[:-1] + "+00:00" if raw.endswith(("Z", "z")) else raw)
    except ValueError:
        raise WindowError(f"'{text}' is not an ISO 8601 moment, e.g. 2026-12-07T00:00Z") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    except OverflowError:  # 0001-01-01T00:00+01:00 is in the year 0 in UTC
        raise WindowError(f"'{text}' is outside the years 1-9999 in UTC") from None


def parse_attempts(text: str) -> str:
    """``best`` (every attempt counts, the best is kept), ``first`` (the first valid entry
    only), or N (only the first N entries count)."""
    value = text.strip().lower()
    if value in (BEST, FIRST):
        return value
    if value.isascii() and value.isdigit() and 1 <= int(value) <= MOST_ATTEMPTS:
        return str(int(value))
    raise WindowError(f"attempts '{text}': give best, first, or a number of attempts 1-{MOST_ATTEMPTS}")


def describe_attempts(policy: str) -> str:
    """The policy in words, as the challenge page shows it."""
    if policy == BEST:
        return "best of all attempts"
    if policy == FIRST:
        return "first valid attempt only"
    return f"best of the first {policy} attempt{'s' if policy != '1' else ''}"


def standard_code(code: str) -> str:
    """A challenge code in its printed form (raises ``ChallengeCodeError``)."""
    return encode_code(decode_code(code))


@dataclass(frozen=True)
class Window:
    code: str
    opens: str
    closes: str
    attempts: str

    def is_open(self, now: str) -> bool:
        return self.opens <= now < self.closes

    def text(self) -> str:
        return f"open from {self.opens} until {self.closes} (UTC)"

    def as_dict(self, now: str, par: int | None) -> dict:
        return {
            "code": self.code,
            "opens": self.opens,
            "closes": self.closes,
            "open": self.is_open(now),
            "par": par,
            "attempts": self.attempts,
        }


def open_challenge(
    conn: sqlite3.Connection,
    code: str,
    opens: str,
    closes: str,
    attempts: str = BEST,
    *,
    now: str,
    reason: str = "bgrid league open",
) -> Window:
    """Run ``code`` in the league from ``opens`` until ``closes`` (or change its window or
    policy; each player's result is worked out again under the policy). The audit log has it."""
    window = Window(standard_code(code), parse_moment(opens), parse_moment(closes), parse_attempts(attempts))
    if window.closes <= window.opens:
        raise WindowError(f"the window closes ({window.closes}) before it opens ({window.opens})")
    with transaction(conn):
        conn.execute(
            "INSERT INTO challenges (code, opens, closes, attempts) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (code) DO UPDATE SET opens = excluded.opens, closes = excluded.closes, "
            "attempts = excluded.attempts",
            (window.code, window.opens, window.closes, window.attempts),
        )
        for (player,) in conn.execute(
            "SELECT DISTINCT player FROM entries WHERE challenge = ?", (window.code,)
        ).fetchall():
            rebuild_result(conn, window.code, player)
        audit(
            conn,
            now,
            "open challenge",
            f"challenge {window.code}: {window.text()}, {describe_attempts(window.attempts)}",
            reason,
        )
    return window


def league_windows(conn: sqlite3.Connection) -> list[Window]:
    """The challenges the league runs, the latest window first."""
    return [
        Window(*row)
        for row in conn.execute(
            "SELECT code, opens, closes, attempts FROM challenges ORDER BY opens DESC, code"
        )
    ]


def window_of(conn: sqlite3.Connection, code: str) -> Window | None:
    row = conn.execute(
        "SELECT code, opens, closes, attempts FROM challenges WHERE code = ?", (code,)
    ).fetchone()
    return None if row is None else Window(*row)


def utc_moment(now: datetime | None = None) -> str:
    """A moment in the stored form (the windows' resolution, seconds)."""
    return (now or datetime.now(UTC)).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
