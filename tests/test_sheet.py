"""The mission sheet, read back with pypdf: size, pages, code, board, stacking list, sealed
rendering, escaping, determinism, fonts and metadata."""

from __future__ import annotations

import io
import re
import shutil
import socket
import subprocess
from itertools import pairwise

import jinja2
import pytest

from bgrid.generator import sealed_pdf, sheet
from bgrid.generator.qr import QUIET_ZONE, qr_matrix, qr_svg
from bgrid.rules.errors import BGridError
from bgrid.challenges.mission import mission_from_seed

from pdf_probe import MM, reader, stroked_segments, unembedded_fonts

PAPER_PT = {"a4": (595.276, 841.890), "letter": (612.0, 792.0)}  # ISO 216 / ANSI, by hand
PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
PLAYER = "Ada <script>alert(1)</script> & co"


@pytest.fixture(scope="module")
def mission():
    return mission_from_seed(1944)


@pytest.fixture(scope="module")
def sheets(mission):
    return {paper: sheet.render_sheet(mission, paper, PLAYER) for paper in ("a4", "letter")}


def page_texts(pdf_bytes: bytes) -> list[str]:
    return [page.extract_text() for page in reader(pdf_bytes).pages]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_board_page_three_log_pages_and_a_deck_page(sheets, paper):
    pdf = reader(sheets[paper])
    assert len(pdf.pages) == 5  # nothing spills: each part starts on its own page
    for page in pdf.pages:
        assert float(page.mediabox.width) == pytest.approx(PAPER_PT[paper][0], abs=0.2)
        assert float(page.mediabox.height) == pytest.approx(PAPER_PT[paper][1], abs=0.2)
    texts = page_texts(sheets[paper])
    assert "mission sheet" in texts[0] and "counts as ♥" in texts[0]  # the aid's last card row
    assert all(t.startswith("Turn log") for t in texts[1:4])
    assert "stacking list" in texts[4] and "Turn log" not in texts[4]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_most_crowded_mission_still_fits_its_pages(paper):
    crowded = mission_from_seed(77, difficulty="easy", ridges=4)
    texts = page_texts(sheet.render_sheet(crowded, paper, "W" * 60))
    assert len(texts) == 5 and "counts as ♥" in texts[0]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_longest_pilot_with_yardsticks_and_stars_still_fits_page_one(paper):
    """The header's every line at once: a 60-letter pilot, both yardsticks and a rating. On
    Letter the date's blank used to wrap below the name, and the aid's last lines spilled onto
    a page of their own (7 pages, the deck page pushed to the next right-hand page)."""
    from bgrid.players.blind import BlindBenchmark
    from bgrid.players.rating import Rating

    crowded = mission_from_seed(77, difficulty="easy", ridges=4)
    texts = page_texts(sheet.render_sheet(crowded, paper, "W" * 60, 15, Rating((2, 3) * 128, 0),
                                          BlindBenchmark((-3,) * 20 + (12,) * 20, 40), winnable=True))
    assert len(texts) == 5
    assert "Discard the Automa card" in texts[0] and "Dead hand" in texts[0] and "(R40)" in texts[0]


def test_code_seed_and_settings_printed(sheets, mission):
    text = reader(sheets["a4"]).pages[0].extract_text()
    assert mission.code in text
    for value in ("1944", "normal", "standard-1"):
        assert value in text
    assert "health 5" in text  # R4: normal


