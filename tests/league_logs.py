"""Mission logs for the league tests, written by the simulator's log writer, with the
numbers a standings table needs read back from the text itself (claim and turn lines)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from bgrid.challenges.mission import mission_from_code
from bgrid.challenges.seeding import stream
from bgrid.players.simulated_logs import simulated_log

CODE = "0M00-0001-WR3"
OTHER_CODE = "0GDR-FC73-W4T"


@dataclass(frozen=True)
class Game:
    text: str  # without a player: line
    score: int  # the claim (the verifier checks it against the replay)
    turns: int  # the last 'turn N' line

    def by(self, player: str | None, extra_header: str = "") -> bytes:
        """The log as ``player`` sends it (no player: line for None)."""
        lines = self.text.split("\n")
        head = [f"player: {player}"] if player is not None else []
        if extra_header:
            head.append(extra_header)
        return "\n".join(lines[:2] + head + lines[2:]).encode("utf-8")


@cache
def games(count: int, code: str = CODE, sim_seed: int = 0) -> tuple[Game, ...]:
    mission = mission_from_code(code)
    out = []
    for k in range(count):
        rng = stream(mission.ruleset.name, f"sim-{k}", sim_seed)
        text, _ = simulated_log(mission, rng, challenge_deck=True)
        claim = int(re.search(r"^claim: \w+ (-?\d+)$", text, re.M).group(1))
        turns = max(int(n) for n in re.findall(r"^turn (\d+)$", text, re.M))
        out.append(Game(text, claim, turns))
    return tuple(out)


def write_logs(folder, logs: dict[str, bytes]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in logs.items():
        (folder / name).write_bytes(data)
