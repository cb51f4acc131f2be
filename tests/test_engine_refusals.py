"""The engine explains a refusal with structured fields (rule, code, the step, card and pile at
fault), so a caller never re-runs the engine or reads the sentence to learn them."""

from __future__ import annotations

import pytest

from bgrid.rules import engine
from bgrid.rules.actions import Move, Throttle
from bgrid.rules.errors import IllegalActionError
from bgrid.rules.events import Drew, PhaseEndReason, PlayerPhaseEnded, Revealed
from bgrid.rules.state import CardPurpose

from engine_boards import board, card, new, of, placed


def refusal(state, action) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as err:
        engine.apply(state, action)
    return err.value


def test_too_many_steps_names_the_first_step_over_the_cards_points():
    # A 3 gives 3 points: FFFF spends a fourth, the letter at index 3 (R9).
    err = refusal(placed(board(), "C3", hand="3H"), Move(card("3H"), "FFFF"))
    assert (err.code, err.rule, err.step) == ("too-many-steps", "R9", 3)


def test_a_step_after_an_exit_names_the_step_after_it():
    # From C9 facing south, F reaches C10 and the next F leaves the board: the L after it
    # (index 2) is the step that may not follow (R31).
    err = refusal(placed(board(bunkers="A5"), "C9", hand="5H"), Move(card("5H"), "FFLF"))
    assert (err.code, err.rule, err.step) == ("step-after-end", "R31", 2)


def test_a_throttled_move_counts_its_steps_with_the_bonus():
    # 9 + 2: 2 + 2 points; FFFFF spends a fifth (index 4) (R11).
    state = placed(board(bunkers="J10"), "A1", hand="9H 2H")
    err = refusal(state, Throttle(card("9H"), Move(card("2H"), "FFFFF")))
    assert (err.code, err.step) == ("too-many-steps", 4)


def test_a_card_not_held_is_named_with_the_pile_it_is_in():
    state = placed(board(), "C3", hand="2H 3H")
    state.draw_pile.remove(card("5C"))
    state.discard.append(card("5C"))
    err = refusal(state, Move(card("5C"), "F"))
    assert (err.code, err.card, err.pile) == ("not-in-hand", card("5C"), "discard pile")
    assert str(err) == "5C is not in the hand (hand: 2H 3H)"


def test_a_card_not_held_is_named_before_the_third_action():
    # Two actions played and a card the hand does not hold: the missing card is the slip.
    state = placed(board(), "C3", hand="2H", actions=2)
    err = refusal(state, Move(card("4H"), "F"))
    assert (err.code, err.card, err.pile) == ("not-in-hand", card("4H"), "draw pile")


def test_a_played_joker_not_held_is_named_as_the_physical_joker():
    err = refusal(placed(board(), "C3", hand="2H"), Move(card("JK=5H"), "F"))
    assert (err.code, err.card) == ("not-in-hand", card("JK"))


def test_a_wrong_challenge_card_carries_the_expected_one():
    state = new(board(), top="7H 2S")
    with pytest.raises(IllegalActionError) as err:
        engine.reveal(state, card("2S"))
    assert (err.value.code, err.value.rule) == ("wrong-card", "R25")
    assert (err.value.card, err.value.expected) == (card("2S"), card("7H"))


def test_an_own_deck_card_drawn_twice_names_its_pile():
    state = new(board(), own_deck=True)
    engine.reveal(state, card("7H"))  # a number card enters at once; 7H goes to the discard
    with pytest.raises(IllegalActionError) as err:
        engine.reveal(state, card("7H"))
    assert (err.value.code, err.value.card, err.value.pile) == ("card-not-in-deck", card("7H"),
                                                                "discard pile")


def test_card_purposes_and_phase_end_reasons_are_enums_equal_to_their_words():
    state = new(board(), top="7H 2S 3S 4S 5S 6S")
    events = engine.reveal(state, card("7H"))
    assert of(events, Revealed)[0].purpose is CardPurpose.ENTRY
    assert engine.chance_pending(state) is CardPurpose.DRAW and CardPurpose.DRAW == "draw"
    for c in "2S 3S 4S 5S 6S".split():
        events = engine.reveal(state, card(c))
    assert of(events, Drew)[-1].purpose is CardPurpose.DRAW
    events = engine.apply(state, engine.legal_actions(state)[-1])  # EndPhase
    assert of(events, PlayerPhaseEnded) == [PlayerPhaseEnded(PhaseEndReason.END)]


def test_entry_damage_is_fatal_only_when_it_reaches_the_health():
    # Normal difficulty: health 5; a face-card entry costs 1 (R13).
    state = new(board(), top="QS")
    engine.reveal(state, card("QS"))
    assert not engine.is_entry_damage_fatal(state)
    state.damage = 4
    assert engine.is_entry_damage_fatal(state)


def test_the_state_description_comes_in_named_parts():
    state = placed(board(), "C3", hand="2H 3H", damage=1)
    parts = state.describe_parts()
    assert list(parts) == ["turn", "where", "alt", "dmg", "hand", "draw pile"]
    assert parts["where"] == "at C3 facing S" and parts["dmg"] == "dmg 1/5"
    assert state.describe() == ", ".join(parts.values())
