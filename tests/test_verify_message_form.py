"""How the verifier puts a message to a player: each rule cited once, a long line quoted by a
window around its caret, the message shown once, the turn and state the log itself reached
(artillery in firing order), the caret under the step at fault, header lines read as header.

The board is the one of test_verify_messages:

    mountains E1 E2; bunkers A5 C3 G7 H2 I9 J4; artillery B9 F8 J1 D10

``enter 3H`` puts the bomber on C1 facing south at altitude 4 (R13).
"""

from __future__ import annotations

from bgrid.challenges.codes import decode_code
from bgrid.log.messages import CATALOG, QUOTE_WIDTH, LogError, cites
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


# -- 4. the verdict says the error once ---------------------------------------------------

def test_an_invalid_verdict_prints_the_message_once():
    verdict = verify_log(HAND + "alt QH\n")  # QH is not in the hand
    rendered = verdict.render()
    message = verdict.errors[0].message
    assert rendered.count(message) == 1
    first = rendered.splitlines()[0]
    assert first == f"log: invalid (E204 card-not-in-hand, line 8, column 5) [id {verdict.verification_id}]"
    assert message in verdict.summary()  # the one-line form alone still holds it


def test_a_valid_summary_names_the_assurance():
    crash = START.replace("enter 3H", "enter 5H") + "draw 10S 2S 3S 4S 6S\nalt 10S\n"  # E1: crash (R33)
    verdict = verify_log(crash)
    assert verdict.verdict == "valid", verdict.render()
    assert "score 0, assurance: consistent [id" in verdict.summary()
    assert "(consistent)" not in verdict.render()


# -- 5. who played which mission ----------------------------------------------------------

def test_the_verdict_names_the_player_and_the_map_source():
    log = ("bgrid-log: 1\nchallenge: 0m00-0001-wr3\nplayer: Ada Lovelace\nturn 1\nenter 8S\n")
    verdict = verify_log(log)
    data = verdict.as_dict()
    assert (data["player"], data["map_source"], data["difficulty"]) == (
        "Ada Lovelace", "challenge 0M00-0001-WR3", decode_code("0M00-0001-WR3").difficulty)


def test_each_map_source_is_named():
    seed = verify_log("bgrid-log: 1\nseed: 1944\nridges: 2\ndifficulty: hard\nturn 1\n")
    assert (seed.map_source, seed.difficulty, seed.player) == ("seed 1944, 2 ridges", "hard", None)
    assert verify_log(START).map_source == "explicit map"
    setup = verify_log("bgrid-log: 1\nsetup ridge: AH 2S\nsetup bunkers: 2H 3H\nsetup artillery: 4H 5H\n")
    assert setup.map_source == "setup cards"  # E129, but the header was read


def test_a_notation_error_in_the_body_still_names_player_and_map():
    verdict = verify_log(MAP.replace("map mountains", "player: Bo\nmap mountains") + "turn 1\nenter 1H\n")
    assert verdict.errors[0].code == "E101"
    assert (verdict.player, verdict.map_source) == ("Bo", "explicit map")


def test_the_html_report_shows_player_and_map():
    from bgrid.verifier.report_html import render_report

    verdicts = [verify_log("bgrid-log: 1\nchallenge: 0M00-0001-WR3\nplayer: Ada <3\nturn 1\nenter 7S\n"),
                verify_log("bgrid-log: 1\nseed: 7\nturn 1\n")]
    html = render_report(verdicts)
    assert "Player: <bdi>Ada &lt;3</bdi> &middot; Map: challenge 0M00-0001-WR3, normal" in html
    assert "<td>seed 7</td>" in html and "<td>Ada &lt;3</td>" in html


# -- 6. the log's own turn; a state line is answered with the state ------------------------

