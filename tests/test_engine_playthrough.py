"""Two turns of the seed-1944 challenge mission, worked out by hand from the rulebook and
the rulings, replayed through the engine event by event.

Map (see test_mission_golden.py): mountains I5 I6 I7 J3 J4 J5; bunkers E2 G1 B3 I4 G3 H4;
artillery H7 A10 D6 C5. Challenge deck, top first: 7S JC 6H 2H QC KS 10D JD 9C 2D 10S JS 9D …
"""

from bgrid.rules import engine
from bgrid.rules.actions import Altitude, Move, Resupply, Throttle
from bgrid.rules.board import Cell, Facing
from bgrid.rules.events import (AltitudeChanged, ArtilleryHeld, ArtilleryMoved, Discarded, Drew,
                                Entered, Moved, Played, PhaseEndReason, PlayerPhaseEnded, Revealed,
                                TurnStarted)
from bgrid.rules.state import CardPurpose
from bgrid.challenges.mission import mission_from_seed

from engine_boards import card

C = Cell.parse


def test_seed_1944_first_two_turns_by_hand():
    mission = mission_from_seed(1944)
    assert [str(c) for c in mission.deck[:13]] == "7S JC 6H 2H QC KS 10D JD 9C 2D 10S JS 9D".split()
    state = mission.start(True)

    # Turn 1. Entry 7S: column G, G1 facing south at altitude 4 (G1 holds a bunker: no matter).
    assert engine.reveal(state, card("7S")) == [
        Revealed(card("7S"), CardPurpose.ENTRY), Entered(C("G1"), Facing.SOUTH, 4, False, None),
        Discarded((card("7S"),))]
    for name in "JC 6H 2H QC KS".split():
        assert engine.reveal(state, card(name)) == [Drew(card(name), CardPurpose.DRAW)]
    # A King first (not an action), then Q of clubs: down 2 to altitude 2; then 2 of hearts FF.
    assert engine.apply(state, Resupply(card("KS"))) == [Played(Resupply(card("KS"))),
                                                         Discarded((card("KS"),))]
    assert engine.reveal(state, card("10D")) == [Drew(card("10D"), CardPurpose.RESUPPLY)]
    assert engine.apply(state, Altitude(card("QC"))) == [
        Played(Altitude(card("QC"))), AltitudeChanged(4, 2), Discarded((card("QC"),))]
    # Two actions and no King or Joker left in JC 6H 10D: the phase ends by itself.
    assert engine.apply(state, Move(card("2H"), "FF")) == [
        Played(Move(card("2H"), "FF")), Moved(C("G1"), (C("G2"), C("G3")), Facing.SOUTH, False, False),
        Discarded((card("2H"),)), PlayerPhaseEnded(PhaseEndReason.ACTIONS)]
    # Automa JD (Diamonds: toward the bomber at G3). Altitude 2: reach 2, but no piece shares
    # row 3 or column G, so none fires. Order by column: A10, C5, D6, H7.
    #   A10: gaps 6 columns, 7 rows -> along the column: A9.
    #   C5:  gaps 4 columns, 2 rows -> along the row: D5.
    #   D6:  gaps 3 and 3 -> equal: along the column to D5, which C5 has just taken: held.
    #   H7:  gaps 1 and 4 -> H6.
    assert engine.reveal(state, card("JD")) == [
        Revealed(card("JD"), CardPurpose.AUTOMA),
        ArtilleryMoved(C("A10"), C("A9")), ArtilleryMoved(C("C5"), C("D5")),
        ArtilleryHeld(C("D6"), "blocked"), ArtilleryMoved(C("H7"), C("H6")),
        Discarded((card("JD"),)), TurnStarted(2)]
    assert state.damage == 0 and state.discard == [card(c) for c in "7S KS QC 2H JD".split()]

    # Turn 2: the hand JC 6H 10D draws 9C 2D. Throttle 9C + 10D: up 3 to altitude 5.
    engine.reveal(state, card("9C"))
    engine.reveal(state, card("2D"))
    assert engine.apply(state, Throttle(card("9C"), Altitude(card("10D")))) == [
        Played(Throttle(card("9C"), Altitude(card("10D")))), AltitudeChanged(2, 5),
        Discarded((card("9C"), card("10D"))), PlayerPhaseEnded(PhaseEndReason.THROTTLE)]
    # Automa 10S (Spades: toward the nearest bunker). Altitude 5: reach 1, nobody adjacent.
    #   A9: nearest B3 (7) -> A8.   D5: E2 and B3 both 4, lower column B3 -> equal gaps: D4.
    #   D6: E2 and B3 both 5 -> B3 -> D5 (just left by the D5 piece).   H6: H4 (2) -> H5.
    assert engine.reveal(state, card("10S")) == [
        Revealed(card("10S"), CardPurpose.AUTOMA),
        ArtilleryMoved(C("A9"), C("A8")), ArtilleryMoved(C("D5"), C("D4")),
        ArtilleryMoved(C("D6"), C("D5")), ArtilleryMoved(C("H6"), C("H5")),
        Discarded((card("10S"),)), TurnStarted(3)]
    assert state.artillery == {C("A8"), C("D4"), C("D5"), C("H5")}
    assert (state.cell, state.facing, state.altitude, state.damage) == (C("G3"), Facing.SOUTH, 5, 0)
    assert state.hand == [card(c) for c in "JC 6H 2D".split()] and engine.chance_pending(state) == "draw"
    assert engine.chance_outcomes(state) == [card("JS")]
