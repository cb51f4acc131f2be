"""A turn's state check is the paper at the end of that turn's Automa phase (R22, R40).

The engine meets an exhaustion at the next card it waits for, which may be the next turn's
draw; the paper meets it there too, not at the Automa card that emptied the pile. The logs
in ``tests/logs/turn-end/`` are one game of the daily 2027-02-17 (0MC1-D2K7-30Y), whose
deck ends ``… QD 10H 4D``: turn 14 draws 10H and its Automa card 4D is the last card. Their
comments say what the paper holds; the expectations below come from that reading of R22.
"""

from __future__ import annotations

from pathlib import Path

from bgrid.companion import Session
from bgrid.companion.board_text import side_lines, status_text
from bgrid.challenges.mission import mission_from_code
from bgrid.challenges.seeding import stream
from bgrid.players.simulated_logs import simulated_log
from bgrid.players.simulation import PLAYERS
from bgrid.verifier.narrative import explain
from bgrid.verifier.verify import verify_log

HERE = Path(__file__).parent / "logs" / "turn-end"
ROWS = HERE / "automa-takes-the-last-card-rows.log"
STATEMENTS = HERE / "automa-takes-the-last-card.log"
CODE = "0MC1-D2K7-30Y"


def _rows() -> list[str]:
    return ROWS.read_text(encoding="utf-8").splitlines()


def _replace_row(turn: int, old: str, new: str) -> str:
    lines = _rows()
    at = next(i for i, ln in enumerate(lines) if ln.startswith(f"{turn}|"))
    assert old in lines[at]
    lines[at] = lines[at].replace(old, new)
    return "\n".join(lines) + "\n"


def _plays() -> list[str]:
    """The statements a player types into the companion: the log's plays and cards only."""
    skip = ("#", "state", "turn", "reshuffle", "bgrid-log", "challenge", "claim")
    lines = STATEMENTS.read_text(encoding="utf-8").splitlines()
    return [ln for ln in lines if ln and not ln.startswith(skip)]


def test_the_deck_of_the_daily_ends_with_the_automa_card_of_turn_14():
    assert [str(c) for c in mission_from_code(CODE).deck[-3:]] == ["QD", "10H", "4D"]


def test_a_row_before_the_next_turns_exhaustion_has_the_damage_without_it():
    rows = _rows()
    assert "14||10H||10H||4D|G10 W|4|2||D8|H10|E9" in rows  # DMG 2: the deck has not run out
    assert "15||reshuffle 3D||9H 3D FLLF||4D|G10 E|4|4||E8||F9" in rows
    v = verify_log(ROWS.read_bytes())
    assert (v.verdict, v.outcome, v.score.total) == ("valid", "defeat", 1)
    exhaustion = [e for e in v.damage_ledger if e.cause == "exhaustion"]
    row_15 = 1 + next(i for i, ln in enumerate(rows) if ln.startswith("15|"))
    assert [(e.turn, e.line) for e in exhaustion] == [(15, row_15)]


def test_a_row_that_counts_the_next_turns_exhaustion_is_refused_and_told_why():
    text = _replace_row(14, "|G10 W|4|2|", "|G10 W|4|3|")
    v = verify_log(text)
    assert v.verdict == "invalid"
    err = v.errors[0]
    assert err.code == "E213" and err.rule == "R22"
    assert "the log says dmg 3, the replay has dmg 2" in err.message
    assert "in turn 15" in err.message
    assert "draw pile empty" in err.state and "dmg 2/5" in err.state


def test_state_lines_count_the_exhaustion_from_the_reshuffle_marker_on():
    v = verify_log(STATEMENTS.read_bytes())
    assert (v.verdict, v.outcome, v.score.total) == ("valid", "defeat", 1)
    text = STATEMENTS.read_text(encoding="utf-8")
    early = text.replace("state dmg 2  # turn 15 begun", "state dmg 3  # turn 15 begun")
    assert verify_log(early).errors[0].code == "E213"
    late = text.replace("state dmg 3  # the draw finds", "state dmg 2  # the draw finds")
    assert verify_log(late).errors[0].code == "E213"


def test_without_the_marker_the_draw_meets_the_exhaustion():
    text = STATEMENTS.read_text(encoding="utf-8")
    lines = [ln for ln in text.splitlines() if ln != "reshuffle" and not ln.startswith("state dmg 3")]
    at = lines.index("draw 3D")
    lines.insert(at + 1, "state dmg 3")
    v = verify_log("\n".join(lines) + "\n")
    assert (v.verdict, v.score.total) == ("valid", 1)


def test_explain_tells_the_exhaustion_at_the_row_that_meets_it():
    v = verify_log(ROWS.read_bytes(), history=True)
    told = explain(v)
    automa = next(t for t in told if "automa 4D" in t and "alt 4, dmg 2/5" in t)
    assert "discard pile" not in automa
    marker = next(t for t in told if "reshuffle: the draw pile is empty: the discard" in t)
    assert "1 damage (exhaustion), 3 in all" in marker


def test_the_companion_writes_the_turns_damage_and_the_marker_in_the_next_turn():
    plays = _plays()
    session = Session.start(f"bgrid-log: 1\nchallenge: {CODE}\n")
    replies = [session.submit(line) for line in plays]
    assert all(r.ok for r in replies)
    body = session.log_text().splitlines()
    at = body.index("turn 15")
    assert body[at - 3:at + 3] == ["automa 4D", "state at G10 facing W alt 4 dmg 2 art B8 D8 H10 E9", "",
                                   "turn 15", "reshuffle", "draw 3D"]
    draw = replies[plays.index("draw 3D")]
    assert any(s.startswith("reshuffle now") for s in draw.said)
    assert any("1 damage: the deck ran out at the draw card" in s for s in draw.said)
    v = verify_log(session.log_text())
    assert (v.verdict, v.score.total) == ("valid", 1)


def test_the_status_shows_the_paper_until_the_next_card_is_taken():
    plays = _plays()
    session = Session.start(f"bgrid-log: 1\nchallenge: {CODE}\n")
    for line in plays[:plays.index("draw 3D")]:
        assert session.submit(line).ok
    status = status_text(session.state, session.art, session.turn, session.unmet_damage)
    assert "DMG 2/5" in status and "pile 0" in status and "pass 1" in status
    side = side_lines(session.state, session.art, session.turn, "deck", session.unmet_damage)
    assert "draw pile 0   discards 50" in side
    session.submit("draw 3D")
    status = status_text(session.state, session.art, session.turn, session.unmet_damage)
    assert "DMG 3/5" in status and "pile 49" in status and "pass 2" in status


def test_simulated_logs_close_the_turn_before_the_next_turns_exhaustion():
    text, _ = simulated_log(mission_from_code(CODE), stream("standard-1", "sim-12", 7), challenge_deck=True,
                            player=PLAYERS["greedy"], state_lines=True, rows=True)
    assert "14||10H||10H||4D|G10 W|4|2||D8|H10|E9" in text.splitlines()
    assert verify_log(text).verdict == "valid"
