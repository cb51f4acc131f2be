"""Audit of the verifier against the fine print of the log format (docs/log-format.md:
Lexical, Header, Body, Fine print) and R36-R38.

Every expected verdict here is worked out by hand from the spec and the rules, not copied
from the verifier. Most body tests use one "quiet" explicit map on which nothing ever
happens by itself, so the course of a mission can be followed on paper:

    mountains H9 H10 I8 J8, bunkers A10 B10 C10 D10 E10 F10, artillery I9 I10 J9 J10

The bomber enters with AC at A1 (R13: an Ace enters column A, row 1, facing south, alt 4).
From there no artillery ever has line of sight within range max(1, 4 - 4) = 1 (R18), and
no piece can ever step (R19/R20, worked for every piece and every suit):
  toward A1: I9 (gaps 8/8, equal: along the column) -> I8 mountain; J9 (9/8) -> I9 artillery;
             J10 (9/9) -> J9 artillery; I10 (8/9) -> I9 artillery;
  toward the nearest bunker F10: I10 -> H10 mountain; J10 -> I10 artillery;
             I9 (3/1) -> H9 mountain; J9 (4/1) -> I9 artillery.
So with no plays a turn costs exactly its Automa card, and nothing deals damage but the
first exhaustion (R22). The quiet mission, own deck (54 cards):
  turn 1: enter AC, draw 2S 3S 4S 5S 6S, automa; turns 1..48 each reveal one Automa card:
  1 + 5 + 48 = 54 cards, the draw pile is empty after turn 48's Automa card.
  turn 49: the Automa card is needed from an empty pile: first exhaustion, the discard pile
  (AC and the 48 Automa cards = 49 cards; the hand stays) becomes the pile, 1 damage.
  turns 49..97 reveal those 49 cards; turn 98: second exhaustion, defeat (out of fuel),
  written 'automa none' (R36). Score: 0 bunkers, 0 artillery, 1 damage = -1 (R24).
"""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from bgrid.rules.cards import FULL_DECK
from bgrid.challenges.codes import ChallengeSpec, encode_code
from bgrid.challenges.mission import mission_from_code
from bgrid.verifier.verify import verify_log

QUIET_MAP = ("map mountains: H9 H10 I8 J8\n"
             "map bunkers: A10 B10 C10 D10 E10 F10\n"
             "map artillery: I9 I10 J9 J10\n")
HAND = ["2S", "3S", "4S", "5S", "6S"]
# the 48 Automa cards of the first pass: the deck minus AC and the hand, in a fixed order
FIRST_PASS = [str(c) for c in FULL_DECK if str(c) not in ["AC", *HAND]]
assert len(FIRST_PASS) == 48 and FIRST_PASS.count("JK") == 2
# the second pass: the discard pile of the first exhaustion is AC and the 48 Automa cards
SECOND_PASS = ["AC", *FIRST_PASS]


def v(text: str):
    """(verdict, first error code or None, its line or None)."""
    verdict = verify_log(text)
    err = verdict.errors[0] if verdict.errors else None
    return verdict.verdict, (err.code if err else None), (err.line if err else None)


def quiet(turns: int = 98, *, header: str = "", automa: dict | None = None,
          before: dict | None = None, after_end: str = "", first_turn: str = "enter AC\ndraw "
          + " ".join(HAND)) -> str:
    """The quiet mission up to turn ``turns``. ``automa`` replaces a turn's Automa card,
    ``before`` puts lines before a turn's Automa line; ``after_end`` follows turn 98."""
    automa, before = automa or {}, before or {}
    cards = FIRST_PASS + SECOND_PASS + ["none"]
    out = ["bgrid-log: 1", QUIET_MAP.rstrip("\n")] + ([header] if header else [])
    for turn in range(1, turns + 1):
        out.append(f"turn {turn}")
        if turn == 1:
            out.append(first_turn)
        if turn in before:
            out.append(before[turn])
        out.append(f"automa {automa.get(turn, cards[turn - 1])}")
    if after_end:
        out.append(after_end)
    return "\n".join(out) + "\n"


def line_of(text: str, needle: str) -> int:
    """The line number of the last line reading ``needle``."""
    lines = text.split("\n")
    return len(lines) - lines[::-1].index(needle)


# -- the quiet mission itself, R22/R36-R38 --------------------------------------------------

def test_quiet_mission_runs_to_the_second_exhaustion_and_scores_minus_one():
    verdict = verify_log(quiet())
    assert (verdict.verdict, verdict.outcome, verdict.cause) == ("valid", "defeat", "out-of-fuel")
    assert verdict.score.total == -1 and verdict.score.damage == 1


@pytest.mark.parametrize("claim, expected", [
    ("claim: defeat -1", ("valid", None)),           # R24: negative scores are claimed as such
    ("CLAIM: Defeat -1", ("valid", None)),            # key and outcome in any case
    ("claim: defeat 0", ("invalid", "E214")),
    ("claim: victory -1", ("invalid", "E214")),
    ("claim: defeat +1", ("invalid", "E105")),        # no sign but the minus
    ("claim: defeat -01", ("invalid", "E105")),       # no leading zeros
    ("claim: defeat 1,5", ("invalid", "E105")),
])
def test_claims_are_checked_at_the_end(claim, expected):
    text = quiet(header=claim)
    assert v(text)[:2] == expected
    if expected[1] == "E214":  # a wrong claim is reported at the claim line (Fine print)
        assert v(text)[2] == 5  # after the version line and the 3 map lines


def test_a_claim_in_a_log_that_stops_early_is_incomplete_not_invalid():
    assert v(quiet(50, header="claim: victory 99")) == ("incomplete", None, None)  # R38