def test_every_cell_labelled_on_the_board(sheets):
    text = reader(sheets["a4"]).pages[0].extract_text()
    names = set(re.findall(r"\b([A-J](?:10|[1-9]))\b", text))
    assert names >= {f"{c}{r}" for c in "ABCDEFGHIJ" for r in range(1, 11)}


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_printed_board_grid_is_10_by_10_cells_of_15_mm(sheets, paper):
    pdf = reader(sheets[paper])
    segments = stroked_segments(pdf.pages[0], pdf)
    side = 150 * MM  # ten 15 mm cells
    vertical = sorted(x1 for x1, y1, x2, y2 in segments
                      if abs(x1 - x2) < 0.01 and abs(abs(y2 - y1) - side) < 0.5)
    horizontal = sorted(y1 for x1, y1, x2, y2 in segments
                        if abs(y1 - y2) < 0.01 and abs(abs(x2 - x1) - side) < 0.5)
    for lines in (vertical, horizontal):
        assert len(lines) == 11
        assert all(b - a == pytest.approx(15 * MM, abs=0.05) for a, b in pairwise(lines))
    width = PAPER_PT[paper][0]
    assert vertical[0] >= 5 * MM and width - vertical[-1] >= 5 * MM


def test_board_cells_are_15_mm_with_targets_where_the_map_says(mission):
    board = sheet.board_context(mission)
    assert board["cell_mm"] >= 15
    kinds = {c["name"]: c["kind"] for c in board["cells"]}
    m = mission.game_map
    assert sorted(n for n, k in kinds.items() if k == "bunker") == sorted(str(c) for c in m.bunkers)
    assert sorted(n for n, k in kinds.items() if k == "artillery") == sorted(str(c) for c in m.artillery)
    assert sorted(n for n, k in kinds.items() if k == "mountain") == sorted(str(c) for c in m.mountains)
    # C7 is the third column, seventh row: one label strip plus 2 and 6 cells in
    c7 = next(c for c in board["cells"] if c["name"] == "C7")
    assert (c7["x"], c7["y"]) == (board["label_mm"] + 2 * 15, board["label_mm"] + 6 * 15)


def test_stacking_list_is_the_deck_top_first_with_reshuffle_numbers(sheets, mission):
    """Read back from the deck page: a row of nine boxes gives a line of positions, lines of
    cards and a line of reshuffle numbers, each in the deck's order."""
    text = page_texts(sheets["a4"])[4]
    lines = text[text.index("Reshuffle numbers by card"):].splitlines()
    rows = [list(range(r, min(r + 9, 55))) for r in range(1, 55, 9)]
    start = lines.index("1 2 3 4 5 6 7 8 9")
    assert [[int(n) for n in line.split()] for line in lines[start:start + 6]] == rows
    cards = " ".join(lines[start + 6:start + 18]).split()
    assert sorted(cards) == sorted(c.pretty for c in mission.deck)
    numbers = [[int(n) for n in line.split()] for line in lines[start + 18:start + 24]]
    assert numbers == [[mission.reshuffle[p - 1] for p in row] for row in rows]


def test_each_stacking_box_holds_its_position_card_and_number(mission):
    """The drawing's letters, read from its SVG: each card's first letter lies in the box of
    its deck position, after the position and before the reshuffle number."""
    grid = sheet.stackgrid_context(mission)
    w, h = grid["box_w"], grid["box_h"]
    runs = grid["runs"]

    def letters(run):
        return list(zip(run["text"], map(float, run["x"].split()), map(float, run["y"].split()), strict=True))

    red, black = iter(letters(runs["red"])), iter(letters(runs["black"]))
    for i, card in enumerate(mission.deck):
        x0, y0 = grid["boxes"][i]
        shown = [next(red if card.is_red else black) for _ in card.pretty]
        assert "".join(ch for ch, _, _ in shown) == card.pretty
        _, x, y = shown[0]
        assert x0 < x < x0 + w / 2 and y0 < y < y0 + h
    assert runs["positions"]["text"] == "".join(str(p) for p in range(1, 55))
    assert runs["reshuffle"]["text"] == "".join(str(n) for n in mission.reshuffle)


