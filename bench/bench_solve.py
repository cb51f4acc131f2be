"""The solver's target table: victory found, par against a 10× longer search, CPU per challenge.

    nice -n 10 .venv/bin/python bench/bench_solve.py [--difficulty normal] [--ridges 1]
        [--count 50] [--first-seed 1100] [--long-count 0] [--jsonl results.jsonl]
        [--reference bench/solve_reference.jsonl]

Challenges are the seeds ``first-seed``, ``first-seed + 1``, … . Tuning used only normal
1-ridge seeds 5000–5029 and seeds 1000–1099 (every difficulty); the figures below are on
seeds 1100 and up, never used for tuning. Each challenge is solved with the standard
portfolio (:data:`players.solver.PORTFOLIO`). The first ``--long-count`` are compared with
the **10× search**: portfolio 2's five members with every width and budget ×10 (ten nodes a
layer instead of one, :data:`REFERENCE`), a fixed yardstick that does not move with the
portfolio under test. Its results are cached in ``--reference`` (one JSON line a
challenge, appended as they are found): about 25 s of CPU a challenge, so each is computed
once. CPU time is ``time.process_time`` of this process, one core; every row records the
machine's load average, as a loaded machine inflates CPU time too, and the build that ran
(run it with the compiled build's python for the compiled figures). Targets: victory found
on ≥ 98% at every difficulty, par within 1 of the 10× search on ≥ 98% of normal challenges,
a median of ≤ 6 s CPU a challenge on the compiled build. Each row says whether the par is
proven optimal (it meets the upper bound). Proportions come with their 95% Wilson interval.

``--budget N`` solves with the standard portfolio on a budget of ``N`` turn outcomes
instead of ``SOLVE_NODES`` (for tuning it); ``--reference-only`` only fills the 10×
search's cache for the seeds.

``--jsonl`` appends one line per challenge as it is solved, so a long run can be read while
it goes and resumed (``--first-seed``); ``--table FILE...`` prints the table of such files
(with ``--reference`` for the comparison) without solving anything.

Figures (portfolio 3, a shared 2-core machine, ``nice -n 10``, load average in the table;
the table and its reading are in ``docs/solver.md``):

    normal 1-ridge, seeds 1100-1149: victory found 50/50 (95% interval 93-100%), mean par 14.66,
        CPU median 5.8 s, 90th percentile 7.1 s, worst 8.2 s (load 5-14); par within 1 of
        the 10x search on 49/50 (90-100%; equal or better on 47; 10x: median 16.8 s each)
    hard 1-ridge, seeds 1100-1149:   victory found 50/50 (93-100%), mean par 14.66, CPU median
        5.9 s, worst 8.7 s (load 5-9)
    ace 1-ridge, seeds 1100-1149:    victory found 50/50 (93-100%), mean par 14.68, CPU median
        5.9 s, worst 7.9 s (load 6-12)
    normal 2, 3 and 4 ridges, seeds 1100-1103 (1100-1101 for 4): 10/10 victories, worst 6.5 s
    normal 1-ridge, seeds 1100-1199, compiled build (2026-12-07): victory found 99/100 (95-100%),
        mean par 14.48, par within 1 of the 10x search on 98/100 (93-99%), proven optimal 2/100,
        CPU median 6.2 s, 90th percentile 8.0 s, worst 9.5 s (load 3.5-6.2); no victory on 1199
        (widths 1-3 ended in 22,993 outcomes, width 4 refused by LEAST_SHARE)
    the same, portfolio 4, compiled, after the acyclic classes (2026-12-07): victory found
        100/100, mean par 14.59, within 1 of the 10x search on 98/100, proven optimal 2/100,
        CPU median 2.3 s, 90th percentile 2.8 s, worst 3.1 s (load 0-2)

    nice -n 10 .venv/bin/python bench/bench_solve.py --count 50 --long-count 50 --jsonl normal.jsonl
    nice -n 10 .venv/bin/python bench/bench_solve.py --difficulty hard --count 50 --jsonl hard.jsonl
    nice -n 10 .venv/bin/python bench/bench_solve.py --table normal.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

from bgrid.build_kind import build_kind
from bgrid.challenges.mission import mission_from_seed
from bgrid.players.rating import wilson_interval
from bgrid.players.solver import PORTFOLIO, PORTFOLIO_2, PORTFOLIO_VERSION, SOLVE_NODES, WIDTHS, solve_mission

#: The yardstick: portfolio 2's members, each ten times wider and longer.
REFERENCE = "portfolio 2 x10"
REFERENCE_SCALE = 10
DEFAULT_REFERENCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "solve_reference.jsonl")


def solve_one(seed: int, difficulty: str, ridges: int, reference: bool = False,
              budget: int | None = None) -> dict:
    """One challenge's row. ``budget``: the standard portfolio with another solve budget (in
    turn outcomes) instead of ``SOLVE_NODES``, for tuning it; the row's search says so."""
    mission = mission_from_seed(seed, difficulty, ridges)
    search = REFERENCE if reference else f"portfolio {PORTFOLIO_VERSION}"
    t0 = time.process_time()
    if reference:
        par = solve_mission(mission, portfolio=PORTFOLIO_2, scale=REFERENCE_SCALE)
    elif budget is not None:
        par = solve_mission(mission, portfolio=PORTFOLIO, widths=WIDTHS, budget=budget)
        search += f" budget {budget}"
    else:
        par = solve_mission(mission, portfolio=PORTFOLIO, widths=WIDTHS, budget=SOLVE_NODES)
    cpu = time.process_time() - t0
    line = par.best
    return {"seed": seed, "code": mission.code, "difficulty": difficulty, "ridges": ridges,
            "search": search, "par": line.score if line else None,
            "victory": bool(line and line.is_victory),
            "searches_won": par.victories, "searches": len(par.members),
            "nodes": sum(r.nodes for r in par.members),
            "upper_bound": par.upper_bound, "optimal": par.optimal, "cpu": round(cpu, 2),
            "build": build_kind(), "load": round(os.getloadavg()[0], 1)}


