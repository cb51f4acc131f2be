"""One test per message of docs/log-format.md: line, column, code and rule, and the full
rendered message compared with tests/golden/<code>.txt.

The goldens are regenerated only on purpose: ``BGRID_REGEN_GOLDEN=1 pytest tests/test_verify_messages.py``.
Every case is a short log on a small explicit board a reader can picture:

    mountains E1 E2; bunkers A5 C3 G7 H2 I9 J4; artillery B9 F8 J1 D10

``enter 3H`` puts the bomber on C1 facing south at altitude 4 (R13). With the player's own
deck any card not yet drawn may come, so the logs choose their cards freely.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from bgrid.challenges.mission import mission_from_code
from bgrid.verifier import replay as replay_module
from bgrid.log.lexer import MAX_BYTES
from bgrid.log.messages import CATALOG
from bgrid.verifier.verify import verify_log

HERE = Path(__file__).parent
GOLDEN = HERE / "golden"
MAP = ("bgrid-log: 1\nmap mountains: E1 E2\nmap bunkers: A5 C3 G7 H2 I9 J4\n"
       "map artillery: B9 F8 J1 D10\n")  # lines 1-4; the body starts at line 5
START = MAP + "turn 1\nenter 3H\n"  # line 6: C1 facing S, alt 4
# E1 is a mountain: alt 3 there crashes (R33)
CRASH = MAP + "turn 1\nenter 5H\ndraw 10S 2S 3S 4S 6S\nalt 10S\n"

# code -> (log, line, column, rule, a phrase the message must contain)
CASES = {
    "E001": (b"#" * (MAX_BYTES + 1), None, None, "log-format: Lexical", "1 MiB"),
    "E002": (b"bgrid-log: 1\nseed: 1\nturn 1\ndraw 2S \xe93S\n", 4, 9, "log-format: Lexical", "not UTF-8"),
    "E003": ("bgrid-log: 1\nseed: 1\x00\n", 2, 8, "log-format: Lexical", "U+0000"),
    "E101": (START + "draw 1H\n", 7, 6, "log-format: Lexical", "'1H' is not a card"),
    "E102": (START + "draw 6S 2S 3S 4S 5S\nguns 6S C07 -> 2D\n", 8, 9, "log-format: Lexical", "not a cell"),
    "E103": (MAP + "turn 1\nenter QS CC\n", 6, 10, "log-format: Lexical", "not a column"),
    "E104": (START + "draw 2S 3S 4S 5S 6S\nmove 2S FFB\n", 8, 9, "log-format: Lexical", "not a step list"),
    "E105": (MAP + "turn 01\n", 5, 6, "log-format: Fine print", "no leading zeros"),
    "E106": (START + "fly 2S\n", 7, 1, "log-format: Body", "not a statement"),
    "E107": (START + "draw 2S 3S 4S 5S 6S\nmove 2S\n", 8, 8, "log-format: Body", "steps"),
    "E108": (START + "draw 2S 3S 4S 5S QS\nalt QS QS\n", 8, 8, "log-format: Body", "unexpected 'QS'"),
    "E109": (START + "draw 2S 3S 4S 5S 7S\nbomb 7S 2D\n", 8, 9, "log-format: Body", "'->'"),
    "E110": (START + "alt none\n", 7, 5, "R36", "'none' stands only"),
    "E111": (START + "draw JK 2S 3S 4S 5S\nmove JK FF\n", 8, 6, "R12", "JK=7H"),
    "E112": (START + "draw 7S 2S 3S 4S 5S\nmove 7S FF\n", 8, 6, "rulebook: Card Actions",
             "movement card 2-5"),
    "E113": (MAP + "turn 1\nenter 3H C\n", 6, 10, "R13", "face card or Joker"),
    "E114": (START + "state height 4\n", 7, 7, "log-format: Body", "not a state key"),
    "E115": (START + "state facing south\n", 7, 14, "log-format: Body", "not a facing"),
    "E120": ("seed: 1\nbgrid-log: 1\n", 1, 1, "log-format: Header", "bgrid-log: 1"),
    "E121": ("bgrid-log: 2\nseed: 1\n", 1, 12, "log-format: Header", "not supported"),
    "E122": ("bgrid-log: 1\nseed: 1\ncolour: red\n", 3, 1, "log-format: Header", "unknown header key"),
    "E123": ("bgrid-log: 1\nseed: 1\nSeed: 2\n", 3, 1, "log-format: Header", "first on line 2"),
    "E124": (START + "player: Ada\n", 7, 1, "log-format: Header", "after the first turn"),
    "E125": (MAP + "enter 3H\n", 5, 1, "log-format: Body", "before the first turn"),
    "E126": ("bgrid-log: 1\nseed: 1\nchallenge: 0M00-0001-WR3\n", 3, 1, "log-format: Header", "two maps"),
    "E127": ("bgrid-log: 1\nseed: 1\ndifficulty: brutal\n", 3, 13, "log-format: Header",
             "unknown difficulty"),
    "E128": ("bgrid-log: 1\nchallenge: 0M00-0001-WR4\n", 2, 12, "R25", "fails its check"),
    "E129": ("bgrid-log: 1\nsetup ridge: AH 2S\nsetup bunkers: 2H 3H\nsetup artillery: 4H 5H\n", 2, 14,
             "R27", "ran out of cards"),
    "E130": ("bgrid-log: 1\nmap mountains: A1\nmap bunkers: A1 B2 C3 D4 E5 F6\nmap artillery: G7 H8 I9 J10\n",
             3, 14, "log-format: Fine print", "A1 is on a mountain"),
    "E201": (START + "draw 2S 3S 4S 5S 6S\nmove 2S FF\nautoma 7C\nturn 3\n", 10, 6, "log-format: Body",
             "expected 'turn 2'"),
    "E202": (MAP + "turn 1\ndraw 2S\n", 6, 1, "R6", "'enter CARD' comes next"),
    "E203": (START + "draw QH 2S 3S 4S 5S\nalt QH\n", 8, 5, "R7", "from 4 to 6"),
    "E204": (START + "draw 2S 3S 4S 5S 6S\nmove 5C FF\n", 8, 6, "rulebook: Player Phase",
             "5C is not in the hand"),
    "E205": (START + "draw 2S 2S\n", 7, 9, "R22", "already drawn"),
    "E206": ("bgrid-log: 1\nchallenge: 0M00-0001-WR3\nturn 1\nenter 8S\n", 4, 7, "R25", "gives 7S"),
    "E207": (START + "draw 2S 3S 4S 5S 6S 7S\n", 7, 21, "R6", "5 at most"),
    "E208": (START + "draw 2S 3S 4S\nmove 2S FF\n", 8, 1, "R6", "draw to 5"),
    "E209": (MAP + "turn 1\nreshuffle\n", 6, 1, "R36", "still holds 54 cards"),
    "E210": (MAP + "turn 1\nenter none\n", 6, 7, "R36", "draw pile of 54 cards"),
    "E211": (HERE / "logs" / "messages" / "E211.log", 95, 8, "R36", "'automa none'"),
    "E212": (CRASH + "automa 7C\n", 9, 1, "R37", "defeat (crash)"),
    "E213": (START + "state at C1 facing S alt 3\n", 7, 26, "R13", "the replay has alt 4"),
    "E214": (CRASH.replace("turn 1\n", "claim: defeat 1\nturn 1\n", 1), 5, 8, "R38",
             "defeat (crash) with score 0"),
}


def _verdict(code):
    log = CASES[code][0]
    data = log.read_bytes() if isinstance(log, Path) else log
    return verify_log(data, source="log")


def test_every_message_in_the_catalogue_has_a_case_and_is_in_the_docs():
    docs = (HERE.parent / "docs" / "log-format.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| (E\d{3}) \|", docs, re.M))
    assert documented == set(CATALOG)
    assert set(CASES) | {"E299"} == set(CATALOG)


@pytest.mark.parametrize("code", sorted(CASES))
def test_message(code):
    _, line, column, rule, phrase = CASES[code]
    verdict = _verdict(code)
    assert verdict.verdict == "invalid", verdict.render()
    err = verdict.errors[0]
    assert (err.code, err.line, err.column, err.rule) == (code, line, column, rule), verdict.render()
    assert phrase in err.message
    rendered = verdict.render().replace(verdict.verification_id, "<id>")
    golden = GOLDEN / f"{code}.txt"
    if os.environ.get("BGRID_REGEN_GOLDEN") == "1":
        golden.write_text(rendered + "\n", encoding="utf-8")
    assert rendered + "\n" == golden.read_text(encoding="utf-8")


def test_replay_messages_show_state_and_legal_plays():
    err = _verdict("E203").errors[0]
    assert err.state.startswith("turn 1, at C1 facing S, alt 4, dmg 0/5, hand QH 2S 3S 4S 5S, draw pile 48")
    # QH cannot climb past 5; the four movement cards can move
    assert "move 2S (up to 2 points)" in err.legal and "move 5S (up to 5 points)" in err.legal
    assert not any(item.startswith("alt") for item in err.legal)


def test_wrong_challenge_card_names_the_deck_card():
    assert mission_from_code("0M00-0001-WR3").deck[0].__str__() == "7S"  # the deck, independently
    assert "7S" in _verdict("E206").errors[0].message


@pytest.mark.pure_python_only("patches the replay's engine call, which mypyc binds when it compiles")
def test_an_engine_failure_is_message_E299_not_a_traceback(monkeypatch):
    def broken(*args):
        raise RuntimeError("boom")

    monkeypatch.setattr(replay_module, "reveal", broken)
    verdict = verify_log(START)
    err = verdict.errors[0]
    assert (verdict.verdict, err.code, err.line) == ("invalid", "E299", 6)


def test_the_example_in_the_docs_stops_where_the_docs_say():
    docs = (HERE.parent / "docs" / "log-format.md").read_text(encoding="utf-8")
    example = docs.split("## 10. Example")[1].split("```")[1].lstrip("\n")
    verdict = verify_log(example)
    err = verdict.errors[0]
    assert (err.line, err.column, err.code, err.token) == (12, 5, "E203", "QH")
    assert verdict.verification_id in docs  # the JSON sample of section 8 is this very log


# -- E203: the engine's reasons, each from a log -----------------------------------------

@pytest.mark.parametrize("detail, body, line, column, rule", [
    ("too-many-steps", "draw 2S 3S 4S 5S 6S\nmove 2S FFF\n", 8, 11, "R9"),   # the third F: 2S gives 2
    ("no-forward-step", "draw 2S 3S 4S 5S 6S\nmove 2S LR\n", 8, 6, "R9"),
    ("step-after-end", "draw 2S 3S 4S 5S 6S\nmove 4S LLFF\n", 8, 12, "R31"),     # LL faces north: F exits
    ("guns-target", "draw 2S 3S 4S 5S 6S\nguns 6S C4 -> 2D\n", 8, 9, "R15"),  # under the cell C4
    ("guns-altitude", "draw 10H 3S 4S 5S 6S\nalt 10H\nguns 6S J1 -> 2D\n", 9, 6, "R15"),  # altitude 5
    ("bomb-target", "draw 7S 3S 4S 5S 6S\nbomb 7S -> 2D\n", 8, 6, "R16"),
    ("throttle-not-first", "draw 2S 3S 4S 9S 6S\nmove 2S F\nthrottle 9S move 3S F\n", 9, 10, "R11"),
    ("no-actions-left", "draw 2S 3S 4S KS 5S\nmove 2S F\nmove 3S F\nmove 4S F\n", 10, 6, "R6"),
])
def test_illegal_play_reasons(detail, body, line, column, rule):
    err = verify_log(START + body).errors[0]
    assert (err.code, err.detail, err.line, err.column, err.rule) == ("E203", detail, line, column, rule)
    assert err.legal  # the alternatives are listed


def test_a_third_action_without_a_king_in_hand_finds_the_phase_over():
    err = verify_log(START + "draw 2S 3S 4S 6S 5S\nmove 2S F\nmove 3S F\nmove 4S F\n").errors[0]
    assert (err.code, err.line) == ("E202", 10) and "Automa card comes next" in err.message


def test_docs_list_every_engine_reason():
    from bgrid.rules.engine import ERROR_CODES

    docs = (HERE.parent / "docs" / "log-format.md").read_text(encoding="utf-8")
    section = docs.split("### E203 details")[1].split("### The verifier itself")[0]
    listed = set(re.findall(r"^\| `([a-z-]+)` \|", section, re.M))
    assert listed == set(ERROR_CODES)


def test_face_card_entry_needs_a_column_unless_its_damage_ends_the_mission():
    err = verify_log(MAP + "turn 1\nenter KH\n").errors[0]
    assert (err.code, err.line, err.column) == ("E113", 6, 9)
    assert verify_log(MAP + "turn 1\nenter KH C\n").verdict == "incomplete"
    # health 3 (ace): two face-card entries cost 2; the third entry's damage ends the mission
    # before the bomber is placed, so the column may be left out
    ace = MAP.replace("map artillery", "difficulty: ace\nmap artillery")
    body = ("turn 1\nenter KH C\ndraw 2S 3S 4S 5S 6S\nmove 3S LLF\nturn 2\nenter QH C\n"
            "draw 2H\nmove 4S LLF\nturn 3\nenter JH\n")  # LLF: turn north and fly off the board
    verdict = verify_log(ace + body)
    assert (verdict.verdict, verdict.outcome, verdict.cause) == ("valid", "defeat", "damage"), \
        verdict.render()


def test_an_explicit_map_lists_each_mountain_once():
    err = verify_log(MAP.replace("map mountains: E1 E2", "map mountains: E1 E2 E1")).errors[0]
    assert (err.code, err.line, err.column) == ("E130", 2, 22) and "E1 is listed twice" in err.message
    assert err.quote()[1].strip() == "^^"  # under the second E1, not the whole list


def test_a_claim_is_checked_only_at_the_end():
    """R38: a log that stops early is incomplete, whatever it claims; state lines may follow
    the end (R37) and check the final state."""
    early = MAP.replace("map mountains", "claim: victory 99\nmap mountains") + "turn 1\nenter 3H\n"
    verdict = verify_log(early)
    assert (verdict.verdict, verdict.errors) == ("incomplete", [])
    assert verdict.state.startswith("turn 1, at C1 facing S")
    ended = CRASH.replace("turn 1\n", "claim: defeat 0\nturn 1\n", 1) + "state at E1 alt 3 dmg 0\n# done\n"
    assert verify_log(ended).verdict == "valid"


def test_the_none_line_of_a_new_turn_comes_after_its_turn_line():
    text = (HERE / "logs" / "corpus" / "none-enter-own.log").read_text()
    assert verify_log(text).verdict == "valid"
    lines = text.splitlines()
    turn = max(i for i, ln in enumerate(lines) if ln.startswith("turn "))
    err = verify_log("\n".join(lines[:turn] + lines[turn + 1:]) + "\n").errors[0]
    assert err.code == "E202" and "write 'turn" in err.message


def test_the_first_error_in_line_order_wins():
    """A broken rule on line 8 comes before a bad token on line 9; a bad token alone is told
    with the state and the legal plays at its line."""
    body = "draw 2S 3S 4S 5S 6S\nmove 2S FFF\nautoma 1H\n"
    err = verify_log(START + body).errors[0]
    assert (err.code, err.line) == ("E203", 8)
    err = verify_log(START + body.replace("FFF", "FF")).errors[0]
    assert (err.code, err.line, err.column) == ("E101", 9, 8)
    assert err.state.startswith("turn 1, at C3 facing S") and "move 3S (up to 3 points)" in err.legal


def test_nothing_is_played_after_the_last_bunker():
    """R23/R37: the victory ends the mission at the bomb's reveal; a further play is E212."""
    text = (HERE / "logs" / "corpus" / "win-own.log").read_text()
    verdict = verify_log(text)
    assert (verdict.verdict, verdict.outcome, verdict.score.bunkers) == ("valid", "victory", 6)
    last = len(text.splitlines())
    err = verify_log(text + "automa 5C\n").errors[0]
    assert (err.code, err.line) == ("E212", last + 1) and "victory" in err.message