def test_reshuffle_numbers_by_card_match_the_stacking_list(sheets, mission):
    """The by-card table: a suit a line (♥ ♦ ♣ ♠), ranks A … K, then the two Jokers (R41)."""
    text = page_texts(sheets["a4"])[4]
    lines = text.splitlines()
    head = lines.index("A 2 3 4 5 6 7 8 9 10 J Q K")
    table = [[int(n) for n in line.split()] for line in lines[head + 6:head + 11]]
    by_card = {}
    for card, number in zip(mission.deck, mission.reshuffle, strict=True):
        by_card.setdefault(str(card), []).append(number)
    ranks = ["A"] + [str(r) for r in range(2, 11)] + ["J", "Q", "K"]
    for line, suit in zip(table[:4], "HDCS", strict=True):
        assert line == [by_card[rank + suit][0] for rank in ranks]
    assert table[4] == sorted(by_card["JK"])
    assert table[4][1] == table[4][0] + 1


def test_the_log_pages_never_show_the_deck_order(sheets, mission):
    for text in page_texts(sheets["a4"])[:4]:
        assert "stacking list" not in text
    deck_page = page_texts(sheets["a4"])[4]
    assert "face down or cut it off" in deck_page


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_turn_log_rows_run_from_1_to_the_longest_mission(sheets, paper):
    """Rows 1 … 101: the deck bound (longest_mission_turns), which is above the 99.9th
    percentile of simulated missions (98, bench/bench_mission_length.py). Every log page
    repeats the mission's code and the column heads."""
    texts = page_texts(sheets[paper])[1:4]
    numbers = []
    for text in texts:
        numbers += [int(n) for n in re.findall(r"^\s*(\d+)\s*$", text, flags=re.M)]
        assert "0M00-0001-WR3" in text.splitlines()[0]
        for word in ("turn enter draw", "action 1", "action 2", "automa", "at facing", "ALT", "DMG",
                     "art 1 art 2 art 3 art 4"):
            assert word in text
    assert numbers == list(range(1, 102))
    assert "bgrid-log: 1" in texts[0]


def test_longest_mission_bound_worked_by_hand():
    # 54 cards, then the discards without a hand of at least 5 - 2 = 3: 105 cards; turn 1
    # takes the entry card and 5, every later turn at least one, the last may take none
    from bgrid.rules.ruleset import load_ruleset

    assert sheet.longest_mission_turns(load_ruleset("standard-1")) == 1 + (105 - 6) + 1


def test_numbered_artillery_in_a_tracker_with_current_cell_and_suppression(sheets, mission):
    board_page, log_page = page_texts(sheets["a4"])[:2]
    tracker = board_page[board_page.index("Artillery\n# start"):]
    start_cells = [str(c) for c in mission.game_map.artillery]
    for number, cell in enumerate(start_cells, start=1):
        assert re.search(rf"^{number} {cell}", tracker, flags=re.M)
    assert "art 1 art 2 art 3 art 4" in log_page
    hint = " ".join(log_page.split())
    assert "a piece's cell when it moves" in hint and "s when suppressed" in hint
    assert "✕ when destroyed" in hint
    # on the board, each piece carries its number next to its A
    board = sheet.board_context(mission)
    numbered = {c["name"]: c["number"] for c in board["cells"] if c["kind"] == "artillery"}
    assert numbered == {cell: n for n, cell in enumerate(start_cells, start=1)}


def test_bunker_boxes_are_sorted_by_column_then_row(sheets):
    text = page_texts(sheets["a4"])[0]
    start = text.index("Bunkers hit")
    section = text[start:text.index("Artillery", start)]
    cells = re.findall(r"[A-J](?:10|[1-9])", section)
    assert cells == ["B3", "E2", "G1", "G3", "H4", "I4"]  # seed 1944: placed E2 G1 B3 I4 G3 H4


def test_player_name_is_text_not_markup(mission, sheets):
    html = sheet.render_sheet_html(mission, "a4", PLAYER)
    assert "<script>alert" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co" in html
    assert "<script>alert(1)</script>" in reader(sheets["a4"]).pages[0].extract_text()


def test_a_player_name_longer_than_its_line_is_refused(mission):
    with pytest.raises(BGridError, match="room for 60"):
        sheet.sheet_context(mission, "a4", "x" * 61)


