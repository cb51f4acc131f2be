"""A greedy player: one step of look-ahead with a hand-written value, for ``bgrid simulate
--player greedy``.

The random player (``players.random_player``) is a floor that almost never wins, so its win rate says
little about a mission. This player does what a beginner would: bomb when over a target, shoot
when it can destroy, fly toward the nearest bunker, come down to the low bombing band over a
target, never crash on purpose, avoid leaving the map. Ties are broken with the seeded dice,
and it only plays actions from ``engine.legal_actions_by_kind``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, TypeVar

from ..challenges.seeding import SeededStream
from ..rules.actions import Action, Altitude, Bomb, EndPhase, EnterColumn, Guns, Move, Resupply, Throttle
from ..rules.cards import Card
from ..rules.board import Cell, distance
from ..rules.legality import altitude_delta, legal_actions_by_kind, trace_move
from ..rules.ruleset import Play
from ..rules.state import GameState

if TYPE_CHECKING:  # the playout's batched dice; the playout imports the players
    from .playout import Dice

T = TypeVar("T")

_BOMB_PLAYS = (Play.BOMB, Play.WILD)  # a Joker can always be declared a bomb
_MOVE_PLAYS = (Play.MOVE, Play.WILD)


def greedy_action(state: GameState, rng: SeededStream | Dice) -> Action:
    """The legal decision with the highest value; ties broken by ``rng.below``."""
    best = best_of(valued_actions(state))
    return best[rng.below(len(best))]


def best_of(valued: Iterable[tuple[float, T]]) -> list[T]:
    """The items of the (value, item) pairs with the highest value, in their order: greedy's
    choices before its tie-break."""
    best: list[T] = []
    best_value = None
    for value, item in valued:
        if best_value is None or value > best_value:
            best, best_value = [item], value
        elif value == best_value:
            best.append(item)
    return best


def valued_actions(state: GameState) -> Iterator[tuple[float, Action]]:
    """Each legal decision with greedy's value of it, in ``legal_actions_by_kind`` order."""
    # A hand with no movement card is stuck: playing any harmless card makes room for a
    # new one, so every play but the end of the phase gains a little.
    kinds = state.ruleset.card_kinds
    stuck = not any(kinds[c.rank].play in _MOVE_PLAYS for c in state.hand)
    for group in legal_actions_by_kind(state).values():
        for action in group:
            value = _value(state, action)
            if stuck and not isinstance(action, EndPhase) and value > -40:
                value += 5
            yield value, action


def _nearest_bunker(state: GameState, cell: Cell) -> int:
    return min((distance(cell, b) for b in state.bunkers), default=0)


def _keeps_a_bomb(state: GameState, *spent: Card) -> bool:
    """A bomb card (or a Joker) stays in hand after ``spent`` are played."""
    rest = list(state.hand)
    for card in spent:
        rest.remove(card.physical)
    kinds = state.ruleset.card_kinds
    return any(kinds[c.rank].play in _BOMB_PLAYS for c in rest)


def _value(state: GameState, action: Action) -> float:
    if isinstance(action, EnterColumn):
        return -_nearest_bunker(state, Cell.at(action.column, 1))
    if isinstance(action, Bomb):
        precise = state.ruleset.card_kinds[action.card.acting.rank].precise
        return 100 + (precise and state.altitude > state.ruleset.low_bombing_altitude)
    if isinstance(action, Guns):
        return 40 if state.altitude < state.ruleset.guns_suppress_altitude else 15
    if isinstance(action, Move):
        return _move_value(state, action, 0, (action.card,))
    if isinstance(action, Altitude):
        return _altitude_value(state, action, 0, (action.card,))
    if isinstance(action, Throttle):
        spent = (action.card, action.paired.card)
        bonus = state.ruleset.throttle_bonus
        if isinstance(action.paired, Move):
            return _move_value(state, action.paired, bonus, spent) - 2
        return _altitude_value(state, action.paired, bonus, spent) - 2
    if isinstance(action, Resupply):
        return 3 if not _keeps_a_bomb(state, action.card) else -2
    assert isinstance(action, EndPhase)
    return 0


def _move_value(state: GameState, move: Move, bonus: int, spent: tuple[Card, ...]) -> float:
    trace = trace_move(state, move, bonus)
    if trace.exited:
        return -40
    value = 20 - 3 * _nearest_bunker(state, trace.end)
    if trace.end in state.bunkers and _keeps_a_bomb(state, *spent):
        value += 25
    return value


def _altitude_value(state: GameState, alt: Altitude, bonus: int, spent: tuple[Card, ...]) -> float:
    new = state.altitude + altitude_delta(state.ruleset, alt.card.acting, bonus)
    if state.cell in state.mountains and new < state.ruleset.mountain_clearance:
        return -1000  # a crash (R10)
    over_target = state.cell in state.bunkers or state.cell in state.artillery
    low = state.ruleset.low_bombing_altitude
    if over_target and _keeps_a_bomb(state, *spent) and state.altitude > low >= new:
        # Down to the low band first, then bomb with the second action (R16: any red hits).
        return 110 if state.actions == 0 and not isinstance(alt, Throttle) and not bonus else 30
    return -1
