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
    rng = random.Random(trial)
    # A loaded machine can deschedule this poller while the submit records its last rows: a run
    # that ended before the kill tested nothing, so it is tried again (a new league, a new point).
    for _attempt in range(5):
        db = tmp_path / f"l{_attempt}.db"
        create_league(db)
        target = rng.randint(1, total - 2 * batch)  # kill once this many rows are in
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
        if 0 < before < total:
            break
    assert 0 < before < total, "the submit was not killed mid-run in 5 attempts"
    assert before % batch == 0  # batches land whole
    rerun = subprocess.run(BGRID + ["league", "submit", str(db), str(inbox)], capture_output=True, text=True,
                           timeout=300)
    assert rerun.returncode == 0, rerun.stderr
    assert rerun.stdout.rstrip().endswith(f"recorded {total - before}, duplicates {before}, unreadable 0")
    assert consistent(db) == total


@pytest.mark.parametrize("folder_mode", [0o755, 0o555], ids=["writable folder", "read-only folder"])
def test_a_league_the_user_may_only_read_is_listed_and_ranked(small_inbox, folder_mode, as_nobody):
    """Another user's league file (0644) is listed, ranked and shown: only a command that
    writes opens the league for writing (else sqlite says "attempt to write a readonly
    database"). A submit is refused in one line and leaves the file as it was."""
    import shutil
    import tempfile

    prefix = as_nobody
    top = tempfile.mkdtemp(prefix="bgrid-ro-")
    try:
        db = os.path.join(top, "l.db")
        create_league(db)
        assert subprocess.run([*BGRID, "league", "submit", db, str(small_inbox)],
                              capture_output=True).returncode == 0
        os.chmod(db, 0o644 if prefix else 0o444)
        os.chmod(top, folder_mode)
        with open(db, "rb") as fh:
            before = fh.read()
        for args in (["list"], ["standings", "--json"], ["show", "1"]):
            proc = subprocess.run([*prefix, *BGRID, "league", args[0], db, *args[1:]], capture_output=True,
                                  timeout=120)
            assert proc.returncode == 0 and b"Traceback" not in proc.stderr, proc.stderr
            assert proc.stdout.count(b"\n") > 1
        submit = subprocess.run([*prefix, *BGRID, "league", "submit", db, str(small_inbox)],
                                capture_output=True, timeout=120)
        assert submit.returncode == 2 and submit.stderr.count(b"\n") == 1, submit.stderr
        with open(db, "rb") as fh:
            assert fh.read() == before
    finally:
        os.chmod(top, 0o755)
        shutil.rmtree(top)


def test_a_damaged_league_takes_no_new_entry(small_inbox, tmp_path):
    """A league SQLite itself finds damaged (integrity_check) refuses the submit, says so and
    what to do, and is left as it was: with one page randomised, a plain insert often still
    succeeds (9 of 20 trials) and buries the damage further."""
    clean = tmp_path / "clean.db"
    create_league(clean)
    assert subprocess.run([*BGRID, "league", "submit", str(clean), str(small_inbox)],
                          capture_output=True).returncode == 0
    data = clean.read_bytes()
    page = 4096
    rng = random.Random(19)
    refused = 0
    for trial in range(12):
        broken = tmp_path / f"broken-{trial}.db"
        number = rng.randrange(1, len(data) // page)
        noise = bytes(rng.randrange(256) for _ in range(page))
        broken.write_bytes(data[:number * page] + noise + data[(number + 1) * page:])
        try:
            with sqlite3.connect(broken) as conn:
                damaged = conn.execute("PRAGMA integrity_check").fetchone()[0] != "ok"
        except sqlite3.DatabaseError:
            damaged = True
        before = broken.read_bytes()
        proc = subprocess.run([*BGRID, "league", "submit", str(broken), str(small_inbox / "g0000.log")],
                              capture_output=True, timeout=120)
        assert b"Traceback" not in proc.stderr
        if damaged:
            assert proc.returncode == 2 and broken.read_bytes() == before, (trial, proc.stdout, proc.stderr)
            refused += 1
    assert refused >= 6