def test_reshuffle_marker_where_the_pile_is_empty_and_nowhere_else():
    # after turn 48's Automa card the pile is empty: before 'turn 49' and before its automa
    assert v(quiet(before={49: "reshuffle"}))[:2] == ("valid", None)
    text = quiet()
    text = text.replace("turn 49\n", "reshuffle\nturn 49\n")
    assert v(text)[:2] == ("valid", None)
    # in turn 48, before its Automa card, one card is left: E209 at that line
    text = quiet(before={48: "reshuffle"})
    assert v(text) == ("invalid", "E209", line_of(text, "reshuffle"))
    # at the second exhaustion the pile is empty too: accepted before 'automa none' (R36)
    assert v(quiet(before={98: "reshuffle"}))[:2] == ("valid", None)
    # after the statement that ended the mission it is a statement like any other (R37)
    text = quiet(after_end="reshuffle")
    assert v(text) == ("invalid", "E212", line_of(text, "reshuffle"))


def test_the_exhaustion_happens_when_the_card_is_needed_and_the_marker_changes_nothing():
    # turn 49: until its Automa card is needed the player could still play, so no damage yet;
    # the marker only checks that the pile is empty (R36)
    assert v(quiet(before={49: "state dmg 0\nreshuffle\nstate dmg 0"}))[:2] == ("valid", None)
    assert v(quiet(before={50: "state dmg 1"}))[:2] == ("valid", None)
    assert v(quiet(before={49: "state dmg 1"}))[:2] == ("invalid", "E213")


def test_a_reshuffle_marker_well_after_the_reshuffle_is_refused():
    # turn 50: the new pile has 49 - 2 = 47 cards
    text = quiet(before={50: "reshuffle"})
    assert v(text)[:2] == ("invalid", "E209")


def test_none_only_exactly_where_the_mission_runs_out():
    # turn 97: the last card of the second pass is still there
    assert v(quiet(97, automa={97: "none"}))[:2] == ("invalid", "E210")
    # turn 49: the first exhaustion does not end the mission (1 damage of 5)
    assert v(quiet(49, automa={49: "none"}))[:2] == ("invalid", "E210")
    # turn 98: a real card where the mission ran out is E211 (the card is even in the hand)
    assert v(quiet(automa={98: "2S"}))[:2] == ("invalid", "E211")
    assert v(quiet(automa={98: "AC"}))[:2] == ("invalid", "E211")


def test_after_the_end_only_state_lines():
    assert v(quiet(after_end="state at A1 facing S alt 4 dmg 1"))[:2] == ("valid", None)
    assert v(quiet(after_end="state dmg 1 alt 4 facing s at a1"))[:2] == ("valid", None)
    assert v(quiet(after_end="# a comment\n\nstate dmg 1"))[:2] == ("valid", None)
    assert v(quiet(after_end="state dmg 0"))[:2] == ("invalid", "E213")
    for line in ("turn 99", "automa 3C", "automa none", "draw 7D"):
        text = quiet(after_end=line)
        assert v(text) == ("invalid", "E212", line_of(text, line)), line


def test_deck_integrity_of_an_own_deck():
    # first pass: a card twice (turn 3 repeats turn 1's Automa card) -> E205
    assert v(quiet(3, automa={3: FIRST_PASS[0]}))[:2] == ("invalid", "E205")
    # the hand's cards are drawn already
    assert v(quiet(3, automa={3: "2S"}))[:2] == ("invalid", "E205")
    # two Jokers are two cards; a third is not (R22)
    assert v(quiet(3, automa={1: "JK", 2: "JK", 3: "3C"}))[0] == "incomplete"
    text = quiet(3, automa={1: "JK", 2: "JK", 3: "JK"})
    assert v(text)[:2] == ("invalid", "E205")
    # after the reshuffle: a hand card was never discarded (R35)
    assert v(quiet(49, automa={49: "2S"}))[:2] == ("invalid", "E205")
    # ... while any discarded card may come first, e.g. turn 5's Automa card
    assert v(quiet(49, automa={49: FIRST_PASS[4]}))[0] == "incomplete"


def test_several_draw_lines_a_line_past_five_and_a_play_before_refilling():
    base = "bgrid-log: 1\n" + QUIET_MAP + "turn 1\nenter AC\ndraw 2S 3S 4S 5S 6S\n"
    # two moves A1 -> A2 -> A3 (south), then the Automa card; turn 2 refills 2 cards
    t1 = base + "move 2S F\nmove 3S F\nautoma 3C\nturn 2\n"
    assert v(t1 + "draw 7D\ndraw 8D\nautoma 4C\nstate at A3 facing S")[0] == "incomplete"
    assert v(t1 + "draw 7D 8D\nautoma 4C\nstate at A3 facing S")[0] == "incomplete"
    # one line of three cards into a hand of 3: an error as a whole, at that line
    assert v(t1 + "draw 7D 8D 9D\n") == ("invalid", "E207", 12)
    assert v(t1 + "draw 7D 8D\ndraw 9D\n") == ("invalid", "E207", 13)
    # a play with the hand at 4
    assert v(t1 + "draw 7D\nmove 4S F\n") == ("invalid", "E208", 13)
    # a full hand draws nothing (R30)
    assert v(base + "automa 3C\nturn 2\ndraw 7D\n") == ("invalid", "E207", 10)


def test_a_draw_line_may_span_the_reshuffle():
    # turns 1..46 as the quiet mission (1 + 5 + 46 = 52 cards), turn 47 two moves then the
    # 53rd card; turn 48 draws the 54th card and, after the exhaustion, 2S from the discard
    moves = {47: "move 2S F\nmove 3S F"}
    text = quiet(47, before=moves)
    last = FIRST_PASS[47]  # the one card left
    span = text + f"turn 48\ndraw {last} 2S\nautoma 3S\nstate at A3 dmg 1\n"
    assert v(span)[0] == "incomplete"
    marked = text + f"turn 48\ndraw {last}\nreshuffle\ndraw 2S\nautoma 3S\nstate dmg 1\n"
    assert v(marked)[0] == "incomplete"
    # 4S is in the hand, not the discard pile: E205 after the reshuffle
    bad = text + f"turn 48\ndraw {last} 4S\n"
    assert v(bad)[:2] == ("invalid", "E205")


