"""An independent audit of the engine against the rulebook and rulings R1–R39: the edge
cases of each rule, on small explicit boards. Every expected outcome was worked out by hand
from the rules text (the comments show the working), never read off the engine."""

import pytest

from bgrid.rules import engine
from bgrid.rules.actions import Altitude, Bomb, EndPhase, EnterColumn, Guns, Move, Resupply, Throttle
from bgrid.rules.board import Cell, Facing
from bgrid.rules.cards import Card
from bgrid.rules.errors import IllegalActionError, NotationError
from bgrid.rules.events import (ArtilleryFired, ArtilleryHeld, ArtilleryMoved, AutomaSkipped, Bonus,
                                Crater, Damage, DamageCause, Destroyed, Drew, Entered, Missed, Moved,
                                PhaseEndReason, PlayerPhaseEnded, Recovered, Reshuffled, Revealed, Suppressed,
                                TurnStarted)
from bgrid.rules.state import CardPurpose, DefeatCause, Outcome, Phase

from engine_boards import board, card, kinds, new, of, placed

C = Cell.parse
PASS_HAND = "KS QS JS KC QC"  # nothing in it moves the bomber or fires


def refused(state, action, code):
    """``action`` is illegal with ``code`` and leaves the state as it was."""
    before = (state.cell, state.facing, state.altitude, state.actions, list(state.hand))
    with pytest.raises(IllegalActionError) as err:
        engine.apply(state, action)
    assert err.value.code == code, str(err.value)
    assert (state.cell, state.facing, state.altitude, state.actions, list(state.hand)) == before
    assert action not in engine.legal_actions(state)
    return err.value


def automa(state, automa_card):
    """The player passes; ``automa_card`` is revealed for the Automa phase."""
    engine.apply(state, EndPhase())
    assert engine.chance_pending(state) == "automa"
    return engine.reveal(state, card(automa_card))


def reveal_for(state, action, revealed):
    engine.apply(state, action)
    assert engine.chance_pending(state) in ("guns", "bomb")
    return engine.reveal(state, card(revealed))


# -- R6: an exit ends the player phase at once -----------------------------------------

def test_exit_as_second_action_skips_the_automa_and_allows_no_king():
    # C9 facing S: 2H "FF" enters C10 and leaves the board (R9). The Automa phase is skipped,
    # the next turn begins with the entry; the King in hand can no longer be played (R6, R29).
    state = placed(board(), "C8", hand="2H 3H KS 4C 5C", top="9D")
    engine.apply(state, Move(card("3H"), "F"))
    pile = len(state.draw_pile)
    events = engine.apply(state, Move(card("2H"), "FF"))
    assert kinds(events)[-3:] == ["PlayerPhaseEnded", "AutomaSkipped", "TurnStarted"]
    assert of(events, PlayerPhaseEnded) == [PlayerPhaseEnded(PhaseEndReason.EXIT)]
    assert state.cell is None and state.facing is None and state.turn == 2
    assert engine.chance_pending(state) == "entry" and len(state.draw_pile) == pile  # no Automa card
    with pytest.raises(IllegalActionError) as err:
        engine.apply(state, Resupply(card("KS")))
    assert err.value.code == "card-expected"


def test_exit_by_a_throttle_skips_the_automa():
    state = placed(board(), "J5", "E", hand="9H 2H KS 4C 5C")
    events = engine.apply(state, Throttle(card("9H"), Move(card("2H"), "F")))
    assert of(events, PlayerPhaseEnded) == [PlayerPhaseEnded(PhaseEndReason.EXIT)]
    assert of(events, AutomaSkipped) and state.phase is Phase.ENTRY_REVEAL


# -- R9, R31: movement ------------------------------------------------------------------