def test_a_state_mismatch_after_the_automa_is_in_the_logs_turn_and_lists_no_plays():
    verdict = verify_log(HAND + "move 2S F\nautoma 7C\nstate at C2 alt 3\n")  # 7C: no fire at C2
    err = verdict.errors[0]
    assert (err.code, err.line) == ("E213", 10)
    assert err.state.startswith("end of turn 1, at C2 facing S, alt 4")
    assert "turn 2" not in err.state and err.legal == ()
    assert "legal here" not in verdict.render()
    assert verdict.turns == 1


def test_a_play_after_an_exit_is_reported_in_turn_1_with_the_turn_line_to_write():
    # LLF: turn north from C1 and fly off the board; the player phase ends (R6)
    err = verify_log(HAND + "move 4S LLF\nmove 3S F\n").errors[0]
    assert (err.code, err.line) == ("E202", 9) and "write 'turn 2' first" in err.message
    assert err.state.startswith("end of turn 1, off the map")
    assert err.legal[0] == "turn 2 (its line first)" and err.legal[1].startswith("then the entry card")


def test_an_incomplete_log_stops_at_the_end_of_its_last_turn():
    verdict = verify_log(HAND + "move 4S LLF\n")
    assert verdict.verdict == "incomplete" and verdict.turns == 1
    assert verdict.state.startswith("end of turn 1, off the map")


def test_the_state_lists_artillery_by_number_and_the_bunkers_left():
    err = verify_log(START + "state alt 3\n").errors[0]
    # the map's artillery B9 F8 J1 D10, numbered in that placement order (R43); no bunker
    # destroyed yet
    assert "artillery 1 (B9), 2 (F8), 3 (J1), 4 (D10), bunkers left A5 C3 G7 H2 I9 J4" in err.state


def test_the_state_names_suppressed_artillery_and_destroyed_targets_go():
    from bgrid.rules.board import Cell
    from bgrid.rules.engine import new_game
    from bgrid.rules.ruleset import load_ruleset
    from bgrid.rules.setup import GameMap
    from bgrid.verifier.message_context import describe_state

    cells = lambda text: tuple(Cell.parse(c) for c in text.split())  # noqa: E731
    game_map = GameMap(frozenset(cells("E1 E2")), cells("A5 C3 G7 H2 I9 J4"), cells("B9 F8 J1 D10"))
    state = new_game(game_map, load_ruleset(), "normal")
    state.suppressed = {Cell.parse("F8")}  # R21
    state.artillery.discard(Cell.parse("J1"))
    state.bunkers.discard(Cell.parse("C3"))
    text = describe_state(state)
    assert "artillery B9 D10 F8 (F8 suppressed), bunkers left A5 G7 H2 I9 J4" in text
    state.artillery, state.suppressed, state.bunkers = set(), set(), set()
    assert "artillery none, bunkers left none" in describe_state(state)


# -- 7. a step error points at the step --------------------------------------------------

def _caret_text(err) -> str:
    line, caret = err.quote()
    at = len(caret) - len(caret.lstrip(" "))
    return line[at:at + len(caret.strip())]


def test_too_many_steps_points_at_the_first_step_over_the_points():
    err = verify_log(HAND + "move 3S FF FF\n").errors[0]  # 3S: three points, the 4th step is over
    assert (err.code, err.detail, err.column, err.token) == ("E203", "too-many-steps", 13, "F")
    assert _caret_text(err) == "F"


def test_a_step_after_an_exit_points_at_that_step():
    # from C1 facing S: LL faces north, F exits (R31); the L after it is the offending step
    err = verify_log(HAND + "move 5S LLFLF\n").errors[0]
    assert (err.detail, err.column, err.token) == ("step-after-end", 12, "L")


def test_a_step_after_a_blocked_step_points_at_that_step():
    # enter 4H: D1 facing S, altitude 4; JS descends to 3; L faces east, where E1 is a
    # mountain below altitude 4: that F is blocked (R31) and the F after it is the error
    log = MAP + "turn 1\nenter 4H\ndraw 2S 3S 4S 5S JS\nalt JS\nmove 4S LFF\n"
    err = verify_log(log).errors[0]
    assert err.detail == "step-after-end", err
    assert (err.column, err.token) == (11, "F")


