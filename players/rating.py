"""A difficulty rating of a map: how many of its six bunkers the greedy player destroys, on
average, with its own shuffled deck, with a 95% interval, shown as one to five stars (more
stars, harder map).

Why bunkers destroyed: a victory is every bunker destroyed, so the mean number destroyed
extends the win rate to the games lost, and it tells maps apart in fewer games than the win
rate (greedy: 108 games against 293 for the same reliability; the players win only a few
percent of their games); the mean score does not
follow the difficulty at all, since a defeat by damage costs the starting health (6 points on
easy, 3 on ace: R4, R24). Why the greedy player: a game of it costs a sixteenth of a strong
game and its mean tells maps apart as well a game as the strong player's, so for the same
CPU its stars hold far better; the strong player's mean falls star by star too, though it
orders single maps only roughly as greedy does (docs/rating.md). The stars' bands were
fitted to where generated maps lie (docs/rating.md).

The rating measures the map with the player's own shuffled deck, not the challenge deck:
the solver's par (``players.solver``) wins almost every challenge at every difficulty, so it
says little about how hard a map is to play without knowing the cards.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..rules.setup import BUNKERS
from .simulation import SimulationResult, simulate

if TYPE_CHECKING:
    from ..challenges.mission import Mission

#: The player whose games rate a map (a key of ``simulation.PLAYERS``).
RATING_PLAYER = "greedy"
#: The lowest mean number of bunkers destroyed (of 6) for 1, 2, 3 and 4 stars; below the
#: last, 5 stars. Fitted to the greedy player on tuning maps (docs/rating.md).
STAR_FLOORS = (2.65, 2.35, 1.95, 1.6)

#: The simulation seed of a printed rating: the same map always gets the same stars.
RATING_SEED = 0

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson_interval(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (95% by default). Unlike the
    normal approximation it stays inside [0, 1] and is not empty at 0 or ``games`` wins."""
    if games <= 0:
        raise ValueError("the interval of no games is undefined")
    p = wins / games
    z2 = z * z
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = z / (1 + z2 / games) * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games))
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: Sequence[float], z: float = Z95, most: float = BUNKERS) -> tuple[float, float]:
    """The normal 95% interval of the mean of ``values`` (mean ± z·s/√n, s the sample
    standard deviation), kept inside [0, ``most``]; one value gives the whole range."""
    n = len(values)
    if n == 0:
        raise ValueError("the interval of no games is undefined")
    if n == 1:
        return 0.0, float(most)
    mean = statistics.fmean(values)
    half = z * statistics.stdev(values) / math.sqrt(n)
    return max(0.0, mean - half), min(float(most), mean + half)


def stars_for(mean_bunkers: float) -> int:
    """1 (the rating's player destroys at least the first floor of bunkers a game on
    average) to 5 (fewer than the last): see :data:`STAR_FLOORS`."""
    for stars, floor in enumerate(STAR_FLOORS, start=1):
        if mean_bunkers >= floor:
            return stars
    return len(STAR_FLOORS) + 1


def star_band(stars: int) -> tuple[float, float]:
    """The mean bunkers destroyed that ``stars`` stand for, [low, high): 1 star up to 6."""
    bounds = (float(BUNKERS), *STAR_FLOORS, 0.0)
    return bounds[stars], bounds[stars - 1]


@dataclass(frozen=True)
class Rating:
    """A player's games on a map: ``destroyed[k]`` bunkers destroyed in game k, ``wins`` of
    them won."""

    destroyed: tuple[int, ...]
    wins: int
    player: str = RATING_PLAYER

    @classmethod
    def of(cls, result: SimulationResult, player: str = RATING_PLAYER) -> Rating:
        """The rating of a :class:`~.simulation.SimulationResult` of ``player``'s games."""
        return cls(result.bunkers, result.wins, player)

    @property
    def games(self) -> int:
        return len(self.destroyed)

    @property
    def bunkers(self) -> int:
        """The bunkers on every map (setup: six)."""
        return BUNKERS

    @property
    def mean(self) -> float:
        """Bunkers destroyed a game, on average."""
        return statistics.fmean(self.destroyed)

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval of :attr:`mean`."""
        return mean_interval(self.destroyed)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    @property
    def win_interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def stars(self) -> int:
        return stars_for(self.mean)

    @property
    def star_range(self) -> tuple[int, int]:
        """The stars at the two ends of the interval, fewest first: the stars the map could
        have with the games played."""
        low, high = self.interval
        return stars_for(high), stars_for(low)

    @property
    def band(self) -> tuple[float, float]:
        """The mean bunkers destroyed that the stars stand for (:func:`star_band`)."""
        return star_band(self.stars)

    @property
    def star_text(self) -> str:
        """The stars as printed: ``★★★☆☆`` for 3 of 5."""
        return "★" * self.stars + "☆" * (len(STAR_FLOORS) + 1 - self.stars)

    def as_dict(self) -> dict:
        low, high = self.interval
        win_low, win_high = self.win_interval
        return {"stars": self.stars, "stars_ci95": list(self.star_range),
                "stars_band": list(self.band), "mean_bunkers": round(self.mean, 3),
                "ci95": [round(low, 3), round(high, 3)], "bunkers": BUNKERS,
                "games": self.games, "wins": self.wins, "win_rate": round(self.win_rate, 4),
                "win_rate_ci95": [round(win_low, 4), round(win_high, 4)], "player": self.player}


def rate_mission(mission: Mission, games: int | None = None, seed: int = RATING_SEED,
                 progress: Callable[[int], object] | None = None) -> Rating:
    """The map's rating: ``games`` games of :data:`RATING_PLAYER` with the player's own deck
    (``simulate``'s seeded streams of ``seed``, so the same every time); ``games`` None plays
    until the stars hold (:func:`rate_adaptively`)."""
    if games is None:
        return rate_adaptively(mission, seed, progress)
    return Rating.of(simulate(mission, games, seed, player=RATING_PLAYER, progress=progress))


#: An adaptive rating plays batches of this many games …
RATING_BATCH = 512
#: … until its interval lies within one star's band, or it has played this many.
RATING_MOST = 4096


def rate_adaptively(mission: Mission, seed: int = RATING_SEED,
                    progress: Callable[[int], object] | None = None) -> Rating:
    """Games of :data:`RATING_PLAYER` in batches of :data:`RATING_BATCH` until the 95%
    interval of the mean lies within one star's band or :data:`RATING_MOST` games are played:
    a map far from a band's edge is rated in one batch, one near an edge gets the games it
    needs. Game ``k`` is the same game whatever the batches, so the result is the fixed-size
    rating of its game count."""
    destroyed: tuple[int, ...] = ()
    wins = 0
    while True:
        result = simulate(mission, RATING_BATCH, seed, player=RATING_PLAYER, progress=progress,
                          first=len(destroyed))
        destroyed += result.bunkers
        wins += result.wins
        rating = Rating(destroyed, wins)
        if is_settled(rating) or rating.games >= RATING_MOST:
            return rating


def is_settled(rating: Rating) -> bool:
    """The rating's stars hold: its interval lies within one star's band."""
    fewest, most = rating.star_range
    return fewest == most
