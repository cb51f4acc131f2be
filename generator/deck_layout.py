"""Where the cards go on the paper: the duplex 3 × 3 grid and the gutter-fold layout.

Pure geometry in millimetres, PDF orientation (origin at the paper's lower-left corner).
Cards are 63 × 88 with up to 3 mm bleed. Nine sit in a 3 × 3 grid *butted on shared cut
lines* (189 × 264): with bleed between them the grid would not fit A4 or Letter inside 5 mm
printer margins. Outer edges get 3 mm bleed where the crop marks still have room to print
outside it; on Letter, top and bottom, they don't (7.7 mm of paper), so no bleed there.
"""

from __future__ import annotations

from dataclasses import dataclass

from .paper import paper_size

CARD_W, CARD_H = 63.0, 88.0
BLEED = 3.0
PRINTER_MARGIN = 5.0
COLS, ROWS = 3, 3
CROP_GAP = 1.0  # crop marks start this far outside the bleed
MIN_MARK = 1.5  # printable length every crop mark keeps (see _outer_bleed)


@dataclass(frozen=True, slots=True)
class Slot:
    """One card on a page: trim rectangle's lower-left corner (mm), the card, and how far
    its art runs past each trim edge (outer edges get bleed; butted inner edges none)."""

    x: float
    y: float
    index: int  # position in the deck, 0 = top
    bleed: tuple[float, float, float, float]  # left, bottom, right, top


@dataclass(frozen=True, slots=True)
class Sheet:
    face: str  # "front", "back" or "fold"
    width: float
    height: float
    slots: tuple[Slot, ...]  # fronts; for "fold" the fronts, backs follow in `backs`
    backs: tuple[Slot, ...]
    cuts_x: tuple[float, ...]
    cuts_y: tuple[float, ...]
    bleed_box: tuple[float, float, float, float]
    trim_box: tuple[float, float, float, float]
    fold_x: float | None = None


def _outer_bleed(page: float, grid: float) -> float:
    """Bleed on the outer edges: 3 mm, less where the crop marks need the room.

    A crop mark starts CROP_GAP outside the bleed; at least MIN_MARK of it must lie inside
    the printable area (PRINTER_MARGIN from the paper edge), or a printer that keeps its
    margins prints no mark at all. Bleed gives way first: a slightly mis-cut edge shows
    white, a missing mark leaves a cut line to guess. Under 1 mm, none.
    """
    room = (page - grid) / 2 - PRINTER_MARGIN - CROP_GAP - MIN_MARK
    bleed = min(BLEED, room)
    return bleed if bleed >= 1.0 else 0.0


def duplex_sheets(count: int, paper: str, offset: tuple[float, float] = (0.0, 0.0)) -> list[Sheet]:
    """Front and back pages for ``count`` cards, nine a sheet. Backs are mirrored left to
    right (long-edge flip) and shifted by ``offset`` = (x right, y up) in mm."""
    width, height = paper_size(paper)
    gw, gh = COLS * CARD_W, ROWS * CARD_H
    bx, by = _outer_bleed(width, gw), _outer_bleed(height, gh)
    x0, y0 = (width - gw) / 2, (height - gh) / 2
    sheets = []
    for first in range(0, count, COLS * ROWS):
        for face in ("front", "back"):
            dx, dy = offset if face == "back" else (0.0, 0.0)
            slots = []
            for i in range(first, min(first + COLS * ROWS, count)):
                r, c = divmod(i - first, COLS)
                if face == "back":
                    c = COLS - 1 - c  # R/L mirror: the back of a card lands behind its front
                bleed = (bx if c == 0 else 0.0, by if r == ROWS - 1 else 0.0,
                         bx if c == COLS - 1 else 0.0, by if r == 0 else 0.0)
                slots.append(Slot(x0 + dx + c * CARD_W, y0 + dy + (ROWS - 1 - r) * CARD_H, i, bleed))
            sheets.append(Sheet(
                face, width, height, tuple(slots), (),
                tuple(x0 + dx + k * CARD_W for k in range(COLS + 1)),
                tuple(y0 + dy + k * CARD_H for k in range(ROWS + 1)),
                (x0 + dx - bx, y0 + dy - by, x0 + dx + gw + bx, y0 + dy + gh + by),
                (x0 + dx, y0 + dy, x0 + dx + gw, y0 + dy + gh)))
    return sheets


FOLD_GUTTER = 12.0  # between the front and back columns; the fold runs down its middle
FOLD_COLS, FOLD_ROWS = 2, 2  # fronts per page: two columns a side, two rows (landscape)


def fold_sheets(count: int, paper: str) -> list[Sheet]:
    """Landscape gutter-fold pages: per row, two fronts | gutter | their two backs mirrored
    across the fold line, so folding the page puts every back behind its front."""
    height, width = paper_size(paper)  # landscape
    gw = 2 * FOLD_COLS * CARD_W + FOLD_GUTTER
    gh = FOLD_ROWS * CARD_H
    bx, by = _outer_bleed(width, gw), _outer_bleed(height, gh)
    gb = min(BLEED, FOLD_GUTTER / 2 - CROP_GAP)
    x0, y0 = (width - gw) / 2, (height - gh) / 2
    fold = x0 + FOLD_COLS * CARD_W + FOLD_GUTTER / 2
    sheets = []
    per = FOLD_COLS * FOLD_ROWS
    for first in range(0, count, per):
        fronts, backs = [], []
        for i in range(first, min(first + per, count)):
            r, c = divmod(i - first, FOLD_COLS)
            y = y0 + (FOLD_ROWS - 1 - r) * CARD_H
            vb = (by if r == FOLD_ROWS - 1 else 0.0, by if r == 0 else 0.0)
            fx = x0 + c * CARD_W
            fronts.append(Slot(fx, y, i, (bx if c == 0 else 0.0, vb[0],
                                          gb if c == FOLD_COLS - 1 else 0.0, vb[1])))
            bxpos = 2 * fold - fx - CARD_W  # mirror image across the fold line
            backs.append(Slot(bxpos, y, i, (gb if c == FOLD_COLS - 1 else 0.0, vb[0],
                                            bx if c == 0 else 0.0, vb[1])))
        right = fold + FOLD_GUTTER / 2
        cuts_x = tuple(x0 + k * CARD_W for k in range(FOLD_COLS + 1)) + \
            tuple(right + k * CARD_W for k in range(FOLD_COLS + 1))
        sheets.append(Sheet("fold", width, height, tuple(fronts), tuple(backs), cuts_x,
                            tuple(y0 + k * CARD_H for k in range(FOLD_ROWS + 1)),
                            (x0 - bx, y0 - by, x0 + gw + bx, y0 + gh + by),
                            (x0, y0, x0 + gw, y0 + gh), fold))
    return sheets