def test_turns_after_the_last_forward_step_cost_points():
    # 2 points: F then R (S turned right faces W) is 2 points; F R R would be 3.
    state = placed(board(), "C3", "S", hand="2H")
    refused(state, Move(card("2H"), "FRR"), "too-many-steps")
    engine.apply(state, Move(card("2H"), "FR"))
    assert (state.cell, state.facing) == (C("C4"), Facing.WEST)


def test_a_blocked_first_step_is_illegal_even_after_a_turn():
    # Mountains at C4 and D3; alt 3. S from C3 runs into C4; L (S -> E) then F into D3.
    state = placed(board("C4 D3"), "C3", "S", altitude=3, hand="3H")
    refused(state, Move(card("3H"), "F"), "no-forward-step")
    refused(state, Move(card("3H"), "LF"), "no-forward-step")
    refused(state, Move(card("3H"), "R"), "no-forward-step")  # a turn alone is no move


def test_a_step_blocked_after_a_real_one_ends_the_movement_and_nothing_may_follow():
    # C2 facing S, mountain C4, alt 3: F to C3, then F is blocked; a step after it is illegal.
    state = placed(board("C4"), "C2", "S", altitude=3, hand="4H 5H")
    refused(state, Move(card("4H"), "FFL"), "step-after-end")
    events = engine.apply(state, Move(card("4H"), "FF"))
    assert state.cell == C("C3") and state.facing is Facing.SOUTH and state.is_on_map
    assert of(events, Moved) == [Moved(C("C2"), (C("C3"),), Facing.SOUTH, False, True)]


def test_an_exit_is_a_forward_step_even_after_a_turn_and_ends_the_steps():
    # A5 facing S: R faces W; F leaves the board west of column A.
    state = placed(board(), "A5", "S", hand="3H")
    refused(state, Move(card("3H"), "RFL"), "step-after-end")
    engine.apply(state, Move(card("3H"), "RF"))
    assert state.cell is None


def test_at_altitude_four_the_bomber_lands_on_a_mountain_and_descending_there_crashes():
    # Over C3 at alt 4 (R9: no block), then JS takes it to 3 in a mountain cell: crash (R10, R33).
    state = placed(board("C3"), "C1", "S", altitude=4, hand="2H JS")
    engine.apply(state, Move(card("2H"), "FF"))
    assert state.cell == C("C3")
    assert Altitude(card("JS")) in engine.legal_actions(state)  # legal: it stays within 0-5
    engine.apply(state, Altitude(card("JS")))
    assert state.outcome is Outcome.DEFEAT and state.cause is DefeatCause.CRASH
    assert state.altitude == 3 and engine.chance_pending(state) is None


def test_descending_after_flying_over_a_mountain_is_safe_off_it():
    state = placed(board("C2"), "C1", "S", altitude=4, hand="2H QS")
    engine.apply(state, Move(card("2H"), "FF"))  # over C2 to C3
    engine.apply(state, Altitude(card("QS")))
    assert state.altitude == 2 and not state.is_over


def test_throttled_descent_on_a_mountain_crashes():
    # 9 + 10S from 5: -3 -> 2 in a mountain cell (R11, R10).
    state = placed(board("C3"), "C3", altitude=5, hand="9C 10S")
    engine.apply(state, Throttle(card("9C"), Altitude(card("10S"))))
    assert state.altitude == 2 and state.cause is DefeatCause.CRASH


# -- R11: Throttle ----------------------------------------------------------------------

@pytest.mark.parametrize("altitude,paired,legal,after", [
    (2, "10H", True, 5), (3, "10H", False, None), (3, "JS", True, 0), (2, "JS", False, None),
    (1, "QH", True, 5), (2, "QH", False, None), (4, "QS", True, 0), (3, "QS", False, None)])
def test_throttled_altitude_moves_three_or_four_and_stays_within_0_to_5(altitude, paired, legal, after):
    state = placed(board(), "C3", altitude=altitude, hand=f"9H {paired}")
    play = Throttle(card("9H"), Altitude(card(paired)))
    if not legal:
        refused(state, play, "altitude-limit")
        return
    assert play in engine.legal_actions(state)
    engine.apply(state, play)
    assert state.altitude == after and state.phase is Phase.AUTOMA_REVEAL


