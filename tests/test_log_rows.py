"""The row form of the log body (docs/log-format.md, §5 The row form): a turn a line in the sheet's columns,
read into the same statements as the statement form and printed back by ``verify --rows``.

The small board of tests/test_verify_messages.py: mountains E1 E2; bunkers A5 C3 G7 H2 I9 J4;
artillery B9 F8 J1 D10. ``enter 3H`` puts the bomber on C1 facing south at altitude 4 (R13).
With the player's own deck any card not yet drawn may come, so the logs choose their cards.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from bgrid.cli import cli
from bgrid.log.row_writer import row_lines
from bgrid.players.simulated_logs import simulated_log
from bgrid.challenges.mission import mission_from_seed
from bgrid.players.simulation import PLAYERS
from bgrid.challenges.seeding import stream
from bgrid.log.reader import parse_log
from bgrid.log.row_reader import is_row, play_with_verb
from bgrid.verifier.verify import row_form, verify_log

LOGS = Path(__file__).parent / "logs"
HAND_ROWS = (LOGS / "hand" / "daily-rows.log").read_text(encoding="utf-8")
HAND = (LOGS / "hand" / "daily-statements.log").read_text(encoding="utf-8")
MAP = ("bgrid-log: 1\nmap mountains: E1 E2\nmap bunkers: A5 C3 G7 H2 I9 J4\n"
       "map artillery: B9 F8 J1 D10\n")  # lines 1-4


def body(text: str) -> list[str]:
    """The canonical statements of a log's body."""
    return [st.canonical() for st in parse_log(MAP + text).statements]


# -- reading ------------------------------------------------------------------------------

def test_the_hand_played_pencil_rows_verify_valid_as_the_typed_log_did():
    rows, typed = verify_log(HAND_ROWS), verify_log(HAND)
    assert rows.verdict == typed.verdict == "valid"
    assert (rows.outcome, rows.cause, rows.score.total) == (typed.outcome, typed.cause, 4) == \
        ("defeat", "damage", 4)
    assert rows.turns == typed.turns == 13


def test_the_pencil_rows_read_into_the_typed_statements_plus_their_art_checks():
    rows = [line for line in (st.canonical() for st in parse_log(HAND_ROWS).statements)]
    typed = [st.canonical() for st in parse_log(HAND).statements]
    # the pencil rows check the artillery too; otherwise the statements are the typed ones
    without_art = [line.split(" art ")[0] for line in rows]
    assert without_art == typed
    assert rows[8] == "state at F3 facing E alt 4 dmg 0 art F9 H2 C5 G3"
    assert rows[14] == "state at F3 facing E alt 2 dmg 0 art F8 G2 D5 x"


@pytest.mark.parametrize(("cell", "statement"), [
    ("5C FFLF", "move 5C FFLF"), ("JH", "alt JH"), ("6H C4 → 2S", "guns 6H C4 -> 2S"),
    ("7H → 9D", "bomb 7H -> 9D"), ("9S 3C FFFFF", "throttle 9S move 3C FFFFF"),
    ("9S QC", "throttle 9S alt QC"), ("JK=6S C4 → 2S", "guns JK=6S C4 -> 2S"),
    ("KD->4S", "resupply KD -> 4S"), ("7H 9D", "bomb 7H -> 9D"), ("6H C4 2S", "guns 6H C4 -> 2S"),
    ("move 5C FFLF", "move 5C FFLF"), ("throttle 9S move 3C F F", "throttle 9S move 3C FF"),
])
def test_a_play_without_its_verb_is_read_by_its_cards_rank(cell, statement):
    assert body(f"1 | 3H | 2S 3S 4S 5S 6S |  | {cell}\n")[3] == statement


@pytest.mark.parametrize(("typed", "statement"), [
    ("5C FFLF", "move 5C FFLF"), ("8S AS", "bomb 8S -> AS"), ("8S->AS", "bomb 8S -> AS"),
    ("JK=6S C4 2S", "guns JK=6S C4 -> 2S"), ("9S 3C FFFFF", "throttle 9S move 3C FFFFF"),
    ("9S QC", "throttle 9S alt QC"), ("KD 4S", "resupply KD -> 4S"), ("10H", "alt 10H"),
    ("bomb 8S", "bomb 8S"), ("draw", "draw"), ("C", "C"), ("enter 7H", "enter 7H"),
])
def test_one_play_without_its_verb_gets_the_verb_of_its_cards_rank(typed, statement):
    assert play_with_verb(typed, "standard-1") == statement


