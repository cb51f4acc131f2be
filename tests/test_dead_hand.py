"""Dead hands (rules.dead_hand): a full hand that no sequence of Automa cards can make playable.

Each position is built by hand (tests/engine_boards.py ``placed``): the bomber, a hand of five
and the artillery, with the reason worked from the rules: a full hand draws nothing (R30),
so only the artillery's moves (R19, R20) could change what is playable.
"""

from __future__ import annotations

from engine_boards import board, placed

from bgrid.rules.board import Cell
from bgrid.rules.dead_hand import _can_come_into_play, automa_phases_left, dead_hand
from bgrid.rules.state import GameState


def test_the_issue_hand_at_altitude_5_on_an_empty_cell_is_dead():
    # 7S 8S AS: nothing below C5; 6S: guns need altitude 0-4; 9S: nothing to pair with
    state = placed(board(artillery="H9"), "C5", altitude=5, hand="7S 6S AS 8S 9S")
    dead = dead_hand(state)
    assert dead is not None
    assert dead.turn == 1 and [str(c) for c in dead.hand] == ["7S", "6S", "AS", "8S", "9S"]
    assert str(dead) == (
        "dead hand from turn 1: no card in hand can be played again (6S: guns need altitude 0-4, "
        "and the bomber stays at 5; 7S AS 8S: no target below the bomber at C5, and none can come "
        "there; 9S: a Throttle is never played alone, and no card can pair with it); the mission "
        "can only end by damage or fuel")
    assert dead.rules == "R30, R15, R16, R7, R11"


def test_a_hand_with_a_card_to_descend_is_not_dead():
    state = placed(board(artillery="H9"), "C5", altitude=5, hand="7S 6S AS 8S 10S")
    assert dead_hand(state) is None


def test_a_hand_short_of_five_is_not_dead_the_next_draw_may_help():
    state = placed(board(artillery="H9"), "C5", altitude=5, hand="7S 6S AS 8S")
    assert dead_hand(state) is None


def test_a_king_or_a_joker_keeps_a_hand_alive():
    assert dead_hand(placed(board(), "C5", altitude=5, hand="7S 6S AS 8S KS")) is None
    assert dead_hand(placed(board(), "C5", altitude=5, hand="7S 6S AS 8S JK")) is None


def test_a_bunker_below_the_bomber_keeps_the_bombs_alive():
    state = placed(board(bunkers="C5 B10 C10 D10 E10 F10"), "C5", altitude=5, hand="7S 6S AS 8S 9S")
    assert dead_hand(state) is None


def test_a_piece_that_will_walk_into_the_guns_reach_keeps_the_hand_alive():
    # E5 at altitude 4: QH would climb to 6, 9S+QH to 8; no target under E5; G7 is in neither
    # E5's row nor its column. A red Automa card moves G7 toward E5: equal gaps step along the
    # column (G6), then the larger gap (F6), then equal again (F5): in line, range 1 (R15, R20).
    state = placed(board(artillery="G7"), "E5", altitude=4, hand="6H 7S 8S 9S QH")
    assert dead_hand(state) is None


def test_a_suppressed_piece_is_ready_again_after_a_phase_and_keeps_the_hand_alive():
    # The position above with G7 suppressed (R21): a stepping card in the first phase leaves it
    # where it is, but after any phase it is ready, and the walk above brings it in line.
    state = placed(board(artillery="G7"), "E5", altitude=4, hand="6H 7S 8S 9S QH")
    state.suppressed = {Cell.parse("G7")}
    assert dead_hand(state) is None


def test_the_same_hand_with_no_artillery_left_is_dead():
    state = placed(board(), "E5", altitude=4, hand="6H 7S 8S 9S QH")
    dead = dead_hand(state)
    assert dead is not None
    assert "6H: no artillery piece can come into the guns' line of sight within 3" in str(dead)
    assert "QH: the bomber flies at altitude 4, and QH +2 would leave 0-5" in str(dead)


def test_a_piece_walled_in_by_mountains_never_comes_into_reach():
    # G7 boxed in by mountains on its four sides: every step it would take is a mountain (R20)
    state = placed(board(mountains="G6 G8 F7 H7", artillery="G7"), "E5", altitude=4, hand="6H 7S 8S 9S QH")
    assert dead_hand(state) is not None