# -- header ---------------------------------------------------------------------------------

START = "turn 1\nenter AC\ndraw 2S 3S 4S 5S 6S\nautoma 3C\n"  # on the quiet map: incomplete


@pytest.mark.parametrize("header, expected", [
    ("bgrid-log: 1\n" + QUIET_MAP, ("incomplete", None, None)),
    ("# my log\n\nBGRID-LOG : 1\n" + QUIET_MAP, ("incomplete", None, None)),  # first non-blank
    ("bgrid-log:1\n" + QUIET_MAP, ("incomplete", None, None)),
    (QUIET_MAP + "bgrid-log: 1\n", ("invalid", "E120", 1)),            # required first
    ("player: Ada\nbgrid-log: 1\n" + QUIET_MAP, ("invalid", "E120", 1)),
    ("bgrid-log: 2\n" + QUIET_MAP, ("invalid", "E121", 1)),
    ("bgrid-log: 01\n" + QUIET_MAP, ("invalid", "E121", 1)),
    # keys in any case and spacing
    ("bgrid-log: 1\nMAP   Mountains : H9 H10 I8 J8\nMap Bunkers: A10 B10 C10 D10 E10 F10\n"
     "map ARTILLERY: I9 I10 J9 J10\n", ("incomplete", None, None)),
    ("bgrid-log: 1\n" + QUIET_MAP + "colour: red\n", ("invalid", "E122", 5)),
    ("bgrid-log: 1\n" + QUIET_MAP + "player: Ada\nPlayer: Bob\n", ("invalid", "E123", 6)),
    ("bgrid-log: 1\n" + QUIET_MAP + "map bunkers: A10 B10 C10 D10 E10 F10\n", ("invalid", "E123", 5)),
    ("bgrid-log: 1\n" + QUIET_MAP + "difficulty: HARD\n", ("incomplete", None, None)),
    ("bgrid-log: 1\n" + QUIET_MAP + "difficulty: brutal\n", ("invalid", "E127", 5)),
    # ridges: goes with seed: only
    ("bgrid-log: 1\n" + QUIET_MAP + "ridges: 1\n", ("invalid", "E126", 5)),
    ("bgrid-log: 1\nseed: 1944\nridges: 4\n", ("incomplete", None, None)),
    ("bgrid-log: 1\nseed: 1944\nridges: 5\n", ("invalid", "E127", 3)),
    ("bgrid-log: 1\nseed: 1944\nridges: 0\n", ("invalid", "E127", 3)),
    ("bgrid-log: 1\nseed: 1099511627775\n", ("incomplete", None, None)),  # 2**40 - 1
    ("bgrid-log: 1\nseed: 1099511627776\n", ("invalid", "E127", 2)),
    ("bgrid-log: 1\nseed: 01944\n", ("invalid", "E105", 2)),
    ("bgrid-log: 1\nplayer: Ada\n", ("invalid", "E126", 1)),            # no map
    ("bgrid-log: 1\nseed: 1944\n" + QUIET_MAP, ("invalid", "E126", 3)),  # two maps
])
def test_header(header, expected):
    body = START if "map " in header.lower() else ""
    assert v(header + body) == expected


@pytest.mark.parametrize("mountains, bunkers, artillery, expected", [
    ("", "A10 B10 C10 D10 E10 F10", "I9 I10 J9 J10", "incomplete"),       # may be empty
    ("H9 H10 I8 J8", "A10 B10 C10 D10 E10", "I9 I10 J9 J10", "E130"),      # 5 bunkers
    ("H9 H10 I8 J8", "A10 B10 C10 D10 E10 F10 G10", "I9 I10 J9 J10", "E130"),
    ("H9 H10 I8 J8", "A10 B10 C10 D10 E10 E10", "I9 I10 J9 J10", "E130"),  # not distinct
    ("H9 H10 I8 J8", "A10 B10 C10 D10 E10 F10", "I9 I10 J9", "E130"),
    ("H9 H10 I8 J8", "A10 B10 C10 D10 E10 F10", "I9 I10 J9 J9", "E130"),
    ("H9 H10 I8 J8 A10", "A10 B10 C10 D10 E10 F10", "I9 I10 J9 J10", "E130"),  # bunker on mountain
    ("H9 H10 I8 J8", "A10 B10 C10 D10 E10 F10", "I9 I10 J9 H9", "E130"),   # artillery on mountain
    ("H9 H10 I8 J8", "A10 B10 C10 D10 E10 F10", "I9 I10 J9 F10", "E130"),  # bunker + artillery
    ("B2 D4", "A10 B10 C10 D10 E10 F10", "I9 I10 J9 J10", "incomplete"),   # need not be a ridge
])
def test_explicit_map(mountains, bunkers, artillery, expected):
    text = (f"bgrid-log: 1\nmap mountains: {mountains}\nmap bunkers: {bunkers}\n"
            f"map artillery: {artillery}\n" + START)
    verdict, code, _ = v(text)
    assert (code or verdict) == expected


def test_explicit_map_needs_the_mountains_line():
    text = "bgrid-log: 1\nmap bunkers: A10 B10 C10 D10 E10 F10\nmap artillery: I9 I10 J9 J10\n" + START
    assert v(text)[:2] == ("invalid", "E126")


