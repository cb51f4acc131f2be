"""The printable mission sheet: jinja2 HTML/CSS templates rendered to PDF by WeasyPrint.

Page 1 carries the board (artillery numbered 1–4 in placement order), the challenge code
(text and QR), the trackers and the player aid; then the turn log, with a row for every turn
the deck allows (:func:`longest_mission_turns`) over as many pages as it takes, each
repeating the mission and the column heads; last, for a mission with a known deck order,
the deck page: the stacking list and a table of reshuffle numbers by card (R25, R26), on a
page of its own so the order stays hidden during play.

Any mission a log header can name gets a sheet (:class:`~bgrid.challenges.mission.Mission`:
challenge, seed, hand setup, explicit map), and so does a mission still to be set up at the
table (a blank board and a box for the setup cards).

This module makes the sheet's content (the template's values, its SVG drawings, the HTML);
:mod:`generator.sealed_pdf` renders it, sealed: the same mission and paper always give the
same bytes.

Speed (bench/bench_print.py): WeasyPrint's cost grows with the number of HTML elements it
cascades and lays out, so the parts made of many small pieces are SVG drawings given as
``data:`` images (the board, the QR code, the stacking list, the by-card table, the turn
log's ruling and turn numbers); the stylesheet is parsed once a process (:mod:`.sealed_pdf`).
"""

from __future__ import annotations

import functools
import hashlib
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import jinja2

from ..rules.board import COLUMN_LETTERS, SIZE, Cell
from ..rules.cards import FULL_DECK, JOKER_RANK, RANK_LETTERS, SUITS, Card
from ..rules.errors import BGridError
from ..log.row_writer import COLUMNS as ROW_COLUMNS
from ..log.writer import mission_lines
from ..challenges.mission import Mission
from ..players.blind import BlindBenchmark
from ..players.rating import Rating
from ..rules.ruleset import Play, Ruleset
from ..rules.setup import ARTILLERY, BUNKERS
from .paper import paper_size
from .qr import qr_svg
from .sealed_pdf import TEMPLATES, html_to_pdf, pdf_identifier, sheet_stylesheet

if TYPE_CHECKING:  # ReportLab loads only to measure text
    from reportlab.pdfbase.ttfonts import TTFont

SHEET_TEMPLATE = "sheet.html.j2"
MAX_PLAYER = 60  # characters; 60 of the widest letter still fit the pilot line
#: The turn log's pencil room a row, and how many rows the first log page and each further
#: one hold (each carries how to type the log in and the example rows): three pages for the
#: 101 turns of :func:`longest_mission_turns`. Letter is 17.6 mm shorter.
LOG_ROW_MM = {"a4": 6.2, "letter": 5.6}
LOG_PAGE_ROWS = {"a4": (34, 34), "letter": (34, 34)}
#: Blanks in the Craters tracker: the most distinct crater cells in 1,440 simulated missions
#: (random, greedy and strong players, four maps, easy and normal) was 6, the 99.9th
#: percentile 5; a seventh goes on the board.
CRATER_SLOTS = 6
CELL_MM = 15.0   # ≥ 15 mm so a bomber token and pencil marks fit in a cell
LABEL_MM = 6.0   # coordinate strip on each side of the board
PAGE_MARGIN_MM = (8.0, 9.0)  # top/bottom, left/right (the CSS @page margin)
#: The turn log's columns: class, heading, share of the width (mm at 179 mm wide). They are
#: the row form's cells in its order (docs/log-format.md): a row is typed as it stands. Width
#: in pencil (1.8 mm a letter, a space half that): the resupply cell takes two Kings,
#: "KH → 10D; KC → 8D" (24 mm, 28 on A4), a draw cell five cards, an action cell a Joker's
#: guns play "JK=6S G3 → JD" (21 mm, 25 on A4), an art cell "C10 s" (10 mm).
LOG_COLUMNS = tuple((cls, head, share) for (cls, share), head in zip(
    (("t", 6), ("e", 8), ("d", 24), ("k", 26), ("a", 23), ("a", 23), ("m", 10), ("p", 11),
     ("n", 5.5), ("n", 5.5), *(("r", 9.25),) * ARTILLERY), ROW_COLUMNS, strict=True))
