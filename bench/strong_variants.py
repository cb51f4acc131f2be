"""The strong player's playout variants of the lab notes, against greedy on challenge decks.

    nice -n 5 .venv-c/bin/python bench/strong_variants.py --out greedy.json --player greedy --games 100
    nice -n 5 .venv-c/bin/python bench/strong_variants.py --out base.json --player strong --games 16
    nice -n 5 .venv-c/bin/python bench/strong_variants.py --out stop.json --games 16 --stop 1.5
    .venv/bin/python bench/strong_variants.py --report greedy.json base.json stop.json

Each run plays every deck ``--games`` times (game k: the stream ``sim-k`` of ``--sim``, as
``bgrid simulate``) and writes one JSON file: each deck's scores, wins and every game's CPU.
``--report GREEDY BASE FILE…`` prints, for each file, the decks where its mean is at least
greedy's, the lead (its spread from deck to deck), the games won, the mean change against
BASE deck by deck (± its standard error) and the CPU a game. The decks are the 80 tuning
challenge decks by default (seeds 300–331 and 7000–7047 going round difficulty × ridges, as
``bench_rating.py --dominance-maps`` orders them); ``--seeds 9200-9399`` names others.

``--player playouts`` (the default) is strong's decision (``players.strong.weigh``: the
candidates valued one turn ahead on 8 shuffles) with, wherever greedy's choice is among the
candidates, each of the ``--top`` best also played to the end of the mission by greedy on
``--rolls`` new shuffles and its mean final score (R24) added to its one-turn value in
points; the best is played if it beats greedy's choice by ``--margin`` points, else greedy's
choice. ``--close-calls`` plays out only where strong would keep greedy's choice (elsewhere its
clear overruling stands); ``--first-action`` only at a turn's first action; ``--stop SEP`` runs
the shuffles ``--step`` at a time and keeps greedy's choice at once when it leads every other
candidate by SEP points, dropping those SEP behind it. Run it on the compiled build (``pip
install .``): the playouts cost about ten times the player as it is.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from bench_rating import going_round
from bgrid.challenges.mission import mission_from_seed
from bgrid.players.greedy import greedy_action
from bgrid.players.playout import Dice, play_out
from bgrid.players.simulation import game_stream
from bgrid.players.strong import SAMPLES, MARGIN, Weighed, _shuffle, play_on, strong_action, weigh
from bgrid.rules.actions import Action
from bgrid.rules.engine import score
from bgrid.rules.state import GameState

TUNING = "300-331,7000-7047"


@dataclass(frozen=True)
class Variant:
    top: int = 3
    rolls: int = 6
    margin: float = 0.5
    close_calls: bool = False
    first_action: bool = False
    stop: float | None = None
    step: int = 2

    def action(self, state: GameState, rng: Dice) -> Action:
        weighed = weigh(state, rng)
        if not isinstance(weighed, Weighed):
            return weighed
        keep, best, totals = weighed.keep, weighed.best, weighed.totals
        clear = keep is None or totals[best] - totals[keep] >= SAMPLES * MARGIN
        if keep is None or (self.close_calls and clear) or (self.first_action and state.actions):
            return weighed.choice
        return self.played_out(state, rng, weighed, keep)

    def played_out(self, state: GameState, rng: Dice, weighed: Weighed, keep: int) -> Action:
        totals = weighed.totals
        order = sorted(range(len(totals)), key=lambda i: (-totals[i], i))[:self.top]
        if keep not in order:
            order[-1] = keep
        if len(order) == 1:
            return weighed.candidates[keep]
        k = order.index(keep)
        one_turn = [totals[i] / SAMPLES / 10 for i in order]  # state_value is in tenths of a point
        sums = [0.0] * len(order)
        alive, done = list(range(len(order))), 0
        while done < self.rolls:
            for _ in range(min(self.step if self.stop is not None else self.rolls, self.rolls - done)):
                world = state.copy()
                _shuffle(world.draw_pile, rng)
                for j in alive:
                    sums[j] += final_score(world, weighed.candidates[order[j]], rng)
                done += 1
            if self.stop is not None and done < self.rolls:
                mean = {j: one_turn[j] + sums[j] / done for j in alive}
                alive = [j for j in alive if j == k or mean[j] > mean[k] - self.stop]
                if alive == [k]:
                    return weighed.candidates[keep]
        value = [one_turn[j] + sums[j] / done for j in range(len(order))]
        top = max(alive, key=lambda j: (value[j], -j))
        return weighed.candidates[order[top] if value[top] - value[k] >= self.margin else keep]


def final_score(world: GameState, action: Action, rng: Dice) -> int:
    """``action`` played in a copy of ``world`` (its pile shuffled), then greedy to the end of
    the mission, drawing as strong's one-turn look-ahead does: the final score (R24)."""
    return score(play_on(world, action, rng, turns=None)).total


