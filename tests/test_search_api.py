"""The engine's search API: the canonical state key, whole-turn outcomes, plans replayed."""

from collections import defaultdict

from hypothesis import example, given, settings
from hypothesis import strategies as st

from bgrid.rules import engine
from bgrid.challenges.mission import mission_from_seed
from bgrid.players.playout import random_action, random_card, start_state
from bgrid.rules.actions import Move
from bgrid.players.search import move_key, play_plan, run_chance, state_key, turn_outcomes
from bgrid.challenges.seeding import stream
from bgrid.rules.state import Phase

from engine_boards import board, new


def rule_state(state) -> tuple:
    """Everything a rule reads, written out field by field (not through state_key): the
    turn number and the order of the discard pile left out, the draw pile in full (its
    order, for a challenge deck)."""
    pile = tuple(map(str, state.draw_pile)) if state.challenge else tuple(sorted(map(str, state.draw_pile)))
    return (state.phase, state.actions, state.cell, state.facing, state.altitude, state.damage,
            state.health, state.exhaustions, tuple(sorted(map(str, state.hand))), pile,
            tuple(sorted(map(str, state.discard))), tuple(sorted(map(str, state.in_play))),
            tuple(sorted(state.bunkers)), tuple(sorted(state.artillery)),
            tuple(sorted(state.suppressed)), tuple(sorted(state.craters)),
            tuple(sorted(state.destroyed)), state.bunkers_destroyed, state.artillery_destroyed,
            str(state.pending), str(state.entry_card), state.outcome, state.cause)


def states_of_random_play(mission, challenge: bool, seed: int, limit: int = 400) -> list:
    """Every state met on one random game, and at its decisions the states one play away:
    siblings that often coincide (two orders of the same plays), so both directions of the
    key property are exercised."""
    state = start_state(mission, challenge)
    rng = stream("standard-1", "search-key", seed)
    out = []
    while not state.is_over and len(out) < limit:
        out.append(state.copy())
        if engine.chance_pending(state):
            engine.reveal(state, random_card(state, rng))
            continue
        for action in engine.legal_actions(state)[:12]:
            child = state.copy()
            engine.apply(child, action)
            out.append(child)
        engine.apply(state, random_action(state, rng))
    out.append(state)
    return out


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 400), challenge=st.booleans(), game=st.integers(0, 1000))
def test_equal_keys_iff_equal_rule_relevant_state(seed, challenge, game):
    states = states_of_random_play(mission_from_seed(seed), challenge, game)
    by_key, by_state = defaultdict(set), defaultdict(set)
    for s in states:
        by_key[state_key(s)].add(rule_state(s))
        by_state[rule_state(s)].add(state_key(s))
    assert all(len(v) == 1 for v in by_key.values())
    assert all(len(v) == 1 for v in by_state.values())


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 400), challenge=st.booleans(), game=st.integers(0, 1000))
@example(seed=312, challenge=True, game=0)  # that challenge's first hand never moves
def test_move_key_is_the_key_of_the_state_the_move_leads_to(seed, challenge, game):
    # The fast path against the checked path: every legal move of every decision of random
    # games, each move played with engine.apply on a copy. Games on the next seeds follow
    # until 30 moves are met: a game may have none (a challenge hand holding no movement
    # card passes until the deck runs out, whatever the random player does).
    moves = 0
    for offset in range(50):
        state = start_state(mission_from_seed(seed + offset), challenge)
        rng = stream("standard-1", "move-key", game + offset)
        while not state.is_over:
            if engine.chance_pending(state):
                engine.reveal(state, random_card(state, rng))
                continue
            key = state_key(state)
            for action in engine.legal_actions(state):
                if type(action) is Move:
                    child = state.copy()
                    engine.apply(child, action)
                    fast = move_key(state, key, action)
                    assert fast is None or fast == state_key(child), action
                    assert fast is not None or not state.draw_pile
                    moves += 1
            engine.apply(state, random_action(state, rng))
        if moves >= 30:
            break
    assert moves >= 30


def test_key_ignores_turn_number_and_discard_order():
    state = start_state(mission_from_seed(1944), True)
    run_chance(state)
    state = next(child for child, _ in turn_outcomes(state).values() if len(child.discard) >= 3)
    other = state.copy()
    other.turn += 3
    other.discard.reverse()
    assert other.discard != state.discard
    assert state_key(state) == state_key(other)


def test_key_tells_hands_apart_that_hold_the_same_ranks():
    state = new(board(bunkers="C5"), "3H 2S 7H 10C JC QC")
    run_chance(state)
    other = state.copy()
    i = [str(c) for c in other.hand].index("7H")
    swap = next(c for c in other.draw_pile if str(c) == "7D")
    other.draw_pile[other.draw_pile.index(swap)] = other.hand[i]
    other.hand[i] = swap
    assert state_key(state) != state_key(other)


def test_cards_drawn_counts_every_card_taken_from_the_pile():
    state = new(board(bunkers="C5"), "3H 2S 7H 10C JC QC")
    run_chance(state)
    assert state.cards_drawn == 6  # the entry card, then five to fill the hand


def test_turn_outcomes_replay_to_the_same_state_on_the_checked_path():
    mission = mission_from_seed(1944)
    state = start_state(mission, True)
    run_chance(state)
    outcomes = turn_outcomes(state)
    assert len(outcomes) > 10
    for key, (child, plays) in list(outcomes.items())[::7]:
        assert child.turn == state.turn + 1 or child.phase is Phase.OVER
        again = state.copy()
        play_plan(again, plays)
        assert state_key(again) == key


def test_turn_outcomes_are_distinct_and_lose_none_of_the_one_play_turns():
    mission = mission_from_seed(7)
    state = start_state(mission, True)
    run_chance(state)
    outcomes = turn_outcomes(state)
    # Every single play followed by the end of the phase is one of the turn's outcomes.
    for action in engine.legal_actions(state):
        one = state.copy()
        engine.apply(one, action)
        run_chance(one)
        if one.phase is Phase.ACTIONS and one.turn == state.turn:
            engine.apply(one, engine.legal_actions(one)[-1])  # EndPhase is listed last
            run_chance(one)
        if one.turn != state.turn or one.is_over:
            assert state_key(one) in outcomes
