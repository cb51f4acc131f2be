"""The printable mission sheet: jinja2 HTML/CSS templates rendered to PDF by WeasyPrint.

Page 1 carries the board, the challenge code (text and QR), the trackers and the player
aid; page 2 the turn log (laid out column for column like the log format) and, for the
challenge deck, the stacking list with the reshuffle numbers (R25, R26).

Rendering is sealed: WeasyPrint reads only ``data:`` URLs and files inside the package's
``templates/`` folder (:class:`SheetFetcher`), fonts come from ``templates/fonts/`` through
``@font-face``, and the PDF carries no clock time and a file identifier derived from the
mission, so the same mission and paper always give the same bytes.

Speed (issue 5, bench/bench_print.py): WeasyPrint's cost grows with the number of HTML
elements it cascades and lays out, so the parts made of many small pieces are SVG drawings
given as ``data:`` images (the board, the QR code, the stacking list, the turn log's ruling)
and ``sheet.css`` is parsed, with its fonts, once a process (:func:`sheet_stylesheet`).
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import hashlib
import mimetypes
import os
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

import jinja2

from .. import templates as _templates_package
from ..rules.board import COLUMN_LETTERS, SIZE, Cell
from ..rules.errors import BGridError
from ..rules.mission import Mission
from ..rules.ruleset import Play
from .paper import paper_size
from .qr import qr_svg

TEMPLATES = Path(_templates_package.__file__).resolve().parent
SHEET_TEMPLATE = "sheet.html.j2"
SHEET_CSS = "sheet.css"  # given to WeasyPrint parsed (sheet_stylesheet), not linked
LOG_ROWS = 30
MAX_PLAYER = 60  # characters; 60 of the widest letter still fit the pilot line
LOG_ROW_MM = {"a4": 6.6, "letter": 5.6}  # A4 is 17.6 mm taller: give the pencil the room
CELL_MM = 15.0   # ≥ 15 mm so a bomber token and pencil marks fit in a cell
FONT_EPOCH = "946684800"  # 2000-01-01, the date ReportLab's invariant mode writes
LABEL_MM = 6.0   # coordinate strip on each side of the board
PAGE_MARGIN_MM = (8.0, 9.0)  # top/bottom, left/right (the CSS @page margin)
#: The turn log's columns: class, heading, share of the width (mm at 165 mm wide).
LOG_COLUMNS = (("t", "turn", 7), ("e", "enter", 11), ("d", "draw", 31),
               ("k", "resupply K → card", 20), ("a", "action 1", 33), ("a", "action 2", 33),
               ("m", "automa", 12), ("n", "ALT", 9), ("n", "DMG", 9))
LOG_LINE_MM = 0.2  # the empty rows' ruling
# WeasyPrint's collapsed-border table draws its grid half its widest border (the header's
# 0.3 mm) inside its box: the drawn rows shift by as much to continue the table's lines.
LOG_GRID_INSET_MM = 0.15
#: The board's labels: font file of "BGrid Sans Condensed" (sheet.css) and size in mm.
CELL_NAME_FONT = ("DejaVuSansCondensed.ttf", 2.1)
COORD_FONT = ("DejaVuSansCondensed-Bold.ttf", 3.6)
CELL_NAME_INSET_MM = (0.8, 2.3)  # from a cell's top left corner to its name's baseline
STACK_PER_ROW = 9
STACK_BOX_MM = (20.3, 4.0)  # one stacking-list entry, outside of its border
STACK_GAP_MM = 0.6
#: Inside a stacking-list box: where position, card and reshuffle number start, and the
#: baseline (the old HTML layout's 0.2 mm border + 0.8 mm padding, 4 mm and 6.5 mm fields).
STACK_TEXT_MM = {"pos_x": 0.9, "card_x": 4.9, "reshuffle_x": 11.4, "baseline": 2.85}

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
    "toward-bunker": "one step toward the nearest surviving bunker (hold when none is left)",
}


@functools.cache
def _font_face(font_file: str):
    """ReportLab's reading of one of the sheet's fonts (for advance widths only)."""
    from reportlab.pdfbase.ttfonts import TTFont

    return TTFont(font_file, str(TEMPLATES / "fonts" / font_file))


def label_run(labels: list[tuple[str, float, float]], font: tuple[str, float],
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
        for letter, width in zip(label, widths):
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
    coords = [label_run([(c, x, y) for c, x in zip(columns, middles)], COORD_FONT, centred=True)
              for y in (LABEL_MM - 1.2, size_mm - 1.1)]
    coords += [label_run([(r, x, y + 1.3) for r, y in zip(rows, middles)], COORD_FONT, centred=True)
               for x in (LABEL_MM / 2, size_mm - LABEL_MM / 2)]
    dx, dy = CELL_NAME_INSET_MM
    names = [label_run([(str(Cell.at(col, row)), LABEL_MM + col * CELL_MM + dx,
                         LABEL_MM + (row - 1) * CELL_MM + dy) for col in range(SIZE)],
                       CELL_NAME_FONT)
             for row in range(1, SIZE + 1)]
    return [run | {"cls": "coord"} for run in coords] + [run | {"cls": "cellname"} for run in names]


def board_context(mission: Mission) -> dict:
    """Cell contents and ridge segments in board millimetres (origin: the grid's corner)."""
    m = mission.game_map
    kinds = {c: "mountain" for c in m.mountains}
    kinds.update({c: "bunker" for c in m.bunkers})
    kinds.update({c: "artillery" for c in m.artillery})
    cells = []
    for i in range(SIZE * SIZE):
        cell = Cell(i)
        cells.append({"name": str(cell), "x": LABEL_MM + cell.column * CELL_MM,
                      "y": LABEL_MM + (cell.row - 1) * CELL_MM, "kind": kinds.get(cell, "open")})

    def centre(cell: Cell) -> tuple[float, float]:
        return (LABEL_MM + (cell.column + 0.5) * CELL_MM, LABEL_MM + (cell.row - 0.5) * CELL_MM)

    ridges = [dict(zip(("x1", "y1"), centre(r.start))) | dict(zip(("x2", "y2"), centre(r.end)))
              for r in m.ridges if r.start != r.end]
    size_mm = 2 * LABEL_MM + SIZE * CELL_MM
    return {"cell_mm": CELL_MM, "label_mm": LABEL_MM, "size_mm": size_mm,
            "columns": list(COLUMN_LETTERS), "rows": list(range(1, SIZE + 1)),
            "cells": cells, "ridges": ridges, "labels": board_labels(size_mm)}


def aid_context(mission: Mission) -> dict:
    """The player aid's values, read from the ruleset so a variant prints its own numbers."""
    rs = mission.ruleset
    reach = [max(rs.artillery_reach_minimum, rs.artillery_reach_base - alt)
             for alt in range(rs.max_altitude + 1)]  # R18
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
            "throttle": rs.throttle_bonus, "max_altitude": rs.max_altitude,
            "start_altitude": rs.start_altitude, "hand": rs.hand_size,
            "throttle_alt": (1 + rs.throttle_bonus, 2 + rs.throttle_bonus),  # R11
            "joker_as": dict(suits_symbols)[rs.revealed_joker_counts_as],  # R17
            "entry_damage": rs.face_entry_damage, "reshuffle_damage": rs.reshuffle_damage,
            "score": {"bunker": rs.score_bunker, "artillery": rs.score_artillery,
                      "damage": rs.score_damage}}


