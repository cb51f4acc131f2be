"""The greedy player of ``bgrid simulate --player greedy``: legal, and sensible where a
beginner would be."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgrid.rules import engine
from bgrid.rules.actions import Altitude, Bomb, EndPhase, Move
from bgrid.rules.board import Cell
from bgrid.players.greedy import greedy_action
from bgrid.challenges.mission import mission_from_seed
from bgrid.players.playout import Dice, play_out, replay, simulate, start_state
from bgrid.challenges.seeding import stream

from engine_boards import board, card, placed, snapshot


def dice(seed=0):
    return Dice(stream("standard-1", "greedy-test", seed))


def test_greedy_bombs_a_target_below():
    state = placed(board(bunkers="C3 B10 C10 D10 E10 F10"), "C3", altitude=2, hand="7H 2S 3S 10S KC")
    assert greedy_action(state, dice()) == Bomb(card("7H"))


def test_greedy_comes_down_to_the_low_band_before_bombing():
    state = placed(board(bunkers="C3 B10 C10 D10 E10 F10"), "C3", altitude=4, hand="7H QS 3S")
    assert greedy_action(state, dice()) == Altitude(card("QS"))
    engine.apply(state, Altitude(card("QS")))
    assert greedy_action(state, dice()) == Bomb(card("7H"))


def test_greedy_never_crashes_on_purpose():
    # Over a mountain at altitude 4 with nothing but descending cards: it passes.
    state = placed(board("C3"), "C3", altitude=4, hand="10S JS QS")
    assert greedy_action(state, dice()) == EndPhase()


def test_greedy_flies_toward_the_nearest_bunker():
    state = placed(board(bunkers="C6 J10 A10 B10 D10 E10"), "C2", "S", altitude=4, hand="4H")
    action = greedy_action(state, dice())
    assert isinstance(action, Move)
    engine.apply(state, action)
    assert state.cell == Cell.parse("C6")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 300), st.booleans(), st.integers(0, 10**6))
def test_greedy_plays_only_legal_actions(map_seed, challenge, seed):
    start = start_state(mission_from_seed(map_seed), challenge)
    trace = []
    end = play_out(start.copy(), stream("standard-1", "greedy", seed), trace, player=greedy_action)
    again = start.copy()
    replay(again, trace)  # the checked apply accepts every decision
    assert snapshot(again) == snapshot(end) and end.is_over


def test_greedy_wins_sometimes_and_random_hardly_ever():
    mission = mission_from_seed(4)
    greedy = simulate(mission, 60, 1, player="greedy")
    assert greedy.wins > 0
    assert greedy.mean_score > simulate(mission, 60, 1).mean_score
