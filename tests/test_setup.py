"""Setup from drawn cards: R1 (a cell from two cards), R3 (nearest open cell), R5 (repeats),
R27 (what a setup line holds), built from small explicit card lists."""

from __future__ import annotations

import itertools
import random

import pytest

from bgrid.rules.board import CELLS, Cell, nearest_open_cell
from bgrid.rules.cards import parse_cards
from bgrid.rules.errors import BGridError
from bgrid.rules.setup import (GameMap, SetupError, build_map, build_map_from_setup_lines,
                               ridges_from_cards)


def cell(name: str) -> Cell:
    return Cell.parse(name)


def cells(text: str) -> set[Cell]:
    return {Cell.parse(t) for t in text.split()}


def names(seq) -> list[str]:
    return [str(c) for c in seq]


# -- R3: nearest open cell ---------------------------------------------------------------

def test_an_open_cell_stays_where_it_is():
    assert nearest_open_cell(cell("E5"), cells("E4 E6 D5 F5")) == cell("E5")


def test_tie_at_distance_one_goes_to_the_leftmost_column():
    assert nearest_open_cell(cell("E5"), cells("E5")) == cell("D5")


def test_tie_in_one_column_goes_to_the_topmost_row():
    assert nearest_open_cell(cell("E5"), cells("E5 D5")) == cell("E4")


def test_a_nearer_cell_beats_a_more_leftward_one():
    # D5, E4 and E6 taken: F5 at distance 1 wins over every open cell of columns A-D.
    assert nearest_open_cell(cell("E5"), cells("E5 D5 E4 E6")) == cell("F5")


def test_distance_two_ring_leftmost_then_topmost():
    ring1 = "E5 D5 F5 E4 E6"
    assert nearest_open_cell(cell("E5"), cells(ring1)) == cell("C5")  # C5 alone in column C
    assert nearest_open_cell(cell("E5"), cells(ring1 + " C5")) == cell("D4")  # D4 above D6
    assert nearest_open_cell(cell("E5"), cells(ring1 + " C5 D4")) == cell("D6")


def test_edge_of_the_board():
    assert nearest_open_cell(cell("A1"), cells("A1")) == cell("A2")  # B1 is right of A2
    assert nearest_open_cell(cell("J10"), cells("J10")) == cell("I10")


def test_nearest_open_cell_against_brute_force():
    rng = random.Random(2)
    for _ in range(300):
        occupied = set(rng.sample(CELLS, rng.randint(1, 60)))
        start = rng.choice(sorted(occupied))
        best = min((c for c in CELLS if c not in occupied),
                   key=lambda c: (abs(c.column - start.column) + abs(c.row - start.row),
                                  c.column, c.row))
        assert nearest_open_cell(start, occupied) == best


# -- R1: a cell from two cards -----------------------------------------------------------

def test_r1_first_card_column_second_card_row():
    ridge, = ridges_from_cards(parse_cards("3H 7D 10C AS"), 1)[0]
    assert (str(ridge.start), str(ridge.end)) == ("C7", "J1")


def test_r1_face_cards_and_jokers_are_set_aside():
    ridges, used = ridges_from_cards(parse_cards("KH 3H JK 7D QS 10C JD AS 4H"), 1)
    assert (str(ridges[0].start), str(ridges[0].end)) == ("C7", "J1")
    assert names(used[0]) == names(parse_cards("KH 3H JK 7D QS 10C JD AS"))  # 4H not drawn


def test_ridges_follow_one_another_in_one_draw():
    ridges, used = ridges_from_cards(parse_cards("AH AD 2H 2D KS 3H 3D 4H 4D"), 2)
    assert [(str(r.start), str(r.end)) for r in ridges] == [("A1", "B2"), ("C3", "D4")]
    assert [names(u) for u in used] == [["AH", "AD", "2H", "2D"], ["KS", "3H", "3D", "4H", "4D"]]