def stacking_context(mission: Mission) -> list[dict]:
    """The challenge deck top first, with each card's reshuffle number (R25, R26)."""
    return [{"position": i + 1, "card": card.pretty, "is_red": card.is_red,
             "reshuffle": number}
            for i, (card, number) in enumerate(zip(mission.deck, mission.reshuffle))]


def svg_data_uri(svg: str) -> str:
    """An SVG drawing as a ``data:`` URL for an ``<img>``: WeasyPrint parses it with its own
    (fast) XML parser and draws it as one image, so its hundreds of elements never pass
    through the HTML parser and cascade as an inline ``<svg>`` does. Text in it stays text
    in the PDF, in the sheet's fonts."""
    return "data:image/svg+xml," + quote(svg, safe="/=:;,.#-")


def _mm(value: float) -> float:
    return round(value, 3)  # short, stable numbers in the drawings


def log_context(paper_width: float, row_mm: float) -> dict:
    """The turn log's columns stretched to the text width, and the ruling of its empty
    rows (drawn as one image under the row numbers)."""
    width = paper_width - 2 * PAGE_MARGIN_MM[1]
    scale = width / sum(share for _, _, share in LOG_COLUMNS)
    columns = [{"cls": cls, "label": label, "width": _mm(share * scale)}
               for cls, label, share in LOG_COLUMNS]
    edges, x = [], 0.0
    for column in columns[:-1]:
        x += column["width"]
        edges.append(_mm(x))
    height = LOG_ROWS * row_mm
    return {"columns": columns, "width": _mm(width), "height": _mm(height + LOG_LINE_MM / 2),
            "stroke": LOG_LINE_MM, "row_mm": row_mm, "inset": LOG_GRID_INSET_MM,
            "row_lines": [_mm(r * row_mm) for r in range(1, LOG_ROWS + 1)],
            "column_lines": [0.0] + edges + [_mm(width)]}


