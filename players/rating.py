"""A difficulty rating of a map: the strong own-deck player's win rate over many shuffles,
with a Wilson score interval, shown as one to five stars (more stars, harder map).

The rating measures the map with the player's own shuffled deck, not the challenge deck:
the solver's par (``players.solver``) wins almost every challenge at every difficulty, so it
says little about how hard a map is to play without knowing the cards.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .simulation import simulate

#: Lowest win rate of the strong player for 1, 2, 3 and 4 stars; below the last, 5 stars.
STAR_FLOORS = (0.40, 0.20, 0.10, 0.04)

#: Games a rating plays unless told (``bgrid sheet --rate``, ``bgrid pack --rate``).
RATING_GAMES = 64
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


def stars_for(win_rate: float) -> int:
    """1 (the strong player wins ≥ 40%) to 5 (it wins < 4%): see :data:`STAR_FLOORS`."""
    for stars, floor in enumerate(STAR_FLOORS, start=1):
        if win_rate >= floor:
            return stars
    return len(STAR_FLOORS) + 1


@dataclass(frozen=True)
class Rating:
    wins: int
    games: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def stars(self) -> int:
        return stars_for(self.win_rate)

    @property
    def star_range(self) -> tuple[int, int]:
        """The stars at the two ends of the win rate's interval, fewest first: the stars the
        map could have with the games played."""
        low, high = self.interval
        return stars_for(high), stars_for(low)

    @property
    def star_text(self) -> str:
        """The stars as printed: ``★★★☆☆`` for 3 of 5."""
        return "★" * self.stars + "☆" * (len(STAR_FLOORS) + 1 - self.stars)

    def as_dict(self) -> dict:
        low, high = self.interval
        return {"stars": self.stars, "stars_ci95": list(self.star_range),
                "win_rate": round(self.win_rate, 4),
                "ci95": [round(low, 4), round(high, 4)], "games": self.games}


def rate_mission(mission, games: int | None = RATING_GAMES, seed: int = RATING_SEED,
                 progress=None) -> Rating:
    """The map's rating: ``games`` games of the strong player with the player's own deck
    (``simulate``'s seeded streams of ``seed``, so the same every time); ``games`` None plays
    until the stars hold (:func:`rate_adaptively`)."""
    if games is None:
        return rate_adaptively(mission, seed, progress)
    return Rating(simulate(mission, games, seed, player="strong", progress=progress).wins, games)


#: An adaptive rating plays batches of this many games …
RATING_BATCH = 32
#: … until its interval is this narrow or it holds one star only, …
RATING_HALF_WIDTH = 0.04
#: … or it has played this many.
RATING_MOST = 256


def rate_adaptively(mission, seed: int = RATING_SEED, progress=None) -> Rating:
    """Games of the strong player in batches of :data:`RATING_BATCH` until the win rate's 95%
    interval lies within one star's band or is at most ±:data:`RATING_HALF_WIDTH` wide, or
    :data:`RATING_MOST` games are played: a clear map is rated in a few dozen games, one near
    a star's edge gets the games it needs. Game ``k`` is the same game whatever the batches."""
    wins = games = 0
    while True:
        wins += simulate(mission, RATING_BATCH, seed, player="strong", progress=progress,
                         first=games).wins
        games += RATING_BATCH
        rating = Rating(wins, games)
        if is_settled(rating) or games >= RATING_MOST:
            return rating


def is_settled(rating: Rating) -> bool:
    """The rating's stars hold: one star across its interval, or the interval narrow."""
    low, high = rating.interval
    fewest, most = rating.star_range
    return fewest == most or (high - low) / 2 <= RATING_HALF_WIDTH
