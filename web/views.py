"""Small request-side helpers shared by the pages and the API (no league logic here)."""

from __future__ import annotations

from flask import Response

from ..league.public import challenge_list as _challenge_list
from ..league.public import entry_record, runs_challenge, standings_of, stored_log
from ..league.windows import utc_moment


def utc_second() -> str:
    return utc_moment()


def challenge_list(conn) -> list[dict]:
    return _challenge_list(conn, utc_second())


def standings_json(conn, code: str) -> dict | None:
    stored = runs_challenge(conn, code)
    return None if stored is None else standings_of(conn, [stored]).as_dict()


def log_download(conn, number: int):
    """The entry's stored log as a download, byte for byte, or None (no such entry)."""
    data = stored_log(conn, number)
    if data is None:
        return None
    return Response(data, mimetype="text/plain",
                    headers={"Content-Disposition": f'attachment; filename="entry-{number}.log"'})


__all__ = ["log_download", "challenge_list", "entry_record", "standings_json", "stored_log", "utc_second"]
