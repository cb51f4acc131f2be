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


def describe_state(state: GameState) -> str:
    """``turn 3, at C4 facing S, alt 3, dmg 1/5, hand 7H 2S, draw pile 31 (waiting for ...)``."""
    text = state.describe()
    if state.phase is Phase.ACTIONS:
        text += f", actions played {state.actions}/2"
    if state.outcome is not None:
        text += f"; the mission is over: {outcome_text(state)}"
    return text


def outcome_text(state: GameState) -> str:
    if state.outcome is None:
        return "not over"
    if state.cause is None:
        return f"{state.outcome} (all bunkers destroyed)"
    return f"{state.outcome} ({state.cause})"


def legal_summary(state: GameState) -> list[str]:
    """What could come next, grouped per card: ``move 5C (5 points)``, ``alt QH`` …"""
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
            add(f"move {action.card}", f"up to {action.card.acting.rank} points")
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
