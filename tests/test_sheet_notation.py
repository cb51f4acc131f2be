"""Every notation the mission sheet prints is read by the log parser: the turn log's columns
are the row form's cells in their order (docs/log-format.md), every log page says how to type
a row and shows its example rows exactly as typed, each example is a real turn, and the aid's
declared Joker parses."""

from __future__ import annotations

import re

import pytest

from bgrid.generator import sheet
from bgrid.challenges.mission import mission_from_seed
from bgrid.log.reader import parse_log
from bgrid.verifier.verify import verify_log

from pdf_probe import reader, sized_text

BODY_HEAD = "bgrid-log: 1\nseed: 1944\nturn 1\n"
#: The row form's columns, in order, as the log format names them (docs/log-format.md, §5).
ROW_COLUMNS = ["turn", "enter", "draw", "resupply", "action 1", "action 2", "automa", "at facing",
               "ALT", "DMG", "art 1", "art 2", "art 3", "art 4"]
PENCIL_MM = 1.8  # a pencilled letter, small hand lettering (as in test_sheet_artillery_tracking)
PENCIL_SPACE_MM = 0.9
CELL_PADDING_MM = 1.6  # the cell's text inset, both sides


@pytest.fixture(scope="module", params=["a4", "letter"])
def raw_log_pages(request):
    pdf = reader(sheet.render_sheet(mission_from_seed(1944), request.param, "Ada"))
    return [page.extract_text() for page in pdf.pages[1:4]]


@pytest.fixture(scope="module")
def log_pages(raw_log_pages):
    return [" ".join(page.split()) for page in raw_log_pages]


@pytest.fixture(scope="module")
def pages():
    pdf = reader(sheet.render_sheet(mission_from_seed(1944), "a4", "Ada"))
    return [" ".join(page.extract_text().split()) for page in pdf.pages]


def parses_as_statement(text: str) -> str:
    """The statement's canonical form; raises LogError if the parser refuses it."""
    statements = parse_log(BODY_HEAD + text + "\n").statements
    assert len(statements) == 2, text
    return statements[1].canonical()


def typed_lines(page: str) -> list[str]:
    """The example rows as the type-in box prints them: the lines of the page's text that
    start with a turn number and a '|'."""
    return [line.strip() for line in page.splitlines() if re.match(r"\d+ \|", line)]


def test_the_log_columns_are_the_row_forms_columns_in_order(log_pages):
    """The sheet's log columns are the row reader's (log.row_writer), in its order and under its
    names (the fourth is "resupply", not "resupply K → card")."""
    from bgrid.log.row_writer import COLUMNS

    assert list(COLUMNS) == ROW_COLUMNS
    heads = " ".join(label for _, label, _ in sheet.LOG_COLUMNS)
    assert [label for _, label, _ in sheet.LOG_COLUMNS] == ROW_COLUMNS
    for page in log_pages:
        assert heads in page


def test_every_log_page_says_how_to_type_it_in(log_pages):
    """Every log page, not the first alone, says how to type the log in."""
    for page in log_pages:
        assert "Typing it in" in page and "claim: victory|defeat SCORE" in page
        assert "Throttle: the pair in action 1 (9S 3C FFFFF); action 2 stays empty" in page
        assert ("reshuffle: in the cell where the deck ran out, before the first card from the new "
                "deck") in page
        assert "split by ; — two Kings in resupply" in page
        assert "art: a piece's cell when it moves (blank: where it was), s when suppressed" in page


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_type_in_box_is_not_small_print(paper):
    """The type-in box is at least 7 pt on every log page, its example lines as typed at
    7.6 pt: smaller print is hard to read at the table."""
    pdf = reader(sheet.render_sheet(mission_from_seed(1944), paper))
    for page in pdf.pages[1:4]:
        sizes = {text: size for text, _, _, size in sized_text(page)}
        assert sizes["Typing it in"] >= 7
        typed = [size for text, size in sizes.items() if text.startswith("1 | 7H |")]
        assert typed and typed[0] >= 7.5


