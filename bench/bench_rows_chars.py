"""Characters typed: the row form of the log body against the statement form (goal: at most one half).

    .venv/bin/python bench/bench_rows_chars.py [--missions 200]

Counts the characters of the body (every line after the header, comments and blank lines
left out, a line end counted as one character typed) of the same mission written both
ways:

* **the corpus** (tests/logs: simulated missions and their mutations, hand-worked logs,
  the hand-played daily mission): each log as stored, against the same log printed by
  ``bgrid verify LOG --rows`` (the same statements, so the same checks);
* **simulated missions** (``--missions``: the random and the greedy player in turn, both
  decks, all difficulties, 1-4 ridges) as the simulator writes them: without state checks,
  and with a state check at every turn's end (``--state-lines``: the bomber's cell and
  facing, ALT, DMG and every artillery piece in the statement form; in the row form the art
  cells as the sheet holds them, a piece's cell only when it moved, ``x`` the turn it was
  destroyed);
* the hand-played daily mission: the statement log the player typed against the same log
  printed with ``--rows``, and against the pencil rows as pencilled (spaces around the bars,
  verbs and the art cells included, which the typed log did not check).

Reports per set the total characters both ways and the ratio (goal: at most one half), and
the median ratio per log. Figures (200 missions): corpus 0.56 (median 0.53); simulated,
no state checks 0.55 (0.52); simulated, a state check a turn 0.36 (0.38); the hand-played
mission 0.42 printed with --rows, 0.87 as pencilled (docs/log-format.md has the table).
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from bgrid.players.simulated_logs import simulated_log
from bgrid.challenges.mission import mission_from_seed
from bgrid.players.simulation import PLAYERS
from bgrid.challenges.seeding import stream
from bgrid.verifier.verify import row_form

LOGS = Path(__file__).resolve().parents[1] / "tests" / "logs"
DIFFICULTIES = ("easy", "normal", "hard", "ace")


def typed(text: str) -> int:
    """Characters typed for a log's body: its lines after the header's blank line, without
    comments and blank lines, each with its line end."""
    lines = text.splitlines()
    body = lines[lines.index("") + 1:] if "" in lines else lines
    kept = [line.split("#", 1)[0].rstrip() for line in body]
    return sum(len(line) + 1 for line in kept if line)


def report(name: str, pairs: list[tuple[int, int]]) -> None:
    statements = sum(s for s, _ in pairs)
    rows = sum(r for _, r in pairs)
    median = statistics.median(r / s for s, r in pairs)
    print(f"{name:<44} {len(pairs):>5} logs  statements {statements:>9,}  rows {rows:>9,}  "
          f"ratio {rows / statements:.2f}  (median a log {median:.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--missions", type=int, default=200)
    args = parser.parse_args()
    corpus = []
    for path in sorted(LOGS.rglob("*.log")):
        text = path.read_text(encoding="utf-8")
        if not any(line[:1].isdigit() and "|" in line for line in text.splitlines()):
            corpus.append((typed(text), typed(row_form(text))))
    report("corpus (tests/logs), as stored vs --rows", corpus)
    plain, checked = [], []
    for k in range(args.missions):
        mission = mission_from_seed(5000 + k, DIFFICULTIES[k % 4], 1 + (k // 4) % 4)
        options = {"challenge_deck": k % 2 == 0, "player": PLAYERS[("random", "greedy")[(k // 2) % 2]]}
        for out, state_lines in ((plain, False), (checked, True)):
            sizes = []
            for rows in (False, True):
                text, _ = simulated_log(mission, stream("standard-1", f"chars-{k}", 0), rows=rows,
                                        state_lines=state_lines, **options)
                sizes.append(typed(text))
            out.append((sizes[0], sizes[1]))
    report(f"{args.missions} simulated missions, no state checks", plain)
    report(f"{args.missions} simulated missions, a state check a turn", checked)
    typed_log = (LOGS / "hand" / "daily-statements.log").read_text(encoding="utf-8")
    report("hand-played daily, typed log vs --rows", [(typed(typed_log), typed(row_form(typed_log)))])
    pencil = (LOGS / "hand" / "daily-rows.log").read_text(encoding="utf-8")
    report("hand-played daily, typed log vs pencil rows", [(typed(typed_log), typed(pencil))])


if __name__ == "__main__":
    main()