# A setup worked out on paper (R1-R3):
#   ridge 2H KS 2D 5C 5D -> B2 (KS set aside) to E5, a 45° diagonal: B2 C3 D4 E5.
#   bunkers: 3H 3S -> C3 mountain; ring C2 B3 D3 C4 -> leftmost B3.
#            2S 3C -> B3 taken; ring B2(M) A3 C3(M) B4 -> A3.
#            10H 10D -> J10.   AH AD -> A1.
#            QH 4H JH 4D -> D4 mountain (QH, JH set aside); ring D3 C4 E4 D5 -> C4.
#            6H 6D -> F6.
#   artillery: 4S JD 4C -> D4 mountain; ring D3 C4(B) E4 D5 -> D3 (column D, topmost).
#              AC AS -> A1 bunker; ring B1 A2 -> A2.   10C 10S -> J10 bunker; I10 J9 -> I10.
#              7H 7D -> G7.
HAND_RIDGE = "2H KS 2D 5C 5D"
HAND_BUNKERS = "3H 3S 2S 3C 10H 10D AH AD QH 4H JH 4D 6H 6D"
HAND_ARTILLERY = "4S JD 4C AC AS 10C 10S 7H 7D"
HAND_MAP = GameMap(frozenset(cells("B2 C3 D4 E5")),
                   tuple(cell(n) for n in "B3 A3 J10 A1 C4 F6".split()),
                   tuple(cell(n) for n in "D3 A2 I10 G7".split()))


def test_hand_built_setup_lines():
    game_map = build_map_from_setup_lines([parse_cards(HAND_RIDGE)], parse_cards(HAND_BUNKERS),
                                          parse_cards(HAND_ARTILLERY))
    assert game_map.mountains == HAND_MAP.mountains
    assert game_map.bunkers == HAND_MAP.bunkers
    assert game_map.artillery == HAND_MAP.artillery
    assert game_map.problems() == []


def test_hand_built_setup_through_build_map_and_its_record():
    game_map, record = build_map(parse_cards(HAND_RIDGE + " 9S 9H"),
                                 parse_cards(HAND_BUNKERS + " " + HAND_ARTILLERY + " 8S"), 1)
    assert (game_map.mountains, game_map.bunkers, game_map.artillery) == (
        HAND_MAP.mountains, HAND_MAP.bunkers, HAND_MAP.artillery)
    assert [names(r) for r in record["ridges"]] == [HAND_RIDGE.split()]
    assert names(record["bunkers"]) == HAND_BUNKERS.split()
    assert names(record["artillery"]) == HAND_ARTILLERY.split()


def test_a_face_card_between_the_bunkers_and_the_artillery_belongs_to_the_artillery():
    game_map = build_map_from_setup_lines([parse_cards(HAND_RIDGE)], parse_cards(HAND_BUNKERS),
                                          parse_cards("KD " + HAND_ARTILLERY))
    assert game_map.artillery == HAND_MAP.artillery


def test_several_ridges_from_setup_lines():
    game_map = build_map_from_setup_lines(
        [parse_cards("AH AD AC 3S"), parse_cards("10H 10D 10C 8S")],
        parse_cards(HAND_BUNKERS), parse_cards(HAND_ARTILLERY))
    assert game_map.mountains == cells("A1 A2 A3 J10 J9 J8")
    # 3H 3S -> C3 is open now; 2S 3C -> B3; AH AD -> A1 is a mountain -> B1.
    assert names(game_map.bunkers[:2]) == ["C3", "B3"]
    assert str(game_map.bunkers[3]) == "B1"


# -- R27 and R5: what a setup line may hold ------------------------------------------------

