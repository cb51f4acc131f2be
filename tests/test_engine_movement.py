"""Movement (rulebook: Movement, Exit; R6, R9, R31) and the canonical move list."""

import itertools

import pytest

from bgrid.rules import engine
from bgrid.rules.actions import Move, Throttle
from bgrid.rules.board import CELLS, FORWARD, Cell, Facing
from bgrid.rules.errors import IllegalActionError
from bgrid.rules.events import Moved
from bgrid.rules.movement import can_move, reachable, trace_steps
from bgrid.rules.state import Phase

from engine_boards import board, card, kinds, of, placed, snapshot

C = Cell.parse


def test_forward_steps_and_turns_spend_points():
    state = placed(board(), "C3", "S", hand="5H")
    events = engine.apply(state, Move(card("5H"), "FFLF"))
    # South twice to C5, turn left (the pilot faces south, so left is east), one east to D5.
    assert of(events, Moved) == [Moved(C("C3"), (C("C4"), C("C5"), C("D5")), Facing.EAST, False, False)]
    assert (state.cell, state.facing) == (C("D5"), Facing.EAST)
    assert state.actions == 1
    assert state.discard == [card("5H")]


def test_points_may_be_left_unspent():
    state = placed(board(), "C3", "S", hand="5H")
    engine.apply(state, Move(card("5H"), "F"))
    assert state.cell == C("C4")


def test_turns_after_the_last_forward_step_are_allowed():
    state = placed(board(), "C3", "S", hand="3H")
    engine.apply(state, Move(card("3H"), "FRR"))
    assert (state.cell, state.facing) == (C("C4"), Facing.NORTH)


@pytest.mark.parametrize("steps", ["L", "LR", "RRRR"])
def test_a_movement_card_must_move_at_least_one_cell_forward(steps):
    state = placed(board(), "C3", "S", hand="5H")
    with pytest.raises(IllegalActionError) as err:
        engine.apply(state, Move(card("5H"), steps))
    assert err.value.rule == "R9" and err.value.code == "no-forward-step"


def test_steps_cannot_cost_more_than_the_card():
    state = placed(board(), "C3", "S", hand="2H")
    before = snapshot(state)
    with pytest.raises(IllegalActionError) as err:
        engine.apply(state, Move(card("2H"), "FFF"))
    assert err.value.code == "too-many-steps"
    assert snapshot(state) == before  # an illegal play never half-applies


def test_mountain_below_altitude_four_stops_the_bomber_in_the_cell_before():
    state = placed(board("C6"), "C3", "S", altitude=3, hand="5H")
    events = engine.apply(state, Move(card("5H"), "FFF"))
    assert of(events, Moved) == [Moved(C("C3"), (C("C4"), C("C5")), Facing.SOUTH, False, True)]
    assert state.cell == C("C5")
    assert state.outcome is None  # stopping is not a crash


def test_no_step_may_follow_the_blocked_step():
    state = placed(board("C6"), "C3", "S", altitude=3, hand="5H")
    with pytest.raises(IllegalActionError) as err:
        engine.apply(state, Move(card("5H"), "FFFL"))
    assert err.value.rule == "R31" and err.value.code == "step-after-end"


def test_a_move_whose_only_forward_step_is_blocked_is_illegal():
    state = placed(board("C4"), "C3", "S", altitude=3, hand="5H")
    with pytest.raises(IllegalActionError) as err:
        engine.apply(state, Move(card("5H"), "F"))
    assert err.value.rule == "R31" and err.value.code == "no-forward-step"
    assert Move(card("5H"), "F") not in engine.legal_actions(state)
    assert Move(card("5H"), "LF") in engine.legal_actions(state)


def test_at_altitude_four_the_bomber_flies_over_mountains():
    state = placed(board("C4 C5"), "C3", "S", altitude=4, hand="3H")
    engine.apply(state, Move(card("3H"), "FFF"))
    assert state.cell == C("C6")
    state = placed(board("C4"), "C3", "S", altitude=4, hand="3H")
    engine.apply(state, Move(card("3H"), "F"))
    assert state.cell == C("C4") and state.outcome is None  # in a mountain cell at altitude 4


def test_moving_off_an_edge_exits_ends_the_phase_and_skips_the_automa():
    state = placed(board(), "A5", "W", altitude=3, hand="5H KS 3C 4C 6C", top="2D")
    events = engine.apply(state, Move(card("5H"), "F"))
    assert of(events, Moved) == [Moved(C("A5"), (), Facing.WEST, True, False)]
    assert state.cell is None and state.facing is None
    assert kinds(events)[-3:] == ["PlayerPhaseEnded", "AutomaSkipped", "TurnStarted"]
    assert state.turn == 2 and state.phase is Phase.ENTRY_REVEAL  # no King after an exit (R6)
    assert state.altitude == 3


