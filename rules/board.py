"""The 10×10 board: cells, facings, distance, line of sight and ridges.

Columns A–J run west to east, rows 1–10 north to south (rulebook, Setup). A cell is an
``int`` 0–99 (``row_index * 10 + column_index``) that prints and parses its own name, so
the engine can index tables with it at full speed.

>>> Cell.parse("c7")
Cell.parse('C7')
>>> Cell.parse("C7").column, Cell.parse("C7").row
(2, 7)
>>> distance(Cell.parse("A1"), Cell.parse("C4"))
5
>>> [str(c) for c in ridge_cells(Cell.parse("A1"), Cell.parse("C3"))]
['A1', 'B2', 'C3']
"""

from __future__ import annotations

import enum
from collections.abc import Container
from functools import lru_cache
from types import ModuleType
from typing import Final, TYPE_CHECKING

from mypy_extensions import mypyc_attr

from .errors import NotationError
from .notation import ascii_upper

if TYPE_CHECKING:  # Shapely and NumPy load only to draw ridges
    import numpy as np
    from numpy.typing import NDArray

SIZE: Final = 10
COLUMN_LETTERS: Final = "ABCDEFGHIJ"


@mypyc_attr(native_class=False)  # mypyc: a native class cannot subclass int
class Cell(int):
    """A board cell, ``A1`` … ``J10``. ``column`` is 0–9 (A–J), ``row`` is 1–10."""

    __slots__ = ()

    @classmethod
    def parse(cls, text: str) -> Cell:
        """Read a cell name, any case. Raises :class:`NotationError` naming the token."""
        token = ascii_upper(text.strip())
        cell = _CELL_BY_NAME.get(token)
        if cell is None:
            raise NotationError(
                f"'{text}' is not a cell: expected a column A-J then a row 1-10, e.g. C7", text)
        return cell

    @classmethod
    def at(cls, column: int, row: int) -> Cell:
        """The cell at column index 0–9 and row 1–10."""
        return CELLS[(row - 1) * SIZE + column]

    @property
    def column(self) -> int:
        return int(self) % SIZE

    @property
    def row(self) -> int:
        return int(self) // SIZE + 1

    @property
    def name(self) -> str:
        return _NAMES[self]

    def __str__(self) -> str:
        return _NAMES[self]

    def __repr__(self) -> str:
        return f"Cell.parse({_NAMES[self]!r})"

    def __format__(self, spec: str) -> str:
        return format(_NAMES[self], spec)


_NAMES: Final = tuple(f"{COLUMN_LETTERS[i % SIZE]}{i // SIZE + 1}" for i in range(SIZE * SIZE))
CELLS: Final[tuple[Cell, ...]] = tuple(Cell(i) for i in range(SIZE * SIZE))
_CELL_BY_NAME: Final = {name: CELLS[i] for i, name in enumerate(_NAMES)}


def parse_column(text: str) -> int:
    """A column letter A–J to its index 0–9."""
    token = ascii_upper(text.strip())
    if len(token) != 1 or token not in COLUMN_LETTERS:
        raise NotationError(f"'{text}' is not a column: expected one letter A-J", text)
    return COLUMN_LETTERS.index(token)


def column_name(column: int) -> str:
    return COLUMN_LETTERS[column]


#: Each cell's name by its number: compiled, str(cell) is a Python-level call (Cell subclasses int).
CELL_NAMES: Final[tuple[str, ...]] = _NAMES


class Facing(enum.Enum):
    """The bomber's nose. North is row 1 (the top edge)."""

    NORTH = "N"
    EAST = "E"
    SOUTH = "S"
    WEST = "W"

    # Identity hashing, as for Suit: Enum's __hash__ is Python code, and facings key the
    # movement tables and caches in the engine's hot path.
    __hash__ = object.__hash__

    @classmethod
    def parse(cls, text: str) -> Facing:
        token = ascii_upper(text.strip())
        for facing in cls:
            if token in (facing.value, facing.name):
                return facing
        raise NotationError(f"'{text}' is not a facing: expected N, E, S or W", text)

    def turned_left(self) -> Facing:
        return _LEFT[self]

    def turned_right(self) -> Facing:
        return _RIGHT[self]

    def __str__(self) -> str:
        return self.value


#: A step toward each facing: (columns east, rows south). Drawings of the bomber read it too.
FACING_STEP: Final = {Facing.NORTH: (0, -1), Facing.EAST: (1, 0), Facing.SOUTH: (0, 1), Facing.WEST: (-1, 0)}
_ORDER: Final = [Facing.NORTH, Facing.EAST, Facing.SOUTH, Facing.WEST]
FACING_LETTERS: Final[tuple[str, ...]] = tuple(facing.value for facing in _ORDER)  # N E S W
_RIGHT: Final = {f: _ORDER[(i + 1) % 4] for i, f in enumerate(_ORDER)}
_LEFT: Final = {f: _ORDER[(i - 1) % 4] for i, f in enumerate(_ORDER)}


def step(cell: Cell, facing: Facing) -> Cell | None:
    """The cell one forward step away, or None when the step leaves the board."""
    return FORWARD[facing][cell]


def _forward_table(facing: Facing) -> tuple[Cell | None, ...]:
    dc, dr = FACING_STEP[facing]
    table = []
    for cell in CELLS:
        c, r = cell.column + dc, cell.row + dr
        table.append(Cell.at(c, r) if 0 <= c < SIZE and 1 <= r <= SIZE else None)
    return tuple(table)


