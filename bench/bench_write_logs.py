"""Benchmark: what keeping ``simulate --write-logs`` safe costs (no half-written log under its
real name), as wall clock over CPU time.

    nice -n 10 .venv/bin/python bench/bench_write_logs.py [--games 2000] [--rounds 3]

Runs ``bgrid simulate --seed 1944 --games N --json`` as a process, with and without
``--write-logs`` into a fresh folder of the current directory's disk (not a RAM /tmp), and
prints for each the median wall clock, CPU time (user + system, of the process) and their
ratio. Target: with the logs written, wall at most 2x CPU. On a machine shared with other
jobs the ratio without any log written is the floor the load sets; compare the two ratios.

Figures (2,000 games, a loaded 2-core machine): wall over CPU 2.87 with the logs written in
synced batches, 2.65 without any log (the floor the load set), 3.81 with an fsync a log.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def run(args: list[str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "from bgrid.cli import main; main()", *args], check=True,
                   stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    base = ["simulate", "--seed", "1944", "--games", str(args.games), "--json"]
    results: dict[str, list[tuple[float, float]]] = {"no logs": [], "--write-logs": []}
    with tempfile.TemporaryDirectory(prefix="bench-write-logs-", dir=".") as tmp:
        for _ in range(args.rounds):
            results["no logs"].append(run(base))
            folder = os.path.join(tmp, "logs")
            shutil.rmtree(folder, ignore_errors=True)
            results["--write-logs"].append(run([*base, "--write-logs", folder]))
    for name, runs in results.items():
        wall = statistics.median(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        print(f"{name:>13}: median {wall:.2f} s wall, {cpu:.2f} s CPU, wall/CPU {wall / cpu:.2f}")


if __name__ == "__main__":
    main()
