"""The printable card deck: 54 poker-size fronts and their backs, drawn with ReportLab.

All sizes in millimetres; where the cards sit is ``deck_layout``'s business.

* Cards are 63 × 88 with a 3 mm safe zone inside the trim, bleed outside it.
* Crop marks are thin lines on the extension of every cut line, from just outside the bleed
  to the paper edge. Nothing is ever drawn *on* a card's edge: a printed outline would show
  as a sliver on a card cut a hair off.
* Duplex (the default): page 1 has the print-at-100 % instructions and a calibration ruler,
  page 2 its duplex check; then each sheet of nine fronts is followed by its backs, mirrored
  left-to-right for a long-edge flip and shifted by ``duplex_offset``.
* Gutter fold (``gutter_fold=True``): landscape pages with two columns of fronts, a fold
  gutter, and the matching backs mirrored across it; fold, glue and cut, no duplex needed.

A challenge deck (a :class:`Mission`) comes in stack order (R25); every back carries its
stack position and reshuffle number, and every front the reshuffle number large in two
corners, for dealing the discards into piles of ten at an exhaustion (R26). A plain deck is
the 54 cards in reference order with plain backs. The same arguments always give the same
bytes (``invariant=1``).
"""

from __future__ import annotations

import re

import io
import math
from collections.abc import Callable
from functools import cache
from pathlib import Path

from reportlab.lib.colors import Color
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas as rl_canvas
from reportlab.pdfgen.canvas import Canvas

from .. import templates as _templates_package
from ..rules.board import COLUMN_LETTERS
from ..rules.cards import FULL_DECK, Card, Suit
from ..rules.errors import BGridError
from ..challenges.mission import Mission
from ..rules.ruleset import Ruleset, load_ruleset
from .deck_layout import CARD_H, CARD_W, CROP_GAP, Sheet, Slot, duplex_sheets, fold_sheets
from .paper import MM, paper_size

SAFE = 3.0
CROP_WIDTH = 0.25 / MM  # 0.25 pt, in mm

FONTS = Path(_templates_package.__file__).resolve().parent / "fonts"
SANS, BOLD, COND = "BGridSans", "BGridSans-Bold", "BGridSansCond"

INK = Color(0, 0, 0)
RED = Color(0.78, 0.0, 0.0)
NAVY = Color(0.11, 0.16, 0.27)
PALE = Color(0.93, 0.93, 0.93)
GRID_LIGHT = Color(0.55, 0.62, 0.75)


@cache
def _register_fonts() -> None:
    """The shipped DejaVu subsets, embedded so the deck prints the same everywhere."""
    for name, file in ((SANS, "DejaVuSans.ttf"), (BOLD, "DejaVuSans-Bold.ttf"),
                       (COND, "DejaVuSansCondensed.ttf")):
        pdfmetrics.registerFont(TTFont(name, str(FONTS / file)))


# -- what a card says -------------------------------------------------------------------

def card_role(card: Card, ruleset: Ruleset) -> tuple[str, str]:
    """(role line, effect line) printed on a front, e.g. ("6 · GUNS", "strafe artillery"):
    the ruleset's card table (``Ruleset.face_lines``)."""
    return ruleset.face_lines(card)


def card_setup_line(card: Card) -> str | None:
    """"column F · row 6" for Ace–10 (R1 setup and entry), None for the rest."""
    column = card.column
    if column is None:  # a face card or Joker
        return None
    return f"column {COLUMN_LETTERS[column]} · row {card.row}"


# -- drawing (inside a card the unit is 1 mm, origin at the trim's lower-left) ----------

