"""Benchmark: publishing a league's standings page and its replay reports.

    nice -n 10 .venv/bin/python bench/bench_league_publish.py [--entries 3000] [--rounds 3]

A league of ``--entries`` distinct simulated logs of one weekly challenge (ten players a game,
each its own log) is submitted once (not timed). Then, ``--rounds`` times each, medians:

1. the first publish into an empty folder (every report written): replay reports a second, by
   CPU time (``process_time``: on a shared machine the wall clock mostly measures the other
   jobs) and by wall clock; target at least 100 a second;
2. a republish of the unchanged site: how many reports it writes (target 0) and its time;
3. a republish after a tenth of the reports were replaced by a report of an older format
   (``OLD_REPORT``): how many it writes (target: that tenth, no more).

Figures (2,000 entries, a loaded 2-core machine): the first publish 156 reports a second of
CPU (26 of wall clock); a republish of the unchanged site writes 0 in 0.06 s of CPU; with a
tenth of the reports stale, 200 of 200 rewritten.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from bgrid.league import compute_standings, create_league, open_league, submit_logs
from bgrid.league.page import publish

from bench_league import inbox

OLD_REPORT = "<!DOCTYPE html>\n<html><body><output>turn 1 of 1</output></body></html>\n"


def timed_publish(conn, table, page: Path):
    wall, cpu = time.perf_counter(), time.process_time()
    done = publish(conn, table, page, title="bench", generated="now")
    return time.perf_counter() - wall, time.process_time() - cpu, done


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--entries", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    code = "0M00-0001-WR3"
    # on the disk the site would be published to (the current folder), not a RAM /tmp
    with tempfile.TemporaryDirectory(prefix="bench-publish-", dir=".") as tmp:
        folder = Path(tmp)
        db = folder / "league.db"
        create_league(db)
        conn = open_league(db)
        for _ in submit_logs(conn, inbox(args.entries, code, "pub"), batch=100):
            pass
        table = compute_standings(conn)
        print(f"league: {len(table.standings)} ranked, {len(table.unranked)} unranked entries")
        first, again, stale = [], [], []
        for r in range(args.rounds):
            site = folder / f"site-{r}"
            site.mkdir()
            page = site / "standings.html"
            wall, cpu, done = timed_publish(conn, table, page)
            first.append((wall, cpu, done.written))
            wall, cpu, done = timed_publish(conn, table, page)
            again.append((wall, cpu, done.written))
            reports = sorted(done.reports.iterdir())
            for report in reports[::10]:
                report.write_text(OLD_REPORT)
            wall, cpu, done = timed_publish(conn, table, page)
            stale.append((wall, cpu, done.written, len(reports[::10])))
            shutil.rmtree(site)
        conn.close()
    n = statistics.median(w for _, _, w in first)
    wall = statistics.median(w for w, _, _ in first)
    cpu = statistics.median(c for _, c, _ in first)
    print(f"first publish: {n:.0f} reports, median {wall:.2f} s wall ({n / wall:.0f}/s), "
          f"{cpu:.2f} s CPU ({n / cpu:.0f}/s; target >= 100/s)")
    print(f"republish, unchanged: median {statistics.median(w for _, _, w in again):.0f} reports written, "
          f"{statistics.median(w for w, _, _ in again):.2f} s wall, "
          f"{statistics.median(c for _, c, _ in again):.2f} s CPU")
    print(f"republish, a tenth of older format: {statistics.median(w for _, _, w, _ in stale):.0f} written "
          f"of {statistics.median(s for *_, s in stale):.0f} stale, "
          f"{statistics.median(w for w, *_ in stale):.2f} s wall, "
          f"{statistics.median(c for _, c, *_ in stale):.2f} s CPU")


if __name__ == "__main__":
    main()
