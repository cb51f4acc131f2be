"""The strong player and the difficulty rating, validated: greedy, strong and solver win rates
per difficulty × ridges, strong against greedy per difficulty, test–retest of the rating
across simulation seeds, monotony in difficulty and ridges, and rank correlations with
greedy's win rate and with how many of the solver's searches win.

    nice -n 10 .venv/bin/python bench/bench_rating.py --out rating.jsonl \\
        [--maps 50] [--greedy-games 50] [--strong-games 4] [--retest-maps 3] [--retest-games 12] \\
        [--solver-maps 3] [--solver-nodes N] [--first-seed 5000] [--jobs 2]
    .venv/bin/python bench/bench_rating.py --report rating.jsonl

The validation runs, each on seeds never used for tuning (the strong player was tuned on
seeds 300-331 and 7000-7047, all difficulties, ridges 1-4, both decks, and on
0GDR-FC73-W4T):

    nice -n 10 .venv/bin/python bench/bench_rating.py --out dominance.jsonl \
        --dominance-maps 200 --greedy-games 100 --strong-games 24 --first-seed 8400 --jobs 2

(8000-8199 and 8200-8399 each measured an earlier player once and are spent; 8800-8999
measured the player of 8400-8599 again; 9000-9199 measured it on the compiled build.)

The star rating: tuning maps (the bands were fitted on these), then the unseen maps rated
twice, and the strong player on the same unseen maps (what a star means for it):

    nice -n 10 .venv/bin/python bench/bench_rating.py --out tune.jsonl \
        --tune-maps 48 --tune-games 640 --first-seed 5000 --jobs 2
    nice -n 10 .venv/bin/python bench/bench_rating.py --out tune.jsonl \
        --tune-maps 50 --tune-games 400 --first-seed 7100 --jobs 2
    nice -n 10 .venv/bin/python bench/bench_rating.py --out strong-tune.jsonl \
        --tune-maps 50 --tune-games 64 --tune-player strong --first-seed 7100 --jobs 2
    nice -n 10 .venv/bin/python bench/bench_rating.py --out rerate.jsonl \
        --rerate-maps 50 --first-seed 8600 --jobs 2
    nice -n 10 .venv/bin/python bench/bench_rating.py --out rerate.jsonl \
        --tune-maps 50 --tune-games 48 --tune-player strong --first-seed 8600 --jobs 2
    nice -n 10 .venv/bin/python bench/bench_rating.py --out paired.jsonl \
        --paired-seeds 4 --tune-games 512 --first-seed 8700 --jobs 2

``--dominance-maps N``: N maps going round the 16 cells (difficulty × ridges), each played by
greedy and strong on its own deck and on its challenge deck: per map-deck mean scores, wins
with Wilson intervals, every strong game's CPU, strong's different games on the challenge
deck. ``--tune-maps N``: N maps played ``--tune-games`` times by ``--tune-player`` (own deck,
sim seed 0): the spread of the map means against one game's noise for the bunkers destroyed,
the win and the score, the games and CPU a reliability of 0.9 needs, and star floors fitted
to the maps (:func:`fit_floors`). ``--rerate-maps N``: N maps rated twice, sim seeds 0 and 1
(``--rerate-games`` games, 0 for the adaptive rating of ``bgrid sheet --rate``): Spearman of
the mean bunkers destroyed, equal stars with a Wilson interval, games and CPU a rating, and
the mean by difficulty × ridges; with ``--tune-maps`` records of the same maps in the file,
the rating against that player's games (rank correlation, its mean and wins per star).

Maps are the seeds ``first-seed``, ``first-seed + 1``, … of each difficulty and ridge count
(the players were tuned on seeds 100–129 normal and 101–104 easy). Every map is played
``--greedy-games`` times by greedy and ``--strong-games`` times by strong, own deck, sim seed
0 (game k: stream ``sim-k``). ``--retest-maps`` maps of each cell (spread over its seeds) are
rated twice by strong, ``--retest-games`` games with sim seed 0 and as many with sim seed 1
(test–retest), and ``--solver-maps`` are solved on their challenge deck by the solver's
standard portfolio (``bgrid solve``), or with every member's node budget set to
``--solver-nodes`` (a stated, reduced budget).

Each finished map is appended to the ``--out`` file as one JSON line, as soon as it is done:
a run cut short still reports what it finished, and a second run with the same file skips
the maps already there. Tasks go round the cells map by map, so a cut run has every cell.
CPU is ``time.process_time`` of the worker, one core.

Figures (the validation runs above, a shared 2-core machine, two workers; the tables are in
docs/rating.md). Seeds 8400-8599: strong's mean score at least greedy's on 190 of 200 maps
(95.0%, both decks' games together), own decks 197/200 = 98.5%, challenge decks 172/200 =
86.0%; greedy's win rate above strong's beyond both Wilson intervals on no map and 1 of 400
map-decks (seed 8565, challenge deck); 0.109 s of CPU a strong game (median, 0.196 s at the
90th percentile, 1.076 s the slowest). The same player again on 8800-8999 (``--first-seed
8800``): 194/200 maps = 97.0%, own decks 200/200, challenge decks 173/200 = 86.5%, greedy's
win rate beyond both intervals on no map and no map-deck, 0.123 s median, 1.039 s slowest.
Strong's lead is the same on both decks (own 2.54 and 2.57 points, challenge 2.55 and 2.54);
from map-deck to map-deck it varies by 1.1 on the own decks and 2.6-2.7 on the challenge
decks, where one fixed order's luck is met by both players in every game: 95% of challenge
decks alone would need a lead of about 4 (each challenge deck's lead 1.5 higher: 190/200 and
191/200).
Stars: on the tuning maps the strong player's bunkers destroyed need 94 games (8.3 s of CPU)
for a reliability of 0.9, its win rate 221 (19 s), greedy's bunkers destroyed 108 (0.5 s).
Rated twice on the 50 unseen maps 8600-8649 (adaptive, greedy): Spearman 0.985, equal
stars on 46 of 50 (92%, Wilson 81-97%), within one on 50; games a rating median 1,024, worst
4,096; CPU median 4.5 s, worst 21.4 s. Against the strong player before its altitude value
(48 games a map): rank correlation 0.77, its mean bunkers 3.75, 2.84, 2.70, 2.48, 2.16 for
1-5 stars. The same map one difficulty harder: the rating falls on 48 of 48 steps; one ridge
more: falls or ties on 30 of 48, rises beyond both intervals on 0.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import math
import statistics
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from bgrid.challenges.mission import mission_from_seed
from bgrid.players.rating import (RATING_MOST, RATING_PLAYER, STAR_FLOORS, Rating, mean_interval,
                                  rate_mission, stars_for, wilson_interval)
from bgrid.rules.setup import BUNKERS
from bgrid.players.simulation import simulate

DIFFICULTIES = ("easy", "normal", "hard", "ace")
RIDGES = (1, 2, 3, 4)


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


# -- the runs --------------------------------------------------------------------------------


def play(task: dict) -> dict:
    """One task: greedy and strong on a map, a retest of strong, or a solve."""
    mission = mission_from_seed(task["seed"], task["difficulty"], task["ridges"])
    out = dict(task)
    t0 = time.process_time()
    if task["kind"] == "play":
        out["greedy_wins"] = simulate(mission, task["greedy_games"], 0, player="greedy").wins
        t1 = time.process_time()
        out["greedy_cpu"] = t1 - t0
        out["strong_wins"] = simulate(mission, task["strong_games"], 0, player="strong").wins
        out["strong_cpu"] = time.process_time() - t1
    elif task["kind"] == "dominance":
        out |= duel(mission, task)
    elif task["kind"] == "rerate":
        ratings = []
        for seed in (0, 1):
            t1 = time.process_time()
            rated = rate_mission(mission, task["games"], seed)
            ratings.append({"wins": rated.wins, "destroyed": list(rated.destroyed),
                            "cpu": time.process_time() - t1})
        out["ratings"] = ratings
    elif task["kind"] == "tune":
        played = simulate(mission, task["games"], 0, player=task["player"])
        out |= {"wins": played.wins, "destroyed": list(played.bunkers), "scores": list(played.scores),
                "cpu": time.process_time() - t0}
    elif task["kind"] == "retest":
        out["wins"] = [simulate(mission, task["strong_games"], seed, player="strong").wins for seed in (0, 1)]
        out["strong_cpu"] = time.process_time() - t0
    else:
        from bgrid.players.solver import PORTFOLIO, PORTFOLIO_VERSION, solve_mission

        portfolio = PORTFOLIO if task["nodes"] is None else tuple(
            dataclasses.replace(m, nodes=task["nodes"]) for m in PORTFOLIO)
        par = solve_mission(mission, portfolio=portfolio)
        out |= {"portfolio": PORTFOLIO_VERSION, "par": None if par.best is None else par.best.score,
                "victory": bool(par.best is not None and par.best.is_victory),
                "searches": len(par.members), "searches_won": par.victories,
                "solver_cpu": time.process_time() - t0}
    return out


def duel(mission, task: dict) -> dict:
    """Greedy and strong on one map and deck: wins, mean score, each player's CPU a game
    (strong: every game timed, so the worst game is known) and strong's different games."""
    challenge = task["deck"] == "challenge"
    out: dict = {}
    t0 = time.process_time()
    greedy = simulate(mission, task["greedy_games"], 0, challenge_deck=challenge, player="greedy")
    out |= {"greedy_wins": greedy.wins, "greedy_mean": greedy.mean_score,
            "greedy_scores": list(greedy.scores),
            "greedy_cpu": (time.process_time() - t0) / task["greedy_games"]}
    times, last = [], [time.process_time()]

    def tick(_):
        now = time.process_time()
        times.append(now - last[0])
        last[0] = now

    strong = simulate(mission, task["strong_games"], 0, challenge_deck=challenge, player="strong",
                      progress=tick)
    return out | {"strong_wins": strong.wins, "strong_mean": strong.mean_score,
                  "strong_scores": list(strong.scores), "strong_game_cpu": times,
                  "strong_distinct": strong.distinct}


