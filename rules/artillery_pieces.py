"""The artillery pieces by number (R43): piece 1–4 in the order setup placed them (R3).

The engine keeps the surviving pieces as a set of cells (each Automa step sees where the
pieces stand, R34); which piece is which follows from the events alone, as a player follows
it on the sheet's art columns: a piece keeps its number when it moves and loses its place
when it is destroyed. :class:`ArtilleryPieces` reads the events and answers where piece
``n`` stands, the number of the piece in a cell, and how each piece got there.

>>> from bgrid.rules.board import Cell
>>> from bgrid.rules.events import ArtilleryMoved, Destroyed
>>> pieces = ArtilleryPieces((Cell.parse("C9"), Cell.parse("B5")))
>>> pieces.follow([ArtilleryMoved(Cell.parse("B5"), Cell.parse("B4"))], line=7)
>>> pieces.name(2), pieces.number_at(Cell.parse("B4"))
('artillery 2 (B4)', 2)
>>> pieces.follow([Destroyed(Cell.parse("C9"), "artillery", "guns")], line=9)
>>> pieces.cells
(None, Cell.parse('B4'))
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Self

from .board import CELL_NAMES, Cell
from .events import ArtilleryMoved, Destroyed, Event, Suppressed


class ArtilleryPieces:
    """Where each numbered piece stands (None once destroyed), and for each piece the line
    that last moved it (an Automa line) or destroyed it, its cells since the last
    :meth:`checked`, and the last turn the player's guns suppressed it. Mutable and owned by
    its caller (a replay, a writer)."""

    __slots__ = ("cells", "moved_by", "destroyed_by", "paths", "suppressed_in", "_number")

    def __init__(self, start: Iterable[Cell]) -> None:
        placed = tuple(start)
        self.cells: tuple[Cell | None, ...] = placed
        self.moved_by: list[int | None] = [None] * len(self.cells)  # the line, None: never moved
        self.destroyed_by: list[int | None] = [None] * len(self.cells)  # the line
        self.paths: list[list[Cell]] = [[c] for c in placed]  # since the last check
        self.suppressed_in: list[int | None] = [None] * len(self.cells)  # a turn
        self._number: dict[Cell, int] = {c: n for n, c in enumerate(placed, start=1)}

    def __len__(self) -> int:
        return len(self.cells)

    def follow(self, events: Iterable[Event], line: int | None = None, turn: int | None = None) -> None:
        """Take the events of one engine call: ``line`` is the log line (if any) that made them,
        ``turn`` the turn they happened in."""
        number = self._number
        cells: list[Cell | None] | None = None  # the pieces' new cells, once one moved or fell
        ev: Any  # dispatched on type(ev) through ``kind``, which mypy does not narrow
        for ev in events:
            kind = type(ev)
            # each event typed once matched: compiled, its fields are then read directly, not
            # looked up by name (a replay follows every Automa phase's moves)
            if kind is ArtilleryMoved:
                moved: ArtilleryMoved = ev
                n = number[moved.start]
                del number[moved.start]
                number[moved.end] = n
                if cells is None:
                    cells = list(self.cells)
                cells[n - 1] = moved.end
                self.moved_by[n - 1] = line
                self.paths[n - 1].append(moved.end)
            elif kind is Destroyed:
                destroyed: Destroyed = ev
                if destroyed.kind == "artillery":  # (a bunker's Destroyed has kind "bunker")
                    n = number[destroyed.cell]
                    del number[destroyed.cell]
                    if cells is None:
                        cells = list(self.cells)
                    cells[n - 1] = None
                    self.destroyed_by[n - 1] = line
            elif kind is Suppressed:
                suppressed: Suppressed = ev
                piece = number.get(suppressed.cell)
                if piece is not None:
                    self.suppressed_in[piece - 1] = turn
        if cells is not None:  # a new tuple once a call: a copy may share the old one (copy)
            self.cells = tuple(cells)

    def number_at(self, cell: Cell) -> int | None:
        """The number of the piece in ``cell``, None when no piece stands there."""
        return self._number.get(cell)

    def name(self, n: int) -> str:
        """``artillery 2 (B4)``, or ``artillery 2 (destroyed)``."""
        cell = self.cells[n - 1]
        return f"artillery {n} ({'destroyed' if cell is None else cell})"

    def name_at(self, cell: Cell) -> str:
        """The piece in ``cell`` by number, ``artillery 2 (B4)``; ``artillery B4`` when none stands there."""
        n = self._number.get(cell)
        name = CELL_NAMES[cell]  # the cell's name from the table (board.CELL_NAMES says why)
        return f"artillery {name}" if n is None else f"artillery {n} ({name})"

    def checked(self) -> None:
        """A check of every piece was made here: the paths start again from where they are."""
        self.paths = [[] if c is None else [c] for c in self.cells]

    def copy(self) -> Self:
        new = type(self)(())
        new.cells = self.cells
        new.moved_by = list(self.moved_by)
        new.destroyed_by = list(self.destroyed_by)
        new.paths = [list(p) for p in self.paths]
        new.suppressed_in = list(self.suppressed_in)
        new._number = dict(self._number)
        return new
