"""The verifier's dead-hand note: once, at the Automa line of the first turn the hand is dead.

The logs in ``tests/logs/dead-hand/`` are missions built by hand; their comments work out why
the hand is (or is not) dead from the rules.
"""

from __future__ import annotations

from pathlib import Path

from bgrid.verifier.narrative import explain
from bgrid.verifier.verify import verify_log

HERE = Path(__file__).parent / "logs" / "dead-hand"
WHY = ("no card in hand can be played again (6S: guns need altitude 0-4, and the bomber stays at 5; "
       "7S 8S AS: no target below the bomber at C3, and none can come there; 9S: a Throttle is "
       "never played alone, and no card can pair with it); the mission can only end by damage or fuel")


def _line_of(name: str, text: str) -> int:
    lines = (HERE / name).read_text(encoding="utf-8").splitlines()
    return 1 + next(i for i, ln in enumerate(lines) if ln.startswith(text))


def _dead_notes(verdict) -> list:
    return [n for n in verdict.notes if n.message.startswith("dead hand")]


def test_the_note_stands_at_the_first_forced_pass():
    v = verify_log((HERE / "stuck-at-the-ceiling.log").read_bytes())
    assert (v.verdict, v.outcome, v.score.total) == ("valid", "defeat", -5)
    [note] = _dead_notes(v)
    assert note.line == _line_of("stuck-at-the-ceiling.log", "automa 3C")
    assert note.message == "dead hand from turn 2: " + WHY
    assert note.rule == "R30, R15, R16, R7, R11"


def test_the_row_form_has_the_note_at_the_turns_row():
    v = verify_log((HERE / "stuck-at-the-ceiling-rows.log").read_bytes())
    assert (v.verdict, v.score.total) == ("valid", -5)
    [note] = _dead_notes(v)
    assert note.line == _line_of("stuck-at-the-ceiling-rows.log", "2|")
    assert note.message == "dead hand from turn 2: " + WHY


def test_the_note_is_in_the_json_and_after_the_explain_account():
    v = verify_log((HERE / "stuck-at-the-ceiling.log").read_bytes(), history=True)
    assert any(n["message"].startswith("dead hand from turn 2") for n in v.as_dict()["notes"])
    assert explain(v)  # the account is told; the notes follow it in the terminal
    assert "dead hand from turn 2" in v.coaching(notes=True, ledger=True)


def test_a_stuck_looking_hand_that_artillery_will_reach_gets_no_note():
    v = verify_log((HERE / "a-piece-walks-into-the-guns-reach.log").read_bytes())
    assert (v.verdict, v.outcome, v.score.total) == ("valid", "defeat", -5)
    assert _dead_notes(v) == []


def test_the_hand_played_daily_has_no_dead_hand_note():
    # tests/logs/hand/daily-statements.log (the mission of challenge 0MER-60SV-GHE played by
    # hand from its sheet; the same bytes as the copy kept apart for checking) plays a card in
    # every one of its 13 turns: valid as before, and no hand of it is dead
    hand = Path(__file__).parent / "logs" / "hand" / "daily-statements.log"
    v = verify_log(hand.read_bytes())
    assert (v.verdict, v.outcome, v.score.total) == ("valid", "defeat", 4)
    assert _dead_notes(v) == []
