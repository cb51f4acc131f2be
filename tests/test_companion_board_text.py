"""The companion's board and status as terminal text (``companion/board_text.py``): where the
bomber's arrow stands, and the pass through the deck once it has run out twice (R22)."""

from __future__ import annotations

from pathlib import Path

from bgrid.companion import Session
from bgrid.companion.board_text import board_lines, side_lines, status_text
from bgrid.rules.board import COLUMN_LETTERS

LOGS = Path(__file__).parent / "logs"
HAND = (LOGS / "hand" / "daily-statements.log").read_text(encoding="utf-8")
OUT_OF_FUEL = (LOGS / "corpus" / "sim-03.log").read_text(encoding="utf-8")  # turn 74: automa none


def _text(line) -> str:
    return "".join(text for _, text in line)


def _after(log: str, last: str) -> Session:
    """The hand-played daily up to and including the statement ``last``."""
    session, dropped = Session.resume(log[:log.index(last) + len(last)] + "\n")
    assert dropped == 0
    return session


def test_the_bomber_arrow_stands_under_its_column_letter():
    """Was ``  3  ·  ·  ·  ·  · →■  ·  4  ·  ·``: the arrow of the bomber on F3 in the gap
    between E3 and F3, a column left of F's letter. Turn 1 of the hand-played daily: 5S FFLFF
    flies D1 to F3 facing east, over the bunker there."""
    session = _after(HAND, "move 5S FFLFF")
    head, *rows = [_text(line) for line in board_lines(session.state, session.art)]
    f = head.index("F")
    assert head.index("A") == 5 and f == 5 + 3 * COLUMN_LETTERS.index("F")
    row_3 = rows[2]
    assert row_3[f] == "→" and row_3[f + 1] == "■"  # the bunker on F3 beside the arrow
    assert row_3[f - 1] == " " and row_3[f - 3] == "·"  # E3 as every open cell
    assert all(len(row) == len(head) for row in rows)


def test_the_bomber_over_an_open_cell_shows_its_arrow_alone():
    # turn 3: 4S RFRF takes the bomber to E4 facing west (the player's pencil row), an open cell
    session = _after(HAND, "move 4S RFRF")
    rows = [_text(line) for line in board_lines(session.state, session.art)]
    e = rows[0].index("E")
    assert str(session.state.cell) == "E4" and rows[4][e - 1:e + 2] == " ← "


def test_the_pass_stops_at_the_last_one_when_the_deck_runs_out_twice():
    """Was "pass 3 of 2" after the deck ran out twice (fixed on main with the turn-end
    counts, d3c1fdc; kept here): R22 allows one reshuffle, so two passes, and the second
    exhaustion ends the mission (out of fuel)."""
    session, _ = Session.resume(OUT_OF_FUEL)
    assert session.is_over and "out-of-fuel" in session.result()
    assert "pass 2" in status_text(session.state, session.art, session.turn, session.unmet_damage)
    assert "pass 2 of 2" in side_lines(session.state, session.art, session.turn, "own deck",
                                       session.unmet_damage)
    # before 'automa none' is written the engine has met the end already: still pass 2
    before, _ = Session.resume(OUT_OF_FUEL[:OUT_OF_FUEL.rindex("automa none")])
    assert "pass 2 of 2" in side_lines(before.state, before.art, before.turn, "own deck", before.unmet_damage)
