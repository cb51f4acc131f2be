"""Notes: legal events a careful player may still have missed, each with its line and rule.

The replay hands every statement's events here as the engine returned them, with the state
just after them. A note is not an error: the log stays valid. It says what the rules did
that a player often believes did not happen: a move stopped short at a mountain (R9), an
entry shifted off a mountain (R13), a bomb improved by the chain or a crater (R16, R32), a
revealed Joker counted as a Heart (R17), artillery that could not take its step (R20).
At most one note per statement: several such events on one line make one note.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final, NamedTuple

from ..rules.artillery_pieces import ArtilleryPieces
from ..rules.automa_words import blocker_text
from ..rules.board import FORWARD, NEIGHBOURS, Cell
from ..rules.cards import Suit
from ..rules.events import ArtilleryHeld, Bonus, Crater, Destroyed, Entered, Event, Moved, Revealed
from ..rules.state import GameState

_new_tuple: Final = tuple.__new__  # a Note from its fields, without NamedTuple's __new__ (a Python function)


class Note(NamedTuple):
    """One note: where (line, column of the play or card), the rule, and what happened. A
    named tuple, not a frozen dataclass: compiled, a dataclass is built by its interpreted
    ``__init__``, several times slower, and a folder's logs make thousands."""

    line: int
    column: int
    rule: str
    message: str
    cell: Cell | None = None  # the board cell the note is about (where the report marks it)

    def __str__(self) -> str:
        return f"line {self.line}: {self.message} ({self.rule})"

    def as_dict(self) -> dict:
        return {"line": self.line, "column": self.column, "rule": self.rule, "message": self.message}

    def merged(self, later: Note) -> Note:
        """This note and a later one on the same line, as one."""
        rules = list(dict.fromkeys(self.rule.split(", ") + later.rule.split(", ")))
        return Note(self.line, self.column, ", ".join(rules), f"{self.message}; {later.message}",
                    self.cell)


def note_on(line: int, column: int, events: Sequence[Event], state: GameState, told: set,
            pieces: ArtilleryPieces | None = None) -> Note | None:
    """The note for one statement's ``events`` (``state``: just after them), or None.
    ``told``: the blocked artillery steps noted before in this mission; a piece stuck behind
    the same cell turn after turn is told once (and added to it here)."""
    facts: list[tuple[str, str]] = []  # (rule, sentence)
    held = []
    cell = None
    ev: Any  # dispatched on type(ev) through ``kind``, which mypy does not narrow
    for i, ev in enumerate(events):
        kind = type(ev)
        if kind is Moved and ev.blocked:
            last = ev.path[-1] if ev.path else ev.start
            mountain = cell = FORWARD[ev.facing][last]
            facts.append(("R9", f"the move stops at {last}: the next cell, {mountain}, is a mountain "
                          f"and the bomber flies at altitude {state.altitude}, below "
                          f"{state.ruleset.mountain_clearance}; the points left are lost"))
        elif kind is Entered and ev.shifted_from is not None:
            cell = ev.cell if cell is None else cell
            facts.append(("R13", f"the entry shifts from {ev.shifted_from} to {ev.cell}: "
                          f"{ev.shifted_from} is a mountain and the bomber enters at altitude "
                          f"{ev.altitude}, below {state.ruleset.mountain_clearance}"))
        elif kind is Revealed and ev.card.is_joker and ev.purpose in ("guns", "bomb"):
            suit = Suit(state.ruleset.revealed_joker_counts_as).noun
            cell = state.cell if cell is None else cell
            facts.append(("R17", f"the revealed Joker counts as a {suit} on the {ev.purpose} check"))
        elif kind is Bonus:
            cell = ev.cell if cell is None else cell
            facts.append(_bonus_fact(ev, events[i + 1:], state))
        elif kind is ArtilleryHeld and ev.into is not None and (ev.cell, ev.into) not in told:
            told.add((ev.cell, ev.into))
            cell = ev.cell if cell is None else cell
            name = f"artillery {ev.cell}" if pieces is None else pieces.name_at(ev.cell)
            held.append(f"{name} held: it could not step to {ev.into} ({blocker_text(ev.into, state)})")
    if held:
        facts.append(("R20", "; ".join(held)))
    if not facts:
        return None
    rules = list(dict.fromkeys(rule for rule, _ in facts))
    return _new_tuple(Note, (line, column, ", ".join(rules), "; ".join(sentence for _, sentence in facts),
                             cell))


def _bonus_fact(ev: Bonus, after: Iterable[Event], state: GameState) -> tuple[str, str]:
    """Which bonus, from what to what: the band it lifted (miss to near miss, near miss to hit)."""
    result = next((type(e) for e in after if type(e) in (Destroyed, Crater)), None)
    lifted = ("a near miss becomes a hit" if result is Destroyed else
              "a miss becomes a near miss (a crater)" if result is Crater else "the result improves")
    if ev.reason == "chain":
        # R32: the four orthogonal neighbours; cells destroyed later are not in the set yet
        next_to = " ".join(str(c) for c in sorted(NEIGHBOURS[ev.cell]) if c in state.destroyed)
        return "R16, R32", f"chain bonus on {ev.cell}, next to the destroyed target at {next_to}: {lifted}"
    return "R16", f"crater bonus on {ev.cell}, which holds a crater from an earlier near miss: {lifted}"