def test_throttled_movement_has_the_card_plus_two_points():
    state = placed(board(), "C1", "S", hand="9H 2H")
    refused(state, Throttle(card("9H"), Move(card("2H"), "FFFFF")), "too-many-steps")
    engine.apply(state, Throttle(card("9H"), Move(card("2H"), "FFFF")))
    assert state.cell == C("C5") and state.actions == 2


def test_a_throttle_after_a_king_is_still_the_first_action():
    state = placed(board(), "C3", hand="KS 9H 2H 3C 4C", top="5D")
    engine.apply(state, Resupply(card("KS")))
    engine.reveal(state, card("5D"))
    assert state.actions == 0
    engine.apply(state, Throttle(card("9H"), Move(card("2H"), "F")))
    assert state.cell == C("C4") and state.phase is Phase.AUTOMA_REVEAL


def test_a_throttle_after_an_action_is_refused():
    state = placed(board(), "C3", hand="9H 2H 3C 4C 5C")
    engine.apply(state, Move(card("3C"), "F"))
    refused(state, Throttle(card("9H"), Move(card("2H"), "F")), "throttle-not-first")


# -- R12: the played Joker --------------------------------------------------------------

def test_a_joker_declared_as_a_nine_throttles_a_movement_card():
    state = placed(board(), "C1", "S", hand="JK 3C")
    engine.apply(state, Throttle(Card.parse("JK=9H"), Move(card("3C"), "FFFFF")))
    assert state.cell == C("C6") and state.phase is Phase.AUTOMA_REVEAL
    assert Card.parse("JK") in state.discard and card("3C") in state.discard


def test_a_joker_declared_as_a_king_resupplies_without_being_an_action():
    state = placed(board(), "C3", hand="JK 2C 3C 4C 5C", top="8D")
    events = engine.apply(state, Resupply(Card.parse("JK=KD")))
    assert state.discard[-1] == Card.parse("JK")  # discarded before the draw (R8)
    events = engine.reveal(state, card("8D"))
    assert of(events, Drew) == [Drew(card("8D"), CardPurpose.RESUPPLY)] and state.actions == 0


def test_a_joker_cannot_be_declared_a_joker():
    with pytest.raises(NotationError):
        Card.parse("JK=JK")


# -- R13, R28: entry --------------------------------------------------------------------

def test_entry_shift_at_the_edge_goes_to_the_only_side():
    # A1 and B1 mountains: nearest clear row-1 cell from A is C1 (two columns away).
    state = new(board("A1 B1"), "AH")
    state.altitude = 3
    events = engine.reveal(state, card("AH"))
    assert of(events, Entered)[0].cell == C("C1") and of(events, Entered)[0].shifted_from == C("A1")


def test_entry_tie_two_columns_away_shifts_left():
    # E1, D1, F1 mountains: from E, C1 and G1 are both two columns away; ties shift left.
    state = new(board("D1 E1 F1"), "5S")
    state.altitude = 0
    engine.reveal(state, card("5S"))
    assert state.cell == C("C1")


def test_chosen_column_entry_damage_then_shift_then_draw():
    state = new(board("J1"), "QH")
    state.altitude = 2
    engine.reveal(state, card("QH"))
    events = engine.apply(state, EnterColumn(9))
    assert of(events, Damage) == [Damage(1, DamageCause.ENTRY, 1)]
    assert state.cell == C("I1") and state.facing is Facing.SOUTH and state.phase is Phase.DRAW