def test_a_throttled_move_points_at_the_step_in_its_own_words():
    err = verify_log(HAND.replace("5S", "9S") + "throttle 9S move 3S FF FFFFFF\n").errors[0]
    # a throttled 3S moves 5 points (R11): the sixth step, the fourth letter of the second word
    assert (err.detail, err.column, err.token) == ("too-many-steps", 27, "F")


# -- 8. header lines ------------------------------------------------------------------------

def test_two_keys_on_one_header_line_cite_the_header_and_say_one_key_per_line():
    err = verify_log("bgrid-log: 1\nseed: 1944 difficulty: normal\nturn 1\n").errors[0]
    assert (err.code, err.line, err.column, err.token) == ("E108", 2, 12, "difficulty:")
    assert err.rule == "log-format: Header" and "one key per line" in err.message


def test_a_second_two_word_key_is_found_too():
    err = verify_log("bgrid-log: 1\nmap mountains: E1 map bunkers: A5\n").errors[0]
    assert (err.code, err.column, err.token) == ("E108", 19, "map") and "'map bunkers:'" in err.message


def test_a_colon_in_a_player_name_is_no_second_key():
    verdict = verify_log("bgrid-log: 1\nseed: 1944\nplayer: Ada: the Red\ndate: 2026-11-29 14:05\nturn 1\n")
    assert verdict.verdict == "incomplete" and verdict.player == "Ada: the Red"


def test_other_extra_tokens_on_a_header_line_cite_the_header():
    err = verify_log("bgrid-log: 1\nseed: 1944 2\n").errors[0]
    assert (err.code, err.rule) == ("E108", "log-format: Header")
    err = verify_log(START + "alt QS QS\n").errors[0]  # the body keeps its own section
    assert (err.code, err.rule) == ("E108", "log-format: Body")


def test_a_log_over_the_cap_is_more_than_1_MiB_not_a_size_we_did_not_read():
    from bgrid.log.lexer import MAX_BYTES

    err = verify_log(b"#" * (MAX_BYTES + 1)).errors[0]
    assert "more than 1048576 bytes (1 MiB)" in err.message and "1048577" not in err.message


# -- 9. typos ---------------------------------------------------------------------------------

def test_a_keyword_close_to_a_known_one_is_suggested():
    err = verify_log(START + "mvoe 2S FF\n").errors[0]
    assert err.code == "E106" and "'mvoe' is not a statement; did you mean 'move'?" in err.message
    assert "did you mean" not in verify_log(START + "fly 2S\n").errors[0].message
    err = verify_log("bgrid-log: 1\ndificulty: hard\nseed: 1\n").errors[0]
    assert err.code == "E122" and "did you mean 'difficulty'?" in err.message


def test_a_comma_after_a_card_says_commas_are_not_separators():
    for line, token in (("draw JC, 2S\n", "JC,"), ("draw JC,2S\n", "JC,2S")):
        err = verify_log(START + line).errors[0]
        assert (err.code, err.token) == ("E101", token) and "not commas" in err.message


def test_behind_the_engine_the_state_counts_no_actions_of_the_turn_not_begun():
    # no play in turn 1: after the Automa card the hand is still full, so turn 2 goes straight
    # to its plays; the log forgot 'turn 2'
    err = verify_log(HAND + "automa 7C\nmove 2S F\n").errors[0]
    assert (err.code, err.line) == ("E202", 9) and "write 'turn 2' first" in err.message
    assert err.state.startswith("end of turn 1, at C1") and "actions played" not in err.state
    assert err.legal[0] == "turn 2 (its line first)" and "then move 2S (up to 2 points)" in err.legal


def test_the_json_of_a_megabyte_token_is_short():
    import json

    verdict = verify_log(MAP + "turn 1\n" + "x" * 200_000 + "\n")
    assert len(json.dumps(verdict.as_dict())) < 2_000
    assert verdict.as_dict()["errors"][0]["token"] == "x" * 39 + "…"