def test_two_kings_a_king_after_an_action_and_a_second_draw_share_a_cell():
    got = body("1 | 3H | 2S; 3S KH KC 4S | KH->5S KC 6S | 2S FF; KD->7S | QS\n")
    assert got == ["turn 1", "enter 3H", "draw 2S", "draw 3S KH KC 4S", "resupply KH -> 5S",
                   "resupply KC -> 6S", "move 2S FF", "resupply KD -> 7S", "alt QS"]


def test_reshuffle_and_none_stand_in_the_cell_where_they_happened():
    got = body("1 | 3H | 2S 3S reshuffle 4S |  | reshuffle 7H->none\n2 |  |  |  |  |  | reshuffle none\n")
    assert got == ["turn 1", "enter 3H", "draw 2S 3S", "reshuffle", "draw 4S", "reshuffle",
                   "bomb 7H -> none", "turn 2", "reshuffle", "automa none"]


def test_the_state_cells_check_what_they_hold_and_nothing_else():
    got = body("1 | 3H | | | | | 8C | C1 S | 4 | 0/5 |  | F7 s | ✕ | s\n2 | | | | | | 2H | off\n")
    assert got[3] == "state at C1 facing S alt 4 dmg 0/5 art - F7s x -s"
    assert got[6] == "state at off"
    assert body("1 | 3H | | | | | 8C\n")[-1] == "automa 8C"  # no state cell, no state check


def test_a_pencilled_dash_is_an_empty_cell():
    # a player dashes out the cells with nothing in them: a dash is an empty cell everywhere
    # ("not checked" in an art cell), never a bad card (E101) or cell (E102)
    got = body("1 | 3H | 2S 3S 4S 5S 6S | - | 2S FF | \u2014 | 8C | \u2013 | 4 | - | - | F8\n")
    assert got == ["turn 1", "enter 3H", "draw 2S 3S 4S 5S 6S", "move 2S FF", "automa 8C",
                   "state alt 4 art - F8"]


def test_commas_between_cards_and_plays_read_as_spaces():
    # 'KH->10D, KC->8D' was E101 "'10D,' is not a card"
    got = body("1 | 3H | 2S, 3S, KH, KC, 4S | KH->5S, KC 6S | 2S FF, KD->7S | QS\n")
    assert got == ["turn 1", "enter 3H", "draw 2S 3S KH KC 4S", "resupply KH -> 5S",
                   "resupply KC -> 6S", "move 2S FF", "resupply KD -> 7S", "alt QS"]


def test_a_cell_and_facing_written_close_and_every_cross_for_destroyed():
    # 'C1S' was E102 "'C1S' is not a cell"; × ✗ ✘ ✖ were E102 "not an artillery piece's place"
    got = body("1 | 3H | | | | | 8C | C1S | 4 | 0 | × | ✗ | ✘ | ✖\n2 | | | | | | 2H | A10w, \n")
    assert got[3] == "state at C1 facing S alt 4 dmg 0 art x x x x"
    assert got[6] == "state at A10 facing W"
    # the state line's own words in the cell ('F3 facing E' was E108 "one cell too many")
    assert body("1 | 3H | | | | | 8C | at C1 facing S\n")[3] == "state at C1 facing S"
    assert body("turn 1\nstate art × ✕ X x\n")[1] == "state art x x x x"


def test_a_joker_declared_with_spaces_around_the_equals_sign():
    # 'JK = 6S' was E111 "a played Joker carries the card it stands for, e.g. JK=7H"
    got = body("1 | 3H | 2S JK 4S 5S 6S |  | JK = 5H FF | JK =QS\n")
    assert got[3:] == ["move JK=5H FF", "alt JK=QS"]  # read only, not replayed
    line = "1 | 3H | 2S JK 4S 5S 6S |  | JK = 5H FF"
    st = parse_log(MAP + line + "\n").statements[-1]
    assert [(t.text, t.column) for t in st.tokens[1:]] == [("JK=5H", line.index("JK =") + 1),
                                                          ("FF", line.index("FF") + 1)]


def test_the_pencil_rows_with_a_players_punctuation_keep_their_id():
    typed = (HAND_ROWS.replace("KH→10D KC→8D", "KH → 10D, KC → 8D").replace("| ✕", "| ×")
             .replace("3 |  | 2S 4S |  |", "3 | - | 2S 4S | - |").replace("| F3 E |", "| F3E |"))
    assert typed.count("F3E") == 2 and "×" in typed and "- | 2S 4S | - |" in typed
    rows, pencil = verify_log(typed), verify_log(HAND_ROWS)
    assert rows.verdict == "valid" and rows.score.total == 4
    assert rows.verification_id == pencil.verification_id


