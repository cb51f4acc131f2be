"""Setting up a map from drawn cards: R1 (a cell from two cards), R2 (ridges), R3 (nearest
open cell), R27 (what a setup line may hold).

The functions here take the cards in the order they were drawn, so the same code builds a
seeded map (``challenges.seeding`` supplies the draws) and rebuilds a map a player set up by hand
from the cards written in a log.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .board import CELL_NAMES, CELLS, SIZE, Cell, nearest_open_cell, ridge_cells
from .cards import Card
from .errors import BGridError

BUNKERS = 6
ARTILLERY = 4
MAX_RIDGES = 4


class SetupError(BGridError):
    """Setup cards that cannot build a map: too few number cards, or cards left over (R27)."""


@dataclass(frozen=True, slots=True)
class Ridge:
    start: Cell
    end: Cell

    @property
    def cells(self) -> tuple[Cell, ...]:
        return ridge_cells(self.start, self.end)


@dataclass(frozen=True, slots=True)
class GameMap:
    """Mountains, bunkers and artillery of one mission. Targets keep placement order."""

    mountains: frozenset[Cell]
    bunkers: tuple[Cell, ...]
    artillery: tuple[Cell, ...]
    ridges: tuple[Ridge, ...] = field(default=())

    def problems(self) -> list[str]:
        """Why this map could not come from setup, as sentences; empty when legal.

        Used for explicit maps in logs: 6 distinct bunkers, 4 distinct artillery, no
        target on a mountain, no bunker and artillery on one cell.
        """
        out = []
        if len(self.bunkers) != BUNKERS:
            out.append(f"a map has {BUNKERS} bunkers, this one {len(self.bunkers)}")
        if len(self.artillery) != ARTILLERY:
            out.append(f"a map has {ARTILLERY} artillery pieces, this one {len(self.artillery)}")
        for kind, cells in (("bunker", self.bunkers), ("artillery", self.artillery)):
            seen, twice = set(), set()
            for c in cells:  # each problem once: a hostile log may repeat a cell 300,000 times
                if c in seen:
                    if c not in twice:
                        out.append(f"{kind} cell {c} is listed twice")
                        twice.add(c)
                    continue
                seen.add(c)
                if c in self.mountains:
                    out.append(f"{kind} cell {c} is on a mountain")
        for c in sorted(set(self.bunkers) & set(self.artillery)):
            out.append(f"cell {c} holds both a bunker and an artillery piece")
        return out

    def line(self) -> str:
        """The map in one canonical line, ``M:<mountains, sorted>|B:<bunkers>|A:<artillery>``
        (``Mission.map_line``, which the verification id hashes; here, as this module is
        compiled and the mission's is not)."""
        return (f"M:{' '.join([CELL_NAMES[c] for c in sorted(self.mountains)])}"
                f"|B:{' '.join([CELL_NAMES[c] for c in self.bunkers])}"
                f"|A:{' '.join([CELL_NAMES[c] for c in self.artillery])}")


class _Draws:
    """Hands out the number cards of a setup draw, skipping face cards and Jokers (R1)."""

    def __init__(self, cards: Iterable[Card], what: str) -> None:
        self.cards = list(cards)
        self.pos = 0
        self.what = what

    def number(self) -> Card:
        cards, pos = self.cards, self.pos
        while pos < len(cards):
            card = cards[pos]
            pos += 1
            if 1 <= card.rank <= 10:  # card.is_number, inlined: the hot loop of map building
                self.pos = pos
                return card
        self.pos = pos
        raise SetupError(f"{self.what}: ran out of cards; a cell needs two number cards (A-10), "
                         "face cards and Jokers are set aside (R1)")

    def cell(self) -> Cell:
        """R1: the first card gives the column, the second the row."""
        column_card = self.number()
        row_card = self.number()
        return CELLS[(row_card.rank - 1) * SIZE + column_card.rank - 1]  # Cell.at(column, row)

    def used(self) -> list[Card]:
        return self.cards[: self.pos]

    def check_exhausted(self) -> None:
        """R27: nothing is drawn after the last number card needed."""
        if self.pos < len(self.cards):
            extra = " ".join(str(c) for c in self.cards[self.pos:])
            raise SetupError(f"{self.what}: card(s) {extra} come after the last number card "
                             "needed; nothing more is drawn (R27)")


def ridges_from_cards(cards: Iterable[Card], count: int, *,
                      strict: bool = False) -> tuple[list[Ridge], list[list[Card]]]:
    """``count`` ridges from the ridge draw (R1, R2). Returns the ridges and, for each, the
    cards it used in draw order (set-aside face cards included).

    ``strict`` (hand setup, R27) rejects cards left over after the last one needed.
    """
    draws = _Draws(cards, "ridge setup")
    ridges, used = [], []
    for _ in range(count):
        before = draws.pos
        start, end = draws.cell(), draws.cell()
        ridges.append(Ridge(start, end))
        used.append(draws.cards[before:draws.pos])
    if strict:
        draws.check_exhausted()
    return ridges, used


def _place(draws: _Draws, count: int, occupied: set) -> list[Cell]:
    """Place ``count`` targets in draw order, each on its cell or the nearest open one (R3)."""
    cells = []
    for _ in range(count):
        cell = nearest_open_cell(draws.cell(), occupied)
        occupied.add(cell)
        cells.append(cell)
    return cells


def targets_from_cards(cards: Iterable[Card], mountains: Iterable[Cell], *, strict: bool = False
                       ) -> tuple[tuple[Cell, ...], tuple[Cell, ...], list[Card], list[Card]]:
    """Six bunkers then four artillery from the one target draw (R1, R3, R5).

    Returns (bunkers, artillery, bunker cards used, artillery cards used).
    """
    draws = _Draws(cards, "target setup")
    occupied = set(mountains)
    bunkers = _place(draws, BUNKERS, occupied)
    split = draws.pos
    artillery = _place(draws, ARTILLERY, occupied)
    if strict:
        draws.check_exhausted()
    return tuple(bunkers), tuple(artillery), draws.cards[:split], draws.cards[split:draws.pos]


def mountains_of(ridges: Iterable[Ridge]) -> frozenset[Cell]:
    out: set[Cell] = set()
    for ridge in ridges:
        out.update(ridge.cells)
    return frozenset(out)


def build_map(ridge_cards: Iterable[Card], target_cards: Iterable[Card], ridge_count: int, *,
              strict: bool = False) -> tuple[GameMap, dict]:
    """The whole setup (R1–R3, R5) from the two draws. Returns the map and the setup record
    ``{"ridges": [[cards], …], "bunkers": [cards], "artillery": [cards]}``.
    """
    ridges, ridge_used = ridges_from_cards(ridge_cards, ridge_count, strict=strict)
    mountains = mountains_of(ridges)
    bunkers, artillery, b_used, a_used = targets_from_cards(target_cards, mountains, strict=strict)
    record = {"ridges": ridge_used, "bunkers": b_used, "artillery": a_used}
    return GameMap(mountains, bunkers, artillery, tuple(ridges)), record


def _check_no_repeats(cards: Iterable[Card], what: str) -> None:
    """R5: no card twice within one setup draw (the two Jokers are two cards)."""
    seen: dict = {}
    for card in cards:
        seen[card] = seen.get(card, 0) + 1
        if seen[card] > (2 if card.is_joker else 1):
            raise SetupError(f"{card} appears twice in {what}; each draw is from one deck (R5)")


def build_map_from_setup_lines(ridge_lines: Sequence[Sequence[Card]], bunker_cards: Sequence[Card],
                               artillery_cards: Sequence[Card]) -> GameMap:
    """Rebuild a hand-set-up map from a log's setup lines (R1–R3, R27): one card list per
    ridge, then the bunkers' and the artillery's cards, each list exactly what was drawn.
    """
    if not 1 <= len(ridge_lines) <= MAX_RIDGES:
        raise SetupError(f"a map has 1 to {MAX_RIDGES} ridges, the setup lists {len(ridge_lines)}")
    _check_no_repeats([c for cards in ridge_lines for c in cards], "the ridge draw")
    _check_no_repeats(list(bunker_cards) + list(artillery_cards), "the target draw")
    ridges = [ridges_from_cards(cards, 1, strict=True)[0][0] for cards in ridge_lines]
    mountains = mountains_of(ridges)
    occupied = set(mountains)
    placed = []
    for what, cards, count in (("setup bunkers", bunker_cards, BUNKERS),
                               ("setup artillery", artillery_cards, ARTILLERY)):
        draws = _Draws(cards, what)
        placed.append(tuple(_place(draws, count, occupied)))
        draws.check_exhausted()
    return GameMap(mountains, placed[0], placed[1], tuple(ridges))
