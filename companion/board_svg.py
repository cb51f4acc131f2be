"""The board as it stands, as one SVG element: the phone face's picture of the mission.

The same vocabulary as the terminal board (``board_text``) and the sheet: mountains, bunkers
(hollow once destroyed), artillery by its number 1–4 (R43; a dashed ring while suppressed,
R21; a cross where a piece was destroyed), craters (R16, R32) and the bomber as an arrow
pointing where it faces. Scales to its container (``viewBox``), no script, no outside
resources; every text in it is the game's own (cells, numbers), never a player's.
"""

from __future__ import annotations

from ..rules.board import COLUMN_LETTERS, FACING_LETTERS, FACING_STEP, SIZE, Cell, Facing
from ..rules.state import GameState
from ..rules.artillery_pieces import ArtilleryPieces

CELL = 32
EDGE = 18  # room for the column letters and row numbers


def board_svg(state: GameState, art: ArtilleryPieces) -> str:
    """The board now, ``<svg …>…</svg>``."""
    size = EDGE + SIZE * CELL + 2
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" class="board" '
           'role="img" aria-label="the board">',
           '<style>text{font:bold 13px sans-serif;text-anchor:middle}'
           '.l{font-weight:normal;fill:#555}</style>']
    for i, letter in enumerate(COLUMN_LETTERS):
        out.append(f'<text class="l" x="{EDGE + i * CELL + CELL // 2}" y="13">{letter}</text>')
    for row in range(1, SIZE + 1):
        out.append(f'<text class="l" x="9" y="{EDGE + (row - 1) * CELL + 21}">{row}</text>')
    out.append(f'<rect x="{EDGE}" y="{EDGE}" width="{SIZE * CELL}" height="{SIZE * CELL}" fill="#fff" '
               'stroke="#000" stroke-width="1.5"/>')
    for i in range(1, SIZE):
        at = EDGE + i * CELL
        out.append(f'<path d="M{at} {EDGE}V{EDGE + SIZE * CELL}M{EDGE} {at}H{EDGE + SIZE * CELL}" '
                   'stroke="#bbb" stroke-width="0.6"/>')
    start_bunkers = set(state.game_map.bunkers)
    for row in range(1, SIZE + 1):
        for column in range(SIZE):
            out.extend(_cell(state, art, Cell.at(column, row), start_bunkers))
    if state.cell is not None and state.facing is not None:
        out.append(_bomber(state.cell, str(state.facing)))
    out.append("</svg>")
    return "\n".join(out)


def _corner(cell: Cell) -> tuple[int, int]:
    return EDGE + cell.column * CELL, EDGE + (cell.row - 1) * CELL


def _cell(state: GameState, art: ArtilleryPieces, cell: Cell, start_bunkers: set) -> list[str]:
    x, y = _corner(cell)
    cx, cy = x + CELL // 2, y + CELL // 2
    out = []
    if cell in state.mountains:
        out.append(f'<path d="M{x + 4} {y + 26}L{cx} {y + 6}L{x + 28} {y + 26}Z" fill="#c8a060" '
                   'stroke="#6b4e1e" stroke-width="1"/>')
    number = art.number_at(cell)
    if cell in state.bunkers:
        out.append(f'<rect x="{x + 7}" y="{y + 7}" width="18" height="18" rx="2" fill="#222"/>'
                   f'<text x="{cx}" y="{cy + 5}" fill="#fff">B</text>')
    elif cell in start_bunkers:
        out.append(f'<rect x="{x + 7}" y="{y + 7}" width="18" height="18" rx="2" fill="none" '
                   'stroke="#999" stroke-width="1.5"/>')
    elif cell in state.destroyed and not number:
        out.append(f'<path d="M{x + 9} {y + 9}L{x + 23} {y + 23}M{x + 23} {y + 9}L{x + 9} {y + 23}" '
                   'stroke="#999" stroke-width="2"/>')
    if number:
        dash = ' stroke-dasharray="3 2"' if cell in state.suppressed else ""
        out.append(f'<circle cx="{cx}" cy="{cy}" r="10" fill="#f3e8ff" stroke="#7a2fbf" '
                   f'stroke-width="2"{dash}/><text x="{cx}" y="{cy + 5}" fill="#5a1f8f">{number}</text>')
    if cell in state.craters:
        out.append(f'<circle cx="{x + 26}" cy="{y + 6}" r="4" fill="#ff9030" stroke="#a04000"/>')
    return out


def _bomber(cell: Cell, facing: str) -> str:
    x, y = _corner(cell)
    cx, cy = x + CELL / 2, y + CELL / 2
    dx, dy = FACING_STEP[Facing(facing)] if facing in FACING_LETTERS else (0, 1)
    tip = (cx + dx * 13, cy + dy * 13)
    left = (cx - dx * 8 + dy * 9, cy - dy * 8 - dx * 9)
    right = (cx - dx * 8 - dy * 9, cy - dy * 8 + dx * 9)
    points = " ".join(f"{px:g},{py:g}" for px, py in (tip, left, right))
    return (f'<polygon points="{points}" fill="#1e88e5" fill-opacity="0.85" stroke="#0d47a1" '
            f'stroke-width="1.5"><title>bomber at {cell} facing {facing}</title></polygon>')