#: The example rows, a cell a column, as written and (:func:`typed_row`) as typed. Turn 1 is
#: seed 1944's own-deck turn worked by hand: 7H enters G1 facing S at ALT 4; two Kings;
#: 5C FFLF flies G2, G3, turns east, H3; JH climbs to 5; Automa 8H: nothing is adjacent
#: at ALT 5 (range 1, R18), so all four pieces step toward H3 (R19, R20): 1 H7→H6,
#: 2 A10→A9 (equal gaps: along the column), 3 D6→E6, 4 C5→D5. Turn 13 is the reshuffle
#: row of a daily mission played by hand (the deck ran out at the guns' reveal).
LOG_EXAMPLES = (
    ("1", "7H", "KD 9H KC JH 5C", "KD → 4S; KC → 2S", "5C FFLF", "JH", "8H", "H3 E", "5", "0",
     "H6", "A9", "E6", "D5"),
    ("13", "", "6C 9S", "", "reshuffle; 6H C9 → 10C", "", "8C", "D9 E", "4", "5", "", "", "", ""),
)
#: Where the rarer things go, each as typed in its cell (the type-in box prints them).
LOG_PLACES = {"entry": "7H", "entry_chosen": "JK I", "king_after_action": "5S FFLFF; KD → 4C",
              "throttle": "9S 3C FFFFF",
              "joker": "JK=6S C4 → 2S", "move": "5C FFLF", "altitude": "JH",
              "guns": "6H C4 → 2S", "bomb": "7H → 9D"}
LOG_LINE_MM = 0.2  # the empty rows' ruling
LOG_NUMBER_FONT = ("DejaVuSansCondensed-Bold.ttf", 2.4)  # the turn numbers (6.8 pt)
# WeasyPrint's collapsed-border table draws its grid half its widest border (the header's
# 0.3 mm) inside its box: the drawn rows shift by as much to continue the table's lines.
LOG_GRID_INSET_MM = 0.15
#: The board's labels: font file of "BGrid Sans Condensed" (sheet.css) and size in mm.
CELL_NAME_FONT = ("DejaVuSansCondensed.ttf", 2.1)
COORD_FONT = ("DejaVuSansCondensed-Bold.ttf", 3.6)
CELL_NAME_INSET_MM = (0.8, 2.3)  # from a cell's top left corner to its name's baseline
STACK_PER_ROW = 9
STACK_BOX_MM = (20.3, 5.0)  # one stacking-list entry, outside of its border
STACK_GAP_MM = 0.6
#: Inside a stacking-list box: where position, card and reshuffle number start, and the
#: baseline. The position is small, grey and upright, the card large, bold and in its
#: suit's colour, the reshuffle number in a framed corner: three faces that cannot run together.
STACK_TEXT_MM = {"pos_x": 0.9, "card_x": 5.0, "reshuffle_x": 14.0, "baseline": 3.6}
BYCARD_CELL_MM = (13.0, 6.0)  # the by-card table: a rank a column, a suit a row
BYCARD_HEAD_MM = 8.0  # the suit column and the rank row
#: Fonts (file of sheet.css's "BGrid Sans" families, size in mm) of the deck page's texts.
BOLD_FONT = ("DejaVuSans-Bold.ttf", 3.6)
BOLD_FONT_CARD = ("DejaVuSans-Bold.ttf", 3.2)
BYCARD_NUMBER_FONT = ("DejaVuSansCondensed.ttf", 3.0)
STACK_POSITION_FONT = ("DejaVuSansCondensed.ttf", 2.0)
STACK_NUMBER_FONT = ("DejaVuSansCondensed.ttf", 2.2)

_ENV = jinja2.Environment(
    loader=jinja2.FileSystemLoader(str(TEMPLATES)),
    autoescape=True,  # a player name is text, never markup
    undefined=jinja2.StrictUndefined,  # a missing value is an error, not a blank
    trim_blocks=True, lstrip_blocks=True,
)


# -- what the sheet says ---------------------------------------------------------------

_SUIT_MOVES = {
    "toward-bomber": "one step toward the bomber",
    "hold": "hold position",
    "toward-bunker": "one step toward the nearest surviving bunker, in steps (ties: lower "
                     "column, then row; none left: hold)",
}


