"""What the player does on paper after a statement: the engine's events in the table's words.

The companion keeps the board; the paper sheet stays the board the player looks at. After
each statement the player is told what changed there: "artillery 2 moves C8 → C9", "crater
at D9", the bomber's new cell, the damage, and at an exhaustion the restack (R22, R26, R35).
Artillery pieces are named by their number, 1–4 in the order they were placed (R43).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..rules.artillery_pieces import ArtilleryPieces
from ..rules.board import Cell
from ..rules.automa_words import automa_card_text, no_step_text
from ..rules.cards import Card
from ..rules.events import (AltitudeChanged, ArtilleryFired, ArtilleryMoved, AutomaSkipped, Bonus, Crater,
                            Damage, DamageCause, Defeat, Destroyed, Discarded, Drew, Entered, Event, Missed,
                            Moved, PlayerPhaseEnded, Recovered, Reshuffled, Revealed, Suppressed, Victory)
from ..rules.state import CardPurpose, GameState

ARROW = "→"


def cards_text(cards: Iterable[Card | None]) -> str:
    return " ".join("none" if c is None else str(c) for c in cards)


def paper_steps(events: list[Event], before: ArtilleryPieces, state: GameState,
                stays_out: tuple[Card, ...] = (), new_pile: list[Card] | None = None) -> list[str]:
    """The sentences for one statement's events. ``before`` numbers the pieces as they stood
    when the events began (it is advanced here, event by event). ``stays_out``: the card(s)
    being resolved at an exhaustion (R35); ``new_pile``: the new draw pile of a challenge
    deck, top first, at that moment (R26), for an open deck only: blind, the restack is told
    by reshuffle number and the order stays hidden."""
    art = before.copy()
    said: list[str] = []
    still: tuple[int, str] | None = None  # (the event it follows, why no artillery piece moved)
    drawn: list[Card] = []

    def flush_draws() -> None:
        if drawn:
            said.append(f"draw {cards_text(drawn)}")
            drawn.clear()

    for i, ev in enumerate(events):
        if isinstance(ev, Drew) and ev.purpose is CardPurpose.DRAW:
            drawn.append(ev.card)
            continue
        flush_draws()
        if isinstance(ev, Drew):
            said.append(f"resupply: draw {ev.card}")
        elif isinstance(ev, Revealed) and ev.purpose is CardPurpose.AUTOMA:
            said.append(automa_card_text(ev.card, state.ruleset))  # a Clubs card moves nothing
            text = no_step_text(events[i:], state, art)  # "steps toward …" and no piece did
            if text is not None:  # told after the phase's fire and recovery, at its Step 5
                end = next((k for k in range(i + 1, len(events)) if isinstance(events[k], Discarded)),
                           len(events) - 1)
                still = (end, text)
        elif isinstance(ev, Revealed):
            said.append(f"{ev.purpose} card: {ev.card}")
        elif isinstance(ev, Entered):
            shifted = f" (shifted from {ev.shifted_from}, R13)" if ev.shifted_from is not None else ""
            said.append(f"bomber enters at {ev.cell} facing {ev.facing}, alt {ev.altitude}{shifted}")
        elif isinstance(ev, Moved):
            if ev.exited:
                said.append(f"bomber leaves the map from {ev.path[-2] if len(ev.path) > 1 else ev.start}")
            else:
                end = ev.path[-1] if ev.path else ev.start
                blocked = " (blocked by a mountain, R9)" if ev.blocked else ""
                said.append(f"bomber {ev.start} {ARROW} {end}, facing {ev.facing}{blocked}")
        elif isinstance(ev, AltitudeChanged):
            said.append(f"altitude {ev.old} {ARROW} {ev.new}")
        elif isinstance(ev, Bonus):
            said.append(f"{ev.reason} bonus at {ev.cell} (R16)")
        elif isinstance(ev, Destroyed):
            if ev.kind == "artillery":
                number = _number(art, ev.cell)
                said.append(f"artillery {number} destroyed at {ev.cell} by {ev.by}: cross it out")
            else:
                said.append(f"bunker at {ev.cell} destroyed by {ev.by}: tick it")
        elif isinstance(ev, Crater):
            said.append(f"crater at {ev.cell}")
        elif isinstance(ev, Suppressed):
            again = " (already suppressed, R39)" if ev.already else ""
            said.append(f"artillery {_number(art, ev.cell)} ({ev.cell}) suppressed{again}")
        elif isinstance(ev, Missed):
            said.append(f"{ev.by} missed at {ev.cell}")
        elif isinstance(ev, ArtilleryFired):
            pieces = ", ".join(f"{_number(art, c)} ({c})" for c in ev.cells)
            said.append(f"artillery {pieces} fire{'s' if len(ev.cells) == 1 else ''} (R18)")
        elif isinstance(ev, ArtilleryMoved):
            said.append(f"artillery {_number(art, ev.start)} moves {ev.start} {ARROW} {ev.end}")
        elif isinstance(ev, Recovered):
            said.append(f"artillery {_number(art, ev.cell)} ({ev.cell}) is ready again (R21)")
        elif isinstance(ev, AutomaSkipped):
            said.append("no Automa phase: the bomber is off the map")
        elif isinstance(ev, Reshuffled):
            said.append(_reshuffle_words(ev, state, stays_out, new_pile))
        elif isinstance(ev, Damage):
            said.append(_damage_words(ev, state, events))
        elif isinstance(ev, Victory):
            said.append("the last bunker is destroyed: victory (R23)")
        elif isinstance(ev, Defeat):
            said.append(f"the mission is lost: {ev.cause} (R23)")
        elif isinstance(ev, PlayerPhaseEnded) and ev.reason in ("throttle", "exit", "actions"):
            said.append({"throttle": "the Throttle ends the player phase (R11)",
                         "exit": "the player phase ends: the bomber left the map (R6)",
                         "actions": "the player phase is over (R6)"}[ev.reason])
        if still is not None and i == still[0]:
            said.append(still[1])
            still = None
        art.follow((ev,))
    flush_draws()
    return said


def _number(pieces: ArtilleryPieces, cell: Cell) -> int | Cell:
    """The number of the piece on ``cell`` (R43), or the cell where none is known."""
    number = pieces.number_at(cell)
    return cell if number is None else number


def _reshuffle_words(ev: Reshuffled, state: GameState, stays_out: tuple[Card, ...],
                     new_pile: list[Card] | None) -> str:
    out = f"reshuffle now, the deck ran out at the {ev.purpose} card (R22)"
    if stays_out:
        out += f": {' '.join(map(str, stays_out))} stays out (R35)"
    if state.challenge and new_pile is not None:
        order = cards_text(new_pile)
        return out + f"; restack the {ev.count} discards in this order, top first (R26): {order}"
    if state.challenge:  # blind: how to restack, never the order it gives (R26, R42)
        return (out + f"; restack the {ev.count} discards by reshuffle number, lowest on top, "
                "as the sheet's deck page shows (R26)")
    return out + f"; shuffle the {ev.count} discards into a new draw pile"


def _damage_words(ev: Damage, state: GameState, events: list[Event]) -> str:
    total = f"DMG {ev.total}/{state.health}"
    if ev.cause is DamageCause.EXHAUSTION:
        purpose = next((e.purpose for e in events if isinstance(e, Reshuffled)), None)
        rule = "R40" if purpose is CardPurpose.AUTOMA else "R22"
        return f"{ev.amount} damage: the deck ran out at the {purpose} card ({rule}); {total}"
    if ev.cause is DamageCause.ENTRY:
        return f"{ev.amount} damage for a face-card entry (R13); {total}"
    return f"{ev.amount} damage from artillery fire (R18); {total}"