# Hand setup (R1, R5, R27). Ridge 2H 3H 5H 6H: cells B3 and E6 (the first card gives the
# column, the second the row). Bunkers AH 8H -> A8, AD 9D -> A9, AC 10C -> A10, 2D 8D -> B8,
# 2C 9C -> B9, 2S 10S -> B10; artillery 9S AS -> I1, 10H 2H -> J2, 10D 3D -> J3, 7S 4S -> G4.
# None of these cells is on the ridge's segment (columns B-E, rows 3-6) but G4 ... G4 is
# column G: outside. So every target stands on its own cell.
RIDGE = "2H 3H 5H 6H"
BUNKERS = "AH 8H AD 9D AC 10C 2D 8D 2C 9C 2S 10S"
ARTILLERY = "9S AS 10H 2H 10D 3D 7S 4S"


def setup_log(ridges=(RIDGE,), bunkers=BUNKERS, artillery=ARTILLERY, extra=""):
    lines = ["bgrid-log: 1"] + [f"setup ridge: {r}" for r in ridges]
    lines += [f"setup bunkers: {bunkers}", f"setup artillery: {artillery}"]
    return "\n".join(lines) + "\n" + extra


def test_hand_setup_builds_the_worked_map():
    verdict = verify_log(setup_log(extra="turn 1\nenter AH\n"))
    assert verdict.verdict == "incomplete"
    t = verdict.trace
    assert [str(c) for c in t.bunkers] == ["A8", "A9", "A10", "B8", "B9", "B10"]
    assert [str(c) for c in t.artillery_start] == ["I1", "J2", "J3", "G4"]
    assert {"B3", "E6"} <= {str(c) for c in t.mountains}


@pytest.mark.parametrize("kwargs, expected", [
    ({"ridges": ("QH 2H JK 3H KS 5H 6H",)}, "incomplete"),          # face cards before the last
    ({"ridges": ("2H 3H 5H 6H QH",)}, "E129"),                       # ... never after it
    ({"bunkers": BUNKERS + " JD"}, "E129"),
    ({"artillery": "JD " + ARTILLERY}, "incomplete"),
    ({"artillery": ARTILLERY + " KD"}, "E129"),
    ({"artillery": "9S AS 10H 2H 10D 3D 7S"}, "E129"),               # one number card short
    ({"artillery": "9S AS 10H 2H 10D 3D 7S 8H"}, "E129"),            # 8H twice in the target draw
    ({"ridges": (RIDGE, "2H 4H 7H 8H")}, "E129"),                    # 2H twice in the ridge draw
    ({"ridges": (RIDGE, "JK 4C 7C JK 8C 9C")}, "incomplete"),       # two Jokers are two cards
    ({"ridges": (RIDGE,) * 1 + ("4C 4D 7C 7D", "8C 8D 9C 9D", "AS 4S 3C 3D", "5C 5D 6C 6D")}, "E129"),
])
def test_hand_setup_lines(kwargs, expected):
    verdict, code, _ = v(setup_log(**kwargs, extra="turn 1\nenter AH\n"))
    assert (code or verdict) == expected


def test_hand_setup_two_bunkers_drawn_for_one_cell():
    # AD 8S names A8 again (other cards, same cell): R3 puts it on the nearest open cell,
    # distance 1: A7, A9 or B8; the leftmost column then the topmost row gives A7. A card
    # may be in both draws (R5): 2H is in the ridge draw and the artillery's.
    verdict = verify_log(setup_log(bunkers=BUNKERS.replace("AD 9D", "AD 8S"), extra="turn 1\nenter AH\n"))
    assert [str(c) for c in verdict.trace.bunkers] == ["A8", "A7", "A10", "B8", "B9", "B10"]


def test_ridges_key_does_not_go_with_setup_lines():
    assert v(setup_log(extra="ridges: 1\n"))[:2] == ("invalid", "E126")


# -- lexical --------------------------------------------------------------------------------

@pytest.mark.parametrize("turn1, expected", [
    ("enter AC\ndraw 2S 3S 4S 5S TS\nautoma 3C", "incomplete"),            # T for 10
    ("enter AC\ndraw 2S 3S 4S 5S 10s\nautoma 3c", "incomplete"),
    ("enter A♣\ufe0f\ndraw 2♠️ 3♤ 4S 5S 6S\nautoma 3♧\ufe0e", "incomplete"),  # symbols
    ("enter 1C", "E101"),                                                    # 1 is not an Ace
    ("enter AC\ndraw 2S,3S 4S 5S 6S", "E101"),                               # commas
    ("enter AC\ndraw 2S, 3S 4S 5S 6S", "E101"),
    ("enter AC\ndraw 2S 3S 4S 5S 6S\nmove 2S F F\nautoma 3C", "incomplete"),  # steps split
    ("enter AC\ndraw 2S 3S 4S 5S 6S\nmove 3S FF F\nautoma 3C", "incomplete"),
    ("enter AC\ndraw 2S 3S 4S 5S 6S\nmove 3S f lf\nautoma 3C", "incomplete"),
    ("enter AC\ndraw 2S 3S 4S 5S 6S\nmove 3S FX", "E104"),
    ("enter AC\ndraw 2S 3S 4S 5S 6S\nmove 3S F\ufb02", "E104"),  # a ligature is not F and L
    ("enter AC\ndraw 2S 3S 4S 5\u017f 6S", "E101"),              # long s is not S
    ("enter AC\ndraw 2S 3S 4S 5S\ufe0f 6H\ufe0e\nautoma 3C", "incomplete"),  # vs after the suit
    ("enter AC\ndraw 2S 3S 4S 5\ufe0fS", "E101"),                # ... not before it
    ("enter AC\ndraw 2S 3S 4S 5S 6S\nstate at C07", "E102"),
    ("enter AC\ndraw 2S 3S 4S 5S 6S\nstate at A0", "E102"),
    ("enter AC\ndraw 2S 3S 4S 5S 6S\nstate at K3", "E102"),
    ("enter AC\ndraw 2S 3S 4S 5S 6S\nstate at a1 facing s\nautoma 3C", "incomplete"),
    ("enter AC\ndraw 2S 3S 4S 5S 6S\nstate facing \u017f", "E115"),
    ("enter QS \u0131", "E103"),        # dotless i: upper() is I, but it is no column
    ("enter QS i", "incomplete"),
])
def test_lexical(turn1, expected):
    text = "bgrid-log: 1\n" + QUIET_MAP + "turn 1\n" + turn1 + "\n"
    verdict, code, _ = v(text)
    assert (code or verdict) == expected