def longest_mission_turns(ruleset: Ruleset) -> int:
    """The most turns a mission can last: the turn log prints a row for each.

    Every turn takes at least one card from the deck (the entry card when the bomber is off
    the map, the Automa card when it is on it, R34), turn 1 at least the entry card and a
    hand; the mission is over at the latest when a card is needed a second time from an
    empty pile (R22). The first pass has the whole deck; the second the discard pile at the
    exhaustion, which lacks the hand — never below hand size minus the turn's actions,
    since every turn starts from a full hand until the first exhaustion (R6, R30). So
    ``cards = 54 + 54 - (hand - actions)`` and turn 1 takes ``1 + hand`` of them, each later
    completed turn one, and the last turn may fail at its first card:
    ``turns <= 1 + (cards - 1 - hand) + 1``, 101 for the standard ruleset (the longest of
    14,400 simulated missions was 98; ``bench/bench_mission_length.py``).
    """
    deck = len(FULL_DECK)
    passes = ruleset.reshuffles_allowed + 1
    cards = deck + (passes - 1) * (deck - (ruleset.hand_size - ruleset.actions_per_turn))
    return 1 + (cards - 1 - ruleset.hand_size) + 1


@functools.cache
def _font_face(font_file: str) -> TTFont:
    """ReportLab's reading of one of the sheet's fonts (for advance widths only)."""
    from reportlab.pdfbase.ttfonts import TTFont

    return TTFont(font_file, str(TEMPLATES / "fonts" / font_file))


#: A label to draw: its text and where, in millimetres.
Label = tuple[str, float, float]


def label_run(labels: list[Label], font: tuple[str, float],
              centred: bool = False) -> dict:
    """Several board labels as ONE SVG ``<text>``: its text and an x and y for every letter.

    WeasyPrint draws SVG text letter by letter, and every ``<text>`` element costs it a
    layout and a graphics state of its own: the board's 151 labels as 14 elements take a
    sixth off the sheet's PDF writing. Each letter goes where WeasyPrint would have put it
    for the label alone: after the advance widths of the letters before it (``centred``:
    the label's middle on its x). ``labels`` are (text, x, y) in board millimetres.
    """
    face, size = _font_face(font[0]), font[1]
    text, xs, ys = "", [], []
    for label, x, y in labels:
        widths = [face.stringWidth(letter, size) for letter in label]
        x -= sum(widths) / 2 if centred else 0
        for letter, width in zip(label, widths, strict=True):
            text += letter
            xs.append(_mm(x))
            ys.append(_mm(y))
            x += width
    return {"text": text, "x": " ".join(map(str, xs)), "y": " ".join(map(str, ys))}


def board_labels(size_mm: float) -> list[dict]:
    """The board's coordinates (all four sides, so it reads the same from any seat) and
    cell names, one :func:`label_run` a side and a row of cells."""
    middles = [LABEL_MM + (i + 0.5) * CELL_MM for i in range(SIZE)]
    columns, rows = list(COLUMN_LETTERS), [str(r) for r in range(1, SIZE + 1)]
    coords = [label_run([(c, x, y) for c, x in zip(columns, middles, strict=True)], COORD_FONT,
                        centred=True)
              for y in (LABEL_MM - 1.2, size_mm - 1.1)]
    coords += [label_run([(r, x, y + 1.3) for r, y in zip(rows, middles, strict=True)], COORD_FONT,
                         centred=True)
               for x in (LABEL_MM / 2, size_mm - LABEL_MM / 2)]
    dx, dy = CELL_NAME_INSET_MM
    names = [label_run([(str(Cell.at(col, row)), LABEL_MM + col * CELL_MM + dx,
                         LABEL_MM + (row - 1) * CELL_MM + dy) for col in range(SIZE)],
                       CELL_NAME_FONT)
             for row in range(1, SIZE + 1)]
    return [run | {"cls": "coord"} for run in coords] + [run | {"cls": "cellname"} for run in names]


