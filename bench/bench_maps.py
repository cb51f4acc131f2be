"""How many seeded maps ``bgrid`` builds per second (target ≥ 5,000 maps/s).

A "map" is the whole seeded mission of ``mission_from_seed``: the two setup draws (R5), the
map (R1–R3), the challenge deck (R25) and the reshuffle numbers (R26), exactly what
``bgrid map --seed N`` computes before printing. Runs in this process on one core; each run
builds maps for a fresh block of seeds, and the median of the runs is reported.

    .venv/bin/python bench/bench_maps.py            # default: 7 runs of 2,000 maps
    .venv/bin/python bench/bench_maps.py --runs 9 --maps 5000 --ridges 4
    .venv/bin/python bench/bench_maps.py --profile  # cProfile of one run, top 25 by tottime

The first run also warms the ridge cache (``board.ridge_cells``, at most 100×100 pairs); its
rate is printed apart as "cold" and the median is over all runs.

To measure an older version side by side, put its ``rules/`` and ``challenges/`` under
``DIR/bgrid/`` (with an empty ``DIR/bgrid/__init__.py``) and run with ``PYTHONPATH=DIR``: a
path entry wins over the editable install. Run both under ``taskset -c 0`` for one core.

Figures (defaults, wall clock, the shared 2-core machine at a load average of about 3): a
median of 4,820 maps a second (3,870 cold), 0.96 of the target (the test suite ran beside it).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import time

from bgrid.challenges.mission import mission_from_seed

TARGET = 5000


def build_maps(first_seed: int, count: int, ridges: int | None) -> None:
    for seed in range(first_seed, first_seed + count):
        mission_from_seed(seed, ridges=ridges)


def rate(first_seed: int, count: int, ridges: int | None) -> float:
    start = time.perf_counter()
    build_maps(first_seed, count, ridges)
    return count / (time.perf_counter() - start)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--maps", type=int, default=2000, help="maps per run")
    parser.add_argument("--ridges", type=int, default=None, help="ridge count 1-4 (default 1)")
    parser.add_argument("--profile", action="store_true", help="profile one run instead")
    args = parser.parse_args(argv)

    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(build_maps, 0, args.maps, args.ridges)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return 0

    rates = [rate(run * args.maps, args.maps, args.ridges) for run in range(args.runs)]
    median = statistics.median(rates)
    print(f"maps/s, {args.runs} runs of {args.maps} maps, ridges {args.ridges or 'default'}: "
          f"cold {rates[0]:,.0f}, median {median:,.0f}, min {min(rates):,.0f}, "
          f"max {max(rates):,.0f}")
    print(f"median / target {TARGET:,}: {median / TARGET:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
