"""Golden maps: the full ``bgrid map --json`` record of a few seeds, stored and replayed.

Any change to the seeded procedure (``challenges.seeding``), to R1–R3 setup or to the JSON
record shows up here as a diff. The files under ``tests/golden/maps/`` were checked before
they were stored, two of them by hand from their setup cards, every one by the independent
checks of ``test_golden_is_consistent``:

seed 1944 (normal, 1 ridge), code 0M00-0001-WR3
  ridge 9H JC 7H 10S 3D: I (9H), JC set aside, row 7 -> I7; J (10S), row 3 -> J3. Centres
  (8.5, 6.5) -> (9.5, 2.5) in cell units: the line crosses the I|J border at y = 4.5, the
  middle of row 5, so I7 I6 I5 J5 J4 J3 (R2).
  bunkers 5S 2C -> E2; 7H (QD JK aside) AC -> G1; 2H 3D -> B3; 9D (JS) 4S -> I4;
  7C 3S -> G3; 9H 4H -> I4 taken, open at distance 1: H4, I3 (J4, I5 mountains) -> H4 (R3).
  artillery 8D 7D -> H7; AS (KS) 10S -> A10; (QC) 4C 6D -> D6; 3H (KC) 5D -> C5.
seed 4 (easy, 1 ridge), code 0G00-0000-044
  ridge 9H 5D -> I5; 6S (QC KC) 7S -> F7. Centres (8.5, 4.5) -> (5.5, 6.5): crossings at
  t = 1/6 (x=8), 1/4 (y=5), 1/2 (x=7), 3/4 (y=6), 5/6 (x=6): I5 H5 H6 G6 G7 F7.
  bunkers F5, D9, (QC) H10, J7; 8D (JC QD JD) 5D -> H5 is a mountain, open at distance 1:
  H4, G5 -> G5 (leftmost); (KC) 6C 9D -> F9.
  artillery 7H 2D -> G2; (QH KS) 10C 3C -> J3; 10D 3D -> J3 taken -> I3 (left of J2, J4);
  2C (KD) 2S -> B2.

To regenerate after a deliberate change (and then check the diff by hand):

    BGRID_REGEN_GOLDEN=1 .venv/bin/python -m pytest -q tests/test_mission_golden.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from bgrid.cli import cli
from bgrid.rules.cards import FULL_DECK, Card

GOLDEN = Path(__file__).parent / "golden" / "maps"
REGENERATE = os.environ.get("BGRID_REGEN_GOLDEN") == "1"

# (seed, difficulty, ridges): plain seeds, the largest seed, every difficulty, every ridge
# count, and seeds whose setup shifts a bunker off a mountain (4), an artillery piece off a
# bunker and off a mountain (103) — see test_setup.py for the R3 rules themselves.
CASES = [
    (0, "normal", 1),
    (1, "normal", 1),
    (1944, "normal", 1),
    (2**40 - 1, "normal", 1),
    (4, "easy", 1),
    (103, "hard", 1),
    (27, "ace", 2),
    (247, "normal", 3),
    (16, "easy", 4),
    (2**40 - 1, "ace", 4),
]


def _name(seed: int, difficulty: str, ridges: int) -> str:
    return f"seed-{seed}-{difficulty}-r{ridges}.json"


def _generate(seed: int, difficulty: str, ridges: int) -> dict:
    result = CliRunner().invoke(cli, ["map", "--seed", str(seed), "--difficulty", difficulty,
                                      "--ridges", str(ridges), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@pytest.mark.parametrize("seed,difficulty,ridges", CASES)
def test_map_matches_golden(seed, difficulty, ridges):
    path = GOLDEN / _name(seed, difficulty, ridges)
    record = _generate(seed, difficulty, ridges)
    if REGENERATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
        tmp.replace(path)
    assert path.exists(), f"missing golden file {path.name}: run with BGRID_REGEN_GOLDEN=1"
    assert record == json.loads(path.read_text(encoding="utf-8"))


def test_no_stray_golden_files():
    expected = {_name(*case) for case in CASES}
    assert {p.name for p in GOLDEN.glob("*.json")} == expected


def _cell_name(column_card: Card, row_card: Card) -> str:
    # R1 written out by hand: A..10 -> columns A..J, rows 1..10.
    return "ABCDEFGHIJ"[column_card.rank - 1] + str(row_card.rank)


@pytest.mark.parametrize("seed,difficulty,ridges", CASES)
def test_golden_is_consistent(seed, difficulty, ridges):
    """Checks each stored file against the rules without the code under test."""
    record = json.loads((GOLDEN / _name(seed, difficulty, ridges)).read_text(encoding="utf-8"))
    assert (record["seed"], record["difficulty"]) == (seed, difficulty)
    assert record["health"] == {"easy": 6, "normal": 5, "hard": 4, "ace": 3}[difficulty]  # R4
    # The deck is a permutation of the 54 cards (R25) and the reshuffle numbers of 1..54.
    assert sorted(record["deck"]) == sorted(str(c) for c in FULL_DECK)
    assert sorted(record["reshuffle_numbers"]) == list(range(1, 55))
    # The two Jokers carry consecutive numbers, so a lone JK restacks alike (challenges.seeding, step 4).
    jokers = [n for card, n in zip(record["deck"], record["reshuffle_numbers"], strict=True) if card == "JK"]
    assert len(jokers) == 2 and abs(jokers[0] - jokers[1]) == 1
    # R1: each ridge end comes from the next two number cards of its own list.
    assert len(record["ridges"]) == len(record["setup"]["ridges"]) == ridges
    for ridge, cards in zip(record["ridges"], record["setup"]["ridges"], strict=True):
        numbers = [c for c in map(Card.parse, cards) if c.is_number]
        assert len(numbers) == 4
        assert Card.parse(cards[-1]).is_number  # nothing after the last card needed (R27)
        assert ridge["from"] == _cell_name(numbers[0], numbers[1])
        assert ridge["to"] == _cell_name(numbers[2], numbers[3])
        assert ridge["from"] in record["mountains"] and ridge["to"] in record["mountains"]
    # R5: no card twice within one draw.
    ridge_cards = [c for cards in record["setup"]["ridges"] for c in cards]
    target_cards = record["setup"]["bunkers"] + record["setup"]["artillery"]
    for draw in (ridge_cards, target_cards):
        assert all(draw.count(c) <= (2 if c == "JK" else 1) for c in draw)
    # R3: targets are on distinct open cells, never on a mountain.
    targets = record["bunkers"] + record["artillery"]
    assert len(record["bunkers"]) == 6 and len(record["artillery"]) == 4
    assert len(set(targets)) == 10 and not set(targets) & set(record["mountains"])