def board_context(mission: Mission) -> dict:
    """Cell contents and ridge segments in board millimetres (origin: the grid's corner);
    an artillery cell carries its piece's number (1–4, placement order). A blank mission's
    board is empty."""
    m = mission.game_map
    kinds, numbers = {}, {}
    if m is not None:
        kinds = {c: "mountain" for c in m.mountains}
        kinds.update({c: "bunker" for c in m.bunkers})
        kinds.update({c: "artillery" for c in m.artillery})
        numbers = {c: n for n, c in enumerate(m.artillery, start=1)}
    cells = []
    for i in range(SIZE * SIZE):
        cell = Cell(i)
        cells.append({"name": str(cell), "x": LABEL_MM + cell.column * CELL_MM,
                      "y": LABEL_MM + (cell.row - 1) * CELL_MM, "kind": kinds.get(cell, "open"),
                      "number": numbers.get(cell, "")})

    def centre(cell: Cell) -> tuple[float, float]:
        return (LABEL_MM + (cell.column + 0.5) * CELL_MM, LABEL_MM + (cell.row - 0.5) * CELL_MM)

    def segment(start: Cell, end: Cell) -> dict[str, float]:
        (x1, y1), (x2, y2) = centre(start), centre(end)
        return {"x1": x1, "y1": y1, "x2": x2, "y2": y2}

    ridges = [] if m is None else [segment(r.start, r.end) for r in m.ridges if r.start != r.end]
    size_mm = 2 * LABEL_MM + SIZE * CELL_MM
    return {"cell_mm": CELL_MM, "label_mm": LABEL_MM, "size_mm": size_mm,
            "columns": list(COLUMN_LETTERS), "rows": list(range(1, SIZE + 1)),
            "cells": cells, "ridges": ridges, "labels": board_labels(size_mm)}


def aid_context(ruleset: Ruleset) -> dict:
    """The player aid's values, read from the ruleset so a variant prints its own numbers."""
    rs = ruleset
    reach = [rs.artillery_reach(alt) for alt in range(rs.max_altitude + 1)]  # R18
    suits_symbols = (("H", "♥"), ("D", "♦"), ("C", "♣"), ("S", "♠"))
    suits = [{"letter": s, "symbol": sym, "move": _SUIT_MOVES[rs.automa_suits[s]]}
             for s, sym in suits_symbols]  # R19
    ranks = {"move": rs.aid_ranks(Play.MOVE), "guns": rs.aid_ranks(Play.GUNS),
             "bomb": rs.aid_ranks(Play.BOMB, precise=False), "precise": rs.aid_ranks(Play.BOMB, precise=True),
             "throttle": rs.aid_ranks(Play.THROTTLE), "alt1": rs.aid_ranks(Play.ALTITUDE, points=1),
             "alt2": rs.aid_ranks(Play.ALTITUDE, points=2), "resupply": rs.aid_ranks(Play.RESUPPLY)}
    return {"reach": reach, "suits": suits, "guns_range": rs.guns_range, "ranks": ranks,
            "actions": rs.actions_per_turn, "low_band": rs.low_bombing_altitude,
            "guns_max_altitude": rs.guns_max_altitude, "clearance": rs.mountain_clearance,
            "suppress_altitude": rs.guns_suppress_altitude,
            "throttle": rs.throttle_bonus, "max_altitude": rs.max_altitude,
            "start_altitude": rs.start_altitude, "hand": rs.hand_size,
            "throttle_alt": (1 + rs.throttle_bonus, 2 + rs.throttle_bonus),  # R11
            "joker_as": dict(suits_symbols)[rs.revealed_joker_counts_as],  # R17
            "entry_damage": rs.face_entry_damage, "reshuffle_damage": rs.reshuffle_damage,
            "fire_damage": rs.artillery_damage,  # R18: the whole fire step, however many fire
            # R40: an exhaustion met at the Automa card adds its damage to the fire's
            "automa_worst_damage": rs.artillery_damage + rs.reshuffle_damage,
            "health": [{"name": name, "health": health} for name, health in rs.difficulties.items()],
            "dead_hand": dead_hand_aid(rs),
            "score": {"bunker": rs.score_bunker, "artillery": rs.score_artillery,
                      "damage": rs.score_damage}}


