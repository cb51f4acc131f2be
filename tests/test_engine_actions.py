"""Altitude cards, crashes, Throttle, Kings and the shape of the action step
(rulebook: Altitude, Throttle, Resupply; R6, R7, R10–R12, R29, R30, R33)."""

import pytest

from bgrid.rules import engine
from bgrid.rules.actions import Altitude, Bomb, EndPhase, Guns, Move, Resupply, Throttle
from bgrid.rules.board import Cell
from bgrid.rules.errors import IllegalActionError
from bgrid.rules.events import AltitudeChanged, Discarded, Drew
from bgrid.rules.state import CardPurpose, DefeatCause, Outcome, Phase

from engine_boards import board, card, kinds, of, placed, snapshot

C = Cell.parse


@pytest.mark.parametrize("name,start,end", [
    ("10H", 3, 4), ("JD", 0, 1), ("10S", 3, 2), ("JC", 5, 4), ("QH", 3, 5), ("QS", 2, 0)])
def test_altitude_card_colour_sets_the_direction(name, start, end):
    state = placed(board(), "C3", altitude=start, hand=name)
    events = engine.apply(state, Altitude(card(name)))
    assert of(events, AltitudeChanged) == [AltitudeChanged(start, end)]
    assert state.altitude == end


@pytest.mark.parametrize("name,start", [("10H", 5), ("QH", 4), ("JS", 0), ("QC", 1)])
def test_altitude_card_that_would_pass_a_limit_cannot_be_played(name, start):
    state = placed(board(), "C3", altitude=start, hand=name)
    with pytest.raises(IllegalActionError) as err:
        engine.apply(state, Altitude(card(name)))
    assert err.value.rule == "R7" and err.value.code == "altitude-limit"
    assert Altitude(card(name)) not in engine.legal_actions(state)


def test_descending_below_four_in_a_mountain_cell_is_a_crash():
    state = placed(board("C3"), "C3", altitude=4, hand="10S 2H")
    assert Altitude(card("10S")) in engine.legal_actions(state)  # R33: legal, and fatal
    events = engine.apply(state, Altitude(card("10S")))
    assert kinds(events)[-1] == "Defeat"
    assert state.outcome is Outcome.DEFEAT and state.cause is DefeatCause.CRASH
    assert state.is_over and engine.legal_actions(state) == []


def test_descending_to_four_in_a_mountain_cell_is_safe():
    state = placed(board("C3"), "C3", altitude=5, hand="JS")
    engine.apply(state, Altitude(card("JS")))
    assert state.outcome is None and state.altitude == 4


def test_throttle_with_an_altitude_card_moves_three_or_four():
    state = placed(board(), "C3", altitude=1, hand="9C JH", top="2C")
    engine.apply(state, Throttle(card("9C"), Altitude(card("JH"))))
    assert state.altitude == 4
    state = placed(board(), "C3", altitude=5, hand="9C QS", top="2C")
    engine.apply(state, Throttle(card("9C"), Altitude(card("QS"))))
    assert state.altitude == 1
    state = placed(board(), "C3", altitude=3, hand="9C QS")
    with pytest.raises(IllegalActionError) as err:  # 3 - 4 < 0
        engine.apply(state, Throttle(card("9C"), Altitude(card("QS"))))
    assert err.value.code == "altitude-limit"


def test_throttle_is_only_the_first_action():
    state = placed(board(), "C3", altitude=3, hand="9C JH 2H 3H")
    engine.apply(state, Move(card("2H"), "F"))
    with pytest.raises(IllegalActionError) as err:
        engine.apply(state, Throttle(card("9C"), Move(card("3H"), "F")))
    assert err.value.rule == "R11" and err.value.code == "throttle-not-first"
    assert not any(isinstance(a, Throttle) for a in engine.legal_actions(state))


def test_throttle_pair_ends_the_player_phase_with_a_king_in_hand():
    state = placed(board(), "C3", altitude=1, hand="9C JH KH", top="2C")
    events = engine.apply(state, Throttle(card("9C"), Altitude(card("JH"))))
    assert of(events, Discarded) == [Discarded((card("9C"), card("JH")))]
    assert state.phase is Phase.AUTOMA_REVEAL
    with pytest.raises(IllegalActionError):
        engine.apply(state, Resupply(card("KH")))


def test_a_nine_pairs_only_with_movement_or_altitude():
    state = placed(board(), "C3", altitude=3, hand="9C 6H 9D")
    with pytest.raises(IllegalActionError) as err:
        engine.apply(state, Throttle(card("9C"), Move(card("6H"), "F")))
    assert err.value.code == "wrong-card-kind"
    with pytest.raises(IllegalActionError):
        engine.apply(state, Move(card("9D"), "F"))  # a 9 is never played alone (R7)


def test_two_actions_then_the_phase_ends_by_itself():
    state = placed(board(), "C3", altitude=3, hand="2H 3H 4H", top="5C")
    engine.apply(state, Move(card("2H"), "F"))
    assert state.phase is Phase.ACTIONS
    events = engine.apply(state, Move(card("3H"), "F"))
    assert kinds(events)[-1] == "PlayerPhaseEnded"
    assert state.phase is Phase.AUTOMA_REVEAL


