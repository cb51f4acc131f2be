"""The solver's target table: victory found, par against a 10× longer search, CPU per challenge.

    nice -n 10 .venv/bin/python bench/bench_solve.py [--difficulty normal] [--ridges 1]
        [--count 100] [--first-seed 1000] [--long-count 10] [--jsonl results.jsonl]

Challenges are the seeds ``first-seed``, ``first-seed + 1``, … (portfolio 2 was tuned on
normal 1-ridge seeds 5000–5029; the benchmark set is 1000–1099, never used for tuning). Each
is solved with the standard portfolio (:data:`players.solver.PORTFOLIO`); the first
``--long-count`` of them are solved again with every member's width and budget ×10 (the "10×
longer search": ten nodes a layer instead of one). CPU time is
``time.process_time`` of this process, one core, so a loaded machine slows the wall clock
but not the figure much. Targets: victory found on ≥ 97%, par within 1 of the
longer search on ≥ 95%, ≤ 10 s CPU a challenge (median and worst reported).

``--jsonl`` appends one line per challenge as it is solved, so a long run can be read while
it goes and resumed (``--first-seed``) after an interruption; ``--table FILE...`` prints the
table of such files (runs split over processes or resumed) without solving anything.

Figures with portfolio 2 (a shared 2-core machine, load average 6-9, ``nice -n 10``; CPU
figures are pessimistic; the table and its reading are in ``docs/solver.md``):

    normal 1-ridge, seeds 1000-1099: victory found 98/100, mean par 14.16, CPU median 8.1 s,
        worst 14.8 s; par within 1 of the 10x search on 13/15 (seeds 1000-1014; 10x: ~70 s each)
    hard 1-ridge, seeds 1000-1099:   victory found 98/100, mean par 14.16, CPU median 7.1 s,
        worst 13.2 s
    ace 1-ridge, seeds 1000-1099:    victory found 97/100, mean par 14.11, CPU median 7.0 s,
        worst 13.7 s

    nice -n 10 .venv/bin/python bench/bench_solve.py --long-count 0 --jsonl normal.jsonl
    nice -n 10 .venv/bin/python bench/bench_solve.py --count 15 --long-count 15 --jsonl long.jsonl
    nice -n 10 .venv/bin/python bench/bench_solve.py --difficulty hard --count 100 --long-count 0
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from bgrid.challenges.mission import mission_from_seed
from bgrid.players.solver import PORTFOLIO_VERSION, solve_mission


def solve_one(seed: int, difficulty: str, ridges: int, scale: int = 1) -> dict:
    mission = mission_from_seed(seed, difficulty, ridges)
    t0 = time.process_time()
    par = solve_mission(mission, scale=scale)
    cpu = time.process_time() - t0
    line = par.best
    return {"seed": seed, "code": mission.code, "difficulty": difficulty, "ridges": ridges,
            "scale": scale, "par": line.score if line else None,
            "victory": bool(line and line.is_victory), "searches_won": par.victories,
            "upper_bound": par.upper_bound, "cpu": round(cpu, 2)}


def table(rows: list[dict], long_rows: dict[int, dict]) -> list[str]:
    n = len(rows)
    wins = sum(r["victory"] for r in rows)
    cpu = sorted(r["cpu"] for r in rows)
    out = [f"portfolio v{PORTFOLIO_VERSION}, {rows[0]['difficulty']} {rows[0]['ridges']}-ridge, "
           f"{n} challenges (seeds {rows[0]['seed']}-{rows[-1]['seed']})",
           f"victory found      {wins}/{n} = {100 * wins / n:.1f}%   (target >= 97%)",
           f"mean par           {statistics.fmean(r['par'] for r in rows):.2f}",
           f"CPU per challenge  median {statistics.median(cpu):.1f} s, worst {cpu[-1]:.1f} s "
           f"(target <= 10 s)"]
    paired = [(r, long_rows[r["seed"]]) for r in rows if r["seed"] in long_rows]
    if paired:
        within = sum(1 for r, long in paired if r["par"] >= long["par"] - 1)
        equal = sum(1 for r, long in paired if r["par"] >= long["par"])
        out.append(f"par vs 10x search  within 1 on {within}/{len(paired)}, equal or better on "
                   f"{equal}/{len(paired)}   (target >= 95% within 1)")
        out.append(f"10x search CPU     median {statistics.median(long['cpu'] for _, long in paired):.1f} s")
    return out


def read_rows(paths: list[str]) -> tuple[list[dict], dict[int, dict]]:
    """The solves of ``--jsonl`` files: each seed's first at scale 1, and at scale 10."""
    short: dict[int, dict] = {}
    long_rows: dict[int, dict] = {}
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            for text in handle:
                row = json.loads(text)
                (short if row["scale"] == 1 else long_rows).setdefault(row["seed"], row)
    return [short[seed] for seed in sorted(short)], long_rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--difficulty", default="normal")
    parser.add_argument("--ridges", type=int, default=1)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--first-seed", type=int, default=1000)
    parser.add_argument("--long-count", type=int, default=10)
    parser.add_argument("--jsonl", default=None, help="append one JSON line per solve here")
    parser.add_argument("--table", nargs="+", default=None, metavar="FILE",
                        help="print the table of these --jsonl files and stop")
    args = parser.parse_args()
    if args.table:
        print("\n".join(table(*read_rows(args.table))))
        return
    rows, long_rows = [], {}
    for seed in range(args.first_seed, args.first_seed + args.count):
        jobs = [1, 10] if seed - args.first_seed < args.long_count else [1]
        for scale in jobs:
            row = solve_one(seed, args.difficulty, args.ridges, scale)
            (rows.append(row) if scale == 1 else long_rows.__setitem__(seed, row))
            if args.jsonl:
                with open(args.jsonl, "a", encoding="utf-8") as handle:
                    handle.write(json.dumps(row) + "\n")
            print(json.dumps(row), flush=True)
    print("\n".join(table(rows, long_rows)))


if __name__ == "__main__":
    main()
