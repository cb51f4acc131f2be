"""Mission length in turns, to size the mission sheet's turn log.

    nice -n 10 .venv/bin/python bench/bench_mission_length.py [--games 500]

Plays ``--games`` missions for every combination of player (random, greedy), map seed,
difficulty and ridge count, with the player's own shuffled deck and with the challenge deck,
and prints the distribution of the number of turns (the last turn counted is the one in
which the mission ended). The sheet prints turn rows up to the deck's bound
(:func:`bgrid.generator.sheet.log_rows_needed`), which must not be below the 99.9th
percentile measured here.

Figures (``--games 150``: 14,400 missions, random and greedy, four maps, easy/normal/ace, 1
and 4 ridges, both decks): median 14 turns, 90th percentile 85, 99th 95, 99.9th 98, longest
98, within the 101 rows the sheet prints.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time
from collections import Counter

from bgrid.challenges.mission import mission_from_seed
from bgrid.players.playout import play_out
from bgrid.players.simulation import PLAYERS
from bgrid.challenges.seeding import stream

SEEDS = (1944, 7, 27, 103)
DIFFICULTIES = ("easy", "normal", "ace")
RIDGES = (1, 4)


def percentile(sorted_values: list[int], p: float) -> int:
    """The nearest-rank percentile (the smallest value with at least p % at or below it)."""
    rank = max(1, -(-len(sorted_values) * p // 100))
    return sorted_values[int(rank) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="missions per combination")
    args = parser.parse_args()
    turns: list[int] = []
    by_player: dict[str, list[int]] = {}
    t0 = time.process_time()
    for player, seed, difficulty, ridges, challenge in itertools.product(
            PLAYERS, SEEDS, DIFFICULTIES, RIDGES, (False, True)):
        start = mission_from_seed(seed, difficulty, ridges).start(challenge)
        for k in range(args.games):
            rng = stream("standard-1", f"length-{seed}-{difficulty}-{ridges}-{k}", 0)
            state = play_out(start.copy(), rng, player=PLAYERS[player])
            turns.append(state.turn)
            by_player.setdefault(player, []).append(state.turn)
    turns.sort()
    print(f"{len(turns)} missions, {time.process_time() - t0:.0f} s CPU")
    print("percentile  " + "  ".join(f"{p:>5}" for p in ("50", "90", "99", "99.9", "max")))
    for name, values in [("all", turns)] + sorted(by_player.items()):
        values = sorted(values)
        cells = [percentile(values, p) for p in (50, 90, 99, 99.9)] + [values[-1]]
        mean = statistics.fmean(values)
        print(f"{name:10}  " + "  ".join(f"{v:>5}" for v in cells) + f"   mean {mean:.1f}")
    counts = Counter(turns)
    print("longest:", ", ".join(f"{t} turns ×{counts[t]}" for t in sorted(counts)[-5:]))


if __name__ == "__main__":
    main()
