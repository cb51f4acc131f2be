"""The printable deck, read back with pypdf: sizes, pages, every card, crop marks, boxes,
mirrored backs, determinism, fonts and metadata."""

from __future__ import annotations

import re
from itertools import pairwise

import pytest

from bgrid.generator.deck_pdf import parse_offset, render_deck
from bgrid.rules.errors import BGridError
from bgrid.challenges.mission import mission_from_seed

from pdf_probe import MM, positioned_text, reader, sized_text, stroked_segments, unembedded_fonts

PAPER_PT = {"a4": (595.276, 841.890), "letter": (612.0, 792.0)}  # ISO 216 / ANSI, by hand
CARD = (63 * MM, 88 * MM)


@pytest.fixture(scope="module")
def mission():
    return mission_from_seed(1944)


@pytest.fixture(scope="module")
def decks(mission):
    return {paper: render_deck(mission, paper) for paper in ("a4", "letter")}


def grid_rects(width, height, dx=0.0, dy=0.0):
    """The nine trim rectangles of a page, top row first: a 3 × 3 grid of 63 × 88 mm
    centred on the page (the layout the instructions describe)."""
    x0 = (width - 3 * CARD[0]) / 2 + dx
    y0 = (height - 3 * CARD[1]) / 2 + dy
    return [(x0 + c * CARD[0], y0 + (2 - r) * CARD[1], x0 + (c + 1) * CARD[0], y0 + (3 - r) * CARD[1])
            for r in range(3) for c in range(3)]


def texts_by_slot(page, paper="a4"):
    """The text runs of a page grouped by the grid slot (0-8, top row first) they sit in."""
    out = {}
    for text, x, y in positioned_text(page):
        for i, (x1, y1, x2, y2) in enumerate(grid_rects(*PAPER_PT[paper])):
            if x1 <= x <= x2 and y1 <= y <= y2:
                out[i] = f"{out[i]} {text}" if i in out else text
    return out


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_page_size_and_count(decks, paper):
    pdf = reader(decks[paper])
    # instructions + duplex check, then 6 sheets of 9 cards, fronts and backs
    assert len(pdf.pages) == 2 + 2 * 6
    for page in pdf.pages:
        w, h = float(page.mediabox.width), float(page.mediabox.height)
        assert w == pytest.approx(PAPER_PT[paper][0], abs=0.1)
        assert h == pytest.approx(PAPER_PT[paper][1], abs=0.1)


def test_first_page_says_print_at_100_percent_with_a_ruler(decks):
    page = reader(decks["a4"]).pages[0]
    text = page.extract_text()
    assert "100 %" in text and "Fit to page" in text
    # the ruler: 101 mm ticks standing on one baseline, 1 mm apart, 0 to 100 mm
    segments = [s for s in stroked_segments(page, reader(decks["a4"]))
                if abs(s[0] - s[2]) < 1e-6 and 1.7 * MM <= abs(s[3] - s[1]) <= 4.1 * MM]
    bases = [round(min(s[1], s[3]), 2) for s in segments]
    baseline = max(set(bases), key=bases.count)
    ticks = sorted(s[0] for s in segments
                   if round(min(s[1], s[3]), 2) == baseline and max(s[1], s[3]) > baseline + 1)
    assert len(ticks) == 101
    assert all(b - a == pytest.approx(MM, abs=0.01) for a, b in pairwise(ticks))
    assert ticks[-1] - ticks[0] == pytest.approx(100 * MM, abs=0.01)


def test_every_card_on_the_front_pages_in_stack_order(decks, mission):
    pdf = reader(decks["a4"])
    for sheet in range(6):
        slots = texts_by_slot(pdf.pages[2 + 2 * sheet])
        for slot in range(9):
            card = mission.deck[sheet * 9 + slot]
            inside = slots[slot]
            if card.is_joker:
                assert "JOKER" in inside
                continue
            rank = {1: "A", 11: "J", 12: "Q", 13: "K"}.get(card.rank, str(card.rank))
            assert inside.split()[0] == rank  # top-left corner index
            if card.rank <= 10:  # R1: column letter and row number
                assert f"column {'ABCDEFGHIJ'[card.rank - 1]} · row {card.rank}" in inside
            expected_role = {6: "GUNS", 7: "BOMB", 8: "BOMB", 9: "THROTTLE", 13: "RESUPPLY",
                             1: "PRECISION BOMB"}.get(card.rank)
            if card.rank in (10, 11, 12):
                expected_role = "CLIMB" if card.suit.value in "HD" else "DESCEND"
            if 2 <= card.rank <= 5:
                expected_role = f"MOVE {card.rank}"
            assert expected_role in inside


