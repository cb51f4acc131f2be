"""The row form against the statement form on many simulated missions: same verdicts.

    nice -n 10 .venv/bin/python bench/bench_rows_equivalence.py [--missions 2000] [--start 0]

For each mission (seeds 6000 on: both decks in turn, all four difficulties, 1-4 ridges, the
random and the greedy player, every second one with a state check at each turn's end),
the simulator's statement-form log is verified, printed in the row form as ``bgrid verify
LOG --rows`` prints it and verified again, and the simulator's own row-form log (``simulate
--write-logs --rows``) is verified too. The three verdicts must agree in verdict, outcome,
cause and score, and the printed rows keep the verification id (the same statements). Prints
the counts and every mission that disagrees; exit status 1 if any does.

Figures: 2,000 of 2,000 missions agree, every statement-form log valid (1,000 on the
challenge deck, 1,000 on the own deck); 32 s of CPU on a shared 2-core machine.
"""

from __future__ import annotations

import argparse
import sys
import time

from bgrid.players.simulated_logs import simulated_log
from bgrid.challenges.mission import mission_from_seed
from bgrid.players.simulation import PLAYERS
from bgrid.challenges.seeding import stream
from bgrid.verifier.verify import Verifier, row_form

DIFFICULTIES = ("easy", "normal", "hard", "ace")


def key(verdict) -> tuple:
    return (verdict.verdict, verdict.outcome, verdict.cause,
            None if verdict.score is None else verdict.score.total)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--missions", type=int, default=2000)
    parser.add_argument("--start", type=int, default=0)
    args = parser.parse_args()
    verifier = Verifier()
    began = time.process_time()
    same = valid = 0
    decks = {True: 0, False: 0}
    for k in range(args.start, args.start + args.missions):
        mission = mission_from_seed(6000 + k, DIFFICULTIES[k % 4], 1 + (k // 4) % 4)
        options = {"challenge_deck": k % 2 == 0, "player": PLAYERS[("random", "greedy")[(k // 8) % 2]],
                   "state_lines": (k // 16) % 2 == 1}
        text, _ = simulated_log(mission, stream("standard-1", f"rows-eq-{k}", 0), **options)
        written, _ = simulated_log(mission, stream("standard-1", f"rows-eq-{k}", 0), rows=True, **options)
        statement = verifier.verify(text)
        printed = verifier.verify(row_form(text))
        sheet = verifier.verify(written)
        decks[options["challenge_deck"]] += 1
        valid += statement.verdict == "valid"
        if key(statement) == key(printed) == key(sheet) and \
                statement.verification_id == printed.verification_id:
            same += 1
        else:
            print(f"mission {k}: statements {key(statement)}, printed rows {key(printed)}, "
                  f"written rows {key(sheet)}", flush=True)
    print(f"{same} of {args.missions} missions agree (statement form valid: {valid}; challenge deck "
          f"{decks[True]}, own deck {decks[False]}); {time.process_time() - began:.1f} s CPU")
    return 0 if same == args.missions else 1


if __name__ == "__main__":
    sys.exit(main())