def test_a_piece_next_to_the_bomber_fires_and_never_steps_under_it():
    # at altitude 5 the reach is 1: E6 fires every phase (R18), so it never moves (R19) and
    # never stands below the bomber for a bomb
    state = placed(board(artillery="E6"), "E5", altitude=5, hand="7S 8S AS 9S QH")
    assert dead_hand(state) is not None


def test_a_piece_that_could_come_but_not_before_the_fuel_runs_out():
    state = placed(board(artillery="G7"), "E5", altitude=4, hand="6H 7S 8S 9S QH")
    pile = state.draw_pile
    state.exhaustions = 1  # the reshuffle spent
    state.draw_pile = pile[:2]  # two Automa cards left
    assert automa_phases_left(state) == 2
    assert dead_hand(state) is not None  # G7 needs three red cards (G6, F6, F5)
    state.draw_pile = pile[:3]
    assert dead_hand(state) is None


def test_the_fuel_counts_the_reshuffle_left():
    state = placed(board(), "E5", hand="6H 7S 8S 9S QH")
    assert len(state.draw_pile) == 49
    assert automa_phases_left(state) == 49 + 49  # then every card but the five in hand (R22, R35)


def test_the_search_does_not_change_the_state():
    state = placed(board(artillery="G7 B2"), "E5", altitude=4, hand="6H 7S 8S 9S QH")
    state.suppressed.add(Cell.parse("B2"))
    before = state.serialize()
    dead_hand(state)
    assert state.serialize() == before


def test_a_move_that_must_turn_first_keeps_the_hand_alive():
    # the example of R31: at C3 facing south below altitude 4, C4 a mountain: "move 2C F" is
    # illegal, "move 2C LF" is fine (to D3); no artillery, and no bunker at C3 for the bombs
    state = placed(board(mountains="C4"), "C3", altitude=3, hand="2C 6S 7S 8S AS")
    assert dead_hand(state) is None


def test_walled_on_three_sides_a_two_point_move_cannot_step():
    # LF and RF run into D3 and B3 (R9), turning about (LLF) costs 3 points; no artillery for
    # the guns, ever, and no bunker below for the bombs
    state = placed(board(mountains="C4 B3 D3"), "C3", altitude=3, hand="2C 6S 7S 8S AS")
    assert dead_hand(state) is not None


def can_come_into_play(state: GameState) -> bool:
    """The cell search of rules.dead_hand for a hand holding guns and bombs (6H, 7S, 8S)."""
    return _can_come_into_play(state.copy(), True, True)


def test_a_piece_that_walks_but_never_into_line_leaves_the_hand_dead():
    # E5 at altitude 4: the guns' targets would stand in row 5 or column E. G7, alone: Hearts
    # and Diamonds step it to G6 (equal gaps: along the column), from there west into the
    # mountain F6 (it holds, R20); Spades take it toward F10, the nearest bunker (R19): G8,
    # G9, G10, then west into the bunker (it holds). So G6-G10 are every cell it can reach,
    # none in line with E5.
    state = placed(board(mountains="F6", artillery="G7"), "E5", altitude=4, hand="6H 7S 8S 9S QH")
    assert not can_come_into_play(state)
    assert dead_hand(state) is not None


def test_a_piece_one_step_from_line_keeps_the_hand_alive():
    # F6 is one column and one row from E5: equal gaps step along the column (R20), to F5,
    # in line at range 1 after one Hearts or Diamonds card
    state = placed(board(artillery="F6"), "E5", altitude=4, hand="6H 7S 8S 9S QH")
    assert can_come_into_play(state)
    assert dead_hand(state) is None


def test_the_piece_in_front_walks_on_where_the_one_behind_is_blocked():
    # E9 at altitude 4: column E is in the guns' reach from E6 (range 3). E2 moves before E3
    # (same column, lower row, R34), so on the first red card E3 blocks it and steps to E4
    # (R20); E3 walks on: E4, E5, E6, in line after three red cards. Alone, E2 would need
    # four (E3, E4, E5, E6), but the one in front gets there first. With two cards of fuel
    # neither does: E3 stops at E5, four rows from E9.
    state = placed(board(artillery="E2 E3"), "E9", altitude=4, hand="6H 7S 8S 9S QH")
    state.exhaustions = 1  # the reshuffle spent
    pile = state.draw_pile
    state.draw_pile = pile[:3]
    assert can_come_into_play(state)
    assert dead_hand(state) is None
    state.draw_pile = pile[:2]
    assert not can_come_into_play(state)
    assert dead_hand(state) is not None
