"""The Automa card and what it makes the artillery do, in words: one text for every place
that shows it (the companion's steps, ``bgrid verify --explain``, the HTML report's log and
so the league's replay page).

Read from the ruleset's Automa table (key ``automa_suits``), so a variant ruleset is told as
it plays. A Clubs card must say so plainly: the pieces stay where they are, and no trail or
step is shown for them anywhere else.

>>> from bgrid.rules.cards import Card
>>> from bgrid.rules.ruleset import load_ruleset
>>> automa_card_text(Card.parse("7C"), load_ruleset("standard-1"))
'Automa card 7C, Clubs: the artillery holds (R19)'
>>> automa_card_text(Card.parse("JK"), load_ruleset("standard-1"))
'Automa card JK, a Joker: no fire, no movement (R18)'

A card whose suit steps the artillery may move no piece at all: every piece fired, was
suppressed or found its step blocked. :func:`no_step_text` says so, piece by piece, so a
"steps toward the bomber" is never left without a step or a reason.
"""

from __future__ import annotations

from collections.abc import Sequence, Set
from typing import Protocol

from .artillery_pieces import ArtilleryPieces
from .board import Cell
from .cards import Card
from .events import (ArtilleryFired, ArtilleryHeld, ArtilleryMoved, Defeat, Discarded, Event, Recovered,
                     Revealed)
from .ruleset import Ruleset
from .state import CardPurpose


#: R19, the movement table: what the ready pieces that could not fire do, by the table's entry
#: (Clubs in standard-1: they hold; Spades with no bunker left hold too, told piece by piece).
MOVE_WORDS = {"toward-bomber": "the artillery steps toward the bomber",
              "toward-bunker": "the artillery steps toward the nearest bunker",
              "hold": "the artillery holds"}


class BoardNow(Protocol):
    """What these words read of the board: a :class:`~bgrid.rules.state.GameState`, or the
    HTML report's board followed from the replay's events."""

    @property
    def ruleset(self) -> Ruleset: ...
    @property
    def mountains(self) -> Set[Cell]: ...
    @property
    def bunkers(self) -> Set[Cell]: ...
    @property
    def artillery(self) -> Set[Cell]: ...


def automa_card_text(card: Card, ruleset: Ruleset) -> str:
    """``Automa card 8H, Hearts: the artillery steps toward the bomber (R19)``; a Joker
    means no fire and no movement (rulebook, Step 1; R18)."""
    if card.is_joker or card.suit is None:
        return f"Automa card {card}, a Joker: no fire, no movement (R18)"
    suit = card.suit
    return f"Automa card {card}, {suit.noun}s: {MOVE_WORDS[ruleset.automa_suits[suit.value]]} (R19)"


def no_step_text(events: Sequence[Event], state: BoardNow, pieces: ArtilleryPieces) -> str | None:
    """Why no piece moved, when the Automa card revealed first in ``events`` steps the
    artillery (R19) and none took a step in its phase; else None. ``state``: just after the
    events; ``pieces``: the numbering as the phase began (no piece moved, so it names each
    piece where it stands, and the piece that blocked a step).

    ``no artillery piece moves: 4 (E9) fired; 1 (G4) blocked by a bunker at G5; 3 (H4)
    blocked by artillery 2 at H5; 2 (H5) suppressed (R18, R20, R21)``.
    """
    at = next((i for i, ev in enumerate(events) if type(ev) is Revealed
               and ev.purpose is CardPurpose.AUTOMA), None)
    if at is None:
        return None
    revealed = events[at]
    assert isinstance(revealed, Revealed)  # found just above
    card = revealed.card
    if card.suit is None or state.ruleset.automa_suits[card.suit.value] == "hold":
        return None  # a Joker, or a suit that holds: the card's own text says so
    why: list[tuple[str, str]] = []  # (rule, what kept one piece where it is)

    def piece(cell: Cell) -> str:
        number = pieces.number_at(cell)
        return f"{cell}" if number is None else f"{number} ({cell})"

    ev: object
    for ev in events[at + 1:]:
        kind = type(ev)
        if kind is Discarded:  # Step 5: the phase is over
            break
        if kind is ArtilleryMoved or kind is Defeat:
            return None  # a step to tell, or the fire ended the mission (R23)
        if isinstance(ev, ArtilleryFired):
            why += [("R18", f"{piece(c)} fired") for c in ev.cells]
        elif isinstance(ev, ArtilleryHeld):
            if ev.reason == "no-bunker":
                why.append(("R19", f"{piece(ev.cell)} has no bunker left to head for"))
            elif ev.into is not None:
                why.append(("R20", f"{piece(ev.cell)} blocked by {blocker_text(ev.into, state, pieces)} "
                                   f"at {ev.into}"))
        elif isinstance(ev, Recovered):
            why.append(("R21", f"{piece(ev.cell)} suppressed"))
    if not why:
        return "no artillery piece moves: none is left"
    rules = ", ".join(sorted(set(rule for rule, _ in why), key=lambda r: int(r[1:])))
    return f"no artillery piece moves: {'; '.join(text for _, text in why)} ({rules})"


def blocker_text(cell: Cell, state: BoardNow, pieces: ArtilleryPieces | None = None) -> str:
    """What in ``cell`` held an artillery piece's step (R20), as ``state`` shows it now: a
    mountain, a bunker, another piece (by number when ``pieces`` knows it), or a piece that
    stood there and moved on later in the same phase (R34)."""
    if cell in state.mountains:
        return "a mountain"
    if cell in state.bunkers:
        return "a bunker"
    if cell in state.artillery:
        number = None if pieces is None else pieces.number_at(cell)
        return "another artillery piece" if number is None else f"artillery {number}"
    return "an artillery piece, which moved on after"