@pytest.mark.parametrize("ridge,bunkers,artillery,message", [
    (HAND_RIDGE + " 9S", HAND_BUNKERS, HAND_ARTILLERY, "9S come after the last number card"),
    (HAND_RIDGE + " KH", HAND_BUNKERS, HAND_ARTILLERY, "KH come after the last number card"),
    (HAND_RIDGE, HAND_BUNKERS + " JK", HAND_ARTILLERY, "JK come after the last number card"),
    (HAND_RIDGE, HAND_BUNKERS, HAND_ARTILLERY + " 8S 9S", "8S 9S come after"),
    ("2H KS 2D 5C", HAND_BUNKERS, HAND_ARTILLERY, "ran out of cards"),
    (HAND_RIDGE, HAND_BUNKERS.rsplit(" ", 1)[0], HAND_ARTILLERY, "ran out of cards"),
    (HAND_RIDGE, HAND_BUNKERS, "4S JD 4C AC AS 10C 10S 7H KS", "ran out of cards"),
])
def test_r27_exact_setup_lines(ridge, bunkers, artillery, message):
    with pytest.raises(SetupError, match=message) as info:
        build_map_from_setup_lines([parse_cards(ridge)], parse_cards(bunkers), parse_cards(artillery))
    assert isinstance(info.value, BGridError)


def test_r5_no_card_twice_in_the_target_draw():
    with pytest.raises(SetupError, match="3H appears twice .*R5"):
        build_map_from_setup_lines([parse_cards(HAND_RIDGE)], parse_cards(HAND_BUNKERS),
                                   parse_cards(HAND_ARTILLERY.replace("7H", "3H")))


def test_r5_no_card_twice_across_ridge_lines():
    with pytest.raises(SetupError, match="AD appears twice"):
        build_map_from_setup_lines([parse_cards("AH AD AC 3S"), parse_cards("10H AD 10C 8S")],
                                   parse_cards(HAND_BUNKERS), parse_cards(HAND_ARTILLERY))


def test_r5_a_card_may_be_in_both_draws():
    # 2H is in the ridge line and could be in the target draw too: two separate draws.
    ridge = "2H KS 2D 5C 5D"
    bunkers = HAND_BUNKERS.replace("2S 3C", "2H 3C")
    game_map = build_map_from_setup_lines([parse_cards(ridge)], parse_cards(bunkers),
                                          parse_cards(HAND_ARTILLERY))
    assert game_map.bunkers == HAND_MAP.bunkers


def test_r5_two_jokers_are_two_cards_but_not_three():
    bunkers = "JK " + HAND_BUNKERS.replace("QH", "JK")
    game_map = build_map_from_setup_lines([parse_cards(HAND_RIDGE)], parse_cards(bunkers),
                                          parse_cards(HAND_ARTILLERY))
    assert game_map.bunkers == HAND_MAP.bunkers
    with pytest.raises(SetupError, match="JK appears twice"):
        build_map_from_setup_lines([parse_cards(HAND_RIDGE)], parse_cards("JK " + bunkers),
                                   parse_cards(HAND_ARTILLERY))


@pytest.mark.parametrize("count", [0, 5])
def test_ridge_count_out_of_range(count):
    lines = [parse_cards(f"{r}H {r}D {r}C {r}S") for r in ["A", "2", "3", "4", "5"][:count]]
    with pytest.raises(SetupError, match="1 to 4 ridges"):
        build_map_from_setup_lines(lines, parse_cards(HAND_BUNKERS), parse_cards(HAND_ARTILLERY))


def test_problems_of_an_explicit_map():
    bad = GameMap(frozenset(cells("C3")), tuple(cell(n) for n in "C3 A1 A1 B1 B2".split()),
                  tuple(cell(n) for n in "B1 D1 E1 F1".split()))
    problems = bad.problems()
    assert "a map has 6 bunkers, this one 5" in problems
    assert "bunker cell C3 is on a mountain" in problems
    assert "bunker cell A1 is listed twice" in problems
    assert "cell B1 holds both a bunker and an artillery piece" in problems


def test_every_seeded_map_keeps_targets_apart_and_off_mountains():
    from bgrid.challenges.mission import mission_from_seed
    for seed, ridges in itertools.product(range(40), (1, 4)):
        assert mission_from_seed(seed, ridges=ridges).game_map.problems() == []