def test_rows_and_statement_lines_mix():
    got = body("1 | 3H | 2S 3S 4S 5S 6S\nmove 2S FF\nautoma 8C\n2 | | 7C |  | 3S F\n")
    assert got == ["turn 1", "enter 3H", "draw 2S 3S 4S 5S 6S", "move 2S FF", "automa 8C", "turn 2",
                   "draw 7C", "move 3S F"]


def test_a_verb_and_the_arrow_keep_their_columns():
    st = parse_log(MAP + "1 | 3H | 2S 3S 4S 5S 6S |  | 6S J1 -> 2D\n").statements[-1]
    line = "1 | 3H | 2S 3S 4S 5S 6S |  | 6S J1 -> 2D"
    assert [(t.text, t.column) for t in st.tokens[1:]] == [
        (w, line.rindex(w) + 1) for w in ("6S", "J1", "->", "2D")]


# -- errors point at the row's line and the cell's column ---------------------------------

@pytest.mark.parametrize(("row", "code", "column"), [
    ("1 | 3H | 2S 3X", "E101", 13),          # a bad card in the draw cell
    ("1 | 3H | 2S 3S 4S 5S 6S |  | 2S", "E107", 32),  # no steps: just after the part
    ("1 | 3H | 2S 3S 4S 5S 6S |  | fly", "E106", 30),
    ("1 | 3H | | | | | | | | | | | | | 9", "E108", 34),  # a 15th cell
    ("1 | 3H | | | | | | C1 S | 4 | 0 | K3", "E102", 35),
    ("1 | 3H | | | | | | C1 S | four", "E105", 27),
])
def test_notation_errors_point_into_the_row(row, code, column):
    err = verify_log(MAP + row + "\n").errors[0]
    assert (err.code, err.line, err.column) == (code, 5, column), err.render()


def test_a_rule_broken_in_a_row_points_at_its_cell():
    # alt QH from altitude 4 would climb to 6 (R7)
    err = verify_log(MAP + "1 | 3H | QH 3S 4S 5S 6S |  | 3S F | QH\n").errors[0]
    assert (err.code, err.line, err.column, err.token) == ("E203", 5, 37, "QH")


def test_a_wrong_art_cell_names_the_piece_at_its_column():
    err = verify_log(MAP + "1 | 3H | | | | | | C1 S | 4 | 0 | B9 | F7\n").errors[0]
    assert (err.code, err.line, err.column) == ("E213", 5, 40)
    assert err.message.startswith("artillery 2 is at F8, not at F7")


# -- printing: what the toolkit prints it reads back -------------------------------------

def test_verify_rows_prints_the_statement_log_with_the_same_id():
    printed = row_form(HAND)
    assert sum(1 for line in printed.splitlines() if is_row(line)) == 13
    assert verify_log(printed).verification_id == verify_log(HAND).verification_id
    assert "13||6C 9S||reshuffle; 6H C9->10C||8C|D9 E|4|5" in printed


def test_verify_rows_splits_two_statements_of_a_cell_by_a_semicolon_as_the_sheet_asks():
    """Was ``1|4H|5S JK 8S KH KC|KH->10D KC->8D|…`` and ``13||6C 9S||reshuffle 6H C9->10C||…``:
    the sheet's turn log asks "Two in one cell: split by ;" and writes its reshuffle row
    ``reshuffle; 6H C9 → 10C``. The printed rows read back into the same statements."""
    printed = row_form(HAND)
    rows = {line.split("|", 1)[0]: line for line in printed.splitlines() if is_row(line)}
    assert rows["1"].split("|")[3] == "KH->10D; KC->8D"
    assert rows["10"].split("|")[3] == "KD->4C; KS->7C"
    assert rows["13"].split("|")[4] == "reshuffle; 6H C9->10C"
    assert [st.canonical() for st in parse_log(printed).statements] == \
        [st.canonical() for st in parse_log(HAND).statements]
    # a King after an action, a second draw line and a draw that spans the marker: each
    # statement of a cell after a ';', read back the same
    log = parse_log(MAP + "turn 1\nenter 3H\ndraw 2S 3S\ndraw KS 4S\nreshuffle\ndraw 5S\n"
                          "move 2S FF\nresupply KS -> 6S\nautoma 8S\nreshuffle\n")
    lines = row_lines(log.statements)
    assert lines == ["1|3H|2S 3S; KS 4S; reshuffle; 5S||2S FF; KS->6S||8S; reshuffle"]
    assert body(lines[0] + "\n") == [st.canonical() for st in log.statements]