def dead_hand_aid(ruleset: Ruleset) -> dict:
    """The values of the aid's dead-hand line (``rules.dead_hand``): the altitudes from which
    every card it names can always be played, and those cards' ranks. At or above the
    mountain clearance a move always has a forward step (R9, R31: an exit counts); there a
    descent by the largest altitude card stays within 0 (R7); a King, or a Joker declared one,
    can always be played (R12, R29). Other hands can be stuck up there: the guns may be out
    of reach (R15), a climb past the ceiling is not played (R7), a 9 never alone (R11), a bomb
    needs a target below (R16), and a full hand draws nothing (R30)."""
    rs = ruleset
    lowest = max(rs.mountain_clearance, max(rs.card_kinds[r].points for r in rs.ranks_of(Play.ALTITUDE)))
    return {"from": lowest, "to": rs.max_altitude, "move": rs.aid_ranks(Play.MOVE),
            "altitude": rs.aid_ranks(Play.ALTITUDE), "resupply": rs.aid_ranks(Play.RESUPPLY)}


def stacking_context(mission: Mission) -> list[dict]:
    """The challenge deck top first, with each card's reshuffle number (R25, R26)."""
    return [{"position": i + 1, "card": card.pretty, "is_red": card.is_red,
             "reshuffle": number}
            for i, (card, number) in enumerate(zip(*mission.challenge_deck(), strict=True))]


def by_card_context(mission: Mission) -> dict:
    """The reshuffle numbers by card, a suit a row and a rank a column (Jokers in a row of
    their own: both carry consecutive numbers, R41), for restacking the discards at an
    exhaustion without searching the stacking list (R26). The texts are :func:`label_run`
    s: a handful of SVG texts instead of 70."""
    numbers: dict[Card, list[int]] = {}
    for card, number in zip(*mission.challenge_deck(), strict=True):
        numbers.setdefault(card, []).append(number)
    ranks = RANK_LETTERS[1:]
    cw, ch = BYCARD_CELL_MM
    head = BYCARD_HEAD_MM
    rows = [[numbers[c][0] for c in sorted((c for c in FULL_DECK if c.rank != JOKER_RANK and c.suit is suit),
                                           key=lambda c: c.rank)]
            for suit in SUITS]
    rows.append(sorted(numbers[next(c for c in numbers if c.rank == JOKER_RANK)]))  # R41
    boxes, cells = [], []
    for i, row in enumerate(rows):
        y = head + i * ch
        for j, number in enumerate(row):
            x = head + j * cw
            boxes.append((_mm(x), _mm(y)))
            cells.append((str(number), x + cw / 2, y + ch - 1.8))
    labels: dict[str, list[Label]] = {"red": [], "black": []}
    for i, suit in enumerate(SUITS):
        labels["red" if suit.is_red else "black"].append((suit.symbol, 1.0, head + (i + 1) * ch - 1.6))
    labels["black"].append(("JK", 1.0, head + len(rows) * ch - 1.9))
    return {"cell_w": cw, "cell_h": ch, "boxes": boxes,
            "ranks": label_run([(r, head + j * cw + cw / 2, head - 2) for j, r in enumerate(ranks)],
                               BOLD_FONT, centred=True),
            "numbers": label_run(cells, BYCARD_NUMBER_FONT, centred=True),
            "suits": {colour: label_run(runs, BOLD_FONT) for colour, runs in labels.items()},
            "width": _mm(head + len(ranks) * cw + 0.2), "height": _mm(head + len(rows) * ch + 0.2)}


#: The by-number table: a pile of ten a row (1–10, 11–20, …), a box a number with the card
#: that carries it, for putting each pile in order at an exhaustion (R26).
PILE = 10
BYNUMBER_BOX_MM = (16.0, 8.0)
BYNUMBER_HEAD_MM = 15.0  # the pile's label column
PILE_LABEL_FONT = ("DejaVuSans-Bold.ttf", 3.2)


def restack_piles(count: int = len(FULL_DECK)) -> list[range]:
    """The reshuffle numbers 1 … ``count`` in piles of :data:`PILE`: 1–10, 11–20, …

    >>> [f"{p[0]}–{p[-1]}" for p in restack_piles()]
    ['1–10', '11–20', '21–30', '31–40', '41–50', '51–54']
    """
    return [range(start, min(start + PILE - 1, count) + 1) for start in range(1, count + 1, PILE)]


