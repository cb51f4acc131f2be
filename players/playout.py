"""Random-legal play and the simulation driver behind ``bgrid simulate``.

A playout alternates the engine's chance nodes and decisions until the mission ends. Cards
come from a card source: the challenge deck's own order (``reveal`` the top card), or the
player's own deck, where any card of the draw pile may come next — drawing a uniformly random
card of the draw pile at every chance node is exactly a uniformly shuffled deck (and a uniform
reshuffle at an exhaustion). Every random number comes from ``challenges.seeding`` streams, so a
simulation is the same on every machine.

The random player picks uniformly among the *kinds* of legal decision first (move, altitude,
guns, bomb, throttle, resupply, end), then uniformly within the kind, so that the many
distinct movement ends do not drown out the rest. It only ever plays actions from
``engine.legal_actions``.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from ..challenges.mission import Mission
from ..challenges.seeding import SeededStream, stream
from ..rules.engine import apply, apply_legal, new_game, reveal, reveal_drawn, score
from ..rules.legality import legal_plays_by_kind
from ..rules.state import CHANCE_PHASES, GameState, Phase
from .greedy import greedy_action
from .strong import strong_action


class Dice:
    """``below(n)`` over a seeded stream, reading its integers 256 at a time: the same
    integers and the same rejection rule as ``SeededStream.below``, so the same results,
    with less overhead per number."""

    __slots__ = ("_stream", "_words")

    def __init__(self, rng: SeededStream) -> None:
        self._stream = rng
        self._words: Iterator[int] = iter(())  # the batch being read: an iterator is the cheapest cursor

    def below(self, n: int) -> int:
        limit = _LIMITS[n] if 0 < n < 256 else _LIMIT - _LIMIT % n
        while True:
            for x in self._words:
                if x < limit:
                    return x % n
            self._words = iter(self._stream.take(256))


_LIMIT = 1 << 64
_LIMITS = (0,) + tuple(_LIMIT - _LIMIT % n for n in range(1, 256))  # below(n)'s bound (n > 0)


def random_card(state: GameState, rng: SeededStream):
    """The next card: the top of a challenge deck, a uniform card of an own draw pile."""
    return state.draw_pile[random_card_index(state, rng)]


def random_card_index(state: GameState, rng: SeededStream | Dice) -> int:
    """Where :func:`random_card` takes the next card from in the draw pile."""
    return 0 if state.challenge else rng.below(len(state.draw_pile))


def random_action(state: GameState, rng: SeededStream | Dice):
    """A uniformly random kind of legal decision, then a uniform one of that kind. Only the
    play chosen is built (``legality.legal_plays_by_kind``): the same play as from
    ``legal_actions_by_kind``."""
    kinds = list(legal_plays_by_kind(state).values())
    group = kinds[rng.below(len(kinds))]
    return group[rng.below(len(group))]


def play_out(state: GameState, rng: SeededStream, trace: list | None = None,
             player=random_action) -> GameState:
    """Play ``state`` to the end with random cards and ``player``'s decisions (a function of
    the state and the dice; :func:`random_action` by default). ``trace`` (a list) receives
    ("card", card) and ("action", action) steps, for replay. The stream is read in batches
    (:class:`Dice`), so its position afterwards is not one number per choice."""
    dice = Dice(rng)
    while state.phase is not Phase.OVER:
        if state.phase in CHANCE_PHASES:  # engine.chance_pending(state) is not None
            index = random_card_index(state, dice)
            card = state.draw_pile[index]
            reveal_drawn(state, index)  # the card just taken from the pile: no search, no check
            step = ("card", card)
        else:
            action = player(state, dice)
            apply_legal(state, action)  # taken from legal_actions: no second check
            step = ("action", action)
        if trace is not None:
            trace.append(step)
    return state


def replay(state: GameState, trace) -> list:
    """Apply a recorded trace to a fresh state; returns the list of event lists."""
    out = []
    for kind, value in trace:
        out.append(reveal(state, value) if kind == "card" else apply(state, value))
    return out


@dataclass(frozen=True)
class SimulationResult:
    games: int
    wins: int
    scores: tuple[int, ...]
    causes: Counter  # "victory" or the defeat cause -> count
    distinct: int = 0  # how many games differ from every other (cards and decisions)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def mean_score(self) -> float:
        return statistics.fmean(self.scores) if self.scores else 0.0


def start_state(mission: Mission, challenge_deck: bool) -> GameState:
    """The mission's start, with its challenge deck (R25) or the player's own deck."""
    if challenge_deck:
        return new_game(mission.game_map, mission.ruleset, mission.spec.difficulty,
                        mission.deck, mission.reshuffle)
    return new_game(mission.game_map, mission.ruleset, mission.spec.difficulty)


PLAYERS = {"random": random_action, "greedy": greedy_action, "strong": strong_action}


def simulate(mission: Mission, games: int, seed: int = 0, *, challenge_deck: bool = False,
             player: str = "random", progress=None, first: int = 0) -> SimulationResult:
    """``games`` playouts of ``mission`` by ``player`` (a key of :data:`PLAYERS`). Game ``k``
    draws every random number (an own deck's cards, the players' tie breaks, the strong
    player's sampled shuffles) from its own seeded stream, ``sim-<k>`` of ``seed``
    (:func:`game_stream`): on a challenge deck, where the cards are fixed, that stream is the
    game's own sampling seed. ``distinct`` counts the different games (equal card and decision
    sequences are one game): a player that ignores its dice repeats itself on a challenge
    deck. ``first`` numbers the first game (a run continued where another stopped).
    ``progress``, if given, is called with 1 after each game."""
    decide = PLAYERS[player]
    wins, scores, causes = 0, [], Counter[str]()
    seen: set[int] = set()
    start = start_state(mission, challenge_deck)
    for k in range(first, first + games):
        trace: list = []
        state = play_out(start.copy(), game_stream(mission, k, seed), trace, player=decide)
        seen.add(hash(tuple(trace)))
        scores.append(score(state).total)
        if state.cause is None:
            wins += 1
            causes["victory"] += 1
        else:
            causes[str(state.cause)] += 1
        if progress is not None:
            progress(1)
    return SimulationResult(games, wins, tuple(scores), causes, len(seen))


def game_stream(mission: Mission, index: int, seed: int) -> SeededStream:
    """The seeded stream of game ``index`` of a simulation with sim seed ``seed``."""
    return stream(mission.ruleset.name, f"sim-{index}", seed)
