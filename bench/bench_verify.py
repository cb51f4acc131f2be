"""Benchmark: mission logs verified per second on a simulated corpus (target 1,000/s).

    .venv/bin/python bench/bench_verify.py [--logs 300] [--rounds 5]

Simulated missions (random legal play, half on challenge decks, all difficulties and ridge
counts) are written as logs first (not timed); then each round verifies every log from
its bytes (parse, map, replay, claim, verification id). Reports the median logs/s over the
rounds, the ratio to the target, the median statements/s, and the share of the time spent
parsing.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bgrid.rules.mission import mission_from_seed
from bgrid.rules.seeding import stream
from bgrid.verifier.log_parser import parse_log
from bgrid.verifier.log_writer import simulated_log
from bgrid.verifier.verify import verify_log

TARGET = 1000  # logs per second
DIFFICULTIES = ("easy", "normal", "hard", "ace")


def corpus(n: int) -> list[bytes]:
    out = []
    for k in range(n):
        mission = mission_from_seed(50_000 + k, DIFFICULTIES[k % 4], 1 + (k // 4) % 4)
        text, _ = simulated_log(mission, stream("standard-1", f"bench-{k}", 1), challenge_deck=k % 2 == 0)
        out.append(text.encode())
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--logs", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    logs = corpus(args.logs)
    statements = sum(len(parse_log(b).statements) for b in logs)
    for b in logs[:20]:  # warm caches (rulesets, maps' ridge cells)
        verify_log(b)
    rates, parse_share = [], []
    for _ in range(args.rounds):
        t0 = time.perf_counter()
        for b in logs:
            parse_log(b)
        t1 = time.perf_counter()
        verdicts = [verify_log(b) for b in logs]
        t2 = time.perf_counter()
        assert all(v.verdict == "valid" for v in verdicts), "the corpus must verify valid"
        rates.append(len(logs) / (t2 - t1))
        parse_share.append((t1 - t0) / (t2 - t1))
    median = statistics.median(rates)
    print(f"logs: {len(logs)}, statements: {statements} ({statements / len(logs):.0f} a log), "
          f"rounds: {args.rounds}")
    print(f"median: {median:,.0f} logs/s  (min {min(rates):,.0f}, max {max(rates):,.0f})")
    print(f"median: {median * statements / len(logs):,.0f} statements/s")
    print(f"ratio to the target of {TARGET:,} logs/s: {median / TARGET:.2f}")
    print(f"parsing alone: {statistics.median(parse_share):.0%} of the verify time")


if __name__ == "__main__":
    main()
