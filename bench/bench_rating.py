"""The strong player and the difficulty rating, validated: win rates of greedy and strong per
difficulty × ridges, test–retest of the rating across simulation seeds, and its rank
correlation with greedy's win rate.

    nice -n 10 .venv/bin/python bench/bench_rating.py [--maps 8] [--games 10]
        [--retest-maps 20] [--retest-games 20] [--first-seed 5000]

Maps are the seeds ``first-seed``, ``first-seed + 1``, … of each difficulty and ridge count
(the player was tuned on seeds 100–129 normal and 101–104 easy). Each cell of the table
plays ``--maps`` maps × ``--games`` own-deck games per player (same sim seed for both). The
retest rates ``--retest-maps`` normal 1-ridge maps twice (sim seeds 0 and 1, ``--retest-games``
each) and reports the Spearman correlation of the two win rates, how often the stars agree
(exactly, within one), and the Spearman correlation with greedy's win rate (200 games a map).
CPU is ``time.process_time`` of this process, one core.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bgrid.rules.mission import mission_from_seed
from bgrid.rules.playout import simulate
from bgrid.rules.rating import Rating, wilson_interval

DIFFICULTIES = ("easy", "normal", "hard", "ace")


def ranks(values) -> list[float]:
    """Ranks from 1, ties given their mean rank."""
    order = sorted(range(len(values)), key=values.__getitem__)
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(a, b) -> float:
    """Pearson's correlation of the ranks."""
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.fmean(ra), statistics.fmean(rb)
    num = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    den = (sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb)) ** 0.5
    return num / den if den else float("nan")


def table(maps: int, games: int, first: int) -> None:
    print(f"Win rates, own deck, {maps} maps x {games} games per cell and player "
          f"(seeds {first}..{first + maps - 1}); 95% Wilson interval of strong")
    print(f"{'difficulty':<10} {'ridges':>6} {'greedy':>8} {'strong':>8} {'ratio':>6} "
          f"{'strong 95%':>14} {'s/game':>7}")
    cpu = []
    for difficulty in DIFFICULTIES:
        for ridges in (1, 2, 3, 4):
            won = {"greedy": 0, "strong": 0}
            for seed in range(first, first + maps):
                mission = mission_from_seed(seed, difficulty, ridges)
                for player in won:
                    t0 = time.process_time()
                    won[player] += simulate(mission, games, 0, player=player).wins
                    if player == "strong":
                        cpu.append((time.process_time() - t0) / games)
            n = maps * games
            low, high = wilson_interval(won["strong"], n)
            ratio = f"{won['strong'] / won['greedy']:.1f}" if won["greedy"] else "-"
            print(f"{difficulty:<10} {ridges:>6} {won['greedy'] / n:>8.1%} {won['strong'] / n:>8.1%} "
                  f"{ratio:>6} {f'{low:.0%}-{high:.0%}':>14} {statistics.fmean(cpu[-maps:]):>7.3f}",
                  flush=True)
    print(f"strong s/game: median {statistics.median(cpu):.3f}, worst map mean {max(cpu):.3f}")


def retest(maps: int, games: int, first: int) -> None:
    first_run, second_run, greedy = [], [], []
    for seed in range(first, first + maps):
        mission = mission_from_seed(seed, "normal", 1)
        first_run.append(simulate(mission, games, 0, player="strong").wins)
        second_run.append(simulate(mission, games, 1, player="strong").wins)
        greedy.append(simulate(mission, 200, 0, player="greedy").wins)
    stars_a = [Rating(w, games).stars for w in first_run]
    stars_b = [Rating(w, games).stars for w in second_run]
    same = sum(a == b for a, b in zip(stars_a, stars_b, strict=True))
    near = sum(abs(a - b) <= 1 for a, b in zip(stars_a, stars_b, strict=True))
    pooled = [a + b for a, b in zip(first_run, second_run, strict=True)]
    print(f"Retest: {maps} normal 1-ridge maps, {games} games x sim seeds 0 and 1")
    print(f"  Spearman(strong seed 0, strong seed 1) = {spearman(first_run, second_run):.2f}")
    print(f"  stars equal on {same}/{maps}, within one star on {near}/{maps}")
    print(f"  Spearman(strong, greedy 200 games) = {spearman(pooled, greedy):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--maps", type=int, default=8)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--retest-maps", type=int, default=20)
    parser.add_argument("--retest-games", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=5000)
    args = parser.parse_args()
    table(args.maps, args.games, args.first_seed)
    retest(args.retest_maps, args.retest_games, args.first_seed)


if __name__ == "__main__":
    main()