def by_number_context(mission: Mission) -> dict:
    """The cards by reshuffle number, a pile of ten a row: the order a pile is laid out in
    at an exhaustion (R26). Each box: the number small at the top, the card large in its
    suit's colour (both Jokers read ``JK``, R41)."""
    deck, numbers = mission.challenge_deck()
    card_of = {number: card for card, number in zip(deck, numbers, strict=True)}
    bw, bh = BYNUMBER_BOX_MM
    head = BYNUMBER_HEAD_MM
    boxes: list[tuple[float, float]] = []
    runs: dict[str, list[Label]] = {"numbers": [], "red": [], "black": [], "piles": []}
    for row, pile in enumerate(restack_piles(len(deck))):
        y = 0.1 + row * bh
        runs["piles"].append((f"{pile[0]}–{pile[-1]}", 0.5, y + bh / 2 + 1.2))
        for col, number in enumerate(pile):
            x = head + col * bw
            boxes.append((_mm(x), _mm(y)))
            card = card_of[number]
            runs["numbers"].append((str(number), x + 0.8, y + 2.6))
            runs["red" if card.is_red else "black"].append((card.pretty, x + bw / 2, y + bh - 1.4))
    fonts = {"numbers": STACK_NUMBER_FONT, "red": BOLD_FONT, "black": BOLD_FONT,
             "piles": PILE_LABEL_FONT}
    centred = {"red": True, "black": True}
    rows = len(restack_piles(len(deck)))
    return {"boxes": boxes, "box_w": bw, "box_h": bh,
            "runs": {name: label_run(labels, fonts[name], centred=centred.get(name, False))
                     for name, labels in runs.items()},
            "width": _mm(head + PILE * bw + 0.2), "height": _mm(rows * bh + 0.2)}


def svg_data_uri(svg: str) -> str:
    """An SVG drawing as a ``data:`` URL for an ``<img>``: WeasyPrint parses it with its own
    (fast) XML parser and draws it as one image, so its hundreds of elements never pass
    through the HTML parser and cascade as an inline ``<svg>`` does. Text in it stays text
    in the PDF, in the sheet's fonts."""
    return "data:image/svg+xml," + quote(svg, safe="/=:;,.#-")


def _mm(value: float) -> float:
    return round(value, 3)  # short, stable numbers in the drawings


def log_context(paper_width: float, row_mm: float, rows: list[int]) -> dict:
    """The turn log's columns stretched to the text width, and its empty rows drawn as one
    image: the ruling and the turn numbers ``rows`` (one :func:`label_run`; as a column of
    HTML lines they were a tenth of the sheet's render time)."""
    width = paper_width - 2 * PAGE_MARGIN_MM[1]
    scale = width / sum(share for _, _, share in LOG_COLUMNS)
    widths = [_mm(share * scale) for _, _, share in LOG_COLUMNS]
    columns = [{"cls": cls, "label": label, "width": w}
               for (cls, label, _), w in zip(LOG_COLUMNS, widths, strict=True)]
    edges, x = [], 0.0
    for w in widths[:-1]:
        x += w
        edges.append(_mm(x))
    height = len(rows) * row_mm
    middle, baseline = widths[0] / 2, row_mm / 2 + LOG_NUMBER_FONT[1] * 0.36
    numbers = label_run([(str(n), middle, i * row_mm + baseline) for i, n in enumerate(rows)],
                        LOG_NUMBER_FONT, centred=True)
    return {"columns": columns, "width": _mm(width), "height": _mm(height + LOG_LINE_MM / 2),
            "stroke": LOG_LINE_MM, "row_mm": row_mm, "inset": LOG_GRID_INSET_MM,
            "row_lines": [_mm(r * row_mm) for r in range(1, len(rows) + 1)],
            "column_lines": [0.0] + edges + [_mm(width)], "numbers": numbers,
            "number_size": LOG_NUMBER_FONT[1]}


def typed_row(cells: tuple[str, ...]) -> str:
    """A turn-log row as typed in the row form: its cells split by ``|``, an empty cell
    empty, the trailing empty ones left out.

    >>> typed_row(("3", "", "2S 4S", "", "8D → QC", "", "QS", "E4 W", "2", "0", "", "", "", ""))
    '3 | | 2S 4S | | 8D → QC | | QS | E4 W | 2 | 0'
    """
    kept = list(cells)
    while kept and not kept[-1]:
        kept.pop()
    return " ".join(" | ".join(kept).split())


