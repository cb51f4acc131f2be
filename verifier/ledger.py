"""The damage ledger: every point of damage with its turn, line, cause and source.

Built from the engine's ``Damage`` events as the replay meets them, with the events just
before each one that say where it came from: the entry card (R13), the artillery that fired
(which pieces, from where, along which line, at what range; R18) or the exhaustion of the
draw pile (R22). One entry per point, for every verdict up to where the replay got.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, NamedTuple, cast

from ..rules.automa import artillery_reach
from .message_context import card_noun
from ..rules.board import CELL_NAMES, Cell, distance
from ..rules.artillery_pieces import ArtilleryPieces
from ..rules.cards import Card
from ..rules.events import ArtilleryFired, Damage, DamageCause, Event, Reshuffled, Revealed
from ..rules.state import GameState

# Each cause as an entry writes it, and its rule. Picked by the branches of damage_entries,
# not looked up by cause: an Enum member hashes, and tells its value, in Python.
_BY_ENTRY: Final = (str(DamageCause.ENTRY), "R13")
_BY_ARTILLERY: Final = (str(DamageCause.ARTILLERY), "R18")
_BY_EXHAUSTION: Final = (str(DamageCause.EXHAUSTION), "R22")
_new_tuple: Final = tuple.__new__  # a LedgerEntry from its fields, without NamedTuple's __new__


class LedgerEntry(NamedTuple):
    """One point of damage (a named tuple, as :class:`notes.Note` is, for the same reason)."""

    turn: int
    line: int
    cause: str  # "entry", "artillery", "exhaustion"
    rule: str
    message: str

    def __str__(self) -> str:
        return f"turn {self.turn}, line {self.line}: {self.message} ({self.rule})"

    def as_dict(self) -> dict:
        return _entry_dict(self)


def _entry_dict(entry: LedgerEntry) -> dict:
    return {"turn": entry.turn, "line": entry.line, "cause": entry.cause, "rule": entry.rule,
            "message": entry.message}


def entry_dicts(entries: Iterable[LedgerEntry]) -> list[dict]:
    """Each entry's :meth:`LedgerEntry.as_dict`, as :func:`notes.note_dicts` (and why)."""
    return [_entry_dict(entry) for entry in entries]


def damage_entries(turn: int, line: int, events: Sequence[Event], index: int, state: GameState,
                   entry_card: Card | None = None,
                   pieces: ArtilleryPieces | None = None) -> list[LedgerEntry]:
    """The entries for the ``Damage`` event at ``events[index]``, one per point. ``turn`` is
    the engine's turn at that event; ``entry_card`` the card of an entry line; ``pieces``
    names the artillery that fired by number (R43)."""
    ev = events[index]
    assert type(ev) is Damage
    cause = ev.cause
    if cause is DamageCause.ARTILLERY:
        written, rule = _BY_ARTILLERY
        # the fire step just before: walked back by index, where compiled a generator over
        # reversed(events[:index]) costs a slice, an iterator and a generator object
        k = index - 1
        while type(events[k]) is not ArtilleryFired:
            k -= 1
        fired: ArtilleryFired = cast(ArtilleryFired, events[k])
        message = _fire_text(fired.cells, state, pieces)
    elif cause is DamageCause.EXHAUSTION:
        written, rule = _BY_EXHAUSTION
        shuffled = next((e for e in reversed(events[:index]) if type(e) is Reshuffled), None)
        message = ("exhaustion: the draw pile ran out" if shuffled is None else
                   f"exhaustion: the draw pile ran out when the "
                   f"{card_noun(shuffled.purpose, state.ruleset)} was needed, "
                   f"and the discard pile ({shuffled.count} cards) became the draw pile")
    else:
        written, rule = _BY_ENTRY
        card = entry_card or next((e.card for e in events if type(e) is Revealed
                                   and e.purpose == "entry"), None)
        shown = f" on {card}" if card is not None else ""
        message = f"entry{shown}, a face card or Joker: the player chose the column"
    entry = _new_tuple(LedgerEntry, (turn, line, written, rule, message))
    return [entry] * ev.amount


def _fire_text(cells: Sequence[Cell], state: GameState, pieces: ArtilleryPieces | None = None) -> str:
    """``artillery 2 at H6, line of sight along row 6, range 2``; several pieces share the
    one point (the saturation cap)."""
    bomber = state.cell
    assert bomber is not None  # artillery fires only at a bomber on the map (R18)
    parts = []
    # a cell's row and column as its name writes them (``H6``: column H, row 6): compiled,
    # Cell.row and Cell.column are properties of a Python class, looked up by name
    bomber_row = CELL_NAMES[bomber][1:]
    for piece in cells:
        cell_name = CELL_NAMES[piece]
        number = None if pieces is None else pieces.number_at(piece)
        name = f"at {cell_name}" if number is None else f"{number} at {cell_name}"
        if piece == bomber:
            parts.append(f"{name}, the bomber's own cell, range 0")
            continue
        row = cell_name[1:]
        along = f"row {row}" if row == bomber_row else f"column {cell_name[0]}"
        parts.append(f"{name}, line of sight along {along}, range {distance(piece, bomber)}")
    reach = artillery_reach(state)
    text = "artillery " + "; ".join(parts) + f" (reach {reach} at altitude {state.altitude})"
    if len(cells) > 1:
        most = state.ruleset.artillery_damage  # one fire step's damage however many fire (R18)
        text += f": {len(cells)} pieces fired, {most} damage at most an Automa phase"
    return text