def test_a_missing_template_value_is_an_error(mission):
    context = sheet.sheet_context(mission)
    del context["health"]
    with pytest.raises(jinja2.UndefinedError):
        sheet._ENV.get_template(sheet.SHEET_TEMPLATE).render(context)


def test_same_mission_same_bytes(mission, sheets):
    # the parsed stylesheet and its fonts are shared across renders: another mission
    # rendered in between must not change a sheet's bytes
    sheet.render_sheet(mission_from_seed(5, difficulty="hard"), "letter", "Bo")
    assert sheet.render_sheet(mission, "a4", PLAYER) == sheets["a4"]
    assert sheet.render_sheet(mission, "a4", None) != sheets["a4"]


def test_fonts_embedded_and_only_ours(sheets):
    pdf = reader(sheets["a4"])
    assert unembedded_fonts(pdf) == []
    names = set()
    for page in pdf.pages:
        for ref in page["/Resources"]["/Font"].values():
            names.add(str(ref.get_object()["/BaseFont"]).split("+")[-1])
    assert names and all(n.startswith("BGrid-Sans") for n in names)


def test_metadata_carries_code_and_ruleset(sheets, mission):
    meta = reader(sheets["letter"]).metadata
    assert mission.code in meta.title
    assert mission.code in meta["/Keywords"] and "standard-1" in meta["/Keywords"]
    # WeasyPrint writes custom <meta> names in lower case
    assert meta["/bgridcode"] == mission.code and meta["/bgridruleset"] == "standard-1"
    assert "/CreationDate" not in meta and "/ModDate" not in meta  # no clock time


def test_remote_and_outside_resources_are_refused(monkeypatch):
    def no_network(*args, **kwargs):
        raise AssertionError("the sheet renderer opened a network connection")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    asked = ["http://example.com/tracker.png", "https://example.com/evil.css",
             "file:///etc/passwd", (sealed_pdf.TEMPLATES / ".." / "pyproject.toml").resolve().as_uri()]
    html = (f'<html><head><link rel="stylesheet" href="{asked[1]}">'
            f'<style>@import url("{asked[1]}"); body {{ background: url({asked[0]}) }}</style></head>'
            f'<body><img src="{asked[0]}"><img src="{asked[2]}"><img src="{asked[3]}">'
            '<img src="data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22'
            ' width=%222%22 height=%222%22/%3E">'
            '<p>sealed</p></body></html>')
    fetcher = sealed_pdf.sheet_fetcher()
    pdf = reader(sealed_pdf.html_to_pdf(html, b"test", fetcher))
    assert set(asked) <= set(fetcher.refused)
    assert not any(u.startswith("data:") for u in fetcher.refused)
    page = pdf.pages[0]
    xobjects = page["/Resources"].get("/XObject", {})
    images = [x for x in xobjects.values() if x.get_object().get("/Subtype") == "/Image"]
    assert images == []  # nothing fetched, nothing drawn
    assert "sealed" in page.extract_text()


def test_fetcher_serves_the_templates_folder():
    fetcher = sealed_pdf.sheet_fetcher()
    response = fetcher.fetch((sealed_pdf.TEMPLATES / "sheet.css").as_uri())
    assert b"@font-face" in response.read()
    assert fetcher.refused == []


def test_qr_svg_draws_the_encoder_matrix_with_a_quiet_zone():
    code = "0M00-0001-WR3"
    matrix = qr_matrix(code)
    assert len(matrix) == 21  # version 1
    for r0, c0 in ((0, 0), (0, 14), (14, 0)):  # finder patterns: 7x7 ring around a 3x3 core
        for r in range(7):
            for c in range(7):
                ring = r in (0, 6) or c in (0, 6)
                core = 2 <= r <= 4 and 2 <= c <= 4
                assert matrix[r0 + r][c0 + c] == (ring or core)
    svg = qr_svg(code)
    dark = set()
    for x, y, w in re.findall(r"M(\d+) (\d+)h(\d+)", svg):
        for dx in range(int(w)):
            dark.add((int(y) - QUIET_ZONE, int(x) + dx - QUIET_ZONE))
    assert dark == {(r, c) for r in range(21) for c in range(21) if matrix[r][c]}
    assert f'viewBox="0 0 {21 + 2 * QUIET_ZONE} {21 + 2 * QUIET_ZONE}"' in svg