def test_verify_rows_cli(tmp_path):
    path = tmp_path / "m.log"
    path.write_text(HAND, encoding="utf-8")
    result = CliRunner().invoke(cli, ["verify", str(path), "--rows"])
    assert result.exit_code == 0 and result.output == row_form(HAND)
    bad = tmp_path / "bad.log"
    bad.write_text(HAND.replace("automa 9D", "automa 9H"), encoding="utf-8")
    result = CliRunner().invoke(cli, ["verify", str(bad), "--rows"])
    assert result.exit_code == 1 and result.stdout == "" and "E206" in result.stderr
    result = CliRunner().invoke(cli, ["verify", str(path), str(path), "--rows"])
    assert result.exit_code == 2 and "--rows prints one log" in result.output


def test_statements_that_come_late_for_their_column_keep_their_verb_in_the_row():
    log = parse_log(MAP + "turn 1\nenter 3H\ndraw 2S 3S 4S 5S 6S\nstate alt 4\nmove 2S FF\n"
                    "draw 7S\nautoma 8C\nstate dmg 0\n")
    lines = row_lines(log.statements)
    assert lines == ["1|3H|2S 3S 4S 5S 6S; state alt 4||2S FF; draw 7S||8C|||0"]
    assert [st.canonical() for st in parse_log(MAP + lines[0] + "\n").statements] == \
        [st.canonical() for st in log.statements]


# -- every corpus log and a sample of simulated missions, both ways ------------------------

CORPUS = sorted(LOGS.rglob("*.log"))


def _key(verdict):
    err = verdict.errors[0] if verdict.errors else None
    return (verdict.verdict, verdict.outcome, verdict.cause,
            None if verdict.score is None else verdict.score.total, err and err.code)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_each_corpus_log_in_row_form_keeps_its_verdict(path):
    text = path.read_text(encoding="utf-8")
    log = parse_log(text)
    from bgrid.log.writer import log_text

    rows = log_text(log.header.canonical_lines(), log.statements, rows=True)
    before, after = verify_log(text), verify_log(rows)
    assert _key(after) == _key(before)
    assert after.verification_id == before.verification_id
    if after.errors:  # a mutation: its error lies inside a row, at the statement's own words
        err, was = after.errors[0], before.errors[0]
        line = rows.splitlines()[err.line - 1]
        assert is_row(line) and 1 <= err.column <= len(line) + 1
        written = text.splitlines()[was.line - 1].split("#")[0].strip()
        shown = line[err.column - 1:]
        assert shown.startswith(err.token) and (err.token in written or err.token == line.split("|")[0])


SAMPLE = [(seed, difficulty, ridges, challenge, player)
          for seed, (difficulty, ridges, challenge, player) in enumerate(
              [(d, r, c, p) for d in ("easy", "normal", "hard", "ace") for r in (1, 2, 3, 4)
               for c in (True, False) for p in ("random", "greedy")][::2], start=4100)]


@pytest.mark.parametrize(("seed", "difficulty", "ridges", "challenge", "player"), SAMPLE)
def test_simulated_missions_printed_in_rows_keep_verdict_score_and_outcome(seed, difficulty, ridges,
                                                                          challenge, player):
    mission = mission_from_seed(seed, difficulty, ridges)
    args = {"challenge_deck": challenge, "player": PLAYERS[player], "state_lines": True}
    text, _ = simulated_log(mission, stream("standard-1", f"rows-{seed}", 0), **args)
    printed = row_form(text)
    written, _ = simulated_log(mission, stream("standard-1", f"rows-{seed}", 0), rows=True, **args)
    statement, rows, sheet = verify_log(text), verify_log(printed), verify_log(written)
    assert statement.verdict == "valid"
    assert _key(rows) == _key(statement) == _key(sheet)
    assert rows.verification_id == statement.verification_id


def test_simulate_writes_row_logs_that_verify(tmp_path):
    out = tmp_path / "logs"
    result = CliRunner().invoke(cli, ["simulate", "--seed", "1944", "--games", "3", "--write-logs",
                                      str(out), "--rows", "--state-lines"])
    assert result.exit_code == 0, result.output
    for path in sorted(out.glob("*.log")):
        text = path.read_text()
        assert any(is_row(line) for line in text.splitlines())
        assert not any(line.startswith(("turn ", "automa ")) for line in text.splitlines())
        assert verify_log(text).verdict == "valid"