def test_all_row_one_mountains_crash_only_below_four():
    row1 = "A1 B1 C1 D1 E1 F1 G1 H1 I1 J1"
    state = new(board(row1), "3H")  # first entry: altitude 4, no shift, no crash (R13)
    engine.reveal(state, card("3H"))
    assert state.cell == C("C1") and not state.is_over
    state = new(board(row1), "3H")
    state.altitude = 3
    engine.reveal(state, card("3H"))
    assert state.cell == C("C1") and state.cause is DefeatCause.CRASH  # R28


# -- R15, R39: guns ---------------------------------------------------------------------

def test_red_guns_below_four_destroy_a_suppressed_piece():
    state = placed(board(artillery="C5"), "C3", altitude=3, hand="6D", top="2H")
    state.suppressed.add(C("C5"))
    events = reveal_for(state, Guns(card("6D"), C("C5")), "2H")
    assert of(events, Destroyed) == [Destroyed(C("C5"), "artillery", "guns")]
    assert not state.suppressed and not state.artillery and state.artillery_destroyed == 1


def test_guns_at_altitude_five_are_refused_even_on_the_own_cell():
    state = placed(board(artillery="C3"), "C3", altitude=5, hand="6D")
    refused(state, Guns(card("6D"), C("C3")), "guns-altitude")


def test_a_revealed_joker_at_altitude_four_suppresses():
    state = placed(board(artillery="F3"), "C3", altitude=4, hand="6S", top="JK")
    events = reveal_for(state, Guns(card("6S"), C("F3")), "JK")
    assert of(events, Suppressed) == [Suppressed(C("F3"), False)] and C("F3") in state.artillery


# -- R16, R17, R32: bombs ---------------------------------------------------------------

@pytest.mark.parametrize("altitude,played,revealed,result", [
    (2, "7H", "2D", "hit"), (3, "7H", "2D", "near"), (2, "8C", "2S", "near"), (3, "8C", "2S", "miss"),
    (3, "7H", "2H", "hit"), (5, "7H", "2C", "miss"),
    (5, "AH", "2D", "hit"), (5, "AS", "2S", "near"), (0, "AS", "2C", "near"),
    (5, "7C", "JK", "hit"), (5, "JK=AC", "2D", "hit"), (4, "JK=8H", "2D", "near")])
def test_bomb_bands_without_bonus(altitude, played, revealed, result):
    # 7/8: alt 0-2 red hit, black near miss; alt 3-5 Hearts hit, Diamonds near, black miss.
    # Ace (a Joker declared as one too): red hit, black near miss at any altitude; the played
    # card's own colour plays no part. A revealed Joker is a Heart (R16, R17).
    hand = "JK" if played.startswith("JK") else played
    state = placed(board(bunkers="C3 J10"), "C3", altitude=altitude, hand=hand, top=revealed)
    events = reveal_for(state, Bomb(Card.parse(played)), revealed)
    assert bool(of(events, Destroyed)) == (result == "hit")
    assert bool(of(events, Crater)) == (result == "near")
    assert bool(of(events, Missed)) == (result == "miss")
    assert not of(events, Bonus)


def test_chain_and_crater_do_not_stack():
    # Alt 3, 7H, Clubs: a miss; chain (C4 destroyed) and crater would be two bands, but at
    # most one applies: a near miss, the target survives.
    state = placed(board(bunkers="C3 J10"), "C3", altitude=3, hand="7H", top="2C")
    state.destroyed.add(C("C4"))
    state.craters.add(C("C3"))
    events = reveal_for(state, Bomb(card("7H")), "2C")
    assert len(of(events, Bonus)) == 1 and of(events, Crater) == [Crater(C("C3"))]
    assert C("C3") in state.bunkers


def test_a_near_miss_reached_through_the_chain_bonus_marks_a_crater():
    state = placed(board(bunkers="C3 J10"), "C3", altitude=4, hand="8S", top="3S")
    state.destroyed.add(C("B3"))
    events = reveal_for(state, Bomb(card("8S")), "3S")
    assert of(events, Bonus) == [Bonus(C("C3"), "chain")] and of(events, Crater) == [Crater(C("C3"))]
    assert C("C3") in state.craters and C("C3") in state.bunkers


