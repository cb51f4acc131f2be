"""legal_actions is complete and canonical: checked against a brute force over every play
that could be written, on positions reached by random playouts."""

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgrid.rules import engine
from bgrid.rules.actions import Altitude, Bomb, EndPhase, Guns, Move, Resupply, Throttle
from bgrid.rules.board import CELLS
from bgrid.rules.cards import Card
from bgrid.rules.errors import IllegalActionError
from bgrid.rules.events import Moved
from bgrid.challenges.mission import mission_from_seed
from bgrid.players.playout import random_action, random_card, start_state
from bgrid.challenges.seeding import stream

from engine_boards import snapshot

WORDS = {n: ["".join(w) for k in range(1, n + 1) for w in itertools.product("FLR", repeat=k)]
         for n in range(1, 8)}


def stand_ins(c: Card) -> list[Card]:
    """A real card, or every declaration of a Joker (a red and a black suit: a played
    card's suit matters only through its colour)."""
    if not c.is_joker:
        return [c]
    return [c.declare(f"{r}{s}") for r in ("A", 2, 3, 4, 5, 6, 7, 8, 9, 10, "J", "Q", "K") for s in "HS"]


def single(c: Card, state) -> list:
    rank = c.acting.rank
    if 2 <= rank <= 5:
        return [Move(c, w) for w in WORDS[rank]]
    if rank in (10, 11, 12):
        return [Altitude(c)]
    if rank == 6:
        return [Guns(c, t) for t in CELLS]
    if rank in (1, 7, 8):
        return [Bomb(c)]
    if rank == 13:
        return [Resupply(c)]
    return []


def brute_force(state) -> list:
    """Every play that could be written with the cards in hand (Jokers in every colour)."""
    hand = list(dict.fromkeys(state.hand))
    cards = [s for c in hand for s in stand_ins(c)]
    out = [EndPhase()]
    for c in cards:
        out.extend(single(c, state))
    for nine in (c for c in cards if c.acting.rank == 9):
        for p in cards:
            rank = p.acting.rank
            if 2 <= rank <= 5:
                out.extend(Throttle(nine, Move(p, w)) for w in WORDS[rank + 2])
            elif rank in (10, 11, 12):
                out.append(Throttle(nine, Altitude(p)))
    return out


def effect(state, action):
    """The state after ``action``, with a pending reveal reduced to what it will do."""
    after = state.copy()
    events = engine.apply(after, action)
    pending = after.pending
    after.pending = None
    what = None
    if isinstance(pending, Guns):
        what = ("guns", pending.target)
    elif isinstance(pending, Bomb):
        what = ("bomb", pending.card.acting.rank == 1 and state.altitude > 2)
    elif pending is not None:
        what = ("resupply",)
    # A movement's end is (cell, facing, exited, blocked), an exit's cell the one it left
    # from; the cells on the way do not count.
    moved = tuple(((e.path or (e.start,))[-1], e.facing, e.exited, e.blocked)
                  for e in events if isinstance(e, Moved))
    return snapshot(after), what, moved


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 500), st.integers(0, 10**6), st.integers(0, 80))
def test_legal_actions_reach_every_legal_effect_once(map_seed, seed, cut):
    state = start_state(mission_from_seed(map_seed), True)
    rng = stream("standard-1", "legal", seed)
    steps = 0
    while not state.is_over and (steps < cut or engine.chance_pending(state) or not state.hand):
        if engine.chance_pending(state):
            engine.reveal(state, random_card(state, rng))
        else:
            engine.apply(state, random_action(state, rng))
        steps += 1
    if state.is_over or state.phase.value != "actions":
        return
    listed = engine.legal_actions(state)
    listed_effects = [effect(state, a) for a in listed]
    # Canonical: every card (physical) and effect listed once. Different real cards with the
    # same effect stay distinct (they leave different decks), so compare per physical cards.
    keys = [(_cards(a), e) for a, e in zip(listed, listed_effects, strict=True)]
    assert len(set(keys)) == len(keys)
    legal = set()
    for action in brute_force(state):
        try:
            engine.check_action(state, action)
        except IllegalActionError:
            continue
        legal.add((_cards(action), effect(state, action)))
    assert legal == set(keys)


def _cards(action) -> tuple:
    if isinstance(action, Throttle):
        return (action.nine.physical, action.paired.card.physical)
    card = getattr(action, "card", None) or getattr(action, "king", None)
    return (card.physical,) if card is not None else ()