def test_bom_crlf_and_arrows_without_spaces():
    text = "\ufeffbgrid-log: 1\r\n" + QUIET_MAP.replace("\n", "\r\n") + START.replace("\n", "\r\n")
    assert v(text.encode("utf-8").decode("utf-8"))[0] == "incomplete"
    assert verify_log(text.encode("utf-8")).verdict == "incomplete"
    bare = "bgrid-log: 1\n" + QUIET_MAP + START
    assert verify_log(text.encode()).verification_id == verify_log(bare).verification_id


def test_header_key_is_ascii_words_split_by_spaces_and_tabs():
    kelvin = QUIET_MAP.replace("map bunkers", "map bun\u212aers")  # lower() makes it 'k'
    assert v("bgrid-log: 1\n" + kelvin + START)[:2] == ("invalid", "E122")
    nbsp = QUIET_MAP.replace("map mountains", "map\u00a0mountains")  # a no-break space
    assert v("bgrid-log: 1\n" + nbsp + START)[:2] == ("invalid", "E122")
    tabs = QUIET_MAP.replace("map mountains", "\tMap \t Mountains\t")
    assert v("bgrid-log: 1\n" + tabs + START)[0] == "incomplete"


# -- R36 at a draw, and the damage of an exhaustion ending the mission ----------------------

def test_draw_none_at_the_second_exhaustion():
    # turn 97 plays 2S (A1 -> A2) and reveals the last card of the second pass; turn 98
    # needs a card to refill the hand from an empty pile: out of fuel, written 'draw none'
    text = quiet(97, before={97: "move 2S F"}) + "turn 98\n"
    assert v(text + "draw none\n")[:2] == ("valid", None)
    assert v(text + "draw none\nstate at A2 dmg 1\n")[:2] == ("valid", None)
    assert v(text + "reshuffle\ndraw none\n")[:2] == ("valid", None)
    assert v(text + "draw 2S\n")[:2] == ("invalid", "E211")          # 2S is on the discard pile
    assert v(text + "draw 2S none\n")[:2] == ("invalid", "E211")
    assert v(text + "draw none 2S\n")[:2] == ("invalid", "E110")     # none only last
    # the card that was needed is the draw's: the message says so (R36)
    verdict = verify_log(text + "automa none\n")
    assert verdict.errors[0].code == "E211" and "'draw none'" in verdict.errors[0].message
    # a log that stops before the statement writing 'none' is incomplete, not valid: the
    # verifier never plays on by itself (R36), and so a claim is not checked yet (R38)
    claimed = "claim: victory 9\nturn 1\n".join(text.split("turn 1\n", 1))
    for stop in (text, text.replace("turn 98\n", ""), claimed):
        verdict = verify_log(stop)
        assert (verdict.verdict, verdict.errors) == ("incomplete", [])
        assert verdict.state.endswith("draw none (R36)")


# Difficulty ace (health 3, R4): turn 1 enters with QS in column A (1 damage, R13), draws
# 2S 3S 4S 5S 6S and leaves the map west with 2S: R (south -> west), F off the board. No
# Automa phase after an exit (R6). Turn 2 enters with KH in column A (2 damage), draws 7S.
ACE_START = ("bgrid-log: 1\n" + QUIET_MAP + "difficulty: ace\n"
             "turn 1\nenter QS A\ndraw 2S 3S 4S 5S 6S\nmove 2S RF\nturn 2\nenter KH A\ndraw 7S\n")


def test_an_entry_whose_damage_ends_the_mission_needs_no_column():
    # turn 2 leaves again with 3S; turn 3 enters with JD: 3 damage = health 3, defeat, -3
    text = ACE_START + "move 3S RF\nturn 3\n"
    verdict = verify_log(text + "enter JD\n")
    assert (verdict.verdict, verdict.outcome, verdict.score.total) == ("valid", "defeat", -3)
    assert v(text + "enter JD\nstate dmg 3 at off\n")[:2] == ("valid", None)
    assert v(text + "enter JD\nstate facing S\n")[:2] == ("invalid", "E213")  # off the map
    assert v(text + "enter JD\ndraw 8S\n")[:2] == ("invalid", "E212")
    assert v(text + "enter JD C\n")[:2] == ("valid", None)   # a column changes nothing then
    # with 2 damage of 3 the column is needed
    assert v(ACE_START.replace("enter KH A", "enter KH"))[:2] == ("invalid", "E113")


def test_the_damage_of_the_first_exhaustion_can_end_the_mission():
    # cards used: QS, 5 drawn, KH, 7S = 8; 46 Automa cards (turns 2..47) empty the pile;
    # turn 48's Automa card meets the first exhaustion: 1 damage more, 3 of 3: defeat (R22,
    # R36), written 'automa none'
    used = {"QS", "2S", "3S", "4S", "5S", "6S", "KH", "7S"}
    rest = [str(c) for c in FULL_DECK if str(c) not in used]
    assert len(rest) == 46
    text = ACE_START + "automa " + rest[0] + "\n"
    for turn, card in enumerate(rest[1:], start=3):
        text += f"turn {turn}\nautoma {card}\n"
    text += "turn 48\n"
    assert v(text)[0] == "incomplete"
    verdict = verify_log(text + "automa none\n")
    assert (verdict.verdict, verdict.outcome, verdict.score.total) == ("valid", "defeat", -3)
    assert v(text + "automa QS\n")[:2] == ("invalid", "E211")    # QS was discarded: no matter
    assert v(text + "automa none\nstate dmg 3\n")[:2] == ("valid", None)