def test_a_destroyed_target_in_the_cell_itself_gives_no_chain_bonus():
    # R32: only the four neighbours count. An artillery piece now stands where a bunker died.
    state = placed(board(bunkers="J10", artillery="C3"), "C3", altitude=3, hand="7H", top="2C")
    state.destroyed.add(C("C3"))
    state.destroyed.add(C("D4"))  # diagonal: not a neighbour either
    events = reveal_for(state, Bomb(card("7H")), "2C")
    assert of(events, Missed) == [Missed(C("C3"), "bomb")] and not of(events, Bonus)


def test_an_ace_near_miss_on_a_crater_is_a_hit():
    state = placed(board(bunkers="C3 J10"), "C3", altitude=5, hand="AC", top="4S")
    state.craters.add(C("C3"))
    events = reveal_for(state, Bomb(card("AC")), "4S")
    assert of(events, Bonus) == [Bonus(C("C3"), "crater")]
    assert of(events, Destroyed) == [Destroyed(C("C3"), "bunker", "bomb")]


# -- R23: the end at once ----------------------------------------------------------------

def test_victory_by_the_first_action_stops_before_the_second_action_and_the_automa():
    # The last bunker is destroyed by a bomb as the first action; nothing else happens.
    state = placed(board(bunkers="C3", artillery="C4"), "C3", altitude=0, hand="8D 6H", top="2D 9S")
    events = reveal_for(state, Bomb(card("8D")), "2D")
    assert state.outcome is Outcome.VICTORY and kinds(events)[-1] == "Victory"
    assert engine.chance_pending(state) is None and state.draw_pile[0] == card("9S")
    assert engine.score(state).total == 2


# -- R18, R19, R20, R21, R34: the Automa -----------------------------------------------

def test_a_suppressed_piece_does_not_fire_but_a_ready_one_does_and_damage_is_one():
    state = placed(board(artillery="C4 E3"), "C3", altitude=0, hand=PASS_HAND, top="2C")
    state.suppressed.add(C("C4"))
    events = automa(state, "2C")
    assert of(events, ArtilleryFired) == [ArtilleryFired((C("E3"),))]
    assert state.damage == 1 and of(events, Recovered) == [Recovered(C("C4"))]


def test_equal_gaps_step_along_the_column_changing_the_row():
    # Bomber C3 at alt 5; piece E5: gaps 2 columns and 2 rows, equal -> row changes: E4 (R20).
    state = placed(board(artillery="E5"), "C3", altitude=5, hand=PASS_HAND, top="2H")
    events = automa(state, "2H")
    assert of(events, ArtilleryMoved) == [ArtilleryMoved(C("E5"), C("E4"))]


def test_larger_gap_axis_is_taken():
    # Piece H4 toward bomber C3: 5 columns vs 1 row -> column changes: G4.
    state = placed(board(artillery="H4"), "C3", altitude=5, hand=PASS_HAND, top="5D")
    events = automa(state, "5D")
    assert of(events, ArtilleryMoved) == [ArtilleryMoved(C("H4"), C("G4"))]


@pytest.mark.parametrize("blocker", ["mountain", "bunker", "suppressed artillery", "fired artillery"])
def test_a_step_into_a_blocked_cell_holds(blocker):
    # Piece E5 toward the bomber at C3 (alt 5, no fire) steps to E4 (equal gaps). For a
    # piece that fired: the bomber at E1, alt 1 (reach 3): E4 fires (range 3), E5 (range 4)
    # cannot and steps toward E1, into E4, where the piece that fired stays (R20, R34).
    mountains = "E4" if blocker == "mountain" else ""
    bunkers = "E4 J10" if blocker == "bunker" else "J10"
    artillery = "E5 E4" if "artillery" in blocker else "E5"
    at, altitude = ("E1", 1) if blocker == "fired artillery" else ("C3", 5)
    state = placed(board(mountains, bunkers, artillery), at, altitude=altitude, hand=PASS_HAND,
                   top="3H")
    if blocker == "suppressed artillery":
        state.suppressed.add(C("E4"))
    events = automa(state, "3H")
    assert of(events, ArtilleryFired) == ([ArtilleryFired((C("E4"),))] if at == "E1" else [])
    assert of(events, ArtilleryHeld) == [ArtilleryHeld(C("E5"), "blocked")]
    assert not of(events, ArtilleryMoved)