def draw_suit(c: Canvas, suit: Suit | None, x: float, y: float, size: float, *,
              low_ink: bool = False) -> None:
    """A suit shape (drawn, not a font glyph) centred on (x, y), ``size`` mm tall.

    Red suits print red, black ones black; the four shapes differ, so the suit reads in
    greyscale too. ``low_ink`` draws red suits as outlines. ``None`` draws the Joker's star.
    """
    s = size / 2
    p = c.beginPath()
    if suit is Suit.DIAMONDS:
        p.moveTo(x, y + s)
        p.lineTo(x + 0.72 * s, y)
        p.lineTo(x, y - s)
        p.lineTo(x - 0.72 * s, y)
        p.close()
    elif suit is Suit.HEARTS:
        p.moveTo(x, y - s)
        p.curveTo(x - 0.35 * s, y - 0.45 * s, x - s, y - 0.1 * s, x - s, y + 0.4 * s)
        p.curveTo(x - s, y + 1.0 * s, x - 0.2 * s, y + 1.05 * s, x, y + 0.55 * s)
        p.curveTo(x + 0.2 * s, y + 1.05 * s, x + s, y + 1.0 * s, x + s, y + 0.4 * s)
        p.curveTo(x + s, y - 0.1 * s, x + 0.35 * s, y - 0.45 * s, x, y - s)
        p.close()
    elif suit is Suit.SPADES:
        p.moveTo(x, y + s)
        p.curveTo(x + 0.35 * s, y + 0.5 * s, x + s, y + 0.2 * s, x + s, y - 0.25 * s)
        p.curveTo(x + s, y - 0.75 * s, x + 0.3 * s, y - 0.8 * s, x + 0.08 * s, y - 0.4 * s)
        p.lineTo(x + 0.35 * s, y - s)
        p.lineTo(x - 0.35 * s, y - s)
        p.lineTo(x - 0.08 * s, y - 0.4 * s)
        p.curveTo(x - 0.3 * s, y - 0.8 * s, x - s, y - 0.75 * s, x - s, y - 0.25 * s)
        p.curveTo(x - s, y + 0.2 * s, x - 0.35 * s, y + 0.5 * s, x, y + s)
        p.close()
    elif suit is Suit.CLUBS:
        # three lobes and a stem, each its own subpath: the fill rule below is non-zero and
        # every subpath winds counter-clockwise, so overlaps never punch holes
        r = 0.44 * s
        for cx, cy in ((x, y + 0.52 * s), (x - 0.52 * s, y - 0.2 * s), (x + 0.52 * s, y - 0.2 * s),
                       (x, y - 0.05 * s)):
            p.circle(cx, cy, r if cy != y - 0.05 * s else 0.3 * s)
        p.moveTo(x - 0.12 * s, y)  # counter-clockwise, like the circles
        p.lineTo(x - 0.35 * s, y - s)
        p.lineTo(x + 0.35 * s, y - s)
        p.lineTo(x + 0.12 * s, y)
        p.close()
    else:  # Joker: a five-pointed star
        for k in range(10):
            rr = s if k % 2 == 0 else 0.42 * s
            a = math.pi / 2 + k * math.pi / 5
            (p.moveTo if k == 0 else p.lineTo)(x + rr * math.cos(a), y + rr * math.sin(a))
        p.close()
    red = suit is not None and suit.is_red
    colour = RED if red else INK
    c.setFillColor(colour)
    c.setStrokeColor(colour)
    if low_ink and red:
        c.setLineWidth(0.35)
        c.drawPath(p, stroke=1, fill=0)
    else:
        c.drawPath(p, stroke=0, fill=1, fillMode=1)  # 1 = non-zero winding


def _fill_art(c: Canvas, slot: Slot, colour: Color) -> None:
    """Fill the card's art area: the trim plus its bleed on outer edges."""
    left, bottom, right, top = slot.bleed
    c.setFillColor(colour)
    c.rect(-left, -bottom, CARD_W + left + right, CARD_H + bottom + top, stroke=0, fill=1)


def _corner(c: Canvas, card: Card, low_ink: bool) -> None:
    rank = "JK" if card.is_joker else str(card)[:-1]
    colour = RED if card.is_red else INK
    c.setFillColor(colour)
    c.setFont(BOLD, 6.2 if len(rank) == 1 else 5.0)
    c.drawCentredString(SAFE + 4.2, CARD_H - SAFE - 6.0, rank)
    draw_suit(c, card.suit, SAFE + 4.2, CARD_H - SAFE - 10.2, 4.6, low_ink=low_ink)


