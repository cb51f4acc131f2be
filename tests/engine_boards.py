"""Small explicit boards and stacked decks for the engine tests (tests/test_engine_*.py).

``placed`` builds a mid-game position directly — the bomber at a cell with a given hand and
the action step open — so a test can picture exactly one rule. Everything else goes through
``rules.engine``.
"""

from __future__ import annotations

from collections.abc import Iterator

from bgrid.challenges.seeding import SeededStream
from bgrid.players.playout import Player, random_card
from bgrid.players.random_player import random_action
from bgrid.rules import engine
from bgrid.rules.board import Cell, Facing
from bgrid.rules.cards import FULL_DECK, Card, parse_cards
from bgrid.rules.ruleset import load_ruleset
from bgrid.rules.setup import GameMap
from bgrid.rules.state import GameState, Phase

RULESET = load_ruleset("standard-1")


def cells(text: str) -> list[Cell]:
    return [Cell.parse(t) for t in text.split()]


def board(mountains: str = "", bunkers: str = "A10 B10 C10 D10 E10 F10",
          artillery: str = "") -> GameMap:
    """A map from cell names. Defaults: bunkers along the bottom row, no artillery."""
    return GameMap(frozenset(cells(mountains)), tuple(cells(bunkers)), tuple(cells(artillery)))


def stacked(top: str = "", deck=FULL_DECK) -> list[Card]:
    """``top`` (cards, top first) then the rest of ``deck`` in reference order."""
    first = parse_cards(top)
    rest = list(deck)
    for card in first:
        rest.remove(card)
    return first + rest


def new(game_map: GameMap, top: str = "", difficulty: str = "normal", *, own_deck: bool = False,
        reshuffle_numbers=None) -> GameState:
    """A mission at its start with a challenge deck stacked ``top`` first (or an own deck)."""
    if own_deck:
        return engine.new_game(game_map, RULESET, difficulty)
    return engine.new_game(game_map, RULESET, difficulty, stacked(top), reshuffle_numbers)


def placed(game_map: GameMap, cell: str, facing: str = "S", altitude: int = 4, hand: str = "",
           top: str = "", *, damage: int = 0, difficulty: str = "normal", actions: int = 0,
           own_deck: bool = False) -> GameState:
    """The bomber at ``cell`` in the action step holding ``hand``; the draw pile is the
    rest of the deck, ``top`` first."""
    state = new(game_map, top, difficulty, own_deck=own_deck)
    state.hand = parse_cards(hand)
    for card in state.hand:
        state.draw_pile.remove(card)
    state.cell, state.facing = Cell.parse(cell), Facing.parse(facing)
    state.altitude, state.damage, state.actions = altitude, damage, actions
    state.phase = Phase.ACTIONS
    return state


def card(text: str) -> Card:
    return Card.parse(text)


def kinds(events) -> list[str]:
    """Event class names, for asserting the order of what happened."""
    return [type(e).__name__ for e in events]


def of(events, kind) -> list:
    return [e for e in events if isinstance(e, kind)]


def snapshot(state: GameState) -> str:
    """The whole state as a comparable, hashable value: its serialised form, which reads back
    to an equal state (``GameState.serialize``)."""
    return state.serialize()


def decisions(state: GameState, rng: SeededStream, player: Player = random_action) -> Iterator[GameState]:
    """Play ``state`` to its end with random cards and ``player``'s decisions, both from
    ``rng``; yields the state at each decision, before the decision is applied."""
    while not state.is_over:
        if engine.chance_pending(state):
            engine.reveal(state, random_card(state, rng))
            continue
        yield state
        engine.apply(state, player(state, rng))
