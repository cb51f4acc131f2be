"""Benchmark: mission logs verified per second on a simulated corpus (target 1,000/s).

    .venv/bin/python bench/bench_verify.py [--logs 300] [--rounds 5]

Simulated missions (random legal play, half on challenge decks, all difficulties and ridge
counts) are written as logs first (not timed); then each round verifies every log from
its bytes (parse, map, replay, claim, verification id). Reports the median logs/s over the
rounds (wall clock and CPU time), the ratio to the target, the median statements/s, and the
share of the time spent parsing, and where the CPU time of one more pass goes (parse, mission,
verification id, replay); once for logs of many different missions and once for many runs
of one challenge (where the mission and its start state are built once and remembered; the
verifier remembers 64 missions, so the 300 different ones are built anew every round).
"""

from __future__ import annotations

import argparse
import statistics
import time

from bgrid.rules.mission import mission_from_seed
from bgrid.rules.seeding import stream
from bgrid.verifier.log_parser import parse_log
from bgrid.rules.log_writer import simulated_log
from bgrid.verifier.map_source import mission_source
from bgrid.verifier.replay import Replay
from bgrid.verifier.verdict import verification_id
from bgrid.verifier.verify import verify_log

TARGET = 1000  # logs per second
DIFFICULTIES = ("easy", "normal", "hard", "ace")


def corpus(n: int, *, one_mission: bool = False) -> list[bytes]:
    """``n`` logs of ``n`` different missions, or (``one_mission``) ``n`` runs of one
    challenge, as a tournament folder would hold."""
    out = []
    for k in range(n):
        seed = 50_000 if one_mission else 50_000 + k
        mission = mission_from_seed(seed, DIFFICULTIES[k % 4 * (not one_mission)],
                                    1 + (k // 4) % 4 * (not one_mission))
        text, _ = simulated_log(mission, stream("standard-1", f"bench-{k}", 1),
                                challenge_deck=one_mission or k % 2 == 0)
        out.append(text.encode())
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--logs", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    for title, one in (("different missions (half challenge decks)", False),
                       ("one challenge, many runs (a tournament folder)", True)):
        print(f"== {title}")
        measure(corpus(args.logs, one_mission=one), args.rounds)


def measure(logs: list[bytes], rounds: int) -> None:
    statements = sum(len(parse_log(b).statements) for b in logs)
    for b in logs[:20]:  # warm caches (rulesets, maps' ridge cells)
        verify_log(b)
    rates, cpu_rates, parse_share = [], [], []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for b in logs:
            parse_log(b)
        t1 = time.perf_counter()
        c1 = time.process_time()
        verdicts = [verify_log(b) for b in logs]
        t2 = time.perf_counter()
        cpu_rates.append(len(logs) / (time.process_time() - c1))
        assert all(v.verdict == "valid" for v in verdicts), "the corpus must verify valid"
        rates.append(len(logs) / (t2 - t1))
        parse_share.append((t1 - t0) / (t2 - t1))
    median = statistics.median(rates)
    print(f"logs: {len(logs)}, statements: {statements} ({statements / len(logs):.0f} a log), "
          f"rounds: {rounds}")
    print(f"median: {median:,.0f} logs/s  (min {min(rates):,.0f}, max {max(rates):,.0f})")
    print(f"median: {median * statements / len(logs):,.0f} statements/s; "
          f"by CPU time {statistics.median(cpu_rates):,.0f} logs/s (steadier on a shared machine)")
    print(f"ratio to the target of {TARGET:,} logs/s: {median / TARGET:.2f}")
    print(f"parsing alone: {statistics.median(parse_share):.0%} of the verify time")
    print("where the CPU time goes (one pass, us a log): " + stages(logs))


def stages(logs: list[bytes]) -> str:
    """verify_log's steps timed one by one (a valid log takes every step)."""
    spent = dict.fromkeys(("parse", "mission", "id", "replay"), 0.0)
    for b in logs:
        c0 = time.process_time()
        log = parse_log(b)
        c1 = time.process_time()
        mission = mission_source(log)
        c2 = time.process_time()
        verification_id(log.canonical_text(), mission.ruleset.name, mission.map_key())
        c3 = time.process_time()
        Replay(log, mission).run()
        c4 = time.process_time()
        for key, t in zip(spent, (c1 - c0, c2 - c1, c3 - c2, c4 - c3), strict=True):
            spent[key] += t
    total = sum(spent.values())
    return ", ".join(f"{k} {v / len(logs) * 1e6:,.0f} ({v / total:.0%})" for k, v in spent.items())


if __name__ == "__main__":
    main()
