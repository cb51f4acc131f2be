"""``GET /healthz``: whether the server can read its league, for a supervisor or a container's
HEALTHCHECK. 200 with the schema version and the challenges open now; 503, saying why, when the
league cannot be read or its file is no longer the one the server opened."""

from __future__ import annotations

import sqlite3

from flask import Blueprint, jsonify
from flask.typing import ResponseReturnValue

from ..league.store import LeagueError, failure_text
from .db import connection
from .views import challenge_list

health = Blueprint("health", __name__)


@health.get("/healthz")
def healthz() -> ResponseReturnValue:
    try:
        conn = connection()
        watch = getattr(conn, "watch", None)
        problem = watch.problem() if watch is not None else None
        if problem is None:
            schema = conn.execute("PRAGMA user_version").fetchone()[0]
            open_now = [c["code"] for c in challenge_list(conn) if c["open"]]
    except LeagueError as exc:
        problem = str(exc)
    except sqlite3.Error as exc:
        problem = f"the league cannot be read: {failure_text(exc)}"
    if problem is not None:
        answer = jsonify({"status": "unavailable", "error": problem})
    else:
        answer = jsonify({"status": "ok", "schema": schema, "open_challenges": open_now})
    answer.headers["Cache-Control"] = "no-store"
    return answer, 503 if problem is not None else 200