#: The reshuffle number's frame in a challenge card's top-right corner (and, turned, the
#: bottom-left): lower-left corner, width, height; the number's size. Large, so the discards
#: can be dealt into piles of ten at an exhaustion by reading the face alone (R26).
RESHUFFLE_FRAME = (CARD_W - SAFE - 12.5, CARD_H - SAFE - 9.5, 12.0, 9.0)
RESHUFFLE_SIZE = 6.0


def _reshuffle_corner(c: Canvas, number: int) -> None:
    """The card's reshuffle number, framed, with its name under the frame (not "R12": the
    R-numbers are the rulings')."""
    x, y, w, h = RESHUFFLE_FRAME
    c.setStrokeColor(INK)
    c.setLineWidth(0.35)
    c.roundRect(x, y, w, h, 1.2, stroke=1, fill=0)
    c.setFillColor(INK)
    c.setFont(BOLD, RESHUFFLE_SIZE)
    c.drawCentredString(x + w / 2, y + (h - 0.72 * RESHUFFLE_SIZE) / 2, str(number))
    c.setFont(COND, 2.0)
    c.drawCentredString(x + w / 2, y - 2.3, "reshuffle")


def draw_front(c: Canvas, card: Card, slot: Slot, ruleset: Ruleset, low_ink: bool,
               reshuffle: int | None = None) -> None:
    """A front; a challenge card (``reshuffle`` given) carries its reshuffle number large in
    the corners the indices leave free (R26)."""
    _fill_art(c, slot, Color(1, 1, 1))
    # corner indices, top-left and (turned) bottom-right, inside the safe zone; the
    # reshuffle number top-right and (turned) bottom-left
    for turned in (False, True):
        c.saveState()
        if turned:
            c.translate(CARD_W, CARD_H)
            c.rotate(180)
        _corner(c, card, low_ink)
        if reshuffle is not None:
            _reshuffle_corner(c, reshuffle)
        c.restoreState()
    draw_suit(c, card.suit, CARD_W / 2, 57, 22, low_ink=low_ink)
    role, effect = card_role(card, ruleset)
    # the role band: a pale panel (an outline in low-ink mode) well inside the safe zone
    c.setLineWidth(0.3)
    c.setStrokeColor(INK)
    c.setFillColor(PALE)
    c.roundRect(SAFE + 3, 22, CARD_W - 2 * SAFE - 6, 17, 1.5, stroke=int(low_ink), fill=int(not low_ink))
    c.setFillColor(INK)
    size = 4.2
    while pdfmetrics.stringWidth(role, BOLD, size) > CARD_W - 2 * SAFE - 9 and size > 2.5:
        size -= 0.1
    c.setFont(BOLD, size)
    c.drawCentredString(CARD_W / 2, 32.2, role)
    c.setFont(COND, 2.3)
    c.drawCentredString(CARD_W / 2, 26.0, effect)
    setup = card_setup_line(card)
    if setup:
        c.setFont(COND, 2.8)
        c.drawCentredString(CARD_W / 2, 16.5, setup)


