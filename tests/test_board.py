"""Cells, facings, neighbours, distance, line of sight and range (R14)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgrid.rules.board import (BETWEEN, CELLS, FORWARD, NEIGHBOURS, Cell, Facing, distance,
                               has_line_of_sight, is_in_range, line_range, step)
from bgrid.rules.errors import NotationError

ALL_NAMES = [f"{col}{row}" for row in range(1, 11) for col in "ABCDEFGHIJ"]


def cells(text: str) -> set[Cell]:
    return {Cell.parse(t) for t in text.split()}


def _coords(name: str) -> tuple[int, int]:
    """Column 0-9 and row 1-10 read from the name alone."""
    return "ABCDEFGHIJ".index(name[0]), int(name[1:])


def test_cells_are_numbered_row_by_row_from_a1():
    assert [str(c) for c in CELLS] == ALL_NAMES
    assert int(Cell.parse("A1")) == 0 and int(Cell.parse("J1")) == 9
    assert int(Cell.parse("A2")) == 10 and int(Cell.parse("J10")) == 99


@pytest.mark.parametrize("name", ALL_NAMES)
def test_every_cell_round_trips(name):
    cell = Cell.parse(name)
    assert str(cell) == name and f"{cell}" == name and cell.name == name
    assert Cell.parse(name.lower()) == cell
    assert eval(repr(cell), {"Cell": Cell}) == cell
    column, row = _coords(name)
    assert (cell.column, cell.row) == (column, row)
    assert Cell.at(column, row) == cell


@pytest.mark.parametrize("token", ["C07", "A0", "K3", "A11", "", "A", "7", "AA1", "C-7", "1A"])
def test_bad_cells_raise_notation_error_naming_the_token(token):
    with pytest.raises(NotationError) as info:
        Cell.parse(token)
    assert f"'{token}'" in str(info.value) and "expected a column A-J then a row 1-10" in str(info.value)


def test_facing_parse_and_turns():
    assert [str(f) for f in Facing] == ["N", "E", "S", "W"]
    assert Facing.parse("s") is Facing.SOUTH and Facing.parse("west") is Facing.WEST
    assert Facing.NORTH.turned_right() is Facing.EAST
    assert Facing.NORTH.turned_left() is Facing.WEST
    for f in Facing:
        assert f.turned_left().turned_right() is f
        assert f.turned_right().turned_right().turned_right().turned_right() is f
    with pytest.raises(NotationError, match="'X'"):
        Facing.parse("X")


def test_forward_steps_and_leaving_the_board():
    c5 = Cell.parse("C5")
    assert str(step(c5, Facing.NORTH)) == "C4"  # row 1 is the northern edge
    assert str(step(c5, Facing.SOUTH)) == "C6"
    assert str(step(c5, Facing.EAST)) == "D5"
    assert str(step(c5, Facing.WEST)) == "B5"
    assert step(Cell.parse("A1"), Facing.NORTH) is None
    assert step(Cell.parse("A1"), Facing.WEST) is None
    assert step(Cell.parse("J10"), Facing.SOUTH) is None
    assert step(Cell.parse("J10"), Facing.EAST) is None
    for facing in Facing:
        assert sum(FORWARD[facing][c] is None for c in CELLS) == 10  # one edge of 10 cells


def test_neighbours_of_a_corner_an_edge_and_the_middle():
    assert [str(c) for c in NEIGHBOURS[Cell.parse("A1")]] == ["B1", "A2"]
    assert [str(c) for c in NEIGHBOURS[Cell.parse("E1")]] == ["F1", "E2", "D1"]
    assert [str(c) for c in NEIGHBOURS[Cell.parse("E5")]] == ["E4", "F5", "E6", "D5"]
    assert [str(c) for c in NEIGHBOURS[Cell.parse("J10")]] == ["J9", "I10"]


def test_neighbours_are_exactly_the_cells_at_distance_one():
    counts = {2: 0, 3: 0, 4: 0}
    for a in CELLS:
        by_name = {b for b in CELLS
                   if sum(abs(x - y) for x, y in zip(_coords(str(a)), _coords(str(b)), strict=True)) == 1}
        assert set(NEIGHBOURS[a]) == by_name
        counts[len(NEIGHBOURS[a])] += 1
    assert counts == {2: 4, 3: 32, 4: 64}


def test_manhattan_distance_for_all_pairs():
    for a, b in itertools.product(CELLS, repeat=2):
        (ca, ra), (cb, rb) = _coords(str(a)), _coords(str(b))
        assert distance(a, b) == abs(ca - cb) + abs(ra - rb)
    assert distance(Cell.parse("A1"), Cell.parse("J10")) == 18


def test_between_for_all_pairs():
    for a, b in itertools.product(CELLS, repeat=2):
        (ca, ra), (cb, rb) = _coords(str(a)), _coords(str(b))
        if ca != cb and ra != rb:
            assert BETWEEN[a][b] is None
            continue
        strictly_between = {c for c in CELLS
                            if min(ca, cb) <= c.column <= max(ca, cb)
                            and min(ra, rb) <= c.row <= max(ra, rb)} - {a, b}
        assert set(BETWEEN[a][b]) == strictly_between
        assert len(BETWEEN[a][b]) == max(distance(a, b) - 1, 0)


# -- R14: line of sight and range ------------------------------------------------------

def test_same_cell_has_line_of_sight_at_range_zero():
    c = Cell.parse("D4")
    assert has_line_of_sight(c, c, cells("D4")) is True  # even standing on a mountain
    assert line_range(c, c) == 0
    assert is_in_range(c, c, 0, set())


def test_adjacent_cells_are_range_one_and_never_blocked():
    a, b = Cell.parse("D4"), Cell.parse("E4")
    assert line_range(a, b) == 1 and line_range(b, a) == 1
    assert has_line_of_sight(a, b, cells("D4 E4"))  # the two cells themselves do not block
    assert is_in_range(a, b, 1, cells("D4 E4"))
    assert not is_in_range(a, b, 0, set())


def test_diagonal_cells_have_no_line_of_sight_and_no_range():
    a, b = Cell.parse("D4"), Cell.parse("E5")
    assert line_range(a, b) is None
    assert not has_line_of_sight(a, b, set())
    assert not is_in_range(a, b, 10, set())


@pytest.mark.parametrize("a,b", [("B3", "G3"), ("G3", "B3"), ("E1", "E9"), ("E9", "E1")])
def test_range_counts_steps_along_a_row_or_column(a, b):
    ca, cb = Cell.parse(a), Cell.parse(b)
    steps = abs(ord(a[0]) - ord(b[0])) + abs(int(a[1:]) - int(b[1:]))
    assert line_range(ca, cb) == steps
    assert has_line_of_sight(ca, cb, set())
    assert is_in_range(ca, cb, steps, set()) and not is_in_range(ca, cb, steps - 1, set())


def test_a_mountain_strictly_between_blocks_in_either_direction():
    row_mountain, column_mountain = cells("D3"), cells("E5")
    assert not has_line_of_sight(Cell.parse("B3"), Cell.parse("G3"), row_mountain)
    assert not has_line_of_sight(Cell.parse("G3"), Cell.parse("B3"), row_mountain)
    assert not has_line_of_sight(Cell.parse("E1"), Cell.parse("E9"), column_mountain)
    assert not has_line_of_sight(Cell.parse("E9"), Cell.parse("E1"), column_mountain)
    assert not is_in_range(Cell.parse("C3"), Cell.parse("E3"), 3, row_mountain)


def test_mountains_on_the_end_cells_or_off_the_line_do_not_block():
    a, b = Cell.parse("B3"), Cell.parse("G3")
    assert has_line_of_sight(a, b, cells("B3 G3"))
    assert has_line_of_sight(a, b, cells("A3 H3 D2 D4 E5"))  # beyond the ends, or beside the line
    assert is_in_range(a, b, 5, cells("B3 G3 A3 H3 D2"))


def test_line_of_sight_against_a_brute_force_walk():
    """Every pair on a small board with a few mountains, walked cell by cell."""
    mountains = cells("C3 C7 F5 H2 E9")
    for a, b in itertools.product(CELLS, repeat=2):
        (ca, ra), (cb, rb) = _coords(str(a)), _coords(str(b))
        if ca != cb and ra != rb:
            expected = False
        else:
            dc, dr = (cb > ca) - (cb < ca), (rb > ra) - (rb < ra)
            walk, (c, r) = [], (ca + dc, ra + dr)
            while (c, r) != (cb, rb):
                walk.append(Cell.at(c, r))
                c, r = c + dc, r + dr
            expected = not any(w in mountains for w in walk) if (ca, ra) != (cb, rb) else True
        assert has_line_of_sight(a, b, mountains) is expected, (str(a), str(b))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("ABCDEFGHIJKabcj0123456789 -"), max_size=5) | st.text(max_size=5))
def test_any_text_is_a_cell_or_a_notation_error(text):
    try:
        cell = Cell.parse(text)
    except NotationError as error:
        assert error.token == text
    else:
        assert str(cell) == text.strip().upper()
