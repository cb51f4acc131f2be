"""The Automa phase, steps 2–5, once its card has been revealed (rulebook: Enemy Phase;
R18–R21, R34). Step 1, the reveal, is a chance node of ``rules.engine``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from .board import BETWEEN, CELLS, SIZE, Cell, distance
from .cards import SUIT_LETTER, Card
from .combat import take_damage
from .events import (ArtilleryFired, ArtilleryHeld, ArtilleryMoved, DamageCause, Discarded,
                     Recovered)
from .state import COLUMN_THEN_ROW, GameState

_BY_ARTILLERY: Final = DamageCause.ARTILLERY  # bound once (why: rules.state)


def artillery_reach(state: GameState) -> int:
    """Artillery range: 4 minus the bomber's altitude, at least 1 (R18)."""
    return state.ruleset.artillery_reach(state.altitude)


#: BUNKER_KEY[piece][bunker]: distance first, then column, then row (R19), as one number.
BUNKER_KEY: Final = tuple(tuple(distance(p, b) * SIZE * SIZE + COLUMN_THEN_ROW[b] for b in CELLS)
                   for p in CELLS)


#: The cells in column-then-row order: the cell whose COLUMN_THEN_ROW key is k is at index k.
_BY_COLUMN_THEN_ROW: Final = tuple(sorted(CELLS, key=COLUMN_THEN_ROW.__getitem__))


def in_column_then_row(cells: Iterable[int]) -> list[Cell]:
    """``cells`` sorted in column-letter, then row order (R34)."""
    # sorted(cells, key=COLUMN_THEN_ROW.__getitem__) as a sort of plain ints: compiled, the
    # key's call for each cell was most of the sort (and cells read as int index the table
    # directly, where a Cell goes through PyObject_GetItem)
    keys = [COLUMN_THEN_ROW[c] for c in cells]
    keys.sort()  # in place: sorted() would copy the list first
    return [_BY_COLUMN_THEN_ROW[k] for k in keys]


def _step_toward(piece: int, goal: int) -> Cell | None:
    dc = goal % SIZE - piece % SIZE
    dr = goal // SIZE - piece // SIZE
    if dc == 0 and dr == 0:
        return None
    if abs(dr) >= abs(dc):
        return CELLS[piece + (SIZE if dr > 0 else -SIZE)]
    return CELLS[piece + (1 if dc > 0 else -1)]


_STEP: Final = tuple(tuple(_step_toward(p, g) for g in range(SIZE * SIZE)) for p in range(SIZE * SIZE))


def step_toward(piece: Cell, goal: Cell) -> Cell | None:
    """The cell an artillery piece at ``piece`` steps to on its way to ``goal`` (R20), before
    anything blocks it; None when it is there."""
    return _STEP[piece][goal]


def nearest_bunker(piece: int, bunkers: list[Cell]) -> Cell:
    """The surviving bunker a piece heads for on a Spades card (R19): nearest, ties by column,
    then row. Raises ValueError when there is none. ``bunkers`` a list: compiled, a list is
    walked by index, where a set steps an iterator object (several pieces search the same
    bunkers in one Automa phase)."""
    # min(bunkers, key=keys.__getitem__) written out: half the time, compiled or not (the keys
    # differ, so the first of equals cannot matter)
    keys = BUNKER_KEY[piece]
    best: Cell | None = None
    best_key = 0
    for bunker in bunkers:
        at: int = bunker  # compiled, an int indexes a tuple directly, a Cell through PyObject_GetItem
        key = keys[at]
        if best is None or key < best_key:
            best, best_key = bunker, key
    if best is None:
        raise ValueError("nearest_bunker: no bunker left")
    return best


def resolve_automa(state: GameState, card: Card, events: list) -> None:
    """Steps 2–5 for the revealed Automa ``card``. The card is in ``state.in_play``.

    A Joker: no fire, no movement (rulebook; R18). Suppressed pieces recover at step 4
    whatever the card (R21). Stops at once if the fire damage ends the mission (R23).
    """
    # R34: the column-then-row order of the positions at step 2.
    suppressed = state.suppressed
    ready = in_column_then_row(state.artillery - suppressed if suppressed else state.artillery)
    suit = card.suit
    if suit is not None:  # not a Joker
        # Step 2 — fire (R18): saturation cap, one hit of the ruleset's artillery damage when
        # any piece can fire.
        # The cap covers fire only (R40): an exhaustion met revealing this card already hurt.
        firing = _firing(state, ready)
        if firing:
            events.append(ArtilleryFired(tuple(firing)))
            if take_damage(state, state.ruleset.artillery_damage, _BY_ARTILLERY, events):
                return
        # Step 3 — move (R19, R20, R34): the ready pieces that could not fire.
        move = state.ruleset.automa_suits[SUIT_LETTER[suit]]
        _move_pieces(state, [p for p in ready if p not in firing] if firing else ready, move,
                     events)
    # Step 4 — suppression recovery (R21).
    if suppressed:
        for piece in in_column_then_row(suppressed):
            events.append(Recovered(piece))
        suppressed.clear()
    # Step 5 — discard (R8).
    state.in_play.remove(card)
    state.discard.append(card)
    events.append(Discarded((card,)))


