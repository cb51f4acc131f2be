"""Diagnoses that name the likely slip, each shown with the message it replaces.

Challenge 0M00-0001-WR3 (tests/logs/worked/challenge-crash.log): the deck, top first, is
7S JC 6H 2H QC KS 10D JD 9C 2D …; 7S enters at G1."""

from __future__ import annotations

from bgrid.verifier.verify import verify_log

from explicit_maps import explicit_log

START = "bgrid-log: 1\nchallenge: 0M00-0001-WR3\n\nturn 1\nenter 7S\n"  # lines 1-5
TURN_1 = "draw JC 6H 2H QC KS\nalt JC\nresupply KS -> 10D\nalt 10D\nautoma JD\n"  # lines 6-10


def first_error(body: str):
    verdict = verify_log(START + body)
    assert verdict.errors, verdict.render()
    return verdict.errors[0]


def test_a_draw_line_in_sorted_order_is_told_the_right_order():
    # old: "the challenge deck gives JC as the draw card here, not 2H" and nothing more
    err = first_error("draw 2H 6H JC KS QC\n")
    assert (err.code, err.line, err.token) == ("E206", 6, "2H")
    assert err.message == ("the challenge deck gives JC as the draw card here, not 2H: the line holds "
                           "the right cards in another order; the deck gives them as JC 6H 2H QC KS")


def test_a_left_out_resupply_is_told_as_a_skipped_card():
    # The resupply KS -> 10D is missing: the Automa card is then 10D, and the log's JD is the
    # card after it. old: "the challenge deck gives 10D as the automa card here, not JD"
    err = first_error("draw JC 6H 2H QC KS\nalt JC\nautoma JD\n")
    assert (err.code, err.line) == ("E206", 8)
    assert err.message.startswith("the challenge deck gives 10D as the Automa card here, not JD; "
                                  "JD comes 1 card later, after 10D: was a statement that takes a "
                                  "card left out (a resupply")


def test_a_wrong_card_from_nowhere_near_gets_no_hint():
    err = first_error("draw JC 6H 2H QC AS\n")  # AS is not among the next six cards
    assert err.message == "the challenge deck gives KS as the draw card here, not AS"


def test_a_comma_in_a_state_line_is_told_as_a_separator():
    # old: "'G1,' is not a cell: expected a column A-J then a row 1-10, e.g. C7"
    err = first_error("draw JC 6H 2H QC KS\nstate at G1, facing S\n")
    assert (err.code, err.line, err.token) == ("E102", 7, "G1,")
    assert "separated by spaces, not commas" in err.message
    err = first_error("draw JC 6H 2H QC KS\nstate alt 4, dmg 0\n")
    assert err.code == "E105" and "not commas" in err.message


def test_a_missing_turn_line_names_the_automa_card_that_closed_the_turn():
    # Two actions, then the Automa card JD closes turn 1; the log draws without 'turn 2'.
    # old: "turn 2 begins here (two actions were played and no King or Joker is left to play
    # (R6)): write 'turn 2' first"
    err = first_error(TURN_1 + "draw 9C 2D\n")
    assert (err.code, err.line) == ("E202", 11)
    assert err.message == "turn 2 begins here (the Automa card JD closed turn 1): write 'turn 2' first"


def test_a_missing_turn_line_after_an_exit_names_the_exit():
    # AH enters A1 facing south; 2S turns right (west) and flies off the west edge: the
    # player phase ends and there is no Automa phase (R6); 'enter' comes without 'turn 2'.
    verdict = verify_log(explicit_log("turn 1\nenter AH\ndraw 2S 3S 5C JS 10S\nmove 2S RF\nenter 4D\n"))
    err = verdict.errors[0]
    assert (err.code, err.line) == ("E202", 10)
    assert err.message.startswith("turn 2 begins here (the bomber left the map")


def test_a_state_mismatch_cites_the_rule_that_made_the_value():
    # old: "rule: log-format: Body" for every state check
    alt = first_error(TURN_1 + "state alt 3\n")  # 10D (line 9) climbed back to 4
    assert (alt.code, alt.rule) == ("E213", "rulebook: Card Actions")
    assert alt.message == "the log says alt 3, the replay has alt 4 (as line 9 left it)"
    at = first_error(TURN_1 + "turn 2\ndraw 9C 2D\nthrottle 9C move 2H FFF\nstate at G5\n")
    assert (at.rule, at.message) == ("R9", "the log says at G5, the replay has at G4 (as line 13 left it)")
    entry = first_error("state facing N\n")
    assert entry.rule == "R13"