@pytest.mark.skipif(shutil.which("zbarimg") is None, reason="zbarimg (zbar-tools) not installed")
def test_qr_on_the_printed_sheet_scans_as_the_code(sheets, mission, tmp_path):
    from bgrid.generator.preview import pdf_to_pngs

    png = tmp_path / "page1.png"
    png.write_bytes(pdf_to_pngs(sheets["a4"], dpi=150, pages=[0])[0])
    out = subprocess.run(["zbarimg", "--quiet", "--raw", str(png)], capture_output=True, text=True)
    assert out.stdout.strip() == mission.code


def _dark_runs(values, threshold=128):
    """Centres (pixel index) of the runs of dark pixels in a row or column of grey levels."""
    runs, start = [], None
    for i, v in enumerate(list(values) + [255]):
        if v < threshold and start is None:
            start = i
        elif v >= threshold and start is not None:
            runs.append((start + i - 1) / 2)
            start = None
    return runs


@pytest.mark.parametrize("paper, pitch_mm", [("a4", 6.4), ("letter", 5.8)])
def test_turn_log_rows_are_ruled_on_the_printed_page(sheets, paper, pitch_mm):
    """The empty rows are drawn lines (not table cells): look at the printed pixels of the
    first log page. Pitch by hand: 6.2 / 5.6 mm of writing room plus the 0.2 mm line."""
    from PIL import Image

    from bgrid.generator.preview import pdf_to_pngs

    dpi = 200
    px_mm = dpi / 25.4
    image = Image.open(io.BytesIO(pdf_to_pngs(sheets[paper], dpi=dpi, pages=[1])[0])).convert("L")
    # 2 mm left of the "action 2" column's end (110 of the 179 width shares; no text there):
    # evenly spaced lines, the example row's bottom border and one under each row
    x = round((9 + 110 / 179 * (PAPER_MM[paper][0] - 18) - 2) * px_mm)
    ys = [y / px_mm for y in _dark_runs(image.getpixel((x, y)) for y in range(image.height))]
    steps = [round(b - a, 1) for a, b in pairwise(ys)]
    marks = "".join("=" if abs(st - pitch_mm) < 0.25 else "x" for st in steps)
    run = max(len(s) for s in marks.split("x"))
    assert run >= 34  # the rows of a log page (sheet.LOG_PAGE_ROWS)
    # across row 15, just under its top line (above the row number): the fifteen column
    # lines, from margin to margin (9 mm each side); row 1 starts under the example row
    first = ys[marks.index("=" * run)]
    y = round((first + 14 * pitch_mm + 0.7) * px_mm)
    xs = [x / px_mm for x in _dark_runs(image.getpixel((x, y)) for x in range(image.width))]
    assert len(xs) == 15
    assert xs[0] == pytest.approx(9, abs=0.4) and xs[-1] == pytest.approx(PAPER_MM[paper][0] - 9, abs=0.4)