def test_plain_deck_has_all_54_cards_once():
    pdf = reader(render_deck(None, "letter"))
    seen = []
    for sheet in range(6):
        text = pdf.pages[2 + 2 * sheet].extract_text()
        seen += re.findall(r"column ([A-J]) · row (\d+)", text)
        assert "#" not in pdf.pages[3 + 2 * sheet].extract_text()  # plain backs
    expected = [("ABCDEFGHIJ"[r - 1], str(r)) for r in range(1, 11) for _suit in range(4)]
    assert sorted(seen) == sorted(expected)
    fronts = " ".join(pdf.pages[2 + 2 * sheet].extract_text() for sheet in range(6))
    assert fronts.count("JOKER") == 2


def test_backs_are_mirrored_and_carry_position_and_reshuffle_number(decks, mission):
    pdf = reader(decks["a4"])
    for sheet in range(6):
        slots = texts_by_slot(pdf.pages[3 + 2 * sheet])
        for slot in range(9):
            index = sheet * 9 + slot
            r, c = divmod(slot, 3)
            inside = slots[r * 3 + (2 - c)]  # long-edge flip: left and right swap
            assert f"#{index + 1}" in inside
            assert f"reshuffle {mission.reshuffle[index]}" in inside
            assert mission.code in inside


def test_challenge_fronts_carry_the_reshuffle_number_large_in_two_corners(decks, mission):
    """Each challenge front shows its reshuffle number at least 5 mm tall, framed, in the
    top-right corner and turned in the bottom-left (R26), so the face-up discards are sorted
    at an exhaustion without turning a card over or a lookup on the sheet; a plain deck's
    fronts have none."""
    pdf = reader(decks["a4"])
    rects = grid_rects(*PAPER_PT["a4"])
    corner = 16 * MM
    for sheet in range(6):
        runs = sized_text(pdf.pages[2 + 2 * sheet])
        for slot, (x1, y1, x2, y2) in enumerate(rects):
            number = str(mission.reshuffle[sheet * 9 + slot])
            top_right = [size for text, x, y, size in runs
                         if text == number and x2 - corner < x < x2 and y2 - corner < y < y2]
            bottom_left = [size for text, x, y, size in runs
                           if text == number and x1 < x < x1 + corner and y1 < y < y1 + corner]
            assert top_right and bottom_left, (sheet, slot, number)
            assert min(top_right + bottom_left) >= 5 * MM
    plain = " ".join(reader(render_deck(None, "a4")).pages[2].extract_text().split())
    assert "reshuffle" not in plain


@pytest.mark.parametrize("page_index", [2, 3, 12, 13])
def test_all_text_starts_inside_the_safe_zone(decks, page_index):
    pdf = reader(decks["letter"])
    rects = grid_rects(*PAPER_PT["letter"])
    safe = 3 * MM
    runs = positioned_text(pdf.pages[page_index])
    assert runs
    for text, x, y in runs:
        assert any(x1 + safe <= x <= x2 - safe and y1 + safe <= y <= y2 - safe
                   for x1, y1, x2, y2 in rects), (text, x / MM, y / MM)


