"""R2 ridge rasterisation, checked against an exact rational rasteriser written here.

The reference works in cell units: cell (column c, row r) is the closed square
[c, c+1] × [r-1, r], its centre (c + 1/2, r - 1/2). A cell is a mountain iff the segment
between the two centres meets the closed square in a piece of positive length: Liang–Barsky
clipping with ``fractions.Fraction`` gives the parameter interval [t0, t1] of the segment
inside the square, and the piece has positive length iff t1 > t0.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from bgrid.rules.board import CELLS, Cell, ridge_cells

HALF = Fraction(1, 2)


def _centre(cell: Cell) -> tuple[Fraction, Fraction]:
    return cell.column + HALF, cell.row - HALF


def _crosses_interior(p, d, column: int, row: int) -> bool:
    """Liang–Barsky: does P + t·d, t in [0, 1], meet the square in positive length?"""
    t0, t1 = Fraction(0), Fraction(1)
    x_lo, x_hi, y_lo, y_hi = column, column + 1, row - 1, row
    for pk, qk in ((-d[0], p[0] - x_lo), (d[0], x_hi - p[0]),
                   (-d[1], p[1] - y_lo), (d[1], y_hi - p[1])):
        if pk == 0:
            if qk < 0:
                return False  # parallel to this edge and outside it
            continue
        r = qk / pk
        if pk < 0:
            t0 = max(t0, r)
        else:
            t1 = min(t1, r)
        if t0 >= t1:
            return False
    return t1 > t0


def reference_ridge(a: Cell, b: Cell) -> set[Cell]:
    if a == b:
        return {a}
    p, q = _centre(a), _centre(b)
    d = (q[0] - p[0], q[1] - p[1])
    # Only cells in the box spanned by the two end cells can meet the segment.
    columns = range(min(a.column, b.column), max(a.column, b.column) + 1)
    rows = range(min(a.row, b.row), max(a.row, b.row) + 1)
    return {Cell.at(c, r) for c in columns for r in rows if _crosses_interior(p, d, c, r)}


def names(text: str) -> list[str]:
    return text.split()


def ridge(a: str, b: str) -> list[str]:
    return [str(c) for c in ridge_cells(Cell.parse(a), Cell.parse(b))]


def test_same_cell_is_one_mountain():
    assert ridge("E5", "E5") == ["E5"]


def test_horizontal_and_vertical_ridges_cover_the_whole_run():
    assert ridge("B3", "F3") == names("B3 C3 D3 E3 F3")
    assert ridge("F3", "B3") == names("B3 C3 D3 E3 F3")
    assert ridge("G2", "G6") == names("G2 G3 G4 G5 G6")
    assert ridge("A1", "J1") == [f"{c}1" for c in "ABCDEFGHIJ"]


def test_45_degree_diagonal_touches_corners_only_so_only_the_diagonal_cells():
    assert ridge("A1", "J10") == [f"{c}{i}" for i, c in enumerate("ABCDEFGHIJ", 1)]
    assert ridge("B5", "E2") == names("E2 D3 C4 B5")  # board order: row by row
    assert ridge("E2", "B5") == names("E2 D3 C4 B5")


def test_shallow_slope():
    # B2 -> F3: centres (1.5, 1.5) -> (5.5, 2.5); the line crosses y = 2 at x = 3.5, inside D.
    assert set(ridge("B2", "F3")) == set(names("B2 C2 D2 D3 E3 F3"))
    assert ridge("B2", "F3") == names("B2 C2 D2 D3 E3 F3")


def test_steep_slopes():
    # A1 -> B3: centres (0.5, 0.5) -> (1.5, 2.5); x crosses 1 at y = 1.5, inside row 2.
    assert ridge("A1", "B3") == names("A1 A2 B2 B3")
    # C1 -> D4: x crosses 3 (the C|D border) at y = 2 (the row 2|3 border): a corner, so
    # neither D2 nor C3 is a mountain.
    assert ridge("C1", "D4") == names("C1 C2 D3 D4")
    assert ridge("D4", "C1") == names("C1 C2 D3 D4")


def test_shallow_ridge_through_corners():
    # A1 -> G3: centres (0.5, 0.5) -> (6.5, 2.5), slope 1/3; y = 1 at x = 2 (corner of B1,
    # C1, B2, C2) and y = 2 at x = 5 (corner of E2, F2, E3, F3): the cells only touched at a
    # corner (C1, B2, F2, E3) are not mountains.
    assert set(ridge("A1", "G3")) == set(names("A1 B1 C2 D2 E2 F3 G3"))


def test_ends_are_always_mountains_and_order_is_board_order():
    for a, b in [("A1", "J10"), ("J1", "A10"), ("C7", "H2"), ("E5", "E6")]:
        result = ridge_cells(Cell.parse(a), Cell.parse(b))
        assert Cell.parse(a) in result and Cell.parse(b) in result
        assert list(result) == sorted(result)


def test_reference_rasteriser_on_hand_checked_ridges():
    """The reference itself, on ridges worked out on paper, so it is not trusted blindly."""
    assert reference_ridge(Cell.parse("A1"), Cell.parse("C3")) == {Cell.parse(n) for n in names("A1 B2 C3")}
    for start, end, path in (("I5", "F7", "I5 H5 H6 G6 G7 F7"), ("I7", "J3", "I7 I6 I5 J5 J4 J3")):
        assert reference_ridge(Cell.parse(start), Cell.parse(end)) == {Cell.parse(n) for n in names(path)}


def test_all_endpoint_pairs_match_the_exact_rasteriser():
    mismatches = []
    for a, b in itertools.product(CELLS, repeat=2):
        got = ridge_cells(a, b)
        if set(got) != reference_ridge(a, b) or len(got) != len(set(got)):
            mismatches.append((str(a), str(b)))
    assert mismatches == []