def decks(seeds: str) -> list[tuple[int, str, int]]:
    """Each range ``A-B`` of ``seeds`` going round difficulty × ridges from its first seed."""
    out = []
    for part in seeds.split(","):
        first, last = (int(x) for x in part.split("-"))
        out += [(c["seed"], c["difficulty"], c["ridges"]) for c in going_round(first, last - first + 1)]
    return out


def play_deck(task: tuple) -> dict:
    (seed, difficulty, ridges), games, sim, player = task
    mission = mission_from_seed(seed, difficulty, ridges)
    start = mission.start(True)
    decide = {"greedy": greedy_action, "strong": strong_action}.get(player) or player.action
    scores, times, wins = [], [], 0
    for k in range(games):
        t0 = time.process_time()
        end = play_out(start.copy(), game_stream(mission, k, sim), player=decide)
        times.append(time.process_time() - t0)
        scores.append(score(end).total)
        wins += end.cause is None
    return {"seed": seed, "scores": scores, "wins": wins, "cpu": times}


def report(greedy_file: str, base_file: str, files: list[str]) -> None:
    def means(path: str) -> dict[int, float]:
        return {r["seed"]: statistics.fmean(r["scores"]) for r in json.loads(Path(path).read_text())}

    greedy, base = means(greedy_file), means(base_file)
    print("| file | decks ≥ greedy | lead (spread) | games won | against base "
          "| CPU a game, median / 90th / worst |")
    print("| --- | --- | --- | --- | --- | --- |")
    for path in [base_file, *files]:
        records = json.loads(Path(path).read_text())
        leads = [statistics.fmean(r["scores"]) - greedy[r["seed"]] for r in records]
        change = [statistics.fmean(r["scores"]) - base[r["seed"]] for r in records if r["seed"] in base]
        cpu = sorted(t for r in records for t in r["cpu"])
        paired = "—" if path == base_file else \
            f"{statistics.fmean(change):+.2f} ± {statistics.stdev(change) / len(change) ** 0.5:.2f}"
        print(f"| {path} | {sum(lead >= 0 for lead in leads)}/{len(records)} | {statistics.fmean(leads):.2f} "
              f"({statistics.stdev(leads):.2f}) | {sum(r['wins'] for r in records)} | {paired} | "
              f"{statistics.median(cpu):.3f} / {cpu[int(0.9 * (len(cpu) - 1))]:.3f} / {cpu[-1]:.3f} s |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out")
    parser.add_argument("--report", nargs="+", metavar="FILE", help="GREEDY BASE FILE…: the table")
    parser.add_argument("--player", default="playouts", choices=("playouts", "strong", "greedy"))
    parser.add_argument("--seeds", default=TUNING)
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--sim", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--top", type=int, default=3)
    parser.add_argument("--rolls", type=int, default=6)
    parser.add_argument("--margin", type=float, default=0.5)
    parser.add_argument("--close-calls", action="store_true")
    parser.add_argument("--first-action", action="store_true")
    parser.add_argument("--stop", type=float)
    parser.add_argument("--step", type=int, default=2)
    args = parser.parse_args()
    if args.report:
        if len(args.report) < 2:
            parser.error("--report needs GREEDY BASE [FILE…]")
        report(args.report[0], args.report[1], args.report[2:])
        return
    if not args.out:
        parser.error("give --out FILE (or --report GREEDY BASE FILE…)")
    player = args.player if args.player != "playouts" else Variant(
        args.top, args.rolls, args.margin, args.close_calls, args.first_action, args.stop, args.step)
    tasks = [(deck, args.games, args.sim, player) for deck in decks(args.seeds)]
    with ProcessPoolExecutor(args.jobs) as pool:
        records = list(pool.map(play_deck, tasks))
    Path(args.out).write_text(json.dumps(records))
    print(f"{args.out}: {len(records)} decks, {args.games} games each", file=sys.stderr)


if __name__ == "__main__":
    main()
