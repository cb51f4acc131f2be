"""Plain-language context for a verifier message: the state and what would have been legal.

python-chess puts the position in every error; we put the bomber's state (cell, facing,
altitude, damage/health, hand, draw pile, turn) and a per-card summary of the legal plays,
so a player can find the slip on paper without replaying the whole mission.
"""

from __future__ import annotations

from ..rules.actions import Altitude, Bomb, EndPhase, EnterColumn, Guns, Move, Resupply, Throttle
from ..rules.board import COLUMN_LETTERS
from ..rules.engine import chance_outcomes, chance_pending, legal_actions
from ..rules.state import GameState, Phase

_SHOW_PILE = 8  # list the draw pile's cards when it is this small


def describe_state(state: GameState, log_turn: int | None = None) -> str:
    """``turn 3, at C4 facing S, alt 3, dmg 1/5, hand 7H 2S, draw pile 31, artillery B9 F8
    (F8 suppressed), bunkers left A5 C3``: what the paper should show at that moment.

    ``log_turn`` is the last turn the log wrote. After an Automa card (or an exit) the engine
    is already in the next turn while the log still is in the last one: the state then says
    ``end of turn 1`` rather than a turn the player has not begun."""
    parts = state.describe_parts()
    if log_turn and log_turn < state.turn:
        parts["turn"] = f"end of turn {log_turn}"
    elif state.phase is Phase.ACTIONS:  # (behind, the count would be of a turn not begun)
        parts["actions"] = f"actions played {state.actions}/{state.ruleset.actions_per_turn}"
    parts["targets"] = targets_text(state)
    text = ", ".join(parts.values())
    if state.outcome is not None:
        text += f"; the mission is over: {outcome_text(state)}"
    return text


def targets_text(state: GameState) -> str:
    """The artillery where it stands (R20's column-then-row order), which of it is suppressed
    (R21), and the bunkers left: the parts of the paper a state line does not check."""
    order = sorted(state.artillery, key=lambda c: (c.column, c.row))
    text = "artillery " + (" ".join(map(str, order)) or "none")
    suppressed = [c for c in order if c in state.suppressed]
    if suppressed:
        text += f" ({' '.join(map(str, suppressed))} suppressed)"
    bunkers = sorted(state.bunkers, key=lambda c: (c.column, c.row))
    return text + ", bunkers left " + (" ".join(map(str, bunkers)) or "none")


def outcome_text(state: GameState) -> str:
    if state.outcome is None:
        return "not over"
    if state.cause is None:
        return f"{state.outcome} (all bunkers destroyed)"
    return f"{state.outcome} ({state.cause})"


def legal_summary(state: GameState, log_turn: int | None = None) -> list[str]:
    """What could come next, grouped per card: ``move 5C (5 points)``, ``alt QH`` …; when the
    engine is in a turn the log has not begun (``log_turn`` behind), its ``turn`` line first."""
    plays = _legal_plays(state)
    if log_turn and log_turn < state.turn:
        return [f"turn {state.turn} (its line first)"] + [f"then {p}" for p in plays[:1]] + plays[1:]
    return plays


def _legal_plays(state: GameState) -> list[str]:
    purpose = chance_pending(state)
    if purpose is not None:
        outcomes = chance_outcomes(state)
        if state.challenge:
            return [f"the {purpose} card, which the challenge deck fixes as {outcomes[0]}"]
        if len(state.draw_pile) <= _SHOW_PILE:
            return [f"the {purpose} card, one of {' '.join(sorted(set(map(str, outcomes))))}"]
        return [f"the {purpose} card, any of the {len(state.draw_pile)} cards in the draw pile"]
    if state.phase is Phase.ENTRY_COLUMN:
        return [f"an entry column {COLUMN_LETTERS[0]}-{COLUMN_LETTERS[-1]}"]
    if state.phase is not Phase.ACTIONS:
        return []
    groups: dict[str, list[str]] = {}
    order: list[str] = []

    def add(key: str, detail: str = "") -> None:
        if key not in groups:
            groups[key] = []
            order.append(key)
        if detail and detail not in groups[key]:
            groups[key].append(detail)

    for action in legal_actions(state):
        if isinstance(action, Move):
            points = state.ruleset.kind_of(action.card).points
            add(f"move {action.card}", f"up to {points} points")
        elif isinstance(action, Altitude):
            add(f"alt {action.card}")
        elif isinstance(action, Guns):
            add(f"guns {action.card}", f"at {action.target}")
        elif isinstance(action, Bomb):
            add(f"bomb {action.card}")
        elif isinstance(action, Throttle):
            add(f"throttle {action.nine}", f"with {action.paired.card}")
        elif isinstance(action, Resupply):
            add(f"resupply {action.king}")
        elif isinstance(action, EnterColumn):
            add("enter column", COLUMN_LETTERS[action.column])
        elif isinstance(action, EndPhase):
            add("end the player phase")
    return [f"{key} ({', '.join(groups[key])})" if groups[key] else key for key in order]
