"""The board and the status as text for a terminal of 80 columns: lines of (style, text) pieces.

Each cell is three characters, under its column letter in the middle: a space, what stands
there, and a mark: ``▲`` mountain, ``■`` bunker, ``□`` a destroyed bunker, ``1``–``4`` an
artillery piece by its number (R43), ``x`` where a piece was destroyed, ``*`` a crater (R16,
R32), ``'`` a suppressed piece (R21). The bomber's arrow takes the middle of its cell, and
what stands there moves right beside it, in the mark's place (``→■``; a crater or suppression
there is in the side lines). Styles are names ("mountain", "bunker", "artillery", "bomber",
"crater", "dim"); the face turns them into colours, or into nothing under ``NO_COLOR``.
"""

from __future__ import annotations

from ..rules.board import COLUMN_LETTERS, SIZE, Cell
from ..rules.state import GameState
from ..rules.artillery_pieces import ArtilleryPieces

Piece = tuple[str, str]  # (style, text)
ARROWS = {"N": "↑", "S": "↓", "E": "→", "W": "←"}
LEGEND = "↓ bomber ▲ mountain ■ bunker □ hit 1-4 artillery x gone * crater ' suppressed"


def board_lines(state: GameState, art: ArtilleryPieces) -> list[list[Piece]]:
    """The map, a heading row and one row per map row (11 lines, 34 columns)."""
    head: list[Piece] = [("dim", "    " + "".join(f" {c} " for c in COLUMN_LETTERS))]
    out = [head]
    bunkers_at_start = set(state.game_map.bunkers)
    gone = set(state.destroyed)
    for row in range(1, SIZE + 1):
        line: list[Piece] = [("dim", f"{row:>3} ")]
        for column in range(SIZE):
            cell = Cell.at(column, row)
            line.extend(_cell(state, art, cell, bunkers_at_start, gone))
        out.append(line)
    return out


def _cell(state: GameState, art: ArtilleryPieces, cell: Cell, bunkers: set, gone: set) -> list[Piece]:
    number = art.number_at(cell)
    if number:
        body: Piece = ("artillery", str(number))
    elif cell in state.bunkers:
        body = ("bunker", "■")
    elif cell in bunkers:
        body = ("dim", "□")
    elif cell in gone:
        body = ("dim", "x")
    elif cell in state.mountains:
        body = ("mountain", "▲")
    else:
        body = _OPEN
    if cell in state.craters:
        mark: Piece = ("crater", "*")
    elif number and cell in state.suppressed:
        mark = ("artillery", "'")
    else:
        mark = ("", " ")
    if state.cell == cell:  # the arrow under the column letter, not in the gap before the cell
        arrow: Piece = ("bomber", ARROWS.get(str(state.facing), "✈"))
        return [("", " "), arrow, mark if body == _OPEN else body]
    return [("", " "), body, mark]


_OPEN: Piece = ("dim", "·")


def _deck_counts(state: GameState, unmet: int | None) -> tuple[int, int, int, int]:
    """(damage, draw pile, discards, pass) as the paper has them: with ``unmet`` (the damage of
    an exhaustion the engine met at the next card, Session.unmet_damage) the pile is still
    empty and the pass not yet the next (R22). A pass past the last is the out-of-fuel end."""
    if unmet is not None:
        return (state.damage - unmet, 0, len(state.draw_pile) + len(state.discard),
                min(state.exhaustions, state.ruleset.reshuffles_allowed + 1))
    return (state.damage, len(state.draw_pile), len(state.discard),
            min(state.exhaustions + 1, state.ruleset.reshuffles_allowed + 1))


def status_text(state: GameState, art: ArtilleryPieces, turn: int, unmet: int | None = None) -> str:
    """``turn 13 · ALT 4 · DMG 3/5 · pile 12 · pass 1 · actions 1/2``: the status line
    (``unmet``: see :func:`_deck_counts`)."""
    s = state
    damage, pile, _discards, passes = _deck_counts(s, unmet)
    parts = [f"turn {turn}", f"ALT {s.altitude}", f"DMG {damage}/{s.health}",
             f"pile {pile}", f"pass {passes}"]
    if s.phase.value == "actions":
        parts.append(f"actions {s.actions}/{s.ruleset.actions_per_turn}")
    if s.is_over:
        parts.append(str(s.outcome).upper())
    return " · ".join(parts)


def side_lines(state: GameState, art: ArtilleryPieces, turn: int, deck: str,
               unmet: int | None = None) -> list[str]:
    """What stands beside the map (at most 11 lines of 44 characters; ``unmet``: see
    :func:`_deck_counts`)."""
    s = state
    damage, pile, discards, passes = _deck_counts(s, unmet)
    where = f"{s.cell} facing {s.facing}" if s.cell is not None else "off the map"
    pieces = "  ".join(f"{i}:{'x' if c is None else c}{chr(39) if c in s.suppressed else ''}"
                       for i, c in enumerate(art.cells, 1))
    hand = " ".join(map(str, s.hand)) or "empty"
    return [f"turn {turn}   {deck}",
            f"bomber {where}",
            f"ALT {s.altitude}   DMG {damage}/{s.health}",
            f"hand {hand}",
            f"draw pile {pile}   discards {discards}",
            f"pass {passes} of {s.ruleset.reshuffles_allowed + 1}",
            "artillery " + pieces,
            f"bunkers left {len(s.bunkers)} of {len(s.game_map.bunkers)}",
            f"craters {' '.join(map(str, sorted(s.craters))) or 'none'}"]
