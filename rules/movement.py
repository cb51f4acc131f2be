"""Movement of the bomber (rulebook, Movement; R9, R31): tracing a step list and listing
every distinct place a movement card can take the bomber.

A step list is F (one cell forward), L or R (a 90° turn in place), each costing one point.
A forward step into a mountain below the clearance altitude does not happen and ends the
movement ("blocked"); a forward step off the board exits the map and ends it ("exited").
At least one forward step must happen, an exit counting as one (R31).
"""

from __future__ import annotations

import sys
from collections.abc import Container
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from mypy_extensions import mypyc_attr

from .board import FORWARD, Cell, Facing
from .errors import IllegalActionError

_TURN: Final = {"L": Facing.turned_left, "R": Facing.turned_right}
#: _TURNS_FROM[facing]: the turns in step-letter order, L then R, and the facing after each.
_TURNS_FROM: Final = {f: (("L", f.turned_left()), ("R", f.turned_right())) for f in Facing}


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class Trace:
    """Where a step list takes the bomber. ``end`` is the last cell on the board (the
    cell it exited from when ``exited``); ``path`` the cells entered, in order."""

    start: Cell
    path: tuple[Cell, ...]
    end: Cell
    facing: Facing
    exited: bool
    blocked: bool

    # Written out: mypyc compiles it (the decorator's own __init__ runs interpreted); acyclic: it
    # holds values only, so the compiled class stays out of the cycle collector.
    def __init__(self, start: Cell, path: tuple[Cell, ...], end: Cell, facing: Facing, exited: bool,
                 blocked: bool) -> None:
        object.__setattr__(self, "start", start)
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "end", end)
        object.__setattr__(self, "facing", facing)
        object.__setattr__(self, "exited", exited)
        object.__setattr__(self, "blocked", blocked)


def trace_steps(cell: Cell, facing: Facing, steps: str, points: int, mountains: Container[Cell],
                is_clear: bool, clearance: int | None = None) -> Trace:
    """Follow ``steps`` from ``cell``/``facing`` with ``points`` movement points.

    ``is_clear``: the bomber flies at or above the mountain clearance (R9), so mountains do
    not stop it; ``clearance`` (that altitude) is only named in messages. Raises
    :class:`IllegalActionError` for too many steps, a step after an exit or a blocked step (its
    ``step`` the index of the letter at fault), or no forward step that happens (R9, R31).
    """
    if len(steps) > points:
        raise IllegalActionError(
            f"the steps {steps} cost {len(steps)} points but the card gives {points} (R9)",
            "R9", "too-many-steps", step=points)
    path: list[Cell] = []
    start, moved = cell, False
    for i, step in enumerate(steps):
        if step == "F":
            ahead = FORWARD[facing][cell]
            if ahead is None or (not is_clear and ahead in mountains):
                exited = ahead is None
                if i != len(steps) - 1:
                    what = ("an exit off the board" if exited
                            else f"the blocked step into the mountain at {ahead}")
                    raise IllegalActionError(
                        f"no step may follow {what}: the movement ends there (R9, R31)",
                        "R31", "step-after-end", step=i + 1)
                if not exited and not moved:
                    raise IllegalActionError(
                        f"the only forward step runs into the mountain at {ahead} below "
                        f"{'the clearance' if clearance is None else f'altitude {clearance}'} and "
                        "does not happen; a movement must make at least one forward step (R31)",
                        "R31", "no-forward-step")
                return Trace(start, tuple(path), cell, facing, exited, not exited)
            cell = ahead
            path.append(cell)
            moved = True
        else:
            facing = _TURN[step](facing)
    if not moved:
        raise IllegalActionError(
            f"the steps {steps} make no forward step; a movement card must move the bomber at "
            "least one cell forward (R9)", "R9", "no-forward-step")
    return Trace(start, tuple(path), cell, facing, False, False)


@lru_cache(maxsize=16384)
def reachable(cell: Cell, facing: Facing, points: int, mountains: frozenset) -> tuple[str, ...]:
    """One step list for every distinct end of a movement with ``points`` points — end cell
    (for an exit, the cell it left from), facing, exited, blocked — the shortest, first in
    F, L, R order among the shortest. ``mountains`` is empty when the bomber flies above the
    clearance. The step strings are interned: the cache holds each word once.

    Breadth-first over (cell, facing, moved): a node reached by a shorter list has at least
    as many points left, so later visits add nothing.
    """
    frontier = [("", cell, facing, False)]
    seen = {(cell, facing, False)}
    ends: dict = {}
    for _ in range(points):
        nxt = []
        for steps, c, f, moved in frontier:
            ahead = FORWARD[f][c]
            if ahead is None:
                key = (c, f, True, False)
                if key not in ends:
                    ends[key] = steps + "F"
            elif ahead in mountains:
                if moved:
                    key = (c, f, False, True)
                    if key not in ends:
                        ends[key] = steps + "F"
            elif (ahead, f, True) not in seen:
                # An end (x, g, False, False) is only ever recorded with (x, g, True) marked
                # seen, so a node seen for the first time is a new end: no second lookup.
                seen.add((ahead, f, True))
                word = steps + "F"
                nxt.append((word, ahead, f, True))
                ends[(ahead, f, False, False)] = word
            for letter, g in _TURNS_FROM[f]:
                if (c, g, moved) not in seen:
                    seen.add((c, g, moved))
                    word = steps + letter
                    nxt.append((word, c, g, moved))
                    if moved:
                        ends[(c, g, False, False)] = word
        frontier = nxt
    return tuple(sys.intern(steps) for steps in ends.values())


def can_move(cell: Cell, facing: Facing, points: int, mountains: frozenset) -> bool:
    """Whether :func:`reachable` lists any step list, without listing them: some forward step
    happens (R9, R31). Turns cost a point each and the first forward step must not run into
    a mountain (an exit counts); after it every step list has an end. So: a facing within
    ``points - 1`` turns whose cell ahead is off the board or no mountain."""
    if points < 1:
        return False
    if FORWARD[facing][cell] not in mountains:  # off the board (None) is no mountain
        return True
    if points < 2:
        return False
    left, right = facing.turned_left(), facing.turned_right()
    if FORWARD[left][cell] not in mountains or FORWARD[right][cell] not in mountains:
        return True
    return points >= 3 and FORWARD[left.turned_left()][cell] not in mountains
