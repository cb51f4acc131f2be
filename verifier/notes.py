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
from ..rules.board import CELL_NAMES, FORWARD, NEIGHBOURS, Cell
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
        return _note_dict(self)

    def merged(self, later: Note) -> Note:
        """This note and a later one on the same line, as one."""
        rules = list(dict.fromkeys(self.rule.split(", ") + later.rule.split(", ")))
        return Note(self.line, self.column, ", ".join(rules), f"{self.message}; {later.message}",
                    self.cell)


def _note_dict(note: Note) -> dict:
    return {"line": note.line, "column": note.column, "rule": note.rule, "message": note.message}


def note_dicts(notes: Iterable[Note]) -> list[dict]:
    """Each note's :meth:`Note.as_dict` (a verdict's JSON; a folder's verdicts hold thousands):
    compiled, a named tuple's method is called through Python's protocol, a function directly."""
    return [_note_dict(note) for note in notes]


def is_untold(held: ArtilleryHeld, told: dict[Cell, set[Cell]]) -> bool:
    """Whether ``held`` is a blocked step not noted before in this mission (``told``, as
    :func:`note_on` keeps it: the cells a step from each cell could not enter)."""
    into = held.into
    if into is None:
        return False
    noted = told.get(held.cell)
    return noted is None or into not in noted


def note_on(line: int, column: int, events: Sequence[Event], state: GameState,
            told: dict[Cell, set[Cell]], pieces: ArtilleryPieces | None = None) -> Note | None:
    """The note for one statement's ``events`` (``state``: just after them), or None.
    ``told``: the blocked artillery steps noted before in this mission, as the cells a step
    from each cell could not enter; a piece stuck behind the same cell turn after turn is
    told once (and added to it here)."""
    facts: list[tuple[str, str]] = []  # (rule, sentence)
    held = []
    cell = None
    ev: Any  # dispatched on type(ev) through ``kind``, which mypy does not narrow
    # each event typed once matched, as in Replay._record: compiled, its fields are then
    # read directly, not looked up by name
    for i, ev in enumerate(events):
        kind = type(ev)
        if kind is ArtilleryHeld:  # the commonest: every piece, every Automa phase
            stuck: ArtilleryHeld = ev
            into = stuck.into
            if into is not None and is_untold(stuck, told):
                noted = told.get(stuck.cell)
                if noted is None:  # not setdefault: compiled, its empty set costs a call by name
                    noted = told[stuck.cell] = set()
                noted.add(into)
                cell = stuck.cell if cell is None else cell
                name = f"artillery {stuck.cell}" if pieces is None else pieces.name_at(stuck.cell)
                # the cell's name from the table (board.CELL_NAMES says why)
                held.append(f"{name} held: it could not step to {CELL_NAMES[into]} "
                            f"({blocker_text(into, state)})")
        elif kind is Moved:
            moved: Moved = ev
            if moved.blocked:
                last = moved.path[-1] if moved.path else moved.start
                mountain = cell = FORWARD[moved.facing][last]
                facts.append(("R9", f"the move stops at {last}: the next cell, {mountain}, is a mountain "
                              f"and the bomber flies at altitude {state.altitude}, below "
                              f"{state.ruleset.mountain_clearance}; the points left are lost"))
        elif kind is Entered:
            entered: Entered = ev
            if entered.shifted_from is not None:
                cell = entered.cell if cell is None else cell
                facts.append(("R13", f"the entry shifts from {entered.shifted_from} to {entered.cell}: "
                              f"{entered.shifted_from} is a mountain and the bomber enters at altitude "
                              f"{entered.altitude}, below {state.ruleset.mountain_clearance}"))
        elif kind is Revealed:
            revealed: Revealed = ev
            if revealed.card.is_joker and revealed.purpose in ("guns", "bomb"):
                suit = Suit(state.ruleset.revealed_joker_counts_as).noun
                cell = state.cell if cell is None else cell
                facts.append(("R17", f"the revealed Joker counts as a {suit} on the "
                              f"{revealed.purpose} check"))
        elif kind is Bonus:
            bonus: Bonus = ev
            cell = bonus.cell if cell is None else cell
            facts.append(_bonus_fact(bonus, events[i + 1:], state))
    if held:
        facts.append(("R20", "; ".join(held)))
    if not facts:
        return None
    if len(facts) == 1:  # the commonest: one fact, its rule and sentence as they are
        rule, sentence = facts[0]
        return _new_tuple(Note, (line, column, rule, sentence, cell))
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
