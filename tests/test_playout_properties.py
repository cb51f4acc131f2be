"""Random playouts with invariants after every step (the OpenSpiel random-simulation test)."""

import functools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgrid.rules import engine
from bgrid.rules.actions import Move
from bgrid.rules.cards import FULL_DECK
from bgrid.rules.errors import IllegalActionError
from bgrid.challenges.mission import mission_from_seed
from bgrid.players.playout import play_out, random_action, random_card, replay, simulate, start_state
from bgrid.challenges.seeding import stream

from engine_boards import snapshot

MAX_STEPS = 5000  # a mission lasts at most two passes through 54 cards: far fewer steps

missions = st.builds(mission_from_seed, st.integers(0, 300),
                     st.sampled_from(["easy", "normal", "hard", "ace"]), st.integers(1, 4))


def random_steps(state, rng, count):
    """Up to ``count`` random legal steps (a card when one is needed, else a play)."""
    for _ in range(count):
        if state.is_over:
            return
        if engine.chance_pending(state):
            engine.reveal(state, random_card(state, rng))
        else:
            engine.apply(state, random_action(state, rng))


def checked_playout(mission, challenge, seed):
    """Play to the end, checking invariants at every step; return the trace and events."""
    state = start_state(mission, challenge)
    start = state.copy()
    rng = stream("standard-1", "property", seed)
    trace, all_events = [], []
    damage, steps = 0, 0
    while not state.is_over:
        steps += 1
        assert steps < MAX_STEPS, "the mission does not end"
        purpose = engine.chance_pending(state)
        if purpose is not None:
            outcomes = engine.chance_outcomes(state)
            assert outcomes, "a chance node with no card that could come"
            c = random_card(state, rng)
            assert c in outcomes
            events = engine.reveal(state, c)
            trace.append(("card", c))
        else:
            actions = engine.legal_actions(state)
            assert actions, "a decision node with no legal action"
            assert len(set(actions)) == len(actions)
            for a in actions:
                engine.check_action(state, a)
            a = random_action(state, rng)
            events = engine.apply(state, a)
            trace.append(("action", a))
        all_events.append(events)
        assert state.card_count() == 54
        assert 0 <= state.altitude <= 5
        assert state.damage >= damage
        damage = state.damage
        assert state.suppressed <= state.artillery
        assert not (state.bunkers & state.artillery)
        assert not (state.artillery & state.mountains)
        assert (state.cell is None) == (state.facing is None)
        assert len(state.hand) <= 5
    assert state.outcome is not None
    assert engine.legal_actions(state) == [] and engine.chance_pending(state) is None
    return start, state, trace, all_events


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(missions, st.booleans(), st.integers(0, 10**6))
def test_random_playouts_keep_the_invariants_and_end(mission, challenge, seed):
    checked_playout(mission, challenge, seed)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(missions, st.booleans(), st.integers(0, 10**6))
def test_replaying_the_same_cards_and_actions_gives_the_same_events(mission, challenge, seed):
    start, end, trace, events = checked_playout(mission, challenge, seed)
    again = start.copy()
    assert replay(again, trace) == events
    assert snapshot(again) == snapshot(end)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(missions, st.integers(0, 10**6), st.integers(0, 200))
def test_a_copy_is_independent_of_its_original(mission, seed, cut):
    state = start_state(mission, False)
    rng = stream("standard-1", "copy", seed)
    random_steps(state, rng, cut)
    copy = state.copy()
    frozen = snapshot(copy)
    assert frozen == snapshot(state)
    random_steps(state, rng, 30)
    assert snapshot(copy) == frozen


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(missions, st.integers(0, 10**6))
def test_an_illegal_card_or_play_changes_nothing(mission, seed):
    state = start_state(mission, True)
    rng = stream("standard-1", "illegal", seed)
    while not state.is_over:
        before = snapshot(state)
        if engine.chance_pending(state):
            wrong = next((c for c in state.hand + state.discard if c != state.draw_pile[0]), None)
            attempts = [functools.partial(engine.reveal, state, wrong)] if wrong is not None else []
        else:
            # a hand holds 5 cards at most, so one of the 16 movement cards is always missing
            missing = next(c for c in FULL_DECK if c not in state.hand and 2 <= c.rank <= 5)
            attempts = [functools.partial(engine.apply, state, Move(missing, "F"))]
            attempts += [lambda c=c: engine.apply(state, Move(c, "L"))
                         for c in state.hand if 2 <= c.rank <= 5]
        for attempt in attempts:
            with pytest.raises(IllegalActionError):
                attempt()
            assert snapshot(state) == before
        random_steps(state, rng, 1)


def test_simulate_is_deterministic_and_counts_every_game():
    mission = mission_from_seed(1944)
    a = simulate(mission, 20, seed=7)
    b = simulate(mission, 20, seed=7)
    assert a == b
    assert a.games == 20 and len(a.scores) == 20 and sum(a.causes.values()) == 20
    c = simulate(mission, 20, seed=7, challenge_deck=True)
    assert c.games == 20


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(missions, st.booleans(), st.integers(0, 10**6))
def test_the_simulator_fast_path_plays_exactly_what_apply_would(mission, challenge, seed):
    # play_out skips the second legality check (apply_legal); replaying its trace through
    # the checked apply must accept every step and end in the same state.
    start = start_state(mission, challenge)
    trace = []
    end = play_out(start.copy(), stream("standard-1", "fast", seed), trace)
    again = start.copy()
    replay(again, trace)
    assert snapshot(again) == snapshot(end)