def _firing(state: GameState, ready: list[Cell]) -> list[Cell]:
    """The ready pieces that fire at Step 2 (R18): line of sight (no mountain strictly
    between, R14) and range within the reach."""
    cell, mountains = state.cell, state.mountains
    assert cell is not None  # the Automa acts while the bomber is on the map (R34)
    reach = artillery_reach(state)
    firing = []
    bomber: int = cell  # compiled, an int indexes a tuple directly, a Cell through PyObject_GetItem
    for piece in ready:
        at: int = piece  # (as bomber)
        between = BETWEEN[at][bomber]
        if between is not None and (at == bomber or len(between) < reach) \
                and mountains.isdisjoint(between):
            firing.append(piece)
    return firing


def artillery_after(state: GameState, move: str | None) -> set[Cell]:
    """Where the artillery stands after an Automa phase whose card's entry in the ruleset's
    Automa table is ``move`` (None: a Joker, no fire and no movement), as :func:`resolve_automa`
    leaves it (R18-R21, R34); the damage is not counted and ``state`` is not changed."""
    if move is None:
        return set(state.artillery)
    return artillery_after_each(state, [move])[0]


def artillery_after_each(state: GameState, moves: list[str]) -> list[set[Cell]]:
    """:func:`artillery_after` for each of ``moves`` (entries of the Automa table) from the
    same ``state``: the fire step, which decides the pieces that move (R18), is worked out once."""
    suppressed = state.suppressed
    ready = in_column_then_row(state.artillery - suppressed if suppressed else state.artillery)
    firing = _firing(state, ready)
    moving = [p for p in ready if p not in firing] if firing else ready
    out = []
    for move in moves:
        after = set(state.artillery)
        _move_pieces(state, moving, move, None, after)
        out.append(after)
    return out


def _move_pieces(state: GameState, pieces: list[Cell], move: str, events: list | None,
                 artillery: set[Cell] | None = None) -> None:
    """Automa step 3 for ``pieces`` in order (R34: each move sees the pieces moved before it).
    ``move``: the suit's entry of the ruleset's Automa table (R19). ``artillery``: the set
    the moves are made in, the state's own unless given (a look-ahead leaves the state be);
    ``events`` None: a look-ahead that wants no events (the dead-hand search makes thousands)."""
    if move == "hold":
        if events is not None:
            for piece in pieces:
                events.append(ArtilleryHeld(piece, "hold"))
        return
    mountains, bunkers = state.mountains, state.bunkers
    if artillery is None:
        artillery = state.artillery
    toward_bomber = move == "toward-bomber"
    targets = [] if toward_bomber else list(bunkers)  # (nearest_bunker)
    cell = state.cell
    assert cell is not None  # the Automa acts while the bomber is on the map (R34)
    # ints, not Cells: compiled, an int indexes a tuple directly, a Cell through PyObject_GetItem
    bomber: int = cell
    goal: int
    for piece in pieces:
        at: int = piece
        if toward_bomber:
            goal = bomber
        elif targets:
            goal = nearest_bunker(at, targets)
        else:
            if events is not None:
                events.append(ArtilleryHeld(piece, "no-bunker"))
            continue
        target = _STEP[at][goal]  # step_toward, inlined: the Automa's hot loop
        # R20/R34: mountains, bunkers and artillery (as they stand now) block; the bomber's
        # cell, craters and cells of destroyed targets do not. A step toward a goal on the
        # board never leaves the board.
        if target is None or target in mountains or target in bunkers or target in artillery:
            if events is not None:
                events.append(ArtilleryHeld(piece, "blocked", target))
            continue
        artillery.discard(piece)
        artillery.add(target)
        if events is not None:
            events.append(ArtilleryMoved(piece, target))
