"""Benchmark: peak memory of `bgrid verify DIR` on a big folder (target: under 150 MB for any
size), plain, --json and --html, with logs/s.

    .venv/bin/python bench/bench_verify_memory.py [--logs 30000] [--distinct 3000] [--jobs 1]

Writes ``--distinct`` simulated logs (random legal play on 20 seeded missions, half on
challenge decks) with the library and copies them round-robin up to ``--logs`` files in a
temporary folder (writing 30,000 distinct games only costs time: each log is verified on its
own, so the copies measure the same thing). Then runs `bgrid verify` on the folder once per
mode as a child process and reads its peak resident set size from ``wait4``. Output goes to
/dev/null (the terminal is not what is measured); the HTML report to a temporary file, whose
size per log is reported too. ``--jobs`` is passed on to `bgrid verify`; the peak is that of
the largest single process (``wait4`` folds in the reaped workers' peaks, not their sum), so
with N workers the whole run holds at most about N + 1 times it.

Figures (30,000 logs): a peak under 150 MB; the ``--html`` index about 0.4 kB a valid log
and 1.5 kB an invalid one (its first error folded under its row).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bgrid.challenges.mission import mission_from_seed
from bgrid.challenges.seeding import stream
from bgrid.players.simulated_logs import simulated_log

TARGET_MB = 150
MISSIONS = 20


def write_folder(folder: Path, logs: int, distinct: int) -> None:
    texts = []
    for k in range(distinct):
        mission = mission_from_seed(60_000 + k % MISSIONS)
        text, _ = simulated_log(mission, stream("standard-1", f"memory-{k}", 1), challenge_deck=k % 2 == 0)
        texts.append(text.encode())
    for k in range(logs):
        (folder / f"game-{k:05d}.log").write_bytes(texts[k % distinct])


def peak(args: list[str]) -> tuple[float, float, int]:
    """(peak RSS in MB, seconds, exit status) of one `bgrid` run."""
    start = time.perf_counter()
    with open(os.devnull, "wb") as sink:
        proc = subprocess.Popen([sys.executable, "-c", "from bgrid.cli import main; main()", *args],
                                stdout=sink, stderr=sink)
        _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    return usage.ru_maxrss / 1024, seconds, os.waitstatus_to_exitcode(status)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--logs", type=int, default=30_000)
    ap.add_argument("--distinct", type=int, default=3_000)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    top = Path(tempfile.mkdtemp(prefix="bgrid-bench-memory-"))
    try:
        folder = top / "logs"
        folder.mkdir()
        t0 = time.perf_counter()
        write_folder(folder, args.logs, min(args.distinct, args.logs))
        print(f"{args.logs} logs ({min(args.distinct, args.logs)} distinct games) written in "
              f"{time.perf_counter() - t0:.0f} s; "
              f"{sum(p.stat().st_size for p in folder.iterdir()) / args.logs:.0f} "
              "bytes a log")
        baseline, _, _ = peak(["--version"])
        print(f"baseline (bgrid --version): {baseline:.0f} MB")
        report = top / "report.html"
        for mode, extra in (("plain", []), ("--json", ["--json"]), ("--html", ["--html", str(report)])):
            rss, seconds, status = peak(["verify", str(folder), "--jobs", str(args.jobs), *extra])
            verdict = "ok" if rss < TARGET_MB else "OVER"
            print(f"{mode:7} --jobs {args.jobs} peak RSS {rss:6.1f} MB ({verdict}, target < {TARGET_MB} MB), "
                  f"{args.logs / seconds:6.0f} logs/s, {seconds:5.1f} s, exit {status}")
        print(f"HTML index: {report.stat().st_size / args.logs:.0f} bytes a log "
              f"({report.stat().st_size / 2**20:.1f} MiB)")
    finally:
        shutil.rmtree(top)


if __name__ == "__main__":
    main()