def test_duplex_offset_shifts_only_the_backs(mission):
    plain = reader(render_deck(mission, "a4"))
    moved = reader(render_deck(mission, "a4", duplex_offset=(1.5, -2.0)))
    for i in (2, 3):
        a, b = plain.pages[i].trimbox, moved.pages[i].trimbox
        dx, dy = (1.5 * MM, -2.0 * MM) if i == 3 else (0, 0)
        assert float(b.left) - float(a.left) == pytest.approx(dx, abs=0.01)
        assert float(b.bottom) - float(a.bottom) == pytest.approx(dy, abs=0.01)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_trim_and_bleed_boxes(decks, paper):
    pdf = reader(decks[paper])
    w, h = PAPER_PT[paper]
    rects = grid_rects(w, h)
    for page in pdf.pages[2:]:
        trim, bleed = page.trimbox, page.bleedbox
        assert float(trim.left) == pytest.approx(rects[0][0], abs=0.01)
        assert float(trim.top) == pytest.approx(rects[0][3], abs=0.01)
        assert float(trim.right) == pytest.approx(rects[8][2], abs=0.01)
        assert float(trim.bottom) == pytest.approx(rects[8][1], abs=0.01)
        # bleed: at most 3 mm past the trim, and at least 5 mm inside the paper edge
        for edge in ("left", "bottom"):
            assert 0 <= float(getattr(trim, edge)) - float(getattr(bleed, edge)) <= 3 * MM + 0.01
        for edge in ("right", "top"):
            assert 0 <= float(getattr(bleed, edge)) - float(getattr(trim, edge)) <= 3 * MM + 0.01
        assert float(bleed.left) >= 5 * MM and float(bleed.bottom) >= 5 * MM
        assert w - float(bleed.right) >= 5 * MM and h - float(bleed.top) >= 5 * MM


def _on_card_edge(seg, rects, tol=0.05):
    """Does the segment run along an edge of a card rectangle (an outline)?"""
    x1, y1, x2, y2 = seg
    for rx1, ry1, rx2, ry2 in rects:
        if abs(x1 - x2) < tol:  # vertical
            lo, hi = sorted((y1, y2))
            if any(abs(x1 - ex) < tol for ex in (rx1, rx2)) and min(hi, ry2) - max(lo, ry1) > tol:
                return True
        if abs(y1 - y2) < tol:  # horizontal
            lo, hi = sorted((x1, x2))
            if any(abs(y1 - ey) < tol for ey in (ry1, ry2)) and min(hi, rx2) - max(lo, rx1) > tol:
                return True
    return False


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_crop_marks_outside_the_cards_and_never_an_outline(decks, paper):
    pdf = reader(decks[paper])
    w, h = PAPER_PT[paper]
    rects = grid_rects(w, h)
    xs = sorted({round(r[0], 2) for r in rects} | {round(r[2], 2) for r in rects})
    ys = sorted({round(r[1], 2) for r in rects} | {round(r[3], 2) for r in rects})
    for page in (pdf.pages[2], pdf.pages[3]):
        segments = stroked_segments(page, pdf)
        assert not [s for s in segments if _on_card_edge(s, rects)]
        bleed = page.bleedbox
        marks = [s for s in segments
                 if (abs(s[0] - s[2]) < 0.01 and round(s[0], 2) in xs)
                 or (abs(s[1] - s[3]) < 0.01 and round(s[1], 2) in ys)]
        margin = 5 * MM
        for x1, y1, x2, y2 in marks:  # every mark lies outside the bleed box
            assert (max(y1, y2) < float(bleed.bottom) or min(y1, y2) > float(bleed.top)
                    or max(x1, x2) < float(bleed.left) or min(x1, x2) > float(bleed.right))
            # and keeps at least 1.5 mm inside the printable area (5 mm printer margins)
            lo_x, hi_x = max(min(x1, x2), margin), min(max(x1, x2), w - margin)
            lo_y, hi_y = max(min(y1, y2), margin), min(max(y1, y2), h - margin)
            assert max(hi_x - lo_x, hi_y - lo_y) >= 1.5 * MM - 0.01, (x1 / MM, y1 / MM, x2 / MM, y2 / MM)
        # each of the 4 vertical and 4 horizontal cut lines has marks to both paper edges
        for x in xs:
            ends = {round(min(s[1], s[3]), 1) for s in marks if round(s[0], 2) == x} | \
                   {round(max(s[1], s[3]), 1) for s in marks if round(s[0], 2) == x}
            assert 0.0 in ends and round(h, 1) in ends
        for y in ys:
            ends = {round(min(s[0], s[2]), 1) for s in marks if round(s[1], 2) == y} | \
                   {round(max(s[0], s[2]), 1) for s in marks if round(s[1], 2) == y}
            assert 0.0 in ends and round(w, 1) in ends


