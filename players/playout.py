"""The playout: a mission played to its end by a player, its cards drawn at random.

A playout alternates the engine's chance nodes and decisions until the mission ends. Cards
come from a card source: the challenge deck's own order (``reveal`` the top card), or the
player's own deck, where any card of the draw pile may come next — drawing a uniformly random
card of the draw pile at every chance node is exactly a uniformly shuffled deck (and a uniform
reshuffle at an exhaustion). Every random number comes from ``challenges.seeding`` streams, so a
simulation is the same on every machine. The players are in their own modules
(``random_player``, ``greedy``, ``strong``); ``simulation`` plays many games and counts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final

from ..challenges.seeding import SeededStream
from ..rules.actions import Action
from ..rules.cards import Card
from ..rules.engine import apply, apply_legal, reveal, reveal_drawn
from ..rules.events import Event
from ..rules.state import CHANCE_PHASES, GameState, Phase
from .random_player import random_action
from .search import without_cycle_collection


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


#: A player: a function of the state and the dice that returns a legal decision.
Player = Callable[[GameState, Dice], Action]
#: One step of a playout's trace: ("card", the card revealed) or ("action", the decision).
Step = tuple[str, Card | Action]

_LIMIT: Final = 1 << 64
_LIMITS: Final = (0,) + tuple(_LIMIT - _LIMIT % n for n in range(1, 256))  # below(n)'s bound (n > 0)


def random_card(state: GameState, rng: SeededStream) -> Card:
    """The next card: the top of a challenge deck, a uniform card of an own draw pile."""
    return state.draw_pile[random_card_index(state, rng)]


def random_card_index(state: GameState, rng: SeededStream | Dice) -> int:
    """Where :func:`random_card` takes the next card from in the draw pile."""
    return 0 if state.challenge else rng.below(len(state.draw_pile))


def play_out(state: GameState, rng: SeededStream, trace: list[Step] | None = None,
             player: Player = random_action) -> GameState:
    """Play ``state`` to the end with random cards and ``player``'s decisions (a function of
    the state and the dice; :func:`random_action` by default). ``trace`` (a list) receives
    ("card", card) and ("action", action) steps, for replay. The stream is read in batches
    (:class:`Dice`), so its position afterwards is not one number per choice. The game runs
    with the cyclic collector paused (:func:`search.without_cycle_collection`: the states a
    look-ahead copies hold no cycles), which changes no game."""
    dice = Dice(rng)
    step: Step
    with without_cycle_collection():
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


def replay(state: GameState, trace: Iterable[Step]) -> list[list[Event]]:
    """Apply a recorded trace to a fresh state; returns the list of event lists."""
    out = []
    value: Any  # a Card after "card", an Action after "action"
    for kind, value in trace:
        out.append(reveal(state, value) if kind == "card" else apply(state, value))
    return out
