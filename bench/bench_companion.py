"""The table companion scripted through standard input over whole missions, and its keystrokes.

For each of 20 seeds, two missions: the seed's challenge deck (blind, ``--code``) and the
player's own deck (``--seed``). A greedy player (``companion.autoplay``) answers the
companion's offers in-process; the lines it typed are then piped into ``bgrid play`` as a
person's script would be, every reply must be no refusal, and ``bgrid verify --json`` must
call the written log valid with the companion's own outcome and score. Keystrokes: the keys
a player presses with completion (``companion.keystrokes``) against the characters of the
finished log.

    nice -n 10 .venv/bin/python bench/bench_companion.py            # seeds 1-20
    nice -n 10 .venv/bin/python bench/bench_companion.py --seeds 3  # a quick look

Figures (seeds 1-20, state lines checking the artillery): 40/40 valid with the companion's
score, no refusal, the piped log byte for byte the in-process one; keys / log characters 0.120
(challenge 0.075, own deck 0.170); keys / play statements alone 0.377 (0.255, 0.489).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bgrid.companion import Session
from bgrid.companion.autoplay import next_line
from bgrid.companion.keystrokes import keys_for
from bgrid.challenges import mission_from_seed
from bgrid.log.notation import Header
from bgrid.log.writer import header_text

BGRID = str(Path(sys.executable).with_name("bgrid"))


def one(seed: int, own: bool, folder: Path) -> dict:
    mission = mission_from_seed(seed)
    header = header_text(Header(seed=seed) if own else Header(challenge=mission.code))
    session = Session.start(header)
    rng = random.Random(seed)
    typed, keys = [], 0
    start = time.process_time()
    while not session.is_over:
        line = next_line(session, rng)
        keys += keys_for(session, line)
        reply = session.submit(line)
        assert reply.ok, (seed, own, line, reply.one_line())
        typed.append(line)
    cpu = time.process_time() - start
    log = folder / f"{'own' if own else 'challenge'}-{seed}.log"
    options = ["--seed", str(seed)] if own else ["--code", mission.code]
    run = subprocess.run([BGRID, "play", *options, "--log", str(log)], input="\n".join(typed) + "\n",
                         capture_output=True, text=True, check=False)
    replies = run.stdout.splitlines()
    refused = [r for r in replies if r.startswith("error ")]
    verdict = json.loads(subprocess.run([BGRID, "verify", "--json", str(log)], capture_output=True,
                                        text=True, check=False).stdout)
    if isinstance(verdict, list):
        verdict = verdict[0]
    text = log.read_text(encoding="utf-8")
    body = text.split("\n\n", 1)[1]
    plays = sum(len(line) + 1 for line in body.splitlines()
                if line and not line.startswith(("state", "turn", "reshuffle")))
    state = session.state
    return {"seed": seed, "deck": "own" if own else "challenge", "typed": len(typed),
            "replies": len(replies), "refused": len(refused), "exit": run.returncode,
            "verdict": verdict.get("verdict"), "score": verdict.get("score"),
            "outcome": verdict.get("outcome"),
            "agrees": ((verdict.get("outcome"), verdict.get("score"))
                       == (str(state.outcome), session.score)),
            "same_log": text == session.log_text(),
            "keys": keys, "log_chars": len(text), "body_chars": len(body), "play_chars": plays, "cpu": cpu}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=20)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(1, args.seeds + 1):
            for own in (False, True):
                row = one(seed, own, Path(tmp))
                rows.append(row)
                print(json.dumps(row), flush=True)
    valid = sum(r["verdict"] == "valid" and r["agrees"] and r["same_log"] and not r["refused"] for r in rows)
    keys = sum(r["keys"] for r in rows)
    chars = sum(r["log_chars"] for r in rows)
    body = sum(r["body_chars"] for r in rows)
    plays = sum(r["play_chars"] for r in rows)
    for deck in ("challenge", "own"):
        part = [r for r in rows if r["deck"] == deck]
        k, c = sum(r["keys"] for r in part), sum(r["log_chars"] for r in part)
        print(f"{deck}: {sum(r['verdict'] == 'valid' and r['agrees'] for r in part)}/{len(part)} valid with "
              f"the companion's score; keys {k} / log characters {c} = {k / c:.3f}")
    print(f"all: {valid}/{len(rows)} valid, agreeing, no refusal; keys {keys} / log characters {chars} = "
          f"{keys / chars:.3f} (body only: {keys / body:.3f}; the play statements alone, without the turn, "
          f"state and reshuffle lines the companion writes: {keys / plays:.3f}); pid {os.getpid()}")


if __name__ == "__main__":
    main()