def _spread(count: int, maps: int) -> set[int]:
    """``count`` map indices spread over ``range(maps)``, so a cut run has some of each task."""
    return {k * maps // count for k in range(min(count, maps))} if count else set()


def going_round(first_seed: int, maps: int) -> list[dict]:
    """``maps`` maps from ``first_seed`` on, going round the 16 cells (difficulty × ridges):
    map ``i`` is the seed ``first_seed + i`` in cell ``i`` (difficulty first)."""
    return [{"difficulty": DIFFICULTIES[i % 4], "ridges": RIDGES[(i // 4) % 4], "seed": first_seed + i}
            for i in range(maps)]


def tasks(args) -> list[dict]:
    if args.dominance_maps:
        return dominance_tasks(args)
    if args.paired_seeds:
        return [{"kind": "tune", "difficulty": d, "ridges": r, "seed": args.first_seed + i,
                 "games": args.tune_games, "player": args.tune_player}
                for i in range(args.paired_seeds) for r in RIDGES for d in DIFFICULTIES]
    if args.tune_maps:
        return [cell | {"kind": "tune", "games": args.tune_games, "player": args.tune_player}
                for cell in going_round(args.first_seed, args.tune_maps)]
    if args.rerate_maps:
        return [cell | {"kind": "rerate", "games": args.rerate_games or None}
                for cell in going_round(args.first_seed, args.rerate_maps)]
    out = []
    retest, solve = _spread(args.retest_maps, args.maps), _spread(args.solver_maps, args.maps)
    for i in range(args.maps):
        for difficulty in DIFFICULTIES:
            for ridges in RIDGES:
                cell = {"difficulty": difficulty, "ridges": ridges, "seed": args.first_seed + i}
                out.append(cell | {"kind": "play", "greedy_games": args.greedy_games,
                                   "strong_games": args.strong_games})
                if i in retest:
                    out.append(cell | {"kind": "retest", "strong_games": args.retest_games})
                if i in solve:
                    out.append(cell | {"kind": "solve", "nodes": args.solver_nodes})
    return out


def dominance_tasks(args) -> list[dict]:
    """``--dominance-maps`` maps from ``--first-seed`` on, going round the 16 cells (difficulty
    × ridges), each played on its own deck and on its challenge deck."""
    out = []
    for cell in going_round(args.first_seed, args.dominance_maps):
        for deck in ("own", "challenge"):
            out.append(cell | {"kind": "dominance", "deck": deck, "greedy_games": args.greedy_games,
                               "strong_games": args.strong_games})
    return out


def _key(record: dict) -> tuple:
    return (record["kind"], record["difficulty"], record["ridges"], record["seed"],
            record.get("deck", "own"), record.get("player"))


def read(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def run(args) -> None:
    path = Path(args.out)
    done = {_key(r) for r in read(path)}
    todo = [t for t in tasks(args) if _key(t) not in done]
    print(f"{len(todo)} tasks to run ({len(done)} already in {path})", flush=True)
    with ProcessPoolExecutor(args.jobs) as pool, path.open("a") as out:
        pending = [pool.submit(play, t) for t in todo]
        for k, future in enumerate(as_completed(pending), start=1):
            out.write(json.dumps(future.result()) + "\n")
            out.flush()
            if k % 50 == 0:
                print(f"  {k}/{len(todo)} done", flush=True)


# -- the report ------------------------------------------------------------------------------


def _rate(wins: int, games: int) -> str:
    if not games:
        return "-"
    low, high = wilson_interval(wins, games)
    return f"{wins / games:.1%} [{low:.1%}, {high:.1%}]"


def dominance_report(duels: list[dict]) -> None:
    """Strong against greedy map by map: mean scores, win rates beyond both Wilson intervals,
    CPU a game, different games on a challenge deck."""
    print(f"Strong against greedy, map by map: {len(duels)} map-decks "
          f"({duels[0]['greedy_games']} greedy and {duels[0]['strong_games']} strong games each; "
          f"seeds {min(r['seed'] for r in duels)}-{max(r['seed'] for r in duels)}).\n")
    print("| deck | difficulty | maps | strong mean ≥ greedy mean | strong mean | greedy mean "
          "| greedy wins beyond both intervals |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for deck in ("own", "challenge"):
        for difficulty in (*DIFFICULTIES, "all"):
            cell = [r for r in duels if r["deck"] == deck and difficulty in ("all", r["difficulty"])]
            if not cell:
                continue
            ok = sum(r["strong_mean"] >= r["greedy_mean"] for r in cell)
            worse = [r for r in cell if _beyond(r)]
            print(f"| {deck} | {difficulty} | {len(cell)} | {ok}/{len(cell)} = {ok / len(cell):.0%} "
                  f"| {statistics.fmean(r['strong_mean'] for r in cell):.2f} "
                  f"| {statistics.fmean(r['greedy_mean'] for r in cell):.2f} | {len(worse)} |")
    print()
    for deck in ("own", "challenge", None):
        cell = [r for r in duels if deck in (None, r["deck"])]
        if cell:
            ok = sum(r["strong_mean"] >= r["greedy_mean"] for r in cell)
            low, high = wilson_interval(ok, len(cell))
            print(f"{deck or 'All'} map-decks: strong's mean score ≥ greedy's on {ok}/{len(cell)} = "
                  f"{ok / len(cell):.1%} (95% interval {low:.1%}-{high:.1%})")
    pooled_report(duels)
    lead_report(duels)
    for r in sorted(duels, key=lambda r: r["strong_mean"] - r["greedy_mean"]):
        if r["strong_mean"] < r["greedy_mean"]:
            scores = r["strong_scores"]
            error = statistics.stdev(scores) / len(scores) ** 0.5 if len(scores) > 1 else 0.0
            print(f"  below: seed {r['seed']} {r['difficulty']} {r['ridges']} ridges, {r['deck']} deck: "
                  f"strong {r['strong_mean']:.2f} ± {error:.2f} ({r['strong_wins']}/{r['strong_games']} "
                  f"won), greedy {r['greedy_mean']:.2f} ({r['greedy_wins']}/{r['greedy_games']} won)")
    games = sorted(t for r in duels for t in r["strong_game_cpu"])
    print(f"Strong CPU a game (one core, nice 10, shared machine): median {statistics.median(games):.3f} s, "
          f"90th percentile {games[int(0.9 * (len(games) - 1))]:.3f} s, worst {games[-1]:.3f} s "
          f"over {len(games)} games; greedy median "
          f"{statistics.median(r['greedy_cpu'] for r in duels):.4f} s")
    chal = [r for r in duels if r["deck"] == "challenge"]
    if chal:
        print(f"Challenge deck: {sum(r['strong_distinct'] for r in chal)} different strong games of "
              f"{sum(r['strong_games'] for r in chal)}; maps with every game the same: "
              f"{sum(r['strong_distinct'] == 1 for r in chal)}/{len(chal)}")


def pooled_report(duels: list[dict]) -> None:
    """Two more views of the same games. Per map, both decks' games together (the mean of
    a map's own-deck and challenge-deck games, wins counted over both). Per map-deck, how far
    below: strong's mean under greedy's by more than two standard errors of the difference
    (both players' game-to-game spread; needs the greedy scores a record keeps since
    they were added)."""
    by_map: dict[int, list[dict]] = {}
    for r in duels:
        by_map.setdefault(r["seed"], []).append(r)
    maps = [rs for rs in by_map.values() if len(rs) == 2]
    if maps:
        def mean(rs: list[dict], who: str) -> float:
            games = sum(r[f"{who}_games"] for r in rs)
            return sum(r[f"{who}_mean"] * r[f"{who}_games"] for r in rs) / games

        ok = sum(mean(rs, "strong") >= mean(rs, "greedy") for rs in maps)
        low, high = wilson_interval(ok, len(maps))
        worse = sum(_beyond({k: sum(r[k] for r in rs) for k in
                             ("greedy_wins", "greedy_games", "strong_wins", "strong_games")})
                    for rs in maps)
        print(f"Per map, both decks' games together: strong's mean ≥ greedy's on {ok}/{len(maps)} = "
              f"{ok / len(maps):.1%} (95% interval {low:.1%}-{high:.1%}); greedy's win rate above "
              f"strong's beyond both intervals on {worse}")
    kept = [r for r in duels if "greedy_scores" in r]
    for deck in ("own", "challenge"):
        cell = [r for r in kept if r["deck"] == deck]
        if cell:
            far = sum(r["greedy_mean"] - r["strong_mean"] > 2 * _difference_error(r) for r in cell)
            print(f"{deck} map-decks with strong's mean below greedy's by more than two standard "
                  f"errors of the difference: {far}/{len(cell)}")


def lead_report(duels: list[dict]) -> None:
    """Why one deck's count can be lower with the same lead. Per deck: strong's mean lead over
    greedy, its spread from map-deck to map-deck (standard deviation), the part of that
    spread the games' own sampling explains (the root mean square of the difference errors)
    and the rest: how much the map-deck itself moves the lead. On a challenge deck the rest
    holds the luck of its one fixed order, which both players meet in every game. With the
    map-decks' leads roughly normal, a count of 95% needs a lead of 1.645 spreads."""
    kept = [r for r in duels if "greedy_scores" in r and len(r["strong_scores"]) > 1]
    for deck in ("own", "challenge"):
        cell = [r for r in kept if r["deck"] == deck]
        if len(cell) < 2:
            continue
        leads = [r["strong_mean"] - r["greedy_mean"] for r in cell]
        lead, spread = statistics.fmean(leads), statistics.stdev(leads)
        sampling = statistics.fmean(_difference_error(r) ** 2 for r in cell) ** 0.5
        rest = max(spread ** 2 - sampling ** 2, 0.0) ** 0.5
        print(f"{deck} map-decks: strong leads greedy by {lead:.2f} points on average, spread "
              f"{spread:.2f} from map-deck to map-deck ({sampling:.2f} of it the games' sampling, "
              f"{rest:.2f} the map-deck); a count of 95% would need a lead of about "
              f"{1.645 * spread:.1f} with this spread, were the leads spread normally")


def _difference_error(r: dict) -> float:
    """The standard error of strong's mean minus greedy's, from each one's game scores."""
    return sum(statistics.variance(r[f"{who}_scores"]) / len(r[f"{who}_scores"])
               for who in ("strong", "greedy")) ** 0.5


def _beyond(r: dict) -> bool:
    """Greedy's win rate above strong's with the two Wilson intervals apart."""
    return wilson_interval(r["greedy_wins"], r["greedy_games"])[0] > \
        wilson_interval(r["strong_wins"], r["strong_games"])[1]


def rerate_report(rerates: list[dict]) -> None:
    """Test–retest of the printed rating: each map rated with sim seeds 0 and 1 (different
    games): Spearman of the mean bunkers destroyed, equal stars, games and CPU a rating, and
    the mean by difficulty, by ridges and by both."""
    pairs = [[Rating(tuple(g["destroyed"]), g["wins"]) for g in r["ratings"]] for r in rerates]
    a, b = [p[0].mean for p in pairs], [p[1].mean for p in pairs]
    wins = [(p[0].win_rate, p[1].win_rate) for p in pairs]
    same = sum(p[0].stars == p[1].stars for p in pairs)
    near = sum(abs(p[0].stars - p[1].stars) <= 1 for p in pairs)
    games = sorted(x.games for p in pairs for x in p)
    cpu = sorted(g["cpu"] for r in rerates for g in r["ratings"])
    mode = "adaptive" if rerates[0]["games"] is None else f"{rerates[0]['games']} games"
    low, high = wilson_interval(same, len(rerates))
    print(f"Test–retest of the rating ({mode}; sim seeds 0 and 1): {len(rerates)} maps, seeds "
          f"{min(r['seed'] for r in rerates)}-{max(r['seed'] for r in rerates)}; Spearman "
          f"{spearman(a, b):.3f} (of the win rates: {spearman(*zip(*wins, strict=True)):.2f}); "
          f"stars equal on {same}/{len(rerates)} = {same / len(rerates):.0%} "
          f"[{low:.0%}, {high:.0%}], within one on {near}/{len(rerates)}")
    print(f"Games a rating played: median {statistics.median(games)}, most {games[-1]}, "
          f"mean {statistics.fmean(games):.0f}, at the cap {sum(g >= RATING_MOST for g in games)}"
          f"/{len(games)}; "
          f"CPU a rating: median {statistics.median(cpu):.1f} s, worst {cpu[-1]:.1f} s, "
          f"{statistics.fmean(cpu) / statistics.fmean(games):.3f} s a game")
    stars = [x.stars for p in pairs for x in p]
    print("Stars given (both ratings): " + ", ".join(f"{k}: {stars.count(k)}" for k in range(1, 6)))
    for r, p in zip(rerates, pairs, strict=True):
        if p[0].stars != p[1].stars:
            print(f"  differ: seed {r['seed']} {r['difficulty']} {r['ridges']} ridges: "
                  + " against ".join(f"{x.mean:.2f} [{x.interval[0]:.2f}, {x.interval[1]:.2f}] "
                                     f"{x.stars} stars ({x.games} games)" for x in p))
    print("\nMean bunkers destroyed a game: the mean of the maps' means (each the mean of its two "
          "ratings), 95% interval over the maps, maps:\n")
    print("| ridges | " + " | ".join(DIFFICULTIES) + " | all |")
    print("| --- |" + " --- |" * (len(DIFFICULTIES) + 1))
    for ridges in (*RIDGES, "all"):
        row = [_pooled([(r, p) for r, p in zip(rerates, pairs, strict=True)
                        if d in ("all", r["difficulty"]) and ridges in ("all", r["ridges"])])
               for d in (*DIFFICULTIES, "all")]
        print(f"| {ridges} | " + " | ".join(row) + " |")


def validity_report(rerates: list[dict], tunes: list[dict]) -> None:
    """The printed rating (sim seed 0) against another player's games on the same maps: rank
    correlation of the means, and that player's mean bunkers and win rate per star."""
    other = {(r["seed"], r["difficulty"], r["ridges"]): r for r in tunes}
    pairs = [(Rating(tuple(r["ratings"][0]["destroyed"]), r["ratings"][0]["wins"]), o)
             for r in rerates if (o := other.get((r["seed"], r["difficulty"], r["ridges"])))]
    if not pairs:
        return
    player = pairs[0][1].get("player", "strong")
    rho = spearman([p.mean for p, _ in pairs], [statistics.fmean(o["destroyed"]) for _, o in pairs])
    print(f"The rating against the {player} player ({pairs[0][1]['games']} games a map, same maps): "
          f"Spearman {rho:.2f} over {len(pairs)} maps\n")
    print(f"| stars | maps | rating's mean bunkers | {player}: mean bunkers | {player}: wins |")
    print("| --- | --- | --- | --- | --- |")
    for stars in range(1, 6):
        cell = [(p, o) for p, o in pairs if p.stars == stars]
        if cell:
            games = tuple(d for _, o in cell for d in o["destroyed"])
            low, high = mean_interval(games)
            wins, played = sum(o["wins"] for _, o in cell), len(games)
            print(f"| {stars} | {len(cell)} | {statistics.fmean(p.mean for p, _ in cell):.2f} "
                  f"| {statistics.fmean(games):.2f} [{low:.2f}, {high:.2f}] | {_rate(wins, played)} |")


def _pooled(cell: list) -> str:
    """The mean over ``cell``'s maps of each map's mean bunkers destroyed (its two ratings
    averaged), with a 95% interval over the maps when there are 3 or more, and the maps."""
    if not cell:
        return "-"
    means = [statistics.fmean(x.mean for x in p) for _, p in cell]
    if len(means) < 3:
        return f"{statistics.fmean(means):.2f} ({len(means)})"
    low, high = mean_interval(means)
    return f"{statistics.fmean(means):.2f} [{low:.2f}, {high:.2f}] ({len(means)})"


def tune_report(tunes: list[dict]) -> None:
    """Signal and noise of each statistic a game over the tuning maps, the games and CPU a
    reliability of 0.9 needs, and star floors fitted to the bunkers destroyed."""
    seeds = sorted(r["seed"] for r in tunes)
    players = sorted({r.get("player", "strong") for r in tunes})
    print(f"Tuning maps: {len(tunes)}, seeds {seeds[0]}-{seeds[-1]}, {tunes[0]['games']} games each "
          f"of the {' and '.join(players)} player (own deck, sim seed 0)\n")
    print("| statistic a game | between maps (sd) | within a map (sd) | games for reliability 0.9 "
          "| CPU for it | by difficulty |")
    print("| --- | --- | --- | --- | --- | --- |")
    a_game = sum(r["cpu"] for r in tunes) / sum(len(r["destroyed"]) for r in tunes)
    for name, values in (("bunkers destroyed", lambda r: r["destroyed"]),
                         ("victory", lambda r: [int(d == BUNKERS) for d in r["destroyed"]]),
                         ("score", lambda r: r["scores"])):
        means = [statistics.fmean(values(r)) for r in tunes]
        within = statistics.fmean(statistics.variance(values(r)) for r in tunes)
        games = statistics.fmean(len(r["destroyed"]) for r in tunes)
        between = statistics.variance(means) - within / games
        need = 9 * within / between if between > 0 else float("inf")
        by = " → ".join(f"{_mean_of(means, tunes, d):.3f}" for d in DIFFICULTIES)
        print(f"| {name} | {max(between, 0) ** 0.5:.3f} | {within ** 0.5:.3f} | {need:.0f} "
              f"| {need * a_game:.1f} s | {by} |")
    print(f"\nCPU a game: {a_game:.4f} s (mean)")
    truths, sds = true_means(tunes)
    floors = fit_floors(truths, sds, RATING_MOST)
    print(f"Estimated true means (shrunk): {' '.join(f'{t:.2f}' for t in sorted(truths))}")
    print(f"Fitted floors (1-4 stars): {floors}; in use: {STAR_FLOORS}")
    for name, f in (("fitted", floors), ("in use", STAR_FLOORS)):
        counts = [sum(_stars(t, f) == k for t in truths) for k in range(1, 6)]
        print(f"  {name}: maps a star {counts}, expected equal stars at {RATING_MOST} games "
              f"{_agreement(truths, sds, f, RATING_MOST):.1%}")


def _mean_of(means: list[float], tunes: list[dict], difficulty: str) -> float:
    return statistics.fmean(m for m, r in zip(means, tunes, strict=True) if r["difficulty"] == difficulty)


def paired_report(tunes: list[dict]) -> None:
    """Seeds played at several difficulties or ridge counts (the same map with less health or
    one more ridge): how often the mean bunkers destroyed falls at each step, and how often it
    rises with the two 95% intervals apart."""
    by = {(r["seed"], r["difficulty"], r["ridges"]): r["destroyed"] for r in tunes}
    for name, steps in (("difficulty", [((s, a, k), (s, b, k)) for s, _, k in by
                                        for a, b in itertools.pairwise(DIFFICULTIES)]),
                        ("ridges", [((s, d, a), (s, d, b)) for s, d, _ in by
                                    for a, b in itertools.pairwise(RIDGES)])):
        pairs = {(x, y) for x, y in steps if x in by and y in by}
        if not pairs:
            continue
        falls = sum(statistics.fmean(by[y]) <= statistics.fmean(by[x]) for x, y in pairs)
        rises = sum(mean_interval(by[y])[0] > mean_interval(by[x])[1] for x, y in pairs)
        print(f"Same map, one step harder in {name}: the mean bunkers destroyed falls (or ties) on "
              f"{falls}/{len(pairs)} steps, rises beyond both intervals on {rises}")


def true_means(tunes: list[dict]) -> tuple[list[float], list[float]]:
    """Each map's mean bunkers destroyed shrunk towards the mean of all by the reliability of
    its games (the spread of observed means is the true spread plus the sampling noise), and
    each map's standard deviation a game."""
    means = [statistics.fmean(r["destroyed"]) for r in tunes]
    sds = [statistics.stdev(r["destroyed"]) for r in tunes]
    games = statistics.fmean(len(r["destroyed"]) for r in tunes)
    noise = statistics.fmean(s * s for s in sds) / games
    spread = max(statistics.variance(means) - noise, 0.0)
    grand, keep = statistics.fmean(means), spread / (spread + noise)
    return [grand + keep * (m - grand) for m in means], sds


#: Where the fitted floors of 1, 2, 3, 4 stars are looked for: around these quantiles of the
#: tuning maps' true means (from the top), ± QUANTILE_SLACK.
FLOOR_QUANTILES = (0.12, 0.35, 0.7, 0.9)
QUANTILE_SLACK = 0.06


def fit_floors(truths: list[float], sds: list[float], games: int) -> tuple[float, ...]:
    """Four floors on a 0.05 grid, each within :data:`QUANTILE_SLACK` of its quantile of
    ``truths`` and 0.25 apart at least, that make two ratings of ``games`` games most often
    agree on the tuning maps (normal sampling errors): floors in the gaps between maps."""
    ranked = sorted(truths, reverse=True)

    def at(q: float) -> float:
        return ranked[min(len(ranked) - 1, max(0, round(q * len(ranked))))]

    options = [[x / 20 for x in range(0, 121) if at(q + QUANTILE_SLACK) <= x / 20 <= at(q - QUANTILE_SLACK)]
               for q in FLOOR_QUANTILES]
    best, chosen = -1.0, STAR_FLOORS
    for floors in itertools.product(*options):
        if all(floors[i] - floors[i + 1] >= 0.25 for i in range(len(floors) - 1)):
            agree = _agreement(truths, sds, floors, games)
            if agree > best:
                best, chosen = agree, floors
    return chosen


def _stars(mean: float, floors) -> int:
    return next((k for k, f in enumerate(floors, start=1) if mean >= f), len(floors) + 1)


def _agreement(truths, sds, floors, games: int) -> float:
    """The expected share of maps two independent ``games``-game ratings give equal stars."""
    edges = (math.inf, *floors, -math.inf)
    total = 0.0
    for t, s in zip(truths, sds, strict=True):
        sigma = max(s, 1e-9) / math.sqrt(games)
        cdf = [0.5 * (1 + math.erf((e - t) / sigma / math.sqrt(2))) for e in edges]
        total += sum((cdf[k] - cdf[k + 1]) ** 2 for k in range(len(edges) - 1))
    return total / len(truths)


def report(path: Path) -> None:
    records = read(path)
    duels = [r for r in records if r["kind"] == "dominance"]
    rerates = [r for r in records if r["kind"] == "rerate"]
    tunes = [r for r in records if r["kind"] == "tune"]
    if tunes:
        tune_report(tunes)
        print()
        paired_report(tunes)
    if rerates and tunes:
        validity_report(rerates, tunes)
        print()
    if duels:
        dominance_report(duels)
        print()
    if rerates:
        rerate_report(rerates)
        print()
    if len(duels) + len(rerates) + len(tunes) == len(records):
        return
    plays = [r for r in records if r["kind"] == "play"]
    by_cell = defaultdict(list)
    for r in plays:
        by_cell[r["difficulty"], r["ridges"]].append(r)
    solves = defaultdict(list)
    for r in records:
        if r["kind"] == "solve":
            solves[r["difficulty"], r["ridges"]].append(r)
    print(f"From {path}: {len(plays)} maps played, "
          f"{sum(len(v) for v in solves.values())} solved, own deck, sim seed 0.\n")
    print("| difficulty | ridges | maps | greedy wins | greedy | strong wins | strong | strong/greedy "
          "| solver maps | solver victories | solver mean par |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for difficulty in DIFFICULTIES:
        for ridges in RIDGES:
            cell = by_cell[difficulty, ridges]
            gw, gn = sum(r["greedy_wins"] for r in cell), sum(r["greedy_games"] for r in cell)
            sw, sn = sum(r["strong_wins"] for r in cell), sum(r["strong_games"] for r in cell)
            ratio = f"{(sw / sn) / (gw / gn):.1f}" if gw and sn else "-"
            solved = solves[difficulty, ridges]
            won = sum(r["victory"] for r in solved)
            pars = [r["par"] for r in solved if r["par"] is not None]
            print(f"| {difficulty} | {ridges} | {len(cell)} | {gw}/{gn} | {_rate(gw, gn)} | {sw}/{sn} "
                  f"| {_rate(sw, sn)} | {ratio} | {len(solved)} | {won}/{len(solved)} "
                  f"| {statistics.fmean(pars) if pars else float('nan'):.1f} |")
    print("\nPooled over ridges (strong against greedy, and the solver):\n")
    print("| difficulty | greedy | strong | strong/greedy | solver victories |")
    print("| --- | --- | --- | --- | --- |")
    for difficulty in DIFFICULTIES:
        cell = [r for r in plays if r["difficulty"] == difficulty]
        gw, gn = sum(r["greedy_wins"] for r in cell), sum(r["greedy_games"] for r in cell)
        sw, sn = sum(r["strong_wins"] for r in cell), sum(r["strong_games"] for r in cell)
        solved = [r for r in records if r["kind"] == "solve" and r["difficulty"] == difficulty]
        ratio = f"{(sw / sn) / (gw / gn):.2f}" if gw and sn else "-"
        print(f"| {difficulty} | {gw}/{gn} {_rate(gw, gn)} | {sw}/{sn} {_rate(sw, sn)} | {ratio} "
              f"| {sum(r['victory'] for r in solved)}/{len(solved)} |")
    print()
    for player in ("greedy", "strong"):
        pooled = [_rate(sum(r[f"{player}_wins"] for r in plays if r["ridges"] == ridges),
                        sum(r[f"{player}_games"] for r in plays if r["ridges"] == ridges))
                  for ridges in RIDGES]
        print(f"By ridges, pooled over difficulties ({player}):",
              ", ".join(f"{ridges}: {rate}" for ridges, rate in zip(RIDGES, pooled, strict=True)))
    cpu = sorted(r["strong_cpu"] / r["strong_games"] for r in plays)
    if cpu:
        print(f"\nStrong CPU a game (mean per map, one core): median {statistics.median(cpu):.3f} s, "
              f"90th percentile {cpu[int(0.9 * (len(cpu) - 1))]:.3f} s, worst map {cpu[-1]:.3f} s "
              f"over {len(cpu)} maps")
        gcpu = [r["greedy_cpu"] / r["greedy_games"] for r in plays]
        print(f"Greedy CPU a game: median {statistics.median(gcpu):.4f} s")
    validation(records, plays)


def validation(records: list[dict], plays: list[dict]) -> None:
    first = {(r["difficulty"], r["ridges"], r["seed"]): r for r in plays}
    retests = [r for r in records if r["kind"] == "retest"]
    if retests:
        a = [r["wins"][0] / r["strong_games"] for r in retests]
        b = [r["wins"][1] / r["strong_games"] for r in retests]
        same = sum(stars_for(x) == stars_for(y) for x, y in zip(a, b, strict=True))
        near = sum(abs(stars_for(x) - stars_for(y)) <= 1 for x, y in zip(a, b, strict=True))
        games = retests[0]["strong_games"]
        print(f"\nTest–retest: {len(retests)} maps (all cells), {games} games each with sim seeds 0 and 1: "
              f"Spearman {spearman(a, b):.2f}; stars equal on {same}/{len(retests)}, within one on "
              f"{near}/{len(retests)}")
        _within(retests, a, b, "Spearman ")
    strong = [r["strong_wins"] / r["strong_games"] for r in plays]
    greedy = [r["greedy_wins"] / r["greedy_games"] for r in plays]
    if plays:
        print(f"Spearman(strong, greedy) per map: {spearman(strong, greedy):.2f} over {len(plays)} maps")
        _within(plays, strong, greedy)
    solved = [(first[k], r) for r in records if r["kind"] == "solve"
              if (k := (r["difficulty"], r["ridges"], r["seed"])) in first]
    if solved:
        s = [p["strong_wins"] / p["strong_games"] for p, _ in solved]
        w = [r["searches_won"] for _, r in solved]
        g = [p["greedy_wins"] / p["greedy_games"] for p, _ in solved]
        cpu = sorted(r["solver_cpu"] for _, r in solved)
        versions = sorted({(r.get("portfolio"), r["searches"], r["nodes"]) for _, r in solved}, key=str)
        print("Solver: " + "; ".join(f"portfolio v{v}, {n} searches, node budget "
                                     f"{'standard' if b is None else b}" for v, n, b in versions))
        print(f"Spearman(strong, solver searches won) per map: {spearman(s, w):.2f}; "
              f"Spearman(greedy, solver searches won): {spearman(g, w):.2f}; over {len(solved)} maps "
              f"(solver CPU a map: median {statistics.median(cpu):.1f} s, worst {cpu[-1]:.1f} s)")


def _within(records: list[dict], a: list[float], b: list[float], label: str = "") -> None:
    """The Spearman correlation of ``a`` and ``b`` within each difficulty."""
    for difficulty in DIFFICULTIES:
        pairs = [(x, y) for r, x, y in zip(records, a, b, strict=True) if r["difficulty"] == difficulty]
        if len(pairs) > 2:
            xs, ys = zip(*pairs, strict=True)
            print(f"  within {difficulty}: {label}{spearman(xs, ys):.2f} over {len(pairs)} maps")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="the JSON-lines file the run appends to")
    parser.add_argument("--report", help="print the tables of a JSON-lines file and stop")
    parser.add_argument("--maps", type=int, default=50)
    parser.add_argument("--greedy-games", type=int, default=50)
    parser.add_argument("--strong-games", type=int, default=4)
    parser.add_argument("--retest-maps", type=int, default=3)
    parser.add_argument("--retest-games", type=int, default=12)
    parser.add_argument("--solver-maps", type=int, default=3)
    parser.add_argument("--solver-nodes", type=int, default=None,
                        help="every member's node budget (default: the standard portfolio's)")
    parser.add_argument("--first-seed", type=int, default=5000)
    parser.add_argument("--rerate-maps", type=int, default=0,
                        help="instead of the table: rate this many maps twice (sim seeds 0 and 1)")
    parser.add_argument("--rerate-games", type=int, default=0,
                        help="games a rating (default 0: adaptive, as bgrid sheet --rate)")
    parser.add_argument("--tune-maps", type=int, default=0,
                        help="instead of the table: play this many maps --tune-games times each and fit "
                             "the star floors")
    parser.add_argument("--paired-seeds", type=int, default=0,
                        help="instead of the table: each of this many seeds at every difficulty and "
                             "ridge count (the same map, health or ridges changed), --tune-games each")
    parser.add_argument("--tune-games", type=int, default=640)
    parser.add_argument("--tune-player", default=RATING_PLAYER, choices=("greedy", "strong"))
    parser.add_argument("--dominance-maps", type=int, default=0,
                        help="instead of the table: strong against greedy on this many maps, "
                             "own and challenge deck (--greedy-games, --strong-games each)")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if args.report:
        report(Path(args.report))
        return
    if not args.out:
        parser.error("give --out FILE (or --report FILE)")
    run(args)
    report(Path(args.out))


if __name__ == "__main__":
    main()