# -- Jokers, turn numbers, order, state lines ------------------------------------------------

@pytest.mark.parametrize("turn1, expected", [
    ("enter AC\ndraw 2S 3S 4S 5S JK=7H", "E111"),                    # drawn: plain JK
    ("enter JK=7H A", "E111"),
    ("enter JK A\ndraw 2S 3S 4S 5S JK\nmove JK F", "E111"),          # played: declared
    ("enter JK A\ndraw 2S 3S 4S 5S JK\nmove JK=JK F", "E101"),
    ("enter JK A\ndraw 2S 3S 4S 5S JK\nmove JK=5H FF\nautoma 3C", "incomplete"),
    ("enter JK A\ndraw 2S 3S 4S 5S JK\nmove jk=5♥️ FF\nautoma 3C", "incomplete"),
    ("enter JK A\ndraw 2S 3S 4S 5S JK\nmove JK=7H F", "E112"),       # a 7 is no move card
    ("enter JK A\ndraw 2S 3S 4S 5S JK\nresupply JK=KD -> 6S\nautoma 3C", "incomplete"),
    ("enter JK A\ndraw 2S 3S 4S 5S JK\nthrottle JK=9C move 5S FFFFFFF\nautoma 3C", "incomplete"),
    ("enter JK A\ndraw 2S 3S 4S 5S JK\nthrottle JK=9C move 5S FFFFFFFF", "E203"),  # 5 + 2 = 7
    ("enter AC\ndraw 2S 3S 4S 5S 6S\nmove 2S none", "E104"),
    ("enter AC\ndraw 2S 3S 4S 5S 6S\nbomb none -> 7D", "E110"),
    ("enter AC\ndraw 2S 3S 4S 5S 6S\nautoma 3C\nturn 3", "E201"),
    ("enter AC\ndraw 2S 3S 4S 5S 6S\nautoma 3C\nturn 02", "E105"),
    ("enter AC\ndraw 2S 3S 4S 5S 6S\nautoma 3C\nturn 1", "E201"),
    ("enter AC\ndraw 2S 3S 4S 5S 6S\nautoma 3C\nstate at A1 facing S\nturn 2\nautoma 4C", "incomplete"),
    ("enter AC\ndraw 2S 3S 4S 5S 6S\nturn 2", "E202"),               # the Automa card first
    ("state at off alt 4 dmg 0\nenter AC\nstate dmg 0 at A1\ndraw 2S 3S 4S 5S 6S", "incomplete"),
    ("state facing S", "E213"),                                       # off the map: no facing
    ("enter AC\nstate at A1 at A1", "E114"),
    ("enter AC\nstate", "E107"),
    ("enter AC\nstate alt -1", "E105"),
    ("enter 7H C", "E113"),
    ("enter none C", "E113"),
    ("enter none", "E210"),
    # Kings (R29): after two actions still, not after a Throttle or an exit, never in the draw
    ("enter AC\ndraw 2S 3S 4S KS 6S\nmove 2S F\nmove 3S F\nresupply KS -> 7D\nautoma 3C", "incomplete"),
    ("enter AC\ndraw 2S 3S 9S KS 6S\nthrottle 9S move 2S F\nresupply KS -> 7D", "E202"),
    ("enter AC\ndraw 2S 3S 9S KS 6S\nmove 2S RF\nresupply KS -> 7D", "E202"),
    ("enter AC\ndraw 2S 3S 4S KS\nresupply KS -> 7D", "E208"),
    ("enter AC\ndraw 2S 3S 4S KS\ndraw 6S\nresupply KS->7D\nautoma 3C", "incomplete"),
    ("enter AC\ndraw 2S 3S 4S KS 6S\nresupply KD -> 7D", "E204"),
    ("enter AC\ndraw 2S 3S 4S 5S 6S\nstate at off", "E213"),
    ("reshuffle", "E209"),                                            # 54 cards in the pile
    ("enter AC\ndraw 2S 3S 4S 5S 6S\nmove 2S F\ndraw 7D", "E202"),   # the draw comes first (R6)
    ("enter AC\ndraw 2S 3S 4S KS 6S\nresupply KS -> 7D\ndraw 8D", "E207"),  # the hand is full
    ("enter AC\ndraw 2S 3S 4S 5S 6S none", "E210"),
])
def test_body(turn1, expected):
    text = "bgrid-log: 1\n" + QUIET_MAP + "turn 1\n" + turn1 + "\n"
    verdict, code, _ = v(text)
    assert (code or verdict) == expected


@pytest.mark.parametrize("first, expected", [
    ("turn 2", "E201"), ("turn 0", "E201"), ("draw 2S", "E125"), ("player: Ada\nturn 1\nplayer: Bob", "E124"),
])
def test_turn_one_first(first, expected):
    assert v("bgrid-log: 1\n" + QUIET_MAP + first + "\n")[1] == expected


# -- challenge deck --------------------------------------------------------------------------

CODE = encode_code(ChallengeSpec("standard-1", "normal", 1, 1944))
DECK = [str(c) for c in mission_from_code(CODE).deck]  # the rules' own deck order, top first


def test_challenge_deck_every_card_is_the_expected_one():
    # the entry card is the deck's first, then five drawn (R25)
    good = f"bgrid-log: 1\nchallenge: {CODE}\nturn 1\nenter {DECK[0]}\ndraw {' '.join(DECK[1:6])}\n"
    verdict = verify_log(good)
    assert (verdict.verdict, verdict.assurance) == ("incomplete", "exact")
    other = next(c for c in ("7H", "8H") if c != DECK[0])
    bad = verify_log(good.replace(f"enter {DECK[0]}", f"enter {other}"))
    assert bad.errors[0].code == "E206" and DECK[0] in bad.errors[0].message
    swapped = good.replace(f"{DECK[4]} {DECK[5]}", f"{DECK[5]} {DECK[4]}")
    bad = verify_log(swapped)
    assert (bad.errors[0].code, bad.errors[0].line) == ("E206", 5)
    assert f"gives {DECK[4]}" in bad.errors[0].message  # the first mismatch names the expected card