def draw_back(c: Canvas, slot: Slot, low_ink: bool, stack: tuple[int, int] | None, code: str | None) -> None:
    """A back: a B-Grid board motif; a challenge back adds stack position and reshuffle
    number (R25, R26) and the code, so a mixed-up deck can be sorted again."""
    _fill_art(c, slot, Color(1, 1, 1) if low_ink else NAVY)
    line = Color(0.6, 0.6, 0.6) if low_ink else GRID_LIGHT
    text = INK if low_ink else Color(1, 1, 1)
    left, bottom, right, top = slot.bleed
    # a grid across the whole art area, continuous over butted cut lines (63 = 10 × 6.3,
    # 88 = 14 × 88/14) and offset half a step so no line ever lies on a cut line
    c.setStrokeColor(line)
    c.setLineWidth(0.25)
    sx, sy = CARD_W / 10, CARD_H / 14
    for k in range(-1, 11):
        x = (k + 0.5) * sx
        if -left <= x <= CARD_W + right:
            c.line(x, -bottom, x, CARD_H + top)
    for k in range(-1, 15):
        y = (k + 0.5) * sy
        if -bottom <= y <= CARD_H + top:
            c.line(-left, y, CARD_W + right, y)
    # the wordmark panel
    c.setFillColor(Color(1, 1, 1) if low_ink else NAVY)
    c.setStrokeColor(text)
    c.setLineWidth(0.5)
    c.roundRect(SAFE + 4, 34, CARD_W - 2 * SAFE - 8, 22, 2, stroke=1, fill=1)
    c.setFillColor(text)
    c.setFont(BOLD, 8.5)
    c.drawCentredString(CARD_W / 2, 45.5, "B-GRID")
    c.setFont(SANS, 2.9)
    c.drawCentredString(CARD_W / 2, 39.5, "FORTRESS RUN")
    if stack is not None:
        position, reshuffle = stack
        c.setFillColor(Color(1, 1, 1) if low_ink else NAVY)
        c.roundRect(SAFE + 3, SAFE + 4, CARD_W - 2 * SAFE - 6, 13, 1.5, stroke=1, fill=1)
        c.setFillColor(text)
        c.setFont(BOLD, 4.2)
        # "reshuffle 12", not "R12": R-numbers are the rulings'
        c.drawCentredString(CARD_W / 2, SAFE + 11, f"#{position}   ·   reshuffle {reshuffle}")
        c.setFont(COND, 2.2)
        c.drawCentredString(CARD_W / 2, SAFE + 6.3, f"stack position · reshuffle no. · {code}")


def draw_crop_marks(c: Canvas, sheet: Sheet) -> None:
    """Thin marks on the extension of every cut line, outside the bleed, to the paper edge."""
    x1, y1, x2, y2 = sheet.bleed_box
    c.setStrokeColor(INK)
    c.setLineWidth(CROP_WIDTH)
    def mark(ax: float, ay: float, bx: float, by: float) -> None:
        if ax < bx or ay < by:  # a large duplex offset can leave no room on one side
            c.line(ax, ay, bx, by)

    for x in sheet.cuts_x:
        mark(x, 0, x, y1 - CROP_GAP)
        mark(x, y2 + CROP_GAP, x, sheet.height)
    for y in sheet.cuts_y:
        mark(0, y, x1 - CROP_GAP, y)
        mark(x2 + CROP_GAP, y, sheet.width, y)