def stackgrid_context(mission: Mission) -> dict:
    """The stacking list's boxes, :data:`STACK_PER_ROW` a row, in deck order (R25, R26)."""
    box_w, box_h = STACK_BOX_MM
    boxes = []
    for i, entry in enumerate(stacking_context(mission)):
        row, col = divmod(i, STACK_PER_ROW)
        boxes.append(entry | {"x": _mm(0.1 + col * (box_w + STACK_GAP_MM)),
                              "y": _mm(0.1 + row * (box_h + STACK_GAP_MM))})
    rows = -(-len(boxes) // STACK_PER_ROW)
    return {"boxes": boxes, "box_w": box_w, "box_h": box_h, **STACK_TEXT_MM,
            "width": _mm(STACK_PER_ROW * (box_w + STACK_GAP_MM)),
            "height": _mm(rows * (box_h + STACK_GAP_MM))}


def _drawing(template: str, **context) -> str:
    return svg_data_uri(_ENV.get_template(template).render(context))


def sheet_context(mission: Mission, paper: str = "a4", player: str | None = None) -> dict:
    """Everything the template prints. Raises :class:`BGridError` for an unknown paper or
    a player name too long for its line."""
    width, height = paper_size(paper)
    if player is not None and len(player) > MAX_PLAYER:
        raise BGridError(f"player name is {len(player)} characters; the sheet has room for "
                         f"{MAX_PLAYER}")
    spec = mission.spec
    log = log_context(width, LOG_ROW_MM[paper.lower()] + LOG_LINE_MM)  # room + ruling
    board = board_context(mission)
    return {
        "paper": {"name": paper.lower(), "width": width, "height": height},
        "code": mission.code,
        "qr": svg_data_uri(qr_svg(mission.code)),
        "seed": spec.seed,
        "difficulty": spec.difficulty,
        "ridges": spec.ridges,
        "ruleset": spec.ruleset,
        "health": mission.health,
        "player": player,
        "bunkers": [str(c) for c in mission.game_map.bunkers],
        "artillery": [str(c) for c in mission.game_map.artillery],
        "board": board,
        "board_drawing": _drawing("board.svg.j2", board=board),
        "aid": aid_context(mission),
        "margin": PAGE_MARGIN_MM,
        "log": log,
        "log_rows": list(range(1, LOG_ROWS + 1)),
        "log_lines": _drawing("log.svg.j2", log=log),
        "stack_list": _drawing("stack.svg.j2", stackgrid=stackgrid_context(mission)),
        "altitudes": list(range(mission.ruleset.max_altitude + 1)),
        "passes": mission.ruleset.reshuffles_allowed + 1,
    }


def render_sheet_html(mission: Mission, paper: str = "a4", player: str | None = None) -> str:
    """The sheet as HTML (autoescaped, strict: a missing value raises)."""
    return _ENV.get_template(SHEET_TEMPLATE).render(sheet_context(mission, paper, player))


# -- sealed rendering -------------------------------------------------------------------

def _template_path(url: str) -> Path | None:
    """The file a ``file:`` URL names, if it lies inside ``templates/``; else None."""
    parts = urlsplit(url)
    if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
        return None
    path = Path(unquote(parts.path)).resolve()  # resolve: no ../ or symlink escapes
    if not path.is_file() or not path.is_relative_to(TEMPLATES):
        return None
    return path


def _weasyprint():
    """WeasyPrint, imported on first use; a missing system library (Pango) becomes a
    one-line :class:`BGridError` instead of a traceback."""
    try:
        import weasyprint
    except OSError as exc:
        raise BGridError(f"mission sheets need WeasyPrint's system libraries (Pango): {exc}") from None
    return weasyprint


def _make_fetcher_class():
    _weasyprint()
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class SheetFetcher(URLFetcher):
        """Serves ``data:`` URLs and the package's own template files; refuses the rest.

        ``refused`` lists what was asked for and denied (the tests read it).
        """

        def __init__(self):
            super().__init__(allowed_protocols=("data", "file"))
            self.refused: list[str] = []

        def fetch(self, url, headers=None):
            if url.startswith("data:"):
                return super().fetch(url, headers)  # urllib's DataHandler: no I/O
            path = _template_path(url)
            if path is None:
                self.refused.append(url)
                raise ValueError(f"bgrid sheets load nothing from outside templates/: {url}")
            kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": kind})

    return SheetFetcher


_FETCHER_CLASS = None


def sheet_fetcher():
    """A fresh :class:`SheetFetcher` (class built on first use: WeasyPrint loads lazily)."""
    global _FETCHER_CLASS
    if _FETCHER_CLASS is None:
        _FETCHER_CLASS = _make_fetcher_class()
    return _FETCHER_CLASS()


_SHEET_STYLE = None


def sheet_stylesheet():
    """(stylesheet, font configuration) of ``templates/sheet.css``, parsed once a process:
    its ``@font-face`` fonts are loaded and registered once, and every sheet shares them
    (the PDF bytes do not depend on what was rendered before)."""
    global _SHEET_STYLE
    if _SHEET_STYLE is None:
        weasyprint = _weasyprint()
        from weasyprint.text.fonts import FontConfiguration

        font_config = FontConfiguration()
        css = weasyprint.CSS(filename=str(TEMPLATES / SHEET_CSS), url_fetcher=sheet_fetcher(),
                             font_config=font_config)
        _SHEET_STYLE = (css, font_config)
        # Drop them while the interpreter is whole: FontConfiguration.__del__ calls into
        # Pango and, run during shutdown, prints "Exception ignored … TypeError".
        atexit.register(_forget_sheet_style)
    return _SHEET_STYLE


def _forget_sheet_style() -> None:
    global _SHEET_STYLE
    _SHEET_STYLE = None


def html_to_pdf(html: str, identifier: bytes, fetcher=None, style=None) -> bytes:
    """Render sealed HTML to PDF bytes; ``identifier`` becomes the PDF's /ID. ``style`` is
    an extra (stylesheet, font configuration) pair such as :func:`sheet_stylesheet`."""
    weasyprint = _weasyprint()

    fetcher = fetcher if fetcher is not None else sheet_fetcher()
    stylesheets, font_config = ([style[0]], style[1]) if style is not None else (None, None)
    document = weasyprint.HTML(string=html, base_url=TEMPLATES.as_uri() + "/",
                               url_fetcher=fetcher).render(stylesheets=stylesheets,
                                                           font_config=font_config)
    with _fixed_font_timestamps():
        return document.write_pdf(pdf_identifier=identifier, custom_metadata=True)


@contextlib.contextmanager
def _fixed_font_timestamps():
    """fontTools stamps every font subset it saves with the clock time (the 'head' table)
    unless SOURCE_DATE_EPOCH is set; pin it while the PDF is written, then put it back."""
    saved = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = FONT_EPOCH
    try:
        yield
    finally:
        if saved is None:
            del os.environ["SOURCE_DATE_EPOCH"]
        else:
            os.environ["SOURCE_DATE_EPOCH"] = saved


def pdf_identifier(*parts: str) -> bytes:
    """A stable PDF file identifier from the things that define the document."""
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:32].encode()


def render_sheet(mission: Mission, paper: str = "a4", player: str | None = None) -> bytes:
    """The mission sheet as PDF bytes; the same arguments always give the same bytes."""
    html = render_sheet_html(mission, paper, player)
    return html_to_pdf(html, pdf_identifier("sheet", mission.code, paper.lower(), player or ""),
                       style=sheet_stylesheet())