@pytest.mark.parametrize("extra, expected", [
    ("difficulty: hard", "E126"), ("ridges: 1", "E126"), ("ruleset: standard-1", "incomplete"),
    ("ruleset: other-9", "E127"),
])
def test_challenge_fixes_difficulty_and_ridges(extra, expected):
    verdict, code, _ = v(f"bgrid-log: 1\nchallenge: {CODE}\n{extra}\n")
    assert (code or verdict) == expected


def test_challenge_code_spelling_does_not_change_the_id():
    bare = CODE.replace("-", "")
    ids = {verify_log(f"bgrid-log: 1\nchallenge: {spelled}\nturn 1\nenter {DECK[0]}\n").verification_id
           for spelled in (CODE, CODE.lower(), bare, " ".join(bare[i:i + 4] for i in range(0, 11, 4)))}
    assert len(ids) == 1


# -- verification id -------------------------------------------------------------------------

def reformatted(text: str) -> str:
    """The same log written differently: case, spacing, comments, T for 10, suit symbols,
    split step words, arrows without spaces, CRLF and a BOM."""
    out = []
    for i, line in enumerate(text.split("\n")):
        line = line.replace("10", "T") if line.startswith(("draw", "automa")) else line
        line = line.replace("H", "♥\ufe0f") if line.startswith("automa") else line
        free_text = line.startswith(("player", "date"))  # its case is kept (docs: Verdicts)
        line = line.upper() if i % 2 and not free_text else line
        line = line.replace(" ", "  \t ").replace("FF", "F F").replace(" -> ", "->")
        out.append(line + ("  # note" if i % 3 == 0 else ""))
    return "\ufeff" + "\r\n".join(out)


def test_verification_id_ignores_reformatting_and_sees_every_edit():
    # turn 98 moves A1 -> A3 before its 'automa none', so no draw follows the move
    text = quiet(header="claim: defeat -1\nplayer: Ada", before={98: "move 2S FF"})
    base = verify_log(text)
    assert base.verdict == "valid"
    again = verify_log(reformatted(text).encode("utf-8"))
    assert (again.verdict, again.verification_id) == ("valid", base.verification_id)
    edits = [text.replace("claim: defeat -1", "claim: defeat -2"),
             text.replace("move 2S FF", "move 2S F"),
             text.replace(f"automa {FIRST_PASS[9]}\n", f"automa {FIRST_PASS[9]}\nstate dmg 0\n"),
             text.replace("player: Ada", "player: Bob"),
             text.replace("player: Ada", "player: ADA"),
             text.replace("turn 49\n", "reshuffle\nturn 49\n"),
             text + "state dmg 1\n"]
    ids = {verify_log(t).verification_id for t in edits}
    assert base.verification_id not in ids and len(ids) == len(edits)


def test_the_id_hashes_the_canonical_log_and_the_play_digest_its_body_alone():
    # written canonically already, so the text hashed is the log as it stands here
    header = ("bgrid-log: 1\nmap mountains: H1 G2\nmap bunkers: F7 H10 I3 D10 H4 F9\n"
              "map artillery: A8 A2 J4 A7\ndifficulty: easy\n")
    body = "turn 1\nenter 4D\ndraw 3D 4H 5H 4C 3S\n"
    verdict = verify_log(header + body)
    # each part followed by a NUL: the version, the ruleset, the map (mountains by cell
    # number, targets in their order, the deck played), the log
    parts = ("bgrid-verify-1", "standard-1", "M:H1 G2|B:F7 H10 I3 D10 H4 F9|A:A8 A2 J4 A7|deck:own",
             header + body)
    expected = hashlib.sha256(b"".join(part.encode() + b"\x00" for part in parts)).hexdigest()[:16]
    assert verdict.verification_id == expected
    # the league's flag: the statements' lines, newline between, no header
    assert verdict.play_digest == hashlib.sha256(body.rstrip("\n").encode()).hexdigest()


# -- R35 at the first exhaustion ---------------------------------------------------------------

def own_deck_log(hand: list[str], turn49: str, bunkers: str = "A10 B10 C10 D10 E10 F10") -> str:
    """Turns 1..48 of a quiet mission with ``hand`` drawn in turn 1 (the 48 other cards but
    AC are the Automa cards), then turn 49 with ``turn49`` where the draw pile is empty."""
    rest = [str(c) for c in FULL_DECK if str(c) not in ["AC", *hand]]
    assert len(rest) == 48
    lines = ["bgrid-log: 1", QUIET_MAP.replace("A10 B10 C10 D10 E10 F10", bunkers).rstrip("\n"),
             "turn 1", "enter AC", "draw " + " ".join(hand)]
    for turn, card in enumerate(rest, start=1):
        lines += ([f"turn {turn}"] if turn > 1 else []) + [f"automa {card}"]
    return "\n".join(lines + ["turn 49", turn49]) + "\n"


@pytest.mark.parametrize("turn49, expected", [
    # R35/R8: a King goes to the discard pile before its replacement is drawn, so the new
    # pile holds it and it may come straight back
    ("resupply KS -> KS\nstate dmg 1", "incomplete"),
    ("resupply KS -> AC\nstate dmg 1", "incomplete"),
    ("resupply KS -> 2S", "E205"),                      # in the hand
    ("reshuffle\nresupply KS -> KS", "incomplete"),
    ("move 2S F\nautoma 2S\nstate at A2 dmg 1", "incomplete"),   # 2S was discarded after its move
])
def test_the_new_draw_pile_holds_a_resupplied_king(turn49, expected):
    verdict, code, _ = v(own_deck_log(["2S", "3S", "4S", "KS", "6S"], turn49))
    assert (code or verdict) == expected


