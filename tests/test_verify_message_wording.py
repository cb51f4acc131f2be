"""Wording of verifier messages found wrong by hand-played missions (the daily challenge
0MER-60SV-GHE, tests/logs/hand/daily-statements.log and its pencil rows, and two players of
the daily 2027-02-17), each with the old text."""

from __future__ import annotations

from pathlib import Path

from bgrid.verifier.narrative import explain
from bgrid.challenges.mission import mission_from_seed
from bgrid.challenges.seeding import stream
from bgrid.players.simulated_logs import simulated_log
from bgrid.players.simulation import PLAYERS
from bgrid.verifier.verify import row_form, verify_log

LOGS = Path(__file__).parent / "logs"
HAND = (LOGS / "hand" / "daily-statements.log").read_text()
HAND_ROWS = (LOGS / "hand" / "daily-rows.log").read_text(encoding="utf-8")
MAP = ("bgrid-log: 1\nmap mountains: E1 E2\nmap bunkers: A5 C3 G7 H2 I9 J4\n"
       "map artillery: B9 F8 J1 D10\n")  # lines 1-4; row 1 or 'turn 1' is line 5
WRONG_CELL = HAND.replace("guns JK=6S G3 -> JD", "guns JK=6S G4 -> JD")  # line 20


def test_a_declared_joker_is_echoed_as_written_in_the_legal_plays():
    """Was: ``legal here: … guns JK=6H (at G3) …`` for a log that played ``JK=6S``."""
    err = verify_log(WRONG_CELL).errors[0]
    assert "guns JK=6S (at G3, artillery 4)" in err.legal
    assert not any("JK=6H" in play for play in err.legal)
    # a declaration the engine lists in both colours keeps the engine's list (red climbs,
    # black descends): the Joker's altitude plays are still both there
    assert {"alt JK=10H", "alt JK=10S"} <= set(err.legal)


def test_the_caret_of_a_guns_target_stands_under_the_cell():
    """Was: column 6, the caret under ``JK=6S``::

       20 | guns JK=6S G4 -> JD
                 ^^^^^
    """
    err = verify_log(WRONG_CELL).errors[0]
    assert (err.code, err.line, err.column, err.token) == ("E203", 20, 12, "G4")
    assert err.render().splitlines()[1:3] == ["   20 | guns JK=6S G4 -> JD", " " * 19 + "^^"]


def test_explain_names_the_card_revealed_for_the_guns():
    """Was: ``exhaustion: the draw pile ran out when the guns card was needed`` (the guns
    card is the 6 the player fires; the card needed is the one revealed for it)."""
    verdict = verify_log(HAND, history=True)
    ledger = [e.message for e in verdict.damage_ledger if e.cause == "exhaustion"]
    assert ledger == ["exhaustion: the draw pile ran out when the guns' reveal card was needed, "
                      "and the discard pile (49 cards) became the draw pile"]
    told = "\n".join(explain(verdict))
    assert "guns card" not in told


def test_a_declaration_that_would_be_illegal_is_not_offered():
    # JK=QH climbs 4 -> 6 (R7): the engine's legal Queen is JK=QS, and it stays so
    text = HAND.replace("alt JK=QS", "alt JK=QH")
    err = verify_log(text).errors[0]
    assert "alt JK=QS" in err.legal and "alt JK=QH" not in err.legal


def test_a_joker_entry_without_its_column_is_shown_the_enter_cell_in_a_row():
    """Was, for the row ``1|JK|2S 3S 4S 5S 6S``: ``after a Joker the player chooses the entry
    column: write it after the card, e.g. 'enter QS C'``: the statement form's spelling for a
    log typed in rows, and another card than the one written."""
    err = verify_log(MAP + "1|JK|2S 3S 4S 5S 6S\n").errors[0]
    assert (err.code, err.line, err.rule) == ("E113", 5, "R13")
    assert "in the row's enter cell, e.g. '1|JK C|…'" in err.message
    assert "enter QS C" not in err.message
    # as the message says, the column after the card in the cell: the Joker enters column I
    # (R13), with 1 damage
    fixed = verify_log(MAP + "1|JK I|2S 3S 4S 5S 6S\n")
    assert fixed.verdict == "incomplete" and "at I1 facing S, alt 4, dmg 1/5" in fixed.state


def test_a_face_card_entry_without_its_column_is_shown_the_statement_in_the_statement_form():
    err = verify_log(MAP + "turn 1\nenter QS\n").errors[0]
    assert (err.code, err.line) == ("E113", 6)
    assert err.message.endswith("write it after the card, e.g. 'enter QS C'")


def test_a_reshuffle_marker_after_its_card_is_told_to_stand_before_it_in_a_row():
    """Was: ``'reshuffle', but the draw pile still holds 48 cards here (R36)``, with nothing
    on where the marker goes. Row 13 of the pencil rows with the marker after the guns play
    whose reveal 10C found the pile empty."""
    rows = HAND_ROWS.replace("reshuffle guns 6H C9→10C", "guns 6H C9→10C reshuffle")
    err = verify_log(rows).errors[0]
    assert (err.code, err.line) == ("E209", 20)
    assert ("the deck ran out at line 20, where 10C was the first card of the new deck; put the "
            "marker before that card: 'reshuffle; 6H C9->10C' in its cell") in err.message
    assert verify_log(rows.replace("guns 6H C9→10C reshuffle", "reshuffle; 6H C9->10C")).verdict == "valid"


def test_a_reshuffle_line_after_its_card_is_told_to_stand_before_it():
    text = HAND.replace("reshuffle\nguns 6H C9 -> 10C\n", "guns 6H C9 -> 10C\nreshuffle\n")
    err = verify_log(text).errors[0]
    assert err.code == "E209" and err.line == text.splitlines().index("reshuffle") + 1
    assert err.message.endswith("put the marker before that card: a 'reshuffle' line just "
                                "before 'guns 6H C9 -> 10C' (R22, R36)")


def test_a_marker_after_a_draw_that_spans_the_exhaustion_is_shown_the_split_draw():
    # the greedy player's log of seed 9 refills its hand across the exhaustion: 'draw 9D',
    # 'reshuffle', 'draw 9C'; typed as one draw line with the marker after it
    mission = mission_from_seed(9)
    text, _ = simulated_log(mission, stream(mission.ruleset.name, "sim-0", 9), challenge_deck=True,
                            player=PLAYERS["greedy"])
    assert "draw 9D\nreshuffle\ndraw 9C\n" in text
    err = verify_log(text.replace("draw 9D\nreshuffle\ndraw 9C\n", "draw 9D 9C\nreshuffle\n")).errors[0]
    assert err.code == "E209"
    assert err.message.endswith("where 9C was the first card of the new deck; put the marker before "
                                "that card: 'draw 9D', 'reshuffle' and 'draw 9C', a line each (R22, R36)")
    rows = row_form(text).replace("9D; reshuffle; 9C", "9D 9C reshuffle")
    assert "9D 9C reshuffle" in rows
    assert "'9D; reshuffle; 9C' in the draw cell" in verify_log(rows).errors[0].message


def test_a_marker_where_no_deck_ran_out_keeps_the_short_message():
    err = verify_log(MAP + "turn 1\nreshuffle\n").errors[0]
    assert err.message == "'reshuffle', but the draw pile still holds 54 cards here (R36)"