def test_gutter_fold_puts_each_back_opposite_its_front(mission):
    pdf = reader(render_deck(mission, "letter", gutter_fold=True))
    assert len(pdf.pages) == 1 + 14  # instructions, then 4 cards a landscape page
    page = pdf.pages[1]
    w, h = float(page.mediabox.width), float(page.mediabox.height)
    assert (w, h) == pytest.approx((792.0, 612.0), abs=0.1)
    runs = positioned_text(page)
    for index in range(4):
        card = mission.deck[index]
        back = [(x, y) for t, x, y in runs if t.startswith(f"#{index + 1} ")]
        assert len(back) == 1
        if not card.is_number:
            continue
        front = [(x, y) for t, x, y in runs
                 if t == f"column {'ABCDEFGHIJ'[card.rank - 1]} · row {card.rank}"]
        assert len(front) == 1
        # the fold runs down the middle of the page: the back's card is the mirror image of
        # the front's card, in the same row
        assert front[0][0] < w / 2 < back[0][0]
        left_edge_of_front = front[0][0] - (front[0][0] - (w / 2 - 6 * MM)) % CARD[0]
        mirrored = (w - left_edge_of_front - CARD[0], w - left_edge_of_front)
        assert mirrored[0] < back[0][0] < mirrored[1]
        assert abs(front[0][1] - back[0][1]) < CARD[1] / 2
    # no outline on any card: two fronts | 12 mm gutter | two backs, centred, two rows
    x0 = (w - 4 * CARD[0] - 12 * MM) / 2
    y0 = (h - 2 * CARD[1]) / 2
    lefts = [x0, x0 + CARD[0], w / 2 + 6 * MM, w / 2 + 6 * MM + CARD[0]]
    rects = [(x, y0 + r * CARD[1], x + CARD[0], y0 + (r + 1) * CARD[1]) for x in lefts for r in range(2)]
    assert not [s for s in stroked_segments(page, pdf) if _on_card_edge(s, rects)]


def test_same_seed_same_bytes_other_seed_other_bytes(mission, decks):
    assert render_deck(mission, "a4") == decks["a4"]
    assert render_deck(mission_from_seed(1945), "a4") != decks["a4"]


def test_fonts_embedded_and_metadata(decks, mission):
    pdf = reader(decks["a4"])
    assert unembedded_fonts(pdf) == []
    meta = pdf.metadata
    assert mission.code in meta.title
    assert mission.code in meta.get("/Keywords") and "standard-1" in meta.get("/Keywords")
    assert meta.get("/CreationDate", "").startswith("D:2000")  # ReportLab's invariant date


def test_low_ink_backs_have_no_dark_fill(mission):
    dark = reader(render_deck(mission, "a4")).pages[3].get_contents().get_data()
    light = reader(render_deck(mission, "a4", low_ink=True)).pages[3].get_contents().get_data()
    navy = b".11 .16 .27 rg"
    assert navy in dark and navy not in light


@pytest.mark.parametrize("text, expected", [("0,0", (0.0, 0.0)), ("0.5,-1", (0.5, -1.0)),
                                            (" -2 , 3 ", (-2.0, 3.0))])
def test_parse_offset(text, expected):
    assert parse_offset(text) == expected


@pytest.mark.parametrize("text", ["1", "a,b", "1,2,3", "11,0", ""])
def test_parse_offset_rejects(text):
    with pytest.raises(BGridError):
        parse_offset(text)


def test_variant_file_names_never_replace_the_plain_deck(tmp_path):
    """bgrid deck writes each variant under its own name; the pack names its deck alike."""
    from click.testing import CliRunner

    from bgrid.cli import cli

    runner = CliRunner()
    for extra in ([], ["--gutter-fold"], ["--low-ink"], ["--gutter-fold", "--low-ink"]):
        result = runner.invoke(cli, ["deck", "--code", "0M00-0001-WR3", "--out", str(tmp_path), *extra])
        assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "deck-0M00-0001-WR3-a4-gutter-fold-low-ink.pdf", "deck-0M00-0001-WR3-a4-gutter-fold.pdf",
        "deck-0M00-0001-WR3-a4-low-ink.pdf", "deck-0M00-0001-WR3-a4.pdf"]


def test_the_gutter_fold_instructions_carry_no_duplex_check():
    """One-sided printing has no back to hold to the light; the duplex deck keeps its check."""
    mission = mission_from_seed(1944)
    for fold, expected in ((True, False), (False, True)):
        first_page = reader(render_deck(mission, "a4", gutter_fold=fold)).pages[0]
        assert ("duplex check" in first_page.extract_text()) is expected
