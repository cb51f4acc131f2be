"""The blind benchmark of a challenge (R42): the strong player's median score on the
challenge deck, drawing blind, over K runs with distinct sampling seeds.

A challenge has two yardsticks. The **open-deck par** (``players.solver``) is the best score the
solver finds with every card in view; a challenge's stacking list is public, so studying it is
allowed (R42). The **blind benchmark** measures the other game, the one a player plays who
turns the cards up one at a time: the strong player (``players.strong``) never looks at the
order of the pile, it samples shuffles of the cards it has not seen. Run ``k`` samples with
its own seeded stream (``sim-k`` of the benchmark's seed), so the K runs are K different
draws of the player's guesses on the one fixed deck.

The interval is the distribution-free 95% confidence interval of a median: the order
statistics ``j`` and ``K + 1 - j`` with ``j`` the largest rank such that fewer than ``j`` of
K fair coin flips come up heads with probability at most 2.5%.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .simulation import simulate

if TYPE_CHECKING:
    from ..challenges.mission import Mission

#: Runs of a blind benchmark unless told (``bgrid solve --blind``).
BLIND_RUNS = 40
#: The sim seed of a printed benchmark: the same challenge always gets the same benchmark.
BLIND_SEED = 0


def median_interval_ranks(runs: int, confidence: float = 0.95) -> tuple[int, int]:
    """The ranks (1 = lowest) of the order statistics that bound the median of ``runs``
    values with at least ``confidence``; (1, runs) when too few runs reach it (fewer than 6
    at 95%: even the extremes then cover less).

    >>> median_interval_ranks(40)
    (14, 27)
    >>> median_interval_ranks(10)
    (2, 9)
    """
    if runs <= 0:
        raise ValueError("the interval of no runs is undefined")
    tail = (1 - confidence) / 2
    below, j = 0.0, 0
    while True:  # below = P(Binomial(runs, 1/2) <= j)
        below += math.comb(runs, j) / 2 ** runs
        if below > tail:
            break
        j += 1
    low = max(1, j)  # P(fewer than j heads) <= tail
    return (low, runs + 1 - low) if low <= runs + 1 - low else (1, runs)


@dataclass(frozen=True)
class BlindBenchmark:
    scores: tuple[int, ...]  # one per run, in run order
    distinct: int  # how many runs differ from every other
    seed: int = BLIND_SEED

    @property
    def runs(self) -> int:
        return len(self.scores)

    @property
    def median(self) -> float:
        return statistics.median(self.scores)

    @property
    def interval(self) -> tuple[int, int]:
        low, high = median_interval_ranks(self.runs)
        ordered = sorted(self.scores)
        return ordered[low - 1], ordered[high - 1]

    def as_dict(self) -> dict:
        """The ``blind_*`` keys of ``solve --json`` and a pack's ``map.json``."""
        return {"blind_median": _number(self.median), "blind_runs": self.runs,
                "blind_interval": list(self.interval), "blind_distinct_runs": self.distinct,
                "blind_player": "strong", "blind_sim_seed": self.seed}

    @property
    def text(self) -> str:
        """``blind benchmark 4 (median of 40 runs, 95% interval 3–6)``."""
        low, high = self.interval
        return (f"blind benchmark {_number(self.median)} (median of {self.runs} runs, "
                f"95% interval {low}–{high})")


def _number(x: float) -> int | float:
    return int(x) if x == int(x) else x


def blind_benchmark(mission: Mission, runs: int | None = None, seed: int = BLIND_SEED,
                    progress: Callable[[int], object] | None = None) -> BlindBenchmark:
    """The strong player's scores on the challenge deck of ``mission``, run ``k`` sampling
    with the stream ``sim-k`` of ``seed`` (``players.simulation.simulate``); :data:`BLIND_RUNS`
    runs unless told."""
    runs = BLIND_RUNS if runs is None else runs
    result = simulate(mission, runs, seed, challenge_deck=True, player="strong", progress=progress)
    return BlindBenchmark(result.scores, result.distinct, seed)
