"""Engine speed: complete random missions per second and legal-action enumerations per second.

    .venv/bin/python bench/bench_engine.py [--runs 5] [--games 400] [--profile]

Reports the median of several runs (and min/max), one core, in CPU time of this process
(``time.process_time``: the machine is shared, so wall-clock rates swing with other work).
The aim is 2,000 complete random missions per second. ``--profile`` prints where the time
goes (cProfile).
The warm runs replay the cold pass's games, so every movement cache hits: compare a change
against the old code interleaved (old, new, old, new …) and by medians, the machine is shared.

Figures (defaults, CPU medians of 5 runs, the shared 2-core machine): random missions 2,780 a
second on the player's own deck (1,840 cold) and 2,410 on the challenge deck, 1.39x the aim;
198,000 ``legal_actions`` calls a second (30 actions listed a call); 760,000 state copies a
second. The solver's unit of work, ``search.turn_outcomes`` from challenge-deck decisions:
23,700 outcomes a second, 34,700 with the cyclic garbage collector paused as the solver's
searches run (``search.without_cycle_collection``; interleaved runs, load average about 12).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time

from bgrid.rules import engine
from bgrid.challenges.mission import mission_from_seed
from bgrid.players.playout import play_out, random_card
from bgrid.players.random_player import random_action
from bgrid.challenges.seeding import stream
from bgrid.players.search import turn_outcomes, without_cycle_collection
from bgrid.players.solver import PORTFOLIO

TURN_LIMIT = PORTFOLIO[0].turn_limit

SEEDS = (1944, 0, 4, 27, 103, 247)


def missions_per_second(games: int, challenge: bool) -> float:
    starts = [mission_from_seed(s).start(challenge) for s in SEEDS]
    t0 = time.process_time()
    for k in range(games):
        play_out(starts[k % len(starts)].copy(), stream("standard-1", f"bench-{k}", 0))
    return games / (time.process_time() - t0)


def decision_states(count: int, challenge: bool = False) -> list:
    """Positions where the player decides, from random playouts."""
    out = []
    k = 0
    while len(out) < count:
        state = mission_from_seed(SEEDS[k % len(SEEDS)]).start(challenge)
        rng = stream("standard-1", f"states-{k}", 0)
        while not state.is_over and len(out) < count:
            if engine.chance_pending(state):
                engine.reveal(state, random_card(state, rng))
            else:
                out.append(state.copy())
                engine.apply(state, random_action(state, rng))
        k += 1
    return out


def enumerations_per_second(states) -> tuple[float, float]:
    """legal_actions calls per second, and actions listed per call."""
    t0 = time.process_time()
    total = 0
    for state in states:
        total += len(engine.legal_actions(state))
    return len(states) / (time.process_time() - t0), total / len(states)


def turn_outcomes_per_second(states) -> float:
    """The solver's unit of work (``search.turn_outcomes`` with its turn limit): distinct turn
    outcomes generated a second, from decision states of the challenge deck."""
    t0 = time.process_time()
    total = 0
    for state in states:
        total += len(turn_outcomes(state, TURN_LIMIT))
    return total / (time.process_time() - t0)


def copies_per_second(states) -> float:
    t0 = time.process_time()
    for state in states:
        state.copy()
    return len(states) / (time.process_time() - t0)


def report(name: str, values, unit: str) -> None:
    print(f"{name:<34} median {statistics.median(values):>10,.0f} {unit}   "
          f"(min {min(values):,.0f}, max {max(values):,.0f}, {len(values)} runs)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    # The first pass fills the movement caches (one entry per card, cell, facing, points
    # and mountain set): reported apart as the cold rate.
    cold = missions_per_second(args.games, False)
    own = [missions_per_second(args.games, False) for _ in range(args.runs)]
    challenge = [missions_per_second(args.games, True) for _ in range(args.runs)]
    states = decision_states(5000)
    enum = [enumerations_per_second(states) for _ in range(args.runs)]
    copies = [copies_per_second(states) for _ in range(args.runs)]
    turns = decision_states(300, challenge=True)[::3]
    outcomes, paused = [], []
    for _ in range(args.runs):  # interleaved: the collector's cost, as a search pays it or not
        outcomes.append(turn_outcomes_per_second(turns))
        with without_cycle_collection():
            paused.append(turn_outcomes_per_second(turns))
    print(f"{'random missions, own deck, cold':<34} {cold:>17,.0f} missions/s   (first pass, empty caches)")
    report("random missions, own deck", own, "missions/s")
    report("random missions, challenge deck", challenge, "missions/s")
    report("legal_actions enumerations", [e[0] for e in enum], "calls/s")
    print(f"{'':<34} {enum[0][1]:.1f} actions listed per call on average")
    report("state.copy()", copies, "copies/s")
    report("search turn outcomes (challenge)", outcomes, "outcomes/s")
    report("  the same, cyclic GC paused", paused, "outcomes/s")
    print(f"ratio to the 2,000 missions/s aim: {statistics.median(own) / 2000:.2f}")
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        missions_per_second(args.games, False)
        profiler.disable()
        stats = pstats.Stats(profiler)
        stats.sort_stats("tottime").print_stats(20)
        stats.sort_stats("cumulative").print_stats(15)  # by area: legal plays, reveals, Automa


if __name__ == "__main__":
    main()
