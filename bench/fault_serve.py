"""Fault test: SIGKILL `bgrid serve` at random moments of a submission burst, restart it,
and check the league (127.0.0.1 only; bounded: --trials bursts of --logs submissions).

    nice -n 10 .venv/bin/python bench/fault_serve.py [--trials 5] [--logs 300] [--clients 6]

Each trial: the server (``bgrid serve``'s default workers, one a core; ``--workers`` to
choose) takes a burst from ``--clients`` threads and is killed (SIGKILL to its whole process
group: the parent and every worker, as a crash of the machine would) after a random number
of answers (10–90% of the burst, so the kill lands inside it on a fast machine too); an
organiser action was audited before the burst. After each kill the server
is started again on the same file, and:
- every entry answered 201 is there, under its number, with its verification id, and its
  stored log re-verifies to its stored verdict and score;
- none is half-stored: every entry has its log and every log its entry; each player's
  ``results`` row equals the one worked out again from their entries; integrity_check ok;
- the audit log holds exactly the lines written before (append-only, none lost).
Exit status 0 when every trial passes.

Figures (5 trials of 200 logs, ``.ci/run``'s, 2 workers on the 2-core machine): 5 of 5 bursts
cut (6 requests each cut off unanswered), 24 to 167 entries answered 201 a burst, no check
failed, no 5xx.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

from serve_harness import BGRID, Server, burst, distinct_logs, invalid_logs, register_all

from bgrid.verifier.verify import verify_log

CODE = "0M00-0001-WR3"


def check_league(db: Path, answered: dict[int, str], audit_lines: int) -> list[str]:
    """The problems found in the league after a kill (none: an empty list)."""
    problems = []
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    try:
        if conn.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
            problems.append("integrity_check failed")
        for entry, vid in answered.items():
            row = conn.execute(
                "SELECT entries.*, logs.log FROM entries LEFT JOIN logs ON logs.entry_id = entries.id "
                "WHERE id = ?",
                (entry,),
            ).fetchone()
            if row is None or row["verification_id"] != vid:
                problems.append(f"entry #{entry} answered 201 is missing")
                continue
            if row["log"] is None:
                problems.append(f"entry #{entry} has no log")
                continue
            verdict = verify_log(bytes(row["log"]))
            score = verdict.score.total if verdict.score is not None else None
            if (verdict.verdict, score, verdict.verification_id) != (row["verdict"], row["score"], vid):
                problems.append(
                    f"entry #{entry} re-verifies to {verdict.verdict} {score}, stored {row['verdict']}"
                )
        orphans = conn.execute(
            "SELECT (SELECT COUNT(*) FROM entries WHERE id NOT IN (SELECT entry_id FROM logs)) "
            "+ (SELECT COUNT(*) FROM logs WHERE entry_id NOT IN (SELECT id FROM entries))"
        ).fetchone()[0]
        if orphans:
            problems.append(f"{orphans} half-stored entries")
        held = {
            (r["challenge"], r["player"]): tuple(r)
            for r in conn.execute(
                "SELECT challenge, player, attempts, entry_id FROM results ORDER BY challenge, player"
            )
        }
        conn.execute("BEGIN")
        from bgrid.league.store import rebuild_result

        pairs = conn.execute(
            "SELECT DISTINCT challenge, player FROM entries WHERE challenge IS NOT NULL"
        ).fetchall()
        for challenge, player in pairs:
            rebuild_result(conn, challenge, player)
        again = {
            (r["challenge"], r["player"]): tuple(r)
            for r in conn.execute(
                "SELECT challenge, player, attempts, entry_id FROM results ORDER BY challenge, player"
            )
        }
        conn.execute("ROLLBACK")
        if held != again:
            problems.append("the results table disagrees with the entries")
        if conn.execute("SELECT COUNT(*) FROM audit").fetchone()[0] != audit_lines:
            problems.append("the audit log lost or gained lines")
    finally:
        conn.close()
    return problems


def run_trials(
    trials: int, logs: int, clients: int, seed: int = 1, say=print, workers: int | None = None
) -> bool:
    rng = random.Random(seed)
    valid = distinct_logs(CODE, logs * trials, max(4, logs // 10), seed=23)
    jobs = valid + invalid_logs(valid, logs * trials // 5)
    rng.shuffle(jobs)
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "league.db"
        subprocess.run(
            [BGRID, "league", "init", str(db), "--admin-key-file", str(Path(tmp) / "org.key")],
            check=True,
            capture_output=True,
        )
        subprocess.run(
            [BGRID, "league", "open", str(db), CODE, "--from", "2000-01-01", "--until", "2100-01-01"],
            check=True,
            capture_output=True,
        )
        server = Server(db, workers=workers)
        keys = register_all(server, [p for p, _ in valid])
        organiser = (Path(tmp) / "org.key").read_text().strip()
        answered: dict[int, str] = {}
        audit_lines = 1  # the window opened above
        cut_trials = 0  # trials whose burst the kill cut (one that ended before it proves less)
        for trial in range(trials):
            part = jobs[trial * len(jobs) // trials : (trial + 1) * len(jobs) // trials]
            status, body = server.request(
                "POST",
                "/api/admin/entries/1/withdraw",
                b'{"reason": "fault test"}',
                organiser,
                "application/json",
            )
            audit_lines += status == 200
            kill_after = rng.randint(len(part) // 10, len(part) * 9 // 10)
            answers = burst(server, part, keys, clients, kill_after=kill_after)
            cut = sum(1 for _, s, _, _ in answers if s == 0)
            stored = [(k, b) for k, s, b, _ in answers if s == 201]
            answered.update({b["entry"]: b["verification_id"] for _, b in stored})
            server = Server(db, workers=workers)
            problems = check_league(db, answered, audit_lines)
            ok &= not problems
            fives = sum(1 for _, s, _, _ in answers if s >= 500)
            say(
                f"trial {trial + 1}: SIGKILL after {kill_after} answers, "
                f"{len(stored)} answered 201 of {len(part)} sent, "
                f"{cut} requests cut off unanswered, {fives} 5xx; "
                f"{'ok' if not problems else 'PROBLEMS: ' + '; '.join(problems[:5])}"
            )
            ok &= fives == 0
            cut_trials += cut > 0
        server.stop()
    say(f"{cut_trials} of {trials} bursts cut by the kill")
    return ok and cut_trials * 2 >= trials


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--logs", type=int, default=300, help="submissions per trial")
    parser.add_argument("--clients", type=int, default=6)
    parser.add_argument("--workers", type=int, default=None, help="bgrid serve --workers")
    args = parser.parse_args()
    if not (
        1 <= args.trials <= 50
        and 1 <= args.logs <= 2000
        and 1 <= args.clients <= 32
        and (args.workers is None or 1 <= args.workers <= 8)
    ):
        parser.error("bounded: --trials 1-50, --logs 1-2000, --clients 1-32, --workers 1-8")
    return 0 if run_trials(args.trials, args.logs, args.clients, workers=args.workers) else 1


if __name__ == "__main__":
    sys.exit(main())