def test_the_example_rows_are_typed_as_they_stand(raw_log_pages):
    """The type-in box's lines are the grey rows' cells split by '|', in the columns' order:
    turn 1 with two Kings and the artillery check, turn 13 with a reshuffle."""
    expected = ["1 | 7H | KD 9H KC JH 5C | KD → 4S; KC → 2S | 5C FFLF | JH | 8H | H3 E | 5 | 0 "
                "| H6 | A9 | E6 | D5",
                "13 | | 6C 9S | | reshuffle; 6H C9 → 10C | | 8C | D9 E | 4 | 5"]
    heads = " ".join(label for _, label, _ in sheet.LOG_COLUMNS)
    for raw in raw_log_pages:
        assert typed_lines(raw) == expected
        page = " ".join(raw.split())
        table = page[page.index(heads) + len(heads):]
        for line in expected:  # the grey row, cell after cell, under the heads
            written = " ".join(line.replace("|", " ").split())
            assert written in table


def test_the_example_rows_say_they_come_from_other_missions(log_pages):
    """Every sheet prints seed 1944's turn 1 as its grey example: on seed 7's sheet, under its
    own challenge header, a player typing it was told only 'The grey rows are typed:' and got
    E206 for the entry card."""
    for page in log_pages:
        assert "The grey rows, examples from other missions, are typed: 1 | 7H |" in page


def test_the_printed_example_rows_typed_as_printed_are_read_by_the_verifier(raw_log_pages):
    """The type-in box's lines, copied from the printed page character for character, go
    through the verifier's row reader: turn 1 of seed 1944 is a legal turn whose art cells
    check the four pieces by number (R43); the reshuffle row reads its draw, the marker in
    the action cell, then the guns."""
    for raw in raw_log_pages:
        first, reshuffle = typed_lines(raw)
        verdict = verify_log("bgrid-log: 1\nseed: 1944\n" + first + "\n")
        assert verdict.verdict == "incomplete" and verdict.errors == []
        assert "artillery 1 (H6), 2 (A9), 3 (E6), 4 (D5)," in verdict.state
        statements = parse_log("bgrid-log: 1\nseed: 1944\n" + reshuffle + "\n").statements
        assert [st.canonical() for st in statements][:5] == [
            "turn 13", "draw 6C 9S", "reshuffle", "guns 6H C9 -> 10C", "automa 8C"]


def test_the_example_turn_is_a_legal_turn_on_seed_1944():
    """Worked by hand: 7H enters G1 facing S at ALT 4; KD and KC resupplied; 5C FFLF flies
    G2, G3, turns east, H3; JH climbs to 5; Automa 8H: at ALT 5 the range is 1 and no piece
    is adjacent, so all four step toward H3 (R19, R20): 1 H7→H6, 2 A10→A9 (equal gaps:
    along the column), 3 D6→E6, 4 C5→D5. Each cell of the row, typed as its statement:"""
    cells = dict(zip(ROW_COLUMNS, sheet.LOG_EXAMPLES[0], strict=True))
    kings = cells["resupply"].split("; ")
    statements = ["turn 1", f"enter {cells['enter']}", f"draw {cells['draw']}",
                  *(f"resupply {k}" for k in kings), f"move {cells['action 1']}",
                  f"alt {cells['action 2']}", f"automa {cells['automa']}",
                  "state at {} facing {} alt {} dmg {}".format(*cells["at facing"].split(), cells["ALT"],
                                                               cells["DMG"])]
    assert statements == ["turn 1", "enter 7H", "draw KD 9H KC JH 5C", "resupply KD → 4S",
                          "resupply KC → 2S", "move 5C FFLF", "alt JH", "automa 8H",
                          "state at H3 facing E alt 5 dmg 0"]
    verdict = verify_log("bgrid-log: 1\nseed: 1944\n" + "\n".join(statements) + "\n")
    assert verdict.verdict == "incomplete" and verdict.errors == []
    art = [cells[f"art {n}"] for n in range(1, 5)]
    assert art == ["H6", "A9", "E6", "D5"]
    # the verifier agrees on the cells, piece by piece (R43)
    assert "artillery 1 (H6), 2 (A9), 3 (E6), 4 (D5)," in verdict.state
    starts = [str(c) for c in mission_from_seed(1944).game_map.artillery]
    assert starts == ["H7", "A10", "D6", "C5"]  # pieces 1-4 in placement order (R43)


