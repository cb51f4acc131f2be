"""The Automa phase (rulebook: Enemy Phase, Suppression; R18–R21, R34)."""

import random

import pytest

from bgrid.rules import automa, engine
from bgrid.rules.actions import EndPhase, Guns, Move
from bgrid.rules.automa import in_column_then_row
from bgrid.rules.board import CELLS, Cell
from bgrid.rules.events import (ArtilleryFired, ArtilleryHeld, ArtilleryMoved, Damage, Discarded,
                                Recovered, TurnStarted)
from bgrid.rules.state import COLUMN_THEN_ROW, DefeatCause, Outcome, Phase

from engine_boards import board, card, kinds, of, placed

C = Cell.parse
FAR_BUNKERS = "A10 B10 C10 D10 E10 F10"


def automa_turn(game_map, at, altitude, automa_card, *, damage=0, facing="S"):
    """The bomber at ``at``; the player passes; the Automa card is revealed."""
    state = placed(game_map, at, facing, altitude=altitude, hand="KS QS JS KC QC",
                   top=automa_card, damage=damage)
    engine.apply(state, EndPhase())
    assert engine.chance_pending(state) == "automa"
    return state, engine.reveal(state, card(automa_card))


@pytest.mark.parametrize("altitude,piece,fires", [
    (4, "C4", True), (4, "C5", False), (5, "C4", True), (5, "C5", False),
    (3, "C4", True), (2, "C5", True), (2, "C6", False), (0, "C7", True), (0, "C8", False),
    (0, "G3", True), (0, "H3", False), (4, "C3", True), (0, "D4", False)])
def test_artillery_fires_within_four_minus_altitude_at_least_one(altitude, piece, fires):
    state, events = automa_turn(board(artillery=piece), "C3", altitude, "2C")
    assert bool(of(events, ArtilleryFired)) == fires
    assert state.damage == (1 if fires else 0)


def test_a_mountain_between_blocks_the_fire():
    state, events = automa_turn(board("C5", artillery="C6"), "C3", 0, "2C")
    assert not of(events, ArtilleryFired) and state.damage == 0


def test_saturation_cap_one_damage_however_many_fire():
    state, events = automa_turn(board(artillery="D3 C4 B3 C2"), "C3", 4, "2C")
    assert of(events, ArtilleryFired) == [ArtilleryFired((C("B3"), C("C2"), C("C4"), C("D3")))]
    assert of(events, Damage)[0].amount == 1 and state.damage == 1


def test_fire_damage_can_end_the_mission_before_any_movement():
    state, events = automa_turn(board(artillery="C4 H8"), "C3", 4, "2H", damage=4)
    assert state.outcome is Outcome.DEFEAT and state.cause is DefeatCause.DAMAGE
    assert kinds(events)[-1] == "Defeat" and not of(events, ArtilleryMoved)


@pytest.mark.parametrize("piece,bomber,step", [
    ("F5", "C3", "E5"),   # column gap 3 > row gap 2: along the row
    ("E6", "C3", "E5"),   # row gap 3 > column gap 2: along the column
    ("E5", "C3", "E4"),   # equal gaps: along the column, changing the row (R20)
    ("A9", "C3", "A8"),
    ("H1", "C3", "G1"),
])
def test_hearts_and_diamonds_move_one_step_toward_the_bomber(piece, bomber, step):
    for suit in "HD":
        state, events = automa_turn(board(artillery=piece), bomber, 4, "2" + suit)
        assert of(events, ArtilleryMoved) == [ArtilleryMoved(C(piece), C(step))]
        assert state.artillery == {C(step)}


def test_clubs_hold():
    state, events = automa_turn(board(artillery="F5 H8"), "C3", 4, "9C")
    assert of(events, ArtilleryHeld) == [ArtilleryHeld(C("F5"), "hold"), ArtilleryHeld(C("H8"), "hold")]
    assert state.artillery == {C("F5"), C("H8")}


