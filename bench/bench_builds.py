"""The compiled build against the pure-Python build, side by side in one run.

    nice -n 10 .venv/bin/python bench/bench_builds.py --compiled-python PY [--rounds 5] [--folder 2000]

``PY`` is the python of a second environment holding the compiled build (``pip install .``
with a C compiler: ``bgrid --version`` says ``compiled``); the pure build is the one running
this script (the editable install). Each round runs every measure once in each build, in
turn (pure, compiled, pure, ...), so a change of the shared machine's load hits both alike;
the report gives each build's median over the rounds, the ratio of the medians and the load
average before and after.

The measures, all CPU time of one process (``resource``/``time.process_time``, one core):

- ``verify``: the whole ``bgrid verify DIR --json --jobs 1`` process on a folder of ``--folder``
  logs of different missions (bench_verify's folder corpus), and beside it the yardstick of
  bench_verify, the plain referee of the tests (run in this pure-Python process, as there);
- ``engine``: search turn outcomes a second (bench_engine's measure, challenge-deck decisions);
- ``strong``: one game of the strong player (simulate, own deck, seeds 1944 and 7, 4 games each);
- ``solve``: one par search (``solve_mission``, the portfolio, challenge seed 1100, normal);
- ``rating``: one star rating (``rate_mission``, adaptive, the map of seed 1944).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
TASKS = ("engine", "strong", "solve", "rating")


def task(name: str) -> dict:
    """Run one measure in this process; what it measured (``value`` and its unit)."""
    if name == "engine":
        from bench_engine import decision_states, turn_outcomes_per_second

        states = decision_states(300, challenge=True)[::3]
        turn_outcomes_per_second(states)  # the movement caches filled, as in bench_engine
        return {"value": statistics.median(turn_outcomes_per_second(states) for _ in range(3)),
                "unit": "outcomes/s", "more_is_better": True}
    from bgrid.challenges.mission import mission_from_seed

    if name == "strong":
        from bgrid.players.simulation import simulate

        missions = [mission_from_seed(s) for s in (1944, 7)]
        t0 = time.process_time()
        for mission in missions:
            simulate(mission, 4, 0, player="strong")
        return {"value": (time.process_time() - t0) / 8, "unit": "s a game"}
    if name == "solve":
        from bgrid.players.solver import solve_mission

        mission = mission_from_seed(1100, "normal", 1)
        t0 = time.process_time()
        solve_mission(mission)
        return {"value": time.process_time() - t0, "unit": "s a solve"}
    if name == "rating":
        from bgrid.players.rating import rate_mission

        mission = mission_from_seed(1944)
        t0 = time.process_time()
        rate_mission(mission)
        return {"value": time.process_time() - t0, "unit": "s a rating"}
    raise SystemExit(f"unknown task {name}")


def build_of(python: str) -> str:
    out = subprocess.run([python, "-c", "from bgrid.build_kind import build_kind; print(build_kind())"],
                         capture_output=True, text=True, check=True, cwd=BENCH)
    return out.stdout.strip()


def run_task(python: str, name: str) -> dict:
    # cwd bench/: the script's folder comes first on sys.path, never the checkout's bgrid/
    out = subprocess.run([python, str(BENCH / "bench_builds.py"), "--task", name],
                         capture_output=True, text=True, check=True, cwd=BENCH)
    return json.loads(out.stdout)


def verify_cpu(python: str, folder: Path) -> tuple[float, bytes]:
    bgrid = Path(python).with_name("bgrid")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([str(bgrid), "verify", str(folder), "--json", "--jobs", "1"],
                          capture_output=True, check=False, cwd=BENCH)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, done.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--compiled-python", help="the python of the environment with the compiled build")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--folder", type=int, default=2000, metavar="N", help="logs in the verify folder")
    ap.add_argument("--only", nargs="+", choices=("verify", *TASKS), default=None)
    ap.add_argument("--task", help=argparse.SUPPRESS)  # a measure run in this process (a round's step)
    args = ap.parse_args()
    if args.task:
        print(json.dumps(task(args.task)))
        return
    if not args.compiled_python:
        ap.error("--compiled-python is required")
    # absolute, not resolved: the runs start in bench/, and a venv's python is a symlink
    builds = {"pure": sys.executable, "compiled": os.path.abspath(args.compiled_python)}
    for kind, python in builds.items():
        found = build_of(python)
        if (found == "compiled") != (kind == "compiled"):
            raise SystemExit(f"{python} runs the {found} build, not the {kind} one")
    only = args.only or ["verify", *TASKS]
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"{os.cpu_count()} cores; rounds: {args.rounds}")
    results: dict[str, dict[str, list[float]]] = {}
    units: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="bench-builds-") as tmp:
        folder = Path(tmp) / "logs"
        if "verify" in only:
            from bench_verify import _referee_class, folder_corpus, yardstick_pass

            from bgrid.rules.ruleset import load_ruleset

            folder_corpus(args.folder, folder)
            paths = sorted(folder.glob("*.log"))
            referee = _referee_class(), load_ruleset("standard-1").health
        outputs: dict[str, bytes] = {}
        for _ in range(args.rounds):
            if "verify" in only:
                for kind, python in builds.items():
                    cpu, outputs[kind] = verify_cpu(python, folder)
                    results.setdefault("verify", {}).setdefault(kind, []).append(cpu)
                results.setdefault("verify", {}).setdefault("referee", []).append(
                    yardstick_pass(paths, *referee))
            for name in TASKS:
                if name not in only:
                    continue
                for kind, python in builds.items():
                    got = run_task(python, name)
                    units[name] = got
                    results.setdefault(name, {}).setdefault(kind, []).append(got["value"])
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if "verify" in results:
        r = results["verify"]
        pure, comp, ref = (statistics.median(r[k]) for k in ("pure", "compiled", "referee"))
        print(f"verify DIR --json --jobs 1, {args.folder} logs, CPU medians of {args.rounds}: "
              f"pure {pure:.2f} s, compiled {comp:.2f} s, plain referee {ref:.2f} s; "
              f"compiled/referee {comp / ref:.2f}x (aim <= 0.5x), pure/referee {pure / ref:.2f}x, "
              f"compiled/pure {comp / pure:.2f}x; "
              f"same output bytes: {outputs['pure'] == outputs['compiled']}")
        paired = [c / f for c, f in zip(r["compiled"], r["referee"], strict=True)]
        print(f"  spread: pure {min(r['pure']):.2f}-{max(r['pure']):.2f} s, compiled "
              f"{min(r['compiled']):.2f}-{max(r['compiled']):.2f} s, referee {min(r['referee']):.2f}-"
              f"{max(r['referee']):.2f} s; compiled/referee round by round {min(paired):.2f}-"
              f"{max(paired):.2f}x")
    for name in TASKS:
        if name not in results:
            continue
        r, unit = results[name], units[name]
        pure, comp = statistics.median(r["pure"]), statistics.median(r["compiled"])
        speed = comp / pure if unit.get("more_is_better") else pure / comp
        print(f"{name}: medians of {args.rounds}: pure {pure:,.3f} {unit['unit']}, compiled {comp:,.3f} "
              f"{unit['unit']}; compiled is {speed:.2f}x the pure build's speed "
              f"(pure {min(r['pure']):,.3f}-{max(r['pure']):,.3f}, "
              f"compiled {min(r['compiled']):,.3f}-{max(r['compiled']):,.3f})")


if __name__ == "__main__":
    sys.path.insert(0, str(BENCH))
    main()
