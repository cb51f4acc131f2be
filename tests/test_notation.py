"""Case is folded in ASCII only: look-alike letters that str.upper maps onto A–Z are refused
by every notation parser of the game model, and a variation selector only follows a suit."""

import pytest

from bgrid.rules.actions import parse_steps
from bgrid.rules.board import Cell, Facing, parse_column
from bgrid.rules.cards import Card
from bgrid.challenges.codes import decode_code
from bgrid.rules.errors import NotationError

LONG_S, DOTLESS_I, KELVIN = "\u017f", "\u0131", "\u212a"  # upper() gives S, I, K


def test_the_look_alikes_really_fold_onto_ascii_in_python():
    # the premise of this file: without ASCII-only folding these would pass
    assert (LONG_S.upper(), DOTLESS_I.upper(), KELVIN.lower()) == ("S", "I", "k")


@pytest.mark.parametrize("token", [f"5{LONG_S}", f"{KELVIN}S", f"JK=7{LONG_S}", "5\ufe0fS"])
def test_card_look_alikes_and_a_misplaced_selector_are_refused(token):
    with pytest.raises(NotationError):
        Card.parse(token)


def test_the_plain_spellings_still_read():
    assert str(Card.parse("5s")) == "5S" and str(Card.parse("5♠\ufe0f")) == "5S"
    assert str(Cell.parse("i1")) == "I1" and parse_column("i") == 8
    assert Facing.parse("s") is Facing.SOUTH and parse_steps(["ff", "rf"]) == "FFRF"


def test_cell_column_facing_and_step_look_alikes_are_refused():
    for parse, token in ((Cell.parse, f"{DOTLESS_I}1"), (parse_column, DOTLESS_I),
                         (Facing.parse, LONG_S), (parse_steps, ["F" + "\ufb02"])):
        with pytest.raises(NotationError):
            parse(token)


def test_a_code_with_a_look_alike_letter_is_refused():
    # seed 13's code ends in S; with a long s in its place str.upper would read the same code
    assert decode_code("0m00-0000-0ds").seed == 13
    with pytest.raises(NotationError):
        decode_code(f"0M00-0000-0D{LONG_S}")