def _share(k: int, n: int) -> str:
    low, high = wilson_interval(k, n)
    return f"{k}/{n} = {100 * k / n:.0f}% (95% interval {100 * low:.0f}-{100 * high:.0f}%)"


def table(rows: list[dict], references: dict) -> list[str]:
    n = len(rows)
    wins = sum(r["victory"] for r in rows)
    cpu = sorted(r["cpu"] for r in rows)
    first = rows[0]
    optimal = sum(1 for r in rows if r.get("optimal", r["par"] is not None and r["par"] >= r["upper_bound"]))
    out = [f"{first['search']}, {first['difficulty']} {first['ridges']}-ridge, {n} challenges "
           f"(seeds {first['seed']}-{rows[-1]['seed']}), load average {min(r['load'] for r in rows):.0f}"
           f"-{max(r['load'] for r in rows):.0f} (mean {statistics.fmean(r['load'] for r in rows):.1f})",
           f"victory found      {_share(wins, n)}   (target >= 98%)",
           f"mean par           {statistics.fmean(r['par'] for r in rows if r['par'] is not None):.2f}",
           f"CPU per challenge  median {statistics.median(cpu):.1f} s, 90th percentile "
           f"{_decile(cpu):.1f} s, worst {cpu[-1]:.1f} s ({first.get('build', 'pure Python')} build; "
           "target: median <= 6 s on the compiled build)",
           f"proven optimal     {_share(optimal, n)}   (par meets the upper bound)"]
    paired = [(r, references[_where(r)]) for r in rows if _where(r) in references]
    if paired:
        within = sum(1 for r, ref in paired if r["par"] >= ref["par"] - 1)
        equal = sum(1 for r, ref in paired if r["par"] >= ref["par"])
        out.append(f"par vs 10x search  within 1 on {_share(within, len(paired))}   (target >= 98%)")
        out.append(f"                   equal or better on {_share(equal, len(paired))}")
        out.append(f"10x search         mean par {statistics.fmean(ref['par'] for _, ref in paired):.2f}, "
                   f"CPU median {statistics.median(ref['cpu'] for _, ref in paired):.1f} s "
                   f"({', '.join(sorted({ref.get('build', 'pure Python') for _, ref in paired}))} build)")
        short = [f"{r['seed']}: {r['par']} vs {ref['par']}" for r, ref in paired if r["par"] < ref["par"] - 1]
        if short:
            out.append(f"                   more than 1 below: {', '.join(short)}")
    return out


def _decile(values: list) -> float:
    """The 90th percentile (inclusive method: never beyond the worst)."""
    return values[0] if len(values) < 2 else statistics.quantiles(values, n=10, method="inclusive")[-1]


def _where(row: dict) -> tuple:
    return row["seed"], row["difficulty"], row["ridges"]


def read_jsonl(paths) -> list[dict]:
    rows = []
    for path in paths:
        if os.path.exists(path):
            with open(path, encoding="utf-8") as handle:
                rows.extend(json.loads(text) for text in handle if text.strip())
    return rows


def _reference(seed: int, args: argparse.Namespace, references: dict) -> None:
    """The 10x search's result for ``seed``, solved and appended to ``--reference`` if missing."""
    where = (seed, args.difficulty, args.ridges)
    if where not in references:
        references[where] = ref = solve_one(seed, args.difficulty, args.ridges, reference=True)
        with open(args.reference, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(ref) + "\n")
        print(json.dumps(ref), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--difficulty", default="normal")
    parser.add_argument("--ridges", type=int, default=1)
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--first-seed", type=int, default=1100)
    parser.add_argument("--long-count", type=int, default=0,
                        help="compare the first N with the 10x search (cached in --reference)")
    parser.add_argument("--jsonl", default=None, help="append one JSON line per solve here")
    parser.add_argument("--reference", default=DEFAULT_REFERENCE,
                        help="the 10x search's results, read and extended (default: %(default)s)")
    parser.add_argument("--budget", type=int, default=None,
                        help="the solve's budget in turn outcomes instead of SOLVE_NODES (tuning)")
    parser.add_argument("--reference-only", action="store_true",
                        help="only compute the 10x search's missing results (--count seeds)")
    parser.add_argument("--table", nargs="+", default=None, metavar="FILE",
                        help="print the table of these --jsonl files and stop")
    args = parser.parse_args()
    references = {_where(r): r for r in read_jsonl([args.reference]) if r["search"] == REFERENCE}
    if args.table:
        by_search: dict = {}
        for row in read_jsonl(args.table):
            by_search.setdefault((row["search"], row["difficulty"], row["ridges"]), {})[row["seed"]] = row
        for solved in by_search.values():
            print("\n".join(table([solved[s] for s in sorted(solved)], references)))
        return
    rows = []
    for seed in range(args.first_seed, args.first_seed + args.count):
        if args.reference_only:
            _reference(seed, args, references)
            continue
        row = solve_one(seed, args.difficulty, args.ridges, budget=args.budget)
        rows.append(row)
        if args.jsonl:
            with open(args.jsonl, "a", encoding="utf-8") as handle:
                handle.write(json.dumps(row) + "\n")
        print(json.dumps(row), flush=True)
        if seed - args.first_seed < args.long_count:
            _reference(seed, args, references)
    if rows:
        print("\n".join(table(rows, references)))


if __name__ == "__main__":
    main()