def test_board_labels_sit_where_the_single_labels_did(mission):
    """The board's 151 labels are drawn as 14 SVG texts with a position a letter; check the
    positions by hand (15 mm cells after a 6 mm strip, names 0.8 mm in) and the advance
    widths with fontTools (ReportLab computes them in the code)."""
    from fontTools.ttLib import TTFont

    def advances(font_file, size):
        font = TTFont(str(sealed_pdf.TEMPLATES / "fonts" / font_file))
        cmap, hmtx, upem = font.getBestCmap(), font["hmtx"], font["head"].unitsPerEm
        return lambda letter: hmtx[cmap[ord(letter)]][0] * size / upem

    labels = sheet.board_context(mission)["labels"]
    names = [run for run in labels if run["cls"] == "cellname"]
    coords = [run for run in labels if run["cls"] == "coord"]
    assert len(names) == 10 and len(coords) == 4
    name_advance = advances("DejaVuSansCondensed.ttf", 2.1)
    row10 = names[9]
    assert row10["text"] == "".join(f"{c}10" for c in "ABCDEFGHIJ")
    xs = [float(v) for v in row10["x"].split()]
    assert [float(v) for v in row10["y"].split()] == pytest.approx([6 + 9 * 15 + 2.3] * 30, abs=1e-3)
    for col in range(10):
        x0 = xs[3 * col]
        assert x0 == pytest.approx(6 + col * 15 + 0.8, abs=1e-3)
        assert xs[3 * col + 1] == pytest.approx(x0 + name_advance("ABCDEFGHIJ"[col]), abs=1e-3)
        assert xs[3 * col + 2] == pytest.approx(xs[3 * col + 1] + name_advance("1"), abs=1e-3)
    # the left-hand row numbers: each centred on its row's middle, 3 mm from the edge
    coord_advance = advances("DejaVuSansCondensed-Bold.ttf", 3.6)
    left = next(run for run in coords if run["text"] == "12345678910" and float(run["x"].split()[0]) < 6)
    xs = [float(v) for v in left["x"].split()]
    assert xs[-2] + (coord_advance("1") + coord_advance("0")) / 2 == pytest.approx(3, abs=1e-3)
    assert xs[0] + coord_advance("1") / 2 == pytest.approx(3, abs=1e-3)
    assert float(left["y"].split()[0]) == pytest.approx(6 + 7.5 + 1.3, abs=1e-3)


def test_the_deck_page_restacks_in_piles_of_ten(sheets):
    """The deck page restacks in piles of ten: deal by number, order each pile by its row of
    the by-number table, turn the stack over (R26), one lookup a card and no 49-card sort
    (bench/bench_restack.py counts the steps)."""
    for paper in ("a4", "letter"):
        text = " ".join(page_texts(sheets[paper])[4].split())
        assert "look up each discarded card here" not in text
        assert "Restacking when the deck runs out (R26), in piles of ten" in text
        assert "onto 6 piles by reshuffle number: 1–10, 11–20, 21–30, 31–40, 41–50, 51–54" in text
        assert "Turn the whole stack over: the lowest number is on top, face down" in text
        assert "Cards by reshuffle number, a pile a row" in text


def test_each_by_number_box_holds_the_card_with_that_number(mission):
    """The by-number drawing, read from its letters: row k holds numbers 10k+1 … 10k+10 left
    to right, and each box's card is the card the stacking list gives that number (both
    Jokers print as JK, R41)."""
    table = sheet.by_number_context(mission)
    w, h = table["box_w"], table["box_h"]
    runs = table["runs"]

    def letters(run):
        return list(zip(run["text"], map(float, run["x"].split()), map(float, run["y"].split()), strict=True))

    number_of = {}
    for card, number in zip(mission.deck, mission.reshuffle, strict=True):
        number_of.setdefault(card.pretty, set()).add(number)
    red, black, numbers = letters(runs["red"]), letters(runs["black"]), letters(runs["numbers"])
    assert runs["numbers"]["text"] == "".join(str(n) for n in range(1, 55))
    assert runs["piles"]["text"] == "1–1011–2021–3031–4041–5051–54"
    for n in range(1, 55):
        x0, y0 = table["boxes"][n - 1]
        row, col = divmod(n - 1, 10)
        assert (x0, y0) == (pytest.approx(15 + col * w, abs=1e-3), pytest.approx(0.1 + row * h, abs=1e-3))
        inside = "".join(ch for ch, x, y in red + black if x0 < x < x0 + w and y0 < y < y0 + h)
        assert n in number_of[inside], (n, inside)
        first_digit = next((x, y) for ch, x, y in numbers if x0 < x < x0 + w and y0 < y < y0 + h)
        assert first_digit[0] < x0 + w / 2  # the number sits top left, the card below it