def test_the_worked_example_in_the_docs_is_one_mission_in_both_forms():
    doc = (Path(__file__).parent.parent / "docs" / "log-format.md").read_text(encoding="utf-8")
    section = doc.split("**Worked example: the hand-played daily mission.**")[1]
    rows, statements = section.split("```")[1].strip("\n"), section.split("```")[3].strip("\n")
    assert rows + "\n" == row_form(HAND_ROWS)
    one, other = verify_log(rows), verify_log(statements)
    assert one.verdict == other.verdict == "valid" and one.score.total == other.score.total == 4
    assert one.verification_id == other.verification_id
    assert all(is_row(line) for line in rows.splitlines()[7:])


ROOT = Path(__file__).parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
ROW_FORM_EXAMPLES = [d for d in DOCUMENTS if "(the *row form*;" in d.read_text(encoding="utf-8")]


@pytest.mark.parametrize("document", ROW_FORM_EXAMPLES, ids=lambda d: d.name)
def test_the_row_form_example_is_two_turns_of_its_challenge(document):
    rows = document.read_text(encoding="utf-8").split("(the *row form*;")[1].split("```")[1]
    verdict = verify_log("bgrid-log: 1\nchallenge: 0M00-0001-WR3\n" + rows)
    assert verdict.verdict == "incomplete" and not verdict.errors and verdict.turns == 2


def test_the_verify_page_shows_a_joker_entrys_column_in_the_enter_cell():
    """The Verify page's row-form box showed no face-card or Joker entry, and ``JK`` alone
    there is E113; its hint ``1|JK I|…`` reads as ``enter JK I`` (R13)."""
    page = (ROOT / "docs" / "verify.md").read_text(encoding="utf-8")
    hint = page.split("(the *row form*;")[1].split("`1|")[1].split("|…`")[0]
    assert hint == "JK I"
    assert body(f"1|{hint}|\n") == ["turn 1", "enter JK I"]
    marker = page.split("`16||")[1].split("|…`")[0]
    assert body(f"16||{marker}|\n") == ["turn 16", "reshuffle", "draw 9H"]


def test_the_sheets_example_rows_verify_as_typed():
    """The type-in box's rows (generator/sheet.py) read by the row reader: turn 1 of seed
    1944 with two Kings and the art check is a legal turn; the reshuffle row reads its
    marker and its guns."""
    from bgrid.generator.sheet import LOG_EXAMPLES

    first = " | ".join(LOG_EXAMPLES[0])
    verdict = verify_log("bgrid-log: 1\nseed: 1944\n" + first + "\n")
    assert verdict.verdict == "incomplete" and verdict.errors == []
    assert "artillery 1 (H6), 2 (A9), 3 (E6), 4 (D5)" in verdict.state
    reshuffle = parse_log(MAP + " | ".join(LOG_EXAMPLES[1]) + "\n").statements
    assert [st.kind for st in reshuffle][:4] == ["turn", "draw", "reshuffle", "guns"]


def _replay_cases():
    """The replay messages' cases of tests/test_verify_messages.py (E2xx, one each)."""
    from test_verify_messages import CASES

    return sorted((code, case[0]) for code, case in CASES.items()
                  if code.startswith("E2") and code not in ("E214", "E299") and isinstance(case[0], str))


@pytest.mark.parametrize(("code", "log"), _replay_cases(), ids=lambda x: x if len(x) == 4 else "")
def test_each_replay_message_in_row_form_keeps_its_code_inside_a_row(code, log):
    printed = row_form(log)
    err = verify_log(printed).errors[0]
    line = printed.splitlines()[err.line - 1]
    assert err.code == code and is_row(line)
    assert line[err.column - 1:].startswith(err.token)


def test_a_reshuffle_just_before_the_turns_state_check_is_written_where_it_reads_back():
    # the companion writes 'automa 8S', 'reshuffle', 'state …' when the Automa card emptied
    # the pile; the row put the marker after the art cells, where a row cannot read it
    statements = parse_log(MAP + "turn 1\nenter 7H\ndraw 2S 3S 4S 5S 6S\nautoma 8S\nreshuffle\n"
                                 "state at G1 facing S alt 4 dmg 0 art B9 F8 J1 D10\n").statements
    rows = row_lines(statements)
    assert rows == ["1|7H|2S 3S 4S 5S 6S||||8S; reshuffle|G1 S|4|0|B9|F8|J1|D10"]
    assert body(rows[0] + "\n") == [st.canonical() for st in statements]
