"""Regenerate tests/logs/corpus/: 16 simulated missions and 8 single mutations of them.

    .venv/bin/python tests/logs/make_corpus.py
    BGRID_REGEN_GOLDEN=1 .venv/bin/pytest tests/test_verify_corpus.py

Run it on purpose only (e.g. after a ruling changes the game, as the R26 Joker numbering
did), then read the verdict diff of tests/logs/expected.json before committing.
"""

from __future__ import annotations

from pathlib import Path

from bgrid.challenges.mission import mission_from_seed
from bgrid.challenges.seeding import stream
from bgrid.players.simulated_logs import simulated_log

OUT = Path(__file__).parent / "corpus"
DIFFICULTIES = ("easy", "normal", "hard", "ace")


def _find(lines, start, prefixes):
    order = list(range(start, len(lines))) + list(range(5, start))
    return next(x for x in order if lines[x].startswith(prefixes))


def mutate(lines: list[str], kind: int) -> tuple[list[str], str]:
    """One mutation of four kinds: last line cut, a draw or an automa line removed, two plays swapped."""
    mid = len(lines) // 2
    if kind == 0:
        return lines[:-1], "the last line removed"
    if kind in (1, 2):
        j = _find(lines, mid, ("draw",) if kind == 1 else ("automa",))
        return lines[:j] + lines[j + 1:], f"its line {j + 1} ({lines[j]}) removed"
    j = _find(lines, mid, ("move", "alt", "guns", "bomb"))
    out = list(lines)
    out[j], out[j - 1] = out[j - 1], out[j]
    return out, f"its lines {j} and {j + 1} swapped"


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for old in OUT.glob("*.log"):
        old.unlink()
    for k in range(16):
        mission = mission_from_seed(1000 + k, DIFFICULTIES[k % 4], 1 + k % 4)
        text, _ = simulated_log(mission, stream("standard-1", f"corpus-{k}", 5), challenge_deck=k % 2 == 0)
        (OUT / f"sim-{k:02d}.log").write_text(text)
        if k < 8:
            lines, why = mutate(text.splitlines(), k % 4)
            comment = f"# mutation of sim-{k:02d}.log: {why}\n"
            (OUT / f"mut-{k:02d}.log").write_text(comment + "\n".join(lines) + "\n")
    rare()
    wins()


#: Rare endings found by searching simulations: the mission ends for want of a card that is
#: not the Automa card (R36), so the log ends with `draw none` or `enter none`.
RARE = (("none-draw-challenge", 446 % 50, "hard", "none-446", True),
        ("none-draw-own", 1007 % 50, "ace", "none-1007", False),
        ("none-enter-challenge", 1296 % 50, "easy", "none-1296", True),
        ("none-enter-own", 1657 % 50, "normal", "none-1657", False))


def rare() -> None:
    for name, seed, difficulty, label, challenge in RARE:
        mission = mission_from_seed(seed, difficulty)
        text, _ = simulated_log(mission, stream("standard-1", label, 2), challenge_deck=challenge)
        (OUT / f"{name}.log").write_text(text)


#: Victories by the engine's greedy player (found by searching seeds): the Victory path,
#: bombs and the chain/crater bonuses.
WINS = (("win-own", 2011, 3, "win-11", False), ("win-challenge", 2084, 1, "win-84", True))


def wins() -> None:
    from bgrid.players.playout import PLAYERS

    for name, seed, ridges, label, challenge in WINS:
        mission = mission_from_seed(seed, "normal", ridges)
        text, _ = simulated_log(mission, stream("standard-1", label, 3), challenge_deck=challenge,
                                player=PLAYERS["greedy"])
        (OUT / f"{name}.log").write_text(text)


if __name__ == "__main__":
    main()
