"""Many playouts of one mission by one player, counted: ``bgrid simulate`` and the rating.

:data:`PLAYERS` names the players ``bgrid simulate --player`` offers.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from collections import Counter
from dataclasses import dataclass

from ..challenges.mission import Mission
from ..challenges.seeding import SeededStream, stream
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
    distinct: int = 0  # how many games differ from every other (cards and decisions)
    bunkers: tuple[int, ...] = ()  # bunkers destroyed in each game, game ``first`` first

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def mean_score(self) -> float:
        return statistics.fmean(self.scores) if self.scores else 0.0


PLAYERS = {"random": random_action, "greedy": greedy_action, "strong": strong_action}


def simulate(mission: Mission, games: int, seed: int = 0, *, challenge_deck: bool = False,
             player: str = "random", progress: Callable[[int], object] | None = None,
             first: int = 0) -> SimulationResult:
    """``games`` playouts of ``mission`` by ``player`` (a key of :data:`PLAYERS`). Game ``k``
    draws every random number (an own deck's cards, the players' tie breaks, the strong
    player's sampled shuffles) from its own seeded stream, ``sim-<k>`` of ``seed``
    (:func:`game_stream`): on a challenge deck, where the cards are fixed, that stream is the
    game's own sampling seed. ``distinct`` counts the different games (equal card and decision
    sequences are one game): a player that ignores its dice repeats itself on a challenge
    deck. ``first`` numbers the first game (a run continued where another stopped).
    ``progress``, if given, is called with 1 after each game."""
    decide = PLAYERS[player]
    wins, scores, bunkers, causes = 0, [], [], Counter[str]()
    seen: set[int] = set()
    start = mission.start(challenge_deck)
    for k in range(first, first + games):
        trace: list = []
        state = play_out(start.copy(), game_stream(mission, k, seed), trace, player=decide)
        seen.add(hash(tuple(trace)))
        scores.append(score(state).total)
        bunkers.append(state.bunkers_destroyed)
        if state.cause is None:
            wins += 1
            causes["victory"] += 1
        else:
            causes[str(state.cause)] += 1
        if progress is not None:
            progress(1)
    return SimulationResult(games, wins, tuple(scores), causes, len(seen), tuple(bunkers))


def game_stream(mission: Mission, index: int, seed: int) -> SeededStream:
    """The seeded stream of game ``index`` of a simulation with sim seed ``seed``."""
    return stream(mission.ruleset.name, f"sim-{index}", seed)
