"""``bgrid league backup DB OUT`` and ``bgrid league check DB``: a consistent, checked copy of a
league taken while it is served, written whole under a new name or not at all; the check of
any file; and the restore docs/hosting.md gives (stop, copy, start)."""

from __future__ import annotations

import http.client
import json
import os
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from bgrid.cli import cli
from bgrid.league import create_league, open_league
from bgrid.league.store import LeagueError
from bgrid.league.submit import submit_logs
from bgrid.league.windows import open_challenge
from league_logs import CODE, games

HOST = "127.0.0.1"
BGRID = str(Path(sys.executable).with_name("bgrid"))


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def league_with(tmp_path: Path, count: int, name: str = "league.db") -> Path:
    """A league holding ``count`` valid entries by 10 players."""
    db = tmp_path / name
    create_league(db)
    conn = open_league(db)
    try:
        list(submit_logs(conn, ((f"g{k}.log", g.by(f"P{k % 10}")) for k, g in enumerate(games(count)))))
    finally:
        conn.close()
    return db


def entry_ids(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [row[0] for row in conn.execute("SELECT verification_id FROM entries ORDER BY id")]


def test_a_backup_is_one_checked_file_holding_every_entry(tmp_path):
    db = league_with(tmp_path, 30)
    out = tmp_path / "backups" / "league-1.db"
    out.parent.mkdir()
    result = run("league", "backup", str(db), str(out))
    assert result.exit_code == 0, result.output
    assert "30 entries, 30 stored logs" in result.output and "integrity check: ok" in result.output
    assert entry_ids(out) == entry_ids(db)
    with sqlite3.connect(out) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        # one file, readable anywhere: no -wal to carry beside it
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    assert sorted(p.name for p in out.parent.iterdir()) == ["league-1.db"]  # no temporary file left
    assert os.stat(out).st_mode & 0o077 == 0  # it holds the session secret: its owner's only


@pytest.mark.parametrize("target", ["league.db", "league.db-wal", "league.db-shm", "league.db-journal",
                                    "old.db", "notes.txt", "fresh.db"])
def test_a_backup_never_writes_over_a_file_or_a_companion_of_a_database(tmp_path, target):
    db = league_with(tmp_path, 3)
    (tmp_path / "notes.txt").write_text("mine\n")
    shutil.copy(db, tmp_path / "old.db")
    if target == "fresh.db":  # a new name, but a stale -wal of that name would be read into the copy
        (tmp_path / "fresh.db-wal").write_bytes(b"stale")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    result = run("league", "backup", str(db), str(tmp_path / target))
    assert result.exit_code == 2, result.output
    assert "will not write the backup" in result.output or "one of the inputs" in result.output
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    assert {k: v for k, v in after.items() if not k.startswith("league.db-")} == \
        {k: v for k, v in before.items() if not k.startswith("league.db-")}
    assert not any(name.startswith(".bgrid-") for name in after)


def test_the_check_passes_a_sound_league_and_says_what_it_holds(tmp_path):
    db = league_with(tmp_path, 12)
    result = run("league", "check", str(db))
    assert result.exit_code == 0, result.output
    assert "a league, schema" in result.output and "12 entries, 12 stored logs, 0 players" in result.output


def test_the_check_fails_a_damaged_file_and_one_that_is_no_league(tmp_path):
    db = league_with(tmp_path, 60)
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = db.read_bytes()
    page = 4096
    rng = random.Random(7)
    failed = 0
    for trial in range(8):
        broken = tmp_path / f"broken-{trial}.db"
        number = rng.randrange(2, len(data) // page)
        broken.write_bytes(data[:number * page] + rng.randbytes(page) + data[(number + 1) * page:])
        try:
            with sqlite3.connect(broken) as conn:
                damaged = conn.execute("PRAGMA integrity_check").fetchone()[0] != "ok"
        except sqlite3.DatabaseError:
            damaged = True
        result = run("league", "check", str(broken))
        assert result.exit_code == (1 if damaged else 0), (trial, result.output)
        if damaged:
            assert "damaged" in result.output
            failed += 1
            # nor is it backed up: the copy fails the same check, and nothing is written
            copied = run("league", "backup", str(broken), str(tmp_path / f"copy-{trial}.db"))
            assert copied.exit_code == 2 and "fails its check" in copied.output, copied.output
            assert not (tmp_path / f"copy-{trial}.db").exists()
    assert failed >= 4
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE t (x)")
    result = run("league", "check", str(other))
    assert result.exit_code == 1 and "not a league database" in result.output
    (tmp_path / "text.db").write_text("hello\n")
    result = run("league", "check", str(tmp_path / "text.db"))
    assert result.exit_code == 1 and "not a database" in result.output


def test_a_restore_as_documented_brings_the_backed_up_league_back(tmp_path):
    """docs/hosting.md: stop the server, move LEAGUE.db and its -wal and -shm aside, copy the
    backup to LEAGUE.db, check it, start the server."""
    db = league_with(tmp_path, 20)
    backup = tmp_path / "backup.db"
    assert run("league", "backup", str(db), str(backup)).exit_code == 0
    kept = entry_ids(db)
    conn = open_league(db)  # later entries, left in the -wal as a killed server leaves them
    list(submit_logs(conn, ((f"h{k}.log", g.by(f"Q{k}")) for k, g in enumerate(games(25)[20:]))))
    assert len(entry_ids(db)) == 25
    aside = tmp_path / "damaged"
    aside.mkdir()
    for name in ("league.db", "league.db-wal", "league.db-shm"):
        if (tmp_path / name).exists():
            (tmp_path / name).rename(aside / name)
    conn.close()
    shutil.copy(backup, db)
    assert run("league", "check", str(db)).exit_code == 0
    served = Served(db)
    try:
        status, body = served.get(f"/api/entries/{len(kept)}")
        assert status == 200 and body["verification_id"] == kept[-1]
        assert served.get(f"/api/entries/{len(kept) + 1}")[0] == 404
    finally:
        served.stop()
    assert entry_ids(db) == kept


class Served:
    """``bgrid serve DB`` on 127.0.0.1 (its limits out of the way), stopped by the test."""

    def __init__(self, db: Path, workers: int = 1) -> None:
        with socket.socket() as s:
            s.bind((HOST, 0))
            self.port = s.getsockname()[1]
        self.process = subprocess.Popen(
            [BGRID, "serve", str(db), "--port", str(self.port), "--workers", str(workers), "--threads", "4",
             "--submit-limit", "100000 per minute", "--register-limit", "100000 per minute",
             "--no-access-log"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
        deadline = time.monotonic() + 60
        while True:
            try:
                if self.get("/api/challenges")[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline and self.process.poll() is None, "the server did not start"
            time.sleep(0.2)

    def request(self, conn: http.client.HTTPConnection, method: str, path: str, body: bytes | None = None,
                headers: dict | None = None) -> tuple[int, dict]:
        conn.request(method, path, body=body, headers=headers or {})
        answer = conn.getresponse()
        return answer.status, json.loads(answer.read() or b"null")

    def get(self, path: str) -> tuple[int, dict]:
        conn = http.client.HTTPConnection(HOST, self.port, timeout=60)
        try:
            return self.request(conn, "GET", path)
        finally:
            conn.close()

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=40)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="--workers above 1 needs fork()")
def test_a_backup_taken_during_a_burst_holds_every_entry_answered_before_it(tmp_path):
    """2 workers take 2,000 submissions (200 players, 10 games each) from 6 clients; a backup
    is taken once 600 are answered. The copy passes integrity_check, holds every entry
    answered 201 before the backup began, and only entries the league holds."""
    db = tmp_path / "league.db"
    create_league(db)
    conn = open_league(db)
    open_challenge(conn, CODE, "2000-01-01", "2100-01-01", now="2026-12-01T10:00:00Z")
    conn.close()
    served = Served(db, workers=2)
    try:
        setup = http.client.HTTPConnection(HOST, served.port, timeout=60)
        keys = {}
        for p in range(200):
            name = json.dumps({"name": f"P{p:03d}"}).encode()
            status, body = served.request(setup, "POST", "/api/players", name,
                                          {"Content-Type": "application/json"})
            assert status == 201, body
            keys[f"P{p:03d}"] = body["key"]
        setup.close()
        jobs = [(f"P{p:03d}", g.by(f"P{p:03d}")) for g in games(10) for p in range(200)]
        answered: list[tuple[float, int, int]] = []  # (when, status, entry)
        lock = threading.Lock()
        cursor = iter(range(len(jobs)))
        backup_began = threading.Event()
        backup_result: list = []

        def client() -> None:
            conn = http.client.HTTPConnection(HOST, served.port, timeout=120)
            while (k := next(cursor, None)) is not None:
                player, data = jobs[k]
                status, body = served.request(conn, "POST", "/api/submissions", data,
                                              {"Authorization": f"Bearer {keys[player]}"})
                with lock:
                    answered.append((time.monotonic(), status, body.get("entry", 0)))
                    if len(answered) == 600:
                        backup_began.set()
            conn.close()

        def back_up() -> None:
            backup_began.wait(300)
            began = time.monotonic()
            done = subprocess.run([BGRID, "league", "backup", str(db), str(tmp_path / "copy.db")],
                                  capture_output=True, text=True, timeout=300)
            backup_result.extend([began, done])

        threads = [threading.Thread(target=client) for _ in range(6)] + [threading.Thread(target=back_up)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        served.stop()
    began, done = backup_result
    assert done.returncode == 0, done.stderr
    assert sorted(status for _, status, _ in answered) == [201] * 2000
    before = {entry for when, status, entry in answered if status == 201 and when < began}
    assert len(before) >= 600
    copy = tmp_path / "copy.db"
    with sqlite3.connect(copy) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        held = {row[0]: row[1] for row in conn.execute("SELECT id, verification_id FROM entries")}
        assert conn.execute("SELECT COUNT(*) FROM logs").fetchone()[0] == len(held)
    assert before <= set(held)
    with sqlite3.connect(db) as conn:
        final = {row[0]: row[1] for row in conn.execute("SELECT id, verification_id FROM entries")}
    assert len(final) == 2000 and all(final[k] == v for k, v in held.items())
    assert f"{len(held):,} entries" in done.stdout


def _restored_beside_the_old_wal(tmp_path: Path) -> tuple[Path, Path]:
    """A league of 5 entries backed up, then 20 later rows kept in its -wal only (what a killed
    server leaves), then the backup copied over it by hand with that -wal forgotten beside it.
    Returns the league and the backup."""
    db = league_with(tmp_path, 5)
    backup = tmp_path / "backup.db"
    assert run("league", "backup", str(db), str(backup)).exit_code == 0
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    for k in range(20):
        conn.execute("INSERT INTO settings (name, value) VALUES (?, ?)", (f"later-{k}", "x" * 1000))
        conn.commit()
    kept_wal = tmp_path / "kept-wal"
    shutil.copyfile(f"{db}-wal", kept_wal)  # what a killed server leaves
    conn.close()
    shutil.copyfile(backup, db)  # the restore, the old -wal forgotten
    shutil.copyfile(kept_wal, f"{db}-wal")
    return db, backup


def later_rows(db: Path | str) -> int:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT count(*) FROM settings WHERE name LIKE 'later-%'").fetchone()[0]
    finally:
        conn.close()


def test_a_backup_restored_beside_the_old_wal_is_refused_not_merged(tmp_path):
    """A backup copied over a league whose -wal (from a killed server, say) is still beside
    it: SQLite keeps no mark of which file a -wal belongs to, and opened the copy with the old
    file's pages written in (rows the backup never held). Every open refuses the copy (a single
    file, its header not in WAL mode, beside a -wal holding pages), naming the -wal and the
    command that puts the backup in place, and leaves it as it was; today's main opened it
    ('bgrid league list' exit 0) and wrote the old pages in."""
    db, backup = _restored_beside_the_old_wal(tmp_path)
    restored = db.read_bytes()
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "zed.log").write_bytes(games(6)[5].by("Zed"))
    for args in (["list", str(db)], ["standings", str(db)], ["submit", str(db), str(tmp_path / "in")]):
        answer = run("league", *args)
        assert answer.exit_code != 0 and f"'{db}-wal' beside it is not this file's" in answer.output, args
        assert f"bgrid league restore {db} BACKUP" in answer.output, args
        assert "Traceback" not in answer.output
    with pytest.raises(LeagueError, match="beside it is not this file's"):
        open_league(db, write=False)
    with socket.socket() as free:
        free.bind((HOST, 0))
        port = free.getsockname()[1]
    served = subprocess.run([BGRID, "serve", str(db), "--host", HOST, "--port", str(port)],
                            capture_output=True, text=True, timeout=60)
    assert served.returncode == 2 and f"'{db}-wal' beside it is not this file's" in served.stderr
    assert "Traceback" not in served.stderr
    assert db.read_bytes() == restored
    os.replace(f"{db}-wal", tmp_path / "old-wal")
    assert run("league", "check", str(db)).exit_code == 0
    conn = open_league(db, write=False)
    assert conn.execute("SELECT count(*) FROM settings WHERE name LIKE 'later-%'").fetchone()[0] == 0
    assert conn.execute("SELECT count(*) FROM entries").fetchone()[0] == 5
    conn.close()


def test_league_check_calls_a_copy_beside_another_files_wal_unsafe_not_damaged(tmp_path):
    """Today's main: "league.db: damaged: 'league.db-wal' beside it is not this file's ..." for
    a sound file. The check reads the file alone, says what it holds, and that it is not safe
    to open where it lies (exit 1)."""
    db, _ = _restored_beside_the_old_wal(tmp_path)
    check = run("league", "check", str(db))
    assert check.exit_code == 1
    assert "damaged" not in check.output
    assert "5 entries, 5 stored logs" in check.output and "SQLite's integrity check: ok" in check.output
    assert f"not safe to open where it lies: '{db}-wal' beside it is not this file's" in check.output


def test_league_restore_puts_the_backup_in_place_and_the_old_files_aside(tmp_path):
    """``bgrid league restore LEAGUE BACKUP`` over the hand-made restore above: the league then
    holds the backup's 5 entries and none of the 20 later rows, opens and takes a submission;
    the file it replaced and its -wal and -shm are kept aside together (opened there, the old
    league still has its 20 later rows: nothing is deleted), and the backup is unchanged."""
    db, backup = _restored_beside_the_old_wal(tmp_path)
    Path(f"{db}-shm").write_bytes(b"\0" * 32768)  # a stale wal-index goes with its -wal
    before = backup.read_bytes()
    db.chmod(0o640)  # the league's mode (and owner) is the restored file's
    done = run("league", "restore", str(db), str(backup))
    assert done.exit_code == 0, done.output
    assert f"restored {backup} as {db}: 5 entries, 5 stored logs" in done.output
    aside = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("league.db.replaced-"))
    old = tmp_path / aside[0]
    assert aside == [old.name, f"{old.name}-shm", f"{old.name}-wal"]
    assert f"moved {db}-wal aside to {old}-wal" in done.output
    assert not Path(f"{db}-wal").exists() and not Path(f"{db}-shm").exists()
    assert backup.read_bytes() == before and db.stat().st_mode & 0o777 == 0o640
    assert run("league", "check", str(db)).exit_code == 0
    assert later_rows(db) == 0 and len(entry_ids(db)) == 5
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "zed.log").write_bytes(games(6)[5].by("Zed"))
    assert run("league", "submit", str(db), str(tmp_path / "in")).exit_code == 0
    assert len(entry_ids(db)) == 6
    Path(f"{old}-shm").unlink()  # a stale wal-index is rebuilt from its -wal
    assert later_rows(old) == 20


def test_league_restore_is_refused_while_the_league_is_open(tmp_path):
    """A running server has the league open: restoring under it would leave its workers
    writing to the file moved aside. Refused, nothing changed."""
    db = league_with(tmp_path, 5)
    backup = tmp_path / "backup.db"
    assert run("league", "backup", str(db), str(backup)).exit_code == 0
    before = db.read_bytes()  # not while the connection is open: closing a descriptor ends its locks
    conn = open_league(db)  # this process holds it, as bgrid serve would; the restore is another
    try:
        conn.execute("SELECT count(*) FROM entries").fetchone()
        done = subprocess.run([BGRID, "league", "restore", str(db), str(backup)], capture_output=True,
                              text=True, timeout=60)
    finally:
        conn.close()
    assert done.returncode != 0
    assert f"will not restore over '{db}': it is in use" in done.stderr + done.stdout
    assert "Traceback" not in done.stderr
    assert db.read_bytes() == before
    assert not [p for p in tmp_path.iterdir() if ".replaced-" in p.name]


def test_league_restore_refuses_a_damaged_backup_and_itself(tmp_path):
    db = league_with(tmp_path, 5)
    bad = tmp_path / "bad.db"
    bad.write_bytes(db.read_bytes()[:4096] + b"\xff" * 8192)
    before = db.read_bytes()
    refused = ((bad, "will not restore"), (db, "is the league"), (tmp_path / "none.db", "no league at"))
    for backup, said in refused:
        done = run("league", "restore", str(db), str(backup))
        assert done.exit_code != 0 and said in done.output and "Traceback" not in done.output, done.output
    assert db.read_bytes() == before
    assert not [p for p in tmp_path.iterdir() if ".replaced-" in p.name or p.name.endswith(".tmp")]


def test_a_second_connection_closed_keeps_the_first_ones_lock(tmp_path):
    """POSIX ends all of a process's locks on a file when it closes any descriptor of it. A
    league connection held (a server's worker thread) while another of the same process opens
    and closes (its FileWatch, the header read of the -wal check) must keep its SHARED lock;
    else another process takes itself for the last connection at its close and checkpoints
    and deletes the -wal still written to (entries answered 201 lost). On today's main the
    probe below takes the lock: the second connection's watch closed its descriptor."""
    db = league_with(tmp_path, 2)
    held = open_league(db)
    try:
        held.execute("SELECT count(*) FROM entries").fetchone()
        for write in (True, False):
            open_league(db, write=write).close()
        probe = ("import fcntl, os, sys\n"
                 f"fd = os.open({str(db)!r}, os.O_RDWR)\n"
                 "try:\n"
                 "    fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 512, 0x40000000)\n"
                 "except OSError:\n"
                 "    sys.exit(0)\n"
                 "sys.exit(1)\n")
        assert subprocess.run([sys.executable, "-c", probe], timeout=60).returncode == 0, "the lock was lost"
    finally:
        held.close()
