"""The deck as fuel: chance nodes, deck integrity, exhaustion and reshuffle (rulebook: Deck
and Reshuffle; R8, R22, R25, R26, R35, R36)."""

import pytest

from bgrid.rules import engine
from bgrid.rules.actions import Bomb, EndPhase, Guns, Move, Resupply
from bgrid.rules.board import Cell, Facing
from bgrid.rules.cards import JOKER, parse_cards
from bgrid.rules.errors import IllegalActionError
from bgrid.rules.events import Damage, DamageCause, Defeat, Reshuffled
from bgrid.rules.state import CardPurpose, DefeatCause, Outcome, Phase

from engine_boards import RULESET, board, card, kinds, new, of, placed

C = Cell.parse


def empty_draw_pile(state, keep: str = ""):
    """Move the draw pile to the discard pile, keeping the cards ``keep`` (top first)."""
    kept = parse_cards(keep)
    for c in kept:
        state.draw_pile.remove(c)
    state.discard.extend(state.draw_pile)
    state.draw_pile[:] = kept


# -- chance nodes and deck integrity ---------------------------------------------------

def test_challenge_deck_accepts_only_the_next_card():
    state = new(board(), "7H 2C")
    with pytest.raises(IllegalActionError) as err:
        engine.reveal(state, card("2C"))
    assert err.value.rule == "R25" and err.value.code == "wrong-card"
    assert "7H" in str(err.value)
    assert state.draw_pile[:2] == [card("7H"), card("2C")]  # unchanged


def test_own_deck_accepts_any_card_of_the_draw_pile_once_per_pass():
    state = new(board(), own_deck=True)
    outcomes = engine.chance_outcomes(state)
    assert len(outcomes) == 53 and outcomes.count(JOKER) == 1  # the two Jokers are one value
    engine.reveal(state, card("4H"))
    engine.reveal(state, card("JK"))
    engine.reveal(state, card("JK"))
    with pytest.raises(IllegalActionError) as err:
        engine.reveal(state, card("JK"))  # both Jokers already drawn
    assert err.value.rule == "R22" and err.value.code == "card-not-in-deck"
    with pytest.raises(IllegalActionError) as err:
        engine.reveal(state, card("4H"))
    assert "discard pile" in str(err.value)  # the entry card went there


def test_a_revealed_card_is_never_declared():
    state = new(board(), own_deck=True)
    with pytest.raises(IllegalActionError) as err:
        engine.reveal(state, card("JK=7H"))
    assert err.value.code == "declared-reveal"


def test_no_card_is_accepted_while_the_player_decides():
    state = placed(board(), "C3", hand="2H")
    with pytest.raises(IllegalActionError) as err:
        engine.reveal(state, state.draw_pile[0])
    assert err.value.code == "no-card-expected"
    assert engine.chance_outcomes(state) == []


def test_a_play_is_refused_while_the_game_waits_for_a_card():
    state = new(board(), "7H")
    with pytest.raises(IllegalActionError) as err:
        engine.apply(state, EndPhase())
    assert err.value.code == "card-expected"


# -- exhaustion ------------------------------------------------------------------------

def test_first_exhaustion_restacks_the_discard_pile_by_reshuffle_number_and_costs_one_damage():
    # A short challenge deck: entry 7H, five draws, the Automa 8D; then the deck is out.
    deck = parse_cards("7H 2C 3C 4C 5C 6C 8D")
    numbers = [9, 3, 20, 21, 22, 23, 1]
    state = engine.new_game(board(), RULESET, "normal", deck, numbers)
    for c in deck[:6]:
        engine.reveal(state, c)
    engine.apply(state, EndPhase())
    engine.reveal(state, card("8D"))
    engine.apply(state, Move(card("2C"), "F"))
    events = engine.apply(state, EndPhase())
    assert kinds(events) == ["PlayerPhaseEnded", "Reshuffled", "Damage"]
    assert of(events, Reshuffled) == [Reshuffled(3, CardPurpose.AUTOMA)]
    assert of(events, Damage) == [Damage(1, DamageCause.EXHAUSTION, 1)]
    assert state.draw_pile == parse_cards("8D 2C 7H")  # numbers 1, 3, 9: lowest on top (R26)
    assert state.discard == [] and state.exhaustions == 1 and state.fresh_reshuffle
    assert engine.chance_outcomes(state) == [card("8D")]
    with pytest.raises(IllegalActionError) as err:
        engine.reveal(state, card("7H"))
    assert err.value.rule == "R26"
    engine.reveal(state, card("8D"))
    assert not state.fresh_reshuffle


def test_second_exhaustion_loses_the_mission_at_once():
    state = placed(board(), "C3", hand="2H")
    empty_draw_pile(state)
    state.exhaustions = 1
    events = engine.apply(state, EndPhase())
    assert kinds(events) == ["PlayerPhaseEnded", "Defeat"]
    assert of(events, Defeat) == [Defeat(DefeatCause.OUT_OF_FUEL, CardPurpose.AUTOMA)]
    assert state.outcome is Outcome.DEFEAT and state.cause is DefeatCause.OUT_OF_FUEL
    assert state.end_card_purpose == "automa"  # the log writes `automa none` (R36)
    assert state.is_over and engine.chance_pending(state) is None