@pytest.mark.parametrize("bunkers,step", [
    ("E8 H5", "E6"),     # both 3 away: the lower column letter (E)
    ("E2 E8", "E4"),     # both 3 away in one column: the lower row number
    ("J5 A1", "F5"),     # J5 is 5 away, A1 is 8
])
def test_spades_move_toward_the_nearest_surviving_bunker(bunkers, step):
    state, events = automa_turn(board(bunkers=bunkers, artillery="E5"), "A10", 4, "2S")
    assert of(events, ArtilleryMoved) == [ArtilleryMoved(C("E5"), C(step))]


def test_spades_hold_when_no_bunker_is_left():
    state = placed(board(artillery="E5"), "A10", altitude=4)
    state.bunkers = set()
    events = []
    state.in_play.append(card("2S"))
    state.draw_pile.remove(card("2S"))
    automa.resolve_automa(state, card("2S"), events)
    assert of(events, ArtilleryHeld) == [ArtilleryHeld(C("E5"), "no-bunker")]


@pytest.mark.parametrize("game_map,bomber,piece", [
    (board("E3", artillery="F3"), "C3", "F3"),                               # a mountain
    (board(bunkers="E3 " + FAR_BUNKERS[4:], artillery="F3"), "C3", "F3"),    # a bunker
    (board(artillery="E3 F3"), "H3", "E3"),  # E3 moves first (column order) into F3: held
])
def test_a_step_into_a_mountain_bunker_or_artillery_holds(game_map, bomber, piece):
    state, events = automa_turn(game_map, bomber, 5, "2H")
    assert ArtilleryHeld(C(piece), "blocked") in of(events, ArtilleryHeld)
    assert C(piece) in state.artillery


def test_craters_and_destroyed_cells_do_not_block():
    state = placed(board(artillery="F3"), "C3", altitude=5, hand="2C", top="2H")
    state.craters, state.destroyed = {C("E3")}, {C("E3")}
    engine.apply(state, EndPhase())
    events = engine.reveal(state, card("2H"))
    assert of(events, ArtilleryMoved) == [ArtilleryMoved(C("F3"), C("E3"))]


def test_pieces_move_in_column_then_row_order_against_positions_at_that_moment():
    # Toward the bomber at C1: C6 moves first to C5, then C7 takes the cell C6 just left.
    state, events = automa_turn(board(artillery="C7 C6"), "C1", 5, "3D")
    assert of(events, ArtilleryMoved) == [ArtilleryMoved(C("C6"), C("C5")), ArtilleryMoved(C("C7"), C("C6"))]
    # Toward the bunker at C10: C6 goes first and is blocked by C7, which then moves on.
    state, events = automa_turn(board(bunkers="C10", artillery="C7 C6"), "A1", 5, "3S")
    assert of(events, ArtilleryHeld) == [ArtilleryHeld(C("C6"), "blocked")]
    assert of(events, ArtilleryMoved) == [ArtilleryMoved(C("C7"), C("C8"))]


def test_pieces_that_fired_do_not_move():
    state, events = automa_turn(board(artillery="C4 H8"), "C3", 4, "2H")
    assert of(events, ArtilleryFired) == [ArtilleryFired((C("C4"),))]
    assert of(events, ArtilleryMoved) == [ArtilleryMoved(C("H8"), C("H7"))]


def test_a_joker_automa_card_means_no_fire_and_no_movement():
    state, events = automa_turn(board(artillery="C4 H8"), "C3", 4, "JK")
    assert kinds(events) == ["Revealed", "Discarded", "TurnStarted"]
    assert state.damage == 0 and state.artillery == {C("C4"), C("H8")}