@pytest.mark.parametrize("turn49, expected", [
    # a bomb card awaiting its reveal is not in the new pile (R35); the bunker is at A1
    ("bomb 7H -> 7H", "E205"),
    ("bomb 7H -> AC\nstate dmg 1", "incomplete"),
])
def test_the_new_draw_pile_lacks_a_card_being_resolved(turn49, expected):
    verdict, code, _ = v(own_deck_log(["2S", "3S", "4S", "7H", "6S"], turn49,
                                      bunkers="A1 B10 C10 D10 E10 F10"))
    assert (code or verdict) == expected


def test_an_unreadable_log_is_identified_by_its_bytes():
    import hashlib
    for data in (b"bgrid-log: 1\nseed: 1944\nturn 1\nenter 1H\n", b"player: Ada\n",
                 b"bgrid-log: 1\nmap mountains:\nmap bunkers: A1\nmap artillery: B1\n"):
        # docs/log-format.md, Verdicts: a fixed prefix, a NUL, the bytes
        expected = hashlib.sha256(b"bgrid-verify-raw\x00" + data).hexdigest()[:16]
        assert verify_log(data).verification_id == expected


def test_the_size_limit_counts_bytes_for_text_too():
    # 600,000 two-byte letters in a comment: 1.2 MB as UTF-8, over the 1 MiB of Lexical
    text = "bgrid-log: 1\nseed: 1944\n# " + "\u00e9" * 600_000 + "\n"
    assert verify_log(text).errors[0].code == "E001"
    assert verify_log(text.encode("utf-8")).errors[0].code == "E001"
    small = "bgrid-log: 1\nseed: 1944\n# " + "\u00e9" * 500_000 + "\n"  # 1,000,027 bytes
    assert verify_log(small).verdict == "incomplete"


@pytest.mark.parametrize("ending, expected", [
    ("automa 3C\r\n", "incomplete"), ("automa 3C\n", "incomplete"), ("automa 3C", "incomplete"),
    ("automa 3C\r", "E003"),                 # a CR not before an LF (log-format: Lexical)
    ("automa\r3C\n", "E003"), ("automa 3C\x0c\n", "E003"), ("automa 3C # \x00\n", "E003"),
])
def test_line_ends(ending, expected):
    text = "bgrid-log: 1\r\n" + QUIET_MAP + START.replace("automa 3C\n", ending)
    verdict, code, _ = v(text)
    assert (code or verdict) == expected


# -- R26: the challenge deck after the reshuffle, worked independently of the engine ---------

def _cards_taken(text: str):
    """Walk a log in the writer's spelling by hand: yield (line index, token index, card,
    discard pile before the card is taken) for every card drawn or revealed, keeping the
    hand and the discard pile by R8 and R35 (a guns/bomb card waits for its reveal off the
    pile; a King is discarded before its replacement is drawn)."""
    hand, discard = Counter(), Counter()
    for i, line in enumerate(text.split("\n")):
        words = line.split("#")[0].split()
        if not words or ":" in words[0] or words[0] in ("turn", "state", "reshuffle"):
            continue
        kind, args = words[0], words[1:]
        physical = lambda w: "JK" if w.startswith("JK") else w  # noqa: E731
        if kind in ("enter", "automa"):
            if args[0] != "none":
                yield i, 1, args[0], Counter(discard)
                discard[args[0]] += 1
        elif kind == "draw":
            for j, card in enumerate(args, start=1):
                if card != "none":
                    yield i, j, card, Counter(discard)
                    hand[card] += 1
        elif kind in ("move", "alt"):
            hand[physical(args[0])] -= 1
            discard[physical(args[0])] += 1
        elif kind == "throttle":
            for card in (args[0], args[2]):
                hand[physical(card)] -= 1
                discard[physical(card)] += 1
        elif kind == "resupply":
            hand[physical(args[0])] -= 1
            discard[physical(args[0])] += 1
            if args[-1] != "none":
                yield i, len(args), args[-1], Counter(discard)
                hand[args[-1]] += 1
        elif kind in ("guns", "bomb"):
            played = physical(args[0])
            hand[played] -= 1
            if args[-1] != "none":
                yield i, len(args), args[-1], Counter(discard)
                discard[args[-1]] += 1
            discard[played] += 1


def test_challenge_reshuffle_order_and_the_expected_card_after_it():
    from bgrid.challenges.mission import mission_from_seed
    from bgrid.challenges.seeding import stream
    from bgrid.players.simulated_logs import simulated_log
    checked = 0
    for k in (11, 13, 15, 17):  # simulated random players on challenge decks that ran out twice
        mission = mission_from_seed(100 + k, "easy")
        text, final = simulated_log(mission, stream("standard-1", f"audit-{k}", 1), challenge_deck=True)
        assert final.exhaustions == 2
        number = {}
        for card, n in zip(mission.deck, mission.reshuffle, strict=True):
            number[str(card)] = min(n, number.get(str(card), n))
        taken = list(_cards_taken(text))
        assert [c for _, _, c, _ in taken[:54]] == [str(c) for c in mission.deck]  # R25
        line, _, first, pile = taken[54]  # the first card of the new pile
        order = sorted(pile.elements(), key=lambda c: number[c])  # R26: lowest number on top
        second_pass = [c for _, _, c, _ in taken[54:]]
        assert second_pass == order[:len(second_pass)]
        # the log with the first card after the reshuffle swapped for the second: E206 (R26)
        lines = text.split("\n")
        assert lines[line].split(" ").count(first) == 1 and order[1] != first
        lines[line] = lines[line].replace(first, order[1])
        bad = verify_log("\n".join(lines))
        err = bad.errors[0]
        assert (err.code, err.line, err.rule) == ("E206", line + 1, "R26")
        assert f"gives {first}" in err.message
        checked += 1
    assert checked == 4
