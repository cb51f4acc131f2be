"""Card notation (log-format: Lexical), colours and the R1 column/row mapping."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgrid.rules.cards import FULL_DECK, JOKER, Card, Suit
from bgrid.rules.errors import BGridError, NotationError

RANK_NAMES = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUIT_SPELLINGS = {
    "H": ["H", "h", "♥", "♡", "♥\ufe0f", "♡\ufe0f"],
    "D": ["D", "d", "♦", "♢", "♦\ufe0f", "♢\ufe0f"],
    "C": ["C", "c", "♣", "♧", "♣\ufe0f", "♧\ufe0f"],
    "S": ["S", "s", "♠", "♤", "♠\ufe0f", "♤\ufe0f"],
}


def test_full_deck_is_52_distinct_cards_and_two_jokers():
    assert len(FULL_DECK) == 54
    plain = [c for c in FULL_DECK if not c.is_joker]
    assert len(plain) == 52 and len(set(plain)) == 52
    assert [c for c in FULL_DECK if c.is_joker] == [JOKER, JOKER]
    assert {str(c) for c in plain} == {r + s for r in RANK_NAMES for s in "HDCS"}


@pytest.mark.parametrize("card", FULL_DECK, ids=str)
def test_every_card_round_trips(card):
    assert Card.parse(str(card)) == card
    assert Card.parse(card.pretty) == card
    assert eval(repr(card), {"Card": Card}) == card


@pytest.mark.parametrize("rank", RANK_NAMES)
@pytest.mark.parametrize("suit", "HDCS")
def test_every_spelling_of_every_card(rank, suit):
    expected = f"{rank}{suit}"
    ranks = [rank, rank.lower()] + (["T", "t"] if rank == "10" else [])
    for r in ranks:
        for s in SUIT_SPELLINGS[suit]:
            assert str(Card.parse(r + s)) == expected, repr(r + s)


def test_ten_is_written_10_and_read_as_t():
    assert str(Card.parse("TH")) == "10H"
    assert Card.parse("TH") == Card.parse("10H") == Card(10, Suit.HEARTS)


@pytest.mark.parametrize("token", ["JK", "jk", "Jk", " JK "])
def test_joker_spellings(token):
    card = Card.parse(token)
    assert card == JOKER and card.is_joker and card.declared is None
    assert str(card) == "JK"


@pytest.mark.parametrize("token,declared", [
    ("JK=7H", "7H"), ("jk=7h", "7H"), ("JK=T♠", "10S"), ("JK=10♠\ufe0f", "10S"),
    ("JK=QD", "QD"), ("JK=as", "AS"),
])
def test_declared_joker(token, declared):
    card = Card.parse(token)
    assert card.is_joker and str(card.declared) == declared
    assert str(card) == f"JK={declared}"
    assert Card.parse(str(card)) == card
    assert card.acting == Card.parse(declared)  # R12: it is that card for every purpose
    assert card.physical == JOKER  # but it is a plain Joker in the piles


def test_declared_joker_takes_the_colour_of_its_declaration():
    assert Card.parse("JK=7H").is_red and not Card.parse("JK=7H").is_black
    assert Card.parse("JK=7S").is_black and not Card.parse("JK=7S").is_red


def test_declare_builds_the_same_card_as_parsing():
    assert JOKER.declare("7H") == Card.parse("JK=7H")
    with pytest.raises(NotationError):
        Card.parse("7H").declare("8H")


@pytest.mark.parametrize("token", ["1H", "11H", "JK=JK", "7H=3", "", "ZZ", "10X", "JK=", "JKX",
                                   "H", "10", "7HH", "0S", "JK=7", "QQ"])
def test_bad_tokens_raise_notation_error_naming_the_token(token):
    with pytest.raises(NotationError) as info:
        Card.parse(token)
    error = info.value
    assert isinstance(error, BGridError)
    assert f"'{token}'" in str(error)
    assert error.token == token


@pytest.mark.parametrize("token", ["1H", "11H", "ZZ", "10X", "", "QQ"])
def test_bad_card_message_says_what_was_expected(token):
    with pytest.raises(NotationError, match="expected a rank A 2-10 J Q K"):
        Card.parse(token)


def test_joker_declared_as_joker_cites_r12():
    with pytest.raises(NotationError, match="R12"):
        Card.parse("JK=JK")


def test_declaration_on_a_plain_card_is_refused():
    with pytest.raises(NotationError, match="only a Joker"):
        Card.parse("7H=3")


@pytest.mark.parametrize("suit,red", [("H", True), ("D", True), ("C", False), ("S", False)])
def test_colour(suit, red):
    for rank in RANK_NAMES:
        card = Card.parse(rank + suit)
        assert card.is_red is red and card.is_black is (not red)


def test_plain_joker_has_no_colour():
    assert not JOKER.is_red and not JOKER.is_black


@pytest.mark.parametrize("rank,letter", list(zip(RANK_NAMES[:10], "ABCDEFGHIJ", strict=True)))
def test_r1_column_and_row_of_number_cards(rank, letter):
    card = Card.parse(rank + "C")
    assert "ABCDEFGHIJ"[card.column] == letter
    assert card.row == RANK_NAMES.index(rank) + 1
    assert card.is_number and not card.is_face


@pytest.mark.parametrize("token", ["JH", "QD", "KC", "KS", "JK"])
def test_r1_face_cards_and_jokers_give_no_cell(token):
    card = Card.parse(token)
    assert card.column is None and card.row is None and not card.is_number


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("AJKQT0123456789HDCSjkhdcs=♥♦♣♠♡♢♧♤\ufe0f \t-x"), max_size=8)
       | st.text(max_size=6))
def test_any_text_is_a_card_or_a_notation_error(text):
    try:
        card = Card.parse(text)
    except NotationError as error:
        assert error.token == text
    else:
        assert Card.parse(str(card)) == card


@pytest.mark.parametrize("text", ["5S\ufe0f\ufe0f", "5\u2660\ufe0e\ufe0f", "JK=7H\ufe0f\ufe0f",
                                  "10\u2665" + "\ufe0f" * 50])
def test_a_suit_takes_one_variation_selector_not_several(text):
    with pytest.raises(NotationError):
        Card.parse(text)