def test_suppressed_pieces_skip_the_next_automa_phase_and_recover_at_step_four():
    state = placed(board(artillery="C4 C7"), "C3", altitude=4, hand="6H 6D", top="5H 8H")
    engine.apply(state, Guns(card("6H"), C("C4")))
    engine.reveal(state, card("5H"))  # red at altitude 4: suppressed
    assert state.suppressed == {C("C4")}
    engine.apply(state, EndPhase())
    events = engine.reveal(state, card("8H"))
    assert not of(events, ArtilleryFired)  # C4 is adjacent but suppressed; C7 is out of range
    assert of(events, ArtilleryMoved) == [ArtilleryMoved(C("C7"), C("C6"))]  # C4 does not move
    assert of(events, Recovered) == [Recovered(C("C4"))]
    assert kinds(events)[-3:] == ["Recovered", "Discarded", "TurnStarted"]
    assert state.suppressed == set()


def test_suppressed_pieces_recover_on_a_joker_too():
    state = placed(board(artillery="C4"), "C3", altitude=4, hand="2H", top="JK")
    state.suppressed = {C("C4")}
    engine.apply(state, EndPhase())
    events = engine.reveal(state, card("JK"))
    assert of(events, Recovered) == [Recovered(C("C4"))]


def test_suppression_outlasts_a_turn_the_bomber_spends_off_the_map():
    state = placed(board(artillery="B4"), "B3", altitude=4, hand="6H 2D", facing="W",
                   top="5H 3D 2C 4C 5C 7C 8C 9H")
    engine.apply(state, Guns(card("6H"), C("B4")))
    engine.reveal(state, card("5H"))
    engine.apply(state, Move(card("2D"), "FF"))  # B3 -> A3 -> off the western edge
    assert state.cell is None  # no Automa phase this turn, and it does not count (R21)
    assert state.suppressed == {C("B4")}
    for name in "3D 2C 4C 5C 7C 8C".split():  # enter at C1, draw five
        engine.reveal(state, card(name))
    engine.apply(state, EndPhase())
    events = engine.reveal(state, card("9H"))  # Hearts: B4 would step toward C1 if ready
    assert not of(events, ArtilleryMoved)
    assert of(events, Recovered) == [Recovered(C("B4"))] and state.suppressed == set()


def test_the_automa_card_is_revealed_even_with_no_artillery_left():
    state, events = automa_turn(board(), "C3", 4, "4C")
    assert of(events, Discarded) == [Discarded((card("4C"),))]
    assert of(events, TurnStarted) == [TurnStarted(2)]
    assert state.phase is Phase.ACTIONS  # the player passed holding 5 cards: no draw (R30)


def test_in_column_then_row_sorts_as_the_key_table_does():
    rng = random.Random(34)
    for size in range(0, 12):
        cells = {CELLS[i] for i in rng.sample(range(100), size)}
        assert in_column_then_row(cells) == sorted(cells, key=COLUMN_THEN_ROW.__getitem__)
    assert [str(c) for c in in_column_then_row({C("B1"), C("A10"), C("A2")})] == ["A2", "A10", "B1"]


@pytest.mark.parametrize("at,altitude,artillery,mountains", [
    ("C3", 4, "C5 E6 H2 A9", ""), ("E5", 0, "E7 B5 G8 J1", "F7 E6"), ("D4", 2, "D6 F4 B2", "D5"),
    ("J10", 3, "A1 A2 B1", "")])
def test_artillery_after_each_is_where_each_automa_card_leaves_the_pieces(at, altitude, artillery,
                                                                            mountains):
    # the look-ahead of the dead-hand search against the Automa phase itself (R18-R20, R34):
    # a Heart moves the pieces toward the bomber, a Spade toward the nearest bunker
    game_map = board(mountains=mountains, bunkers="A10 C10 F10 H8", artillery=artillery)
    state = placed(game_map, at, altitude=altitude, hand="KS QS JS KC QC")
    played = {}
    for move, automa_card in (("toward-bomber", "2H"), ("toward-bunker", "2S")):
        after = state.copy()
        after.in_play.append(card(automa_card))
        automa.resolve_automa(after, card(automa_card), [])
        played[move] = after.artillery
    assert automa.artillery_after_each(state, ["toward-bomber", "toward-bunker"]) == [
        played["toward-bomber"], played["toward-bunker"]]
    assert automa.artillery_after(state, "toward-bunker") == played["toward-bunker"]
