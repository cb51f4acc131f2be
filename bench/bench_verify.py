"""Benchmark: mission logs verified per second (target 1,000/s per core).

    .venv/bin/python bench/bench_verify.py [--logs 300] [--rounds 5]
    nice -n 10 .venv/bin/python bench/bench_verify.py --folder 2000 [--jobs 2] [--rounds 5] [--profile FILE]

In process (the default): simulated missions (random legal play, half on challenge decks,
all difficulties and ridge counts) are written as logs first (not timed); each round then
verifies every log from its bytes (parse, mission, replay, claim, verification id). Reports
the median logs/s over the rounds (wall clock and CPU time), the ratio to the target, the
statements/s, the share spent parsing and where the CPU time of one more pass goes (parse,
mission, verification id, replay): once for logs of many missions (the verifier remembers 64
missions, so 300 different ones are built anew every round) and once for many runs of one
challenge (its mission and start state built once and remembered).

``--folder N`` measures the whole process: N logs of different missions with explicit maps
(the random and the greedy player in turn, own decks, all difficulties, 1-4 ridges) in a
temporary folder, ``bgrid verify DIR --json`` run as a separate process with ``--jobs 1``
and ``--jobs J`` in turn, ``bgrid verify`` on one log (the start-up), and the yardstick,
interleaved round by round so that a change of load hits every figure alike. Reports the
median wall and CPU time of each mode, the ``--jobs`` speed-up, whether both outputs are the
same bytes, the ratio to the yardstick, and the cost of the notes and the damage ledger.
``--profile FILE`` first runs the ``--jobs 1`` process once under cProfile (CPU time).

The yardstick is the plain referee of ``tests/test_engine_reference_referees.py`` (written
from the rulebook on (column, row) pairs, imported unchanged), fed by a line-by-line reading
of each log, in process, checking each claim: no legality checks, messages, notes or ledger,
so it is a floor on the work. The aim is the whole ``verify --json`` process at twice its speed.

Figures (a shared 2-core machine, CPU medians; absolute figures swing by ±15% with the load,
ratios less): in process, about 1,100-1,300 logs/s a core for many missions and 1,600-1,900
for runs of one challenge; per log about 150 us parsing, 60 us building a mission not
remembered, 25 us the verification id and 450-600 us the replay. Whole process, 2,000
logs: 3.8 s with ``--jobs 1`` (521 logs/s a core, 0.20 s of it start-up), 1.36x the
yardstick's CPU time where the aim is 0.5x; the notes and the damage ledger add about a
quarter to the replay; ``--jobs 2`` gives 1.65-1.8x in wall time when the second core is
free. Those figures predate the compiled build; ``bench_builds.py`` measures both builds
against the same yardstick side by side (docs/development.md, 2026-12-07: pure 1.42x,
compiled 0.59x the yardstick, load 1.0-1.7; 0.69x at load 1.9-1.3).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bgrid.rules.events import PlayerPhaseEnded
from bgrid.players.greedy import greedy_action
from bgrid.challenges.mission import MapOrigin, mission_from_seed
from bgrid.rules.ruleset import load_ruleset
from bgrid.challenges.seeding import stream
from bgrid.rules.state import Phase
from bgrid.log.reader import parse_log
from bgrid.log.writer import mission_header
from bgrid.players.simulated_logs import simulated_log
from bgrid.verifier.map_source import map_key, mission_source
from bgrid.verifier.replay import Replay
from bgrid.verifier.verdict import verification_id
from bgrid.verifier.verify import Verifier

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


def explicit_header(mission) -> list[str]:
    """The mission's map written out cell by cell (the 'explicit map' source): the verifier
    then builds the map from the header, not from a seed."""
    return mission_header(dataclasses.replace(mission, origin=MapOrigin())).canonical_lines()


def folder_corpus(n: int, folder: Path) -> None:
    """``n`` logs of different missions with explicit maps, played by the random and the
    greedy player in turn on the player's own shuffled deck, all difficulties and 1-4 ridges,
    written to ``folder`` (not timed)."""
    folder.mkdir(parents=True, exist_ok=True)
    for k in range(n):
        mission = mission_from_seed(60_000 + k, DIFFICULTIES[k % 4], 1 + (k // 4) % 4)
        player = {"player": greedy_action} if k % 2 else {}
        text, _ = simulated_log(mission, stream("standard-1", f"folder-{k}", 1), challenge_deck=False,
                                **player)
        body = text.split("\n\n", 1)[1]
        claim = next(line for line in text.splitlines() if line.startswith("claim:"))
        (folder / f"log-{k:05d}.log").write_text("\n".join(explicit_header(mission) + [claim, ""])
                                                 + "\n" + body, encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--logs", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--folder", type=int, default=0, metavar="N",
                    help="measure the whole `bgrid verify DIR --json` process on N logs")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="the --jobs to compare with one job (default: all cores)")
    ap.add_argument("--profile", metavar="FILE", default=None,
                    help="with --folder: also run the whole --jobs 1 process once under cProfile, "
                         "write its statistics to FILE (pstats) and print the top costs")
    args = ap.parse_args()
    if args.folder:
        measure_folder(args.folder, args.jobs, args.rounds, args.profile)
        return
    for title, one in (("different missions (half challenge decks)", False),
                       ("one challenge, many runs (a tournament folder)", True)):
        print(f"== {title}")
        measure(corpus(args.logs, one_mission=one), args.rounds)


def measure_folder(n: int, jobs: int, rounds: int, profile: str | None = None) -> None:
    bgrid = Path(sys.executable).with_name("bgrid")
    with tempfile.TemporaryDirectory(prefix="bench-verify-") as tmp:
        folder = Path(tmp) / "logs"
        folder_corpus(n, folder)
        if profile is not None:
            profile_process(bgrid, folder, profile)
        print(f"== whole process: bgrid verify DIR --json, {n} logs (explicit maps, random and "
              f"greedy players), rounds: {rounds}")
        outputs: dict[int, bytes] = {}
        wall: dict[int, list[float]] = {1: [], jobs: []}
        cpu: dict[int, list[float]] = {1: [], jobs: []}
        start: list[float] = []  # the process without the folder: Python, imports, one log
        yard: list[float] = []  # the plain referee's CPU time for the folder (in this process)
        referee = _referee_class(), load_ruleset("standard-1").health
        paths = sorted(folder.glob("*.log"))
        for _ in range(rounds):  # interleaved, so a change of load hits every figure alike
            for j in wall:
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                t0 = time.perf_counter()
                done = subprocess.run([str(bgrid), "verify", str(folder), "--json", "--jobs", str(j)],
                                      capture_output=True, check=False)
                wall[j].append(time.perf_counter() - t0)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu[j].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
                outputs[j] = done.stdout
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run([str(bgrid), "verify", str(paths[0]), "--json"], capture_output=True, check=False)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            start.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
            yard.append(yardstick_pass(paths, *referee))
        print(f"start-up (bgrid verify ONE_LOG --json, CPU, median): {statistics.median(start):.2f} s")
        for j in wall:
            w, c = statistics.median(wall[j]), statistics.median(cpu[j])
            print(f"--jobs {j}: median wall {w:.2f} s ({n / w:,.0f} logs/s), CPU {c:.2f} s "
                  f"({n / c:,.0f} logs/s per core)")
        speedup = statistics.median(wall[1]) / statistics.median(wall[jobs])
        print(f"--jobs {jobs} speed-up (wall, medians): {speedup:.2f}x; "
              f"same output bytes: {outputs[1] == outputs[jobs]}")
        logs = [p.read_bytes() for p in paths]
    ours, ref = statistics.median(cpu[1]), statistics.median(yard)
    ratio = statistics.median(c / y for c, y in zip(cpu[1], yard, strict=True))
    print(f"yardstick, the plain referee of tests/ (parse, replay, score; in process, no start-up): "
          f"CPU {ref:.2f} s ({n / ref:,.0f} logs/s per core); the whole --jobs 1 process takes "
          f"{ratio:.2f}x its CPU time (median of the rounds' ratios); the aim, twice its speed, is "
          f"{n / ref * 2:,.0f} logs/s per core: {ratio * 2:.1f}x away; {ours / n * 1e6:,.0f} us a log "
          f"against {ref / n * 1e6:,.0f}")
    print("notes and damage ledger: " + coaching_cost(logs, rounds))


def profile_process(bgrid: Path, folder: Path, out: str) -> None:
    """``bgrid verify FOLDER --json --jobs 1`` once under cProfile (start-up included); the
    statistics go to ``out`` and the top costs by own time are printed."""
    import pstats

    # CPU time, not the clock: a write that waits for the pipe is no cost of the verifier
    script = ("import cProfile, runpy, sys, time\n"
              "profile = cProfile.Profile(time.process_time)\n"
              "sys.argv = sys.argv[1:]\n"
              "try:\n"
              "    profile.runcall(runpy.run_path, sys.argv[0], run_name='__main__')\n"
              "except SystemExit:\n"
              "    pass\n"
              f"profile.dump_stats({out!r})\n")
    subprocess.run([sys.executable, "-c", script, str(bgrid), "verify", str(folder), "--json", "--jobs", "1"],
                   capture_output=True, check=False)
    print(f"== cProfile of the whole process (CPU time), by own time (all of it in {out})")
    pstats.Stats(out).sort_stats("tottime").print_stats(25)


# -- the yardstick: a plain stdlib referee doing the same work --------------------------------
# The aim is stated against "a plain stdlib referee with no optimisation": the
# independent referee of the tests (tests/test_engine_reference_referees.py, written from the
# rulebook on (column, row) pairs, sharing no code with the engine), fed by a plain line-by-line
# reading of the log. It checks nothing a valid log does not need (no legality, no messages),
# so it is a floor on the work: parse, replay, score, compare the claim.

def _referee_class():
    tests = Path(__file__).resolve().parent.parent / "tests"
    sys.path.insert(0, str(tests))
    try:
        from test_engine_reference_referees import Referee  # the tests' own, unchanged
    finally:
        sys.path.remove(str(tests))
    return Referee


def referee_verdict(text: str, referee_class, health_of) -> bool:
    """Replay one log of the folder corpus (canonical spelling, explicit map) on the plain
    referee; True when the claim is the referee's outcome and score (R24)."""
    from bgrid.rules.actions import (Altitude, Bomb, EndPhase, EnterColumn, Guns, Move, Resupply,
                                     Throttle)
    from bgrid.rules.board import Cell
    from bgrid.rules.cards import Card
    from bgrid.rules.setup import GameMap

    header: dict[str, str] = {}
    lines = text.split("\n")
    at = 0
    while not lines[at].startswith("turn"):
        key, _, value = lines[at].partition(":")
        header[key] = value.strip()
        at += 1
    cells = {k: [Cell.parse(t) for t in header[f"map {k}"].split()]
             for k in ("mountains", "bunkers", "artillery")}
    game_map = GameMap(frozenset(cells["mountains"]), tuple(cells["bunkers"]), tuple(cells["artillery"]))
    ref = referee_class(game_map, health_of(header["difficulty"]))

    def card(token: str) -> None:
        if token != "none":
            ref.card(Card.parse(token))

    def paired(words: list[str]):
        return Move(Card.parse(words[1]), words[2]) if words[0] == "move" else Altitude(Card.parse(words[1]))

    for line in lines[at:]:
        words = line.split("#")[0].split()
        if not words or ref.outcome is not None and words[0] not in ("enter", "draw", "automa"):
            continue
        kind = words[0]
        if kind == "enter":
            card(words[1])
            if ref.phase == "column":  # no column written: its damage ends the mission (R13, R23)
                ref.play(EnterColumn("ABCDEFGHIJ".index(words[2]) if len(words) > 2 else 0))
        elif kind in ("draw", "automa"):
            if kind == "automa" and ref.phase == "act":
                ref.play(EndPhase())
            for token in words[1:]:
                card(token)
        elif kind == "move":
            ref.play(Move(Card.parse(words[1]), words[2]))
        elif kind == "alt":
            ref.play(Altitude(Card.parse(words[1])))
        elif kind == "throttle":
            ref.play(Throttle(Card.parse(words[1]), paired(words[2:])))
        elif kind == "guns":
            ref.play(Guns(Card.parse(words[1]), Cell.parse(words[2])))
            card(words[4])
        elif kind == "bomb":
            ref.play(Bomb(Card.parse(words[1])))
            card(words[3])
        elif kind == "resupply":
            ref.play(Resupply(Card.parse(words[1])))
            card(words[3])
    outcome = "victory" if ref.outcome == "victory" else "defeat"
    total = 2 * ref.kills[0] + ref.kills[1] - ref.damage
    return header["claim"].split() == [outcome, str(total)]


