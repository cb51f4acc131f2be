"""The league file removed or truncated under a serving league (2 workers, a burst of 500
submissions from 6 clients): from then on every submission is refused with 503 and the
server's log names the problem (once a worker); no submission sent after the cut is answered
201, and every entry answered 201 is in the file the server opened (with the WAL beside its
name: a file removed by mistake and put back, ``ln`` from a link kept here, holds them all),
with its audit log intact.

Before, the server kept answering 201 after ``rm L.db`` (20 submissions), all of them gone
at its stop, and lost 24-25 answered entries to ``truncate -s 0``. Real processes on
127.0.0.1, stopped here."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import threading
import time

import pytest

from bgrid.league import create_league, open_league
from bgrid.league.windows import open_challenge
from league_logs import CODE, games
from test_serve_workers import Served

PLAYERS, GAMES, CUT_AFTER = 10, 50, 150


def audit_lines(path) -> list[tuple]:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT * FROM audit ORDER BY id").fetchall()


@pytest.mark.parametrize("cut", ["remove", "truncate"])
def test_a_league_file_cut_mid_burst_loses_no_entry_answered_201(tmp_path, cut):
    db = tmp_path / "league.db"
    create_league(db)
    conn = open_league(db)
    open_challenge(conn, CODE, "2000-01-01", "2100-01-01", now="2026-12-01T10:00:00Z")
    conn.close()
    audit_before = audit_lines(db)
    held = tmp_path / "held.db"  # the inode the server opened, still readable after the rm
    os.link(db, held)
    served = Served(db, workers=2)
    log: list[str] = []  # the server's stderr, drained: a full pipe would block its log
    draining = threading.Thread(target=lambda: log.extend(served.process.stderr), daemon=True)
    draining.start()
    try:
        keys = {}
        for p in range(PLAYERS):
            status, body = served.request("POST", "/api/players", json.dumps({"name": f"P{p}"}).encode(),
                                          {"Content-Type": "application/json"})
            assert status == 201, body
            keys[f"P{p}"] = body["key"]
        jobs = iter([(f"P{p}", g.by(f"P{p}")) for g in games(GAMES) for p in range(PLAYERS)])
        answered: list[tuple[float, int, dict]] = []  # (sent at, status, body)
        lock = threading.Lock()
        ready_to_cut = threading.Event()

        def client() -> None:
            while (job := next(jobs, None)) is not None:
                sent = time.monotonic()
                status, body = served.request("POST", "/api/submissions", job[1],
                                              {"Authorization": f"Bearer {keys[job[0]]}"})
                with lock:
                    answered.append((sent, status, body))
                    if len(answered) >= CUT_AFTER:
                        ready_to_cut.set()

        threads = [threading.Thread(target=client) for _ in range(6)]
        for t in threads:
            t.start()
        assert ready_to_cut.wait(120)
        if cut == "remove":
            db.unlink()
        else:
            os.truncate(db, 0)
        cut_at = time.monotonic()
        for t in threads:
            t.join(300)
        served.process.send_signal(signal.SIGTERM)
        served.process.wait(timeout=60)
        draining.join(10)
    finally:
        served.end()
    statuses = [status for _, status, _ in answered]
    assert len(statuses) == PLAYERS * GAMES and set(statuses) <= {201, 503}
    assert not [s for sent, s, _ in answered if sent > cut_at and s == 201]
    refused = [body for _, status, body in answered if status == 503]
    assert refused and all("nothing of this request was kept" in b["error"] for b in refused)
    said = "truncated to 0 bytes" if cut == "truncate" else "was removed while in use"
    said = [line for line in log if "league unavailable" in line and said in line]
    assert 1 <= len(said) <= 2 and not [line for line in log if "Traceback" in line]  # once a worker
    if cut == "remove":
        # what was answered 201 is in the file the server had opened and the WAL beside its
        # name, which SQLite reads back once the file is under its name again
        os.link(held, db)
        stored = {(e["player"], e["verification_id"]) for _, s, e in answered if s == 201}
        with sqlite3.connect(db) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            kept = set(conn.execute("SELECT player, verification_id FROM entries").fetchall())
        assert stored <= kept and len(stored) >= CUT_AFTER - 6
        assert audit_lines(db) == audit_before
