"""Entry and re-entry (rulebook: Entry and Re-entry; R6, R13, R28) and the draw (R6b, R30)."""

import pytest

from bgrid.rules import engine
from bgrid.rules.actions import EnterColumn, EndPhase, Move
from bgrid.rules.board import Cell, Facing
from bgrid.rules.errors import IllegalActionError
from bgrid.rules.events import Damage, Drew, Entered, Revealed, TurnStarted
from bgrid.rules.state import CardPurpose, DefeatCause, Outcome, Phase

from engine_boards import board, card, kinds, new, of, placed


def test_game_starts_on_turn_one_waiting_for_the_entry_card():
    state = new(board(), "7H")
    assert state.turn == 1
    assert state.phase is Phase.ENTRY_REVEAL
    assert engine.chance_pending(state) == "entry"
    assert engine.chance_outcomes(state) == [card("7H")]
    assert engine.legal_actions(state) == []
    assert state.cell is None and state.altitude == 4


def test_number_card_enters_row_one_of_its_column_facing_south():
    state = new(board(), "7H")
    events = engine.reveal(state, card("7H"))
    assert of(events, Revealed) == [Revealed(card("7H"), CardPurpose.ENTRY)]
    assert of(events, Entered) == [Entered(Cell.parse("G1"), Facing.SOUTH, 4, False, None)]
    assert state.cell == Cell.parse("G1") and state.facing is Facing.SOUTH
    assert state.discard == [card("7H")]  # R8: the entry card is discarded once applied
    assert state.damage == 0
    assert engine.chance_pending(state) == "draw"


def test_ace_enters_column_a_and_ten_enters_column_j():
    state = new(board(), "AS")
    engine.reveal(state, card("AS"))
    assert state.cell == Cell.parse("A1")
    state = new(board(), "10D")
    engine.reveal(state, card("10D"))
    assert state.cell == Cell.parse("J1")


def test_draw_refills_the_hand_to_five_one_card_at_a_time():
    state = new(board(), "7H 2S 3S 4S 5S 6S 8C")
    engine.reveal(state, card("7H"))
    for name in ["2S", "3S", "4S", "5S"]:
        events = engine.reveal(state, card(name))
        assert events == [Drew(card(name), CardPurpose.DRAW)]
        assert engine.chance_pending(state) == "draw"
    engine.reveal(state, card("6S"))
    assert state.hand == [card(c) for c in ("2S", "3S", "4S", "5S", "6S")]
    assert state.phase is Phase.ACTIONS and engine.chance_pending(state) is None


def test_face_card_entry_lets_the_player_choose_the_column_and_costs_one_damage():
    state = new(board(), "QS")
    engine.reveal(state, card("QS"))
    assert state.phase is Phase.ENTRY_COLUMN
    assert engine.chance_pending(state) is None
    assert engine.legal_actions(state) == [EnterColumn(c) for c in range(10)]
    events = engine.apply(state, EnterColumn(2))
    assert kinds(events)[:2] == ["Damage", "Entered"]  # R13: damage, then the mountain check
    assert of(events, Entered)[0] == Entered(Cell.parse("C1"), Facing.SOUTH, 4, True, None)
    assert state.damage == 1
    assert state.discard == [card("QS")]


def test_joker_entry_is_a_chosen_column_with_one_damage():
    state = new(board(), "JK")
    engine.reveal(state, card("JK"))
    assert state.phase is Phase.ENTRY_COLUMN
    engine.apply(state, EnterColumn(9))
    assert state.cell == Cell.parse("J1") and state.damage == 1


def test_only_a_column_may_answer_a_face_card_entry():
    state = new(board(), "KH")
    engine.reveal(state, card("KH"))
    with pytest.raises(IllegalActionError) as err:
        engine.apply(state, EndPhase())
    assert err.value.rule == "R13" and err.value.code == "wrong-phase"


def test_entry_damage_can_end_the_mission():
    state = new(board(), "JD", difficulty="ace")
    state.damage = 2  # health 3
    engine.reveal(state, card("JD"))
    events = engine.apply(state, EnterColumn(0))
    assert of(events, Damage)[0].total == 3
    assert state.outcome is Outcome.DEFEAT and state.cause is DefeatCause.DAMAGE
    assert state.end_card_purpose is None


def test_entry_over_a_mountain_shifts_to_the_nearest_clear_column_below_altitude_four():
    # E1 is a mountain; D1 and F1 are both one column away: ties shift left (R13).
    state = new(board("E1"), "5H")
    state.altitude = 3  # a re-entry keeps the altitude of the exit
    events = engine.reveal(state, card("5H"))
    assert of(events, Entered) == [Entered(Cell.parse("D1"), Facing.SOUTH, 3, False, Cell.parse("E1"))]


def test_entry_shift_goes_to_the_nearer_side_when_not_tied():
    state = new(board("D1 E1 F1 G1"), "5H")  # E: D is blocked too, nearest clear is C (2) vs H (3)
    state.altitude = 2
    engine.reveal(state, card("5H"))
    assert state.cell == Cell.parse("C1")
    state = new(board("C1 D1 E1 F1"), "6H")  # F: nearest clear G (1)
    state.altitude = 2
    engine.reveal(state, card("6H"))
    assert state.cell == Cell.parse("G1")


def test_chosen_column_over_a_mountain_also_shifts():
    state = new(board("B1"), "KC")
    state.altitude = 0
    engine.reveal(state, card("KC"))
    engine.apply(state, EnterColumn(1))
    assert state.cell == Cell.parse("A1") and state.damage == 1


def test_entry_at_altitude_four_or_more_stays_on_the_mountain():
    state = new(board("E1"), "5H")
    engine.reveal(state, card("5H"))
    assert state.cell == Cell.parse("E1")


def test_no_clear_entry_column_enters_the_named_cell_and_crashes():
    row1 = " ".join(f"{c}1" for c in "ABCDEFGHIJ")
    state = new(board(row1), "3C")
    state.altitude = 3
    events = engine.reveal(state, card("3C"))
    assert state.cell == Cell.parse("C1")  # R28
    assert state.outcome is Outcome.DEFEAT and state.cause is DefeatCause.CRASH
    assert kinds(events)[-1] == "Defeat"


def test_re_entry_keeps_the_altitude_of_the_exit_and_starts_the_next_turn():
    state = placed(board(), "C10", "S", altitude=2, hand="2H 3S 4S 5S 6S", top="8D")
    events = engine.apply(state, Move(card("2H"), "F"))  # off the southern edge
    assert state.cell is None
    assert kinds(events)[-3:] == ["PlayerPhaseEnded", "AutomaSkipped", "TurnStarted"]
    assert of(events, TurnStarted) == [TurnStarted(2)]
    assert engine.chance_pending(state) == "entry"
    engine.reveal(state, card("8D"))
    assert state.cell == Cell.parse("H1") and state.altitude == 2


def test_a_full_hand_has_no_draw():
    state = placed(board(), "C3", "S", hand="2H 3S 4S 5S 6S", top="9C 7D")
    engine.apply(state, EndPhase())
    engine.reveal(state, card("9C"))  # the Automa card
    assert state.turn == 2
    assert state.phase is Phase.ACTIONS  # R30: five cards in hand, no draw
    assert len(state.hand) == 5
