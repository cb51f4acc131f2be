"""The league under pressure, in real processes: two submits at once both land whole, and
a submit killed with SIGKILL leaves a consistent database that a rerun completes."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from bgrid.league import create_league
from bgrid.verifier.verify import verify_log
from league_logs import games, write_logs

BGRID = [sys.executable, "-c", "import sys; from bgrid.cli import main; sys.argv[0] = 'bgrid'; main()"]


@pytest.fixture(scope="module")
def two_inboxes(tmp_path_factory):
    """1000 distinct logs by 40 players, in two folders of 500."""
    root = tmp_path_factory.mktemp("inboxes")
    pool = games(1000)
    for half in (0, 1):
        write_logs(root / f"in{half}", {f"g{k:04d}.log": pool[k].by(f"P{k % 40}")
                                        for k in range(500 * half, 500 * half + 500)})
    return root / "in0", root / "in1"


@pytest.fixture(scope="module")
def small_inbox(tmp_path_factory):
    folder = tmp_path_factory.mktemp("small") / "in"
    write_logs(folder, {f"g{k:04d}.log": g.by(f"P{k % 40}") for k, g in enumerate(games(1000)[:120])})
    return folder


def count(db) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT COUNT(*) FROM entries").fetchone()[0]


def test_two_submits_at_once_both_land_completely(tmp_path, two_inboxes):
    db = tmp_path / "l.db"
    create_league(db)
    runs = [subprocess.Popen(BGRID + ["league", "submit", str(db), str(folder)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True) for folder in two_inboxes]
    outputs = [run.communicate(timeout=300) for run in runs]
    for run, (out, err) in zip(runs, outputs, strict=True):
        assert run.returncode == 0, err
        assert out.rstrip().endswith("recorded 500, duplicates 0, unreadable 0")
    assert count(db) == 1000
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(DISTINCT verification_id) FROM entries").fetchone()[0] == 1000
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def consistent(db) -> int:
    """Check every recorded row is whole (its stored bytes give its recorded verdict);
    return the row count."""
    with sqlite3.connect(db) as conn:
        conn.row_factory = sqlite3.Row
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = conn.execute("SELECT * FROM entries JOIN logs ON logs.entry_id = entries.id").fetchall()
    for row in rows:
        verdict = verify_log(row["log"], source=row["source"])
        assert (verdict.verification_id, verdict.verdict, verdict.player) == \
            (row["verification_id"], row["verdict"], row["player"])
        assert verdict.score.total == row["score"] and verdict.turns == row["turns"]
    return len(rows)


@pytest.mark.parametrize("trial, batch", [(0, 1), (1, 1), (2, 16), (3, 16)])
def test_a_submit_killed_at_a_random_point_leaves_a_consistent_league_a_rerun_completes(
        tmp_path, small_inbox, trial, batch):
    inbox = small_inbox
    total = sum(1 for _ in inbox.iterdir())
    db = tmp_path / "l.db"
    create_league(db)
    target = random.Random(trial).randint(1, total - 2 * batch)  # kill once this many rows are in
    run = subprocess.Popen(BGRID + ["league", "submit", str(db), str(inbox), "--batch", str(batch)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while run.poll() is None and time.monotonic() < deadline:
        try:
            if count(db) >= target:
                break
        except sqlite3.OperationalError:  # the table is being created or the file is locked
            pass
        time.sleep(0.002)
    os.kill(run.pid, signal.SIGKILL)
    run.wait()
    before = consistent(db)
    assert 0 < before < total, "the submit was not killed mid-run"
    assert before % batch == 0  # batches land whole
    rerun = subprocess.run(BGRID + ["league", "submit", str(db), str(inbox)], capture_output=True, text=True,
                           timeout=300)
    assert rerun.returncode == 0, rerun.stderr
    assert rerun.stdout.rstrip().endswith(f"recorded {total - before}, duplicates {before}, unreadable 0")
    assert consistent(db) == total
