"""What a reviewer found using the verifier as a player: rules cited twice, quoted lines of a
megabyte, a message shown twice, turns counted ahead of the log, state lines without the
artillery, carets under the card instead of the step, header lines read as body lines.

Each test would fail without its fix. The board is the one of test_verify_messages:

    mountains E1 E2; bunkers A5 C3 G7 H2 I9 J4; artillery B9 F8 J1 D10

``enter 3H`` puts the bomber on C1 facing south at altitude 4 (R13).
"""

from __future__ import annotations

from bgrid.verifier.messages import CATALOG, QUOTE_WIDTH, LogError, cites
from bgrid.verifier.report_html import error_view
from bgrid.verifier.verify import verify_log

MAP = ("bgrid-log: 1\nmap mountains: E1 E2\nmap bunkers: A5 C3 G7 H2 I9 J4\n"
       "map artillery: B9 F8 J1 D10\n")
START = MAP + "turn 1\nenter 3H\n"  # line 6
HAND = START + "draw 2S 3S 4S 5S 6S\n"  # line 7


# -- 1. a rule cited once --------------------------------------------------------------

def test_a_rule_already_in_a_list_is_not_appended_again():
    err = LogError("E202", "turn 1 is not over: … 'automa CARD' (R6, R34)", line=3, column=1)
    assert str(err).endswith("'automa CARD' (R6, R34)")
    assert str(err).count("R6") == 1


def test_a_rule_cited_inside_the_message_is_not_appended_at_its_end():
    err = LogError("E211", "the mission ended here; the log writes 'automa none' there (R36) and "
                   "nothing after it")
    assert str(err).count("(R36)") == 1


def test_a_rule_not_yet_cited_is_appended():
    err = LogError("E207", "the hand holds 5 at most (R30)", line=1, column=1)
    assert str(err).endswith("(R30) (R6)")
    assert not cites("drawn (R16)", "R6") and cites("(out of fuel, R22)", "R22")


def test_a_turn_line_before_the_automa_cites_its_rules_once():
    err = verify_log(START + "draw 2S 3S 4S 5S 6S\nmove 2S F\nturn 2\n").errors[0]
    assert err.code == "E202" and "(R6, R34)" in err.message
    assert str(err).count("R6") == 1


# -- 2. a long line is quoted by a window around the caret --------------------------------

def _caret_under(quote: tuple[str, str], text: str) -> None:
    line, caret = quote
    at = len(caret) - len(caret.lstrip(" "))
    assert line[at:at + len(text)] == text, (line, caret)


def test_a_megabyte_line_is_quoted_by_a_window_in_the_terminal():
    word = "x" * 200_000
    verdict = verify_log(MAP + "turn 1\n" + word + "\n")
    err = verdict.errors[0]
    assert err.code == "E106"
    rendered = verdict.render()
    assert len(rendered) < 2_000
    line, caret = err.quote()
    assert len(line) <= len("    6 | ") + QUOTE_WIDTH + 2 and line.endswith("…")
    assert "'" + "x" * 39 + "…'" in err.message  # the message quotes the token's start


def test_the_window_keeps_the_caret_under_a_token_far_along_the_line():
    verdict = verify_log(HAND + "move 2S FF" + " " * 3000 + "FX\n")
    err = verdict.errors[0]
    assert (err.code, err.column) == ("E104", 3011)
    line, caret = err.quote()
    assert line.startswith("    8 | …") and len(line) <= len("    8 | ") + QUOTE_WIDTH + 2
    _caret_under((line, caret), "FX")


def test_terminal_and_html_quote_the_same_window():
    verdict = verify_log(HAND + "move 2S FFFX " + "#" + " long comment" * 20 + "\n")
    err = verdict.errors[0]
    assert error_view(err, "log")["quote"] == "\n".join(err.quote())
    assert "\n".join(err.quote()) in verdict.render()


def test_a_binary_log_is_quoted_short():
    data = b"bgrid-log: 1\nseed: 1\n" + bytes(range(128, 256)) * 40
    verdict = verify_log(data)
    assert verdict.errors[0].code == "E002"
    assert max(len(ln) for ln in verdict.render().splitlines()) < 400


def test_a_long_step_list_in_an_engine_message_is_clipped():
    verdict = verify_log(HAND + "move 2S " + "F" * 5000 + "\n")
    assert len(verdict.render()) < 2_000


# -- 3. catalogue defaults --------------------------------------------------------------

def test_card_messages_cite_the_deck_rulings_by_default():
    assert CATALOG["E205"][1] == "R22" and CATALOG["E206"][1] == "R25"
    assert LogError("E205", "x").rule == "R22" and LogError("E206", "x").rule == "R25"