def test_no_step_may_follow_an_exit():
    state = placed(board(), "B5", "W", hand="5H")
    with pytest.raises(IllegalActionError) as err:
        engine.apply(state, Move(card("5H"), "FFR"))
    assert err.value.code == "step-after-end"


def test_a_joker_declared_as_a_movement_card_moves_and_is_discarded_as_joker():
    state = placed(board(), "C3", "S", hand="JK")
    engine.apply(state, Move(card("JK=4D"), "FFFF"))
    assert state.cell == C("C7")
    assert state.discard == [card("JK")]


def test_throttle_adds_two_movement_points_and_ends_the_phase():
    state = placed(board(), "C1", "S", hand="9H 2S KD", top="8C")
    events = engine.apply(state, Throttle(card("9H"), Move(card("2S"), "FFFF")))
    assert state.cell == C("C5")
    assert state.discard == [card("9H"), card("2S")]
    assert kinds(events)[-1] == "PlayerPhaseEnded"
    assert state.phase is Phase.AUTOMA_REVEAL  # R11: not even a King after it


def _brute_force_ends(cell, facing, points, mountains, clear):
    """Every step word of length 1..points traced directly: end -> all words reaching it."""
    ends = {}
    for n in range(1, points + 1):
        for word in itertools.product("FLR", repeat=n):
            steps = "".join(word)
            try:
                t = trace_steps(cell, facing, steps, points, mountains, clear)
            except IllegalActionError:
                continue
            ends.setdefault((t.end, t.facing, t.exited, t.blocked), []).append(steps)
    return ends


@pytest.mark.parametrize("where,facing,points,mountains,altitude", [
    ("E5", "N", 3, "", 4), ("A1", "S", 4, "", 2), ("C3", "E", 5, "D3 C5 E4", 3),
    ("J10", "E", 2, "", 0), ("B2", "N", 6, "B4 C2", 1), ("F6", "W", 7, "E6 F5 G6 F8 D6", 2),
    ("A10", "N", 7, "A9 B10", 3)])
def test_legal_moves_are_one_shortest_step_list_per_distinct_end(where, facing, points, mountains, altitude):
    mtn = frozenset(Cell.parse(c) for c in mountains.split())
    clear = altitude >= 4
    expected = _brute_force_ends(C(where), Facing.parse(facing), points, mtn, clear)
    got = reachable(C(where), Facing.parse(facing), points, frozenset() if clear else mtn)
    traces = [trace_steps(C(where), Facing.parse(facing), steps, points, mtn, clear) for steps in got]
    got_ends = {(t.end, t.facing, t.exited, t.blocked): steps for steps, t in zip(got, traces, strict=True)}
    assert len(got_ends) == len(got)  # no end twice
    assert set(got_ends) == set(expected)
    for end, steps in got_ends.items():
        shortest = min(len(s) for s in expected[end])
        assert len(steps) == shortest and steps in expected[end]
        # The first in F, L, R order among the shortest (the brute force lists in that order):
        # the simulator's random picks index this list, so its order is part of every result.
        assert steps == next(s for s in expected[end] if len(s) == shortest)


def test_legal_actions_list_moves_of_each_movement_card():
    state = placed(board(), "A1", "S", altitude=4, hand="2H 2S")
    moves = [a for a in engine.legal_actions(state) if isinstance(a, Move)]
    # 2 points from A1 facing south: F (A2 S), FF (A3 S), FL (A2 E), FR (A2 W), LF (left of
    # south is east: B1 E) and RF (west, off the board: an exit).
    ends_2h = {a.steps for a in moves if a.card == card("2H")}
    assert ends_2h == {"F", "FF", "FL", "FR", "LF", "RF"}
    assert {a.steps for a in moves if a.card == card("2S")} == ends_2h  # distinct cards stay distinct


def test_can_move_says_whether_reachable_lists_any_move():
    # Every cell, facing and point count against reachable itself, with the mountains around
    # the bomber in every pattern of its four neighbours (and none, as above the clearance).
    for cell in CELLS:  # Cells, as the compiled build requires
        around = [n for f in Facing if (n := FORWARD[f][cell]) is not None]
        for mask in range(1 << len(around)):
            mountains = frozenset(n for i, n in enumerate(around) if mask >> i & 1)
            for facing in Facing:
                for points in range(0, 8):
                    assert can_move(cell, facing, points, mountains) == bool(
                        reachable(cell, facing, points, mountains)), (cell, facing, points, mountains)