#: FORWARD[facing][cell]: the next cell ahead, None off the board.
FORWARD: Final[dict[Facing, tuple[Cell | None, ...]]] = {f: _forward_table(f) for f in Facing}

#: NEIGHBOURS[cell]: the orthogonal neighbours on the board, in N E S W order.
NEIGHBOURS: Final[tuple[tuple[Cell, ...], ...]] = tuple(
    tuple(n for f in _ORDER if (n := FORWARD[f][c]) is not None) for c in CELLS)


def distance(a: Cell, b: Cell) -> int:
    """Manhattan distance in orthogonal steps."""
    return abs(a % SIZE - b % SIZE) + abs(a // SIZE - b // SIZE)


def _between_table() -> tuple[tuple[tuple[Cell, ...] | None, ...], ...]:
    # Only the pairs on a shared row or column need a tuple; the other 8,100 stay None.
    table: list[list[tuple[Cell, ...] | None]] = [[None] * (SIZE * SIZE) for _ in range(SIZE * SIZE)]
    for a in range(SIZE * SIZE):
        row_start, column = a - a % SIZE, a % SIZE
        for b in range(row_start, row_start + SIZE):
            table[a][b] = CELLS[min(a, b) + 1:max(a, b)]
        for b in range(column, SIZE * SIZE, SIZE):
            table[a][b] = CELLS[min(a, b) + SIZE:max(a, b):SIZE]
    return tuple(tuple(cells) for cells in table)


#: BETWEEN[a][b]: the cells strictly between a and b on a shared row or column, or None
#: when they share neither (no line of sight at all, R14).
BETWEEN: Final[tuple[tuple[tuple[Cell, ...] | None, ...], ...]] = _between_table()


def has_line_of_sight(a: Cell, b: Cell, mountains: Container[Cell]) -> bool:
    """Shared row or column and no mountain strictly between (R14). Same cell: True."""
    between = BETWEEN[a][b]
    if between is None:
        return False
    return not any(c in mountains for c in between)


def line_range(a: Cell, b: Cell) -> int | None:
    """Range along a shared row or column in steps (same cell 0, adjacent 1; R14), else None."""
    return None if BETWEEN[a][b] is None else distance(a, b)


def is_in_range(a: Cell, b: Cell, reach: int, mountains: Container[Cell]) -> bool:
    """Line of sight and range ≤ ``reach`` (R14)."""
    return has_line_of_sight(a, b, mountains) and distance(a, b) <= reach


# -- ridges (R2) ------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _squares() -> tuple[ModuleType, NDArray[np.object_]]:
    """Shapely and the cell squares in doubled coordinates: cell (c, r) spans [2c, 2c+2] ×
    [2r, 2r+2], so every centre is an integer point and corner touches are exact. Imported
    on first use: only setup draws ridges, and verifying a log on an explicit map (or a
    folder of them, one process a folder) need not load Shapely and NumPy at all."""
    import shapely  # noqa: PLC0415

    squares = shapely.box(
        [2 * (i % SIZE) for i in range(SIZE * SIZE)], [2 * (i // SIZE) for i in range(SIZE * SIZE)],
        [2 * (i % SIZE) + 2 for i in range(SIZE * SIZE)], [2 * (i // SIZE) + 2 for i in range(SIZE * SIZE)])
    shapely.prepare(squares)
    return shapely, squares


@lru_cache(maxsize=SIZE ** 4)
def ridge_cells(a: Cell, b: Cell) -> tuple[Cell, ...]:
    """The mountain cells of a ridge from ``a`` to ``b`` (R2), in board order.

    A cell is a mountain when the segment between the two centres crosses its interior
    with positive length; a touch at a corner does not count. Both end cells are always
    mountains, and a ridge whose ends coincide is that one cell.
    """
    if a == b:
        return (CELLS[a],)
    shapely, squares = _squares()
    line = shapely.LineString([(2 * (a % SIZE) + 1, 2 * (a // SIZE) + 1),
                               (2 * (b % SIZE) + 1, 2 * (b // SIZE) + 1)])
    # DE-9IM "T********": the interiors of square and segment meet. The square's interior is
    # open, so a segment that meets it runs inside it for a positive length, and one that only
    # touches a corner (or runs along an edge, impossible between centres) does not meet it.
    # GEOS decides this exactly on these integer coordinates: no length tolerance needed.
    crossed = shapely.relate_pattern(squares, line, "T********")
    return tuple(CELLS[i] for i in crossed.nonzero()[0])


def nearest_open_cell(cell: Cell, occupied: Container[Cell]) -> Cell:
    """R3: ``cell`` if open, else the open cell at the least Manhattan distance; ties go
    to the leftmost column, then the topmost row.

    Raises ``ValueError`` if the whole board is occupied (cannot happen in setup: at
    most 4 ridges and 10 targets).
    """
    for candidate in _r3_order(cell):
        if candidate not in occupied:
            return candidate
    raise ValueError("no open cell left on the board")


# Every cell in R3 order from ``start`` (itself first, then by distance, column, row), so
# finding the nearest open cell is one scan to the first hit. Built on first use: only setup
# asks, for a few cells a map.
@lru_cache(maxsize=SIZE * SIZE)
def _r3_order(start: Cell) -> tuple[Cell, ...]:
    return tuple(sorted(CELLS, key=lambda c: (distance(start, c), c % SIZE, c // SIZE)))