def test_the_reshuffle_example_cell_parses_as_its_statements():
    cells = dict(zip(ROW_COLUMNS, sheet.LOG_EXAMPLES[1], strict=True))
    marker, guns = cells["action 1"].split("; ")
    assert parses_as_statement(marker) == "reshuffle"
    assert parses_as_statement(f"guns {guns}") == "guns 6H C9 -> 10C"


def test_the_places_shown_parse_with_their_verbs():
    places = sheet.LOG_PLACES
    assert parses_as_statement(f"move {places['move']}") == "move 5C FFLF"
    assert parses_as_statement(f"alt {places['altitude']}") == "alt JH"
    assert parses_as_statement(f"guns {places['guns']}") == "guns 6H C4 -> 2S"
    assert parses_as_statement(f"bomb {places['bomb']}") == "bomb 7H -> 9D"
    assert parses_as_statement(f"guns {places['joker']}") == "guns JK=6S C4 -> 2S"
    card, moved = places["throttle"].split(" ", 1)
    assert parses_as_statement(f"throttle {card} move {moved}") == "throttle 9S move 3C FFFFF"
    action, king = places["king_after_action"].split("; ")
    assert parses_as_statement(f"move {action}") == "move 5S FFLFF"
    assert parses_as_statement(f"resupply {king}") == "resupply KD -> 4C"


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_resupply_cell_holds_two_kings_in_pencil(paper):
    """The resupply cell holds two Kings in pencil (a column of 16 of 179 shares, 17 mm
    on A4, would hold one)."""
    from bgrid.generator.paper import paper_size

    log = sheet.log_context(paper_size(paper)[0], 6.4, [1])
    widths = {c["label"]: c["width"] for c in log["columns"]}

    def pencil(text):
        return (sum(PENCIL_MM for ch in text if ch != " ") + text.count(" ") * PENCIL_SPACE_MM
                + CELL_PADDING_MM)

    assert widths["resupply"] >= pencil("KH → 10D; KC → 8D")  # 12 letters, 5 spaces: 27.7 mm
    assert widths["draw"] >= pencil("2S 9H KD JH 5C")
    assert widths["action 1"] >= pencil("JK=6S G3 → JD")
    assert widths["art 1"] >= pencil("C10 s")


def test_the_hints_header_lines_parse(pages):
    hint = pages[1]
    challenge = re.search(r"challenge: (\S+)", hint).group(1)
    seed_keys = re.search(r"seed: (\d+) ridges: (\d) difficulty: (\w+)", hint)
    assert parse_log(f"bgrid-log: 1\nchallenge: {challenge}\n").header.challenge
    header = parse_log("bgrid-log: 1\nseed: {}\nridges: {}\ndifficulty: {}\nclaim: victory 9\n"
                       .format(*seed_keys.groups())).header
    assert (header.seed, header.ridges, header.difficulty) == (1944, 1, "normal")


def test_the_aids_declared_joker_parses(pages):
    declared = re.search(r"\((JK=\S+?)\)", pages[0]).group(1)
    assert parses_as_statement(f"bomb {declared} -> 2S") == "bomb JK=7H -> 2S"


def test_every_log_page_shows_how_to_write_a_chosen_entry_column(log_pages):
    """A face card or Joker enters where the player chooses (R13), and its enter cell holds the
    card and the column. Before this the box went from "Cards: rank and suit letter, 7S 10D QH
    KC, Joker JK (♠ ♥ ♦ ♣ are read too)." straight to "A play is its cards: …", and a player
    who wrote JK alone got E113 with a statement-form example."""
    for page in log_pages:
        assert "Entry: the card (7H); a face card or Joker and your column (JK I)." in page


def test_the_entry_hint_typed_in_a_row_enters_the_chosen_column():
    """`JK I` in a row's enter cell is `enter JK I`: on seed 1944's own deck the bomber enters
    I1 facing south at ALT 4 with 1 DMG for the Joker (R13)."""
    typed = sheet.LOG_PLACES["entry_chosen"]
    assert typed == "JK I"
    log = f"bgrid-log: 1\nseed: 1944\n1|{typed}\n"
    assert [st.canonical() for st in parse_log(log).statements] == ["turn 1", "enter JK I"]
    verdict = verify_log(log)
    assert verdict.verdict == "incomplete" and verdict.errors == []
    assert verdict.state.startswith("turn 1, at I1 facing S, alt 4, dmg 1/5")
