"""A state prints a serialised form that reads back to an equal state, and two states are
equal exactly when every part of them is (python-chess's fen(), OpenSpiel's serialize)."""

from __future__ import annotations

import pytest

from bgrid.rules import engine
from bgrid.rules.actions import Guns, Move
from bgrid.rules.board import Cell, Facing
from bgrid.rules.errors import NotationError
from bgrid.challenges.mission import mission_from_seed
from bgrid.players.playout import random_action, random_card, start_state
from bgrid.challenges.seeding import stream
from bgrid.rules.state import GameState, Phase

from engine_boards import board, card, placed


def test_a_played_position_equals_the_one_built_by_hand():
    # From C3 facing south at altitude 4, 3H with FRF: C4, turn to face west, B4 (R9).
    played = placed(board(), "C3", hand="3H 2S")
    engine.apply(played, Move(card("3H"), "FRF"))
    by_hand = placed(board(), "B4", facing="W", hand="3H 2S", actions=1)
    by_hand.hand.remove(card("3H"))
    by_hand.discard.append(card("3H"))  # R8: a played card goes to the discard pile
    assert played == by_hand
    by_hand.altitude = 3
    assert played != by_hand


def test_equality_sees_the_order_of_the_draw_pile():
    one = placed(board(), "C3", hand="2S", top="7H 8H")
    other = placed(board(), "C3", hand="2S", top="8H 7H")
    assert one != other
    assert one == placed(board(), "C3", hand="2S", top="7H 8H")


def test_the_serialised_form_names_cards_and_cells_in_log_notation():
    state = placed(board(artillery="C6"), "C3", hand="6H JK")
    engine.apply(state, Guns(card("6H"), Cell.parse("C6")))  # awaits its reveal
    text = state.serialize()
    assert '"cell":"C3"' in text and '"hand":"JK"' in text and '"pending":"guns 6H C6"' in text
    back = GameState.from_serialized(text)
    assert back == state and back.pending == Guns(card("6H"), Cell.parse("C6"))
    assert back.facing is Facing.SOUTH and back.phase is Phase.RESOLVE_REVEAL


@pytest.mark.parametrize("challenge", [False, True])
def test_every_state_of_random_missions_reads_back_equal(challenge):
    for k in range(4):
        state = start_state(mission_from_seed(100 + k), challenge)
        rng = stream("standard-1", f"serialise-{k}", 0)
        while True:
            back = GameState.from_serialized(state.serialize())
            assert back == state and back.serialize() == state.serialize()
            if state.is_over:
                break
            if engine.chance_pending(state):
                engine.reveal(state, random_card(state, rng))
            else:
                engine.apply(state, random_action(state, rng))


def test_a_copy_is_equal_and_independent():
    state = placed(board(), "C3", hand="2S 3S")
    twin = state.copy()
    assert twin == state
    twin.hand.pop()
    assert twin != state


def test_text_that_is_no_state_is_a_notation_error():
    with pytest.raises(NotationError):
        GameState.from_serialized('{"ruleset": "standard-1"}')
    with pytest.raises(NotationError):
        GameState.from_serialized("not json")