def test_a_piece_takes_the_cell_another_just_left():
    # E4 and E5 toward bomber C3 (alt 5: no fire). Order: E4 then E5 (column E, rows 4, 5).
    # E4: 2 columns, 1 row -> D4. E5: 2 and 2, equal -> E4, just vacated (R34).
    state = placed(board(artillery="E5 E4"), "C3", altitude=5, hand=PASS_HAND, top="4H")
    events = automa(state, "4H")
    assert of(events, ArtilleryMoved) == [ArtilleryMoved(C("E4"), C("D4")),
                                          ArtilleryMoved(C("E5"), C("E4"))]


def test_a_later_piece_blocks_an_earlier_one_that_it_has_not_yet_left():
    # D5 before E5 (column D first). Spades toward the only bunker at J5: D5 -> E5 is taken by
    # the piece still standing there: D5 holds; E5 then moves to F5.
    state = placed(board(bunkers="J5", artillery="D5 E5"), "A1", altitude=5, hand=PASS_HAND,
                   top="6S")
    events = automa(state, "6S")
    assert of(events, ArtilleryHeld) == [ArtilleryHeld(C("D5"), "blocked")]
    assert of(events, ArtilleryMoved) == [ArtilleryMoved(C("E5"), C("F5"))]


@pytest.mark.parametrize("bunkers,step", [
    ("C5 G5", "D5"),   # both 2 away: lower column letter C
    ("E3 E7", "E4"),   # same column, both 2 away: lower row number 3
    ("D7 F3", "E6"),   # both 3 away: column D first; from E5 to D7: 1 column, 2 rows -> E6
    ("H5 E8", "E6"),   # both 3 away: column E before H, so E8: straight down the column
])
def test_spades_tie_for_the_nearest_bunker(bunkers, step):
    state = placed(board(bunkers=bunkers, artillery="E5"), "A1", altitude=5, hand=PASS_HAND,
                   top="7S")
    events = automa(state, "7S")
    assert of(events, ArtilleryMoved) == [ArtilleryMoved(C("E5"), C(step))]


def test_spades_next_to_the_nearest_bunker_hold():
    # The step would enter the bunker's own cell: a bunker blocks (R20).
    state = placed(board(bunkers="E6 J10", artillery="E5"), "A1", altitude=5, hand=PASS_HAND,
                   top="8S")
    events = automa(state, "8S")
    assert of(events, ArtilleryHeld) == [ArtilleryHeld(C("E5"), "blocked")]


def test_clubs_hold_and_a_joker_does_nothing_but_recovery():
    state = placed(board(artillery="E5 H8"), "C3", altitude=5, hand=PASS_HAND, top="9C")
    events = automa(state, "9C")
    assert not of(events, ArtilleryMoved) and state.artillery == {C("E5"), C("H8")}
    state = placed(board(artillery="C4 H8"), "C3", altitude=0, hand=PASS_HAND, top="JK")
    state.suppressed.add(C("H8"))
    events = automa(state, "JK")
    assert not of(events, ArtilleryFired) and state.damage == 0  # C4 adjacent, but a Joker: no fire
    assert of(events, Recovered) == [Recovered(C("H8"))] and not state.suppressed


