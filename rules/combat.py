"""Guns, bombs, damage and the end of a mission (rulebook: Guns, Bombs, Precision Bomb,
Winning and Losing; R14–R17, R23, R32, R39).

These functions mutate a :class:`~rules.state.GameState` on behalf of ``rules.engine`` and
append the events they cause; nothing else should call them.
"""

from __future__ import annotations

from typing import Final

from .board import BETWEEN, NEIGHBOURS, Cell
from .cards import SUIT_LETTER, Card
from .events import Bonus, Crater, Damage, DamageCause, Defeat, Destroyed, Missed, Suppressed, Victory
from .state import CardPurpose, DefeatCause, GameState, Outcome, Phase

# Enum members read on every call, bound once (why: rules.state).
_OVER: Final = Phase.OVER
_VICTORY: Final = Outcome.VICTORY
_DEFEAT: Final = Outcome.DEFEAT
_BY_DAMAGE: Final = DefeatCause.DAMAGE

MISS: Final = 0
NEAR_MISS: Final = 1
HIT: Final = 2


# -- the end (R23) ----------------------------------------------------------------------

def finish(state: GameState, outcome: Outcome, cause: DefeatCause | None, events: list,
           purpose: CardPurpose | None = None) -> None:
    """End the mission at once (R23): nothing after this is played."""
    state.phase = _OVER
    state.outcome = outcome
    state.cause = cause
    state.end_card_purpose = purpose
    state.pending = None
    if outcome is _VICTORY:
        events.append(Victory())
    else:
        assert cause is not None  # a defeat always has its cause
        events.append(Defeat(cause, purpose))


def take_damage(state: GameState, amount: int, cause: DamageCause, events: list,
                purpose: CardPurpose | None = None) -> bool:
    """Add damage; True if it ends the mission (damage >= health, R4, R23)."""
    state.damage += amount
    events.append(Damage(amount, cause, state.damage))
    if state.damage >= state.health:
        finish(state, _DEFEAT, _BY_DAMAGE, events, purpose)
        return True
    return False


def _destroy(state: GameState, cell: Cell, by: str, events: list) -> None:
    """Remove the target in ``cell``; the cell counts for the chain bonus from now (R32)."""
    if cell in state.bunkers:
        state.bunkers.discard(cell)
        state.bunkers_destroyed += 1
        kind = "bunker"
    else:
        state.artillery.discard(cell)
        state.suppressed.discard(cell)
        state.artillery_destroyed += 1
        kind = "artillery"
    state.destroyed.add(cell)
    events.append(Destroyed(cell, kind, by))
    if not state.bunkers:
        finish(state, _VICTORY, None, events)  # R23: at once, even mid-phase


# -- guns (R15, R39) --------------------------------------------------------------------

def can_fire_guns(state: GameState) -> bool:
    return state.altitude <= state.ruleset.guns_max_altitude


def is_guns_target(state: GameState, target: Cell) -> bool:
    """An artillery piece (ready or suppressed) in line of sight within range 3; the
    bomber's own cell included (R14, R15, R39)."""
    cell = state.cell
    if target not in state.artillery or cell is None:
        return False
    between = BETWEEN[cell][target]
    if between is None:
        return False
    reach = 0 if target == cell else len(between) + 1  # R14: steps, same cell 0
    if reach > state.ruleset.guns_range:
        return False
    mountains = state.mountains
    return not any(c in mountains for c in between)


def guns_targets(state: GameState) -> list[Cell]:
    """The legal guns targets, in board order (empty above altitude 4)."""
    if not can_fire_guns(state):
        return []
    return sorted(c for c in state.artillery if is_guns_target(state, c))


def revealed_suit(state: GameState, card: Card) -> str:
    """The suit letter a revealed card counts as on the player's own check: a Joker counts
    as ``ruleset.revealed_joker_counts_as`` (R17, a Heart in standard-1)."""
    suit = card.suit
    return state.ruleset.revealed_joker_counts_as if suit is None else SUIT_LETTER[suit]


def resolve_guns(state: GameState, target: Cell, revealed: Card, events: list) -> None:
    """Red: destroy at altitude 0–3, suppress at 4 (a suppressed piece stays suppressed,
    R39). Black: miss. Never affects bunkers (R15)."""
    if revealed_suit(state, revealed) in "HD":
        if state.altitude < state.ruleset.guns_suppress_altitude:
            _destroy(state, target, "guns", events)
        else:
            already = target in state.suppressed
            state.suppressed.add(target)
            events.append(Suppressed(target, already))
    else:
        events.append(Missed(target, "guns"))


# -- bombs (R16, R32) -------------------------------------------------------------------

def bomb_target(state: GameState) -> Cell | None:
    """The bomber's cell if it holds a bunker or an artillery piece (R16), else None."""
    cell = state.cell
    if cell is not None and (cell in state.bunkers or cell in state.artillery):
        return cell
    return None


def bomb_band(state: GameState, acting: Card, suit: str) -> int:
    """The band before any bonus: a precise bomb card (the Ace) at any altitude and the others
    in the low band (altitude 0–2 in standard-1): red hit, black near miss; above the low
    band: Hearts hit, Diamonds near miss, black miss (R16)."""
    rs = state.ruleset
    if state.altitude <= rs.low_bombing_altitude or rs.card_kinds[acting.rank].precise:
        return HIT if suit in "HD" else NEAR_MISS
    return {"H": HIT, "D": NEAR_MISS}.get(suit, MISS)


def resolve_bomb(state: GameState, acting: Card, revealed: Card, events: list) -> None:
    """One bombing reveal: band, at most one improvement (chain or crater), result (R16)."""
    cell = state.cell
    assert cell is not None  # a bomb is played only on the map (R16)
    band = bomb_band(state, acting, revealed_suit(state, revealed))
    if band < HIT:
        # R32: the four orthogonal neighbours only; the crater bonus does not stack with it.
        if any(n in state.destroyed for n in NEIGHBOURS[cell]):
            band += 1
            events.append(Bonus(cell, "chain"))
        elif cell in state.craters:
            band += 1
            events.append(Bonus(cell, "crater"))
    if band == HIT:
        _destroy(state, cell, "bomb", events)
    elif band == NEAR_MISS:
        state.craters.add(cell)
        events.append(Crater(cell))
    else:
        events.append(Missed(cell, "bomb"))
