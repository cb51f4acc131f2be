"""The restack at an exhaustion on paper, counted step by step: one ordered row against the
sheet's piles of ten, with a real deck and with the printed deck's numbers (R26).

    nice -n 10 .venv/bin/python bench/bench_restack.py [--games 100]

The discards to restack are real ones: the draw pile made at the first exhaustion of random
missions with the challenge deck (R22, R35: the card being resolved is not in it), on four
maps; the player picks them up in a random order (the discard pile's order says nothing
about reshuffle numbers). Each procedure is worked card by card and its steps counted:

* **lookup**: finding a card's reshuffle number in the sheet's table by card (a suit row,
  then a rank column: a search in two directions);
* **row read**: reading the next box of the table by number, left to right (no search);
* **flip**: turning a card over to read the number on its back;
* **comparison**: deciding which of two cards goes first, by their numbers.

Procedures:

* **one row, real deck** ("look up each discarded card here, write its number on it or
  sort as you go"): look each card up, then insert it into one ordered row by
  halving (binary insertion); a real card carries no number, so every comparison with a
  card already laid out looks that card up again.
* **one row, back numbers** (a printed deck numbered on the back only): flip each card,
  insert it into one row of up to 54 by the numbers on the backs (comparisons, no lookups).
* **piles of ten, real deck** (the sheet's procedure): look each card up once and deal it
  onto the pile of its ten; then walk each pile's row of the table by number and pick the
  cards out in that order (row reads, no comparisons).
* **piles of ten, corner numbers** (the printed deck's face corner): deal by the corner
  number (no lookup, no flip); order each pile of at most ten by binary insertion on the
  corner numbers.

Prints the mean counts per card over all discards, and the median pile size.

Figures (``--games 150``: 142 first exhaustions of 600 missions, median 49 cards), per card
as lookups / row reads / flips / comparisons: one row, real deck 5.31 / 0 / 0 / 4.31; one
row, back numbers 0 / 0 / 1.00 / 4.31; piles of ten, real deck 1.00 / 1.09 / 0 / 0; piles of
ten, corner numbers 0 / 0 / 0 / 2.03 (the table is in the README's restack section).
"""

from __future__ import annotations

import argparse
import statistics

from bgrid.generator.sheet import PILE, restack_piles
from bgrid.rules.cards import JOKER
from bgrid.rules.engine import apply_legal, reveal_drawn
from bgrid.challenges.mission import mission_from_seed
from bgrid.players.playout import Dice, random_card_index
from bgrid.players.random_player import random_action
from bgrid.challenges.seeding import shuffled, stream
from bgrid.rules.state import CHANCE_PHASES, Phase

SEEDS = (1944, 7, 27, 103)


def first_restack(seed: int, game: int) -> list[int] | None:
    """The reshuffle numbers of the cards restacked at the first exhaustion of one random
    mission with the challenge deck, in a random pick-up order; None if it never ran out."""
    state = mission_from_seed(seed, "easy").start(True)
    dice = Dice(stream("standard-1", f"restack-{seed}-{game}", 0))
    while state.phase is not Phase.OVER:
        if state.phase in CHANCE_PHASES:
            reveal_drawn(state, random_card_index(state, dice))
        else:
            apply_legal(state, random_action(state, dice))
        if state.exhaustions == 1 and state.phase is not Phase.OVER:
            # the new draw pile, lowest number on top; its Jokers take the lowest Joker numbers
            jokers = iter(state.reshuffle_numbers[JOKER])
            numbers = [next(jokers) if card.is_joker else state.reshuffle_numbers[card][0]
                       for card in state.draw_pile]
            return shuffled(numbers, stream("standard-1", f"restack-order-{seed}-{game}", 0))
    return None


def binary_insertions(numbers: list[int]) -> int:
    """Comparisons made inserting ``numbers`` one by one into an ordered row by halving."""
    row: list[int] = []
    comparisons = 0
    for n in numbers:
        lo, hi = 0, len(row)
        while lo < hi:
            mid = (lo + hi) // 2
            comparisons += 1
            if row[mid] < n:
                lo = mid + 1
            else:
                hi = mid
        row.insert(lo, n)
    assert row == sorted(numbers)
    return comparisons


def count(numbers: list[int]) -> dict[str, dict[str, int]]:
    n = len(numbers)
    one_row = binary_insertions(numbers)
    piles: dict[int, list[int]] = {}
    for number in numbers:
        piles.setdefault((number - 1) // PILE, []).append(number)
    rows = restack_piles()
    # walking a pile's row: every box up to its highest number present is read
    row_reads = sum(len([b for b in rows[p] if b <= max(cards)]) for p, cards in piles.items())
    in_piles = sum(binary_insertions(cards) for cards in piles.values())
    assert [c for p in sorted(piles) for c in sorted(piles[p])] == sorted(numbers)
    return {
        "one row, real deck": {"lookup": n + one_row, "row read": 0, "flip": 0, "comparison": one_row},
        "one row, back numbers": {"lookup": 0, "row read": 0, "flip": n, "comparison": one_row},
        "piles of ten, real deck": {"lookup": n, "row read": row_reads, "flip": 0, "comparison": 0},
        "piles of ten, corner numbers": {"lookup": 0, "row read": 0, "flip": 0, "comparison": in_piles},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="missions per map")
    args = parser.parse_args()
    totals: dict[str, dict[str, int]] = {}
    cards, sizes = 0, []
    for seed in SEEDS:
        for game in range(args.games):
            numbers = first_restack(seed, game)
            if numbers is None:
                continue
            sizes.append(len(numbers))
            cards += len(numbers)
            for procedure, steps in count(numbers).items():
                for step, k in steps.items():
                    totals.setdefault(procedure, {}).setdefault(step, 0)
                    totals[procedure][step] += k
    print(f"{len(sizes)} restacks, {cards} cards, median {statistics.median(sizes)} cards a restack")
    print(f"{'per card':30}" + "".join(f"{s:>12}" for s in ("lookup", "row read", "flip", "comparison")))
    for procedure, steps in totals.items():
        print(f"{procedure:30}" + "".join(f"{steps[s] / cards:>12.2f}" for s in steps))


if __name__ == "__main__":
    main()
