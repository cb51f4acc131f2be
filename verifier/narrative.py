"""``bgrid verify --explain``: the replay told turn by turn in plain words.

Read from the replay's history: for each statement, the engine's events it caused and the
bomber just after them. The player walks their paper against it line by line: the Automa
card and what it made the artillery do (fire, move, hold, recover), who moved where, what
each play did. The account stops where the replay stopped; the verdict follows it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from ..rules.artillery_pieces import ArtilleryPieces
from ..rules.automa_words import automa_card_text
from ..rules.board import Cell
from ..rules.cards import Suit
from ..log.row_reader import is_row
from ..rules.events import (AltitudeChanged, ArtilleryFired, ArtilleryHeld, ArtilleryMoved,
                            AutomaSkipped, Bonus, Crater, Damage, Defeat, Destroyed, Drew, Entered,
                            Missed, Moved, PlayerPhaseEnded, Recovered, Reshuffled, Revealed,
                            Event, Suppressed, Victory)
from ..rules.notation import count_word
from .message_context import phase_open_cards
from .replay_history import After, HistoryEntry
from ..log.notation import Statement

if TYPE_CHECKING:  # a verdict is read here, never made
    from .verdict import Verdict

_PHASE_END = {"throttle": "the Throttle ends the player phase (R11)",
              "exit": "the bomber has left the map: the player phase ends (R6)",
              "actions": "{actions} actions and no {open_cards} left: the player phase ends (R6)"}
_HOLD_WHY = {"hold": "the card says hold", "no-bunker": "no bunker is left (R19)"}


def explain(verdict: Verdict) -> list[str]:
    """The account of a verdict made with ``verify_log(..., history=True)``; empty for a log
    that could not be read as far as its body."""
    if verdict.history is None or verdict.body is None:
        return []
    stop = None
    if verdict.errors:
        line = verdict.errors[0].line
        assert line is not None  # an error once the body is read has its line
        stop = (line, verdict.errors[0].column or 1)
    start = verdict.trace.artillery_start if verdict.trace is not None else ()
    return narrate(verdict.lines or [], verdict.body, verdict.history, stop, start)


def narrate(lines: list[str], statements: Iterable[Statement], history: Iterable[HistoryEntry],
            stop: tuple[int, int] | None = None, artillery_start: Iterable[Cell] = ()) -> list[str]:
    """The account, one line a statement, a ``turn`` line opening each turn; it ends where
    the replay stopped, before the statement of ``stop`` (the first error's line and
    column: in a row, the statements before the error's cell are told). ``artillery_start``:
    the pieces' cells in placement order, so that each is told by its number (R43)."""
    by_statement: dict[int, list] = {}  # by the statement itself: a row holds several a line
    for stmt, _turn, events, after in history:
        by_statement.setdefault(id(stmt), []).append((events, after))
    pieces = ArtilleryPieces(artillery_start)
    out: list[str] = []
    for st in statements:
        if stop is not None and st.line >= stop[0]:
            row = st.line == stop[0] and is_row(lines[st.line - 1])
            if not row or max(t.column for t in st.tokens) >= stop[1]:
                break
        if st.kind == "turn":
            out.append(f"turn {st.number}")
            continue
        told = _statement_text(st, by_statement.get(id(st), ()), pieces)
        written = lines[st.line - 1].split("#")[0]
        if is_row(written):  # a row holds the turn: the statement, and where it stands in the row
            place = f"{st.line}:{st.tokens[0].column}"
            out.append(f"  line {place:>6}  {st.canonical()}: {told}")
        else:
            out.append(f"  line {st.line:>3}  {written.strip()}: {told}")
    return out


def _statement_text(st: Statement, calls: Sequence[tuple[list[Event], After]],
                    pieces: ArtilleryPieces) -> str:
    if st.kind == "state":
        return "the paper agrees with the replay"
    if st.kind == "reshuffle" and not calls:
        return "the draw pile is empty here"
    if not calls:
        return "nothing happens"
    parts: list[str] = []
    drawn: list[str] = []
    after = calls[-1][1]
    for events, _after in calls:
        for ev in events:
            text = _event_text(ev, after, drawn, pieces)
            if text:
                parts.append(text)
            pieces.follow((ev,))
    if drawn:
        parts.insert(0, f"draws {' '.join(drawn)}")
    cell, facing, altitude, damage, health, hand, _rs = after
    where = "off the map" if cell is None else f"at {cell} facing {facing}"
    cards = " ".join(map(str, hand)) or "empty"
    parts.append(f"now {where}, alt {altitude}, dmg {damage}/{health}, hand {cards}")
    return "; ".join(parts)


def _event_text(ev: Event, after: After, drawn: list[str], pieces: ArtilleryPieces) -> str | None:
    kind = type(ev)
    ruleset = after.ruleset
    if type(ev) is Drew:
        drawn.append(str(ev.card))
        return None
    if type(ev) is Entered:
        text = f"the bomber enters at {ev.cell} facing {ev.facing}, altitude {ev.altitude}"
        if ev.chosen:
            text += (f" (a face card or Joker: the column is the player's, {ruleset.face_entry_damage} "
                     "damage, R13)")
        if ev.shifted_from is not None:
            text += f" (shifted from {ev.shifted_from}, a mountain, R13)"
        return text
    if type(ev) is Moved:
        path = " ".join(map(str, ev.path))
        text = f"flies {ev.start} to {path}" if path else f"turns in {ev.start}"
        if ev.exited:
            return text + ", then off the board: it leaves the map"
        if ev.blocked:
            return text + f", facing {ev.facing}; the next cell is a mountain: the move stops (R9)"
        return text + f", facing {ev.facing}"
    if type(ev) is AltitudeChanged:
        return f"altitude {ev.old} to {ev.new}"
    if type(ev) is Revealed:
        if ev.purpose == "automa":
            return automa_card_text(ev.card, ruleset)
        if ev.purpose in ("guns", "bomb"):
            extra = (f" (a Joker: counts as a {Suit(ruleset.revealed_joker_counts_as).noun}, R17)"
                     if ev.card.is_joker else "")
            return f"reveals {ev.card}{extra}"
        return None
    if type(ev) is ArtilleryHeld:
        if ev.into is not None:
            return f"{pieces.name_at(ev.cell)} holds: {ev.into} is in the way (R20)"
        return f"{pieces.name_at(ev.cell)} holds ({_HOLD_WHY[ev.reason]})"
    if type(ev) is PlayerPhaseEnded:
        why = _PHASE_END.get(ev.reason)
        return None if why is None else why.format(actions=count_word(ruleset.actions_per_turn),
                                                   open_cards=phase_open_cards(ruleset))
    if type(ev) is ArtilleryFired:  # several pieces firing together deal one step's damage (R18)
        return (", ".join(pieces.name_at(c) for c in ev.cells) + " fire" + ("s" if len(ev.cells) == 1 else "")
                + f" ({ruleset.artillery_damage} damage at most, R18)")
    if type(ev) is Destroyed and ev.kind == "artillery":
        return f"{pieces.name_at(ev.cell)} is destroyed"
    told = _SIMPLE.get(kind)
    if told is not None:
        return told(ev)
    by_piece = _BY_PIECE.get(kind)
    return None if by_piece is None else by_piece(ev, pieces)


#: The events told in one phrase of their own fields.
_SIMPLE = {
    Bonus: lambda ev: f"{ev.reason} bonus: one band better (R16)",
    Destroyed: lambda ev: f"the {ev.kind} at {ev.cell} is destroyed",
    Crater: lambda ev: f"near miss: a crater at {ev.cell}",
    Missed: lambda ev: f"a miss on {ev.cell}",
    AutomaSkipped: lambda ev: "no Automa phase: the bomber is off the map",
    Reshuffled: lambda ev: (f"the draw pile is empty: the discard pile ({ev.count} cards) becomes "
                            "the draw pile (R22)"),
    Damage: lambda ev: f"{ev.amount} damage ({ev.cause}), {ev.total} in all",
    Victory: lambda ev: "the last bunker is destroyed: victory (R23)",
    Defeat: lambda ev: f"the mission is lost: {ev.cause} (R23)",
}

#: The events about one artillery piece, told with its number (R43): ``artillery 2 (B4)``.
_BY_PIECE = {
    Suppressed: lambda ev, p: f"{p.name_at(ev.cell)} is suppressed" + (" (it already was, R39)"
                                                                     if ev.already else ""),
    ArtilleryMoved: lambda ev, p: f"{p.name_at(ev.start)} to {ev.end}",
    Recovered: lambda ev, p: (f"{p.name_at(ev.cell)} was suppressed, skipped this phase and is "
                              "ready again (R21)"),
}
