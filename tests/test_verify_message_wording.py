"""Wording of three verifier messages found wrong by a hand-played mission (the daily
challenge 0MER-60SV-GHE, tests/logs/hand/daily-statements.log), each with the old text."""

from __future__ import annotations

from pathlib import Path

from bgrid.verifier.narrative import explain
from bgrid.verifier.verify import verify_log

HAND = (Path(__file__).parent / "logs" / "hand" / "daily-statements.log").read_text()
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
