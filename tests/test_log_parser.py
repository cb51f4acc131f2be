"""The log parser: forgiving of spelling, exact about tokens, never anything but LogError."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgrid.rules.actions import Altitude, Bomb, Guns, Move, Resupply, Throttle
from bgrid.rules.board import CELLS, Cell
from bgrid.rules.cards import FULL_DECK, Card
from bgrid.log import reader as log_parser
from bgrid.log.lexer import MAX_BYTES
from bgrid.log.messages import LogError
from bgrid.log.notation import ParsedLog

# One memo of lines read before for the whole file, as a Verifier keeps it from log to log:
# every test also checks that a line remembered from another test changes nothing.
MEMO: dict = {}


def parse_log(text):
    return log_parser.parse_log(text, MEMO)

HEAD = "bgrid-log: 1\nseed: 1944\n"


def body(text: str) -> list:
    return parse_log(HEAD + "turn 1\n" + text).statements[1:]


def error_of(text: str) -> LogError:
    with pytest.raises(LogError) as info:
        parse_log(text)
    return info.value


def test_the_example_of_the_design_note_parses_statement_by_statement():
    log = parse_log(HEAD + "difficulty: normal\nplayer: Ada\nclaim: victory 9\n\nturn 1\n"
                    "enter 7H   # G1\ndraw 2S 9H KD QH 5C\nresupply KD -> 4S\nmove 5C FFLF\n"
                    "alt QH\nautoma 8C\n")
    h = log.header
    assert (h.source, h.seed, h.difficulty, h.player, h.claim) == \
        ("seed", 1944, "normal", "Ada", ("victory", 9))
    kinds = [s.kind for s in log.statements]
    assert kinds == ["turn", "enter", "draw", "resupply", "move", "alt", "automa"]
    assert log.statements[0].number == 1
    assert log.statements[1].cards == (Card.parse("7H"),)
    assert log.statements[2].cards == tuple(Card.parse(c) for c in "2S 9H KD QH 5C".split())
    assert log.statements[3].action == Resupply(Card.parse("KD"))
    assert log.statements[3].cards == (Card.parse("4S"),)
    assert log.statements[4].action == Move(Card.parse("5C"), "FFLF")
    assert log.statements[5].action == Altitude(Card.parse("QH"))
    # line numbers count every line, the blank one and the header included
    assert [s.line for s in log.statements] == [7, 8, 9, 10, 11, 12, 13]


def test_forgiving_spellings_all_mean_the_same_statements():
    plain = parse_log(HEAD + "turn 1\nresupply KD -> 4S\nmove 5C FFRF\nguns 6H C4 -> 10D\n")
    sloppy = parse_log("\ufeffBGRID-LOG:1\r\nSeed :  1944\r\nTURN 1\r\n"
                       "Resupply kd->4s\r\n  move\t5c ff R f \r\nguns 6\u2665\ufe0f c4-> t\u2666\r\n")
    assert [s.canonical() for s in plain.statements] == [s.canonical() for s in sloppy.statements]
    assert plain.canonical_text() == sloppy.canonical_text()


def test_tokens_keep_their_columns_after_a_bom_and_around_an_arrow():
    log = parse_log("\ufeffbgrid-log: 1\nseed: 1\nturn 1\nbomb 7H->AS\n")
    bomb = log.statements[1]
    assert [(t.text, t.column) for t in bomb.tokens] == [("bomb", 1), ("7H", 6), ("->", 8), ("AS", 10)]
    assert bomb.action == Bomb(Card.parse("7H"))


def test_throttle_guns_state_and_none():
    st_ = body("throttle 9H move JK=4C FF FFRF\nthrottle 9S alt QC\nguns JK=6D J10 -> none\n"
               "state dmg 2 at off alt 0\nautoma none\ndraw 4S none\nenter none\n")
    assert st_[0].action == Throttle(Card.parse("9H"), Move(Card.parse("JK=4C"), "FFFFRF"))
    assert st_[1].action == Throttle(Card.parse("9S"), Altitude(Card.parse("QC")))
    assert st_[2].action == Guns(Card.parse("JK=6D"), Cell.parse("J10")) and st_[2].cards == (None,)
    assert st_[3].checks == (("dmg", 2, 2), ("at", None, 4), ("alt", 0, 6))
    assert st_[4].cards == (None,) and st_[5].cards == (Card.parse("4S"), None) and st_[6].cards == (None,)


def test_face_card_entry_takes_a_column():
    enter = body("enter QS c\n")[0]
    assert enter.cards == (Card.parse("QS"),) and enter.column == 2


@pytest.mark.parametrize("line, code, column", [
    ("move 5C FFXF", "E104", 9),          # X is no step
    ("guns 6H C07 -> 2D", "E102", 9),     # exact cells: no leading zero
    ("guns 6H K3 -> 2D", "E102", 9),
    ("guns 6H A0 -> 2D", "E102", 9),
    ("draw 1H", "E101", 6),               # 1 is not an Ace
    ("draw 2S,3S", "E101", 6),            # commas are not separators
    ("turn 0x2", "E105", 6),
    ("turn 02", "E105", 6),
    ("turn \uff12", "E105", 6),           # a full-width digit is not a decimal digit
    ("move 7H FF", "E112", 6),            # a 7 is no movement card
    ("move JK FF", "E111", 6),            # a played Joker carries its declaration
    ("draw JK=7H", "E111", 6),            # a drawn Joker does not
    ("enter 7H C", "E113", 10),
    ("bomb 7H AS", "E109", 9),
    ("bomb 7H ->", "E107", 11),
    ("alt QH QD", "E108", 8),
    ("fly 5C", "E106", 1),
    ("move 5C none", "E104", 9),
    ("alt none", "E110", 5),
    ("draw none 4S", "E110", 6),
    ("state at C4 at C5", "E114", 13),
    ("state height 3", "E114", 7),
    ("state facing X", "E115", 14),
    ("throttle 9H guns 6H", "E106", 13),
    ("seed: 3", "E124", 1),
])
def test_exact_about_tokens(line, code, column):
    err = error_of(HEAD + "turn 1\n" + line + "\n")
    assert (err.code, err.line, err.column) == (code, 4, column)


@pytest.mark.parametrize("line", ["move JK = 5H FF", "move JK= 5H FF", "move JK =5H FF",
                                  "move jk = 5h FF", "move JK\t=\t5H FF"])
def test_a_joker_declared_with_spaces_around_the_equals_sign_reads_as_in_a_row(line):
    # these were E111 "a played Joker carries the card it stands for, e.g. JK=7H" (or E101
    # "'JK=' declares nothing"), while a row's cell read them
    st = body(line + "\n")[0]
    assert st.canonical() == "move JK=5H FF"
    assert [(t.text.upper(), t.column) for t in st.tokens] == [("MOVE", 1), ("JK=5H", 6),
                                                                ("FF", line.index("FF") + 1)]


@pytest.mark.parametrize("line, said", [
    # the format keeps commas out of a statement line (log-format, Lexical: "Commas are not
    # separators"); the message says what to write instead, the line without them
    ("draw 2S, 3S", "'2S,' is not a card: cards are separated by spaces, not commas: "
                    "write 'draw 2S 3S'"),
    ("draw 2S,3S 4H", "'2S,3S' is not a card: cards are separated by spaces, not commas: "
                      "write 'draw 2S 3S 4H'"),
    ("draw 2S , 3S", "',' is not a card: cards are separated by spaces, not commas: "
                     "write 'draw 2S 3S'"),
    ("guns JK = 6S, C4 -> 2S", "',' is not a cell: expected a column A-J then a row 1-10, e.g. "
                               "C7; commas are not separators: write 'guns JK=6S C4 -> 2S'"),
    ("guns 6H C4, -> 2S", "'C4,' is not a cell: expected a column A-J then a row 1-10, e.g. C7; "
                          "commas are not separators: write 'guns 6H C4 -> 2S'"),
    # two statements a row's cell would hold: a statement line holds one
    ("resupply KH->10D, KC->8D", "'10D,' is not a card: cards are separated by spaces, not "
                                 "commas: write one statement a line: 'resupply KH->10D', "
                                 "'resupply KC->8D'"),
    ("state at G1, facing S", "'G1,' is not a cell: the checks of a state line are separated "
                              "by spaces, not commas: write 'state at G1 facing S'"),
    # what the line would be without its commas does not read either: an example instead
    ("draw 2S, 3Z", "'2S,' is not a card: cards are separated by spaces, not commas: "
                    "e.g. 'draw 2S 3S'"),
])
def test_a_comma_in_a_statement_line_is_refused_with_the_line_to_write(line, said):
    err = error_of(HEAD + "turn 1\n" + line + "\n")
    assert err.message == said


@pytest.mark.parametrize("text, code, line", [
    ("", "E120", 1),
    ("seed: 1\nbgrid-log: 1\n", "E120", 1),
    ("bgrid-log: 2\nseed: 1\n", "E121", 1),
    ("bgrid-log: 1\nseed: 1\ncolour: red\n", "E122", 3),
    ("bgrid-log: 1\nseed: 1\nSEED: 2\n", "E123", 3),
    ("bgrid-log: 1\nseed: 1\ndraw 2S\n", "E125", 3),
    ("bgrid-log: 1\nplayer: Ada\nturn 1\n", "E126", 1),
    ("bgrid-log: 1\nseed: 1\nchallenge: 0M00-0001-WR3\n", "E126", 3),
    ("bgrid-log: 1\nchallenge: 0M00-0001-WR3\nridges: 2\n", "E126", 3),
    ("bgrid-log: 1\nmap mountains:\nmap bunkers: A1\n", "E126", 2),
    ("bgrid-log: 1\nseed: -4\n", "E105", 2),
    ("bgrid-log: 1\nseed: 1\nclaim: triumph 3\n", "E127", 3),
    ("bgrid-log: 1\nseed: 1\nclaim: defeat\n", "E107", 3),
])
def test_header_errors(text, code, line):
    err = error_of(text)
    assert (err.code, err.line) == (code, line)


def test_several_ridge_lines_are_one_key_each_ridge():
    log = parse_log("bgrid-log: 1\nsetup ridge: AH 3S 2D 4C\nsetup ridge: 5H KS 5D 6C 7C\n"
                    "setup bunkers: " + " ".join(["2H"] * 12)
                    + "\nsetup artillery: 3H 3D 3C 3S 4H 4D 4C 4S\n")
    assert len(log.header.setup_ridges) == 2 and log.header.setup_ridges[1][1] == Card.parse("KS")


def test_explicit_map_mountains_may_be_empty():
    log = parse_log("bgrid-log: 1\nmap mountains:\nmap bunkers: A1 B2\nmap artillery: C3\n")
    assert log.header.map_mountains == [] and log.header.map_bunkers == [Cell.parse("A1"), Cell.parse("B2")]


def test_input_errors_say_where():
    err = error_of(b"bgrid-log: 1\nseed: 1\nturn 1\ndraw 2S \xff3S\n")
    assert (err.code, err.line, err.column) == ("E002", 4, 9)
    err = error_of("bgrid-log: 1\nseed: 1\x00\n")
    assert (err.code, err.line, err.column) == ("E003", 2, 8)
    err = error_of(b"#" * (MAX_BYTES + 1))
    assert err.code == "E001"


def test_a_one_megabyte_comment_line_is_read():
    text = HEAD + "#" + "x" * (MAX_BYTES - 100) + "\nturn 1\n"
    assert len(parse_log(text.encode()).statements) == 1


def test_caret_sits_under_the_token():
    err = error_of(HEAD + "turn 1\nmove 5C FF\nguns 6H C07 -> 2D\n")
    lines = err.render().splitlines()
    quoted, caret = lines[1], lines[2]
    assert quoted.endswith("guns 6H C07 -> 2D")
    assert caret.index("^") == quoted.index("C07") and caret.strip() == "^^^"


def test_canonical_text_reparses_to_itself():
    log = parse_log(HEAD + "claim: defeat -3\nturn 1\nenter JK c\ndraw 2s 3s\nthrottle 9h alt jh\n"
                    "state alt 5 at C1\n")
    again = parse_log(log.canonical_text())
    assert again.canonical_text() == log.canonical_text()
    assert again.header.claim == ("defeat", -3)


# -- fuzzing: any bytes, any edit: a ParsedLog or a LogError, nothing else ---------------

SAMPLE = (HEAD + "claim: victory 9\nturn 1\nenter 7H\ndraw 2S 9H KD QH 5C\nresupply KD -> 4S\n"
          "move 5C FFLF\nguns 6H C4 -> 2D\nthrottle 9H move 4C FFRF\nautoma 8C\nstate at C4 alt 3\n")


def _parses_or_log_error(data) -> None:
    try:
        parse_log(data)
    except LogError as exc:
        assert exc.code.startswith("E")
        exc.render()
        if exc.line is not None:
            assert exc.line >= 1 and exc.column >= 1


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=400))
def test_random_bytes_give_a_log_or_a_log_error(data):
    _parses_or_log_error(data)
    _parses_or_log_error(b"bgrid-log: 1\nseed: 1\nturn 1\n" + data)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_random_edits_give_a_log_or_a_log_error(data):
    _parses_or_log_error(_edited(data, SAMPLE, 4, "AJKQT0123456789HDCS♥\ufe0f->= \t\n#:FLRnoe"))


def _edited(data, text: str, edits: int, alphabet: str) -> str:
    """``text`` with 1 to ``edits`` random cuts and insertions from ``alphabet``."""
    for _ in range(data.draw(st.integers(1, edits))):
        pos = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 4))
        insert = data.draw(st.text(alphabet=alphabet, max_size=4))
        text = text[:pos] + insert + text[pos + cut:]
    return text


# -- round trip: any statement printed canonically parses back to itself --------------------

_PLAIN = list(FULL_DECK)
_OF = lambda ranks: [c for c in FULL_DECK if c.rank in ranks]  # noqa: E731


def _played(ranks):
    real = st.sampled_from(_OF(ranks))
    joker = st.sampled_from(_OF(ranks)).map(lambda c: Card.parse(f"JK={c}"))
    return st.one_of(real, joker)


_steps = st.text(alphabet="FLR", min_size=1, max_size=8)
_maybe = st.one_of(st.sampled_from(_PLAIN), st.none())
_none_or = lambda card: "none" if card is None else str(card)  # noqa: E731

_statement_text = st.one_of(
    st.integers(1, 999).map(lambda n: f"turn {n}"),
    st.sampled_from([c for c in FULL_DECK if c.is_number]).map(lambda c: f"enter {c}"),
    st.tuples(st.sampled_from([c for c in FULL_DECK if not c.is_number]), st.sampled_from("ABCDEFGHIJ"))
      .map(lambda t: f"enter {t[0]} {t[1]}"),
    st.tuples(st.lists(st.sampled_from(_PLAIN), min_size=1, max_size=5), st.booleans())
      .map(lambda t: "draw " + " ".join(map(str, t[0])) + (" none" if t[1] else "")),
    st.tuples(_played({13}), _maybe).map(lambda t: f"resupply {t[0]} -> {_none_or(t[1])}"),
    st.tuples(_played({2, 3, 4, 5}), _steps).map(lambda t: f"move {t[0]} {t[1]}"),
    _played({10, 11, 12}).map(lambda c: f"alt {c}"),
    st.tuples(_played({6}), st.sampled_from(CELLS), _maybe)
      .map(lambda t: f"guns {t[0]} {t[1]} -> {_none_or(t[2])}"),
    st.tuples(_played({1, 7, 8}), _maybe).map(lambda t: f"bomb {t[0]} -> {_none_or(t[1])}"),
    st.tuples(_played({9}), _played({2, 3, 4, 5}), _steps)
      .map(lambda t: f"throttle {t[0]} move {t[1]} {t[2]}"),
    st.tuples(_played({9}), _played({10, 11, 12})).map(lambda t: f"throttle {t[0]} alt {t[1]}"),
    _maybe.map(lambda c: f"automa {_none_or(c)}"),
    st.just("reshuffle"),
    st.tuples(st.sampled_from(list(CELLS) + [None]), st.sampled_from("NESW"), st.integers(0, 5),
              st.integers(0, 9))
      .map(lambda t: f"state at {'off' if t[0] is None else t[0]} facing {t[1]} alt {t[2]} dmg {t[3]}"),
)


@settings(max_examples=400, deadline=None)
@given(_statement_text)
def test_every_statement_prints_back_as_written(text):
    log = parse_log(HEAD + "turn 1\n" + text + "\n")
    statement = log.statements[-1]
    assert statement.canonical() == text
    again = parse_log(HEAD + "turn 1\n" + statement.canonical() + "\n").statements[-1]
    assert again == statement


# -- remembered lines: a line read before gives what reading it afresh gives ------------------

def _outcome(text):
    """What parsing ``text`` gives, comparable: the statements and canonical text, or the error."""
    try:
        log = parse_log(text)
    except LogError as exc:
        return ("error", exc.code, exc.line, exc.column, exc.token, str(exc))
    fresh = ParsedLog(log.header, log.statements, log.lines)  # prints the statements again
    assert log.canonical_text() == fresh.canonical_text()
    return ("log", tuple(log.statements), log.canonical_text())


def _cold(text):
    MEMO.clear()
    return _outcome(text)


def test_a_remembered_line_keeps_its_own_line_number():
    _cold(HEAD + "turn 1\nautoma 8C\n")
    log = parse_log(HEAD + "\n\nturn 1\n# note\nautoma 8C\n")
    automa = log.statements[1]
    assert automa.line == 7 and automa.canonical() == "automa 8C"
    assert [(t.text, t.column) for t in automa.tokens] == [("automa", 1), ("8C", 8)]


def test_a_remembered_line_before_the_first_turn_is_still_out_of_place():
    _cold(HEAD + "turn 1\nautoma 8C\n")
    err = error_of(HEAD + "automa 8C\nturn 1\n")
    assert (err.code, err.line, err.column) == ("E125", 3, 1)


def test_a_control_character_is_found_among_remembered_lines():
    _cold(HEAD + "turn 1\nautoma 8C\nturn 2\n")
    err = error_of(HEAD + "turn 1\nautoma 8C\nturn 2\nautoma\x0b 8C\n")
    assert (err.code, err.line, err.column) == ("E003", 6, 7)
    # CRLF line ends are no control characters; a lone CR inside a line is
    assert parse_log(HEAD.replace("\n", "\r\n") + "turn 1\r\nautoma 8C\r\n").statements[1].line == 4
    err = error_of(HEAD + "turn 1\nautoma\r8C\n")
    assert (err.code, err.line, err.column) == ("E003", 4, 7)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_edited_logs_parse_the_same_with_and_without_remembered_lines(data):
    sample = SAMPLE + "turn 2\ndraw 4S\nautoma 8C\n"
    text = _edited(data, sample, 3, "AJKQT0123456789HDCS->= \t\r\n\x0b#:FLRnoe")
    cold = _cold(text)
    _outcome(sample + text)  # remember the lines of both
    assert _outcome(text) == cold


def test_the_words_table_names_a_verb_for_every_play_of_the_card_table_and_back():
    from bgrid.log.words import BODY_KEYWORDS, PLAY_OF_VERB, PURPOSE_OF_VERB, VERB_OF_PLAY
    from bgrid.rules.ruleset import Play, load_ruleset
    plays = {kind.play for kind in load_ruleset().card_kinds} - {Play.WILD}
    assert set(VERB_OF_PLAY) == plays
    assert all(PLAY_OF_VERB[VERB_OF_PLAY[p]] is p for p in plays)
    assert set(PLAY_OF_VERB) | set(PURPOSE_OF_VERB) <= set(BODY_KEYWORDS)
    assert sorted(PURPOSE_OF_VERB) == ["automa", "bomb", "draw", "enter", "guns", "resupply"]
