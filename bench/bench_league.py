"""Benchmark: a league's submit speed against verification speed, its size, and standings time.

    nice -n 10 .venv/bin/python bench/bench_league.py [--logs 20000] [--rows 100000] [--rounds 5]

1. ``--logs`` simulated logs of one weekly challenge, as a week's inbox would hold (each of
   ``--logs / 10`` simulated games sent by ten players, so every log has its own
   verification id), written first (not timed).
2. Verification alone (``verify_log`` on every log), then ``submit_logs`` into a fresh
   league with one transaction per log and with one per 100 logs: logs/s of each (wall
   clock and CPU time), the ratio to verification alone in CPU time (1.0 = the database
   costs nothing; CPU time, because on a shared machine the wall clock mostly measures the
   other jobs) and the database size.
3. Standings of a challenge with ``--rows`` entries (the scale target, 100,000) by 60% as
   many players (so many have several attempts), 10% invalid, inserted directly into a
   league that also holds three smaller challenges (10% as many entries each): the median
   over ``--rounds`` of ``compute_standings`` for that challenge (target under one second),
   and for all four with the season table; wall clock and CPU time (on a loaded machine the
   CPU time is the fairer figure).

Figures (defaults, a loaded 2-core machine; the table is in docs/league.md): verification
alone 788 logs/s CPU; submit at 0.66-0.80 of that with one transaction per log and 0.81-0.96
with 100 logs per transaction (three runs); 1.3-1.5 kB a log in the database (26.2 MB for
20,000); standings of the 100,000-entry challenge 0.53 s CPU (1.4 s wall), all four
challenges with the season table 1.17 s CPU (3.5 s wall).
"""

from __future__ import annotations

import argparse
import functools
import itertools
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from bgrid.league import compute_standings, create_league, open_league, submit_logs
from bgrid.league.store import COLUMNS, record
from bgrid.log.reader import read_header
from bgrid.log.writer import header_text
from bgrid.challenges.daily import WEEKLY, dated_code
from bgrid.challenges.mission import mission_from_code
from bgrid.challenges.seeding import stream
from bgrid.players.simulated_logs import simulated_log
from bgrid.verifier.verify import verify_log

STANDINGS_TARGET_S = 1.0


def inbox(count: int, code: str, label: str = "bench") -> list[tuple[str, bytes]]:
    """``count`` simulated logs of ``code`` as (file name, bytes): ten players a game, each its
    own log; the games are seeded by ``label`` (one bench's inbox differs from another's)."""
    mission = mission_from_code(code)
    out = []
    for k in range(max(1, count // 10)):
        text, _ = simulated_log(mission, stream(mission.ruleset.name, f"{label}-{k}", 3), challenge_deck=True)
        header, body_start = read_header(text)
        body = "\n".join(text.split("\n")[body_start:])
        for p in range(10):
            if len(out) < count:
                text = header_text(header, player=f"P{k % 997}-{p}") + body
                out.append((f"g{k}-{p}.log", text.encode()))
    return out


def timed_submit(logs, batch: int, folder: Path) -> tuple[float, float, int]:
    """Wall and CPU seconds of submitting ``logs`` into a fresh league, and its size."""
    path = folder / f"league-{batch}.db"
    create_league(path)
    conn = open_league(path)
    wall, cpu = time.perf_counter(), time.process_time()
    done = sum(1 for _ in submit_logs(conn, logs, batch=batch))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    assert done == len(logs)
    return wall, cpu, path.stat().st_size


def synthetic_rows(n: int, code: str, first: int = 0):
    """``n`` entries of challenge ``code``, numbered from ``first``."""
    rng = random.Random(first)
    log = b"x" * 1300  # about a real log's size
    for k in range(first, first + n):
        valid = rng.random() >= 0.1
        yield {c: None for c in COLUMNS} | {
            "verification_id": f"{k:016x}", "log_sha256": f"{k:064x}", "log": log, "source": f"g{k}.log",
            "player": f"P{rng.randrange(n * 6 // 10)}", "player_from_file": 0, "challenge": code,
            "ruleset": "standard-1", "difficulty": "normal", "verdict": "valid" if valid else "invalid",
            "outcome": "victory" if valid and rng.random() < 0.2 else "defeat" if valid else None,
            "score": rng.randint(-6, 16) if valid else None, "turns": rng.randint(5, 90),
            "damage": rng.randint(0, 5) if valid else None,
            "error_code": None if valid else "E206", "error_line": None if valid else rng.randint(5, 80),
            "error_message": None if valid else "the challenge deck gives KS as the draw card here, not KD",
            "submitted_at":
                f"2026-12-01T{k // 3600 % 24:02d}:{k // 60 % 60:02d}:{k % 60:02d}.{k % 10**6:06d}Z",
            "bgrid_version": "bench"}


def timed(call, rounds: int) -> tuple[float, float, object]:
    """Median wall and CPU seconds of ``call()`` over ``rounds``, and its last result."""
    walls, cpus = [], []
    for _ in range(rounds):
        wall, cpu = time.perf_counter(), time.process_time()
        result = call()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus), result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--logs", type=int, default=20_000)
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    from datetime import date

    code = dated_code(date(2026, 12, 1), period=WEEKLY)
    logs = inbox(args.logs, code)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        wall, cpu = time.perf_counter(), time.process_time()
        for name, data in logs:
            verify_log(data, source=name)
        verify_wall, verify_cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(f"{len(logs)} logs of {code}: verification alone {len(logs) / verify_wall:,.0f} logs/s wall, "
              f"{len(logs) / verify_cpu:,.0f} logs/s CPU")
        for batch in (1, 100):
            wall, cpu, size = timed_submit(logs, batch, folder)
            print(f"  submit, {batch:>3} log(s) per transaction: {len(logs) / wall:,.0f} logs/s wall, "
                  f"{len(logs) / cpu:,.0f} logs/s CPU ({verify_cpu / cpu:.2f} of verification speed in CPU "
                  f"time), database {size / 1e6:.1f} MB ({size / len(logs) / 1000:.2f} kB a log)")

        path = folder / "big.db"
        create_league(path)
        conn = open_league(path)
        codes = [dated_code(date(2026, 11, 2 + 7 * w), period=WEEKLY) for w in range(4)]
        sizes = [args.rows] + [args.rows // 10] * 3
        first = 0
        for code_w, size in zip(codes, sizes, strict=True):
            rows = synthetic_rows(size, code_w, first)
            first += size
            while chunk := list(itertools.islice(rows, 10_000)):
                record(conn, chunk)
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        print(f"standings, league of {first:,} entries ({os.path.getsize(path) / 1e6:.0f} MB), "
              f"median of {args.rounds}:")
        for label, challenges in ((f"one challenge of {args.rows:,} entries", [codes[0]]),
                                  ("all four, with the season table", [])):
            wall, cpu, table = timed(functools.partial(compute_standings, conn, challenges), args.rounds)
            print(f"  {label}: {wall:.3f} s wall, {cpu:.3f} s CPU ({len(table.standings):,} ranked, "
                  f"{len(table.unranked):,} unranked; CPU {cpu / STANDINGS_TARGET_S:.2f} of the 1 s target)")
        conn.close()


if __name__ == "__main__":
    main()