def yardstick_pass(paths: list[Path], referee_class, health_of) -> float:
    """The plain referee's CPU time for the logs at ``paths``, read as the verifier reads them."""
    c0 = time.process_time()
    agree = sum(referee_verdict(p.read_text(encoding="utf-8"), referee_class, health_of) for p in paths)
    spent = time.process_time() - c0
    assert agree == len(paths), f"the plain referee disagrees on {len(paths) - agree} logs"
    return spent


class _PlainReplay(Replay):
    """The replay without notes and ledger: only the bookkeeping its messages need."""

    def _record(self, events, turn, index, notable=False):
        for ev in events:
            if type(ev) is PlayerPhaseEnded:
                self.phase_end = ev.reason
        if self.state.phase is Phase.OVER and self.end_line is None:
            self.end_line = self.stmt.line


def coaching_cost(logs: list[bytes], rounds: int) -> str:
    """The replay's CPU time with notes and ledger against without, medians, interleaved."""
    parsed = [(log, mission_source(log)) for log in map(parse_log, logs)]
    spent: dict[type, list[float]] = {Replay: [], _PlainReplay: []}
    for _ in range(rounds):
        for kind in spent:
            c0 = time.process_time()
            for log, mission in parsed:
                kind(log, mission).run()
            spent[kind].append(time.process_time() - c0)
    with_, without = statistics.median(spent[Replay]), statistics.median(spent[_PlainReplay])
    return (f"replay {with_ / len(logs) * 1e6:,.0f} us a log with them, {without / len(logs) * 1e6:,.0f} "
            f"without: +{with_ / without - 1:.0%} of the replay")