def _ruler(c: Canvas, x: float, y: float) -> None:
    """A 100 mm ruler with mm ticks above, and a 4-inch ruler with 1/8 in ticks below."""
    c.setStrokeColor(INK)
    c.setFillColor(INK)
    c.setLineWidth(0.15)
    c.line(x, y, x + 100, y)
    c.setFont(SANS, 2.4)
    for mm in range(101):
        h = 4 if mm % 10 == 0 else (2.8 if mm % 5 == 0 else 1.8)
        c.line(x + mm, y, x + mm, y + h)
        if mm % 10 == 0:
            c.drawCentredString(x + mm, y + 5, str(mm))
    c.drawString(x + 103, y + 1, "mm")
    inch = 25.4
    for e in range(33):
        h = 4 if e % 8 == 0 else (2.8 if e % 4 == 0 else 1.8)
        c.line(x + e * inch / 8, y, x + e * inch / 8, y - h)
        if e % 8 == 0:
            c.drawCentredString(x + e * inch / 8, y - 7, str(e // 8))
    c.drawString(x + 103, y - 3, "in")


def _crosshair(c: Canvas, x: float, y: float) -> None:
    c.setLineWidth(0.2)
    c.circle(x, y, 4, stroke=1, fill=0)
    c.line(x - 8, y, x + 8, y)
    c.line(x, y - 8, x, y + 8)


CHECK_X, CHECK_Y = 40.0, 60.0  # the duplex check mark, from the front page's left/bottom


def draw_instructions(c: Canvas, width: float, height: float, *, title: str, lines: list[str],
                      duplex_check: bool = True) -> None:
    c.setFillColor(INK)
    c.setFont(BOLD, 7)
    c.drawString(20, height - 30, "B-GRID: FORTRESS RUN · card deck")
    c.setFont(BOLD, 4.2)
    c.drawString(20, height - 39, title)
    y = height - 52
    for line in lines:
        c.setFont(SANS, 3.4)
        c.drawString(20, y, line)
        y -= 6.5
    y -= 8
    c.setFont(BOLD, 3.6)
    c.drawString(20, y, "Calibration: measure these rulers. 100 mm must measure 100 mm (4 in = 4 in).")
    _ruler(c, 20, y - 22)
    c.rect(20, y - 85, 50, 50, stroke=1, fill=0)
    c.setFont(SANS, 3)
    c.drawCentredString(45, y - 61, "50 × 50 mm")
    if not duplex_check:  # one-sided gutter-fold printing has no back to check against
        return
    _crosshair(c, CHECK_X, CHECK_Y)
    c.setFont(SANS, 3)
    c.drawString(CHECK_X + 11, CHECK_Y - 1, "duplex check: hold the printed sheet to the light; "
                 "the mark on the back should sit on this one")


def draw_duplex_check(c: Canvas, width: float, offset: tuple[float, float]) -> None:
    """The back of the instructions: the check mark where a long-edge flip puts it."""
    x, y = width - CHECK_X + offset[0], CHECK_Y + offset[1]
    c.setStrokeColor(INK)
    _crosshair(c, x, y)
    c.setFillColor(INK)
    c.setFont(SANS, 3)
    c.drawRightString(x - 11, y - 1, "off by X mm right, Y mm up? print again with "
                      "--duplex-offset -X,-Y")


# -- the document -----------------------------------------------------------------------

def variant_suffix(*, low_ink: bool = False, gutter_fold: bool = False) -> str:
    """The file-name suffix of a deck variant, so a gutter-fold or low-ink deck written next
    to the plain one does not replace it: ``""``, ``"-gutter-fold"``, ``"-low-ink"`` or both."""
    return ("-gutter-fold" if gutter_fold else "") + ("-low-ink" if low_ink else "")


_MM = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)")


def parse_offset(text: str) -> tuple[float, float]:
    """``"X,Y"`` in mm, e.g. ``"0.5,-1"``, in plain ASCII decimals as every number option
    takes them (float() alone also reads '1_0', Arabic-Indic digits and 'nan').
    Raises :class:`BGridError`."""
    try:
        parts = text.split(",")
        if len(parts) != 2 or not all(_MM.fullmatch(part.strip()) for part in parts):
            raise ValueError(text)
        x, y = (float(part) for part in parts)
    except ValueError:
        raise BGridError(f"--duplex-offset '{text}' is not X,Y in mm, e.g. 0.5,-1") from None
    if not (abs(x) <= 10 and abs(y) <= 10):  # written so that nan fails too
        raise BGridError(f"--duplex-offset '{text}': a number of mm, at most 10 each way")
    return (x, y)


def _slot_draw(c: Canvas, slot: Slot, draw: Callable[..., None], *args: object) -> None:
    c.saveState()
    c.translate(slot.x, slot.y)
    draw(c, *args)
    c.restoreState()


def render_deck(mission: Mission | None = None, paper: str = "a4", *, low_ink: bool = False,
                gutter_fold: bool = False, duplex_offset: tuple[float, float] = (0.0, 0.0)) -> bytes:
    """The deck as PDF bytes. With a mission: the challenge deck in stack order, every back
    marked with its position and reshuffle number (R25, R26); without: a plain deck."""
    _register_fonts()
    ruleset = mission.ruleset if mission is not None else load_ruleset()
    cards, numbers = mission.challenge_deck() if mission is not None else (FULL_DECK, None)
    width, height = paper_size(paper)
    buf = io.BytesIO()
    # The initial font is not Helvetica, so nothing is left unembedded; types-reportlab types
    # initialFontName as a float (ReportLab takes a font name).
    c = rl_canvas.Canvas(buf, pagesize=(width * MM, height * MM), invariant=1, pageCompression=1,
                         initialFontName=SANS)  # type: ignore[arg-type]
    code = mission.code if mission is not None else None
    what = f"challenge deck {code}" if code else "plain deck"
    c.setTitle(f"B-Grid: Fortress Run — {what}")
    c.setSubject(f"{what}, ruleset {ruleset.name}, {paper.lower()}"
                 + (", gutter fold" if gutter_fold else ", duplex"))
    c.setKeywords(", ".join(filter(None, ["B-Grid", code and f"challenge {code}",
                                          f"ruleset {ruleset.name}"])))
    c.setCreator("bgrid")

    # page 1: instructions, page 2: its back (the duplex check)
    c.scale(MM, MM)
    if gutter_fold:
        lines = ["Print at 100 % (\"Actual size\"; turn \"Fit to page\" off), one-sided.",
                 "Cut each row out along the crop marks, fold along the dashed line in the gutter,",
                 "glue front to back, then cut the cards apart along the marks.",
                 "Every back lands behind its own front by construction: no duplex printing needed."]
    else:
        lines = ["Print at 100 % (\"Actual size\"; turn \"Fit to page\" off), double-sided,",
                 "flipping on the LONG edge. Fronts are on odd pages, their backs on the next page",
                 "(mirrored, so each back lands behind its own front). Cut along the crop marks:",
                 "the cards share cut lines, so each cut serves two cards.",
                 "If the backs land off: see the duplex check below and rerun with --duplex-offset X,Y."]
    if mission is not None:
        lines.append(f"Challenge {code}: the cards come in stack order; the back shows each card's")
        lines.append("stack position (#) and reshuffle number (R26); the front, the reshuffle number")
        lines.append("framed in its corner, for restacking the discards at an exhaustion. Stack #1 on top.")
    draw_instructions(c, width, height, title=what + f" · {paper.upper()}", lines=lines,
                      duplex_check=not gutter_fold)
    c.showPage()
    if not gutter_fold:
        c.scale(MM, MM)
        draw_duplex_check(c, width, duplex_offset)
        c.showPage()

    sheets = (fold_sheets(len(cards), paper) if gutter_fold
              else duplex_sheets(len(cards), paper, duplex_offset))
    for sheet in sheets:
        page = (sheet.width * MM, sheet.height * MM)
        c.setPageSize(page)
        c.setTrimBox(tuple(v * MM for v in sheet.trim_box))
        c.setBleedBox(tuple(v * MM for v in sheet.bleed_box))
        c.scale(MM, MM)
        fronts = sheet.slots if sheet.face != "back" else ()
        backs = sheet.backs if sheet.face == "fold" else (sheet.slots if sheet.face == "back" else ())
        for slot in fronts:
            number = numbers[slot.index] if numbers is not None else None
            _slot_draw(c, slot, draw_front, cards[slot.index], slot, ruleset, low_ink, number)
        for slot in backs:
            stack = (slot.index + 1, numbers[slot.index]) if numbers is not None else None
            _slot_draw(c, slot, draw_back, slot, low_ink, stack, code)
        draw_crop_marks(c, sheet)
        if sheet.fold_x is not None:
            c.setDash(2, 1.5)
            c.setLineWidth(CROP_WIDTH)
            c.line(sheet.fold_x, 0, sheet.fold_x, sheet.height)
        c.showPage()
    return c.getpdfdata()