def test_first_exhaustion_damage_can_end_the_mission_where_the_card_was_needed():
    state = placed(board(), "C3", hand="2H 3H 4H KS", damage=4)
    empty_draw_pile(state, keep="5D")
    engine.apply(state, Move(card("2H"), "F"))
    engine.apply(state, EndPhase())
    engine.reveal(state, card("5D"))  # the Automa card; next turn, the draw needs a card
    assert state.is_over
    assert state.cause is DefeatCause.DAMAGE and state.end_card_purpose == "draw"
    assert state.turn == 2


def test_draw_line_ends_at_the_exhaustion_mid_refill():
    # `draw 4S none`: one card left for a refill of two; the second exhaustion ends it there.
    state = placed(board(), "C3", hand="2H 3H 5C")
    empty_draw_pile(state, keep="9C 4S")
    state.exhaustions = 1
    engine.apply(state, EndPhase())
    engine.reveal(state, card("9C"))
    assert engine.chance_pending(state) == "draw"
    events = engine.reveal(state, card("4S"))
    assert kinds(events) == ["Drew", "Defeat"]
    assert state.end_card_purpose == "draw" and state.cause is DefeatCause.OUT_OF_FUEL


def test_cards_being_resolved_stay_out_of_the_new_draw_pile():
    # R35: the played 6 awaits its reveal and is not reshuffled; the discarded King is.
    state = placed(board(artillery="C5"), "C3", altitude=3, hand="6H KS 2C")
    empty_draw_pile(state, keep="QD")
    engine.apply(state, Resupply(card("KS")))
    engine.reveal(state, card("QD"))
    events = engine.apply(state, Guns(card("6H"), C("C5")))
    assert of(events, Reshuffled)[0].purpose == "guns"
    assert card("6H") not in state.draw_pile and card("6H") in state.in_play
    assert card("KS") in state.draw_pile
    assert state.card_count() == 54


def test_own_deck_reshuffle_makes_the_discard_pile_the_draw_pile():
    state = placed(board(), "C3", hand="2H", own_deck=True)
    empty_draw_pile(state)
    discarded = sorted(map(str, state.discard))
    engine.apply(state, EndPhase())
    assert sorted(map(str, state.draw_pile)) == discarded
    assert set(engine.chance_outcomes(state)) == set(state.draw_pile)
    with pytest.raises(IllegalActionError) as err:
        engine.reveal(state, card("2H"))  # still in the hand: not reshuffled
    assert err.value.code == "card-not-in-deck" and "since the reshuffle" in str(err.value)


def test_jokers_in_the_discard_pile_take_the_lowest_joker_reshuffle_numbers():
    # The two Jokers carry numbers 5 and 2; a log cannot tell which one was discarded, so
    # the one in the discard pile takes 2 (a decision where R26 is silent).
    state = engine.new_game(board(), RULESET, "normal", parse_cards("2C JK 3C 4C JK"), [4, 5, 1, 3, 2])
    state.cell, state.facing, state.phase = C("C3"), Facing.SOUTH, Phase.ACTIONS
    state.hand, state.discard, state.draw_pile = [JOKER], parse_cards("2C JK 3C 4C"), []
    engine.apply(state, EndPhase())
    assert state.draw_pile == parse_cards("3C JK 4C 2C")


def test_score_and_card_count_after_a_defeat():
    state = placed(board(), "C3", hand="2H", damage=2)
    empty_draw_pile(state)
    state.exhaustions = 1
    engine.apply(state, EndPhase())
    assert engine.score(state).total == -2
    assert state.card_count() == 54


@pytest.mark.parametrize("hand,play,purpose", [
    ("KS", Resupply(card("KS")), "resupply"),                 # resupply KS -> none
    ("6H", Guns(card("6H"), C("C5")), "guns"),                # guns 6H C5 -> none
    ("7H", Bomb(card("7H")), "bomb"),                         # bomb 7H -> none
    ("2H", Move(card("2H"), "F"), "entry"),                   # exit at C10; turn 2: enter none
])
def test_the_purpose_of_the_card_that_was_needed_when_fuel_runs_out(hand, play, purpose):
    game_map = board(bunkers="C10 A9 B9 D9 E9 F9", artillery="C5")
    state = placed(game_map, "C10" if purpose in ("bomb", "entry") else "C3", "S", altitude=3, hand=hand)
    empty_draw_pile(state)
    state.exhaustions = 1
    events = engine.apply(state, play)
    assert of(events, Defeat) == [Defeat(DefeatCause.OUT_OF_FUEL, CardPurpose(purpose))]
    assert state.end_card_purpose == purpose
    assert state.turn == (2 if purpose == "entry" else 1)
    assert state.card_count() == 54