def log_pages(paper: str, turns: int) -> list[list[int]]:
    """The turn numbers 1 … ``turns`` split over the log pages (:data:`LOG_PAGE_ROWS`)."""
    first, more = LOG_PAGE_ROWS[paper]
    pages: list[list[int]] = []
    start = 1
    while start <= turns:
        count = first if not pages else more
        pages.append(list(range(start, min(turns, start + count - 1) + 1)))
        start += count
    return pages


def stackgrid_context(mission: Mission) -> dict:
    """The stacking list's boxes, :data:`STACK_PER_ROW` a row, in deck order (R25, R26): each
    box's position, card and reshuffle number, as four :func:`label_run` s (positions,
    red cards, black cards, reshuffle numbers) instead of 162 SVG texts."""
    box_w, box_h = STACK_BOX_MM
    boxes = []
    runs: dict[str, list[Label]] = {"positions": [], "red": [], "black": [], "reshuffle": []}
    t = STACK_TEXT_MM
    for i, entry in enumerate(stacking_context(mission)):
        row, col = divmod(i, STACK_PER_ROW)
        x, y = 0.1 + col * (box_w + STACK_GAP_MM), 0.1 + row * (box_h + STACK_GAP_MM)
        boxes.append((_mm(x), _mm(y)))
        runs["positions"].append((str(entry["position"]), x + t["pos_x"], y + t["baseline"] - 0.4))
        colour = "red" if entry["is_red"] else "black"
        runs[colour].append((entry["card"], x + t["card_x"], y + t["baseline"]))
        runs["reshuffle"].append((str(entry["reshuffle"]), x + t["reshuffle_x"], y + t["baseline"] - 0.2))
    fonts = {"positions": STACK_POSITION_FONT, "red": BOLD_FONT_CARD, "black": BOLD_FONT_CARD,
             "reshuffle": STACK_NUMBER_FONT}
    rows = -(-len(boxes) // STACK_PER_ROW)
    return {"boxes": boxes, "box_w": box_w, "box_h": box_h, **t,
            "runs": {name: label_run(labels, fonts[name]) for name, labels in runs.items()},
            "width": _mm(STACK_PER_ROW * (box_w + STACK_GAP_MM)),
            "height": _mm(rows * (box_h + STACK_GAP_MM))}


def _drawing(template: str, **context: object) -> str:
    return svg_data_uri(_ENV.get_template(template).render(context))


def _title(mission: Mission) -> str:
    """The mission's name in a line: its code, or how it was set up."""
    if mission.code is not None:
        return mission.code
    return {"setup": "set up by hand", "map": "explicit map", "blank": "blank sheet"}[mission.origin.kind]


def sheet_context(mission: Mission, paper: str = "a4", player: str | None = None) -> dict:
    """Everything the template prints. Raises :class:`BGridError` for an unknown paper or
    a player name too long for its line."""
    width, height = paper_size(paper)
    paper = paper.lower()
    if player is not None and len(player) > MAX_PLAYER:
        raise BGridError(f"player name is {len(player)} characters; the sheet has room for "
                         f"{MAX_PLAYER}")
    rs, m = mission.ruleset, mission.game_map
    seeded = mission if mission.is_seeded else None  # a seeded mission prints its deck order
    turns = longest_mission_turns(rs)
    row_mm = LOG_ROW_MM[paper] + LOG_LINE_MM  # room + ruling
    pages: list[dict[str, Any]] = []
    for rows in log_pages(paper, turns):
        log = log_context(width, row_mm, rows)
        pages.append({"rows": rows, "log": log, "lines": _drawing("log.svg.j2", log=log)})
    board = board_context(mission)
    health = mission.health
    cells = lambda cs: [str(c) for c in cs]  # noqa: E731
    return {
        "paper": {"name": paper, "width": width, "height": height},
        "kind": mission.origin.kind,
        "title": _title(mission),
        "code": mission.code,
        "qr": None if mission.code is None else svg_data_uri(qr_svg(mission.code)),
        "seed": None if seeded is None else seeded.spec.seed,
        "difficulty": mission.difficulty,
        "ridges": mission.ridge_count,
        "ruleset": rs.name,
        "health": health,
        "example_health": health or rs.health(rs.default_difficulty),  # a blank sheet's example
        "damage_boxes": list(range(1, (health or max(rs.difficulties.values())) + 1)),
        "player": player,
        "bunkers": [""] * BUNKERS if m is None else cells(sorted(m.bunkers, key=lambda c: (c.column, c.row))),
        "artillery": [{"number": n, "cell": c} for n, c in
                      enumerate(cells(m.artillery) if m is not None else [""] * ARTILLERY, start=1)],
        "counts": {"bunkers": BUNKERS, "artillery": ARTILLERY},
        "crater_slots": CRATER_SLOTS,
        "header_lines": mission_lines(mission),
        "board": board,
        "board_drawing": _drawing("board.svg.j2", board=board),
        "aid": aid_context(rs),
        "margin": PAGE_MARGIN_MM,
        "log_pages": pages,
        "log_columns": pages[0]["log"]["columns"],
        "log_examples": [{"cells": row, "typed": typed_row(row)} for row in LOG_EXAMPLES],
        "log_places": LOG_PLACES,
        "turns": turns,
        "stack_list":
            None if seeded is None else _drawing("stack.svg.j2", stackgrid=stackgrid_context(seeded)),
        "by_card": None if seeded is None else _drawing("bycard.svg.j2", table=by_card_context(seeded)),
        "by_number": None if seeded is None else _drawing("bynumber.svg.j2", table=by_number_context(seeded)),
        "piles": [f"{p[0]}–{p[-1]}" for p in restack_piles()],
        "altitudes": list(range(rs.max_altitude + 1)),
        "passes": rs.reshuffles_allowed + 1,
        "ridges_max": rs.ridges_max,
    }


def render_sheet_html(mission: Mission, paper: str = "a4", player: str | None = None,
                      par: int | None = None, rating: Rating | None = None,
                      blind: BlindBenchmark | None = None, *, winnable: bool = False) -> str:
    """The sheet as HTML (autoescaped, strict: a missing value raises)."""
    return _ENV.get_template(SHEET_TEMPLATE).render(
        sheet_context(mission, paper, player)
        | {"par": par, "rating": rating, "blind": blind, "winnable": winnable})


def sheet_name(mission: Mission) -> str:
    """The mission's name in file and folder names: the challenge code, ``blank``, or
    ``setup-``/``map-`` and a short digest of the header lines."""
    if mission.code is not None:
        return mission.code
    kind = mission.origin.kind
    if kind == "blank":
        return "blank" if mission.difficulty is None else f"blank-{mission.difficulty}"
    return f"{kind}-{hashlib.sha256(sheet_key(mission).encode()).hexdigest()[:8]}"


def sheet_key(mission: Mission) -> str:
    """What defines a sheet's mission, for its PDF identifier and file names: the code, or
    the header lines of a hand setup or an explicit map."""
    return mission.code or "\n".join([mission.origin.kind, mission.ruleset.name] + mission_lines(mission))


def render_sheet(mission: Mission, paper: str = "a4", player: str | None = None,
                 par: int | None = None, rating: Rating | None = None,
                 blind: BlindBenchmark | None = None, *, winnable: bool = False) -> bytes:
    """The mission sheet as PDF bytes; the same arguments always give the same bytes.
    The yardsticks (R42) in the header: ``par``, "open-deck par N"; ``blind``, the blind
    benchmark beside it; ``winnable`` (the par's line is a victory) adds "winnable" to the
    mission's line. ``rating`` (``bgrid sheet --rate``) prints its stars, their interval and
    the games it was rated over."""
    html = render_sheet_html(mission, paper, player, par, rating, blind, winnable=winnable)
    parts = (("sheet", sheet_key(mission), paper.lower(), player or "")
             + (() if par is None else (f"par {par}" if winnable else f"open-deck par {par}",))
             + (() if rating is None else (f"rating {rating.wins} {rating.destroyed}",))
             + (() if blind is None else (f"blind {blind.scores}",)))
    return html_to_pdf(html, pdf_identifier(*parts),
                       style=sheet_stylesheet())