def measure(logs: list[bytes], rounds: int) -> None:
    statements = sum(len(parse_log(b).statements) for b in logs)
    verifier = Verifier()  # kept from round to round, as the CLI keeps one for a folder
    for b in logs[:20]:  # warm caches (rulesets, maps' ridge cells)
        verifier.verify(b)
    rates, cpu_rates, parse_share = [], [], []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for b in logs:
            parse_log(b, verifier.lines)
        t1 = time.perf_counter()
        c1 = time.process_time()
        verdicts = [verifier.verify(b) for b in logs]
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
    print("where the CPU time goes (one pass, us a log): " + stages(logs, verifier))


def stages(logs: list[bytes], memo: Verifier) -> str:
    """verify_log's steps timed one by one (a valid log takes every step)."""
    spent = dict.fromkeys(("parse", "mission", "id", "replay"), 0.0)
    for b in logs:
        c0 = time.process_time()
        log = parse_log(b, memo.lines)
        c1 = time.process_time()
        mission = mission_source(log, memo.missions)
        c2 = time.process_time()
        verification_id(log.canonical_text(), mission.ruleset.name, map_key(mission))
        c3 = time.process_time()
        Replay(log, mission, memo.starts).run()
        c4 = time.process_time()
        for key, t in zip(spent, (c1 - c0, c2 - c1, c3 - c2, c4 - c3), strict=True):
            spent[key] += t
    total = sum(spent.values())
    return ", ".join(f"{k} {v / len(logs) * 1e6:,.0f} ({v / total:.0%})" for k, v in spent.items())


if __name__ == "__main__":
    main()
