"""A whole mission's artillery kept on the sheet: the turn log's columns art 1–4 hold, per
turn, a piece's new cell when it moved, "s" when it was suppressed and "✕" when destroyed
(blank: where it was). Played through a simulated mission of more than 40 turns, the
columns alone give back every piece's cell after every turn, one short entry a cell."""

from __future__ import annotations

from itertools import permutations

from bgrid.generator.sheet import longest_mission_turns
from bgrid.challenges.mission import mission_from_seed
from bgrid.players.playout import Dice, random_action, random_card_index, start_state
from bgrid.rules.engine import apply_legal, reveal_drawn
from bgrid.challenges.seeding import stream
from bgrid.rules.state import CHANCE_PHASES, Phase

COLUMN_MM = 9.25 * 192 / 179  # an art column on A4 (sheet.LOG_COLUMNS shares over 192 mm)
PENCIL_MM_PER_CHARACTER = 1.8  # small hand lettering


def long_mission(min_turns: int = 40):
    """Snapshots (turn, surviving artillery, suppressed, ever suppressed this turn) after
    every step of the first random mission on seed 1944's map lasting ``min_turns``."""
    mission = mission_from_seed(1944, "easy")
    for k in range(200):
        state = start_state(mission, False)
        dice = Dice(stream("standard-1", f"tracking-{k}", 0))
        snaps = []
        while state.phase is not Phase.OVER:
            if state.phase in CHANCE_PHASES:
                reveal_drawn(state, random_card_index(state, dice))
            else:
                apply_legal(state, random_action(state, dice))
            snaps.append((state.turn, frozenset(state.artillery), frozenset(state.suppressed)))
        if state.turn >= min_turns and len(state.game_map.artillery) == 4:
            return mission, snaps
    raise AssertionError("no long mission found")


def step_match(pieces: list, after: frozenset) -> list:
    """Each numbered piece's cell after one step of play: a piece moves at most one cell
    (R20); one that is gone was destroyed (None)."""
    alive = [p for p in pieces if p is not None]
    best = None
    for chosen in permutations(sorted(after), len(after)):
        for order in permutations(range(len(alive)), len(after)):
            cost = sum(abs(alive[i].column - c.column) + abs(alive[i].row - c.row)
                       for i, c in zip(order, chosen, strict=True))
            if all(abs(alive[i].column - c.column) + abs(alive[i].row - c.row) <= 1
                   for i, c in zip(order, chosen, strict=True)) and (best is None or cost < best[0]):
                best = (cost, dict(zip(order, chosen, strict=True)))
    assert best is not None
    moved = iter(range(len(alive)))
    out = []
    for p in pieces:
        out.append(None if p is None else best[1].get(next(moved)))
    return out


def test_a_40_turn_mission_is_tracked_in_the_art_columns():
    mission, snaps = long_mission()
    pieces = list(mission.game_map.artillery)  # numbered 1-4 in placement order
    rows: dict[int, list[str]] = {}
    ends: dict[int, list] = {}
    for turn, alive, suppressed in snaps:
        before = pieces
        pieces = step_match(pieces, alive)
        row = rows.setdefault(turn, [""] * 4)
        for n, (old, new) in enumerate(zip(before, pieces, strict=True)):
            if old is not None and new is None:
                row[n] = "✕"
            elif new is not None and new != old:
                row[n] = str(new) + (" s" if row[n].endswith("s") else "")
            if new is not None and new in suppressed and not row[n].endswith("s"):
                row[n] = (row[n] + " s").strip()
        ends[turn] = list(pieces)
    turns = max(rows)
    assert 40 <= turns <= longest_mission_turns(mission.ruleset)  # a row for every turn
    # every entry fits its column in pencil
    assert all(len(e) * PENCIL_MM_PER_CHARACTER <= COLUMN_MM for row in rows.values() for e in row)
    # reading the columns down, as a player does: the last cell written is where it is
    cells = [str(c) for c in mission.game_map.artillery]
    for turn in range(1, turns + 1):
        for n, entry in enumerate(rows.get(turn, [""] * 4)):
            word = entry.removesuffix("s").strip()
            if word == "✕":
                cells[n] = None
            elif word:
                cells[n] = word
        assert cells == [None if c is None else str(c) for c in ends[turn]], f"turn {turn}"
