"""Many playouts of one mission by one player, counted: ``bgrid simulate`` and the rating.

:data:`PLAYERS` names the players ``bgrid simulate --player`` offers.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass

from ..challenges.mission import Mission
from ..challenges.seeding import stream
from ..rules.engine import score
from .greedy import greedy_action
from .playout import play_out
from .random_player import random_action
from .strong import strong_action


@dataclass(frozen=True)
class SimulationResult:
    games: int
    wins: int
    scores: tuple[int, ...]
    causes: Counter  # "victory" or the defeat cause -> count

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def mean_score(self) -> float:
        return statistics.fmean(self.scores) if self.scores else 0.0


PLAYERS = {"random": random_action, "greedy": greedy_action, "strong": strong_action}


def simulate(mission: Mission, games: int, seed: int = 0, *, challenge_deck: bool = False,
             player: str = "random", progress=None) -> SimulationResult:
    """``games`` playouts of ``mission`` by ``player`` (a key of :data:`PLAYERS`); game ``k``
    uses the seeded stream ``sim-<k>`` of ``seed``. ``progress``, if given, is called with 1
    after each game."""
    decide = PLAYERS[player]
    wins, scores, causes = 0, [], Counter[str]()
    start = mission.start(challenge_deck)
    for k in range(games):
        rng = stream(mission.ruleset.name, f"sim-{k}", seed)
        state = play_out(start.copy(), rng, player=decide)
        scores.append(score(state).total)
        if state.cause is None:
            wins += 1
            causes["victory"] += 1
        else:
            causes[str(state.cause)] += 1
        if progress is not None:
            progress(1)
    return SimulationResult(games, wins, tuple(scores), causes)