def test_a_king_can_still_be_played_after_two_actions():
    state = placed(board(), "C3", altitude=3, hand="2H 3H KS", top="4D 5C")
    engine.apply(state, Move(card("2H"), "F"))
    engine.apply(state, Move(card("3H"), "F"))
    assert state.phase is Phase.ACTIONS  # R29: until the Automa card
    assert engine.legal_actions(state) == [Resupply(card("KS")), EndPhase()]
    with pytest.raises(IllegalActionError) as err:
        engine.apply(state, Move(card("4H"), "F"))
    assert err.value.code in ("no-actions-left", "not-in-hand")
    events = engine.apply(state, Resupply(card("KS")))
    assert of(events, Discarded) == [Discarded((card("KS"),))]  # R8: before the draw
    assert state.discard[-1] == card("KS") and engine.chance_pending(state) == "resupply"
    events = engine.reveal(state, card("4D"))
    assert of(events, Drew) == [Drew(card("4D"), CardPurpose.RESUPPLY)]
    assert kinds(events)[-1] == "PlayerPhaseEnded"  # two actions and no King left
    assert state.hand == [card("4D")]


def test_a_king_is_not_an_action_and_several_may_be_played():
    state = placed(board(), "C3", altitude=3, hand="KS KH 2H", top="3D 4D")
    engine.apply(state, Resupply(card("KS")))
    engine.reveal(state, card("3D"))
    engine.apply(state, Resupply(card("KH")))
    engine.reveal(state, card("4D"))
    assert state.actions == 0 and sorted(map(str, state.hand)) == ["2H", "3D", "4D"]


def test_a_joker_can_be_a_king_or_a_throttle():
    state = placed(board(), "C3", altitude=3, hand="JK 2H", top="3D")
    engine.apply(state, Resupply(card("JK=KD")))
    assert state.discard == [card("JK")]
    engine.reveal(state, card("3D"))
    state = placed(board(), "C1", altitude=3, hand="JK 2H")
    engine.apply(state, Throttle(card("JK=9S"), Move(card("2H"), "FFFF")))
    assert state.cell == C("C5")


def test_two_jokers_make_a_throttle_pair():
    state = placed(board(), "C1", altitude=3, hand="JK JK")
    throttles = [a for a in engine.legal_actions(state) if isinstance(a, Throttle)]
    assert Throttle(card("JK=9H"), Move(card("JK=5H"), "FFFFFFF")) in throttles
    engine.apply(state, Throttle(card("JK=9H"), Move(card("JK=5C"), "FFFFFFF")))
    assert state.cell == C("C8") and state.discard == [card("JK"), card("JK")]


def test_one_joker_cannot_be_both_cards_of_a_pair():
    state = placed(board(), "C1", altitude=3, hand="JK 2H")
    with pytest.raises(IllegalActionError) as err:
        engine.apply(state, Throttle(card("JK=9H"), Move(card("JK=5H"), "F")))
    assert err.value.code == "not-in-hand"


def test_an_undeclared_joker_cannot_be_played():
    state = placed(board(), "C1", altitude=3, hand="JK")
    with pytest.raises(IllegalActionError) as err:
        engine.apply(state, Move(card("JK"), "F"))
    assert err.value.rule == "R12"


def test_joker_declarations_are_collapsed_to_distinct_effects():
    state = placed(board(bunkers="C3 B10 C10 D10 E10 F10"), "C3", altitude=2, hand="JK")
    names = {str(a.card) for a in engine.legal_actions(state) if isinstance(a, (Altitude, Bomb))}
    assert names == {"JK=10H", "JK=10S", "JK=QH", "JK=QS", "JK=7H"}  # an Ace bombs like a 7 at 0-2
    state.altitude = 3
    names = {str(a.card) for a in engine.legal_actions(state) if isinstance(a, Bomb)}
    assert names == {"JK=7H", "JK=AH"}
    assert {str(a.card) for a in engine.legal_actions(state) if isinstance(a, Move)} == {"JK=5H"}


def test_a_card_not_in_hand_is_refused_and_nothing_changes():
    state = placed(board(), "C3", altitude=3, hand="2H")
    before = snapshot(state)
    with pytest.raises(IllegalActionError) as err:
        engine.apply(state, Move(card("3H"), "F"))
    assert err.value.code == "not-in-hand"
    assert snapshot(state) == before


def test_passing_with_no_action_goes_to_the_automa():
    state = placed(board(), "C3", altitude=3, hand="2H", top="5C")
    events = engine.apply(state, EndPhase())
    assert kinds(events) == ["PlayerPhaseEnded"]
    assert engine.chance_pending(state) == "automa"


def test_every_listed_action_passes_the_check_and_plays_without_error():
    state = placed(board("D4", bunkers="C3 B10 C10 D10 E10 F10", artillery="C5 F3"), "C3",
                   altitude=3, hand="JK 9C 6H 7S KH")
    actions = engine.legal_actions(state)
    assert {type(a) for a in actions} == {Move, Altitude, Guns, Bomb, Throttle, Resupply, EndPhase}
    for action in actions:
        engine.check_action(state, action)
        engine.apply(state.copy(), action)


def test_no_king_during_the_draw():
    # R29: Kings are played in the action step only, after the hand is refilled to 5.
    state = placed(board(), "C3", altitude=3, hand="KS 2H", top="5C 3D")
    engine.apply(state, EndPhase())
    engine.reveal(state, card("5C"))  # Automa; turn 2 starts with the draw
    assert engine.chance_pending(state) == "draw"
    with pytest.raises(IllegalActionError) as err:
        engine.apply(state, Resupply(card("KS")))
    assert err.value.code == "card-expected"
    assert engine.legal_actions(state) == []