def test_suppression_lasts_exactly_one_played_automa_phase():
    # Turn 1: guns at alt 4 suppress C5 (2 steps away); the Automa phase of turn 1 is played:
    # C5 is skipped (alt 4: reach 1 anyway, and it would have moved toward the bomber) and
    # recovers. Turn 2: C5 is ready and moves again.
    state = placed(board(artillery="C5"), "C3", altitude=4, hand="6H QS JS KC QC",
                   top="2H 3H 4H 5H")
    reveal_for(state, Guns(card("6H"), C("C5")), "2H")
    assert state.suppressed == {C("C5")}
    events = automa(state, "3H")
    assert not of(events, ArtilleryMoved) and not of(events, ArtilleryHeld)
    assert of(events, Recovered) == [Recovered(C("C5"))] and not state.suppressed
    # Turn 2: the hand (4 cards) draws 4H; the Automa card 5H: C5 is ready, 2 steps away
    # at reach 1 it cannot fire, and moves toward the bomber.
    engine.reveal(state, card("4H"))
    events = automa(state, "5H")
    assert not of(events, ArtilleryFired)
    assert of(events, ArtilleryMoved) == [ArtilleryMoved(C("C5"), C("C4"))]


# -- R22, R35: exhaustion ---------------------------------------------------------------

def test_a_king_played_on_an_empty_draw_pile_is_in_the_new_pile():
    # R8: the King is discarded before its replacement is drawn; the pile is empty: the
    # exhaustion reshuffles the discard pile, King included (R35), and costs 1 damage (R22).
    state = placed(board(), "C3", hand="KS 2C 3C 4C 5C")
    state.discard.extend(state.draw_pile)
    state.draw_pile.clear()
    events = engine.apply(state, Resupply(card("KS")))
    assert of(events, Reshuffled)[0].purpose == "resupply"
    assert card("KS") in state.draw_pile and state.damage == 1 and state.exhaustions == 1
    assert state.card_count() == 54


def test_second_exhaustion_at_the_automa_card_is_out_of_fuel():
    state = placed(board(), "C3", hand=PASS_HAND)
    state.discard.extend(state.draw_pile)
    state.draw_pile.clear()
    state.exhaustions = 1
    engine.apply(state, EndPhase())
    assert state.cause is DefeatCause.OUT_OF_FUEL and state.end_card_purpose == "automa"
    assert state.damage == 0  # no reshuffle damage the second time


def test_first_exhaustion_damage_at_the_last_health_point_ends_before_the_card():
    state = placed(board(), "C3", hand=PASS_HAND, damage=4)
    state.discard.extend(state.draw_pile)
    state.draw_pile.clear()
    events = engine.apply(state, EndPhase())
    assert kinds(events)[-3:] == ["Reshuffled", "Damage", "Defeat"]
    assert state.cause is DefeatCause.DAMAGE and state.end_card_purpose == "automa"
    assert not of(events, Revealed)


# -- R29, R30: Kings and passing ---------------------------------------------------------

def test_after_two_actions_a_king_may_still_be_played_then_the_phase_ends_by_itself():
    state = placed(board(), "C3", hand="2H 3H KS 4C 5C", top="6D")
    engine.apply(state, Move(card("2H"), "F"))
    engine.apply(state, Move(card("3H"), "F"))
    assert state.phase is Phase.ACTIONS  # a King is left
    refused(state, Move(card("4C"), "F"), "no-actions-left")
    engine.apply(state, Resupply(card("KS")))
    events = engine.reveal(state, card("6D"))
    assert of(events, PlayerPhaseEnded) == [PlayerPhaseEnded(PhaseEndReason.ACTIONS)]
    assert engine.chance_pending(state) == "automa"


def test_a_turn_with_a_full_hand_has_no_draw():
    state = placed(board(), "C3", hand=PASS_HAND, top="2C 3C")
    events = automa(state, "2C")
    assert of(events, TurnStarted) == [TurnStarted(2)] and state.phase is Phase.ACTIONS
    assert not of(events, Drew) and len(state.hand) == 5
