"""The HTML report as an organiser reads it: errors that wrap instead of scrolling sideways,
damage dots inside their cell, a turn key for the path colours, and a table of all logs."""

from __future__ import annotations

import re

from bgrid.log.messages import QUOTE_WIDTH
from bgrid.verifier.report_html import CELL, MARGIN, board_view, error_view, log_view, render_report
from bgrid.verifier.verify import verify_log

from explicit_maps import ALL_BLOCKED, ALL_BLOCKED_TEXT, CLUBS_AUTOMA, CLUBS_AUTOMA_TEXT

MAP = "bgrid-log: 1\nmap mountains: E1 E2\nmap bunkers: A5 C3 G7 H2 I9 J4\nmap artillery: B9 F8 J1 D10\n"
# enter 3H: C1 facing S alt 4 (R13); the draw pile is the player's own, any card may come
START = MAP + "turn 1\nenter 3H\ndraw 2S 3S 4S 5S 6S\n"


def test_a_long_log_line_is_cut_around_the_caret():
    comment = "#" + " long comment" * 20
    verdict = verify_log(START + "move 2S FFFX " + comment + "\n")  # line 8: FFFX is not a step list
    err = verdict.errors[0]
    view = error_view(err, "log")
    line, caret = view["quote"].split("\n")
    assert len(line) <= len("    8 | ") + QUOTE_WIDTH + 2  # the window and two '…'
    assert line.endswith("…") and "FFFX" in line
    # the caret still stands under the token
    start = len(caret) - len(caret.lstrip(" "))
    assert line[start:start + 4] == "FFFX" and caret.strip() == "^^^^"


def test_a_short_line_is_quoted_whole():
    err = verify_log(START + "move 2S FFX\n").errors[0]
    assert error_view(err, "log")["quote"] == "    8 | move 2S FFX\n                ^^^"


def test_the_legal_plays_are_a_list_and_the_message_is_not_preformatted():
    html = render_report([verify_log(START + "alt 10H\n")])  # 10H is not in the hand (E204)
    assert "<li>move 2S (up to 2 points)</li>" in html
    assert '<pre class="error">' not in html and "10H is not in the hand" in html


def _dots(html: str):
    return [(float(x), float(y), int(t)) for x, y, t in
            re.findall(r'<circle cx="([\d.-]+)" cy="([\d.-]+)" r="4"[^>]*><title>damage, turn (\d+)', html)]


def test_damage_dots_stay_inside_the_cell_where_the_damage_was_taken():
    # A face card or Joker at entry costs 1 damage (R13) where the bomber comes in: enter on
    # C1 three times, each time flying straight back out over the north edge (LLF).
    log = (MAP + "turn 1\nenter QH C\ndraw 2S 3S 4S 5S 6S\nmove 3S LLF\n"   # C1, turn north, exit
           "turn 2\nenter KH C\ndraw 7S\nmove 4S LLF\n"                    # C1 again, exit
           "turn 3\nenter JH C\ndraw 8S\nmove 5S LLF\n")                   # and again
    verdict = verify_log(log, history=True)
    assert verdict.verdict == "incomplete", verdict.render()
    view = board_view(verdict)
    assert len(view["damage"]) == 3 and {e.cause for e in verdict.damage_ledger} == {"entry"}
    left, top = MARGIN + 2 * CELL, MARGIN  # C1: column index 2, row 1, worked out by hand
    for x, y, _ in _dots(render_report([verdict])):
        assert left + 4 <= x <= left + CELL - 4 and top + 4 <= y <= top + CELL - 4, (x, y)
    assert len({(x, y) for x, y, _ in _dots(render_report([verdict]))}) == 3  # none on another


def test_the_path_key_names_each_turn_the_bomber_flew():
    log = START + "move 2S F\nautoma 7C\nturn 2\ndraw 7S\nmove 3S FF\nautoma 8C\n"
    html = render_report([verify_log(log, history=True)])
    key = html.split("one colour a turn:")[1].split("</ul>")[0]
    assert "turn 1</li>" in key and "turn 2</li>" in key


def test_several_logs_get_a_table_linking_to_their_sections():
    one = verify_log(START, "a.log")
    two = verify_log(START + "alt 10H\n", "b.log")
    html = render_report([one, two])
    assert '<a href="#log-1">a.log</a>' in html and '<a href="#log-2">b.log</a>' in html
    assert 'id="log-1"' in html and 'id="log-2"' in html
    assert "E204 at line 8, column 5" in html  # the invalid one says where, in the table
    assert 'class="logs"' not in render_report([one])


def test_a_clubs_automa_line_says_under_it_that_the_artillery_holds():
    verdict = verify_log(CLUBS_AUTOMA, history=True)
    glossed = {line["text"]: line["gloss"] for line in log_view(verdict) if line["gloss"]}
    assert glossed == {"automa 2C": CLUBS_AUTOMA_TEXT}
    assert f'<span class="gloss">{CLUBS_AUTOMA_TEXT}</span>' in render_report([verdict])


def test_an_automa_line_that_moved_no_piece_says_under_it_why_each_one_stayed():
    verdict = verify_log(ALL_BLOCKED + "turn 1\nenter 3H\ndraw 2S 3S 4S 5S 6S\nautoma 8H\n", history=True)
    glossed = {line["text"]: line["gloss"] for line in log_view(verdict) if line["gloss"]}
    assert glossed == {"automa 8H": "Automa card 8H, Hearts: the artillery steps toward the bomber (R19); "
                                    + ALL_BLOCKED_TEXT}


def test_an_automa_line_that_moved_a_piece_adds_no_reason():
    # Spades: toward the nearest bunker (R19); piece 4 on H8 steps to H9, toward G9
    verdict = verify_log(ALL_BLOCKED + "turn 1\nenter 3H\ndraw 2S 3S 4S 5S 6S\nautoma 8S\n", history=True)
    glossed = {line["text"]: line["gloss"] for line in log_view(verdict) if line["gloss"]}
    assert glossed == {
        "automa 8S": "Automa card 8S, Spades: the artillery steps toward the nearest bunker (R19)"
    }
